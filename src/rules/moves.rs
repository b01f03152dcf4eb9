//! Moves: a drawn tile placed on the table, or a tile moved on it.

use super::piece::Piece;
use super::square::Square;
use std::fmt;

/// One turn of a side.
///
/// Written as in RULES.md section 7: `N@1,-1` for a placement, `0,1-0,3`
/// for a move or capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The side to move drew `piece` from its pile and placed it on `to`.
    Place {
        /// The tile drawn; its colour is the side to move's.
        piece: Piece,
        /// The empty square it goes on.
        to: Square,
    },
    /// The tile on `from` moves to `to`, capturing what stands there.
    Step {
        /// Where the moving tile stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
}

impl Move {
    /// The square the moved or placed tile ends on.
    pub const fn to(self) -> Square {
        match self {
            Move::Place { to, .. } | Move::Step { to, .. } => to,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place { piece, to } => write!(f, "{}@{}", piece.letter(), to),
            Move::Step { from, to } => write!(f, "{}-{}", from, to),
        }
    }
}
