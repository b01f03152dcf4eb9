//! The transposition tables: results of searched nodes by position key,
//! with how each score bounds the true one, and mate scores stored
//! relative to their node; and the quiescence's own, by position and
//! ply.

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

/// The quiescence's results by position and ply. The quiescences of
/// sibling leaves meet the same positions again and again: a capture
/// sequence in another order, or the same child judged from another
/// node. Keyed by ply too, so that a stored score is the very one the
/// node would return (mate scores, the depth limit and the mixed score
/// of a draw in check all depend on the ply), and the root of a
/// full-window search gets the same score with or without the table.
/// Direct-mapped, each entry replaced by the next to land on it.
pub(super) struct QuiescenceTable {
    entries: Box<[QuiescenceEntry]>,
}

#[derive(Clone, Copy, Default)]
struct QuiescenceEntry {
    /// The node's key ([`quiescence_key`]).
    key: u64,
    score: i32,
    /// How `score` bounds the node's; `None` in an empty entry.
    bound: Option<Bound>,
}

impl QuiescenceTable {
    /// Entries, a power of two: 16 bytes each, 4 MiB in all. A search
    /// of 20,000 iterations fills far more than 1 MiB: there the larger
    /// table saves 6% of the search's instructions.
    const SIZE: usize = 1 << 18;

    pub(super) fn new() -> QuiescenceTable {
        QuiescenceTable {
            entries: vec![QuiescenceEntry::default(); Self::SIZE].into_boxed_slice(),
        }
    }

    /// The stored score of the node `key` when it settles a search
    /// within `(alpha, beta)`.
    #[inline]
    pub(super) fn probe(&self, key: u64, alpha: i32, beta: i32) -> Option<i32> {
        let entry = &self.entries[key as usize & (Self::SIZE - 1)];
        let settles = match entry.bound? {
            Bound::Exact => true,
            Bound::Lower => entry.score >= beta,
            Bound::Upper => entry.score <= alpha,
        };
        (entry.key == key && settles).then_some(entry.score)
    }

    /// Keeps the fail-soft result `score` of the node `key`, searched
    /// within `(alpha, beta)`.
    #[inline]
    pub(super) fn store(&mut self, key: u64, score: i32, alpha: i32, beta: i32) {
        self.entries[key as usize & (Self::SIZE - 1)] = QuiescenceEntry {
            key,
            score,
            bound: Some(Bound::of(score, alpha, beta)),
        };
    }
}

/// The key of a quiescence node: the position's key and its ply.
pub(super) fn quiescence_key(key: u64, ply: usize) -> u64 {
    key ^ (0xD6E8_FEB8_6659_FD93u64).wrapping_mul(ply as u64 + 1)
}
