//! Perft and divide (RULES.md section 8): counts of move sequences, the
//! standard check of a move generator.

use super::movegen::MoveList;
use super::moves::Move;
use super::position::Position;
use rayon::prelude::*;

/// The number of legal move sequences of length `depth` from `pos`.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal();
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &mv in &list {
        let undo = pos.make(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    nodes
}

/// Subtrees shallower than this are counted by [`perft`] on one thread;
/// deeper ones are split move by move among the threads. A depth-3
/// subtree is thousands of nodes, so a split costs little beside it, and
/// the start position's six first moves become hundreds of tasks that
/// keep every thread busy to the end.
const SPLIT_DEPTH: u32 = 4;

/// [`perft`] with the subtrees counted on the threads of the current
/// rayon pool (all cores, unless the caller installs another).
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth < SPLIT_DEPTH {
        return perft(&mut pos.clone(), depth);
    }
    children(pos)
        .par_iter()
        .map(|(_, child)| perft_parallel(child, depth - 1))
        .sum()
}

/// Perft split by root move, sorted by the moves' written form; the
/// root moves' subtrees are counted as [`perft_parallel`] counts.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut counts: Vec<(Move, u64)> = children(pos)
        .into_par_iter()
        .map(|(mv, child)| (mv, perft_parallel(&child, depth.saturating_sub(1))))
        .collect();
    counts.sort_by_cached_key(|(mv, _)| mv.to_string());
    counts
}

/// Each legal move of `pos` with the position it leads to.
fn children(pos: &Position) -> Vec<(Move, Position)> {
    let mut pos = pos.clone();
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    list.iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.make(mv);
            (mv, child)
        })
        .collect()
}
