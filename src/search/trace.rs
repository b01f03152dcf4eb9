//! The hand-made evaluation taken apart for a person to read (the
//! protocol's `eval`): its terms, their sum, and what the leaf judge's
//! quiescence makes of it. Apart from `eval`, which the searchers
//! import, since it asks a searcher.

use crate::rules::Position;
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::terms::{stranded_kings, Term, Terms};
use crate::search::eval::weights::FITTED;
use crate::search::eval::{Evaluator, HandMade};

/// The hand-made evaluation of a position taken apart, for a person to
/// read (the protocol's `eval`), a drawn game counting even.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationTrace {
    /// The terms' counts for the side to move, each weighed by
    /// [`FITTED`].
    pub terms: Terms,
    /// Their weighted sum, [`HandMade::centipawns`].
    pub centipawns: i32,
    /// Whose king, White's first, could not be placed if drawn now
    /// ([`stranded_kings`]).
    pub stranded: [bool; 2],
    /// [`Evaluator::score`]: the sum on the score scale, shrunk towards a
    /// draw for a stranded king.
    pub score: i32,
    /// What the tree search's leaf judge makes of it: the capture and
    /// check quiescence from here.
    pub quiescence: i32,
}

impl EvaluationTrace {
    /// The trace of `pos`, for its side to move.
    pub fn of(pos: &Position) -> EvaluationTrace {
        let terms = Terms::of(pos);
        EvaluationTrace {
            terms,
            centipawns: FITTED.apply(&terms),
            stranded: stranded_kings(pos),
            score: HandMade.score(pos, 0),
            quiescence: LeafJudge::new(0).judge(pos, None),
        }
    }

    /// Each term, in the order of [`Term::ALL`], with its count and its
    /// weight.
    pub fn lines(&self) -> impl Iterator<Item = (Term, i32, i32)> + '_ {
        Term::ALL
            .into_iter()
            .map(|term| (term, self.terms[term], FITTED[term]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Colour;
    use crate::search::score;

    #[test]
    fn the_trace_adds_up_to_the_evaluation() {
        let pos: Position = "K0,0/p0,1 w QRRBBNNPPPPPPPP/kqrrbbnnppppppp 0 2"
            .parse()
            .unwrap();
        let trace = EvaluationTrace::of(&pos);
        let sum: i32 = trace.lines().map(|(_, count, weight)| count * weight).sum();
        assert_eq!(sum, trace.centipawns);
        assert_eq!(trace.centipawns, HandMade.centipawns(&pos));
        assert_eq!(trace.lines().count(), Term::COUNT);
    }

    /// A leaf judge of the engine playing White, where a draw is worth
    /// 100 cp to Black, judges a quiet position with a stranded king
    /// towards that draw, as the evaluation's score does; by default, as
    /// even.
    #[test]
    fn the_leaf_judge_draws_a_stranded_king_towards_its_draw() {
        let full: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
            .parse()
            .unwrap();
        let draw = score::from_centipawns(100);
        let mut even = LeafJudge::new(0);
        assert_eq!(even.judge(&full, None), HandMade.score(&full, 0));
        let mut judge = LeafJudge::with_contempt(0, Colour::White, 100);
        assert_eq!(judge.judge(&full, None), HandMade.score(&full, draw));
        assert_ne!(HandMade.score(&full, draw), HandMade.score(&full, 0));
    }
}
