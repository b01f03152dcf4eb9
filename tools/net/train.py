#!/usr/bin/env python3
"""Trains CHEX's learned evaluation (docs/net.md) with JAX on the CPU.

Training:
    train.py --train T.jsonl --valid V.jsonl --out chex.net [--hidden 64]
             [--epochs 10] [--batch 256] [--lr 1e-3] [--lambda 0.5] [--seed 1]
             [--provenance chex.net.json] [--generation N] [--games N]
             [--selfplay COMMAND] [--correct] [--best]
writes the quantised CHEXNET1 file (CHEXNET2 with --correct: the net's
output then corrects the hand-made evaluation's logit), the float weights
beside it (chex.net.npz) and a provenance JSON (default: chex.net.json).

Prediction (numpy only, no JAX needed):
    train.py --predict chex.net --data F.jsonl [--float]
prints, one a line, the logit the quantised file gives for each position,
computed with docs/net.md's integer arithmetic; with --float, a second
column: the float model's logit (from chex.net.npz) before quantisation.

A featurized file has one JSON object a line:
    {"stm": [indices], "nstm": [indices], "result": R, "value": V or null, "hand": C}
the active inputs of the side to move's and the other side's perspective,
the side to move's game result (1, 0.5, 0) and search value, and the
hand-made evaluation's centipawns (needed by --correct only).
"""

import argparse
import datetime
import hashlib
import json
import os
import subprocess
import sys
import time

import numpy as np

INPUTS = 2811
QA = 255
QB = 64
MAGIC = b"CHEXNET1"
MAGIC_CORRECTION = b"CHEXNET2"  # docs/net.md, "Version 2": a correction to the hand-made logit
LOGISTIC_SCALE = 400.0  # the engine's centipawns of a logit of 1
W1_LIMIT = 1.98  # docs/net.md: 45 active weights (and b1) must fit an i16
I16 = (-32768, 32767)
I32 = (-(2**31), 2**31 - 1)


# ---------------------------------------------------------------- data


class Positions:
    """Featurized positions as padded index arrays with masks."""

    def __init__(self, path):
        stm, nstm, result, value, hand = [], [], [], [], []
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                    s, n, r, v = rec["stm"], rec["nstm"], rec["result"], rec["value"]
                except (ValueError, KeyError) as e:
                    sys.exit(f"{path}:{number}: not a featurized position ({e})")
                for i in s + n:
                    if not (isinstance(i, int) and 0 <= i < INPUTS):
                        sys.exit(f"{path}:{number}: input index {i!r} not in 0..{INPUTS}")
                stm.append(s)
                nstm.append(n)
                result.append(float(r))
                value.append(np.nan if v is None else float(v))
                hand.append(np.nan if rec.get("hand") is None else float(rec["hand"]))
        if not stm:
            sys.exit(f"{path}: no positions")
        self.path = path
        self.n = len(stm)
        self.width = max(max(len(s) for s in stm), max(len(s) for s in nstm), 1)
        self.stm, self.stm_mask = pad(stm, self.width)
        self.nstm, self.nstm_mask = pad(nstm, self.width)
        self.result = np.array(result, np.float32)
        self.value = np.array(value, np.float32)
        # The hand-made evaluation's logit: what a correcting net adds to.
        self.hand = np.array(hand, np.float32) / LOGISTIC_SCALE

    def base(self, correcting):
        """The logit a net's output is added to: the hand-made one, or 0."""
        if not correcting:
            return np.zeros(self.n, np.float32)
        if np.isnan(self.hand).any():
            sys.exit(f"{self.path}: a correcting net needs every position's \"hand\" "
                     "(examples/featurize writes it)")
        return self.hand

    def targets(self, lam):
        """lambda * value + (1 - lambda) * result; the result alone where no value."""
        blend = lam * self.value + (1 - lam) * self.result
        return np.where(np.isnan(self.value), self.result, blend).astype(np.float32)

    def widen(self, width):
        """Pads the index arrays to `width` columns (one shape for every batch)."""
        extra = width - self.width
        if extra > 0:
            z = lambda a: np.pad(a, ((0, 0), (0, extra)))
            self.stm, self.stm_mask = z(self.stm), z(self.stm_mask)
            self.nstm, self.nstm_mask = z(self.nstm), z(self.nstm_mask)
            self.width = width


def pad(lists, width):
    idx = np.zeros((len(lists), width), np.int32)
    mask = np.zeros((len(lists), width), np.float32)
    for row, active in enumerate(lists):
        idx[row, : len(active)] = active
        mask[row, : len(active)] = 1
    return idx, mask


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# ---------------------------------------------------------------- float model (numpy)


def float_logits(p, data, correcting, chunk=4096):
    """The float model's logits, in numpy (the same model as the JAX one)."""
    out = data.base(correcting).astype(np.float64)
    for a in range(0, data.n, chunk):
        b = min(a + chunk, data.n)
        acc = lambda idx, m: p["b1"] + (p["W1"][idx[a:b]] * m[a:b, :, None]).sum(1)
        h_us = np.clip(acc(data.stm, data.stm_mask), 0, 1)
        h_them = np.clip(acc(data.nstm, data.nstm_mask), 0, 1)
        out[a:b] += np.concatenate([h_us, h_them], 1) @ p["w2"] + p["b2"]
    return out


# ---------------------------------------------------------------- quantised file


def quantise(p):
    """The integer weights of docs/net.md's table, range-checked."""
    q = {
        "W1": np.round(p["W1"] * QA),
        "b1": np.round(p["b1"] * QA),
        "w2": np.round(p["w2"] * QB),
        "b2": np.round(p["b2"] * QA * QB),
    }
    for name, (lo, hi) in (("W1", I16), ("b1", I16), ("w2", I16), ("b2", I32)):
        if q[name].min() < lo or q[name].max() > hi:
            sys.exit(f"quantised {name} does not fit its integer type")
    return {
        "W1": q["W1"].astype("<i2"),
        "b1": q["b1"].astype("<i2"),
        "w2": q["w2"].astype("<i2"),
        "b2": np.int32(q["b2"]),
    }


def write_net(path, q, correcting):
    hidden = q["b1"].shape[0]
    with open(path, "wb") as f:
        f.write(MAGIC_CORRECTION if correcting else MAGIC)
        f.write(np.array([INPUTS, hidden], "<u4").tobytes())
        f.write(q["W1"].astype("<i2").tobytes())  # input-major: W1[i * H + j]
        f.write(q["b1"].astype("<i2").tobytes())
        f.write(q["w2"].astype("<i2").tobytes())  # side to move's half first
        f.write(np.array([q["b2"]], "<i4").tobytes())


def read_net(path):
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 16:
        sys.exit(f"{path}: {len(raw)} bytes, too short for a CHEXNET1 header")
    if raw[:8] not in (MAGIC, MAGIC_CORRECTION):
        sys.exit(f"{path}: magic {raw[:8]!r}, expected {MAGIC!r} or {MAGIC_CORRECTION!r}")
    inputs, hidden = np.frombuffer(raw, "<u4", 2, 8)
    if inputs != INPUTS:
        sys.exit(f"{path}: {inputs} inputs, expected {INPUTS}")
    size = 16 + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    if len(raw) != size:
        sys.exit(f"{path}: {len(raw)} bytes, expected {size} for hidden {hidden}")
    at = 16
    W1 = np.frombuffer(raw, "<i2", INPUTS * hidden, at).reshape(INPUTS, hidden)
    at += 2 * INPUTS * hidden
    b1 = np.frombuffer(raw, "<i2", hidden, at)
    at += 2 * hidden
    w2 = np.frombuffer(raw, "<i2", 2 * hidden, at)
    at += 4 * hidden
    b2 = np.frombuffer(raw, "<i4", 1, at)[0]
    return {"W1": W1, "b1": b1, "w2": w2, "b2": b2, "correcting": raw[:8] == MAGIC_CORRECTION}


def quantised_logits(q, data, chunk=4096):
    """docs/net.md's inference: i16 accumulators, clamp to [0, QA], i32 output."""
    W1 = q["W1"].astype(np.int32)
    b1 = q["b1"].astype(np.int32)
    w2 = q["w2"].astype(np.int64)
    out = np.empty(data.n, np.int64)
    for a in range(0, data.n, chunk):
        b = min(a + chunk, data.n)

        def acc(idx, mask):
            # Every partial sum is within the bound of the whole (|w| <= 1.98),
            # so checking the totals shows the i16 sums never overflow.
            s = b1 + (W1[idx[a:b]] * mask[a:b, :, None].astype(np.int32)).sum(1)
            if s.min() < I16[0] or s.max() > I16[1]:
                sys.exit("an accumulator overflows i16")
            return np.clip(s, 0, QA)

        h = np.concatenate([acc(data.stm, data.stm_mask), acc(data.nstm, data.nstm_mask)], 1)
        out[a:b] = h.astype(np.int64) @ w2 + int(q["b2"])
    if out.min() < I32[0] or out.max() > I32[1]:
        sys.exit("an output overflows i32")
    return out / (QA * QB) + data.base(q["correcting"])


def predict(args):
    data = Positions(args.data)
    q = read_net(args.predict)
    ql = quantised_logits(q, data)
    if args.float:
        p = dict(np.load(args.predict + ".npz"))
        fl = float_logits(p, data, q["correcting"])
        for a, b in zip(ql, fl):
            print(f"{float(a)!r} {float(b)!r}")
    else:
        for a in ql:
            print(repr(float(a)))


# ---------------------------------------------------------------- training (JAX)


def train(args):
    import jax
    import jax.numpy as jnp
    import optax

    started = time.time()
    tr, va = Positions(args.train), Positions(args.valid)
    width = max(tr.width, va.width)
    tr.widen(width)
    va.widen(width)
    t_tr, t_va = tr.targets(args.lam), va.targets(args.lam)
    base_tr, base_va = tr.base(args.correct), va.base(args.correct)
    H = args.hidden

    k1, k2 = jax.random.split(jax.random.PRNGKey(args.seed))
    params = {
        "W1": 0.1 * jax.random.normal(k1, (INPUTS, H), jnp.float32),
        "b1": jnp.zeros(H, jnp.float32),
        # A correcting net starts close to the hand-made evaluation.
        "w2": (0.1 if args.correct else 1.0)
        * jax.random.normal(k2, (2 * H,), jnp.float32) / np.sqrt(2 * H),
        "b2": jnp.zeros((), jnp.float32),
    }

    def logits(p, b):
        def acc(idx, mask):  # gather-sum of the active rows of W1
            return p["b1"] + jnp.einsum("blh,bl->bh", p["W1"][idx], mask)

        h_us = jnp.clip(acc(b["stm"], b["stm_mask"]), 0, 1)
        h_them = jnp.clip(acc(b["nstm"], b["nstm_mask"]), 0, 1)
        return jnp.concatenate([h_us, h_them], 1) @ p["w2"] + p["b2"] + b["base"]

    def loss_sum(p, b):  # padding rows of a short last batch have weight 0
        bce = optax.sigmoid_binary_cross_entropy(logits(p, b), b["target"])
        return jnp.sum(bce * b["weight"])

    def loss_mean(p, b):
        return loss_sum(p, b) / jnp.maximum(jnp.sum(b["weight"]), 1)

    opt = optax.adam(args.lr)
    state = opt.init(params)

    @jax.jit
    def step(p, s, b):
        grads = jax.grad(loss_mean)(p, b)
        updates, s = opt.update(grads, s, p)
        p = optax.apply_updates(p, updates)
        p["W1"] = jnp.clip(p["W1"], -W1_LIMIT, W1_LIMIT)
        p["b1"] = jnp.clip(p["b1"], -W1_LIMIT, W1_LIMIT)
        return p, s

    eval_sum = jax.jit(loss_sum)

    def batch(data, target, base, rows):
        full = np.resize(rows, args.batch)  # a short batch is padded ...
        weight = np.zeros(args.batch, np.float32)
        weight[: len(rows)] = 1  # ... with rows of weight 0
        return {
            "stm": data.stm[full], "stm_mask": data.stm_mask[full],
            "nstm": data.nstm[full], "nstm_mask": data.nstm_mask[full],
            "target": target[full], "weight": weight, "base": base[full],
        }

    def mean_loss(p, data, target, base):
        total = 0.0
        for a in range(0, data.n, args.batch):
            rows = np.arange(a, min(a + args.batch, data.n))
            total += float(eval_sum(p, batch(data, target, base, rows)))
        return total / data.n

    def bce(p, t):
        p = np.clip(p, 1e-7, 1 - 1e-7)
        return float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))

    mean_target = float(np.mean(t_tr))
    constant = bce(mean_target, t_va)
    print(f"{tr.n} training and {va.n} validation positions, hidden {H}, "
          f"mean training target {mean_target:.4f}, "
          f"constant predictor's validation loss {constant:.4f}", flush=True)
    # The bar a net must clear: the hand-made evaluation's own loss.
    hand_made = None
    if not np.isnan(va.hand).any():
        hand_made = bce(1 / (1 + np.exp(-va.hand.astype(np.float64))), t_va)
        print(f"the hand-made evaluation's validation loss {hand_made:.4f}", flush=True)

    rng = np.random.default_rng(args.seed)
    loss_tr = loss_va = float("nan")
    best = None  # (validation loss, epoch, training loss, weights) with --best
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        order = rng.permutation(tr.n)
        for a in range(0, tr.n, args.batch):
            params, state = step(params, state, batch(tr, t_tr, base_tr, order[a : a + args.batch]))
        loss_tr, loss_va = mean_loss(params, tr, t_tr, base_tr), mean_loss(params, va, t_va, base_va)
        print(f"epoch {epoch:3d}/{args.epochs}  train {loss_tr:.4f}  valid {loss_va:.4f}  "
              f"(constant {constant:.4f})  {time.time() - t0:.1f} s", flush=True)
        if args.best and (best is None or loss_va < best[0]):
            best = (loss_va, epoch, loss_tr, {k: np.asarray(v) for k, v in params.items()})
    epochs_kept = args.epochs
    if best is not None:
        loss_va, epochs_kept, loss_tr, params = best
        print(f"keeping epoch {epochs_kept}, the lowest validation loss", flush=True)

    p = {k: np.asarray(v, np.float32) for k, v in params.items()}
    write_net(args.out, quantise(p), args.correct)
    np.savez(args.out + ".npz", **p)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes) and {args.out}.npz")

    def git(*cmd):
        here = os.path.dirname(os.path.abspath(__file__))
        try:
            return subprocess.run(["git", *cmd], capture_output=True, text=True,
                                  cwd=here, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None

    commit = git("rev-parse", "HEAD")
    if commit and git("status", "--porcelain", "--", "."):
        commit += "-dirty"  # tools/net/ differs from the commit
    provenance = {
        "generation": args.generation,
        "games": args.games,
        "selfplay": args.selfplay,
        "net": {"file": args.out, "sha256": sha256(args.out), "format": "CHEXNET2" if args.correct else "CHEXNET1"},
        "data": {
            "train": {"file": args.train, "sha256": sha256(args.train), "positions": tr.n},
            "valid": {"file": args.valid, "sha256": sha256(args.valid), "positions": va.n},
        },
        "seed": args.seed,
        "hyperparameters": {"inputs": INPUTS, "hidden": H, "epochs": args.epochs,
                            "epochs_kept": epochs_kept, "correct": args.correct,
                            "batch": args.batch, "lr": args.lr, "lambda": args.lam,
                            "optimizer": "adam", "w1_limit": W1_LIMIT, "qa": QA, "qb": QB},
        "losses": {"train": loss_tr, "valid": loss_va, "valid_constant": constant,
                   "valid_hand_made": hand_made,
                   "mean_training_target": mean_target},
        "versions": {"python": sys.version.split()[0], "jax": jax.__version__,
                     "optax": optax.__version__, "numpy": np.__version__},
        "git_commit": commit,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(time.time() - started, 1),
    }
    path = args.provenance or args.out + ".json"
    with open(path, "w") as f:
        json.dump(provenance, f, indent=2)
        f.write("\n")
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", help="featurized training positions (JSONL)")
    ap.add_argument("--valid", help="featurized validation positions (JSONL)")
    ap.add_argument("--out", help="the CHEXNET1 file to write (float weights go to OUT.npz)")
    ap.add_argument("--hidden", type=int, default=64, help="H, the accumulator's width (default 64)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5,
                    help="weight of the search value in the target (default 0.5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--best", action="store_true",
                    help="write the epoch with the lowest validation loss, not the last")
    ap.add_argument("--correct", action="store_true",
                    help="train a correction to the hand-made evaluation (a CHEXNET2 file; "
                         "the data must carry each position's \"hand\")")
    ap.add_argument("--provenance", help="provenance JSON to write (default OUT.json)")
    ap.add_argument("--generation", type=int, default=1,
                    help="for the provenance: 1 for data played with the hand-made evaluation, "
                         "N+1 for data played with generation N's net")
    ap.add_argument("--games", type=int,
                    help="for the provenance: how many self-play games the data came from")
    ap.add_argument("--selfplay", help="for the provenance: the command that played those games")
    ap.add_argument("--predict", metavar="NET", help="print the quantised NET's logits for --data")
    ap.add_argument("--data", help="featurized positions for --predict")
    ap.add_argument("--float", action="store_true",
                    help="with --predict: also the float model's logit (from NET.npz)")
    args = ap.parse_args()
    if args.predict:
        if not args.data:
            ap.error("--predict needs --data")
        predict(args)
    else:
        if not (args.train and args.valid and args.out):
            ap.error("training needs --train, --valid and --out")
        if not 0 <= args.lam <= 1:
            ap.error("--lambda must be in [0, 1]")
        train(args)


if __name__ == "__main__":
    main()
