#!/usr/bin/env python3
"""A synthetic check of tools/net/train.py: does it learn, and does the
quantised file agree with the float model?

It writes a synthetic featurized data set (random active sets of about 20
inputs a perspective, plus four planted inputs that decide the target),
trains a small net (H = 16) on it, and checks that
  1. the validation loss ends below the constant predictor's, and
  2. --predict's integer logits are within the quantisation error of the
     float model's logits (a bound computed from the weights).
Exit 0 when both hold, 1 with a one-line reason otherwise.
Run with the interpreter of tools/venv DIR tools/net-requirements.txt, given the engine's spec:
    cargo run --release --example featurize -- --spec target/net-spec.json
    python tools/net/selfcheck.py --spec target/net-spec.json
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "train.py")
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, HERE)
import data  # noqa: E402
import model  # noqa: E402
import netfile  # noqa: E402
from spec import Spec  # noqa: E402

HIDDEN = 16
N_TRAIN, N_VALID = 2000, 300
PLANTED = {17: 1.5, 903: 1.0, 1822: -1.0, 2704: -1.5}  # input -> its weight in the truth


def fail(reason):
    print(f"selfcheck: FAIL: {reason}")
    sys.exit(1)


def synthetic(path, n, rng, INPUTS):
    """n positions; a position's truth is the planted inputs of the side to
    move minus the other's; result drawn from it, value is it (or null)."""
    width, truth_loss = 0, []
    with open(path, "w") as f:
        for _ in range(n):
            sides, score = [], 0.0
            for sign in (1, -1):
                active = set(rng.choice(INPUTS, 20, replace=False).tolist()) - set(PLANTED)
                for i, w in PLANTED.items():
                    if rng.random() < 0.5:
                        active.add(i)
                        score += sign * w
                sides.append(sorted(active))
                width = max(width, len(active))
            p = 1 / (1 + np.exp(-score))
            result = float(rng.random() < p)
            value = None if rng.random() < 0.1 else round(float(p), 4)
            f.write(json.dumps({"stm": sides[0], "nstm": sides[1],
                                "result": result, "value": value}) + "\n")
            target = result if value is None else 0.5 * value + 0.5 * result
            truth_loss.append(-(target * np.log(p) + (1 - target) * np.log(1 - p)))
    return width, float(np.mean(truth_loss))


def run(spec, *args):
    proc = subprocess.run([sys.executable, TRAIN, "--spec", spec, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()
        fail(f"train.py {args[0]} exited {proc.returncode}: {tail[-1] if tail else ''}")
    return proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", required=True, metavar="FILE",
                    help="the net's contract, from featurize --spec FILE")
    spec_path = ap.parse_args().spec
    spec = Spec(spec_path)
    INPUTS, QA, QB = spec.inputs, spec.qa, spec.qb
    started = time.time()
    rng = np.random.default_rng(7)
    with tempfile.TemporaryDirectory() as tmp:
        tr, va, net = (os.path.join(tmp, n) for n in ("train.jsonl", "valid.jsonl", "check.net"))
        (w_tr, _) = synthetic(tr, N_TRAIN, rng, INPUTS)
        (w_va, truth) = synthetic(va, N_VALID, rng, INPUTS)
        width = max(w_tr, w_va)
        out = run(spec_path, "--train", tr, "--valid", va, "--out", net, "--hidden", str(HIDDEN),
                  "--epochs", "4", "--batch", "32", "--lr", "0.003", "--seed", "3")
        print(out, end="")
        losses = json.load(open(net + ".json"))["losses"]
        print(f"the truth's validation loss {truth:.4f} (the best a model can do, about)")
        if not losses["valid"] < losses["valid_constant"] - 0.02:
            fail(f"validation loss {losses['valid']:.4f} not below the constant "
                 f"predictor's {losses['valid_constant']:.4f}")

        size = os.path.getsize(net)
        if size != spec.header + 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 4:
            fail(f"{net} has {size} bytes")
        lines = run(spec_path, "--predict", net, "--data", va, "--float").split("\n")
        pairs = np.array([[float(x) for x in l.split()] for l in lines if l.strip()])
        if pairs.shape != (N_VALID, 2):
            fail(f"--predict printed {pairs.shape} values, expected {N_VALID} pairs")
        diff = np.abs(pairs[:, 0] - pairs[:, 1])

        # The integer arithmetic is exact: it must give the float model's
        # logits with the dequantised weights (W1q/QA, ...) to rounding.
        q = netfile.read_net(net, spec)
        deq = {"W1": q["W1"] / QA, "b1": q["b1"] / QA, "w2": q["w2"] / QB,
               "b2": q["b2"] / (QA * QB)}
        exact = np.abs(pairs[:, 0] - model.float_logits(deq, data.Positions(va, spec), None)).max()
        if not exact < 1e-6:
            fail(f"integer logits differ from the dequantised model's by {exact:.2e}")

        # Bound: each accumulator is off by at most (active + 1) roundings of
        # 0.5/QA, and so is h (the clamp does not widen it); each w2 by
        # 0.5/QB with h <= 1; b2 by 0.5/(QA*QB).
        p = np.load(net + ".npz")
        w2q = np.round(p["w2"] * QB) / QB
        bound = (np.abs(w2q).sum() * (width + 1) * 0.5 / QA
                 + 2 * HIDDEN * 0.5 / QB + 0.5 / (QA * QB))
        print(f"quantisation: max |integer - float| logit {diff.max():.5f}, "
              f"mean {diff.mean():.5f}, bound {bound:.5f}; "
          f"vs the dequantised float model {exact:.1e}")
        if not diff.max() <= bound:
            fail(f"quantised logits differ by up to {diff.max():.5f}, beyond the bound {bound:.5f}")
        if np.ptp(pairs[:, 0]) < 0.5:
            fail("the quantised logits hardly vary: the net learnt nothing")
    print(f"selfcheck: OK (valid {losses['valid']:.4f} < constant {losses['valid_constant']:.4f}, "
          f"quantisation max error {diff.max():.5f} <= {bound:.5f}, {time.time() - started:.1f} s)")


if __name__ == "__main__":
    main()
