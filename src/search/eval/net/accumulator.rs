//! The first layer's sums of both perspectives, kept from one evaluation
//! to the next.
//!
//! A search evaluates positions a few moves apart: a quiescence's nodes,
//! one leaf after another. The [`Accumulator`] remembers the last
//! position it summed (its tiles by slot, its piles and anchors) and
//! brings the sums to the next by the tiles and pile counts that differ,
//! as Stockfish's and akimbo's accumulators do through make and unmake,
//! but without asking the search to report its moves. A perspective is
//! summed afresh only when its anchor moved, for then every tile's input
//! moves with it.
//!
//! Tiles clipped onto the window's edge may share an input, which counts
//! once: the accumulator counts the tiles on each input, and adds its
//! weights when the count leaves 0 and takes them away when it returns.
//!
//! The hidden size is a constant of each function, so that a row of
//! weights is a fixed number of AVX2 registers; what the sums must equal
//! is `forward`'s arithmetic on `inputs::active`'s lists, which the tests
//! check to the bit.

use super::inputs::{anchor, kind_number, pile_input, tile_input, ANCHOR_BASE, REACH};
use super::{Net, QA};
use crate::rules::{Colour, Kind, Pile, Position, SlotColumns, Square};

/// The largest hidden size an accumulator holds.
pub(super) const MAX_HIDDEN: usize = 64;

/// The sums of the last position evaluated, and what they were summed
/// from. One accumulator serves one net: its sums mean nothing to
/// another.
#[derive(Clone)]
pub struct Accumulator {
    /// False until the first position is summed.
    filled: bool,
    xs: [i32; 32],
    ys: [i32; 32],
    kinds: [Kind; 32],
    present: u32,
    piles: [Pile; 2],
    anchors: [Option<(Square, usize)>; 2],
    /// For each perspective, each present slot's tile input.
    inputs: [[u16; 32]; 2],
    /// For each perspective, how many tiles have each tile input.
    tiles_on: [[u8; TILE_INPUTS]; 2],
    /// The hidden sums of each perspective, White's first; only the
    /// net's hidden size of each is used.
    sums: [[i16; MAX_HIDDEN]; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            filled: false,
            xs: [0; 32],
            ys: [0; 32],
            kinds: [Kind::King; 32],
            present: 0,
            piles: [Pile::default(); 2],
            anchors: [None; 2],
            inputs: [[0; 32]; 2],
            tiles_on: [[0; TILE_INPUTS]; 2],
            sums: [[0; MAX_HIDDEN]; 2],
        }
    }
}

/// The tile inputs come first: as many as the anchor's first input.
const TILE_INPUTS: usize = ANCHOR_BASE;

/// A tile's input in a perspective whose anchor is on `origin`.
#[inline(always)]
fn tile(perspective: usize, origin: Square, slot: usize, x: i32, y: i32, kind: Kind) -> usize {
    let dx = (x - origin.x).clamp(-REACH, REACH);
    let dy = ((y - origin.y) * Colour::ALL[perspective].forward()).clamp(-REACH, REACH);
    tile_input(((slot / 16) ^ perspective) * 6 + kind_number(kind), dx, dy)
}

/// The first layer's weights of `input` in a net of `H` hidden units.
#[inline(always)]
fn row<const H: usize>(net: &Net, input: usize) -> &[i16; H] {
    &net.w1.as_chunks::<H>().0[input]
}

/// The input of `owner`'s pile of `kind` holding `count`, in a
/// perspective.
#[inline(always)]
fn pile(perspective: usize, owner: usize, kind: Kind, count: u8) -> usize {
    pile_input((owner ^ perspective) * 6 + kind_number(kind), count)
}

impl Accumulator {
    /// `QA · QB` times the logit of `pos` for its side to move, by a net
    /// of `H` hidden units, the sums brought to `pos` on the way.
    pub(super) fn output<const H: usize>(&mut self, net: &Net, pos: &Position) -> i32 {
        self.update::<H>(net, pos);
        let us = pos.side_to_move().index();
        let mut out = net.b2;
        for (half, p) in [(0, us), (H, 1 - us)] {
            let weights = &net.w2[half..half + H];
            for (&sum, &w) in self.sums[p][..H].iter().zip(weights) {
                out = out.wrapping_add(i32::from(sum).clamp(0, QA) * i32::from(w));
            }
        }
        out
    }

    /// Brings the sums to `pos` and remembers it.
    fn update<const H: usize>(&mut self, net: &Net, pos: &Position) {
        debug_assert_eq!(net.hidden, H);
        let anchors = Colour::ALL.map(|c| anchor(pos, c));
        let columns = pos.slot_columns();
        let piles = Colour::ALL.map(|c| pos.pile(c));
        // The slots whose tile came, went or changed.
        let mut moved = 0u32;
        for slot in 0..32 {
            let differ = (self.xs[slot] ^ columns.xs[slot])
                | (self.ys[slot] ^ columns.ys[slot])
                | (self.kinds[slot] as i32 ^ columns.kinds[slot] as i32);
            moved |= u32::from(differ != 0) << slot;
        }
        let changed = (self.present ^ columns.present) | (moved & columns.present);
        let piles_changed = piles != self.piles;
        for (p, anchor) in anchors.into_iter().enumerate() {
            if self.filled && self.anchors[p] == anchor {
                self.step::<H>(net, p, anchor, &columns, changed);
                if piles_changed {
                    self.step_piles::<H>(net, p, &piles);
                }
            } else {
                self.refresh::<H>(net, p, anchor, &columns, &piles);
            }
        }
        self.filled = true;
        self.xs = *columns.xs;
        self.ys = *columns.ys;
        self.kinds = *columns.kinds;
        self.present = columns.present;
        self.piles = piles;
        self.anchors = anchors;
    }

    /// Adds the weights of `input` to `perspective`'s sums.
    #[inline(always)]
    fn add<const H: usize>(&mut self, net: &Net, perspective: usize, input: usize) {
        let row = row::<H>(net, input);
        self.change::<H>(perspective, |sums| {
            for (sum, &w) in sums.iter_mut().zip(row) {
                *sum = sum.wrapping_add(w);
            }
        });
    }

    /// Takes the weights of `input` from `perspective`'s sums.
    #[inline(always)]
    fn sub<const H: usize>(&mut self, net: &Net, perspective: usize, input: usize) {
        let row = row::<H>(net, input);
        self.change::<H>(perspective, |sums| {
            for (sum, &w) in sums.iter_mut().zip(row) {
                *sum = sum.wrapping_sub(w);
            }
        });
    }

    /// Applies `f` to a copy of `perspective`'s `H` sums and stores it
    /// back: on a local copy the compiler knows the weights are not the
    /// sums, and adds a row as whole registers rather than one sum at a
    /// time.
    #[inline(always)]
    fn change<const H: usize>(&mut self, perspective: usize, f: impl FnOnce(&mut [i16; H])) {
        let stored = &mut self.sums[perspective].as_chunks_mut::<H>().0[0];
        let mut sums = *stored;
        f(&mut sums);
        *stored = sums;
    }

    /// Counts the tile of `slot` on its tile input `input` of
    /// perspective `p`.
    #[inline(always)]
    fn enter<const H: usize>(&mut self, net: &Net, p: usize, slot: usize, input: usize) {
        self.inputs[p][slot] = input as u16;
        let count = &mut self.tiles_on[p][input];
        *count += 1;
        if *count == 1 {
            self.add::<H>(net, p, input);
        }
    }

    /// Takes the tile of `slot` off its tile input of perspective `p`.
    #[inline(always)]
    fn leave<const H: usize>(&mut self, net: &Net, p: usize, slot: usize) {
        let input = usize::from(self.inputs[p][slot]);
        let count = &mut self.tiles_on[p][input];
        *count -= 1;
        if *count == 0 {
            self.sub::<H>(net, p, input);
        }
    }

    /// Brings perspective `p`'s tile inputs from the remembered position
    /// to the one of `columns`, whose anchor is the same, by the
    /// `changed` slots.
    fn step<const H: usize>(
        &mut self,
        net: &Net,
        p: usize,
        anchor: Option<(Square, usize)>,
        columns: &SlotColumns,
        changed: u32,
    ) {
        // Without an anchor the table is empty, before and after.
        if let Some((origin, _)) = anchor {
            let mut slots = changed;
            while slots != 0 {
                let slot = slots.trailing_zeros() as usize;
                slots &= slots - 1;
                if self.present & (1 << slot) != 0 {
                    self.leave::<H>(net, p, slot);
                }
                if columns.present & (1 << slot) != 0 {
                    let (x, y, kind) = (columns.xs[slot], columns.ys[slot], columns.kinds[slot]);
                    self.enter::<H>(net, p, slot, tile(p, origin, slot, x, y, kind));
                }
            }
        }
    }

    /// Brings perspective `p`'s pile inputs to `piles`. Out of line: the
    /// piles change only where a tile was drawn, and inlined, the
    /// compiler worked out their inputs ahead on every evaluation.
    #[inline(never)]
    fn step_piles<const H: usize>(&mut self, net: &Net, p: usize, piles: &[Pile; 2]) {
        for (owner, now) in piles.iter().enumerate() {
            for kind in Kind::ALL {
                let (was, is) = (self.piles[owner].count(kind), now.count(kind));
                if was != is {
                    self.sub::<H>(net, p, pile(p, owner, kind, was));
                    self.add::<H>(net, p, pile(p, owner, kind, is));
                }
            }
        }
    }

    /// Sums perspective `p` of the position of `columns` and `piles`
    /// afresh, its anchor `anchor`. Out of line, as [`Self::step_piles`]
    /// is: it is the rarer path, whose pile inputs the compiler otherwise
    /// worked out ahead on every evaluation.
    #[inline(never)]
    fn refresh<const H: usize>(
        &mut self,
        net: &Net,
        p: usize,
        anchor: Option<(Square, usize)>,
        columns: &SlotColumns,
        piles: &[Pile; 2],
    ) {
        if let (true, Some(_)) = (self.filled, self.anchors[p]) {
            let mut slots = self.present;
            while slots != 0 {
                let slot = slots.trailing_zeros() as usize;
                slots &= slots - 1;
                self.tiles_on[p][usize::from(self.inputs[p][slot])] = 0;
            }
        }
        self.sums[p][..H].copy_from_slice(&net.b1);
        for (owner, now) in piles.iter().enumerate() {
            for kind in Kind::ALL {
                self.add::<H>(net, p, pile(p, owner, kind, now.count(kind)));
            }
        }
        let Some((origin, anchor_kind)) = anchor else {
            return;
        };
        self.add::<H>(net, p, ANCHOR_BASE + anchor_kind);
        // Every slot's input at once, in vector lanes, then the present
        // ones counted.
        let mut inputs = [0; 32];
        for (slot, input) in inputs.iter_mut().enumerate() {
            let (x, y, kind) = (columns.xs[slot], columns.ys[slot], columns.kinds[slot]);
            *input = tile(p, origin, slot, x, y, kind);
        }
        let mut slots = columns.present;
        while slots != 0 {
            let slot = slots.trailing_zeros() as usize;
            slots &= slots - 1;
            self.enter::<H>(net, p, slot, inputs[slot]);
        }
    }
}
