//! What the occupancy words say about squares and lines: the eight
//! [`Line`]s from a square, how far along one the first tile stands and
//! the last square beside a tile lies, the 3 × 3 ring around a square,
//! and whether the table encloses a hole. Each answer is a few shifts and
//! bit counts on the rows, columns and diagonals of the torus (see the
//! `position` module comment), with no loop over tiles.

use super::Position;
use crate::rules::piece::Colour;
use crate::rules::ring::{euler_gain, ring_bit_if_within, Ring, CENTRE};
use crate::rules::square::{Square, NEIGHBOUR_STEPS};
use crate::rules::tile_set::TileSet;

/// A line from a square, as a slider rides it: `East` is towards growing
/// `x`, `North` towards growing `y`. The order is that of
/// [`ORTHOGONAL`] then [`DIAGONAL`], which tables indexed by a line
/// follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Line {
    East,
    West,
    North,
    South,
    NorthEast,
    NorthWest,
    SouthEast,
    SouthWest,
}

impl Line {
    /// The way up (`north`) or down a column.
    #[inline(always)]
    pub(crate) const fn vertical(north: bool) -> Line {
        if north {
            Line::North
        } else {
            Line::South
        }
    }
}

/// Four times the Euler number (groups less holes) of one group enclosing
/// no hole: `Position::euler` counts in quarters, so that each square
/// adds a whole number (see `ring::euler_gain`).
const EULER_WITHOUT_HOLES: i32 = 4;

/// Unit steps of the sliders, in the order of [`Line`], and of the
/// knight and the king.
pub(crate) const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(crate) const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub(crate) const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub(crate) const KING: [(i32, i32); 8] = NEIGHBOUR_STEPS;

impl Position {
    /// True when the table is one group enclosing no empty square (no
    /// hole, squares touching at sides counted as one region): then a
    /// tile holds the table together exactly when the tiles around it
    /// do not hold together among themselves. A path between two of them
    /// around the tile would close a loop around an empty square beside it.
    #[inline(always)]
    pub(in crate::rules) fn without_holes(&self) -> bool {
        self.euler == EULER_WITHOUT_HOLES
    }

    /// How many holes the table has: regions of empty squares, joined at
    /// their sides, that it encloses. The table is one group.
    #[inline(always)]
    pub(in crate::rules) fn holes(&self) -> u32 {
        ((EULER_WITHOUT_HOLES - self.euler) / 4) as u32
    }

    /// [`Position::without_holes`] for the table less the tile on
    /// `square`, without lifting it.
    #[inline(always)]
    pub(in crate::rules) fn without_holes_less(&self, square: Square) -> bool {
        self.euler - euler_gain(self.ring(square)) == EULER_WITHOUT_HOLES
    }

    /// [`Position::without_holes`] for the table after the tile on `from`
    /// steps to `to` (capturing whatever stands there), without making
    /// the step.
    #[inline(always)]
    pub(in crate::rules) fn without_holes_after_step(&self, from: Square, to: Square) -> bool {
        let mut euler = self.euler - euler_gain(self.ring(from));
        if !self.occupied(to) {
            let ring = self.ring(to) & !ring_bit_if_within(from.x - to.x, from.y - to.y);
            euler += euler_gain(ring);
        }
        euler == EULER_WITHOUT_HOLES
    }

    /// The column, diagonal and anti-diagonal of `square` on the torus,
    /// and its bit in each.
    #[inline(always)]
    pub(super) fn lines_of(square: Square) -> (usize, usize, usize, u64) {
        let (x, y) = (square.x & 63, square.y & 63);
        (
            x as usize,
            ((x - y) & 63) as usize,
            ((x + y) & 63) as usize,
            1 << y,
        )
    }

    /// How far from `from` the first tile stands along `line`: 1 for the
    /// next square.
    /// Meaningful up to 32 squares away (see the module comment); beyond,
    /// it may see the far side of the torus or nothing (64 or more).
    #[inline(always)]
    pub(in crate::rules) fn blocker_distance(&self, from: Square, line: Line) -> u32 {
        let (column, diagonal, anti_diagonal, _) = Self::lines_of(from);
        let (x, y) = ((from.x & 63) as u32, (from.y & 63) as u32);
        match line {
            Line::East => ahead(self.rows[y as usize], x),
            Line::West => behind(self.rows[y as usize], x),
            Line::North => ahead(self.columns[column], y),
            Line::South => behind(self.columns[column], y),
            Line::NorthEast => ahead(self.diagonals[diagonal], y),
            Line::NorthWest => ahead(self.anti_diagonals[anti_diagonal], y),
            Line::SouthEast => behind(self.anti_diagonals[anti_diagonal], y),
            Line::SouthWest => behind(self.diagonals[diagonal], y),
        }
    }

    /// [`Position::blocker_distance`] along the four orthogonal lines: a
    /// rook needs no more.
    #[inline(always)]
    pub(in crate::rules) fn orthogonal_blocker_distances(&self, from: Square) -> [u32; 4] {
        [
            self.blocker_distance(from, Line::East),
            self.blocker_distance(from, Line::West),
            self.blocker_distance(from, Line::North),
            self.blocker_distance(from, Line::South),
        ]
    }

    /// [`Position::blocker_distance`] along the four diagonal lines: a
    /// bishop needs no more.
    #[inline(always)]
    pub(in crate::rules) fn diagonal_blocker_distances(&self, from: Square) -> [u32; 4] {
        [
            self.blocker_distance(from, Line::NorthEast),
            self.blocker_distance(from, Line::NorthWest),
            self.blocker_distance(from, Line::SouthEast),
            self.blocker_distance(from, Line::SouthWest),
        ]
    }

    /// How far from `from` the last square lies, along each orthogonal
    /// line in the order of [`Line::ORTHOGONAL`], that touches a tile besides the
    /// one on `from` (0 when none does): a step further lands beside no
    /// tile, so it is never a candidate.
    #[inline(always)]
    pub(in crate::rules) fn orthogonal_touch_distances(&self, from: Square) -> [u32; 4] {
        let (x, y) = ((from.x & 63) as u32, (from.y & 63) as u32);
        let row = |dy: i32| self.rows[(from.y.wrapping_add(dy) & 63) as usize];
        // A tile k squares along on the line or beside it touches the
        // square k + 1 along at the farthest.
        let rows = row(-1) | row(1) | row(0) & !(1 << x);
        let columns = self.columns_beside(from);
        [
            farthest_ahead(rows, x),
            farthest_behind(rows, x),
            farthest_ahead(columns, y),
            farthest_behind(columns, y),
        ]
    }

    /// [`Position::orthogonal_touch_distances`] up the column of `from`
    /// (`north`) or down it: a pawn's steps need only this line.
    #[inline(always)]
    pub(in crate::rules) fn column_touch_distance(&self, from: Square, north: bool) -> u32 {
        let columns = self.columns_beside(from);
        let y = (from.y & 63) as u32;
        if north {
            farthest_ahead(columns, y)
        } else {
            farthest_behind(columns, y)
        }
    }

    /// The tiles of the column of `from` and the two beside it, by row,
    /// but the one on `from`.
    #[inline(always)]
    fn columns_beside(&self, from: Square) -> u64 {
        let column = |dx: i32| self.columns[(from.x.wrapping_add(dx) & 63) as usize];
        column(-1) | column(1) | column(0) & !(1 << (from.y & 63))
    }

    /// [`Position::orthogonal_touch_distances`] along the four diagonal
    /// lines.
    #[inline(always)]
    pub(in crate::rules) fn diagonal_touch_distances(&self, from: Square) -> [u32; 4] {
        let (_, d, a, bit) = Self::lines_of(from);
        let y = (from.y & 63) as u32;
        let diagonal = |j: usize| self.diagonals[(d + j) & 63];
        let anti = |j: usize| self.anti_diagonals[(a + j) & 63];
        let (d0, a0) = (diagonal(0) & !bit, anti(0) & !bit);
        // Counted by row: a tile k rows along, on the line's own diagonal
        // or on one of the two next to it further along in x, touches the
        // square k + 1 along at the farthest; on the next diagonal back in
        // x, the square k; two back, k − 1. Each word is turned so that a
        // tile's bit lies one row short of the farthest square it touches.
        let north = |own: u64, [ahead1, ahead2, back1, back2]: [u64; 4]| {
            own | ahead1 | ahead2 | back1.rotate_right(1) | back2.rotate_right(2)
        };
        let south = |own: u64, [ahead1, ahead2, back1, back2]: [u64; 4]| {
            own | ahead1 | ahead2 | back1.rotate_left(1) | back2.rotate_left(2)
        };
        // Diagonal numbers grow with x, anti-diagonal numbers too.
        let north_east = north(d0, [diagonal(1), diagonal(2), diagonal(63), diagonal(62)]);
        let south_west = south(d0, [diagonal(63), diagonal(62), diagonal(1), diagonal(2)]);
        let north_west = north(a0, [anti(63), anti(62), anti(1), anti(2)]);
        let south_east = south(a0, [anti(1), anti(2), anti(63), anti(62)]);
        [
            farthest_ahead(north_east, y),
            farthest_ahead(north_west, y),
            farthest_behind(south_east, y),
            farthest_behind(south_west, y),
        ]
    }

    /// How far from `from` the first tile stands up its column (`north`)
    /// or down it, as [`Position::blocker_distance`] counts: a pawn's
    /// steps need only this line.
    #[inline(always)]
    pub(in crate::rules) fn column_blocker_distance(&self, from: Square, north: bool) -> u32 {
        self.blocker_distance(from, Line::vertical(north))
    }

    /// True when a tile stands on `square` (near the group; see the module
    /// comment).
    #[inline(always)]
    pub(in crate::rules) fn occupied(&self, square: Square) -> bool {
        self.rows[(square.y & 63) as usize] & (1 << (square.x & 63)) != 0
    }

    /// The 3 × 3 occupancy around `square`.
    #[inline(always)]
    pub(in crate::rules) fn ring(&self, square: Square) -> Ring {
        let shift = (square.x.wrapping_sub(1) & 63) as u32;
        let row = |dy: i32| {
            (self.rows[(square.y.wrapping_add(dy) & 63) as usize].rotate_right(shift) & 7) as Ring
        };
        row(-1) | row(0) << 3 | row(1) << 6
    }

    /// The squares of the 3 × 3 block centred on `centre` that hold a
    /// tile, numbered as [`Position::attacked_block`] numbers them, and
    /// how many of the tiles around `centre` are each colour's (by
    /// [`Colour::index`]): what an evaluation asks about each king.
    #[inline]
    pub fn block_around(&self, centre: Square) -> (u16, [u32; 2]) {
        let around = self.neighbour_slots(centre);
        let by_colour = Colour::ALL.map(|colour| (around & TileSet::colour(colour)).len());
        (self.ring(centre) as u16, by_colour)
    }

    /// The slots of the tiles touching `square`.
    #[inline]
    pub(in crate::rules) fn neighbour_slots(&self, square: Square) -> TileSet {
        // All 8 cells are read, with no branch on which are occupied: an
        // empty cell's `NO_SLOT` lands on bit 63, which the end drops.
        let mut slots: u64 = 0;
        for (dx, dy) in KING {
            slots |= 1 << (self.board[square.offset(dx, dy).cell()] & 63);
        }
        TileSet(slots as u32)
    }

    /// True when a tile other than the one on `except` touches `square`.
    #[inline(always)]
    pub(in crate::rules) fn has_neighbour_besides(&self, square: Square, except: Square) -> bool {
        self.ring_besides(square, except) != 0
    }

    /// The tiles around `square` (not on it) but the one on `except`.
    #[inline(always)]
    pub(in crate::rules) fn ring_besides(&self, square: Square, except: Square) -> Ring {
        let except = ring_bit_if_within(except.x - square.x, except.y - square.y);
        self.ring(square) & !CENTRE & !except
    }
}

/// For the direction from a tile to a target, by
/// `3 (sign dy + 1) + sign dx + 1`: the line from the target back towards
/// the tile. The centre is never asked.
const LINE_TOWARDS: [Line; 9] = [
    Line::NorthEast,
    Line::North,
    Line::NorthWest,
    Line::East,
    Line::East,
    Line::West,
    Line::SouthEast,
    Line::South,
    Line::SouthWest,
];

/// The line from `from` towards `to`, another square on a line with it.
#[inline(always)]
pub(crate) fn line_towards(from: Square, to: Square) -> Line {
    line_back(from.x - to.x, from.y - to.y)
}

/// The line from a target back towards a tile on a line with it, the
/// target lying `dx, dy` from the tile (see [`LINE_TOWARDS`]).
#[inline(always)]
pub(in crate::rules) fn line_back(dx: i32, dy: i32) -> Line {
    LINE_TOWARDS[(3 * (dy.signum() + 1) + dx.signum() + 1) as usize]
}

/// How far up the torus line `line` from bit `at` the first tile stands:
/// with the bit of the origin at `at`, the square `k` further up the word
/// is bit `k` of the line rotated right by `at`, and the origin drops out.
#[inline(always)]
fn ahead(line: u64, at: u32) -> u32 {
    (line.rotate_right(at) >> 1).trailing_zeros() + 1
}

/// How far down the torus line `line` from bit `at` the first tile
/// stands: the square `k` further down is bit `63 − k` of the line
/// rotated left by `63 − at`.
#[inline(always)]
fn behind(line: u64, at: u32) -> u32 {
    (line.rotate_left(63 - at) << 1).leading_zeros() + 1
}

/// How far up the torus line `line` from bit `at` its last tile stands,
/// plus one (0 with none): the square just past it is the last the tiles
/// of a line touch. Only the 32 bits up from `at` are read, as every
/// tile of the group lies within 31 squares.
#[inline(always)]
fn farthest_ahead(line: u64, at: u32) -> u32 {
    32 - (line.rotate_right(at) as u32).leading_zeros()
}

/// [`farthest_ahead`] down the line: the square `k` further down is bit
/// `31 − k` of the top half of the line rotated left by `63 − at`.
#[inline(always)]
fn farthest_behind(line: u64, at: u32) -> u32 {
    32 - ((line.rotate_left(63 - at) >> 32) as u32).trailing_zeros()
}
