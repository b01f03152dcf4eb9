//! Sets of tiles, a bit for each slot: the questions the rules ask of many
//! tiles at once (which attack a square, which touch a tile, which hold
//! the table together) are then a few bit operations, as a chess engine's
//! bitboards are for squares.

use super::piece::Colour;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of tiles: bit `s` stands for the tile in slot `s` (0–15 White,
/// 16–31 Black). Iterating gives the slots, lowest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct TileSet(pub(crate) u32);

impl TileSet {
    /// No tile.
    pub(crate) const EMPTY: TileSet = TileSet(0);

    /// The tile in `slot` alone.
    #[inline(always)]
    pub(crate) const fn one(slot: usize) -> TileSet {
        TileSet(1 << slot)
    }

    /// Every slot of `colour`: 0–15 for White, 16–31 for Black.
    #[inline(always)]
    pub(crate) const fn colour(colour: Colour) -> TileSet {
        TileSet(0xFFFF << (16 * colour as u32))
    }

    /// How many tiles the set holds.
    #[inline(always)]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no tile.
    #[inline(always)]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds the tile in `slot`.
    #[inline(always)]
    pub(crate) const fn contains(self, slot: usize) -> bool {
        self.0 & (1 << slot) != 0
    }

    /// The set less the tile in `slot`.
    #[inline(always)]
    pub(crate) const fn without(self, slot: usize) -> TileSet {
        TileSet(self.0 & !(1 << slot))
    }

    /// Adds the tile in `slot`.
    #[inline(always)]
    pub(crate) fn insert(&mut self, slot: usize) {
        self.0 |= 1 << slot;
    }

    /// Takes the tile in `slot` out.
    #[inline(always)]
    pub(crate) fn remove(&mut self, slot: usize) {
        self.0 &= !(1 << slot);
    }

    /// The lowest slot of the set, which is not empty.
    #[inline(always)]
    pub(crate) const fn lowest(self) -> usize {
        self.0.trailing_zeros() as usize
    }

    /// The lowest tile alone, or no tile: the seed of a flood.
    #[inline(always)]
    pub(crate) const fn lowest_alone(self) -> TileSet {
        TileSet(self.0 & self.0.wrapping_neg())
    }

    /// Takes the lowest slot out of the set, which is not empty, and
    /// returns it: a flood's next tile, with no test for the end.
    #[inline(always)]
    pub(crate) fn pop_lowest(&mut self) -> usize {
        let slot = self.lowest();
        self.0 &= self.0 - 1;
        slot
    }
}

impl BitOr for TileSet {
    type Output = TileSet;

    #[inline(always)]
    fn bitor(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }
}

impl BitAnd for TileSet {
    type Output = TileSet;

    #[inline(always)]
    fn bitand(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }
}

impl BitXor for TileSet {
    type Output = TileSet;

    #[inline(always)]
    fn bitxor(self, other: TileSet) -> TileSet {
        TileSet(self.0 ^ other.0)
    }
}

impl Not for TileSet {
    type Output = TileSet;

    #[inline(always)]
    fn not(self) -> TileSet {
        TileSet(!self.0)
    }
}

impl BitOrAssign for TileSet {
    #[inline(always)]
    fn bitor_assign(&mut self, other: TileSet) {
        self.0 |= other.0;
    }
}

impl BitAndAssign for TileSet {
    #[inline(always)]
    fn bitand_assign(&mut self, other: TileSet) {
        self.0 &= other.0;
    }
}

impl BitXorAssign for TileSet {
    #[inline(always)]
    fn bitxor_assign(&mut self, other: TileSet) {
        self.0 ^= other.0;
    }
}

impl IntoIterator for TileSet {
    type Item = usize;
    type IntoIter = TileSetIter;

    #[inline(always)]
    fn into_iter(self) -> TileSetIter {
        TileSetIter(self)
    }
}

impl FromIterator<usize> for TileSet {
    fn from_iter<I: IntoIterator<Item = usize>>(slots: I) -> TileSet {
        let mut set = TileSet::EMPTY;
        for slot in slots {
            set.insert(slot);
        }
        set
    }
}

/// The slots of a [`TileSet`], lowest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TileSetIter(TileSet);

impl Iterator for TileSetIter {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        Some(self.0.pop_lowest())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.0.len() as usize;
        (len, Some(len))
    }
}

impl ExactSizeIterator for TileSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Iteration gives each slot once, lowest first, and agrees with
    /// `len` and `contains`.
    #[test]
    fn iteration_gives_the_slots_in_order() {
        let set = TileSet::one(0) | TileSet::one(5) | TileSet::one(31);
        assert_eq!(set.into_iter().collect::<Vec<_>>(), [0, 5, 31]);
        assert_eq!(set.len(), 3);
        assert!(set.contains(5) && !set.contains(6));
        assert_eq!(set.without(5).into_iter().len(), 2);
        assert_eq!(set.lowest_alone(), TileSet::one(0));
        assert_eq!(TileSet::EMPTY.into_iter().next(), None);
        assert_eq!(TileSet::colour(Colour::Black).lowest(), 16);
    }
}
