//! The rules of CHEX (RULES.md): squares, pieces, moves, positions, legal
//! move generation, notation, game endings and perft. No I/O, no search.

mod attack;
mod connectivity;
mod game;
mod hash;
mod movegen;
mod moves;
mod notation;
mod perft;
mod piece;
mod pile;
mod position;
mod square;

pub use game::{kind_name, Ending, Game, GameEnd};
pub use movegen::{FrontierRows, MoveList, Screen, StepSlots, MAX_MOVES, SLOT_LIMIT};
pub use moves::Move;
pub use notation::{clip, MoveToken, NotationError, MAX_COUNTER, STARTPOS};
pub use perft::{divide, perft};
pub use piece::{Colour, Kind, Piece};
pub use pile::Pile;
pub use position::{Inconsistency, Position, PositionError, Tile, Undo};
pub use square::{Square, COORD_LIMIT};
