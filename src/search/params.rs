//! The settings that shape a search, with the values the engine ships
//! with. The protocol's options (`protocol/options.rs`) name them and
//! bound them; their defaults are these.

use super::eval::net::Net;
use super::eval::Evaluation;
use super::playout::Policy;
use super::{skill, Player};
use crate::rules::{Colour, Position};

/// The engine's settings that shape a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Worker threads.
    pub threads: usize,
    /// The seed of the search's randomness; 0 draws a fresh one each time.
    pub seed: u64,
    /// How many best actions to report.
    pub multipv: usize,
    /// The UCB1 constant of `Player ismcts` and `Player ucb`.
    pub exploration: f64,
    /// A playout ends, judged by material, after this many turns.
    pub playout_cap: u32,
    /// Milliseconds kept back from each move's time for the channel.
    pub move_overhead: u64,
    /// Which player chooses.
    pub player: Player,
    /// The memory for search trees, in MiB.
    pub hash_mib: usize,
    /// How playouts choose their turns.
    pub policy: Policy,
    /// `Player ismcts` judges a new leaf by an alpha-beta search of this
    /// many plies and a quiescence; below 0, by a random playout.
    pub leaf_depth: i32,
    /// How much `Player ismcts`, judging leaves by search, weighs a
    /// child's minimax value against its mean result in selection, 0 to 1.
    pub minimax_weight: f64,
    /// The UCB1 constant of `Player ismcts` when it judges leaves by
    /// search (`leaf_depth` 0 and above), where `exploration` is for
    /// playouts.
    pub hybrid_exploration: f64,
    /// How much less than half a point a draw is worth to the side the
    /// engine plays, in centipawns of the evaluation (through its
    /// logistic curve): above 0 the engine avoids draws against what it
    /// takes for a weaker opponent, as a stronger side should.
    pub contempt: i32,
    /// How well to play, 1 (a beginner's) to [`skill::FULL_STRENGTH`]:
    /// below it the search is cut short and errs on purpose
    /// ([`skill::Skill`]).
    pub skill: u8,
    /// `UCI_LimitStrength`: play at the strength of `elo` rather than of
    /// `skill`.
    pub limit_strength: bool,
    /// `UCI_Elo`: the strength to play at under `limit_strength`, on the
    /// ladder's scale ([`skill::LADDER_ELO`]).
    pub elo: u32,
    /// The static evaluation: the shipped net by default, another net,
    /// or the rich or plain hand-made one.
    pub evaluation: Evaluation,
    /// The side the engine plays, whose draws `contempt` makes cost it;
    /// `None`: the side to move at the root. A ponder on the opponent's
    /// draw searches the opponent's turn for the engine on the other side,
    /// so that its tree values draws as the engine's next search will.
    pub engine_side: Option<Colour>,
}

impl Params {
    /// How these settings weaken the play: `UCI_Elo`'s strength under
    /// `UCI_LimitStrength`, else `Skill`'s level; `None` at full strength.
    pub fn weakening(&self) -> Option<skill::Skill> {
        if self.limit_strength {
            skill::Skill::at_elo(self.elo)
        } else {
            skill::Skill::of(self.skill)
        }
    }

    /// The side the engine plays in a search of `root`.
    pub fn engine_at(&self, root: &Position) -> Colour {
        self.engine_side.unwrap_or(root.side_to_move())
    }
}

/// The UCB1 constant of playouts: √2 is UCB1's own, for results in 0..1.
pub const DEFAULT_EXPLORATION: f64 = 1.4;

/// The UCB1 constant of the hybrid search: its values are evaluations,
/// not random games, and want far less exploration than playouts.
pub const DEFAULT_HYBRID_EXPLORATION: f64 = 0.1;

/// How much the hybrid search weighs minimax values against means: the
/// judged values see tactics that the means of a few visits blur.
pub const DEFAULT_MINIMAX_WEIGHT: f64 = 0.9;

/// What a draw costs the engine, in centipawns: the most the option
/// allows, a draw worth 8% to it, so that a lone king or queen less
/// often takes every tile placed beside it until the other side's king,
/// drawn, has no square.
pub const DEFAULT_CONTEMPT: i32 = 1000;

/// The number of cores, the default for `threads`.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for Params {
    /// The engine as it ships: the hybrid tree search on every core.
    fn default() -> Params {
        Params {
            threads: cores(),
            seed: 0,
            multipv: 1,
            exploration: DEFAULT_EXPLORATION,
            playout_cap: 10,
            move_overhead: 10,
            player: Player::Ismcts,
            hash_mib: 256,
            policy: Policy::Uniform,
            leaf_depth: 0,
            minimax_weight: DEFAULT_MINIMAX_WEIGHT,
            hybrid_exploration: DEFAULT_HYBRID_EXPLORATION,
            contempt: DEFAULT_CONTEMPT,
            skill: skill::FULL_STRENGTH,
            limit_strength: false,
            elo: skill::LADDER_ELO[0],
            evaluation: Evaluation::Net(Net::shipped()),
            engine_side: None,
        }
    }
}
