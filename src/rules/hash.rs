//! The translation-invariant position key.
//!
//! Threefold repetition counts positions "up to translation" (RULES.md 6),
//! so a plain Zobrist key on absolute squares would miss repetitions of a
//! group that has walked. Instead each tile contributes `G[state] · C^e`
//! in the prime field of order `P = 2^64 − 2^32 + 1`, where
//! `e = (x + 64·y) mod 4096` and `C` has multiplicative order 4096.
//! Translating the table by `(tx, ty)` multiplies the sum `H` by
//! `C^(tx + 64·ty)`, and moves the lower-left corner of the group's box
//! by as much, so `H · C^(−e(corner))` does not change: that is the key of
//! the table. `H` changes by one or two terms per move, so the key is kept
//! incrementally and finished in one field multiplication. Measured from
//! the corner, the tiles' exponents are distinct: the group spans at most
//! 32 squares each way.
//!
//! The piles and the side to move are mixed in on top; they do not move.

/// The field's prime, 2^64 − 2^32 + 1.
const P: u64 = 0xFFFF_FFFF_0000_0001;

/// Reduces a 128-bit product modulo `P`, using 2^64 ≡ 2^32 − 1 and
/// 2^96 ≡ −1.
#[inline(always)]
const fn reduce(x: u128) -> u64 {
    const EPSILON: u64 = 0xFFFF_FFFF;
    let lo = x as u64;
    let hi = (x >> 64) as u64;
    let hi_hi = hi >> 32;
    let hi_lo = hi & EPSILON;
    let (mut t0, borrow) = lo.overflowing_sub(hi_hi);
    if borrow {
        t0 = t0.wrapping_sub(EPSILON);
    }
    let t1 = hi_lo * EPSILON;
    let (mut r, carry) = t0.overflowing_add(t1);
    if carry {
        r = r.wrapping_add(EPSILON);
    }
    if r >= P {
        r - P
    } else {
        r
    }
}

/// `a · b mod P`.
#[inline(always)]
pub(crate) const fn mul(a: u64, b: u64) -> u64 {
    reduce(a as u128 * b as u128)
}

/// `a + b mod P` for reduced `a`, `b`.
#[inline(always)]
pub(crate) const fn add(a: u64, b: u64) -> u64 {
    let (s, carry) = a.overflowing_add(b);
    if carry || s >= P {
        s.wrapping_sub(P)
    } else {
        s
    }
}

/// `a − b mod P` for reduced `a`, `b`.
#[inline(always)]
pub(crate) const fn sub(a: u64, b: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a.wrapping_sub(b).wrapping_add(P)
    }
}

const fn pow(mut base: u64, mut exp: u64) -> u64 {
    let mut acc = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    acc
}

/// The order of `C`: exponents are taken modulo this.
const ORDER: usize = 4096;

/// 7 generates the multiplicative group, so this has order exactly 4096.
const C: u64 = pow(7, (P - 1) / ORDER as u64);

/// `C^e` for every exponent.
static POWERS: [u64; ORDER] = {
    let mut t = [0u64; ORDER];
    let mut i = 0;
    let mut x = 1;
    while i < ORDER {
        t[i] = x;
        x = mul(x, C);
        i += 1;
    }
    t
};

/// SplitMix64's finaliser: a fixed, well-mixed function of a word.
pub(crate) const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The tile state of a pawn that has moved, after the six kinds by
/// `Kind::index`: it may no longer step two or three squares, so it is
/// another position.
pub(crate) const MOVED_PAWN: usize = 6;

/// The tile states of one colour: the six kinds and moved pawns. Black's
/// states follow White's.
pub(crate) const STATES_PER_COLOUR: usize = MOVED_PAWN + 1;

/// The number of tile states, both colours.
pub(crate) const STATES: usize = 2 * STATES_PER_COLOUR;

/// A random field element per tile state.
static STATE_KEYS: [u64; STATES] = {
    let mut t = [0u64; STATES];
    let mut i = 0;
    while i < STATES {
        t[i] = mix(0xC4E5_0000 + i as u64) % P;
        i += 1;
    }
    t
};

/// The exponent of a square: `(x + 64·y) mod 4096`.
#[inline(always)]
pub(crate) fn exponent(x: i32, y: i32) -> i64 {
    x as i64 + 64 * y as i64
}

/// The term a tile of `state` on `x,y` adds to the table sum.
#[inline(always)]
pub(crate) fn tile_term(state: usize, x: i32, y: i32) -> u64 {
    mul(
        STATE_KEYS[state],
        POWERS[(exponent(x, y) & (ORDER as i64 - 1)) as usize],
    )
}

/// The key of a table with field sum `h` whose box has its lower-left
/// corner on `corner_x, corner_y`: `h · C^(−e(corner))`, the same for
/// every translate of the table.
#[inline]
pub(crate) fn table_key(h: u64, corner_x: i32, corner_y: i32) -> u64 {
    let inverse = (exponent(corner_x, corner_y).wrapping_neg() & (ORDER as i64 - 1)) as usize;
    mul(h, POWERS[inverse])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_has_order_4096() {
        assert_eq!(pow(C, 4096), 1);
        assert_ne!(pow(C, 2048), 1);
    }

    #[test]
    fn field_arithmetic_matches_u128() {
        let samples = [
            0,
            1,
            2,
            P - 1,
            P - 2,
            0xFFFF_FFFF,
            1 << 32,
            1 << 63,
            12345678901234567,
        ];
        for &a in &samples {
            for &b in &samples {
                let expect = ((a as u128 * b as u128) % P as u128) as u64;
                assert_eq!(mul(a, b), expect, "{a} * {b}");
                let sum = ((a % P) as u128 + (b % P) as u128) % P as u128;
                assert_eq!(add(a % P, b % P), sum as u64, "{a} + {b}");
                assert_eq!(add(sub(a % P, b % P), b % P), a % P);
            }
        }
    }

    #[test]
    fn table_key_is_translation_invariant() {
        let tiles = [(3usize, 0, 0), (7, 1, 1), (12, -1, 2)];
        let key = |tx: i32, ty: i32| {
            let mut h = 0;
            for &(state, x, y) in &tiles {
                h = add(h, tile_term(state, x + tx, y + ty));
            }
            table_key(h, -1 + tx, ty)
        };
        let k = key(0, 0);
        for (tx, ty) in [
            (1, 0),
            (0, 1),
            (-5, 3),
            (1000, -999),
            (64, 64),
            (999_999_999, -999_999_999),
        ] {
            assert_eq!(key(tx, ty), k, "translated by {tx},{ty}");
        }
        // Another table of the same tiles is another key.
        let mut h = 0;
        for &(state, x, y) in &tiles {
            h = add(h, tile_term(state, x, -y));
        }
        assert_ne!(table_key(h, -1, -2), k);
    }
}
