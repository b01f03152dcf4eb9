//! The leaf judge: how the tree search values a leaf, by a shallow
//! alpha-beta search from it, bounded by nodes alone.

use super::search::{draws_that_cannot_be_placed, Budget, Searcher, INFINITY};
use super::tt::Table;
use crate::rules::{Colour, Kind, Move, MoveList, Position};
use crate::search::eval::{Evaluator, HandMade};
use crate::search::score::mate_in;
use arrayvec::ArrayVec;

/// The most nodes one judgement by the quiescence alone may search, past
/// which it is the static evaluation; ten times more for each ply of
/// search before it. A quiescence in check tries every evasion, and a
/// rare position of captures that check upon evasions can grow it
/// without end, which would leave the engine silent; an ordinary
/// judgement takes far fewer.
const JUDGE_NODES: u64 = 20_000;

/// Judges the leaves of the tree search by a shallow search: a searcher
/// kept from one leaf to the next, its table and buffers with it.
pub struct LeafJudge<E: Evaluator = HandMade> {
    searcher: Searcher<'static, E>,
    depth: i32,
    nodes_limit: u64,
}

impl LeafJudge {
    /// A judge by the hand-made evaluation, searching `depth` plies
    /// before the quiescence (0: the quiescence alone), to which a draw
    /// is even.
    pub fn new(depth: i32) -> LeafJudge {
        LeafJudge::with_contempt(depth, Colour::White, 0)
    }

    /// A judge by the hand-made evaluation that scores a drawn game, and
    /// shrinks the evaluation of a stranded king towards it, as a search
    /// by `engine` with `contempt` centipawns does.
    pub fn with_contempt(depth: i32, engine: Colour, contempt: i32) -> LeafJudge {
        LeafJudge::with_evaluator(HandMade, depth, engine, contempt)
    }
}

impl<E: Evaluator> LeafJudge<E> {
    /// [`LeafJudge::with_contempt`] by `evaluator`.
    pub fn with_evaluator(evaluator: E, depth: i32, engine: Colour, contempt: i32) -> LeafJudge<E> {
        let budget = Budget::nodes(u64::MAX);
        let searcher = Searcher::new(evaluator, &Position::startpos(), &[], Table::new(1), budget)
            .with_contempt(engine, contempt);
        LeafJudge {
            searcher,
            depth,
            nodes_limit: JUDGE_NODES * 10u64.pow(depth.clamp(0, 3) as u32),
        }
    }

    /// The score of `pos` for its side to move, holding a drawn tile of
    /// `pending` kind (if any). Repetitions before the leaf are not seen.
    pub fn judge(&mut self, pos: &Position, pending: Option<Kind>) -> i32 {
        self.set_position(pos);
        self.judge_here(pending)
    }

    /// The score of drawing in `pos`, for its side to move (see
    /// [`LeafJudge::judge_draw_here`]).
    pub fn judge_draw(&mut self, pos: &Position) -> i32 {
        self.set_position(pos);
        self.judge_draw_here()
    }

    /// Makes `pos` the judge's own position, which the `_here` judgements
    /// read. A caller judging many positions near one sets it once and
    /// steps through them by [`LeafJudge::position_mut`], with no copy of
    /// the position for each.
    pub fn set_position(&mut self, pos: &Position) {
        self.searcher.position_mut().clone_from(pos);
    }

    /// The judge's own position. A judgement leaves it as it found it.
    pub fn position_mut(&mut self) -> &mut Position {
        self.searcher.position_mut()
    }

    /// [`LeafJudge::judge`] of the judge's own position.
    pub fn judge_here(&mut self, pending: Option<Kind>) -> i32 {
        self.searcher.judge(pending, self.depth, self.nodes_limit)
    }

    /// [`LeafJudge::judge_here`] of the judge's own position, or `None`
    /// when its side to move, its pile empty, has no legal move
    /// (checkmated or stalemated). The search lists the root's moves
    /// anyway, so that one search answers both, where asking
    /// [`Position::has_legal_step`] first would look for a step twice.
    pub fn judge_unless_no_move_here(&mut self) -> Option<i32> {
        self.judge_unless_no_move_below(INFINITY)
    }

    /// [`LeafJudge::judge_unless_no_move_here`], or, where the score is
    /// `beta` or more, a score between `beta` and it.
    pub fn judge_unless_no_move_below(&mut self, beta: i32) -> Option<i32> {
        let score = self
            .searcher
            .judge_below(None, self.depth, self.nodes_limit, beta);
        (!self.searcher.root_without_moves).then_some(score)
    }

    /// A floor under [`LeafJudge::judge_unless_no_move_here`] of the
    /// judge's own position, or `None` when there is none to be had
    /// cheaply: with the quiescence alone judging and the side to move
    /// not in check, its static evaluation, on which it may stand rather
    /// than capture. A side with no tile to draw and no step is
    /// stalemated, a draw: a floor all the same where the stand is no
    /// higher, else the judgement itself.
    pub fn floor_here(&mut self) -> Option<i32> {
        if self.depth != 0 || self.searcher.position_mut().in_check() {
            return None;
        }
        let stand = self.searcher.static_score();
        let draw = self.searcher.draw_score();
        let pos = self.searcher.position_mut();
        let stalemated =
            stand > draw && pos.pile(pos.side_to_move()).is_empty() && !pos.has_legal_step();
        Some(if stalemated { draw } else { stand })
    }

    /// The score of drawing in the judge's own position, for its side to
    /// move. The drawer places a tile and the opponent moves next: the
    /// opponent's score with the turn passed to it, as if the tile added
    /// nothing, raised towards a mate by the drawn tile by the chance
    /// that the tile mates by its placement (the threat the quiescence,
    /// which places nothing, misses most). In check, where drawing is a
    /// gamble on the kind, the position's own score, in which the
    /// quiescence weighs that gamble.
    pub fn judge_draw_here(&mut self) -> i32 {
        if !self.searcher.position_mut().pass() {
            return self.judge_here(None);
        }
        let score = -self.judge_here(None);
        let pos = self.searcher.position_mut();
        pos.pass();
        let chance = mate_by_placement_chance(pos);
        score + (chance * f64::from(mate_in(2) - score)).round() as i32
    }

    /// Nodes searched by this judge so far.
    pub fn nodes(&self) -> u64 {
        self.searcher.nodes()
    }
}

/// The chance that the side to move, drawing now, mates by placing
/// the tile it draws: the pile's share of the kinds with a checking
/// placement that no step answers, each counted by the share of the
/// opponent's draws that could not answer it either.
fn mate_by_placement_chance(pos: &mut Position) -> f64 {
    let pile = pos.pile(pos.side_to_move());
    if pile.is_empty() || pos.in_check() {
        return 0.0;
    }
    let mut list = MoveList::new();
    pos.generate_checking_placements(pile, &mut list);
    // The best mating chance of each kind: the pile holds six at most.
    let mut chances: ArrayVec<(Kind, f64), 6> = ArrayVec::new();
    for &mv in list.iter() {
        let Move::Place { piece, .. } = mv else {
            continue;
        };
        let known = chances.iter().position(|&(k, _)| k == piece.kind);
        // A kind sure to mate needs no other square tried.
        if known.is_some_and(|i| chances[i].1 >= 1.0) {
            continue;
        }
        let undo = pos.make(mv);
        let chance = unanswered_check_chance(pos);
        pos.unmake(mv, undo);
        match known {
            Some(i) => chances[i].1 = chances[i].1.max(chance),
            None => chances.push((piece.kind, chance)),
        }
    }
    let mating: f64 = chances
        .iter()
        .map(|&(kind, chance)| pile.count(kind) as f64 * chance)
        .sum();
    mating / pile.len() as f64
}

/// For a side to move in check: the chance it cannot answer, 0 when a
/// step does, else the share of its draws that cannot be placed.
fn unanswered_check_chance(pos: &mut Position) -> f64 {
    if pos.has_legal_step() {
        return 0.0;
    }
    match pos.pile(pos.side_to_move()).len() {
        0 => 1.0,
        total => f64::from(draws_that_cannot_be_placed(pos)) / total as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN;

    /// Stalemates (a side to move out of check, its pile empty, with no
    /// step) are judged as having no move within any window, though the
    /// quiescence's root could stand on its static score above it.
    #[test]
    fn a_stalemate_has_no_move_within_any_window() {
        for text in [
            "P-6,6*/P-5,5*/P3,5*/K-4,4/R2,4/P3,4*/r-3,3/P-1,3*/k1,3/p-2,2*/p0,2/N0,1/P0,0 b -/- 2 476",
            "P-3,-1/P-4,-2/P-3,-3/N-4,-4/K-3,-4/p-5,-5*/n-2,-5/p-6,-6*/p-1,-6*/k0,-7/p1,-8*/p2,-9*/p3,-9*/p3,-10* b -/- 1 274",
            "P-4,4*/P0,4*/K-3,3/N-1,3/B-2,2/B-3,1/P-4,0/n-2,0/k-5,-1/b-1,-1/r-4,-2/P0,-2/P2,-2*/r-5,-3/p1,-3*/p-6,-4*/p-4,-4* w -/- 1 302",
        ] {
            let mut pos: Position = text.parse().unwrap();
            assert!(!pos.in_check() && pos.ending_in_place().is_some(), "{text}");
            let mut judge = LeafJudge::new(0);
            for beta in [-WIN + 1, 0, WIN, INFINITY] {
                judge.set_position(&pos);
                assert_eq!(judge.judge_unless_no_move_below(beta), None, "{text} below {beta}");
            }
            judge.set_position(&pos);
            let draw = judge.searcher.draw_score();
            assert_eq!(judge.floor_here(), Some(draw.min(judge.searcher.static_score())), "{text}");
        }
    }
}
