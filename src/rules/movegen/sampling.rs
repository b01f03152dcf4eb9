//! Candidates by number, for random playouts: the moves by movement as
//! numbered steps ([`StepNumbering`]) and the placement squares as
//! numbered frontier squares ([`FrontierRows`]), counted with a few bit
//! operations and never listed, so that a uniform pick costs one decode
//! and one legality test.

use super::legality::Screen;
use super::reach::{Landing, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::geometry::{DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use crate::rules::position::Position;
use crate::rules::square::Square;

/// The moves by movement of the side to move's tiles as numbered steps:
/// every candidate of [`Position::generate_step_candidates`] has exactly
/// one number, and every other number holds nothing.
///
/// A number stands for one square a tile might step to (see `steps`
/// below). Counting them takes a few bit operations per line, so a
/// playout can pick a number uniformly, see whether it holds a
/// candidate, and pick again if not: a uniform pick over the candidates
/// without listing them.
///
/// The side's tiles are counted `0..16` in the order their steps are
/// numbered; `tiles` and `steps` have an entry per number, the other
/// arrays one per tile.
#[derive(Clone, Debug)]
pub(super) struct StepNumbering {
    /// The number of each tile's first step; `i16::MAX` past the last
    /// tile (a side has fewer than [`STEP_LIMIT`] steps).
    starts: [i16; 16],
    /// The tile of each number: one load on the way from the random number
    /// to the move, with no comparison of the starts.
    /// Each tile writes its number 32 entries at a time from its start,
    /// one vector store each, and the next tile over the overhang; only
    /// the entries below the count of steps mean anything.
    tiles: [u8; TILE_TABLE],
    /// The step of each number from its tile's square, written as `tiles`
    /// is: for a slider, line by line, each square up to the first tile
    /// or the last square beside a tile (one past the coordinate limit
    /// at most, a number that holds nothing); a king's or knight's 8
    /// squares; a pawn's steps ahead onto empty squares up to the last
    /// beside a tile, then its captures. Read by the pick, it leaves no
    /// line to find and no kind to ask.
    steps: [[i8; 2]; TILE_TABLE],
    /// Each tile's slot in the position.
    tile_slots: [u8; 16],
    total: u32,
}

impl StepNumbering {
    /// No steps: the numbering before any tile is numbered.
    pub(super) const EMPTY: StepNumbering = StepNumbering {
        starts: [i16::MAX; 16],
        tiles: [0; TILE_TABLE],
        steps: [[0; 2]; TILE_TABLE],
        tile_slots: [0; 16],
        total: 0,
    };

    /// How many steps are numbered.
    pub(super) fn len(&self) -> u32 {
        self.total
    }
}

impl Position {
    /// Numbers the steps of the side to move's tiles (see [`StepNumbering`]).
    #[cfg(test)]
    pub(super) fn numbered_steps(&self) -> StepNumbering {
        let mut numbering = StepNumbering::EMPTY;
        self.number_steps(&mut numbering);
        numbering
    }

    /// [`Position::numbered_steps`], written over `numbering` in place.
    ///
    /// For the playouts, which number every turn over one numbering: a
    /// fresh one would clear its table of tiles each turn, and one
    /// returned by value is copied by wide loads of fields just written
    /// narrow, which wait for the stores before the first pick.
    #[inline]
    pub(super) fn number_steps(&self, numbering: &mut StepNumbering) {
        numbering.starts = [i16::MAX; 16];
        numbering.total = 0;
        // Kind by kind, so that no branch asks each tile its kind.
        let mut tile = 0;
        // Numbers the steps of the tile in `slot`, line by line: each line
        // is its length and the steps along it.
        let mut number = |slot: usize, lines: &[(u32, &Steps)]| {
            let start = numbering.total as usize;
            let count: u32 = lines.iter().map(|&(length, _)| length).sum();
            let mut at = start;
            loop {
                let from = at.min(STEP_LIMIT as usize);
                numbering.tiles[from..from + 32].fill(tile as u8);
                at += 32;
                if at >= start + count as usize {
                    break;
                }
            }
            // Each line writes 8 steps, and 24 more when it is longer;
            // the next line, or tile, writes over the rest.
            let mut at = start;
            for &(length, steps) in lines {
                let from = at.min(STEP_LIMIT as usize);
                numbering.steps[from..from + 8].copy_from_slice(&steps[..8]);
                if length > 8 {
                    numbering.steps[from + 8..from + 32].copy_from_slice(&steps[8..]);
                }
                at += length as usize;
            }
            numbering.starts[tile] = start as i16;
            numbering.tile_slots[tile] = slot as u8;
            numbering.total += count;
            tile += 1;
        };
        let us = self.side_to_move();
        for slot in self.tiles_of(us, Kind::King) | self.tiles_of(us, Kind::Knight) {
            let jumps = &JUMP_STEPS[usize::from(self.kind_of(slot) == Kind::Knight)];
            number(slot, &[(8, jumps)]);
        }
        let f = us.forward();
        let them = us.opposite().index();
        let pawn_steps = &PAWN_STEPS[us.index()];
        for slot in self.tiles_of(us, Kind::Pawn) {
            // Its steps up to the first tile or the last square beside a
            // tile, and the captures there are: pawns have few moves and
            // many void squares, which would waste picks. The last square
            // beside a tile lies within the reach, unless the coordinate
            // limit cuts it short; the pick tests the reach.
            let from = self.square_of(slot);
            let most = if self.has_moved(slot) { 1 } else { 3 };
            let free = self.column_blocker_distance(from, f > 0) - 1;
            let touched = self.column_touch_distance(from, f > 0);
            let forward = most.min(free).min(touched);
            // The two squares diagonally ahead hold an enemy tile when
            // their cell's slot is of the enemy's sixteen: an empty cell's
            // `NO_SLOT` is of neither. No branch, as either is a coin toss.
            let enemy = |dx: i32| {
                let slot = self.cell_slot(from.offset(dx, f));
                u32::from(usize::from(slot >> 4) == them)
            };
            let captures = enemy(-1) | enemy(1) << 1;
            let steps = &pawn_steps[forward as usize][captures as usize];
            number(slot, &[(forward + captures.count_ones(), steps)]);
        }
        // Each line of a slider runs up to the first tile or the last
        // square beside a tile: past it, nothing is a candidate. Every
        // square beside a tile lies within the reach, unless the
        // coordinate limit cuts it short; the pick tests the reach.
        let lines = |blockers: [u32; 4], touches: [u32; 4]| -> [u32; 4] {
            std::array::from_fn(|i| blockers[i].min(touches[i]))
        };
        let [e, w, n, s, ne, nw, se, sw] = &LINE_STEPS;
        for slot in self.tiles_of(us, Kind::Rook) {
            let from = self.square_of(slot);
            let [le, lw, ln, ls] = lines(
                self.orthogonal_blocker_distances(from),
                self.orthogonal_touch_distances(from),
            );
            number(slot, &[(le, e), (lw, w), (ln, n), (ls, s)]);
        }
        for slot in self.tiles_of(us, Kind::Bishop) {
            let from = self.square_of(slot);
            let [lne, lnw, lse, lsw] = lines(
                self.diagonal_blocker_distances(from),
                self.diagonal_touch_distances(from),
            );
            number(slot, &[(lne, ne), (lnw, nw), (lse, se), (lsw, sw)]);
        }
        for slot in self.tiles_of(us, Kind::Queen) {
            let from = self.square_of(slot);
            let [le, lw, ln, ls] = lines(
                self.orthogonal_blocker_distances(from),
                self.orthogonal_touch_distances(from),
            );
            let [lne, lnw, lse, lsw] = lines(
                self.diagonal_blocker_distances(from),
                self.diagonal_touch_distances(from),
            );
            number(
                slot,
                &[
                    (le, e),
                    (lw, w),
                    (ln, n),
                    (ls, s),
                    (lne, ne),
                    (lnw, nw),
                    (lse, se),
                    (lsw, sw),
                ],
            );
        }
    }

    /// The candidate numbered `number` (below `numbering.len()`) in
    /// `numbering`, made with `screen`, or `None` when the number holds no
    /// candidate.
    #[cfg(test)]
    pub(super) fn numbered_candidate(
        &self,
        numbering: &StepNumbering,
        screen: &Screen,
        number: u32,
    ) -> Option<Move> {
        self.numbered_step(numbering, screen, number)
            .map(|(_, from, to, _)| Move::Step { from, to })
    }

    /// The move numbered `number` (below `numbering.len()`) in
    /// `numbering`, made with `screen`, when the number holds a legal one: a
    /// playout's pick, decoded and tested without working out twice what
    /// both need.
    ///
    /// Always inlined into the pick loop, which it dominates: as a call,
    /// saving and restoring its many registers would cost more than it.
    #[inline(always)]
    pub(super) fn numbered_move(
        &mut self,
        numbering: &StepNumbering,
        screen: &mut Screen,
        number: u32,
    ) -> Option<Move> {
        let (slot, from, to, landing) = self.numbered_step(numbering, screen, number)?;
        self.step_is_legal(slot, from, to, landing, screen)
            .then_some(Move::Step { from, to })
    }

    /// The candidate numbered `number` as the mover's slot, its origin
    /// and destination, and what it lands on.
    #[inline(always)]
    fn numbered_step(
        &self,
        numbering: &StepNumbering,
        screen: &Screen,
        number: u32,
    ) -> Option<(usize, Square, Square, Landing)> {
        let number = number as usize;
        let tile = usize::from(numbering.tiles[number]);
        let [dx, dy] = numbering.steps[number];
        let slot = usize::from(numbering.tile_slots[tile]);
        let from = self.square_of(slot);
        // A line ends at its first tile: the squares before `to` are
        // empty. A pawn's steps ahead end before a tile, and its captures
        // land on enemy tiles.
        let to = from.offset(i32::from(dx), i32::from(dy));
        // A quiet step is a candidate when a tile besides the mover
        // touches its destination.
        let quiet = |to: Square| {
            let around = self.ring_besides(to, from);
            (around != 0).then_some((slot, from, to, Landing::Empty(Some(around))))
        };
        // A jump may land past the reach, where it touches no tile (see
        // `Reach::clipped`); a slide goes past it only at the coordinate
        // limit, where the reach is asked.
        if screen.reach.clipped && !screen.reach.contains(to) {
            return None;
        }
        if self.occupied(to) {
            self.is_enemy(to)
                .then_some((slot, from, to, Landing::Capture))
        } else {
            quiet(to)
        }
    }
}

/// More steps than the side's tiles can have: each line of a slider ends
/// within 32 squares, so a queen has at most 256 steps, a rook or bishop
/// 128, a king or knight 8 and a pawn 5, and 16 tiles fewer than 900.
/// [`StepNumbering`] keeps the tiles and steps of the numbers below it
/// only.
pub(super) const STEP_LIMIT: u32 = 1024;

/// The entries of [`StepNumbering::tiles`]: a tile writes 32 from a start
/// at the limit at most.
const TILE_TABLE: usize = STEP_LIMIT as usize + 32;

/// The steps along one line: up to 32 from a tile, as a slide
/// along a line reaches no further (the group spans 32 squares at most).
type Steps = [[i8; 2]; 32];

/// The steps along each [`Line`], by its number: `k + 1` squares along
/// at entry `k`.
static LINE_STEPS: [Steps; 8] = {
    let mut t = [[[0; 2]; 32]; 8];
    let mut line = 0;
    while line < 8 {
        let (dx, dy) = if line < 4 {
            ORTHOGONAL[line]
        } else {
            DIAGONAL[line - 4]
        };
        let mut k = 0;
        while k < 32 {
            let n = k as i32 + 1;
            t[line][k] = [(dx * n) as i8, (dy * n) as i8];
            k += 1;
        }
        line += 1;
    }
    t
};

/// The squares of a king and of a knight, as steps.
static JUMP_STEPS: [Steps; 2] = {
    let mut t = [[[0; 2]; 32]; 2];
    let mut i = 0;
    while i < 8 {
        t[0][i] = [KING[i].0 as i8, KING[i].1 as i8];
        t[1][i] = [KNIGHT[i].0 as i8, KNIGHT[i].1 as i8];
        i += 1;
    }
    t
};

/// A pawn's steps by its colour, how many squares ahead it may step to
/// (up to 3) and which of its captures there are (bit 0 west, bit 1
/// east): the steps ahead, then the captures west and east, as one line
/// written at once.
static PAWN_STEPS: [[[Steps; 4]; 4]; 2] = {
    let mut t = [[[[[0; 2]; 32]; 4]; 4]; 2];
    let mut colour = 0;
    while colour < 2 {
        let f: i8 = if colour == 0 { 1 } else { -1 };
        let mut ahead = 0;
        while ahead < 4 {
            let mut captures = 0;
            while captures < 4 {
                let steps = &mut t[colour][ahead][captures];
                let mut n = 0;
                while n < ahead {
                    steps[n] = [0, f * (n as i8 + 1)];
                    n += 1;
                }
                if captures & 1 != 0 {
                    steps[n] = [-1, f];
                    n += 1;
                }
                if captures & 2 != 0 {
                    steps[n] = [1, f];
                }
                captures += 1;
            }
            ahead += 1;
        }
        colour += 1;
    }
    t
};

/// The squares of [`Position::frontier_rows`], in the order
/// [`Position::frontier`] visits them.
#[derive(Clone, Debug)]
pub(super) struct FrontierRows {
    /// For each row of the reach from the lowest, its squares, by bit
    /// `x mod 64`.
    rows: [u64; 64],
    /// How many rows the reach has.
    height: usize,
    min_x: i32,
    min_y: i32,
    total: u32,
}

impl FrontierRows {
    /// How many squares there are.
    pub(super) fn len(&self) -> u32 {
        self.total
    }

    /// True when there are none.
    pub(super) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The square numbered `index`, below [`FrontierRows::len`].
    pub(super) fn square(&self, index: u32) -> Square {
        let mut index = index;
        let mut i = 0;
        while index >= self.rows[i].count_ones() {
            index -= self.rows[i].count_ones();
            i += 1;
        }
        self.square_at(i, nth_bit(self.rows[i], index))
    }

    /// Every square, in the order of their numbers.
    pub(super) fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        let rows = self.rows[..self.height].iter().enumerate();
        rows.flat_map(move |(i, &row)| {
            let mut left = row;
            std::iter::from_fn(move || {
                let bit = (left != 0).then(|| left.trailing_zeros())?;
                left &= left - 1;
                Some(self.square_at(i, bit))
            })
        })
    }

    /// The same rows, with no square in them.
    pub(super) fn cleared(&self) -> FrontierRows {
        FrontierRows {
            rows: [0; 64],
            total: 0,
            ..*self
        }
    }

    /// Adds `square`, which lies within the reach.
    pub(super) fn insert(&mut self, square: Square) {
        let row = &mut self.rows[(square.y - self.min_y) as usize];
        self.total += u32::from(*row & 1 << (square.x & 63) == 0);
        *row |= 1 << (square.x & 63);
    }

    /// Removes `square`, which it holds.
    pub(super) fn remove(&mut self, square: Square) {
        self.total -= 1;
        self.rows[(square.y - self.min_y) as usize] &= !(1 << (square.x & 63));
    }

    /// Removes the squares of bits `bits` of row `y`, any row: one
    /// outside the reach holds nothing.
    pub(super) fn discard_row(&mut self, y: i32, bits: u64) {
        let i = y.wrapping_sub(self.min_y) as u32 as usize;
        if i < self.height {
            let row = &mut self.rows[i];
            self.total -= (*row & bits).count_ones();
            *row &= !bits;
        }
    }

    /// True when it holds `square`, which lies within the reach.
    pub(super) fn contains(&self, square: Square) -> bool {
        self.rows[(square.y - self.min_y) as usize] & 1 << (square.x & 63) != 0
    }

    /// Keeps only the squares that `other`, of the same rows, holds too.
    pub(super) fn intersect(&mut self, other: &FrontierRows) {
        self.total = 0;
        for (row, kept) in self.rows[..self.height].iter_mut().zip(other.rows) {
            *row &= kept;
            self.total += row.count_ones();
        }
    }

    /// The square of bit `bit` of row `i`.
    fn square_at(&self, i: usize, bit: u32) -> Square {
        // The reach spans fewer than 64 files from `min_x` on.
        let x = self.min_x + ((bit as i32 - self.min_x) & 63);
        Square::new(x, self.min_y + i as i32)
    }
}

/// The position of the set bit of `word` that has `n` set bits below it:
/// one BMI2 instruction where the build has it, else a loop.
#[inline(always)]
fn nth_bit(word: u64, n: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    return nth_bit_bmi2(word, n);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    return nth_bit_scalar(word, n);
}

/// [`nth_bit`] by BMI2's bit deposit.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn nth_bit_bmi2(word: u64, n: u32) -> u32 {
    // SAFETY: BMI2 is enabled for this build (the cfg above, and `main`
    // stops on a processor without it).
    unsafe { std::arch::x86_64::_pdep_u64(1 << n, word).trailing_zeros() }
}

/// [`nth_bit`] by clearing the `n` lowest set bits: the plain version,
/// compiled in every build and tested against the BMI2 one.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "bmi2"),
    allow(dead_code, reason = "the BMI2 build uses it in tests only")
)]
#[inline(always)]
fn nth_bit_scalar(word: u64, n: u32) -> u32 {
    let mut word = word;
    for _ in 0..n {
        word &= word - 1;
    }
    word.trailing_zeros()
}

impl Position {
    /// The squares of [`Position::frontier`] within `screen`'s reach,
    /// counted row by row but not listed: a playout that draws a tile
    /// picks one of them, and most of the time the first pick is legal.
    pub(super) fn frontier_rows(&self, screen: &Screen) -> FrontierRows {
        self.frontier_within(screen.reach)
    }

    /// The squares of [`Position::frontier`], with `reach` the position's.
    pub(super) fn frontier_within(&self, reach: Reach) -> FrontierRows {
        self.frontier_from(reach, |y| self.touch_row(y))
    }

    /// [`Position::frontier_within`] from `touch`, the squares touching a
    /// tile by torus row (as a step generation's area has them already).
    pub(super) fn frontier_touching(&self, reach: Reach, touch: &[u64; 64]) -> FrontierRows {
        self.frontier_from(reach, |y| touch[(y & 63) as usize])
    }

    /// The empty squares of `touching(y)`, row `y`'s squares touching a
    /// tile, within `reach`.
    #[inline(always)]
    fn frontier_from(&self, reach: Reach, touching: impl Fn(i32) -> u64) -> FrontierRows {
        let mut frontier = FrontierRows {
            rows: [0; 64],
            height: 1,
            min_x: reach.min_x,
            min_y: reach.min_y,
            total: 0,
        };
        if self.present().is_empty() {
            frontier.rows[0] = 1 << (Square::ORIGIN.x & 63);
            (frontier.min_x, frontier.min_y) = (Square::ORIGIN.x, Square::ORIGIN.y);
            frontier.total = 1;
            return frontier;
        }
        frontier.height = (reach.max_y - reach.min_y + 1) as usize;
        // The reach spans fewer than 64 files, from reach.min_x on.
        let within = (u64::MAX >> (63 - (reach.max_x - reach.min_x)) as u32)
            .rotate_left((reach.min_x & 63) as u32);
        for (i, y) in (reach.min_y..=reach.max_y).enumerate() {
            frontier.rows[i] = touching(y) & !self.row(y) & within;
            frontier.total += frontier.rows[i].count_ones();
        }
        frontier
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::MoveList;
    use crate::rules::tile_set::TileSet;

    /// Positions on an empty table, across the torus's seam, at the
    /// coordinate limit, at negative coordinates, with a tile of many
    /// steps, and along games from the bench positions.
    fn positions_along_games() -> Vec<Position> {
        let mut positions: Vec<Position> = [
            "startpos",
            "K62,0/n63,0/N64,0 w QRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2",
            "K1000000000,0/n1000000000,1 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            "K-40,-70/n-41,-71 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            // A queen in the corner of two long lines: 34 steps.
            "Q0,0/p1,1/q2,1/r3,1/r4,1/b5,1/b6,1/n7,1/n8,1/p9,1/p10,1/p11,1/p12,1/p13,1/\
             p14,1/k15,1/P1,2/P1,3/P1,4/P1,5/P1,6/P1,7/P1,8/P1,9/N1,10/N1,11/B1,12/B1,13/\
             R1,14/R1,15/K1,16 w -/p 0 20",
        ]
        .iter()
        .map(|text| text.parse().unwrap())
        .collect();
        for line in crate::bench::POSITIONS.lines() {
            let mut pos: Position = line.parse().unwrap();
            for turn in 0..40 {
                positions.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[turn * 7 % moves.len()]);
            }
        }
        positions
    }

    /// The BMI2 and the scalar `nth_bit` agree on every bit of words
    /// dense and sparse.
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    #[test]
    fn scalar_nth_bit_equals_the_bmi2_one() {
        let mut word: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..1000 {
            word = word.rotate_left(7) ^ word.wrapping_mul(0x2545_F491_4F6C_DD1D);
            for sparse in [
                word,
                word & word.rotate_left(13) & word.rotate_left(29),
                u64::MAX,
            ] {
                for n in 0..sparse.count_ones() {
                    assert_eq!(
                        nth_bit_scalar(sparse, n),
                        nth_bit_bmi2(sparse, n),
                        "{sparse:x} {n}"
                    );
                }
            }
        }
    }

    /// A slider's line ends at the last square beside a tile, which may
    /// lie one past the coordinate limit: the number there holds
    /// nothing, and the numbers hold exactly the candidates.
    #[test]
    fn numbered_steps_stop_at_the_coordinate_limit() {
        for text in [
            "R999999999,0/n1000000000,1 w KQRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            "q-999999999,-999999999/N-1000000000,-999999998 b KQRRBBNPPPPPPPP/krrbbnnpppppppp 0 2",
        ] {
            let pos: Position = text.parse().unwrap();
            let screen = pos.sampling_screen();
            let numbering = pos.numbered_steps();
            let mut numbered: Vec<Move> = (0..numbering.len())
                .filter_map(|i| pos.numbered_candidate(&numbering, &screen, i))
                .collect();
            let mut candidates = MoveList::new();
            pos.generate_step_candidates(&screen, &mut candidates);
            let mut candidates = candidates.to_vec();
            numbered.sort();
            candidates.sort();
            assert_eq!(numbered, candidates, "{text}");
            assert!(numbered.iter().all(|mv| mv.to().in_range()), "{text}");
            // One number more than candidates: the square past the limit.
            assert_eq!(numbering.len() as usize, numbered.len() + 1, "{text}");
        }
    }

    /// `frontier_rows` numbers the squares `frontier` visits, in its
    /// order.
    #[test]
    fn frontier_rows_number_the_frontier_in_order() {
        for mut pos in positions_along_games() {
            let rows = pos.frontier_rows(&pos.sampling_screen());
            let numbered: Vec<Square> = (0..rows.len()).map(|i| rows.square(i)).collect();
            let mut visited = Vec::new();
            pos.frontier(|_, s| visited.push(s));
            assert_eq!(numbered, visited, "{pos}");
        }
    }

    /// The numbered steps are as few as the lines allow: each line ends at its
    /// first tile, or at the last square beside a tile besides the mover,
    /// or at the reach's edge. Counted here by walking the squares.
    #[test]
    fn lines_end_at_the_last_square_beside_a_tile() {
        let mut cut_short = 0;
        for pos in positions_along_games() {
            let screen = pos.sampling_screen();
            let us = pos.side_to_move();
            // The length of the line from `from` along `step` (its first
            // tile's square included when `to_tile`), and how many
            // squares past its end the walk went before the reach's edge
            // or a tile.
            let line = |from: Square, (dx, dy): (i32, i32), to_tile: bool| {
                let (mut length, mut walked) = (0, 0);
                for k in 1.. {
                    let to = from.offset(dx * k, dy * k);
                    if !screen.reach.contains(to) {
                        break;
                    }
                    walked = k;
                    if pos.occupied(to) {
                        if to_tile {
                            length = k;
                        } else {
                            walked = k - 1;
                        }
                        break;
                    }
                    if pos.ring_besides(to, from) != 0 {
                        length = k;
                    }
                }
                (length, walked - length)
            };
            let mut expected = 0;
            let queen = [ORTHOGONAL, DIAGONAL].concat();
            for slot in pos.present() & TileSet::colour(us) {
                let from = pos.square_of(slot);
                let kind = pos.kind_of(slot);
                // A pawn's steps are its line's squares up to its step
                // limit.
                let (steps, most): (&[(i32, i32)], i32) = match kind {
                    Kind::King | Kind::Knight => {
                        expected += 8;
                        continue;
                    }
                    Kind::Pawn => {
                        let f = us.forward();
                        let enemy = |dx| {
                            pos.tile_at(from.offset(dx, f))
                                .is_some_and(|t| t.piece.colour != us)
                        };
                        expected += u32::from(enemy(-1)) + u32::from(enemy(1));
                        let most = if pos.has_moved(slot) { 1 } else { 3 };
                        (&[(0, f)], most)
                    }
                    Kind::Rook => (&ORTHOGONAL, i32::MAX),
                    Kind::Bishop => (&DIAGONAL, i32::MAX),
                    Kind::Queen => (&queen, i32::MAX),
                };
                for &step in steps {
                    let (length, past) = line(from, step, kind != Kind::Pawn);
                    expected += length.min(most) as u32;
                    cut_short += usize::from(past > 0);
                }
            }
            assert_eq!(pos.numbered_steps().len(), expected, "{pos}");
        }
        assert!(cut_short > 1000, "{cut_short}");
    }

    /// Every number's entry names the tile whose steps it numbers.
    #[test]
    fn every_number_names_its_tile() {
        let mut sizes = 0;
        for pos in positions_along_games() {
            let numbering = pos.numbered_steps();
            let tiles = numbering.starts.iter().filter(|&&s| s != i16::MAX).count();
            for tile in 0..tiles {
                let end = numbering.starts.get(tile + 1).copied().unwrap_or(i16::MAX);
                let end = end.min(numbering.total as i16);
                for number in numbering.starts[tile]..end {
                    assert_eq!(usize::from(numbering.tiles[number as usize]), tile, "{pos}");
                }
                sizes |= 1u128 << (end - numbering.starts[tile]).min(127);
            }
        }
        // Tiles of more than 32 steps too, which write more than once.
        assert!(sizes >> 33 != 0, "{sizes:b}");
    }
}
