"""The net's contract with the engine, read from the JSON that
`cargo run --release --example featurize -- --spec OUT.json` writes
(src/search/eval/net/spec.rs): the trainer types none of it again."""

import json
import sys


# The spec's key for the magic of each net file, by the evaluation its
# output corrects (None: a whole net).
MAGIC_KEYS = {None: "magic", "hand": "magic_correction", "rich": "magic_rich_correction"}


class Spec:
    """The input count and layout, the scales, magics and header size."""

    def __init__(self, path):
        def bad(reason):
            sys.exit(f"{path}: not a usable net spec ({reason}); "
                     "write one with: cargo run --release --example featurize -- --spec OUT.json")

        try:
            with open(path) as f:
                raw = json.load(f)
        except OSError as e:
            bad(e.strerror or str(e))
        except ValueError as e:
            bad(f"not JSON: {e}")
        if not isinstance(raw, dict):
            bad("not a JSON object")
        ints = ("inputs", "max_active", "reach", "span", "pile_cap", "tile_base",
                "anchor_base", "pile_base", "qa", "qb", "header_bytes")
        for key in ints + ("kinds", "relations", "anchor_kinds", "logistic_scale",
                           *MAGIC_KEYS.values()):
            if key not in raw:
                bad(f"no \"{key}\"")
        for key in ints:
            if not isinstance(raw[key], int) or raw[key] < 0:
                bad(f"\"{key}\" is {raw[key]!r}, not a whole number")
        for key in ("kinds", "relations", "anchor_kinds"):
            if not isinstance(raw[key], list) or not raw[key]:
                bad(f"\"{key}\" is not a list")
        for key in MAGIC_KEYS.values():
            if not (isinstance(raw[key], str) and raw[key].isascii() and len(raw[key]) == 8):
                bad(f"\"{key}\" is {raw[key]!r}, not 8 ASCII characters")
        if not isinstance(raw["logistic_scale"], (int, float)) or raw["logistic_scale"] <= 0:
            bad(f"\"logistic_scale\" is {raw['logistic_scale']!r}")
        features = len(raw["relations"]) * len(raw["kinds"])
        derived = (
            ("span", 2 * raw["reach"] + 1),
            ("anchor_base", raw["tile_base"] + features * raw["span"] ** 2),
            ("pile_base", raw["anchor_base"] + len(raw["anchor_kinds"])),
            ("inputs", raw["pile_base"] + features * (raw["pile_cap"] + 1)),
            ("header_bytes", 8 + 4 + 4),  # magic, input count, hidden size
        )
        for key, expected in derived:
            if raw[key] != expected:
                bad(f"\"{key}\" is {raw[key]}, its layout makes it {expected}")
        self.path = path
        self.inputs = raw["inputs"]
        self.qa = raw["qa"]
        self.qb = raw["qb"]
        self.logistic_scale = float(raw["logistic_scale"])
        self.magics = {base: raw[key].encode("ascii") for base, key in MAGIC_KEYS.items()}
        self.header = raw["header_bytes"]
        self.raw = raw
