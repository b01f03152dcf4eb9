//! Time controls for the page's games: a fixed time per answer (the
//! engine's `movetime`), or a clock per side with a base and an increment,
//! run down on the server and ended by a flag.
//!
//! The model is the match runner's (`chex match --tc`): each answer's time
//! comes off its side's clock, and the increment is added once per
//! completed turn, so a draw and the placement of the drawn tile, two
//! answers, earn one increment between them. The clock of the side to move
//! runs from its last answer; when it reaches zero the side loses on time,
//! even if nobody asks the server anything: the `flags` task wakes at that
//! instant. As on lichess, a side's first turn is untimed (its clock
//! starts once it has moved), and a side that makes no first move within
//! [`FIRST_MOVE_MS`] (or the base time, if shorter) aborts the game
//! rather than losing it. Take-back keeps the clocks as they stand (going back in the
//! game does not give time back); a loaded record is played on with the
//! current time control started afresh.

use super::refused::{in_range, Refused};
use crate::rules::Colour;
use crate::runner::game::Limit;
use std::ops::RangeInclusive;

/// The base times the page may ask for, in ms: from one second (a test's
/// or a bullet player's) to three hours.
pub const BASE_RANGE: RangeInclusive<u64> = 1_000..=10_800_000;

/// The increments the page may ask for, in ms: up to ten minutes a turn.
pub const INCREMENT_RANGE: RangeInclusive<u64> = 0..=600_000;

/// How long a side's first turn, untimed, may last before the game is
/// aborted, in ms: lichess's 30 s.
pub const FIRST_MOVE_MS: u64 = 30_000;

/// Both sides' clocks in a game with a base and an increment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time for the game, in ms.
    pub base_ms: u64,
    /// Added to the mover's clock after each of its completed turns, in ms.
    pub inc_ms: u64,
    /// Each side's time left, White's first, in ms, not counting the
    /// answer now running.
    left_ms: [u64; 2],
    /// The side whose time ran out, once one has.
    flagged: Option<Colour>,
}

impl Clock {
    /// Fresh clocks, or why the page may not ask for them.
    pub fn new(base_ms: u64, inc_ms: u64) -> Result<Clock, Refused> {
        let base_ms = in_range("base time", base_ms, &BASE_RANGE, " ms")?;
        let inc_ms = in_range("increment", inc_ms, &INCREMENT_RANGE, " ms")?;
        Ok(Clock {
            base_ms,
            inc_ms,
            left_ms: [base_ms; 2],
            flagged: None,
        })
    }

    /// The same time control with both clocks full again, for a new game.
    pub fn restarted(&self) -> Clock {
        Clock {
            left_ms: [self.base_ms; 2],
            flagged: None,
            ..*self
        }
    }

    /// How long a side's first turn may last before the game is
    /// aborted: `FIRST_MOVE_MS` (30 s), or the base time if shorter, so that a
    /// bullet game does not wait longer for its first move than it lasts.
    pub fn first_move_ms(&self) -> u64 {
        FIRST_MOVE_MS.min(self.base_ms)
    }

    /// `colour`'s time left before the answer now running.
    pub fn left_ms(&self, colour: Colour) -> u64 {
        self.left_ms[colour.index()]
    }

    /// `colour`'s time left once `running_ms` of its answer have passed.
    pub fn left_now(&self, colour: Colour, running_ms: u64) -> u64 {
        self.left_ms(colour).saturating_sub(running_ms)
    }

    /// True when `mover`'s time has run out after `running_ms` of its
    /// answer: the instant its clock shows zero counts as out, so that a
    /// flag and the page's 0:00 agree.
    pub fn is_out(&self, mover: Colour, running_ms: u64) -> bool {
        running_ms >= self.left_ms(mover)
    }

    /// Takes an answer's `ms` off `mover`'s clock, and adds the increment
    /// when the answer completed the turn (a draw does not: its placement
    /// does).
    pub fn answered(&mut self, mover: Colour, ms: u64, turn_done: bool) {
        let left = &mut self.left_ms[mover.index()];
        *left = left.saturating_sub(ms);
        if turn_done {
            *left = left.saturating_add(self.inc_ms);
        }
    }

    /// Ends the game on `loser`'s time: its clock shows zero.
    pub fn flag(&mut self, loser: Colour) {
        self.left_ms[loser.index()] = 0;
        self.flagged = Some(loser);
    }

    /// The side that lost on time, if one did.
    pub fn flagged(&self) -> Option<Colour> {
        self.flagged
    }

    /// The time control as `chex match` writes it in a record's `tc`.
    pub fn describe(&self) -> String {
        Limit::Clock {
            base_ms: self.base_ms,
            inc_ms: self.inc_ms,
        }
        .describe()
    }
}

/// The reason a record and the page give for a flag.
pub fn lost_on_time(loser: Colour) -> String {
    format!("{loser} lost on time")
}

/// The `go` line for the engine's answer as `mover`, `running_ms` into
/// it: the clocks (`wtime`, `btime`, `winc`, `binc`, the mover's less
/// what it has used already), or `movetime` without a clock. The match
/// runner's form, so the engine meets the same line in both.
pub fn go_command(movetime: u64, clock: Option<&Clock>, mover: Colour, running_ms: u64) -> String {
    match clock {
        None => format!("go movetime {movetime}"),
        Some(c) => {
            let left = |colour: Colour| {
                if colour == mover {
                    c.left_now(colour, running_ms)
                } else {
                    c.left_ms(colour)
                }
            };
            format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                left(Colour::White),
                left(Colour::Black),
                inc = c.inc_ms
            )
        }
    }
}

/// The time the engine has for its answer as `mover`, `running_ms` into
/// it: the move time, or what is left on its clock. The driver waits this
/// long plus its margin before it counts the engine as hung.
pub fn answer_ms(movetime: u64, clock: Option<&Clock>, mover: Colour, running_ms: u64) -> u64 {
    clock.map_or(movetime, |c| c.left_now(mover, running_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_costs_its_time_and_a_whole_turn_earns_one_increment() {
        let mut clock = Clock::new(60_000, 2_000).unwrap();
        // White draws (1.5 s), then places (0.5 s): one turn, one increment.
        clock.answered(Colour::White, 1_500, false);
        assert_eq!(clock.left_ms(Colour::White), 58_500);
        clock.answered(Colour::White, 500, true);
        assert_eq!(clock.left_ms(Colour::White), 60_000);
        // Black's step of 5 s.
        clock.answered(Colour::Black, 5_000, true);
        assert_eq!(clock.left_ms(Colour::Black), 57_000);
        assert_eq!(clock.left_ms(Colour::White), 60_000);
        // An answer longer than the clock leaves zero, not a wrap.
        clock.answered(Colour::Black, 90_000, false);
        assert_eq!(clock.left_ms(Colour::Black), 0);
    }

    #[test]
    fn the_flag_falls_when_the_running_clock_shows_zero() {
        let mut clock = Clock::new(3_000, 0).unwrap();
        assert!(!clock.is_out(Colour::White, 2_999));
        assert!(clock.is_out(Colour::White, 3_000));
        assert_eq!(clock.left_now(Colour::White, 3_500), 0);
        clock.flag(Colour::White);
        assert_eq!(clock.flagged(), Some(Colour::White));
        assert_eq!(clock.left_ms(Colour::White), 0);
        assert_eq!(clock.left_ms(Colour::Black), 3_000);
        assert_eq!(lost_on_time(Colour::White), "White lost on time");
        let fresh = clock.restarted();
        assert_eq!(fresh.flagged(), None);
        assert_eq!(fresh.left_ms(Colour::White), 3_000);
    }

    #[test]
    fn the_go_line_gives_the_clocks_or_the_move_time() {
        let mut clock = Clock::new(180_000, 2_000).unwrap();
        clock.answered(Colour::White, 10_000, true);
        // Black to move, 700 ms into its answer (a draw it made already).
        assert_eq!(
            go_command(1000, Some(&clock), Colour::Black, 700),
            "go wtime 172000 btime 179300 winc 2000 binc 2000"
        );
        assert_eq!(answer_ms(1000, Some(&clock), Colour::Black, 700), 179_300);
        assert_eq!(
            go_command(1000, None, Colour::Black, 700),
            "go movetime 1000"
        );
        assert_eq!(answer_ms(1000, None, Colour::Black, 700), 1000);
    }

    #[test]
    fn the_time_control_is_written_as_the_match_runner_writes_it() {
        assert_eq!(Clock::new(180_000, 2_000).unwrap().describe(), "tc 180+2");
        assert_eq!(Clock::new(3_000, 500).unwrap().describe(), "tc 3+0.5");
    }

    #[test]
    fn out_of_range_time_controls_are_refused() {
        assert!(Clock::new(999, 0).unwrap_err().contains("base time 999 ms"));
        assert!(Clock::new(10_800_001, 0).is_err());
        assert!(Clock::new(60_000, 600_001)
            .unwrap_err()
            .contains("increment 600001 ms"));
        assert!(Clock::new(1_000, 0).is_ok());
    }
}
