//! A side's face-down draw pile, as the public multiset of what is left.

use super::piece::Kind;

/// What is left in one side's pile: a count per kind.
///
/// Only the multiset is public: the order is hidden from both players, and
/// a draw takes each remaining tile with equal probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pile {
    counts: [u8; 6],
}

impl Pile {
    /// The full pile of the start: K, Q, R×2, B×2, N×2, P×8.
    pub const FULL: Pile = Pile {
        counts: [1, 1, 2, 2, 2, 8],
    };

    /// An empty pile.
    pub const EMPTY: Pile = Pile { counts: [0; 6] };

    /// How many tiles of `kind` are left.
    #[inline(always)]
    pub const fn count(&self, kind: Kind) -> u8 {
        self.counts[kind.index()]
    }

    /// How many tiles are left in all.
    #[inline(always)]
    pub fn len(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// True when nothing is left to draw.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.counts == [0; 6]
    }

    /// The distinct kinds left, in `KQRBNP` order.
    pub fn kinds(&self) -> impl Iterator<Item = Kind> + '_ {
        Kind::ALL.into_iter().filter(|&k| self.count(k) > 0)
    }

    /// The kind of the `n`-th tile when the pile is laid out in `KQRBNP`
    /// order; `n` must be below [`Pile::len`]. Drawing with a uniform `n`
    /// draws each remaining tile with equal probability.
    pub fn nth(&self, mut n: u32) -> Kind {
        for kind in Kind::ALL {
            let c = self.count(kind) as u32;
            if n < c {
                return kind;
            }
            n -= c;
        }
        debug_assert!(false, "Pile::nth past the end");
        Kind::Pawn
    }

    /// Adds one tile of `kind`.
    #[inline(always)]
    pub fn add(&mut self, kind: Kind) {
        self.counts[kind.index()] += 1;
    }

    /// Takes one tile of `kind`, which must be there.
    #[inline(always)]
    pub fn remove(&mut self, kind: Kind) {
        debug_assert!(self.counts[kind.index()] > 0);
        self.counts[kind.index()] -= 1;
    }

    /// The counts packed four bits a kind, for hashing.
    #[inline(always)]
    pub(crate) fn packed(&self) -> u32 {
        self.counts
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &c)| acc | (c as u32) << (4 * i))
    }
}
