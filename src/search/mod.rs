//! Search: choosing a move. Depends on the rules, never the other way
//! round, and knows nothing of the protocol.
//!
//! The root decision of a turn is an [`Action`]: a move of a tile, or
//! "draw", whose outcome (the kind drawn) is a chance event the engine
//! cannot see in advance. Once the kind is known, the placement is the
//! next decision.

pub mod alphabeta;
pub mod baseline;
pub mod eval;
pub mod flat;
pub mod ismcts;
pub mod mate;
pub mod playout;
pub mod score;
pub mod time;

#[cfg(doc)]
use crate::rules::Game;
use crate::rules::{Kind, Move, MoveList, Position};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
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

/// The choices of the side to move: with a drawn tile of `pending` kind,
/// its legal placements; otherwise its legal piece moves and, while its
/// pile is not empty, "draw".
pub fn root_actions(pos: &Position, pending: Option<Kind>) -> Vec<Action> {
    let mut list = MoveList::new();
    let mut scratch = pos.clone();
    match pending {
        Some(kind) => scratch.generate_placements(kind, &mut list),
        None => scratch.generate_steps(&mut list),
    }
    let mut actions: Vec<Action> = list.into_iter().map(Action::Play).collect();
    if pending.is_none() && !pos.pile(pos.side_to_move()).is_empty() {
        actions.push(Action::Draw);
    }
    actions
}

/// The most root actions a turn can have: every move of the move list's
/// capacity, and "draw".
pub const MAX_ROOT_ACTIONS: usize = crate::rules::MAX_MOVES + 1;

/// The players the engine can be, chosen with the `Player` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Information-Set Monte Carlo Tree Search ([`ismcts`]): the engine.
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
    pub policy: playout::Policy,
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
}

/// What the search has learned of one root action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStats {
    /// The action.
    pub action: Action,
    /// Playouts through it.
    pub visits: u64,
    /// Playouts won by the side to move (a playout cut by its cap counts
    /// its material win probability as a fraction of a win, the rest as a
    /// loss).
    pub wins: f64,
    /// Playouts drawn.
    pub draws: f64,
    /// Playouts lost.
    pub losses: f64,
    /// The expected line after the action, most visited first (empty
    /// without a tree). A draw in it is followed by the placement of the
    /// kind most often drawn there.
    pub pv: Vec<Action>,
    /// The game's result after the action, when the search has proven it
    /// whatever the opponent plays and the piles bring; `None` for an
    /// estimate (and for players that prove nothing).
    pub proven: Option<Proven>,
}

/// A root action's result proven by the search, for the side to move.
///
/// Its `turns` count the longest line the proof allows (the winner
/// hurrying, the loser and the piles delaying) from the root: every turn
/// either side completes, a step or a draw with the placement of the
/// tile, counts one, the root action itself included. A drawn tile that
/// cannot be placed ends the game inside the drawer's turn and counts
/// none. So a step that checkmates, or after which the opponent must draw
/// and cannot place whatever comes, is `Win { turns: 1 }`; a draw at the
/// root that is checkmate whatever kind comes is `Loss { turns: 0 }`.
///
/// The count is that of the line proven, which need not be the quickest:
/// a search may stop looking inside a line once it has a proof there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// The side to move wins within `turns` turns.
    Win {
        /// Turns to the win, the root action's first.
        turns: u8,
    },
    /// The side to move loses, at the latest after `turns` turns.
    Loss {
        /// Turns to the loss, the root action's first.
        turns: u8,
    },
    /// The game is drawn.
    Draw,
}

impl Proven {
    /// The winner's own turns to the win, as UCI's `score mate N` counts
    /// them: positive when the side to move wins (the root action its
    /// first turn), negative when the opponent does; `None` for a draw.
    ///
    /// The side to move plays the odd turns of the line and its opponent
    /// the even ones, so a win after `turns` turns comes with the side's
    /// `(turns + 1) / 2`-th turn and a loss with the opponent's
    /// `turns / 2`-th. A drawn tile that cannot be placed counts no turn,
    /// so the loss is put on the opponent's turn that led to it; at the
    /// root's own draw (`turns` 0) that is mate in one all the same, for
    /// a mate in zero would say the game is over already.
    pub fn mate_in(self) -> Option<i32> {
        match self {
            Proven::Win { turns } => Some(((i32::from(turns) + 1) / 2).max(1)),
            Proven::Loss { turns } => Some(-((i32::from(turns) / 2).max(1))),
            Proven::Draw => None,
        }
    }
}

impl ActionStats {
    /// The mean result for the side to move, 0 (loss) to 1 (win).
    pub fn value(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            (self.wins + 0.5 * self.draws) / self.visits as f64
        }
    }
}

/// A snapshot of a search, for `info` lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Every root action, best first.
    pub actions: Vec<ActionStats>,
    /// Iterations (playouts) so far.
    pub nodes: u64,
    /// Turns played in those playouts.
    pub plies: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// When a search reports: once a second, or with a node limit after every
/// tenth of it, so that a seeded one-thread search prints the same lines
/// every time.
struct Cadence {
    limit: u64,
    milestone: u64,
    last: std::time::Instant,
}

impl Cadence {
    /// The cadence of a search of at most `limit` iterations
    /// (`u64::MAX` for none).
    fn new(limit: u64) -> Cadence {
        Cadence {
            limit,
            milestone: (limit / 10).max(1),
            last: std::time::Instant::now(),
        }
    }

    /// True when a report is due after `done` iterations; the final
    /// report is the caller's.
    fn is_due(&mut self, done: u64) -> bool {
        let due = if self.limit == u64::MAX {
            self.last.elapsed() >= Duration::from_secs(1)
        } else {
            done.is_multiple_of(self.milestone) && done < self.limit
        };
        if due {
            self.last = std::time::Instant::now();
        }
        due
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
}

impl<'a> Request<'a> {
    /// A search of `position` with no drawn tile and no history.
    pub fn new(position: &'a Position, limits: &'a Limits, params: &'a Params) -> Request<'a> {
        Request {
            position,
            pending: None,
            history: &[],
            limits,
            params,
        }
    }

    /// The clock every player stops by: the limits for the side to move,
    /// less `MoveOverhead`.
    fn clock(&self) -> time::Clock {
        time::Clock::new(
            self.limits,
            self.position.side_to_move(),
            self.params.move_overhead,
        )
    }

    /// True when no limit but `stop` ends this search.
    fn is_endless(&self) -> bool {
        self.limits
            .is_endless(self.position.side_to_move(), self.params.move_overhead)
    }

    /// True when the search is of a forced move (`actions`, the number of
    /// root actions, is 1) and some limit ends it. Such a search is only
    /// for the score it reports, so it is kept short ([`time::Clock::forced`],
    /// and a small node limit of each player's own): a brief look proves a
    /// quick mate either way or settles an estimate, and any longer is time
    /// taken from the clock for nothing. A search that only `stop` ends is
    /// not cut: the caller is watching it.
    fn is_forced(&self, actions: usize) -> bool {
        actions == 1 && !self.is_endless()
    }
}

/// The playouts (iterations) a Monte Carlo player gives a forced move:
/// enough for a tree search to prove a mate of a turn or two after it,
/// and for a mean over random games to mean something, in a small part
/// of a move's time.
const FORCED_PLAYOUTS: u64 = 256;

/// Chooses an action for the side to move of the request's position
/// within its limits, calling `report` at least once a second and once at
/// the end. Returns `None` when there is nothing to choose from. `stop`
/// ends the search at once; a search that no limit ends (`infinite`, or
/// no limit for the side to move) answers only then, as UCI asks, even
/// when its mind is made up.
pub fn search(
    request: &Request,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> Option<Action> {
    let (pos, params) = (request.position, request.params);
    let actions = root_actions(pos, request.pending);
    if actions.is_empty() {
        return None;
    }
    let start = std::time::Instant::now();
    let choice = match params.player {
        Player::Ismcts => ismcts::search(request, stop, report)?,
        Player::Alphabeta => alphabeta::search(request, stop, report)?,
        Player::Ucb | Player::Flat => flat::search(request, &actions, stop, report),
        Player::Greedy | Player::Random => {
            let choice = match params.player {
                Player::Greedy => baseline::greedy(pos, &actions, params.seed),
                _ => baseline::random(&actions, params.seed),
            };
            report(&Report {
                actions: vec![ActionStats {
                    action: choice,
                    visits: 0,
                    wins: 0.0,
                    draws: 0.0,
                    losses: 0.0,
                    pv: Vec::new(),
                    proven: None,
                }],
                nodes: 0,
                plies: 0,
                elapsed: start.elapsed(),
            });
            choice
        }
    };
    if request.is_endless() {
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    Some(choice)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mate counts follow UCI: the winner's turns, the root action the
    /// side to move's first.
    #[test]
    fn proofs_count_the_winners_turns() {
        let win = |turns| Proven::Win { turns }.mate_in();
        let loss = |turns| Proven::Loss { turns }.mate_in();
        // A step that mates at once; a mate on the side's second and
        // third turns.
        assert_eq!((win(1), win(3), win(5)), (Some(1), Some(2), Some(3)));
        // The opponent mates on its first turn (or the side's second
        // turn is a draw it cannot place), or on its second.
        assert_eq!((loss(2), loss(4)), (Some(-1), Some(-2)));
        // The root's draw cannot be placed, whatever comes.
        assert_eq!(loss(0), Some(-1));
        assert_eq!(Proven::Draw.mate_in(), None);
        // The longest proof the search keeps.
        assert_eq!((win(63), loss(63)), (Some(32), Some(-31)));
    }
}
