"""The float model (docs/net.md, "Network"), its loss and its training
loop in JAX; and the same model in numpy for --predict --float."""

import time

import numpy as np

W1_LIMIT = 1.98  # docs/net.md: 45 active weights (and b1) must fit an i16


def mirror_table(spec):
    """What each input becomes when the position is mirrored left to
    right (x to -x), an exact symmetry of CHEX: a tile input's offset
    across the anchor changes sign; anchor and pile inputs stay."""
    span, base, tiles_end = spec.raw["span"], spec.raw["tile_base"], spec.raw["anchor_base"]
    table = np.arange(spec.inputs, dtype=np.int32)
    tile = np.arange(base, tiles_end)
    feature, dx, dy = (tile - base) // (span * span), (tile - base) // span % span, (tile - base) % span
    table[base:tiles_end] = base + (feature * span + (span - 1 - dx)) * span + dy
    return table


def mirrorable(data, spec):
    """The positions whose mirror the engine would see as mirrored inputs:
    those with a king on the table. Without one the anchor is the first
    tile in file order, which a mirror changes."""
    first_tile = spec.raw["anchor_base"] + spec.raw["anchor_kinds"].index("first tile")
    hit = lambda idx, mask: ((idx == first_tile) & (mask > 0)).any(1)
    return ~(hit(data.stm, data.stm_mask) | hit(data.nstm, data.nstm_mask))


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


class Trained:
    """What training gives: the float weights (numpy) and its figures."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def train(args, tr, va, spec):
    """Trains on `tr`, validating on `va` (both widened to one width),
    as args (hidden, epochs, batch, lr, weight_decay, lam, seed, correct,
    best) say."""
    import jax
    import jax.numpy as jnp
    import optax

    width = max(tr.width, va.width)
    tr.widen(width)
    va.widen(width)
    t_tr, t_va = tr.targets(args.lam), va.targets(args.lam)
    base_tr, base_va = tr.base(args.correct), va.base(args.correct)
    H = args.hidden

    k1, k2 = jax.random.split(jax.random.PRNGKey(args.seed))
    params = {
        "W1": 0.1 * jax.random.normal(k1, (spec.inputs, H), jnp.float32),
        "b1": jnp.zeros(H, jnp.float32),
        # A correcting net starts close to the evaluation it corrects.
        "w2": (0.1 if args.correct is not None else 1.0)
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

    # Decoupled weight decay (AdamW) pulls the weights of inputs seen in
    # few positions back towards zero, where plain Adam lets them fit
    # those positions' results; 0 is plain Adam.
    if args.weight_decay:
        opt = optax.adamw(args.lr, weight_decay=args.weight_decay)
    else:
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

    def batch(data, target, base, rows, mirrorable_rows=None):
        full = np.resize(rows, args.batch)  # a short batch is padded ...
        weight = np.zeros(args.batch, np.float32)
        weight[: len(rows)] = 1  # ... with rows of weight 0
        stm, nstm = data.stm[full], data.nstm[full]
        if mirrorable_rows is not None:
            # A random half of the rows mirrored: twice the positions
            # for the net to learn from, none of them made up.
            flipped = (rng.random(args.batch) < 0.5) & mirrorable_rows[full]
            stm = np.where(flipped[:, None], mirror[stm], stm)
            nstm = np.where(flipped[:, None], mirror[nstm], nstm)
        return {
            "stm": stm, "stm_mask": data.stm_mask[full],
            "nstm": nstm, "nstm_mask": data.nstm_mask[full],
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
    # The bars a net must clear: the evaluations' own losses.
    evaluations = {}
    for name, logit in va.logits.items():
        if not np.isnan(logit).any():
            evaluations[name] = bce(1 / (1 + np.exp(-logit.astype(np.float64))), t_va)
            print(f"the {name} evaluation's validation loss {evaluations[name]:.4f}", flush=True)

    rng = np.random.default_rng(args.seed)
    mirror = mirror_table(spec) if args.mirror else None
    mirrorable_rows = mirrorable(tr, spec) if args.mirror else None
    loss_tr = loss_va = float("nan")
    best = None  # (validation loss, epoch, training loss, weights) with --best
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        order = rng.permutation(tr.n)
        for a in range(0, tr.n, args.batch):
            rows = order[a : a + args.batch]
            params, state = step(params, state, batch(tr, t_tr, base_tr, rows, mirrorable_rows))
        loss_tr, loss_va = mean_loss(params, tr, t_tr, base_tr), mean_loss(params, va, t_va, base_va)
        print(f"epoch {epoch:3d}/{args.epochs}  train {loss_tr:.4f}  valid {loss_va:.4f}  "
              f"(constant {constant:.4f})  {time.time() - t0:.1f} s", flush=True)
        if args.best and (best is None or loss_va < best[0]):
            best = (loss_va, epoch, loss_tr, {k: np.asarray(v) for k, v in params.items()})
    epochs_kept = args.epochs
    if best is not None:
        loss_va, epochs_kept, loss_tr, params = best
        print(f"keeping epoch {epochs_kept}, the lowest validation loss", flush=True)

    return Trained(
        params={k: np.asarray(v, np.float32) for k, v in params.items()},
        epochs_kept=epochs_kept, loss_tr=loss_tr, loss_va=loss_va, constant=constant,
        evaluations=evaluations, mean_target=mean_target,
        versions={"jax": jax.__version__, "optax": optax.__version__},
    )
