//! The move list every generator fills: on the stack, sized for the
//! most moves a position can have.

use crate::rules::moves::Move;
use arrayvec::ArrayVec;

/// An upper bound on the legal moves of any position: at most 6 kinds ×
/// 128 squares around 31 tiles, plus the piece moves of 16 tiles.
pub const MAX_MOVES: usize = 2048;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;
