//! The review of a game: every decision searched where it was made, and
//! marked by how much the mover's expected result dropped.
//!
//! A decision is one answer of the game: a piece move, a draw (`@`), or
//! the placement of a drawn tile, so a draw-and-place turn is two
//! decisions. Each is measured in the position where it was made: the
//! draw in the position before it, by the value of `@` against the best
//! action; the placement in the position with its kind revealed (`… N@`).
//! The kind that came is luck, and it falls between the two, so it never
//! counts against the mover. The values come from one search per decision
//! with a `MultiPV` large enough to report every root action it searched:
//! the line of the action the engine chose (its `bestmove`) gives the
//! value with best play (`before`), the played action's own line the
//! value of what was played (`after`). Marks follow Lichess's drops of 0.1, 0.2 and 0.3 on a −1..1
//! scale, halved on the engine's 0..1 expected result.

use super::notation::{serialize_colour, squares};
use crate::rules::Colour;
use serde::Serialize;

/// A drop in the mover's expected result (0..1) from this on is an
/// inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// From this on, a mistake.
pub const MISTAKE: f64 = 0.10;
/// From this on, a blunder.
pub const BLUNDER: f64 = 0.15;

/// The search time per decision when the page names none, in ms.
pub const REVIEW_MOVETIME: u64 = 250;
/// The search times per decision the page may ask for, in ms.
pub const REVIEW_MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 50..=10_000;

/// How bad a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// A drop of at least [`INACCURACY`].
    Inaccuracy,
    /// A drop of at least [`MISTAKE`].
    Mistake,
    /// A drop of at least [`BLUNDER`].
    Blunder,
}

/// The mark a drop in expected result earns, if any.
pub fn mark(drop: f64) -> Option<Mark> {
    // A hair of rounding must not turn a drop of exactly a threshold
    // (as the page recomputes it from the values shown) into the mark
    // below it.
    let drop = drop + 1e-9;
    if drop >= BLUNDER {
        Some(Mark::Blunder)
    } else if drop >= MISTAKE {
        Some(Mark::Mistake)
    } else if drop >= INACCURACY {
        Some(Mark::Inaccuracy)
    } else {
        None
    }
}

/// What one searched action is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Value {
    /// The expected result, 0 to 1, a draw counting a half.
    pub expected: f64,
    /// Wins, draws and losses per mille, when the engine gave them.
    pub wdl: Option<[u32; 3]>,
}

impl Value {
    /// The same value seen by the other side.
    pub fn flipped(self) -> Value {
        Value {
            expected: 1.0 - self.expected,
            wdl: self.wdl.map(|[w, d, l]| [l, d, w]),
        }
    }
}

/// One decision of the game, as the review shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Decision {
    /// Its index among the game's decisions.
    pub index: usize,
    /// The moves played before it (a draw and its placement share one).
    pub ply: usize,
    /// The mover; the page reads `white` or `black`.
    #[serde(serialize_with = "serialize_colour")]
    pub side: Colour,
    /// The answer played: `@`, `N@x,y` or `x,y-x,y`.
    pub played: String,
    /// The engine's best action there, once searched.
    pub best: Option<String>,
    /// The mover's value with the best action: where the decision began.
    pub before: Option<Value>,
    /// The mover's value with the action played.
    pub after: Option<Value>,
    /// `before − after`, never below 0.
    pub drop: Option<f64>,
    /// The mark the drop earns.
    pub mark: Option<Mark>,
    /// White's expected result where the decision began: the graph.
    pub white: Option<f64>,
    /// True once searched.
    pub searched: bool,
    /// Where the played action's tile came from and went, for the table.
    pub played_squares: [Option<[i32; 2]>; 2],
    /// The same for the best action.
    pub best_squares: [Option<[i32; 2]>; 2],
    /// The value of the played action in its own search, kept apart from
    /// `after`, which may come from the next decision when the search
    /// reported no line for it.
    #[serde(skip)]
    played_value: Option<Value>,
}

impl Decision {
    /// The side that made the decision.
    pub fn mover(&self) -> Colour {
        self.side
    }

    /// A decision not yet searched.
    pub fn new(index: usize, ply: usize, white_moves: bool, played: String) -> Decision {
        Decision {
            index,
            ply,
            side: if white_moves {
                Colour::White
            } else {
                Colour::Black
            },
            played_squares: squares(&played),
            played,
            best: None,
            before: None,
            after: None,
            drop: None,
            mark: None,
            white: None,
            searched: false,
            best_squares: [None, None],
            played_value: None,
        }
    }

    /// Takes the search's report: each searched action's value in the
    /// engine's order (the best first), and its best action.
    pub fn searched(&mut self, lines: &[(String, Value)], best: Option<String>) {
        self.searched = true;
        self.best = best.or_else(|| lines.first().map(|(t, _)| t.clone()));
        // The value of the action the engine chose, which is its first
        // line unless the engine orders them otherwise.
        let line_of = |token: &str| {
            lines
                .iter()
                .find(|(t, _)| t.eq_ignore_ascii_case(token))
                .map(|(_, v)| *v)
        };
        self.before = self
            .best
            .as_deref()
            .and_then(line_of)
            .or_else(|| lines.first().map(|(_, v)| *v));
        self.best_squares = self.best.as_deref().map(squares).unwrap_or([None, None]);
        self.played_value = line_of(&self.played);
    }
}

/// The review of one game, filled in decision by decision.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The game's generation it belongs to.
    #[serde(skip)]
    pub generation: u64,
    /// The search time per decision, in ms.
    pub movetime: u64,
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// How many are searched.
    pub done: usize,
    /// Where it stands.
    pub status: ReviewStatus,
    /// Why it failed, in words.
    pub message: String,
    /// The worst mark of each entry of the move list (a draw and its
    /// placement are one entry).
    pub moves: Vec<Option<Mark>>,
    /// The position command of each decision, for the engine.
    #[serde(skip)]
    pub positions: Vec<String>,
    /// What the game's end gave the last mover, when the game is over:
    /// the value after its last decision.
    #[serde(skip)]
    pub last_result: Option<Value>,
}

/// Where a review stands; the page reads it as a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewStatus {
    /// Its decisions are being searched.
    Running,
    /// Every decision is searched and judged.
    Done,
    /// A search failed; `message` says why.
    Failed,
}

impl Review {
    /// The next decision to search, while running.
    pub fn next(&self) -> Option<usize> {
        if self.status != ReviewStatus::Running {
            return None;
        }
        self.decisions.iter().position(|d| !d.searched)
    }

    /// Works out every decision's `after`, drop and mark from the values
    /// searched so far, and the moves' marks.
    pub fn judge(&mut self) {
        let n = self.decisions.len();
        for i in 0..n {
            let next_before = self.decisions.get(i + 1).and_then(|d| {
                // A step or placement hands the turn over: the next
                // decision is the opponent's, and its value is this
                // one's after, seen from the other side.
                (d.side != self.decisions[i].side)
                    .then_some(d.before)
                    .flatten()
            });
            let d = &mut self.decisions[i];
            d.after = d.played_value.or_else(|| {
                if d.played == "@" {
                    // What a draw is worth lies only in its own search.
                    None
                } else if i + 1 == n {
                    self.last_result
                } else {
                    next_before.map(Value::flipped)
                }
            });
            d.white = d.before.map(|v| {
                if d.side == Colour::White {
                    v.expected
                } else {
                    1.0 - v.expected
                }
            });
            d.drop = match (d.before, d.after) {
                (Some(b), Some(a)) => Some((b.expected - a.expected).max(0.0)),
                _ => None,
            };
            d.mark = d.drop.and_then(mark);
        }
        let plies = self.decisions.last().map_or(0, |d| d.ply + 1);
        self.moves = vec![None; plies];
        for d in &self.decisions {
            if let Some(slot) = self.moves.get_mut(d.ply) {
                *slot = (*slot).max(d.mark);
            }
        }
        self.done = self.decisions.iter().filter(|d| d.searched).count();
        if self.status == ReviewStatus::Running && self.done == n {
            self.status = ReviewStatus::Done;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(expected: f64) -> Value {
        Value {
            expected,
            wdl: None,
        }
    }

    fn review(decisions: Vec<Decision>) -> Review {
        Review {
            generation: 0,
            movetime: 100,
            positions: vec![String::new(); decisions.len()],
            decisions,
            done: 0,
            status: ReviewStatus::Running,
            message: String::new(),
            moves: Vec::new(),
            last_result: None,
        }
    }

    #[test]
    fn marks_follow_the_halved_lichess_thresholds() {
        assert_eq!(mark(0.0), None);
        assert_eq!(mark(0.049), None);
        assert_eq!(mark(0.05), Some(Mark::Inaccuracy));
        assert_eq!(mark(0.099), Some(Mark::Inaccuracy));
        assert_eq!(mark(0.10), Some(Mark::Mistake));
        assert_eq!(mark(0.149), Some(Mark::Mistake));
        assert_eq!(mark(0.15), Some(Mark::Blunder));
        assert_eq!(mark(0.9), Some(Mark::Blunder));
        // A rise is no mark.
        assert_eq!(mark(-0.3), None);
    }

    /// White draws when drawing is best, and a bad kind comes: the win
    /// chance falls, but neither the draw nor the (best) placement of
    /// the bad kind is marked. A step that throws 0.12 away is.
    #[test]
    fn the_luck_of_the_draw_is_never_a_mistake() {
        let mut r = review(vec![
            Decision::new(0, 0, true, "@".into()),
            Decision::new(1, 0, true, "P@1,0".into()),
            Decision::new(2, 1, false, "0,0-0,1".into()),
        ]);
        // The draw: `@` is the best action, worth 0.55.
        r.decisions[0].searched(
            &[("@".into(), value(0.55)), ("0,0-1,1".into(), value(0.5))],
            Some("@".into()),
        );
        // The pawn came: the best placement is worth 0.2 only; it is
        // the one played.
        r.decisions[1].searched(
            &[("P@1,0".into(), value(0.2)), ("P@2,0".into(), value(0.1))],
            Some("P@1,0".into()),
        );
        // Black's step is worth 0.68 against 0.80 for the best.
        r.decisions[2].searched(
            &[
                ("0,0-1,0".into(), value(0.8)),
                ("0,0-0,1".into(), value(0.68)),
            ],
            None,
        );
        r.judge();
        let d = &r.decisions;
        assert_eq!((d[0].mark, d[1].mark), (None, None));
        assert_eq!(d[0].drop, Some(0.0));
        assert_eq!(d[1].drop, Some(0.0));
        // White's curve fell by 0.35 across the draw: luck.
        assert!((d[0].white.unwrap() - d[1].white.unwrap() - 0.35).abs() < 1e-9);
        assert_eq!(d[2].mark, Some(Mark::Mistake));
        assert_eq!(d[2].best.as_deref(), Some("0,0-1,0"));
        assert!((d[2].white.unwrap() - 0.2).abs() < 1e-9);
        assert_eq!(r.moves, [None, Some(Mark::Mistake)]);
        assert_eq!(r.status, ReviewStatus::Done);
    }

    /// A draw when a step was much better is marked by the value of `@`
    /// in its own search, whatever kind came after.
    #[test]
    fn a_bad_draw_is_marked_by_the_value_of_the_draw() {
        let mut r = review(vec![
            Decision::new(0, 4, true, "@".into()),
            Decision::new(1, 4, true, "Q@1,0".into()),
        ]);
        r.decisions[0].searched(
            &[("0,0-1,1".into(), value(0.7)), ("@".into(), value(0.45))],
            None,
        );
        // A queen came and was placed well: the placement is fine.
        r.decisions[1].searched(&[("Q@1,0".into(), value(0.9))], None);
        r.judge();
        assert_eq!(r.decisions[0].mark, Some(Mark::Blunder));
        assert!((r.decisions[0].drop.unwrap() - 0.25).abs() < 1e-9);
        assert_eq!(r.decisions[1].mark, None);
        assert_eq!(r.moves[4], Some(Mark::Blunder));
        assert_eq!(r.moves.len(), 5);
    }

    /// `before` is the value of the action the engine chose, wherever
    /// its line stands; a search without lines gives no values.
    #[test]
    fn before_is_the_chosen_actions_value() {
        let mut d = Decision::new(0, 3, false, "1,1-2,2".into());
        d.searched(
            &[("@".into(), value(0.4)), ("1,1-2,2".into(), value(0.6))],
            Some("1,1-2,2".into()),
        );
        assert_eq!(d.before, Some(value(0.6)));
        assert_eq!(d.played_value, Some(value(0.6)));
        let mut none = Decision::new(0, 3, false, "@".into());
        none.searched(&[], None);
        assert_eq!((none.before, none.best.as_deref()), (None, None));
    }

    /// A played action the search reported no line for takes its value
    /// from the opponent's next decision, or from the game's result after
    /// the last one; a draw has no such fallback.
    #[test]
    fn an_unreported_action_is_valued_where_it_led() {
        let mut r = review(vec![
            Decision::new(0, 0, true, "1,0-2,0".into()),
            Decision::new(1, 1, false, "@".into()),
            Decision::new(2, 1, false, "n@3,0".into()),
        ]);
        r.last_result = Some(value(0.0));
        r.decisions[0].searched(&[("0,0-1,1".into(), value(0.6))], None);
        r.decisions[1].searched(&[("2,0-3,0".into(), value(0.7))], None);
        r.decisions[2].searched(&[("n@4,0".into(), value(0.3))], None);
        r.judge();
        let d = &r.decisions;
        // White's step: Black's next value 0.7 is White's 0.3.
        assert!((d[0].after.unwrap().expected - 0.3).abs() < 1e-9);
        assert_eq!(d[0].mark, Some(Mark::Blunder));
        assert_eq!((d[1].after, d[1].mark), (None, None));
        // The last placement lost the game.
        assert_eq!(d[2].after.unwrap().expected, 0.0);
        assert_eq!(d[2].mark, Some(Mark::Blunder));
        let flipped = Value {
            expected: 0.25,
            wdl: Some([100, 300, 600]),
        }
        .flipped();
        assert_eq!(flipped.wdl, Some([600, 300, 100]));
        assert!((flipped.expected - 0.75).abs() < 1e-12);
    }
}
