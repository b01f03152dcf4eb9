//! Time management: how long a search may think, from the `go` limits.
//! The search loop only asks "should I stop?"; the policy lives here.

use crate::rules::Colour;
use std::time::Duration;

/// The limits of one search, as `go` gives them (milliseconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's time left.
    pub wtime: Option<u64>,
    /// Black's time left.
    pub btime: Option<u64>,
    /// White's increment per move.
    pub winc: Option<u64>,
    /// Black's increment per move.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u64>,
    /// Exactly this long per move.
    pub movetime: Option<u64>,
    /// At most this many iterations.
    pub nodes: Option<u64>,
    /// Until `stop`.
    pub infinite: bool,
}

/// How much of the clock a move may use when no `movestogo` is given: as
/// if this many moves were left to play.
const HORIZON: u64 = 30;

impl Limits {
    /// True when no limit ends the search of the side `colour`: only
    /// `stop` does (`infinite`, no limits, or only the other side's clock).
    pub fn is_endless(&self, colour: Colour, overhead: u64) -> bool {
        self.nodes.is_none() && self.budget(colour == Colour::White, overhead).is_none()
    }

    /// The time this search may take for the side with `time` left and
    /// `increment` per move, keeping `overhead` ms back for the channel;
    /// `None` when only `stop` or `nodes` end it.
    pub fn budget(&self, white: bool, overhead: u64) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        if let Some(ms) = self.movetime {
            return Some(Duration::from_millis(ms.saturating_sub(overhead).max(1)));
        }
        let (time, inc) = if white {
            (self.wtime, self.winc)
        } else {
            (self.btime, self.binc)
        };
        let time = time?;
        let inc = inc.unwrap_or(0);
        let moves = self.movestogo.unwrap_or(HORIZON).clamp(1, HORIZON);
        // Spend a share of the clock plus most of the increment, but never
        // more than half of what is left, so a slow reply cannot flag.
        let share = time / moves + inc * 3 / 4;
        let cap = time / 2;
        Some(Duration::from_millis(
            share.min(cap).saturating_sub(overhead).max(1),
        ))
    }

    /// The most this search may take when the best moves are close: the
    /// budget itself for `movetime`, else up to three budgets, never more
    /// than half the clock.
    pub fn max_budget(&self, white: bool, overhead: u64) -> Option<Duration> {
        let budget = self.budget(white, overhead)?;
        if self.movetime.is_some() {
            return Some(budget);
        }
        let time = if white { self.wtime } else { self.btime }?;
        let cap = Duration::from_millis((time / 2).saturating_sub(overhead).max(1));
        Some((budget * 3).min(cap).max(budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis() as u64);
        let movetime = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(ms(movetime.budget(true, 50)), Some(950));
        let clock = Limits {
            wtime: Some(60_000),
            btime: Some(3_000),
            winc: Some(1_000),
            binc: Some(0),
            ..Limits::default()
        };
        assert_eq!(ms(clock.budget(true, 0)), Some(2_000 + 750));
        assert_eq!(ms(clock.budget(false, 0)), Some(100));
        // Never more than half the clock, never below a millisecond.
        let last = Limits {
            wtime: Some(100),
            winc: Some(10_000),
            ..Limits::default()
        };
        assert_eq!(ms(last.budget(true, 0)), Some(50));
        assert_eq!(ms(last.budget(true, 500)), Some(1));
        assert_eq!(Limits::default().budget(true, 0), None);
        let infinite = Limits {
            infinite: true,
            movetime: Some(10),
            ..Limits::default()
        };
        assert_eq!(infinite.budget(true, 0), None);
        assert_eq!(infinite.max_budget(true, 0), None);
        // Close moves may take three budgets, within half the clock.
        assert_eq!(ms(clock.max_budget(true, 0)), Some(3 * 2_750));
        assert_eq!(ms(clock.max_budget(false, 0)), Some(300));
        assert_eq!(ms(last.max_budget(true, 0)), Some(50));
        assert_eq!(ms(movetime.max_budget(true, 50)), Some(950));
    }
}
