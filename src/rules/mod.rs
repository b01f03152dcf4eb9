//! The rules of CHEX (RULES.md): squares, pieces, moves, positions, legal
//! move generation, notation, game endings and perft. No I/O, no search.
//!
//! Files, one job each: `square`, `piece`, `pile`, `moves`, `tile_set`
//! (the types);
//! `position` (storage, make and unmake; `position/geometry` reads lines
//! and rings off it; `position/consistency` checks its redundant state);
//! `attack` (attacks and check); `ring` (the 3 × 3 block around a square
//! and its tables); `connectivity` (the connection rule on the tile
//! graph); `movegen` (candidates and move lists;
//! `movegen/legality` settles candidates, `movegen/sampling` numbers them
//! and `movegen/random` picks random turns with them: [`Sampler`], the one
//! way a playout samples the rules); `hash`; `notation`; `game`
//! (endings); `perft`.
//!
//! Words used in the code with a meaning of their own here:
//! - **slot**: the index (0–15 White, 16–31 Black) of a tile in
//!   `Position`'s arrays, and nothing else. A set of tiles is a
//!   `TileSet`, a bit for each slot.
//! - **numbered step**, *number* in `movegen/sampling` and
//!   `movegen/random` (`StepNumbering`): one square a tile might step to,
//!   numbered so that a random turn can pick numbers uniformly and test
//!   only the pick.
//! - **torus, cell**: the table is stored on 64 × 64 cells, square `x,y`
//!   in cell `(x mod 64, y mod 64)`; exact near the group (see `position`).
//! - **line**: one of the eight directions from a square (`Line`), along
//!   which sliders ride and the occupancy words are read.
//! - **ring**: the 3 × 3 occupancy around a square, 9 bits; a tile may
//!   leave when its ring's tiles hold together without it.
//! - **holes, Euler number**: empty regions the table encloses; kept as
//!   four times groups less holes. Without holes the ring test is exact.
//! - **bearings**: how each tile of a side lies from a target square
//!   (same rank or file, same diagonal, a knight's jump, next to it),
//!   all sixteen at once.
//! - **candidate**: a move that satisfies everything but the connection
//!   rule and check; legality is settled per candidate.
//! - **screen** (`Screen`): what a position's candidates need before
//!   they are known legal (which movers hold the table together, what
//!   threatens the king), worked out lazily once per position.
//! - **shield**: a tile of the side to move alone between its king and an
//!   enemy slider.
//! - **landing**: what a step's destination holds: a capture, or nothing
//!   (with the tiles around it).
//! - **reach**: the box one square around every tile, cut at the
//!   coordinate limit; no legal destination lies outside it.
//! - **frontier**: the empty squares touching the table, where a drawn
//!   tile may be placed.
//! - **race**: two floods of the tile graph run by turns from two seeds;
//!   the first to run out is a whole part, found without the other.
//! - **struck** (in `movegen/random`): the numbers a random turn has
//!   tried and found to hold no legal step.

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
#[cfg(test)]
mod random_games;
mod repetition;
mod ring;
mod square;
mod tile_set;

pub use game::{kind_name, score_of, white_points, Ending, Game, GameEnd, UNFINISHED_SCORE};
pub use movegen::{MoveList, Sampler, Turn, MAX_MOVES};
pub use moves::Move;
pub use notation::{clip, MoveToken, NotationError, MAX_COUNTER, STARTPOS};
pub use perft::{divide, perft, perft_parallel};
pub use piece::{Colour, Kind, Piece};
pub use pile::Pile;
pub(crate) use position::columns::SlotColumns;
pub use position::consistency::Inconsistency;
pub use position::setup::{PositionError, Setup};
pub use position::{Position, Tile, Undo};
pub use repetition::is_third_occurrence;
pub use square::{Square, COORD_LIMIT};
