//! A richer hand-made evaluation (`Evaluation rich`): the terms of
//! [`super::terms`] and, for each kind with a material value, where its
//! tiles stand by the kings and how many of them hold the table
//! together. Each count is, as there, the side to move's less the
//! opponent's, and the weights are fitted to game results by
//! `examples/fit_eval.rs` like the plain evaluation's.

use super::terms::{Term, Terms};
use super::Evaluator;
use crate::rules::{Colour, Kind, Position};

/// The kinds the extra terms count, in the order of their indices: the
/// king is left out, for its place is the other terms' business.
pub const KINDS: [Kind; 5] = [
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
    Kind::Pawn,
];

/// How many distance buckets a tile's distance to a king falls into:
/// one, two, three, and four squares or more (Chebyshev distance, the
/// king's own steps).
pub const DISTANCE_BUCKETS: usize = 4;

/// The kings a tile's distance is measured to: its own side's, then the
/// other side's.
pub const KINGS: usize = 2;

/// Index of the first distance term.
const FIRST_NEAR: usize = Term::COUNT;

/// Index of the first holding term.
const FIRST_HELD: usize = FIRST_NEAR + KINDS.len() * KINGS * DISTANCE_BUCKETS;

/// How many terms the rich evaluation counts: the plain ones, the
/// distances of each kind to each king in buckets, and the holding tiles
/// of each kind.
pub const COUNT: usize = FIRST_HELD + KINDS.len();

/// The index of the term counting tiles of `KINDS[kind]` at `bucket`
/// from a king (`king` 0: their own side's, 1: the other side's).
pub const fn near_index(kind: usize, king: usize, bucket: usize) -> usize {
    FIRST_NEAR + (king * KINDS.len() + kind) * DISTANCE_BUCKETS + bucket
}

/// The index of the term counting the tiles of `KINDS[kind]` that hold
/// the table together.
pub const fn held_index(kind: usize) -> usize {
    FIRST_HELD + kind
}

/// The name of the term at `index`, for people (the fitting tool's
/// report); empty past [`COUNT`].
pub fn name(index: usize) -> String {
    let kind_name = |k: usize| format!("{:?}", KINDS[k]).to_lowercase();
    if index < Term::COUNT {
        Term::ALL[index].name().to_string()
    } else if index < FIRST_HELD {
        let i = index - FIRST_NEAR;
        let (king, rest) = (
            i / (KINDS.len() * DISTANCE_BUCKETS),
            i % (KINDS.len() * DISTANCE_BUCKETS),
        );
        let (kind, bucket) = (rest / DISTANCE_BUCKETS, rest % DISTANCE_BUCKETS);
        let whose = ["own", "enemy"][king];
        let distance = if bucket + 1 == DISTANCE_BUCKETS {
            format!("{}+", bucket + 1)
        } else {
            format!("{}", bucket + 1)
        };
        format!("{} at {distance} from the {whose} king", kind_name(kind))
    } else if index < COUNT {
        format!("{} holding the table", kind_name(index - FIRST_HELD))
    } else {
        String::new()
    }
}

/// The counts of every rich term for one position and side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RichTerms([i32; COUNT]);

impl RichTerms {
    /// The counts, the plain terms first in the order of [`Term::ALL`].
    pub const fn counts(&self) -> [i32; COUNT] {
        self.0
    }

    /// The terms of `pos`, for the side to move.
    pub fn of(pos: &Position) -> RichTerms {
        let mut t = [0; COUNT];
        t[..Term::COUNT].copy_from_slice(&Terms::of(pos).counts());
        each_distance(pos, |index, count| t[index] += count);
        each_held(pos.side_to_move(), &pos.held_counts(), |index, count| {
            t[index] += count
        });
        RichTerms(t)
    }
}

/// Calls `add` with the index and count of every distance term's share
/// of `pos` for the side to move (a term may come more than once: its
/// count is the sum), tile by tile: the counts the fitting tool reads.
/// The evaluation weighs the same terms by masks
/// ([`weighted_distances`]), which the tests hold to the same sum.
fn each_distance(pos: &Position, mut add: impl FnMut(usize, i32)) {
    let us = pos.side_to_move();
    let columns = pos.slot_columns();
    for colour in Colour::ALL {
        let sign = if colour == us { 1 } else { -1 };
        let tiles = columns.present_of(colour);
        for (king, whose) in [(0, colour), (1, colour.opposite())] {
            let Some(square) = pos.king_square(whose) else {
                continue;
            };
            let mut left = tiles;
            while left != 0 {
                let slot = left.trailing_zeros() as usize;
                left &= left - 1;
                let Some(k) = kind_offset(columns.kinds[slot]) else {
                    continue;
                };
                let d = (square.x - columns.xs[slot])
                    .abs()
                    .max((square.y - columns.ys[slot]).abs());
                let bucket = (d.clamp(1, DISTANCE_BUCKETS as i32) - 1) as usize;
                add(near_index(k, king, bucket), sign);
            }
        }
    }
}

/// Calls `add` with the index and count of each holding term for `us`,
/// given the position's [`Position::held_counts`]: for the evaluation and
/// the fitting tool alike.
#[inline(always)]
fn each_held(us: Colour, held: &[[u8; 6]; 2], mut add: impl FnMut(usize, i32)) {
    let (us, them) = (us.index(), us.opposite().index());
    for (k, kind) in KINDS.into_iter().enumerate() {
        add(
            held_index(k),
            i32::from(held[us][kind.index()]) - i32::from(held[them][kind.index()]),
        );
    }
}

/// The entries of [`DISTANCE_WEIGHTS`] for one king: every kind's
/// buckets. The AVX2 lanes multiply a kind by four with a shift.
const KING_STRIDE: usize = Kind::ALL.len() * DISTANCE_BUCKETS;
const _: () = assert!(DISTANCE_BUCKETS == 4);

/// The distance weights of [`RICH_FITTED`] by a tile's kind and bucket,
/// for [`weighted_distances`]: entry `KING_STRIDE king + 4 kind +
/// bucket`, with `king` 0 for the tile's own side's king and 1 for the
/// other's, and `kind` its [`Kind::index`]. The king's own entries are
/// 0: the distance terms leave it out.
const DISTANCE_WEIGHTS: [i32; KINGS * KING_STRIDE] = {
    let mut weights = [0; KINGS * KING_STRIDE];
    let mut king = 0;
    while king < KINGS {
        // Kind indices 1 to 5 are `KINDS` in order.
        let mut kind = 1;
        while kind < 6 {
            let mut bucket = 0;
            while bucket < DISTANCE_BUCKETS {
                weights[KING_STRIDE * king + DISTANCE_BUCKETS * kind + bucket] =
                    RICH_FITTED[near_index(kind - 1, king, bucket)];
                bucket += 1;
            }
            kind += 1;
        }
        king += 1;
    }
    weights
};

/// The distance terms of [`each_distance`] weighted by [`RICH_FITTED`]
/// for the side to move: each tile weighs the entries of
/// [`DISTANCE_WEIGHTS`] for its distance to each king. With AVX2, eight
/// slots at a time, the weights gathered by index; else slot by slot.
#[inline(always)]
fn weighted_distances(pos: &Position) -> i32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    let white_less_black = weighted_distances_avx2(pos);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    let white_less_black = weighted_distances_scalar(pos);
    match pos.side_to_move() {
        Colour::White => white_less_black,
        Colour::Black => -white_less_black,
    }
}

/// [`weighted_distances`] for White, slot by slot: the plain version,
/// compiled in every build and tested against the AVX2 one.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "avx2"),
    allow(dead_code, reason = "the AVX2 build uses it in tests only")
)]
fn weighted_distances_scalar(pos: &Position) -> i32 {
    let columns = pos.slot_columns();
    let mut sum = 0;
    for whose in Colour::ALL {
        let Some(king) = pos.king_square(whose) else {
            continue;
        };
        let mut left = columns.present;
        while left != 0 {
            let slot = left.trailing_zeros() as usize;
            left &= left - 1;
            // Slots 0-15 are White's, 16-31 Black's.
            let colour = slot / 16;
            let d = (king.x - columns.xs[slot])
                .abs()
                .max((king.y - columns.ys[slot]).abs());
            let bucket = (d.clamp(1, DISTANCE_BUCKETS as i32) - 1) as usize;
            let other_king = usize::from(colour != whose.index());
            let weight = DISTANCE_WEIGHTS[KING_STRIDE * other_king
                + DISTANCE_BUCKETS * columns.kinds[slot].index()
                + bucket];
            sum += if colour == 0 { weight } else { -weight };
        }
    }
    sum
}

/// [`weighted_distances`] for White, eight AVX2 lanes at a time.
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
fn weighted_distances_avx2(pos: &Position) -> i32 {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_abs_epi32, _mm256_add_epi32, _mm256_and_si256, _mm256_cmpeq_epi32,
        _mm256_cvtepu8_epi32, _mm256_i32gather_epi32, _mm256_loadu_si256, _mm256_max_epi32,
        _mm256_min_epi32, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256,
        _mm256_slli_epi32, _mm256_storeu_si256, _mm256_sub_epi32, _mm_loadl_epi64,
    };
    let columns = pos.slot_columns();
    // SAFETY: AVX2 is enabled for this build (the cfg above, and `main`
    // stops on a processor without it). Each load reads within its
    // array: eight `i32`s of `xs` or `ys` from a multiple of eight, or
    // eight bytes of the 32 kinds (`Kind` is one byte, `repr(u8)`). Every
    // gathered index is below 48: a kind index is below 6 and a bucket
    // below 4, stale slots included.
    unsafe {
        let kinds = columns.kinds.as_ptr().cast::<u8>();
        let lane_bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let (one, last) = (
            _mm256_set1_epi32(1),
            _mm256_set1_epi32(DISTANCE_BUCKETS as i32),
        );
        // The weights of White's slots, and of Black's.
        let mut sums = [_mm256_setzero_si256(); 2];
        for whose in Colour::ALL {
            let Some(king) = pos.king_square(whose) else {
                continue;
            };
            let (king_x, king_y) = (_mm256_set1_epi32(king.x), _mm256_set1_epi32(king.y));
            for eighth in 0..4 {
                let first = 8 * eighth;
                let colour = eighth / 2;
                let other_king = if colour == whose.index() {
                    0
                } else {
                    KING_STRIDE as i32
                };
                let load = |lanes: &[i32; 32]| {
                    _mm256_loadu_si256(lanes[first..].as_ptr().cast::<__m256i>())
                };
                let dx = _mm256_abs_epi32(_mm256_sub_epi32(load(columns.xs), king_x));
                let dy = _mm256_abs_epi32(_mm256_sub_epi32(load(columns.ys), king_y));
                let d = _mm256_min_epi32(_mm256_max_epi32(_mm256_max_epi32(dx, dy), one), last);
                let kind =
                    _mm256_cvtepu8_epi32(_mm_loadl_epi64(kinds.add(first).cast::<__m128i>()));
                let index = _mm256_add_epi32(
                    _mm256_add_epi32(_mm256_slli_epi32::<2>(kind), d),
                    _mm256_set1_epi32(other_king - 1),
                );
                let weights = _mm256_i32gather_epi32::<4>(DISTANCE_WEIGHTS.as_ptr(), index);
                let present = _mm256_set1_epi32((columns.present >> first & 0xff) as i32);
                let present = _mm256_cmpeq_epi32(_mm256_and_si256(present, lane_bits), lane_bits);
                sums[colour] = _mm256_add_epi32(sums[colour], _mm256_and_si256(weights, present));
            }
        }
        let mut lanes = [0i32; 8];
        let difference = _mm256_sub_epi32(sums[0], sums[1]);
        _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), difference);
        lanes.iter().sum()
    }
}

/// The place of `kind` in [`KINDS`], `None` for the king.
const fn kind_offset(kind: Kind) -> Option<usize> {
    match kind {
        Kind::King => None,
        Kind::Queen => Some(0),
        Kind::Rook => Some(1),
        Kind::Bishop => Some(2),
        Kind::Knight => Some(3),
        Kind::Pawn => Some(4),
    }
}

/// The rich evaluation's weights in centipawns, in the order of
/// [`RichTerms::counts`]: every term fitted at once on the self-play
/// corpus (`examples/fit_eval.rs --lambda=0.5`, the training 4/5 of
/// 44,970 games), each position's target half the game's result and
/// half the value its mover's search gave it: the search's values carry
/// more about a position than one game's result does. A tile's worth on
/// the table is its material weight plus those of its two distances, so
/// the material weights alone read high.
///
/// The holding weights are held at a quarter of an earlier fit, and the
/// queen on the table at its earlier weight. As fitted, a queen
/// holding the table was worth little more than a free knight, and a
/// tile that captured onto a holding square lost a minor piece's worth,
/// so the search declined free queens; refits that kept the suite's
/// queens lost strength instead (`docs/experiments.md`, section 3).
#[rustfmt::skip]
pub const RICH_FITTED: [i32; COUNT] = [
    // The plain terms, in the order of `Term::ALL`.
    -9, 441, 283, 229, 212, 79, 476, 309, 280, 253, 161, -10, 11, -9, -20, 44, 1, 86, -240, -61,
    // Queen, rook, bishop, knight, pawn at 1, 2, 3, 4+ from their own king.
    -17, -49, -49, -104, -6, -35, -34, -65, -2, -14, -14, -49, 2, -24, -26, -56, 3, 0, -1, -12,
    // The same from the enemy king.
    54, -16, -48, -59, 24, -40, -59, -73, 1, -12, -25, -37, -16, 0, -30, -48, -19, -30, -40, -51,
    // Queen, rook, bishop, knight, pawn holding the table together.
    -42, -32, -32, -28, -3,
];

/// The rich evaluation: the weighted sum of the [`RichTerms`] by
/// [`RICH_FITTED`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rich;

impl Evaluator for Rich {
    type Memory = ();

    fn centipawns_with(&self, pos: &Position, _: &mut ()) -> i32 {
        let held = pos.held_counts();
        let frozen = Colour::ALL.map(|c| held[c.index()][Kind::King.index()] > 0);
        let plain = Terms::knowing_frozen_kings(pos, frozen).counts();
        let mut sum: i32 = plain.iter().zip(&RICH_FITTED).map(|(c, w)| c * w).sum();
        sum += weighted_distances(pos);
        each_held(pos.side_to_move(), &held, |index, count| {
            sum += RICH_FITTED[index] * count
        });
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// `pos` with the colours swapped and the table mirrored top to
    /// bottom, so that pawns still walk towards the other side: the same
    /// position for the other side.
    fn flipped(pos: &Position) -> Position {
        let text = pos.to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let tiles = if fields[0] == "-" {
            "-".to_string()
        } else {
            fields[0]
                .split('/')
                .map(|tile| {
                    let (piece, rest) = tile.split_at(1);
                    let moved = rest.ends_with('*');
                    let square = rest.trim_end_matches('*');
                    let (x, y) = square.split_once(',').unwrap();
                    let y: i64 = y.parse().unwrap();
                    format!("{}{x},{}{}", swap(piece), -y, if moved { "*" } else { "" })
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let side = if fields[1] == "w" { "b" } else { "w" };
        let (white, black) = fields[2].split_once('/').unwrap();
        let piles = format!("{}/{}", swap(black), swap(white));
        format!("{tiles} {side} {piles} {} {}", fields[3], fields[4])
            .parse()
            .unwrap()
    }

    /// Positions of random games, each after a random turn.
    fn random_positions(seed: u64, games: usize) -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut positions = Vec::new();
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                    break;
                };
                pos.make(mv);
                positions.push(pos.clone());
            }
        }
        positions
    }

    #[test]
    fn every_term_has_its_own_index_and_name() {
        let mut names: Vec<String> = (0..COUNT).map(name).collect();
        assert!(names.iter().all(|n| !n.is_empty()));
        assert_eq!(name(near_index(0, 1, 0)), "queen at 1 from the enemy king");
        assert_eq!(name(near_index(4, 0, 3)), "pawn at 4+ from the own king");
        assert_eq!(name(held_index(2)), "bishop holding the table");
        names.sort();
        names.dedup();
        assert_eq!(names.len(), COUNT);
    }

    #[test]
    fn the_terms_are_the_same_for_the_other_side_in_the_mirrored_position() {
        // Every term is the side to move's less the other's: swapping
        // the colours (and mirroring, for the pawns) must give the same
        // counts, and a term that mixed up whose king or whose tile it
        // counts would not.
        let positions = random_positions(31, 12);
        let mut nonzero = [0; COUNT];
        for pos in &positions {
            let t = RichTerms::of(pos).counts();
            assert_eq!(RichTerms::of(&flipped(pos)).counts(), t, "{pos}");
            for (n, c) in nonzero.iter_mut().zip(t) {
                *n += usize::from(c != 0);
            }
        }
        // The test means something only if the terms are seen.
        for (i, n) in nonzero.iter().enumerate().skip(1) {
            assert!(*n > 0, "{} never set", name(i));
        }
    }

    #[test]
    fn the_terms_count_each_tile_by_its_distance_to_each_king() {
        // White: king 0,0, queen 1,0, pawn 0,-3 (three below its king,
        // four from Black's); Black: king 0,2 (two from the queen, one
        // from its own pawn 0,1), pawn 0,1 holds the kings' halves
        // together.
        let pos: Position =
            "P0,-3/P0,-2/P0,-1/K0,0/Q1,0/p0,1/k0,2 w RRBBNNPPPPP/qrrbbnnppppppp 0 5"
                .parse()
                .unwrap();
        let t = RichTerms::of(&pos).counts();
        let (queen, pawn) = (0, 4);
        assert_eq!(t[near_index(queen, 0, 0)], 1, "queen beside her king");
        assert_eq!(t[near_index(queen, 1, 1)], 1, "queen two from Black's king");
        // White's pawns are 1, 2, 3 from their king; Black's one from its.
        assert_eq!(t[near_index(pawn, 0, 0)], 1 - 1);
        assert_eq!(t[near_index(pawn, 0, 1)], 1);
        assert_eq!(t[near_index(pawn, 0, 2)], 1);
        // From Black's king: White's pawns 3, 4 and 5 squares; from
        // White's king, Black's pawn is one.
        assert_eq!(t[near_index(pawn, 1, 0)], -1);
        assert_eq!(t[near_index(pawn, 1, 2)], 1);
        assert_eq!(t[near_index(pawn, 1, 3)], 2);
        // The pawns 0,-2 and 0,-1 and Black's 0,1 hold the column.
        assert_eq!(t[held_index(pawn)], 2 - 1);
        // The plain terms come first, as the plain evaluation counts them.
        assert_eq!(t[..Term::COUNT], Terms::of(&pos).counts());
    }

    #[test]
    fn the_evaluation_is_the_weighted_sum_of_the_counts() {
        // The evaluation adds weights without counting the terms: it
        // must be the sum the fit weighed.
        let mut king_in_pile = 0;
        for pos in random_positions(41, 6) {
            let t = RichTerms::of(&pos).counts();
            let sum: i32 = t.iter().zip(&RICH_FITTED).map(|(c, w)| c * w).sum();
            assert_eq!(Rich.centipawns(&pos), sum, "{pos}");
            king_in_pile += usize::from(Colour::ALL.iter().any(|&c| pos.king_square(c).is_none()));
        }
        // The distances skip a king in the pile: those positions too.
        assert!(king_in_pile > 50, "{king_in_pile}");
    }

    /// The distances weighed slot by slot are the sum of the distance
    /// counts' weights, and the AVX2 build's lanes agree with them.
    #[test]
    fn the_distance_weights_are_the_weighted_distance_counts() {
        for pos in random_positions(43, 6) {
            let mut sum = 0;
            each_distance(&pos, |index, count| sum += RICH_FITTED[index] * count);
            let white_less_black = match pos.side_to_move() {
                Colour::White => sum,
                Colour::Black => -sum,
            };
            assert_eq!(weighted_distances_scalar(&pos), white_less_black, "{pos}");
            assert_eq!(weighted_distances(&pos), sum, "{pos}");
        }
    }

    #[test]
    fn a_tile_on_the_table_is_worth_its_kind_wherever_it_stands() {
        // A tile's worth on the table is its material weight plus its two
        // distance weights. Standing where a rook stands, a queen must
        // outweigh it; wherever they stand, a rook or a minor piece must
        // outweigh a pawn, and every tile be worth something: weights
        // pasted out of order, or with a sign lost, would not. (The fit
        // values a queen four squares or more from both kings, 278, below
        // a rook beside both, 301: the queen is compared square for
        // square.)
        let worth = |k: usize, own: usize, enemy: usize| {
            RICH_FITTED[Term::QueenOnTable.index() + k]
                + RICH_FITTED[near_index(k, 0, own)]
                + RICH_FITTED[near_index(k, 1, enemy)]
        };
        let range = |k: usize| {
            let all = (0..DISTANCE_BUCKETS)
                .flat_map(|own| (0..DISTANCE_BUCKETS).map(move |enemy| worth(k, own, enemy)));
            (all.clone().min().unwrap(), all.max().unwrap())
        };
        for own in 0..DISTANCE_BUCKETS {
            for enemy in 0..DISTANCE_BUCKETS {
                let (queen, rook) = (worth(0, own, enemy), worth(1, own, enemy));
                assert!(queen > rook, "queen {queen}, rook {rook} at {own}, {enemy}");
            }
        }
        let pawn = range(4);
        for minor in [1, 2, 3] {
            assert!(
                range(minor).0 > pawn.1,
                "{:?} against pawn {pawn:?}",
                KINDS[minor]
            );
        }
        assert!(pawn.0 > 0, "pawn {pawn:?}");
    }
}
