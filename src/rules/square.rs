//! Squares of the unbounded table.

use std::fmt;

/// The largest absolute value a coordinate may take (RULES.md section 1).
pub const COORD_LIMIT: i32 = 1_000_000_000;

/// The steps from a square to its eight neighbours, anticlockwise from
/// +x: the king's moves, and the squares that touch.
pub const NEIGHBOUR_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A square of the open table, in the frame fixed by the first tile on `0,0`.
///
/// White's forward is +y, Black's is −y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The file: grows to White's right.
    pub x: i32,
    /// The rank: grows towards Black.
    pub y: i32,
}

impl Square {
    /// The square of the first tile of every game.
    pub const ORIGIN: Square = Square { x: 0, y: 0 };

    /// The square `x,y`.
    pub const fn new(x: i32, y: i32) -> Square {
        Square { x, y }
    }

    /// The square `dx` files and `dy` ranks away.
    #[inline(always)]
    pub const fn offset(self, dx: i32, dy: i32) -> Square {
        Square {
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// The eight squares that touch this one, in the order of
    /// `NEIGHBOUR_STEPS`.
    pub fn neighbours(self) -> impl Iterator<Item = Square> {
        NEIGHBOUR_STEPS
            .into_iter()
            .map(move |(dx, dy)| self.offset(dx, dy))
    }

    /// True when the two squares touch by an edge or a corner.
    #[inline(always)]
    pub const fn is_adjacent(self, other: Square) -> bool {
        let dx = self.x - other.x;
        let dy = self.y - other.y;
        (dx != 0 || dy != 0) && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1
    }

    /// True when both coordinates lie within [`COORD_LIMIT`].
    pub const fn in_range(self) -> bool {
        self.x >= -COORD_LIMIT
            && self.x <= COORD_LIMIT
            && self.y >= -COORD_LIMIT
            && self.y <= COORD_LIMIT
    }

    /// The cell of this square in the 64 × 64 torus that stores the table.
    ///
    /// The table spans at most 32 squares in each direction, so squares
    /// within 32 of the group never share a cell with a tile.
    #[inline(always)]
    pub(crate) const fn cell(self) -> usize {
        (((self.y & 63) << 6) | (self.x & 63)) as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}
