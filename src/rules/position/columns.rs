//! The table read slot by slot, for a reader that goes over every tile
//! in one tight loop (the learned evaluation's first layer) and would
//! otherwise build a [`Tile`](super::Tile) for each.

use super::Position;
use crate::rules::piece::{Colour, Kind};
use crate::rules::tile_set::TileSet;

/// The tiles on the table as columns indexed by slot. Slots 0–15 hold
/// White's tiles and 16–31 Black's, so a slot's colour index is
/// `slot / 16`. Only the slots of `present` are on the table; the
/// others hold stale squares and kinds.
pub(crate) struct SlotColumns<'a> {
    /// Each slot's square's x.
    pub xs: &'a [i32; 32],
    /// Each slot's square's y.
    pub ys: &'a [i32; 32],
    /// Each slot's kind.
    pub kinds: &'a [Kind; 32],
    /// Bit `slot` for each slot on the table.
    pub present: u32,
}

impl SlotColumns<'_> {
    /// The slots of `colour`'s tiles on the table, a bit each.
    #[inline(always)]
    pub fn present_of(&self, colour: Colour) -> u32 {
        self.present & TileSet::colour(colour).0
    }
}

impl Position {
    /// The table as [`SlotColumns`].
    pub(crate) fn slot_columns(&self) -> SlotColumns<'_> {
        SlotColumns {
            xs: &self.xs,
            ys: &self.ys,
            kinds: &self.kinds,
            present: self.present.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Colour, Position};

    #[test]
    fn the_columns_hold_every_tile_and_its_colour() {
        let pos: Position = "p1,2/q0,1/K0,0 b QRRBBNNPPPPPPPP/krrbbnnppppppp 0 2"
            .parse()
            .expect("valid");
        let columns = pos.slot_columns();
        let mut seen: Vec<_> = (0..32)
            .filter(|s| columns.present & (1 << s) != 0)
            .map(|s| {
                let colour = Colour::ALL[s / 16];
                (columns.xs[s], columns.ys[s], colour, columns.kinds[s])
            })
            .collect();
        let mut tiles: Vec<_> = pos
            .table_tiles()
            .map(|t| (t.square.x, t.square.y, t.piece.colour, t.piece.kind))
            .collect();
        seen.sort();
        tiles.sort();
        assert_eq!(seen, tiles);
        assert_eq!(seen.len(), 3);
    }
}
