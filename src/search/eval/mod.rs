//! The static evaluation, behind the one interface the searchers take:
//! [`Evaluator`]. Alpha-beta's searcher and the tree search's leaf judge
//! are generic over it, so another evaluation (a learned one) can stand
//! in for the hand-made [`HandMade`] without a change to them.
//!
//! - [`terms`]: what the hand-made evaluation counts, each term named;
//! - [`weights`]: the centipawns each count is worth, fitted to games
//!   by the regression in [`fit`];
//! - [`rich`]: a richer hand-made evaluation, the terms by where each
//!   kind stands from the kings and which tiles hold the table together;
//! - [`net`]: a learned evaluation (docs/net.md);
//! - [`Evaluation`]: which of them a search uses (the `Evaluation`
//!   and `EvalFile` options); the shipped net, a correction to the
//!   rich one, by default;
//! - [`playout`]: the cruder material-and-pressure judgement of playouts
//!   cut short by their cap.

mod choice;
pub mod fit;
pub mod net;
pub mod playout;
pub mod rich;
pub mod terms;
pub mod weights;

use crate::rules::{Colour, Kind, Position};
use crate::search::score;
use terms::{stranded_kings, Terms};
use weights::FITTED;

pub use choice::Evaluation;

/// Pawn units of each kind, for ordering captures and for the playouts.
/// The king is never lost, so it counts nothing.
pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Queen => 9,
        Kind::Rook => 5,
        Kind::Bishop | Kind::Knight => 3,
        Kind::Pawn => 1,
    }
}

/// A static evaluation, as the searchers call it.
///
/// An implementation gives [`Evaluator::centipawns`]; [`Evaluator::score`]
/// puts it on the score scale and shrinks it for a stranded king. The
/// stranded king is kept out of the centipawns for two reasons: it is a
/// consequence of the rules (a king drawn with no square is a stalemate)
/// that holds whatever the evaluation, so a learned one need not learn
/// it again; and its draw is worth what the searcher's contempt makes
/// it, which only the searcher knows.
pub trait Evaluator {
    /// What the evaluator keeps from one evaluation to the next in one
    /// search on one thread: a learned one, the sums of its first layer,
    /// brought up to date by what changed since the last position.
    type Memory: Default;

    /// The evaluation of `pos` for the side to move, in centipawns,
    /// helped by `memory` of the evaluations before it (which it
    /// updates): the same number whatever the memory holds.
    fn centipawns_with(&self, pos: &Position, memory: &mut Self::Memory) -> i32;

    /// [`Evaluator::centipawns_with`] with nothing remembered.
    fn centipawns(&self, pos: &Position) -> i32 {
        self.centipawns_with(pos, &mut Self::Memory::default())
    }

    /// The evaluation of `pos` on the score scale, for a search in which
    /// a drawn game scores `draw` for the side to move.
    fn score_with(&self, pos: &Position, draw: i32, memory: &mut Self::Memory) -> i32 {
        let centipawns = self.centipawns_with(pos, memory);
        shrink_for_stranded_kings(pos, score::from_centipawns(centipawns), draw)
    }

    /// [`Evaluator::score_with`] with nothing remembered.
    fn score(&self, pos: &Position, draw: i32) -> i32 {
        self.score_with(pos, draw, &mut Self::Memory::default())
    }
}

/// The hand-made evaluation: the weighted sum of the [`terms::Term`]s by the
/// [`FITTED`] weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandMade;

impl Evaluator for HandMade {
    type Memory = ();

    fn centipawns_with(&self, pos: &Position, _: &mut ()) -> i32 {
        FITTED.apply(&Terms::of(pos))
    }
}

/// How a king that could not be placed if drawn now draws the game
/// nearer: the score shrinks towards a draw's by this many times the
/// chance that the king comes next. More than once that chance, for the
/// side that strands it tends to go on doing so (a lone queen or king
/// that captures every tile placed beside it) until the king comes.
const STRANDED_KING_RISK: f64 = 8.0;

/// `score` of `pos` shrunk towards `draw`, the search's score of a drawn
/// game (contempt included, or a side that leads would take the
/// stranding for better than the draw it ends in), for each king that
/// could not be placed if drawn now.
pub fn shrink_for_stranded_kings(pos: &Position, score: i32, draw: i32) -> i32 {
    let mut score = score as f64;
    let stranded = stranded_kings(pos);
    for colour in Colour::ALL {
        if stranded[colour.index()] {
            let pile = pos.pile(colour).len() as f64;
            let kept = 1.0 - (STRANDED_KING_RISK / pile).min(1.0);
            score = f64::from(draw) + (score - f64::from(draw)) * kept;
        }
    }
    score.round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stranded_king_draws_the_evaluation_towards_a_draw() {
        // White's lone queen leaves Black's king no square. With eight
        // tiles or fewer in Black's pile the king comes too soon to play
        // on: the position is judged a draw; with more, half-way there.
        let eval = HandMade;
        let few: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnp 0 1".parse().unwrap();
        assert_ne!(eval.centipawns(&few), 0);
        assert_eq!(eval.score(&few, 0), 0);
        let full: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
            .parse()
            .unwrap();
        let plain = score::from_centipawns(eval.centipawns(&full));
        assert_eq!(eval.score(&full, 0), (plain as f64 * 0.5).round() as i32);
        // Towards the search's draw, contempt included, not towards 0.
        let draw = score::from_centipawns(100);
        assert_eq!(eval.score(&few, draw), draw);
        let halfway = draw as f64 + (plain - draw) as f64 * 0.5;
        assert_eq!(eval.score(&full, draw), halfway.round() as i32);
    }
}
