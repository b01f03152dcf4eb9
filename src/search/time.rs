//! Time management: how long a search may think, from the `go` limits.
//! The search loop only asks "should I stop?"; the policy lives here.

use crate::rules::Colour;
use std::time::{Duration, Instant};

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
    /// At most this many plies deep, quiescence aside: only the
    /// alpha-beta player has a depth.
    pub depth: Option<u64>,
    /// Until `stop`.
    pub infinite: bool,
    /// A ponder search (`go ponder`), on the opponent's time: it runs
    /// until `ponderhit` or `stop`, whatever else the limits say, and its
    /// tree is kept for the search of the same position that follows.
    pub ponder: bool,
    /// When the clock started: when `go` was read, so that the time
    /// spent before the search begins (a thread to start, a tree to set
    /// up, on a machine too busy to run them at once) counts against the
    /// move as the caller's clock counts it. `None`: when the search
    /// starts.
    pub started: Option<Instant>,
}

/// How much of the clock a move may use when no `movestogo` is given: as
/// if this many moves were left to play.
const HORIZON: u64 = 30;

impl Limits {
    /// True when no limit ends the search of the side `colour`: only
    /// `stop` does (`infinite`, no limits, or only the other side's clock).
    pub fn is_endless(&self, colour: Colour, overhead: u64) -> bool {
        self.ponder
            || self.nodes.is_none()
                && self.depth.is_none()
                && self.budget(colour == Colour::White, overhead).is_none()
    }

    /// The time this search may take for the side with `time` left and
    /// `increment` per move, keeping `overhead` ms back for the channel;
    /// `None` when only `stop` or `nodes` end it.
    pub fn budget(&self, white: bool, overhead: u64) -> Option<Duration> {
        if self.infinite || self.ponder {
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

/// A forced move (a single action) takes at most one `FORCED_SHARE`-th
/// of a move's time: its search is only for the score it reports.
const FORCED_SHARE: u32 = 10;

/// The clock of one search: every player asks it whether to stop.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: Instant,
    /// The time this move should take.
    soft: Option<Duration>,
    /// The time it may take when the best actions are close.
    hard: Option<Duration>,
    /// The limits allow stopping early or going on (a clock, not an exact
    /// `movetime` or a node count).
    flexible: bool,
}

impl Clock {
    /// The clock of a search by `colour` under `limits`, keeping
    /// `overhead` ms back for the channel.
    pub fn new(limits: &Limits, colour: Colour, overhead: u64) -> Clock {
        let white = colour == Colour::White;
        let soft = limits.budget(white, overhead);
        let hard = limits.max_budget(white, overhead);
        Clock {
            start: limits.started.unwrap_or_else(Instant::now),
            soft,
            hard: hard.or(soft),
            flexible: limits.movetime.is_none() && soft.is_some() && limits.nodes.is_none(),
        }
    }

    /// This clock for a forced move: a tenth of the time this move should
    /// take, to the end, so that the search there for a score costs the
    /// clock little. Its start is this clock's.
    pub fn forced(self) -> Clock {
        let share = self.soft.map(|soft| soft / FORCED_SHARE);
        Clock {
            soft: share,
            hard: share,
            ..self
        }
    }

    /// When one `share`-th of the time this move should take is spent: a
    /// deadline for a part of the search. `None` without a time limit.
    pub fn share_ends(&self, share: u32) -> Option<Instant> {
        self.soft.map(|soft| self.start + soft / share)
    }

    /// The time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True once the time this move should take is spent.
    pub fn is_past_soft_limit(&self) -> bool {
        self.soft.is_some_and(|l| self.elapsed() >= l)
    }

    /// True once no rule lets the search go on: past the hard limit, or
    /// past an exact `movetime`. Cheap enough to ask every iteration.
    pub fn is_past_hard_limit(&self) -> bool {
        let limit = if self.flexible { self.hard } else { self.soft };
        limit.is_some_and(|l| self.elapsed() >= l)
    }

    /// True when a search that deepens step by step should not start a
    /// step that takes several times the last: half the move's time is
    /// gone, and the limits let it stop early.
    pub fn is_too_late_to_deepen(&self) -> bool {
        self.flexible && self.soft.is_some_and(|l| self.elapsed() * 2 > l)
    }

    /// True when a tree search should end, given the visits of its most
    /// and second most visited root actions and the iterations so far.
    pub fn is_up(&self, best: u64, second: u64, done: u64) -> bool {
        let elapsed = self.elapsed();
        let (Some(soft), Some(hard)) = (self.soft, self.hard) else {
            return false;
        };
        if elapsed >= hard {
            return true;
        }
        if !self.flexible {
            return elapsed >= soft;
        }
        // Smart pruning: stop when the runner-up cannot catch the best in
        // the time left, at the rate seen so far.
        let rate = done as f64 / elapsed.as_secs_f64().max(1e-3);
        let left = rate * soft.saturating_sub(elapsed).as_secs_f64();
        if elapsed >= soft / 10 && (second as f64) + left < best as f64 {
            return true;
        }
        // Past the soft limit, go on only while the two are close.
        elapsed >= soft && (second as f64) < 0.9 * best as f64
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

    /// A forced move's clock is a tenth of the move's, from the same
    /// start; a clock with no time stays without.
    #[test]
    fn a_forced_move_takes_a_tenth_of_the_time() {
        for limits in [
            Limits {
                movetime: Some(1000),
                ..Limits::default()
            },
            Limits {
                wtime: Some(30_000),
                ..Limits::default()
            },
        ] {
            let limits = Limits {
                started: Some(Instant::now() - Duration::from_millis(150)),
                ..limits
            };
            let clock = Clock::new(&limits, Colour::White, 0);
            assert!(!clock.is_past_soft_limit() && !clock.is_past_hard_limit());
            let forced = clock.forced();
            assert!(forced.elapsed() >= Duration::from_millis(150));
            assert!(forced.is_past_soft_limit() && forced.is_past_hard_limit());
            assert!(forced.is_up(1, 0, 1));
        }
        let endless = Clock::new(&Limits::default(), Colour::White, 0).forced();
        assert!(!endless.is_past_hard_limit() && !endless.is_up(1, 0, 1));
    }

    #[test]
    fn the_clock_counts_from_when_go_was_read() {
        let limits = Limits {
            movetime: Some(100),
            started: Some(Instant::now() - Duration::from_millis(150)),
            ..Limits::default()
        };
        let clock = Clock::new(&limits, Colour::White, 0);
        assert!(clock.elapsed() >= Duration::from_millis(150));
        assert!(clock.is_past_soft_limit() && clock.is_past_hard_limit());
        let fresh = Clock::new(
            &Limits {
                started: None,
                ..limits
            },
            Colour::White,
            0,
        );
        assert!(!fresh.is_past_hard_limit());
        // An exact movetime is spent to the end, never cut for depth.
        assert!(!fresh.is_too_late_to_deepen());
    }
}
