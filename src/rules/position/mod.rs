//! The position: tiles on the table, both piles, the side to move, the
//! clocks; its storage and what reads it. Its other files: `make` makes
//! and unmakes moves, `setup` checks editable parts into a position,
//! `geometry` says what the storage says about lines and rings, `columns`
//! reads the table slot by slot, `consistency` checks the storage against
//! a recomputation. Attacks are in `rules::attack`, the tile graph in
//! `rules::connectivity`.
//!
//! The table is unbounded, but the group of at most 32 tiles spans at most
//! 32 squares in each direction. It is stored on a 64 × 64 torus: a square
//! `x,y` lives in cell `(x mod 64, y mod 64)`. Every square the rules ever
//! look at lies within 2 squares of the group's box (at most 36 squares
//! across), where no two squares share a cell, so the torus is exact while
//! the notation keeps the true coordinates. Nothing ever needs re-centring,
//! however far the group walks.

use super::hash;
use super::piece::{Colour, Kind, Piece};
use super::pile::Pile;
use super::square::Square;
use super::tile_set::TileSet;
use std::fmt;

pub(crate) mod columns;
pub(super) mod consistency;
pub(super) mod geometry;
mod make;
pub(super) mod setup;

/// No tile: the board cell is empty, or the king is still in the pile.
pub(crate) const NO_SLOT: u8 = 0xFF;

/// A tile on the table, as the notation describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    /// Where it stands.
    pub square: Square,
    /// What it is.
    pub piece: Piece,
    /// For a pawn: it has moved since it was placed, so it may no longer
    /// step two or three squares. Always false for other pieces.
    pub moved: bool,
}

/// A CHEX position.
///
/// Invariants, kept by every constructor and move: the table is empty or
/// one 8-connected group; each side has exactly one king, in its pile or
/// on the table; the side not to move is not in check.
#[derive(Clone)]
pub struct Position {
    /// The slot of the tile in each torus cell, or [`NO_SLOT`].
    board: [u8; 4096],
    /// Occupancy of the torus: bit `x mod 64` of row `y mod 64`.
    rows: [u64; 64],
    /// The same by the other lines a slider takes, each with bit `y mod 64`
    /// for the square `x,y`: the column `x mod 64`, the diagonal
    /// `(x − y) mod 64` and the anti-diagonal `(x + y) mod 64`.
    columns: [u64; 64],
    diagonals: [u64; 64],
    anti_diagonals: [u64; 64],
    /// Bit `y mod 64` for each torus row holding a tile, bit `x mod 64`
    /// for each column: the group's box is the one run of each.
    occupied_rows: u64,
    occupied_columns: u64,
    xs: [i32; 32],
    ys: [i32; 32],
    kinds: [Kind; 32],
    /// The slots on the table of each kind, by [`Kind::index`]: attacks
    /// are found a kind at a time, without a jump on each tile's kind.
    by_kind: [TileSet; 6],
    /// The slots on the table.
    present: TileSet,
    /// For each slot on the table, the slots of the tiles touching it.
    adjacent: [TileSet; 32],
    /// The slots of captured tiles. They are not reused, so that unmaking
    /// a capture finds the captured tile's square and kind intact.
    captured: TileSet,
    /// The pawn slots that have moved since they were placed.
    moved: TileSet,
    /// The slot of each side's king, or [`NO_SLOT`] while it is in the pile.
    kings: [u8; 2],
    piles: [Pile; 2],
    side: Colour,
    halfmove: u32,
    fullmove: u32,
    /// The hash's field sum over the tiles (see `hash`).
    table_sum: u64,
    /// Four times the Euler number of the tiles: groups less holes, kept
    /// square by square (see `ring::euler_gain`).
    euler: i32,
}

/// What [`Position::make`] changed that it cannot work out again.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    moved: TileSet,
    halfmove: u32,
    table_sum: u64,
}

/// What `apply_to_table` changed, for `revert_on_table`.
#[derive(Clone, Copy)]
pub(super) struct TableUndo {
    slot: u8,
    captured: u8,
}

impl Position {
    /// The start: nothing on the table, both piles full, White to move.
    pub fn startpos() -> Position {
        Position {
            board: [NO_SLOT; 4096],
            rows: [0; 64],
            columns: [0; 64],
            diagonals: [0; 64],
            anti_diagonals: [0; 64],
            occupied_rows: 0,
            occupied_columns: 0,
            xs: [0; 32],
            ys: [0; 32],
            kinds: [Kind::Pawn; 32],
            by_kind: [TileSet::EMPTY; 6],
            present: TileSet::EMPTY,
            adjacent: [TileSet::EMPTY; 32],
            captured: TileSet::EMPTY,
            moved: TileSet::EMPTY,
            kings: [NO_SLOT; 2],
            piles: [Pile::FULL; 2],
            side: Colour::White,
            halfmove: 0,
            fullmove: 1,
            table_sum: 0,
            euler: 0,
        }
    }

    /// The side whose turn it is.
    #[inline(always)]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }

    /// What is left in `colour`'s pile.
    #[inline(always)]
    pub fn pile(&self, colour: Colour) -> Pile {
        self.piles[colour.index()]
    }

    /// Turns since the last capture, pawn move or placement.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Starts at 1 and grows after each Black turn.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// How many tiles are on the table.
    pub fn tile_count(&self) -> u32 {
        self.present.len()
    }

    /// How many of `colour`'s tiles of `kind` are on the table: material
    /// counted without listing the tiles.
    #[inline]
    pub fn table_count(&self, colour: Colour, kind: Kind) -> u32 {
        (self.by_kind[kind.index()] & TileSet::colour(colour)).len()
    }

    /// The tiles on the table, in the canonical order of the notation: by
    /// rank from high `y` to low, then by file from low `x` to high.
    pub fn tiles(&self) -> Vec<Tile> {
        let mut tiles: Vec<Tile> = self.present.into_iter().map(|s| self.tile(s)).collect();
        tiles.sort_unstable_by_key(|t| (-(t.square.y as i64), t.square.x));
        tiles
    }

    /// The tiles on the table in no set order, without allocating: for
    /// a caller on the hot path that needs the tiles but not the
    /// notation's order ([`Position::tiles`]).
    pub fn table_tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.present.into_iter().map(|s| self.tile(s))
    }

    /// The tile on `square`, if any.
    pub fn tile_at(&self, square: Square) -> Option<Tile> {
        self.slot_on(square).map(|slot| self.tile(slot))
    }

    /// The slot of the tile on `square`, if any. A far square (one a line
    /// reaches after running off the group, say) can share a torus cell
    /// with a tile, so the squares are compared.
    #[inline(always)]
    pub(super) fn slot_on(&self, square: Square) -> Option<usize> {
        let slot = self.board[square.cell()];
        (slot != NO_SLOT && self.square_of(slot as usize) == square).then_some(slot as usize)
    }

    /// Where `colour`'s king stands, if it is on the table.
    pub fn king_square(&self, colour: Colour) -> Option<Square> {
        let slot = self.kings[colour.index()];
        (slot != NO_SLOT).then(|| self.square_of(slot as usize))
    }

    /// True when the side to move's king is on the table and an enemy tile
    /// could capture it without splitting the table (RULES.md section 5).
    pub fn in_check(&self) -> bool {
        self.king_capturable(self.side)
    }

    /// The translation-invariant key of the position: equal for positions
    /// that are the same up to translation (tiles with their kinds, colours
    /// and pawn-moved flags, side to move, pile contents), as threefold
    /// repetition requires.
    pub fn hash(&self) -> u64 {
        let (corner_x, corner_y, _, _) = self.bounds();
        let table = hash::table_key(self.table_sum, corner_x, corner_y);
        let piles = self.piles[0].packed() as u64 | (self.piles[1].packed() as u64) << 24;
        table ^ hash::mix(piles << 1 | self.side as u64)
    }

    /// The same key computed from nothing but the tiles, for tests of the
    /// incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut copy = self.clone();
        copy.recompute_sums();
        copy.hash()
    }

    /// Hands the turn to the other side without a move, so that a search
    /// can ask what that side threatens; passing again takes it back.
    /// Refused (false, nothing changed) while the side to move is in
    /// check: the side not to move is never in check.
    pub fn pass(&mut self) -> bool {
        if self.in_check() {
            return false;
        }
        self.hand_over_turn();
        true
    }

    /// Hands the turn to the other side with no test of check: for the
    /// rules' own questions of what that side could do, after which the
    /// turn is always handed back.
    pub(in crate::rules) fn hand_over_turn(&mut self) {
        self.side = self.side.opposite();
    }

    fn recompute_sums(&mut self) {
        self.table_sum = 0;
        for slot in self.present {
            let (x, y) = (self.xs[slot], self.ys[slot]);
            self.table_sum = hash::add(self.table_sum, hash::tile_term(self.state(slot), x, y));
        }
    }

    /// The hash state of the tile in `slot`: kind and colour, and for
    /// pawns whether they have moved.
    #[inline(always)]
    fn state(&self, slot: usize) -> usize {
        let kind = self.kinds[slot];
        let shape = if kind == Kind::Pawn && self.moved.contains(slot) {
            hash::MOVED_PAWN
        } else {
            kind.index()
        };
        (slot >> 4) * hash::STATES_PER_COLOUR + shape
    }

    #[inline(always)]
    pub(super) fn square_of(&self, slot: usize) -> Square {
        Square::new(self.xs[slot], self.ys[slot])
    }

    /// The slot in `square`'s torus cell, or [`NO_SLOT`]: near the group
    /// (see the module comment), the tile on `square`.
    #[inline(always)]
    pub(super) fn cell_slot(&self, square: Square) -> u8 {
        self.board[square.cell()]
    }

    /// The occupancy of torus row `y mod 64`: bit `x mod 64` for the
    /// square `x,y`.
    #[inline(always)]
    pub(super) fn row(&self, y: i32) -> u64 {
        self.rows[(y & 63) as usize]
    }

    /// The torus rows holding a tile: bit `y mod 64`.
    #[inline(always)]
    pub(super) fn occupied_rows(&self) -> u64 {
        self.occupied_rows
    }

    /// The slots on the table.
    #[inline(always)]
    pub(super) fn present(&self) -> TileSet {
        self.present
    }

    /// The slots of the tiles touching the tile in `slot`.
    #[inline(always)]
    pub(super) fn adjacent(&self, slot: usize) -> TileSet {
        self.adjacent[slot]
    }

    /// The kind of the tile in `slot`.
    #[inline(always)]
    pub(super) fn kind_of(&self, slot: usize) -> Kind {
        self.kinds[slot]
    }

    /// True when the tile in `slot`, a pawn, has moved since it was
    /// placed.
    #[inline(always)]
    pub(super) fn has_moved(&self, slot: usize) -> bool {
        self.moved.contains(slot)
    }

    /// The slot of `colour`'s king, or [`NO_SLOT`] while it is in the
    /// pile.
    #[inline(always)]
    pub(super) fn king_slot(&self, colour: Colour) -> u8 {
        self.kings[colour.index()]
    }

    /// The x and the y coordinates of `colour`'s sixteen slots, for tests
    /// run on all sixteen at once; a slot off the table holds its last
    /// square.
    #[inline(always)]
    pub(super) fn coordinates(&self, colour: Colour) -> (&[i32], &[i32]) {
        let base = 16 * colour.index();
        (&self.xs[base..base + 16], &self.ys[base..base + 16])
    }

    #[inline(always)]
    pub(super) fn colour_of(slot: usize) -> Colour {
        if slot < 16 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    fn tile(&self, slot: usize) -> Tile {
        Tile {
            square: self.square_of(slot),
            piece: Piece::new(Self::colour_of(slot), self.kinds[slot]),
            moved: self.moved.contains(slot),
        }
    }

    /// The slots of `colour`'s tiles of `kind` on the table.
    #[inline(always)]
    pub(super) fn tiles_of(&self, colour: Colour, kind: Kind) -> TileSet {
        self.present & TileSet::colour(colour) & self.by_kind[kind.index()]
    }

    /// The smallest box holding every tile: (min x, min y, max x, max y).
    pub(super) fn bounds(&self) -> (i32, i32, i32, i32) {
        if self.present.is_empty() {
            return (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
        }
        // The rows of a group spanning fewer than 64 form one run around
        // the torus: it starts at the row whose row below is empty. Any
        // tile gives the true coordinates.
        let span = |occupied: u64, at: i32| {
            let first = (occupied & !occupied.rotate_left(1)).trailing_zeros() as i32;
            let last = (occupied & !occupied.rotate_right(1)).trailing_zeros() as i32;
            (at - ((at - first) & 63), at + ((last - at) & 63))
        };
        let any = self.present.lowest();
        let (min_x, max_x) = span(self.occupied_columns, self.xs[any]);
        let (min_y, max_y) = span(self.occupied_rows, self.ys[any]);
        (min_x, min_y, max_x, max_y)
    }
}

impl PartialEq for Position {
    /// Positions are equal when their notation is: same tiles on the same
    /// squares, piles, side and clocks (slots are internal).
    fn eq(&self, other: &Position) -> bool {
        self.tiles() == other.tiles()
            && self.piles == other.piles
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ring::ring_connected;
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_pass_hands_over_the_turn_and_a_second_takes_it_back() {
        // Black's rook and pawn attack the white king: no pass.
        let check: Position = "K0,0/r0,1/p1,1/k0,2 w QRRBBNNPPPPPPPP/qrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let mut pos = check.clone();
        assert!(!pos.pass());
        assert_eq!(pos.to_string(), check.to_string());
        let quiet: Position = "K0,0/P1,0/p0,1/k1,2 w QRRBBNNPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let mut pos = quiet.clone();
        assert!(pos.pass());
        assert_eq!(pos.side_to_move(), Colour::Black);
        assert_eq!(pos.hash(), pos.hash_from_scratch());
        let as_black: Position = "K0,0/P1,0/p0,1/k1,2 b QRRBBNNPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert_eq!(pos.hash(), as_black.hash());
        assert!(pos.pass());
        assert_eq!(pos.hash(), quiet.hash());
        assert_eq!(pos.to_string(), quiet.to_string());
    }

    /// The box of the tiles, worked out from their coordinates alone.
    fn box_of_tiles(pos: &Position) -> (i32, i32, i32, i32) {
        let tiles = pos.tiles();
        let xs = tiles.iter().map(|t| t.square.x);
        let ys = tiles.iter().map(|t| t.square.y);
        (
            xs.clone().min().unwrap(),
            ys.clone().min().unwrap(),
            xs.max().unwrap(),
            ys.max().unwrap(),
        )
    }

    /// How many regions of empty squares (joined at sides) the tiles
    /// enclose, found by flooding the empty squares of the box around them.
    fn holes_by_flood(pos: &Position) -> usize {
        let (min_x, min_y, max_x, max_y) = box_of_tiles(pos);
        let (x0, y0) = (min_x - 1, min_y - 1);
        let (w, h) = ((max_x - x0 + 2) as usize, (max_y - y0 + 2) as usize);
        let mut empty = vec![true; w * h];
        for tile in pos.tiles() {
            empty[(tile.square.y - y0) as usize * w + (tile.square.x - x0) as usize] = false;
        }
        let mut regions = 0;
        for start in 0..w * h {
            if !empty[start] {
                continue;
            }
            regions += 1;
            let mut todo = vec![start];
            empty[start] = false;
            while let Some(c) = todo.pop() {
                let (x, y) = (c % w, c / w);
                let sides = [
                    (x > 0).then(|| c - 1),
                    (x + 1 < w).then(|| c + 1),
                    (y > 0).then(|| c - w),
                    (y + 1 < h).then(|| c + w),
                ];
                for n in sides.into_iter().flatten() {
                    if empty[n] {
                        empty[n] = false;
                        todo.push(n);
                    }
                }
            }
        }
        // One region is the open table around the tiles.
        regions - 1
    }

    /// The tiles whose 3 × 3 ring does not hold together without them.
    fn ring_holders(pos: &Position) -> TileSet {
        pos.present
            .into_iter()
            .filter(|&s| !ring_connected(pos.ring(pos.square_of(s))))
            .collect()
    }

    /// The Euler number kept square by square is one less the holes, and
    /// without holes the ring test finds exactly the tiles that hold the
    /// table together: in positions with and without holes, and in every
    /// position of random games, after make and after unmake.
    #[test]
    fn holes_and_holding_tiles() {
        let check = |pos: &Position| {
            if pos.present.is_empty() {
                assert_eq!(pos.euler, 0);
                return 0;
            }
            let holes = holes_by_flood(pos);
            assert_eq!(pos.euler, 4 * (1 - holes as i32), "{pos}");
            assert_eq!(pos.without_holes(), holes == 0, "{pos}");
            if holes == 0 {
                assert_eq!(
                    ring_holders(pos),
                    pos.articulation_points(TileSet::EMPTY),
                    "{pos}"
                );
            }
            holes
        };
        // A loop of eight around one empty square, and a longer loop
        // around two: the tile in the middle of a side has a broken ring
        // but holds nothing together.
        for (position, holes) in [
            (
                "p0,2/p1,2/k2,2/P0,1/p2,1/K0,0/P1,0/P2,0 w QRRBBNNPPPPP/qrrbbnnppppp 0 9",
                1,
            ),
            (
                "p0,2/p1,2/p2,2/k3,2/P0,1/p3,1/K0,0/P1,0/P2,0/P3,0 w QRRBBNNPPPP/qrrbbnnpppp 0 9",
                1,
            ),
            ("k3,3/p2,2/P1,1/K0,0 w QRRBBNNPPPPPPP/qrrbbnnppppppp 0 3", 0),
        ] {
            let pos: Position = position.parse().unwrap();
            assert_eq!(check(&pos), holes, "{position}");
            if holes > 0 {
                assert_ne!(
                    ring_holders(&pos),
                    pos.articulation_points(TileSet::EMPTY),
                    "{position}"
                );
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut with_holes, mut positions) = (0, 0);
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                    break;
                };
                let undo = pos.make(mv);
                pos.unmake(mv, undo);
                check(&pos);
                pos.make(mv);
                with_holes += usize::from(check(&pos) > 0);
                positions += 1;
            }
        }
        assert!(
            with_holes > 500 && positions - with_holes > 5_000,
            "{with_holes} of {positions}"
        );
    }

    /// The box read off the occupied torus rows and columns is the box of
    /// the tiles: across the torus's seam, far from the origin, and in
    /// every position of random games.
    #[test]
    fn bounds_are_the_box_of_the_tiles() {
        for position in [
            "K62,0/P63,0/p64,1/k65,2 w QRRBBNNPPPPPPP/qrrbbnnppppppp 0 9",
            "K-1000000,-64/P-999999,-63/k-999998,-62 w QRRBBNNPPPPPPP/qrrbbnnpppppppp 0 9",
            "k-2,-1/P-1,-1/K0,0 w QRRBBNNPPPPPPP/qrrbbnnpppppppp 0 3",
        ] {
            let pos: Position = position.parse().unwrap();
            assert_eq!(pos.bounds(), box_of_tiles(&pos), "{position}");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut positions = 0;
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                match Sampler::new().uniform_turn(&mut pos, &mut rng) {
                    Turn::Play(mv) => {
                        pos.make(mv);
                    }
                    _ => break,
                }
                assert_eq!(pos.bounds(), box_of_tiles(&pos), "{pos}");
                positions += 1;
            }
        }
        assert!(positions > 5_000, "{positions}");
    }
}
