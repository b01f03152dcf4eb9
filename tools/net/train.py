#!/usr/bin/env python3
"""Trains CHEX's learned evaluation (docs/net.md) with JAX on the CPU.

Every use reads the net's contract with the engine (input count and
layout, scales, magics, header) from --spec FILE, which the engine writes:
    cargo run --release --example featurize -- --spec FILE

Training:
    train.py --spec SPEC --train T.jsonl --valid V.jsonl --out chex.net [--hidden 64]
             [--epochs 10] [--batch 256] [--lr 1e-3] [--weight-decay 0] [--mirror] [--lambda 0.5] [--seed 1]
             [--provenance chex.net.json] [--generation N] [--games N]
             [--selfplay COMMAND] [--correct [hand|rich]] [--best]
writes the quantised CHEXNET1 file (CHEXNET2 with --correct: the net's
output then corrects the hand-made evaluation's logit; CHEXNET3 with
--correct rich, the rich evaluation's), the float weights beside it
(chex.net.npz) and a provenance JSON (default: chex.net.json).

Prediction (numpy only, no JAX needed):
    train.py --spec SPEC --predict chex.net --data F.jsonl [--float]
prints, one a line, the logit the quantised file gives for each position,
computed with docs/net.md's integer arithmetic; with --float, a second
column: the float model's logit (from chex.net.npz) before quantisation.

A featurized file has one JSON object a line:
    {"stm": [indices], "nstm": [indices], "result": R, "value": V or null,
     "hand": C, "rich": D}
the active inputs of the side to move's and the other side's perspective,
the side to move's game result (1, 0.5, 0) and search value, and the
hand-made and rich evaluations' centipawns (needed by --correct only).

The work is done by the modules beside it: data (featurized lines), model
(the JAX model, loss and training loop), netfile (quantisation and the
CHEXNET file) and spec (the contract).
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ beside the modules
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import Positions, sha256  # noqa: E402
from model import W1_LIMIT, float_logits  # noqa: E402
import model  # noqa: E402
from netfile import quantise, quantised_logits, read_net, write_net  # noqa: E402
from spec import Spec  # noqa: E402


def predict(args, spec):
    data = Positions(args.data, spec)
    q = read_net(args.predict, spec)
    ql = quantised_logits(q, data, spec)
    if args.float:
        p = dict(np.load(args.predict + ".npz"))
        fl = float_logits(p, data, q["correcting"])
        for a, b in zip(ql, fl):
            print(f"{float(a)!r} {float(b)!r}")
    else:
        for a in ql:
            print(repr(float(a)))


def train(args, spec):
    started = time.time()
    tr, va = Positions(args.train, spec), Positions(args.valid, spec)
    t = model.train(args, tr, va, spec)
    p = t.params
    write_net(args.out, quantise(p, spec), args.correct, spec)
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
    magic = spec.magics[args.correct]
    provenance = {
        "generation": args.generation,
        "games": args.games,
        "selfplay": args.selfplay,
        "net": {"file": args.out, "sha256": sha256(args.out), "format": magic.decode("ascii")},
        "data": {
            "train": {"file": args.train, "sha256": sha256(args.train), "positions": tr.n},
            "valid": {"file": args.valid, "sha256": sha256(args.valid), "positions": va.n},
        },
        "seed": args.seed,
        "hyperparameters": {"inputs": spec.inputs, "hidden": args.hidden, "epochs": args.epochs,
                            "epochs_kept": t.epochs_kept,
                            "correct": args.correct is not None, "base": args.correct,
                            "batch": args.batch, "lr": args.lr, "lambda": args.lam,
                            "optimizer": "adamw" if args.weight_decay else "adam",
                            "weight_decay": args.weight_decay, "mirror": args.mirror,
                            "w1_limit": W1_LIMIT, "qa": spec.qa,
                            "qb": spec.qb},
        "losses": {"train": t.loss_tr, "valid": t.loss_va, "valid_constant": t.constant,
                   "valid_hand_made": t.evaluations.get("hand"),
                   "valid_rich": t.evaluations.get("rich"),
                   "mean_training_target": t.mean_target},
        "versions": {"python": sys.version.split()[0], "jax": t.versions["jax"],
                     "optax": t.versions["optax"], "numpy": np.__version__},
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
    ap.add_argument("--spec", metavar="FILE",
                    help="the net's contract, from: cargo run --release --example featurize "
                         "-- --spec FILE (required)")
    ap.add_argument("--train", help="featurized training positions (JSONL)")
    ap.add_argument("--valid", help="featurized validation positions (JSONL)")
    ap.add_argument("--out", help="the net file to write: CHEXNET1, CHEXNET2 with --correct, "
                    "CHEXNET3 with --correct rich (float weights go to OUT.npz)")
    ap.add_argument("--hidden", type=int, default=64, help="H, the accumulator's width (default 64)")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    ap.add_argument("--weight-decay", type=float, default=0.0,
                    help="AdamW's decoupled weight decay (default 0: plain Adam)")
    ap.add_argument("--mirror", action="store_true",
                    help="mirror a random half of each training batch left to right "
                         "(positions with a king on the table)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5,
                    help="weight of the search value in the target (default 0.5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--best", action="store_true",
                    help="write the epoch with the lowest validation loss, not the last")
    ap.add_argument("--correct", nargs="?", const="hand", choices=["hand", "rich"],
                    help="train a correction to the hand-made evaluation (a CHEXNET2 file), "
                         "or with --correct rich to the rich one (CHEXNET3); the data must "
                         "carry each position's \"hand\" or \"rich\"")
    ap.add_argument("--provenance", help="provenance JSON to write (default OUT.json)")
    ap.add_argument("--generation", type=int, default=1,
                    help="for the provenance: 1 for data played without a net, "
                         "N+1 for data played with generation N's net")
    ap.add_argument("--games", type=int,
                    help="for the provenance: how many self-play games the data came from")
    ap.add_argument("--selfplay", help="for the provenance: the command that played those games")
    ap.add_argument("--predict", metavar="NET", help="print the quantised NET's logits for --data")
    ap.add_argument("--data", help="featurized positions for --predict")
    ap.add_argument("--float", action="store_true",
                    help="with --predict: also the float model's logit (from NET.npz)")
    args = ap.parse_args()
    if not args.spec:
        ap.error("--spec FILE is required: write it with "
                 "cargo run --release --example featurize -- --spec FILE")
    spec = Spec(args.spec)
    if args.predict:
        if not args.data:
            ap.error("--predict needs --data")
        predict(args, spec)
    else:
        if not (args.train and args.valid and args.out):
            ap.error("training needs --train, --valid and --out")
        if not 0 <= args.lam <= 1:
            ap.error("--lambda must be in [0, 1]")
        train(args, spec)


if __name__ == "__main__":
    main()
