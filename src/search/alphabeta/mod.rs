//! A classical searcher: expectimax alpha-beta over the draws, with
//! iterative deepening, a transposition table, a capture quiescence and
//! move ordering. It is the sparring partner of the Monte Carlo search
//! and the judge of its leaves.
//!
//! - this module: the iterative-deepening driver, [`search`], and its
//!   reports;
//! - `search`: the searcher's nodes (negamax, chance, placement,
//!   quiescence);
//! - `tt`: the transposition table;
//! - `ordering`: which action each node tries first;
//! - [`judge`]: the leaf judge of the tree search, [`LeafJudge`].
//!
//! # Chance
//!
//! Drawing is an action whose outcome is the kind on top of the pile,
//! each remaining tile equally likely. Below "draw" sits a chance node
//! whose value is the mean, weighted by the pile's counts, of the best
//! placement of each kind; a kind with no legal placement ends the game
//! (checkmate in check, else stalemate). A draw and its placement make one
//! ply. Chance nodes are cut with Star1 (Ballard 1983): the outcomes not
//! yet searched are bounded by a win and a loss, which lets an outcome
//! that is bad or good enough settle the node early.
//!
//! # Scores
//!
//! Scores are on the crate's one scale ([`crate::search::score`]): an
//! expected result for the side to move, `+WIN` a won game, `−WIN` a
//! lost one, 0 a draw. Mates count a little less the further away they
//! are, so that the shortest is preferred. The static evaluation
//! ([`crate::search::eval::Evaluator`]) is turned into the same scale by
//! the logistic curve, so that the mean at a chance node is the mean of
//! expected results, as expectimax needs, and never reaches a mate's.

pub mod judge;
mod ordering;
mod search;
mod tt;

use super::eval::Evaluator;
use super::score::{self, mate_in, mated_in, MATE_BOUND, MAX_PLY};
use super::time::Clock;
use super::{Action, ActionStats, Proven, Report, Request};
pub use judge::LeafJudge;
use search::{Aborted, Budget, Deadline, Searcher, INFINITY};
use std::sync::atomic::AtomicBool;
pub use tt::Table;

/// The nodes a forced move (a single action) is searched at most, for its
/// score: enough to see a mate of a turn or two after it, in a few
/// milliseconds.
const FORCED_NODES: u64 = 50_000;

/// Searches the side to move of the request's position by iterative
/// deepening until the limits end it, and returns the best action of the
/// deepest search finished (or of the deeper one under way, when it has
/// found better).
///
/// `kept` holds the last search's table, taken when it has the size
/// asked for, and this search's table afterwards.
pub fn search(
    request: &Request,
    kept: &mut Option<Table>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> Option<Action> {
    let evaluation = request.params.evaluation.clone();
    search_with(evaluation, request, kept, stop, report)
}

/// [`search`] by `evaluator`.
pub fn search_with<E: Evaluator>(
    evaluator: E,
    request: &Request,
    kept: &mut Option<Table>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> Option<Action> {
    let Request {
        position: pos,
        pending,
        history,
        limits,
        params,
        ..
    } = *request;
    let mut clock = request.clock();
    let budget = Budget {
        nodes: limits.nodes.unwrap_or(u64::MAX),
        deadline: Some(Deadline { clock, stop }),
    };
    let mib = params.hash_mib.min(TABLE_MIB_LIMIT);
    let table = match kept.take() {
        Some(table) if table.mib == mib => table,
        _ => Table::new(mib),
    };
    let mut searcher = Searcher::new(evaluator, pos, history, table, budget)
        .with_contempt(params.engine_at(pos), params.contempt);
    let mut actions = searcher.root(pending);
    actions.retain(|&a| request.allows(a));
    if actions.is_empty() {
        return None;
    }
    if request.is_forced(actions.len()) {
        // A forced move is searched too, briefly, for its score.
        clock = clock.forced();
        searcher.budget = Budget {
            nodes: searcher.budget.nodes.min(FORCED_NODES),
            deadline: Some(Deadline { clock, stop }),
        };
    }
    let mut scores: Vec<i32> = vec![0; actions.len()];
    let mut best = (actions[0], 0);
    let mut depth = 1;
    let endless = request.is_endless();
    while depth < MAX_PLY as i32 - 8 {
        let mut alpha = -INFINITY;
        let mut iteration_best: Option<(Action, i32)> = None;
        let mut finished = true;
        for (i, &action) in actions.iter().enumerate() {
            match searcher.action(action, depth - 1, 0, alpha, INFINITY) {
                Ok(score) => {
                    scores[i] = score;
                    if score > alpha {
                        alpha = score;
                        iteration_best = Some((action, score));
                    }
                }
                Err(Aborted) => {
                    finished = false;
                    break;
                }
            }
        }
        if let Some(found) = iteration_best {
            best = found;
        }
        // Best first for the next depth and the report; a stable sort
        // keeps the earlier order among equals.
        let mut order: Vec<usize> = (0..actions.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        actions = order.iter().map(|&i| actions[i]).collect();
        scores = order.iter().map(|&i| scores[i]).collect();
        if let Some(pos0) = actions.iter().position(|&a| a == best.0) {
            actions[..=pos0].rotate_right(1);
            scores[..=pos0].rotate_right(1);
        }
        report(&snapshot(&actions, &scores, searcher.nodes(), &clock));
        if !finished || limits.depth.is_some_and(|d| depth as u64 >= d) {
            break;
        }
        // A forced mate found needs no deeper look.
        if best.1.abs() > MATE_BOUND && !endless {
            break;
        }
        // The next depth takes several times this one: do not start what
        // cannot finish.
        if clock.is_too_late_to_deepen() {
            break;
        }
        depth += 1;
    }
    *kept = Some(searcher.into_table());
    Some(best.0)
}

/// The most memory the table takes, in MiB: a larger one is slow to
/// allocate and gains little at the depths reached.
const TABLE_MIB_LIMIT: usize = 64;

/// The report of a search: every root action, best first, its score as an
/// expected result.
fn snapshot(actions: &[Action], scores: &[i32], nodes: u64, clock: &Clock) -> Report {
    Report {
        actions: actions
            .iter()
            .zip(scores)
            .enumerate()
            .map(|(i, (&action, &score))| {
                let p = score::expected_result(score);
                ActionStats {
                    action,
                    visits: 1,
                    wins: p,
                    draws: 0.0,
                    losses: 1.0 - p,
                    pv: Vec::new(),
                    proven: proven(score, i == 0),
                }
            })
            .collect(),
        nodes,
        plies: 0,
        elapsed: clock.elapsed(),
    }
}

/// What a root score proves, `exact` for the best action's (the others
/// are bounds from above once they fail low).
///
/// A mate score is no proof in general: at a draw it is the pile's mean,
/// which can blend mates with a lead near [`EVAL_BOUND`], and lines of
/// different lengths. Only the two extremes are proofs, for a mean
/// reaches an extreme only when every term does (and the means round
/// towards zero): `mate_in(1)`, the most a root action can score, is
/// the opponent lost on its next turn whatever it draws; `mated_in(0)`,
/// the least, is a draw at the root that checkmates the drawer whatever
/// kind comes.
fn proven(score: i32, exact: bool) -> Option<Proven> {
    match score {
        s if s == mate_in(1) && exact => Some(Proven::Win { turns: 1 }),
        s if s == mated_in(0) => Some(Proven::Loss { turns: 0 }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, MoveList, Position};
    use crate::search::playout::{random_turn, Turn};
    use crate::search::Limits;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// True when after `mv` the opponent is in check and loses whatever
    /// it does: no step answers, and no kind its draw can bring can be
    /// placed.
    fn mates_at_once(pos: &Position, mv: Move) -> bool {
        let mut after = pos.clone();
        after.make(mv);
        if !after.in_check() {
            return false;
        }
        let mut steps = MoveList::new();
        after.clone().generate_steps(&mut steps);
        let pile = after.pile(after.side_to_move());
        steps.is_empty() && pile.kinds().all(|k| after.legal_placements(k).is_empty())
    }

    #[test]
    fn every_mate_in_one_of_random_games_is_played() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut found = 0;
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(200_000),
            ..Limits::default()
        };
        let params = crate::search::Params {
            threads: 1,
            seed: 1,
            player: crate::search::Player::Alphabeta,
            hash_mib: 1,
            ..crate::search::Params::default()
        };
        for _game in 0..300 {
            let mut pos = Position::startpos();
            for _ply in 0..200 {
                let steps = pos.legal_moves();
                let mating = steps
                    .iter()
                    .any(|&mv| matches!(mv, Move::Step { .. }) && mates_at_once(&pos, mv));
                if mating {
                    found += 1;
                    let request = Request::new(&pos, &limits, &params);
                    let choice = search(&request, &mut None, &stop, &mut |_| {});
                    let Some(Action::Play(mv)) = choice else {
                        panic!("{pos}: no move chosen");
                    };
                    assert!(mates_at_once(&pos, mv), "{pos}: {mv} does not mate");
                }
                match random_turn(&mut pos, &mut rng) {
                    Turn::Play(mv) => {
                        pos.make(mv);
                    }
                    Turn::Stuck(_) | Turn::NoMove => break,
                }
                if pos.ending().is_some() {
                    break;
                }
            }
        }
        assert!(found >= 20, "only {found} positions with a mate in one");
    }
}
