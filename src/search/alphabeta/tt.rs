//! The transposition table: results of searched nodes by position key,
//! with how each score bounds the true one, and mate scores stored
//! relative to their node.

use crate::rules::{Kind, Move};
use crate::search::score::MATE_BOUND;

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// How a fail-soft result `best` of a search within `(alpha, beta)`
    /// bounds the true score.
    pub(super) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored result of the transposition table.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    /// The node's key.
    pub(super) key: u64,
    /// The best move found, if the best action was a move.
    pub(super) best: Option<Move>,
    /// The score, mates relative to the node ([`to_table`]).
    pub(super) score: i32,
    /// The depth searched.
    pub(super) depth: i8,
    /// How `score` bounds the true one.
    pub(super) bound: Bound,
}

impl Entry {
    /// The stored score, read at `ply`, when it settles a node searched
    /// to `depth` within `(alpha, beta)`.
    pub(super) fn cutoff(&self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = from_table(self.score, ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        (i32::from(self.depth) >= depth && settles).then_some(s)
    }
}

/// The transposition table: one entry for each value of a key's low bits,
/// replaced when the new result is at least as deep or of another
/// position. A search's caller keeps it for the next search (see
/// [`crate::search::Engine`]): most of what one move's search learned is
/// about the positions of the next.
pub struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
    /// The size asked for, in MiB (0: a table of one entry).
    pub(super) mib: usize,
}

impl Table {
    pub(super) fn new(mib: usize) -> Table {
        let want = (mib << 20) / std::mem::size_of::<Option<Entry>>();
        let size = ((want + 1).next_power_of_two() / 2).max(1);
        Table {
            entries: vec![None; size],
            mask: size - 1,
            mib,
        }
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub(super) fn store(&mut self, entry: Entry) {
        let kept = &mut self.entries[entry.key as usize & self.mask];
        if kept.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *kept = Some(entry);
        }
    }
}

/// A mate score is stored relative to the node, read back relative to
/// the root.
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`, undoing [`to_table`].
fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Keys of placement nodes: the position's key mixed with the kind in
/// hand, so that they never meet the key of the same position before
/// the draw.
pub(super) fn placement_key(key: u64, kind: Kind) -> u64 {
    key ^ (0x9E37_79B9_7F4A_7C15u64).wrapping_mul(kind.index() as u64 + 1)
}
