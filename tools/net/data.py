"""Featurized positions (one JSON object a line, as examples/featurize
writes them) read into padded index arrays for the trainer."""

import hashlib
import json
import sys

import numpy as np


class Positions:
    """Featurized positions as padded index arrays with masks."""

    def __init__(self, path, spec):
        inputs = spec.inputs
        stm, nstm, result, value = [], [], [], []
        bases = {"hand": [], "rich": []}
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
                    if not (isinstance(i, int) and 0 <= i < inputs):
                        sys.exit(f"{path}:{number}: input index {i!r} not in 0..{inputs}")
                stm.append(s)
                nstm.append(n)
                result.append(float(r))
                value.append(np.nan if v is None else float(v))
                for name, column in bases.items():
                    column.append(np.nan if rec.get(name) is None else float(rec[name]))
        if not stm:
            sys.exit(f"{path}: no positions")
        self.path = path
        self.n = len(stm)
        self.width = max(max(len(s) for s in stm), max(len(s) for s in nstm), 1)
        self.stm, self.stm_mask = pad(stm, self.width)
        self.nstm, self.nstm_mask = pad(nstm, self.width)
        self.result = np.array(result, np.float32)
        self.value = np.array(value, np.float32)
        # The hand-made and rich evaluations' logits: what a correcting
        # net adds to.
        self.logits = {name: np.array(column, np.float32) / spec.logistic_scale
                       for name, column in bases.items()}

    def base(self, correcting):
        """The logit a net's output is added to: that of the evaluation
        `correcting` names ("hand" or "rich"), or 0 for None."""
        if correcting is None:
            return np.zeros(self.n, np.float32)
        if np.isnan(self.logits[correcting]).any():
            sys.exit(f"{self.path}: a net correcting \"{correcting}\" needs it for every position "
                     "(examples/featurize writes it)")
        return self.logits[correcting]

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
