//! What a search says of itself: each root action's statistics, a result
//! it has proven, and when it reports.

use super::Action;
use std::time::{Duration, Instant};

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
pub(crate) struct Cadence {
    limit: u64,
    milestone: u64,
    last: Instant,
}

impl Cadence {
    /// The cadence of a search of at most `limit` iterations
    /// (`u64::MAX` for none).
    pub(crate) fn new(limit: u64) -> Cadence {
        Cadence {
            limit,
            milestone: (limit / 10).max(1),
            last: Instant::now(),
        }
    }

    /// True when a report is due after `done` iterations; the final
    /// report is the caller's.
    pub(crate) fn is_due(&mut self, done: u64) -> bool {
        let due = if self.limit == u64::MAX {
            self.last.elapsed() >= Duration::from_secs(1)
        } else {
            done.is_multiple_of(self.milestone) && done < self.limit
        };
        if due {
            self.last = Instant::now();
        }
        due
    }
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
