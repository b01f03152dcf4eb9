//! An evaluation taken apart for a person to read (the protocol's
//! `eval`): its terms, their sum, and what the leaf judge's quiescence
//! makes of it. Apart from `eval`, which the searchers import, since it
//! asks a searcher.

use crate::rules::{Colour, Position};
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::net::Base;
use crate::search::eval::rich::{self, RichTerms, RICH_FITTED};
use crate::search::eval::terms::{stranded_kings, Term, Terms};
use crate::search::eval::weights::FITTED;
use crate::search::eval::{Evaluation, Evaluator};

/// One term of an evaluation: its name, the side to move's count less
/// the other side's, and its weight in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermLine {
    /// The term's name, for people.
    pub name: String,
    /// The side to move's count less the other side's.
    pub count: i32,
    /// What one count is worth, in centipawns.
    pub weight: i32,
}

/// An evaluation of a position taken apart, for a person to read (the
/// protocol's `eval`), a drawn game counting even.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationTrace {
    /// The terms of the evaluation in use, in its own order: the rich
    /// ones for [`Evaluation::Rich`] and a net correcting it, else the
    /// hand-made ones (a net's own part has no terms to show; its
    /// verdict is its own line of `eval`).
    pub terms: Vec<TermLine>,
    /// Their weighted sum.
    pub centipawns: i32,
    /// Whose king, White's first, could not be placed if drawn now
    /// ([`stranded_kings`]).
    pub stranded: [bool; 2],
    /// [`Evaluator::score`] of the evaluation in use: its centipawns on
    /// the score scale, shrunk towards a draw for a stranded king.
    pub score: i32,
    /// What the tree search's leaf judge makes of it: the capture and
    /// check quiescence from here, by the evaluation in use.
    pub quiescence: i32,
}

impl EvaluationTrace {
    /// The trace of `pos` by `evaluation`, for its side to move.
    pub fn of(pos: &Position, evaluation: &Evaluation) -> EvaluationTrace {
        let rich_terms = match evaluation {
            Evaluation::Rich => true,
            Evaluation::Net(net) => net.base() == Base::Rich,
            Evaluation::HandMade => false,
        };
        let terms: Vec<TermLine> = if rich_terms {
            let counts = RichTerms::of(pos).counts();
            (0..rich::COUNT)
                .map(|i| TermLine {
                    name: rich::name(i),
                    count: counts[i],
                    weight: RICH_FITTED[i],
                })
                .collect()
        } else {
            let counts = Terms::of(pos);
            Term::ALL
                .into_iter()
                .map(|term| TermLine {
                    name: term.name().to_string(),
                    count: counts[term],
                    weight: FITTED[term],
                })
                .collect()
        };
        let centipawns = terms.iter().map(|t| t.count * t.weight).sum();
        let mut judge = LeafJudge::with_evaluator(evaluation.clone(), 0, Colour::White, 0);
        EvaluationTrace {
            terms,
            centipawns,
            stranded: stranded_kings(pos),
            score: evaluation.score(pos, 0),
            quiescence: judge.judge(pos, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::rich::Rich;
    use crate::search::eval::HandMade;
    use crate::search::score;

    /// Each trace's terms add up to its evaluation's centipawns, and its
    /// static score is that evaluation's.
    #[test]
    fn the_trace_adds_up_to_the_evaluation() {
        let pos: Position = "K0,0/p0,1 w QRRBBNNPPPPPPPP/kqrrbbnnppppppp 0 2"
            .parse()
            .unwrap();
        let hand = EvaluationTrace::of(&pos, &Evaluation::HandMade);
        assert_eq!(hand.centipawns, HandMade.centipawns(&pos));
        assert_eq!(hand.score, HandMade.score(&pos, 0));
        assert_eq!(hand.terms.len(), Term::COUNT);
        let rich = EvaluationTrace::of(&pos, &Evaluation::Rich);
        assert_eq!(rich.centipawns, Rich.centipawns(&pos));
        assert_eq!(rich.score, Rich.score(&pos, 0));
        assert_eq!(rich.terms.len(), rich::COUNT);
        // The plain terms come first, with the same counts.
        let names_and_counts = |lines: &[TermLine]| -> Vec<(String, i32)> {
            lines.iter().map(|t| (t.name.clone(), t.count)).collect()
        };
        assert_eq!(
            names_and_counts(&rich.terms[..Term::COUNT]),
            names_and_counts(&hand.terms)
        );
        assert_ne!(rich.centipawns, hand.centipawns, "the rich weights differ");
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
