//! Search: choosing a move. Depends on the rules, never the other way
//! round, and knows nothing of the protocol.
//!
//! The root decision of a turn is an [`Action`]: a move of a tile, or
//! "draw", whose outcome (the kind drawn) is a chance event the engine
//! cannot see in advance. Once the kind is known, the placement is the
//! next decision.
//!
//! A search is asked by a [`Request`] of an [`Engine`], which dispatches
//! it to the [`Player`] the `Player` option names and keeps what one
//! search leaves for the next:
//!
//! - [`params`]: the settings that shape a search and their defaults;
//! - `root.rs`: what every player does at the root (actions, seed,
//!   clock, forced moves); [`time`]: when to stop;
//! - `report.rs`: what a search says of itself ([`Report`]);
//! - `engine.rs`: the [`Engine`], which owns what searches keep;
//! - [`mcts`]: the engine, an information-set Monte Carlo tree search;
//! - [`alphabeta`]: the classical searcher, and the judge of the tree's
//!   leaves; [`eval`]: the static evaluation behind one interface;
//!   [`trace`]: an evaluation taken apart for a reader;
//! - [`score`]: the one scale of scores, centipawns and expected results;
//! - [`mate`]: the forced-mate prover run before the tree search;
//! - [`skill`]: playing below full strength;
//! - [`playout`]: random games; [`flat`] and [`baseline`]: the players
//!   the tree search is measured against.

pub mod alphabeta;
pub mod baseline;
mod engine;
pub mod eval;
pub mod flat;
pub mod mate;
pub mod mcts;
pub mod params;
pub mod playout;
mod report;
mod root;
pub mod score;
pub mod skill;
pub mod time;
pub mod trace;

#[cfg(doc)]
use crate::rules::Game;
use crate::rules::{Kind, Move, Position};
pub use engine::Engine;
pub use params::Params;
pub(crate) use report::Cadence;
pub use report::{ActionStats, Proven, Report};
pub(crate) use root::FORCED_PLAYOUTS;
pub use root::{root_actions, MAX_ROOT_ACTIONS};
use std::fmt;
use std::str::FromStr;
pub use time::Limits;

/// A decision at the root of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Play this move: a piece move, or a placement of the drawn tile.
    Play(Move),
    /// Draw the top tile of the pile, not yet known.
    Draw,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(mv) => write!(f, "{mv}"),
            Action::Draw => f.write_str("@"),
        }
    }
}

/// The players the engine can be, chosen with the `Player` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Information-Set Monte Carlo Tree Search ([`mcts`]): the engine.
    Ismcts,
    /// Expectimax alpha-beta with iterative deepening ([`alphabeta`]): a
    /// classical searcher to spar with.
    Alphabeta,
    /// Flat Monte Carlo with UCB1 at the root: playouts go where the best
    /// action might be.
    Ucb,
    /// Flat Monte Carlo: playouts shared equally among the root actions.
    Flat,
    /// Takes the most valuable piece it can, else gives check, else plays
    /// at random.
    Greedy,
    /// Uniformly random among the root actions.
    Random,
}

impl Player {
    /// Every player, in the order the `uci` option lists them.
    pub const ALL: [Player; 6] = [
        Player::Ismcts,
        Player::Alphabeta,
        Player::Ucb,
        Player::Flat,
        Player::Greedy,
        Player::Random,
    ];

    /// The option value naming this player.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Ismcts => "ismcts",
            Player::Alphabeta => "alphabeta",
            Player::Ucb => "ucb",
            Player::Flat => "flat",
            Player::Greedy => "greedy",
            Player::Random => "random",
        }
    }
}

impl FromStr for Player {
    type Err = String;

    fn from_str(s: &str) -> Result<Player, String> {
        Player::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown player '{s}'"))
    }
}

/// What a search is asked, in one place for every player (as Lc0 passes
/// one set of search parameters): the position, what is known of the
/// game before it, how long to think and how.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The position to move in.
    pub position: &'a Position,
    /// The kind of the tile the side to move has drawn and must place, if
    /// it has.
    pub pending: Option<Kind>,
    /// The keys of the positions since the last irreversible turn,
    /// `position` last, as [`Game::recent_keys`] gives them: what a
    /// repetition is judged by.
    pub history: &'a [u64],
    /// When to stop.
    pub limits: &'a Limits,
    /// The player and its settings.
    pub params: &'a Params,
    /// The root actions the search may choose from (`go searchmoves`):
    /// all of them when empty.
    pub searchmoves: &'a [Action],
}
