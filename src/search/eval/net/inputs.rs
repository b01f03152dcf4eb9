//! The learned evaluation's input encoding (docs/net.md, "Inputs"): the
//! active 0/1 inputs of a position seen from one colour's side.

use crate::rules::{Colour, Kind, Position, Square};
use arrayvec::ArrayVec;

/// How far a tile may be from the anchor along each axis before it is
/// seen as that far. Public so that the trainer's spec
/// ([`super::Spec`]) is read from here rather than typed again.
pub const REACH: i32 = 7;
/// Squares along each axis of the tile inputs' window: `-7..=7`. Public
/// for the trainer's spec.
pub const SPAN: usize = 2 * REACH as usize + 1;
/// Kinds of tile, in the spec's order (as `kind_number` numbers them). Public for
/// the trainer's spec.
pub const KINDS: usize = 6;
/// Whose a tile or pile is, seen from a perspective: its own or the
/// other's. Public for the trainer's spec.
pub const RELATIONS: usize = 2;
/// Anchor kinds: the perspective's king, the other king, the first tile
/// (as `anchor` finds them). Public for the trainer's spec.
pub const ANCHOR_KINDS: usize = 3;
/// A pile count is seen as at most this many. Public for the trainer's
/// spec.
pub const PILE_CAP: u8 = 8;
/// The first tile input: the tile inputs come first. Public for the
/// trainer's spec.
pub const TILE_BASE: usize = 0;
/// The first anchor input: after the tile inputs, one a relation, kind
/// and window square. Public for the trainer's spec.
pub const ANCHOR_BASE: usize = TILE_BASE + RELATIONS * KINDS * SPAN * SPAN;
/// The first pile input: after the anchor inputs. Public for the
/// trainer's spec.
pub const PILE_BASE: usize = ANCHOR_BASE + ANCHOR_KINDS;

/// How many inputs a perspective has: 2700 tile inputs, 3 anchor kinds
/// and 108 pile inputs, derived from the layout so that a change to it
/// cannot leave the count behind. Net files record it (2811).
pub const INPUTS: usize = PILE_BASE + RELATIONS * KINDS * (PILE_CAP as usize + 1);

// Inputs are listed as `u16`.
const _: () = assert!(INPUTS <= u16::MAX as usize);

/// The most inputs a perspective has active at once: 32 tiles, an anchor
/// and 12 piles.
pub const MAX_ACTIVE: usize = 48;

/// The active inputs of one perspective, in no set order and each once.
pub type Active = ArrayVec<u16, MAX_ACTIVE>;

/// The spec's number for each kind (king 0 … pawn 5). Written out rather
/// than taken from [`Kind::index`], so that a reordering of [`Kind`]
/// cannot change the file format; a test checks that the two agree today.
pub(super) const fn kind_number(kind: Kind) -> usize {
    match kind {
        Kind::King => 0,
        Kind::Queen => 1,
        Kind::Rook => 2,
        Kind::Bishop => 3,
        Kind::Knight => 4,
        Kind::Pawn => 5,
    }
}

/// 0 for the perspective colour's tiles and pile, 1 for the other's.
fn relation(perspective: Colour, owner: Colour) -> usize {
    usize::from(owner != perspective)
}

/// The input of a tile of `feature` (relation · 6 + kind number) at
/// `dx`, `dy` from the anchor, both already clipped to the window.
#[inline(always)]
pub(super) const fn tile_input(feature: usize, dx: i32, dy: i32) -> usize {
    TILE_BASE + (feature * SPAN + (dx + REACH) as usize) * SPAN + (dy + REACH) as usize
}

/// The input saying that the pile of `feature` (relation · 6 + kind
/// number) holds `count` tiles.
#[inline(always)]
pub(super) fn pile_input(feature: usize, count: u8) -> usize {
    PILE_BASE + feature * (PILE_CAP as usize + 1) + count.min(PILE_CAP) as usize
}

/// The square everything is measured from, and its anchor kind: the
/// perspective's king (0), else the other king (1), else the first tile
/// in the perspective's order, smallest forward rank then smallest file
/// (2). `None` on an empty table.
pub(super) fn anchor(pos: &Position, perspective: Colour) -> Option<(Square, usize)> {
    if let Some(square) = pos.king_square(perspective) {
        return Some((square, 0));
    }
    if let Some(square) = pos.king_square(perspective.opposite()) {
        return Some((square, 1));
    }
    let forward = perspective.forward();
    pos.table_tiles()
        .map(|t| t.square)
        .min_by_key(|s| (s.y * forward, s.x))
        .map(|square| (square, 2))
}

/// The active inputs of `pos` seen from `perspective`'s side.
///
/// Two tiles of one kind and colour clipped onto the same window edge
/// square share an input; it is listed once, for the inputs are 0/1.
pub fn active(pos: &Position, perspective: Colour) -> Active {
    let mut list = Active::new();
    if let Some((origin, kind)) = anchor(pos, perspective) {
        let forward = perspective.forward();
        // Two tiles share an input only if one of them was clipped: those
        // are kept aside and added after the others, each if not there.
        let mut clipped = ArrayVec::<u16, 32>::new();
        for tile in pos.table_tiles() {
            let dx = tile.square.x - origin.x;
            let dy = (tile.square.y - origin.y) * forward;
            let far = dx.abs() > REACH || dy.abs() > REACH;
            let feature =
                relation(perspective, tile.piece.colour) * KINDS + kind_number(tile.piece.kind);
            let index =
                tile_input(feature, dx.clamp(-REACH, REACH), dy.clamp(-REACH, REACH)) as u16;
            if far {
                clipped.push(index);
            } else {
                list.push(index);
            }
        }
        for index in clipped {
            if !list.contains(&index) {
                list.push(index);
            }
        }
        list.push((ANCHOR_BASE + kind) as u16);
    }
    for owner in [perspective, perspective.opposite()] {
        let pile = pos.pile(owner);
        for kind in Kind::ALL {
            let feature = relation(perspective, owner) * KINDS + kind_number(kind);
            list.push(pile_input(feature, pile.count(kind)) as u16);
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::net::tests::{mirrored, sample_positions, shifted};

    fn sorted(list: Active) -> Vec<u16> {
        let mut v = list.to_vec();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_derived_layout_is_the_file_formats() {
        // Net files on disk record these; a change is a new format.
        assert_eq!(
            (SPAN, ANCHOR_BASE, PILE_BASE, INPUTS),
            (15, 2700, 2703, 2811)
        );
    }

    #[test]
    fn kind_index_follows_the_spec_order() {
        for kind in Kind::ALL {
            assert_eq!(kind.index(), kind_number(kind), "{kind:?}");
        }
    }

    #[test]
    fn a_shifted_position_has_the_same_inputs() {
        for pos in sample_positions() {
            let shifted = shifted(&pos, 37, -1000);
            for colour in Colour::ALL {
                let (a, b) = (active(&pos, colour), active(&shifted, colour));
                assert_eq!(sorted(a), sorted(b), "{pos}");
            }
        }
    }

    #[test]
    fn the_colour_mirror_swaps_the_perspectives() {
        for pos in sample_positions() {
            if pos.tile_count() == 0 {
                continue;
            }
            let mirror = mirrored(&pos);
            for colour in Colour::ALL {
                let (a, b) = (active(&pos, colour), active(&mirror, colour.opposite()));
                assert_eq!(sorted(a), sorted(b), "{pos}");
            }
        }
    }

    #[test]
    fn every_tile_an_anchor_and_twelve_piles_each_once_in_range() {
        let mut clipped = 0;
        for pos in sample_positions() {
            for colour in Colour::ALL {
                let list = active(&pos, colour);
                assert!(list.iter().all(|&i| (i as usize) < INPUTS), "{pos}");
                let set = sorted(list.clone());
                let mut unique = set.clone();
                unique.dedup();
                assert_eq!(unique, set, "{pos}");
                let anchor = usize::from(pos.tile_count() > 0);
                let expected = pos.tile_count() as usize + anchor + 12;
                // Only clipping merges tiles, so only it may shorten the list.
                assert!(list.len() <= expected, "{pos}");
                if list.len() < expected {
                    clipped += 1;
                }
                if pos.king_square(Colour::White).is_some()
                    && pos.king_square(Colour::Black).is_some()
                {
                    let on_window = pos.tiles().iter().all(|t| {
                        let k = pos.king_square(colour).unwrap_or(t.square);
                        (t.square.x - k.x).abs() <= REACH && (t.square.y - k.y).abs() <= REACH
                    });
                    if on_window {
                        assert_eq!(list.len(), expected, "{pos}");
                    }
                }
            }
        }
        // Not a requirement; printed so a reader sees how often it happens.
        println!("{clipped} perspectives had tiles merged by clipping");
    }

    #[test]
    fn hand_checked_indices() {
        // White's king on 0,0 and Black's queen one square ahead of it
        // (for White). Black's king is in the pile, so Black's anchor is
        // White's king (kind 1), and Black sees its queen behind it.
        let pos: Position = "q0,1/K0,0 w QRRBBNNPPPPPPPP/krrbbnnpppppppp 0 2"
            .parse()
            .expect("valid");
        let white = sorted(active(&pos, Colour::White));
        let black = sorted(active(&pos, Colour::Black));
        // White: own king at 0,0; other queen (feature 7) at dx 0, dy +1.
        assert!(white.contains(&(7 * 15 + 7)));
        assert!(white.contains(&((7 * 15 + 7) * 15 + 8)));
        assert!(white.contains(&2700));
        // White's pile: queen count 1 → 2703 + 1·9 + 1; Black's king 1.
        assert!(white.contains(&(2703 + 9 + 1)));
        assert!(white.contains(&(2703 + 6 * 9 + 1)));
        // Black: other king (feature 6) at 0,0; own queen at dy −1.
        assert!(black.contains(&((6 * 15 + 7) * 15 + 7)));
        assert!(black.contains(&((15 + 7) * 15 + 6)));
        assert!(black.contains(&2701));
        assert!(black.contains(&(2703 + 1)));
        assert_eq!(white.len(), 2 + 1 + 12);
        assert_eq!(black.len(), 2 + 1 + 12);
    }
}
