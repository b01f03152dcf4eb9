//! Perft and divide (RULES.md section 8): counts of move sequences, the
//! standard check of a move generator.

use super::movegen::MoveList;
use super::moves::Move;
use super::position::Position;

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

/// Perft split by root move, sorted by the moves' written form.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut counts: Vec<(Move, u64)> = list
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let n = perft(pos, depth.saturating_sub(1));
            pos.unmake(mv, undo);
            (mv, n)
        })
        .collect();
    counts.sort_by_cached_key(|(mv, _)| mv.to_string());
    counts
}
