"""The quantised net file (docs/net.md, "Quantisation and file"): the
float weights rounded to the spec's scales, written and read as a
CHEXNET1 file (CHEXNET2 for a correction to the hand-made evaluation,
CHEXNET3 for one to the rich evaluation),
and docs/net.md's integer inference on it."""

import sys

import numpy as np

I16 = (-32768, 32767)
I32 = (-(2**31), 2**31 - 1)


def quantise(p, spec):
    """The integer weights of docs/net.md's table, range-checked."""
    QA, QB = spec.qa, spec.qb
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


def write_net(path, q, correcting, spec):
    """Writes the quantised net `q`; `correcting` names the evaluation
    its output corrects ("hand" or "rich"), None for a whole net."""
    hidden = q["b1"].shape[0]
    with open(path, "wb") as f:
        f.write(spec.magics[correcting])
        f.write(np.array([spec.inputs, hidden], "<u4").tobytes())
        f.write(q["W1"].astype("<i2").tobytes())  # input-major: W1[i * H + j]
        f.write(q["b1"].astype("<i2").tobytes())
        f.write(q["w2"].astype("<i2").tobytes())  # side to move's half first
        f.write(np.array([q["b2"]], "<i4").tobytes())


def read_net(path, spec):
    INPUTS, header = spec.inputs, spec.header
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < header:
        sys.exit(f"{path}: {len(raw)} bytes, too short for a net file's header")
    bases = {magic: base for base, magic in spec.magics.items()}
    if raw[:8] not in bases:
        sys.exit(f"{path}: magic {raw[:8]!r}, expected one of {sorted(bases)!r}")
    inputs, hidden = np.frombuffer(raw, "<u4", 2, 8)
    if inputs != INPUTS:
        sys.exit(f"{path}: {inputs} inputs, expected {INPUTS}")
    size = header + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
    if len(raw) != size:
        sys.exit(f"{path}: {len(raw)} bytes, expected {size} for hidden {hidden}")
    at = header
    W1 = np.frombuffer(raw, "<i2", INPUTS * hidden, at).reshape(INPUTS, hidden)
    at += 2 * INPUTS * hidden
    b1 = np.frombuffer(raw, "<i2", hidden, at)
    at += 2 * hidden
    w2 = np.frombuffer(raw, "<i2", 2 * hidden, at)
    at += 4 * hidden
    b2 = np.frombuffer(raw, "<i4", 1, at)[0]
    return {"W1": W1, "b1": b1, "w2": w2, "b2": b2,
            "correcting": bases[raw[:8]]}


def quantised_logits(q, data, spec, chunk=4096):
    """docs/net.md's inference: i16 accumulators, clamp to [0, QA], i32 output."""
    QA, QB = spec.qa, spec.qb
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
