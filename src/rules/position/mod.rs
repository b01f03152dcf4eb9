//! The position: tiles on the table, both piles, the side to move, the
//! clocks; making and unmaking moves; attacks and check.
//!
//! The table is unbounded, but the group of at most 32 tiles spans at most
//! 32 squares in each direction. It is stored on a 64 × 64 torus: a square
//! `x,y` lives in cell `(x mod 64, y mod 64)`. Every square the rules ever
//! look at lies within 2 squares of the group's box (at most 36 squares
//! across), where no two squares share a cell, so the torus is exact while
//! the notation keeps the true coordinates. Nothing ever needs re-centring,
//! however far the group walks.

use super::connectivity::{
    euler_gain, ring_bit_if_within, ring_connected, ring_groups, Ring, CENTRE,
};
use super::hash;
use super::moves::Move;
use super::piece::{Colour, Kind, Piece};
use super::pile::Pile;
use super::square::Square;
use arrayvec::ArrayVec;
use std::fmt;

mod consistency;

pub use consistency::Inconsistency;

/// No tile: the board cell is empty, or the king is still in the pile.
pub(crate) const NO_SLOT: u8 = 0xFF;

/// Slots 0–15 hold White's tiles, 16–31 Black's.
#[inline(always)]
pub(crate) const fn colour_mask(colour: Colour) -> u32 {
    0xFFFF << (16 * colour as u32)
}

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
    pub(super) board: [u8; 4096],
    /// Occupancy of the torus: bit `x mod 64` of row `y mod 64`.
    pub(super) rows: [u64; 64],
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
    pub(super) xs: [i32; 32],
    pub(super) ys: [i32; 32],
    pub(super) kinds: [Kind; 32],
    /// The slots on the table of each kind, by [`Kind::index`]: attacks
    /// are found a kind at a time, without a jump on each tile's kind.
    by_kind: [u32; 6],
    /// The slots on the table.
    pub(super) present: u32,
    /// For each slot on the table, the slots of the tiles touching it.
    pub(super) adjacent: [u32; 32],
    /// The slots of captured tiles. They are not reused, so that unmaking
    /// a capture finds the captured tile's square and kind intact.
    pub(super) captured: u32,
    /// The pawn slots that have moved since they were placed.
    pub(super) moved: u32,
    /// The slot of each side's king, or [`NO_SLOT`] while it is in the pile.
    pub(super) kings: [u8; 2],
    pub(super) piles: [Pile; 2],
    pub(super) side: Colour,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    /// The hash's field sum over the tiles (see `hash`).
    table_sum: u64,
    /// Four times the Euler number of the tiles: groups less holes, kept
    /// square by square (see `connectivity::euler_gain`).
    euler: i32,
}

/// How the tiles of one colour lie from a target square, as sets of
/// slots: which share its rank or file, which its diagonal, which stand a
/// knight's jump away and which next to it. Slots off the table are in
/// any of them: intersect with the tiles wanted.
#[derive(Clone, Copy, Debug, Default)]
struct Bearings {
    straight: u32,
    diagonal: u32,
    knight: u32,
    adjacent: u32,
}

impl Bearings {
    /// Of `(rooks, bishops)`, the sliders (queens are in both) on a line
    /// they ride through the target.
    #[inline(always)]
    fn aligned(&self, (rooks, bishops): (u32, u32)) -> u32 {
        self.straight & rooks | self.diagonal & bishops
    }
}

/// What [`Position::make`] changed that it cannot work out again.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    moved: u32,
    halfmove: u32,
    table_sum: u64,
}

/// What `apply_to_table` changed, for `revert_on_table`.
#[derive(Clone, Copy)]
pub(super) struct TableUndo {
    slot: u8,
    captured: u8,
}

/// Unit steps of the sliders and the king.
pub(super) const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub(super) const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
pub(super) const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
pub(super) const KING: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

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
            by_kind: [0; 6],
            present: 0,
            adjacent: [0; 32],
            captured: 0,
            moved: 0,
            kings: [NO_SLOT; 2],
            piles: [Pile::FULL; 2],
            side: Colour::White,
            halfmove: 0,
            fullmove: 1,
            table_sum: 0,
            euler: 0,
        }
    }

    /// Builds a position from its parts, checking every consistency rule of
    /// RULES.md section 7.
    pub fn from_parts(
        tiles: &[Tile],
        side: Colour,
        piles: [Pile; 2],
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Position, PositionError> {
        let mut pos = Position::startpos();
        pos.piles = piles;
        pos.side = side;
        pos.halfmove = halfmove;
        pos.fullmove = fullmove;
        if fullmove == 0 {
            return Err(PositionError::FullmoveZero);
        }
        for tile in tiles {
            if !tile.square.in_range() {
                return Err(PositionError::OutOfRange(*tile));
            }
            if tile.moved && tile.piece.kind != Kind::Pawn {
                return Err(PositionError::MovedNonPawn(*tile));
            }
        }
        for colour in Colour::ALL {
            for kind in Kind::ALL {
                let piece = Piece::new(colour, kind);
                let count = tiles.iter().filter(|t| t.piece == piece).count()
                    + piles[colour.index()].count(kind) as usize;
                if kind == Kind::King && count != 1 {
                    return Err(PositionError::KingCount { colour, count });
                }
                if count > kind.set_count() as usize {
                    return Err(PositionError::TooMany { piece, count });
                }
            }
        }
        // Squares are checked pairwise on true coordinates: two squares
        // 64 apart share a torus cell but are not the same square.
        let mut sorted: Vec<Square> = tiles.iter().map(|t| t.square).collect();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(PositionError::SquareTwice(w[0]));
        }
        if !tiles_connected(tiles) {
            return Err(PositionError::Disconnected);
        }
        if tiles.is_empty() {
            if piles != [Pile::FULL; 2] || side != Colour::White {
                return Err(PositionError::EmptyTable);
            }
        } else if !tiles.iter().any(|t| t.piece.colour != side) {
            return Err(PositionError::NoTileOfLastMover);
        }
        // 32 connected tiles span at most 32 squares, so they fit the torus.
        for tile in tiles {
            let colour = tile.piece.colour;
            let free = !pos.present & colour_mask(colour);
            let slot = free.trailing_zeros() as usize;
            pos.put(slot, tile.piece.kind, tile.square);
            if tile.moved {
                pos.moved |= 1 << slot;
            }
            if tile.piece.kind == Kind::King {
                pos.kings[colour.index()] = slot as u8;
            }
        }
        for slot in Slots(pos.present) {
            pos.link(slot);
        }
        pos.recompute_sums();
        if pos.king_capturable(side.opposite()) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
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
        self.present.count_ones()
    }

    /// How many of `colour`'s tiles of `kind` are on the table: material
    /// counted without listing the tiles.
    #[inline]
    pub fn table_count(&self, colour: Colour, kind: Kind) -> u32 {
        (self.by_kind[kind.index()] & colour_mask(colour)).count_ones()
    }

    /// The tiles on the table, in the canonical order of the notation: by
    /// rank from high `y` to low, then by file from low `x` to high.
    pub fn tiles(&self) -> Vec<Tile> {
        let mut tiles: Vec<Tile> = Slots(self.present).map(|s| self.tile(s)).collect();
        tiles.sort_unstable_by_key(|t| (-(t.square.y as i64), t.square.x));
        tiles
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

    /// Plays `mv`, which must be legal here, and returns what [`unmake`]
    /// needs to take it back.
    ///
    /// [`unmake`]: Position::unmake
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            captured: NO_SLOT,
            moved: self.moved,
            halfmove: self.halfmove,
            table_sum: self.table_sum,
        };
        let us = self.side;
        let table = self.apply_to_table(mv);
        let slot = table.slot as usize;
        match mv {
            Move::Place { piece, to } => {
                self.piles[us.index()].remove(piece.kind);
                self.table_sum = hash::add(
                    self.table_sum,
                    hash::tile_term(self.state(slot), to.x, to.y),
                );
                self.halfmove = 0;
            }
            Move::Step { from, to } => {
                let old_state = self.state(slot);
                let mut irreversible = false;
                if table.captured != NO_SLOT {
                    let c = table.captured as usize;
                    self.table_sum =
                        hash::sub(self.table_sum, hash::tile_term(self.state(c), to.x, to.y));
                    irreversible = true;
                }
                if self.kinds[slot] == Kind::Pawn {
                    self.moved |= 1 << slot;
                    irreversible = true;
                }
                self.table_sum =
                    hash::sub(self.table_sum, hash::tile_term(old_state, from.x, from.y));
                self.table_sum = hash::add(
                    self.table_sum,
                    hash::tile_term(self.state(slot), to.x, to.y),
                );
                self.halfmove = if irreversible { 0 } else { self.halfmove + 1 };
            }
        }
        // Counted without a branch: the sides alternate, but with the
        // random branches of a playout's turn between, a test of the side
        // was mispredicted about every third move.
        self.fullmove += us.index() as u32;
        self.side = us.opposite();
        #[cfg(debug_assertions)]
        self.assert_consistent();
        Undo {
            captured: table.captured,
            ..undo
        }
    }

    /// Takes back `mv`, the last move made, with the [`Undo`] its
    /// [`make`](Position::make) returned.
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        self.side = self.side.opposite();
        self.fullmove -= self.side.index() as u32;
        let slot = self.board[mv.to().cell()];
        if let Move::Place { piece, .. } = mv {
            self.piles[self.side.index()].add(piece.kind);
        }
        self.revert_on_table(
            mv,
            TableUndo {
                slot,
                captured: undo.captured,
            },
        );
        self.moved = undo.moved;
        self.halfmove = undo.halfmove;
        self.table_sum = undo.table_sum;
        #[cfg(debug_assertions)]
        self.assert_consistent();
    }

    /// Moves tiles on the table only: no piles, clocks, side or hash. Used
    /// to try a move before keeping it. The adjacency masks are kept: the
    /// flood fills that tried moves need run on them.
    #[inline]
    pub(super) fn apply_to_table(&mut self, mv: Move) -> TableUndo {
        match mv {
            Move::Place { piece, to } => {
                let free = !(self.present | self.captured) & colour_mask(piece.colour);
                let slot = free.trailing_zeros() as usize;
                self.put(slot, piece.kind, to);
                self.link(slot);
                self.moved &= !(1 << slot);
                if piece.kind == Kind::King {
                    self.kings[piece.colour.index()] = slot as u8;
                }
                TableUndo {
                    slot: slot as u8,
                    captured: NO_SLOT,
                }
            }
            Move::Step { from, to } => {
                let slot = self.board[from.cell()];
                let captured = self.board[to.cell()];
                if captured != NO_SLOT {
                    self.unlink(captured as usize);
                    self.lift(captured as usize);
                    self.captured |= 1 << captured;
                }
                self.move_tile(slot as usize, to);
                TableUndo { slot, captured }
            }
        }
    }

    /// Undoes `apply_to_table`.
    #[inline]
    pub(super) fn revert_on_table(&mut self, mv: Move, undo: TableUndo) {
        let slot = undo.slot as usize;
        match mv {
            Move::Place { piece, .. } => {
                self.unlink(slot);
                self.lift(slot);
                if piece.kind == Kind::King {
                    self.kings[piece.colour.index()] = NO_SLOT;
                }
            }
            Move::Step { from, to } => {
                self.move_tile(slot, from);
                if undo.captured != NO_SLOT {
                    let c = undo.captured as usize;
                    self.captured &= !(1 << c);
                    self.put(c, self.kinds[c], to);
                    self.link(c);
                }
            }
        }
    }

    /// Records the tile in `slot` in the adjacency masks of the tiles
    /// around it and its own.
    #[inline]
    fn link(&mut self, slot: usize) {
        let neighbours = self.neighbour_slots(self.square_of(slot));
        for n in Slots(neighbours) {
            self.adjacent[n] |= 1 << slot;
        }
        self.adjacent[slot] = neighbours;
    }

    /// Moves the tile in `slot` to the empty `square`. Only the tiles it
    /// touches before or after but not both change their adjacency
    /// masks: one loop over them, where unlinking and linking again
    /// looped twice over the tiles around, and mispredicted both ends.
    #[inline]
    fn move_tile(&mut self, slot: usize, square: Square) {
        let before = self.adjacent[slot];
        self.lift(slot);
        self.put(slot, self.kinds[slot], square);
        let after = self.neighbour_slots(square);
        for n in Slots(before ^ after) {
            self.adjacent[n] ^= 1 << slot;
        }
        self.adjacent[slot] = after;
    }

    /// Removes the tile in `slot` from the adjacency masks.
    #[inline]
    fn unlink(&mut self, slot: usize) {
        for n in Slots(self.adjacent[slot]) {
            self.adjacent[n] &= !(1 << slot);
        }
        self.adjacent[slot] = 0;
    }

    /// Puts a tile of `kind` in `slot` on the empty `square`.
    #[inline]
    fn put(&mut self, slot: usize, kind: Kind, square: Square) {
        self.euler += euler_gain(self.ring(square));
        self.present |= 1 << slot;
        self.kinds[slot] = kind;
        self.by_kind[kind.index()] |= 1 << slot;
        self.xs[slot] = square.x;
        self.ys[slot] = square.y;
        self.board[square.cell()] = slot as u8;
        self.rows[(square.y & 63) as usize] |= 1 << (square.x & 63);
        let (column, diagonal, anti_diagonal, bit) = Self::lines_of(square);
        self.columns[column] |= bit;
        self.occupied_rows |= bit;
        self.occupied_columns |= 1 << column;
        self.diagonals[diagonal] |= bit;
        self.anti_diagonals[anti_diagonal] |= bit;
    }

    /// Takes the tile in `slot` off the table.
    #[inline]
    fn lift(&mut self, slot: usize) {
        let square = self.square_of(slot);
        self.present &= !(1 << slot);
        self.by_kind[self.kinds[slot].index()] &= !(1 << slot);
        self.board[square.cell()] = NO_SLOT;
        let row = &mut self.rows[(square.y & 63) as usize];
        *row &= !(1 << (square.x & 63));
        if *row == 0 {
            self.occupied_rows &= !(1 << (square.y & 63));
        }
        let (column, diagonal, anti_diagonal, bit) = Self::lines_of(square);
        self.columns[column] &= !bit;
        if self.columns[column] == 0 {
            self.occupied_columns &= !(1 << column);
        }
        self.diagonals[diagonal] &= !bit;
        self.anti_diagonals[anti_diagonal] &= !bit;
        self.euler -= euler_gain(self.ring(square));
    }

    /// True when the table is one group enclosing no empty square (no
    /// hole, squares touching at sides counted as one region): then a
    /// tile holds the table together exactly when the tiles around it
    /// do not hold together among themselves. A path between two of them
    /// around the tile would close a loop around an empty square beside it.
    #[inline(always)]
    pub(super) fn without_holes(&self) -> bool {
        self.euler == 4
    }

    /// [`Position::without_holes`] for the table less the tile on
    /// `square`, without lifting it.
    #[inline(always)]
    pub(super) fn without_holes_less(&self, square: Square) -> bool {
        self.euler - euler_gain(self.ring(square)) == 4
    }

    /// [`Position::without_holes`] for the table after the tile on `from`
    /// steps to `to` (capturing whatever stands there), without making
    /// the step.
    #[inline(always)]
    pub(super) fn without_holes_after_step(&self, from: Square, to: Square) -> bool {
        let mut euler = self.euler - euler_gain(self.ring(from));
        if !self.occupied(to) {
            let ring = self.ring(to) & !ring_bit_if_within(from.x - to.x, from.y - to.y);
            euler += euler_gain(ring);
        }
        euler == 4
    }

    fn recompute_sums(&mut self) {
        self.table_sum = 0;
        for slot in Slots(self.present) {
            let (x, y) = (self.xs[slot], self.ys[slot]);
            self.table_sum = hash::add(self.table_sum, hash::tile_term(self.state(slot), x, y));
        }
    }

    /// The hash state of the tile in `slot`: kind and colour, and for
    /// pawns whether they have moved.
    #[inline(always)]
    fn state(&self, slot: usize) -> usize {
        let kind = self.kinds[slot];
        let shape = if kind == Kind::Pawn && self.moved & (1 << slot) != 0 {
            6
        } else {
            kind.index()
        };
        (slot >> 4) * 7 + shape
    }

    #[inline(always)]
    pub(super) fn square_of(&self, slot: usize) -> Square {
        Square::new(self.xs[slot], self.ys[slot])
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
            moved: self.moved & (1 << slot) != 0,
        }
    }

    /// The column, diagonal and anti-diagonal of `square` on the torus,
    /// and its bit in each.
    #[inline(always)]
    fn lines_of(square: Square) -> (usize, usize, usize, u64) {
        let (x, y) = (square.x & 63, square.y & 63);
        (
            x as usize,
            ((x - y) & 63) as usize,
            ((x + y) & 63) as usize,
            1 << y,
        )
    }

    /// How far from `from` the first tile stands along line `line`, in
    /// the order of `ORTHOGONAL` then `DIAGONAL`: 1 for the next square.
    /// Meaningful up to 32 squares away (see the module comment); beyond,
    /// it may see the far side of the torus or nothing (64 or more).
    #[inline(always)]
    pub(super) fn blocker_distance(&self, from: Square, line: usize) -> u32 {
        let (column, diagonal, anti_diagonal, _) = Self::lines_of(from);
        let (x, y) = ((from.x & 63) as u32, (from.y & 63) as u32);
        match line {
            0 => ahead(self.rows[y as usize], x),
            1 => behind(self.rows[y as usize], x),
            2 => ahead(self.columns[column], y),
            3 => behind(self.columns[column], y),
            4 => ahead(self.diagonals[diagonal], y),
            5 => ahead(self.anti_diagonals[anti_diagonal], y),
            6 => behind(self.anti_diagonals[anti_diagonal], y),
            _ => behind(self.diagonals[diagonal], y),
        }
    }

    /// [`Position::blocker_distance`] along the four orthogonal lines: a
    /// rook needs no more.
    #[inline(always)]
    pub(super) fn orthogonal_blocker_distances(&self, from: Square) -> [u32; 4] {
        [
            self.blocker_distance(from, 0),
            self.blocker_distance(from, 1),
            self.blocker_distance(from, 2),
            self.blocker_distance(from, 3),
        ]
    }

    /// [`Position::blocker_distance`] along the four diagonal lines: a
    /// bishop needs no more.
    #[inline(always)]
    pub(super) fn diagonal_blocker_distances(&self, from: Square) -> [u32; 4] {
        [
            self.blocker_distance(from, 4),
            self.blocker_distance(from, 5),
            self.blocker_distance(from, 6),
            self.blocker_distance(from, 7),
        ]
    }

    /// How far from `from` the last square lies, along each orthogonal
    /// line in the order of `ORTHOGONAL`, that touches a tile besides the
    /// one on `from` (0 when none does): a step further lands beside no
    /// tile, so it is never a candidate.
    #[inline(always)]
    pub(super) fn orthogonal_touch_distances(&self, from: Square) -> [u32; 4] {
        let (x, y) = ((from.x & 63) as u32, (from.y & 63) as u32);
        let row = |dy: i32| self.rows[(from.y.wrapping_add(dy) & 63) as usize];
        // A tile k squares along on the line or beside it touches the
        // square k + 1 along at the farthest.
        let rows = row(-1) | row(1) | row(0) & !(1 << x);
        let columns = self.columns_beside(from);
        [
            farthest_ahead(rows, x),
            farthest_behind(rows, x),
            farthest_ahead(columns, y),
            farthest_behind(columns, y),
        ]
    }

    /// [`Position::orthogonal_touch_distances`] up the column of `from`
    /// (`north`) or down it: a pawn's steps need only this line.
    #[inline(always)]
    pub(super) fn column_touch_distance(&self, from: Square, north: bool) -> u32 {
        let columns = self.columns_beside(from);
        let y = (from.y & 63) as u32;
        if north {
            farthest_ahead(columns, y)
        } else {
            farthest_behind(columns, y)
        }
    }

    /// The tiles of the column of `from` and the two beside it, by row,
    /// but the one on `from`.
    #[inline(always)]
    fn columns_beside(&self, from: Square) -> u64 {
        let column = |dx: i32| self.columns[(from.x.wrapping_add(dx) & 63) as usize];
        column(-1) | column(1) | column(0) & !(1 << (from.y & 63))
    }

    /// [`Position::orthogonal_touch_distances`] along the four diagonal
    /// lines.
    #[inline(always)]
    pub(super) fn diagonal_touch_distances(&self, from: Square) -> [u32; 4] {
        let (_, d, a, bit) = Self::lines_of(from);
        let y = (from.y & 63) as u32;
        let diagonal = |j: usize| self.diagonals[(d + j) & 63];
        let anti = |j: usize| self.anti_diagonals[(a + j) & 63];
        let (d0, a0) = (diagonal(0) & !bit, anti(0) & !bit);
        // Counted by row: a tile k rows along, on the line's own diagonal
        // or on one of the two next to it further along in x, touches the
        // square k + 1 along at the farthest; on the next diagonal back in
        // x, the square k; two back, k − 1. Each word is turned so that a
        // tile's bit lies one row short of the farthest square it touches.
        let north = |own: u64, [ahead1, ahead2, back1, back2]: [u64; 4]| {
            own | ahead1 | ahead2 | back1.rotate_right(1) | back2.rotate_right(2)
        };
        let south = |own: u64, [ahead1, ahead2, back1, back2]: [u64; 4]| {
            own | ahead1 | ahead2 | back1.rotate_left(1) | back2.rotate_left(2)
        };
        // Diagonal numbers grow with x, anti-diagonal numbers too.
        let north_east = north(d0, [diagonal(1), diagonal(2), diagonal(63), diagonal(62)]);
        let south_west = south(d0, [diagonal(63), diagonal(62), diagonal(1), diagonal(2)]);
        let north_west = north(a0, [anti(63), anti(62), anti(1), anti(2)]);
        let south_east = south(a0, [anti(1), anti(2), anti(63), anti(62)]);
        [
            farthest_ahead(north_east, y),
            farthest_ahead(north_west, y),
            farthest_behind(south_east, y),
            farthest_behind(south_west, y),
        ]
    }

    /// How far from `from` the first tile stands up its column (`north`)
    /// or down it, as [`Position::blocker_distance`] counts: a pawn's
    /// steps need only this line.
    #[inline(always)]
    pub(super) fn column_blocker_distance(&self, from: Square, north: bool) -> u32 {
        self.blocker_distance(from, if north { 2 } else { 3 })
    }

    /// True when a tile stands on `square` (near the group; see the module
    /// comment).
    #[inline(always)]
    pub(super) fn occupied(&self, square: Square) -> bool {
        self.rows[(square.y & 63) as usize] & (1 << (square.x & 63)) != 0
    }

    /// The 3 × 3 occupancy around `square`.
    #[inline(always)]
    pub(super) fn ring(&self, square: Square) -> Ring {
        let shift = (square.x.wrapping_sub(1) & 63) as u32;
        let row = |dy: i32| {
            (self.rows[(square.y.wrapping_add(dy) & 63) as usize].rotate_right(shift) & 7) as Ring
        };
        row(-1) | row(0) << 3 | row(1) << 6
    }

    /// The slots of the tiles touching `square`.
    #[inline]
    pub(super) fn neighbour_slots(&self, square: Square) -> u32 {
        // All 8 cells are read, with no branch on which are occupied: an
        // empty cell's `NO_SLOT` lands on bit 63, which the end drops.
        let mut slots: u64 = 0;
        for (dx, dy) in KING {
            slots |= 1 << (self.board[square.offset(dx, dy).cell()] & 63);
        }
        slots as u32
    }

    /// The tiles of `within` reached from `seed` through touching tiles
    /// of `within`.
    #[inline]
    fn flood(&self, seed: u32, within: u32) -> u32 {
        self.flood_until(seed, within, within)
    }

    /// True when the tiles on the table, less the slots in `skip`, are one
    /// group (or none).
    #[inline]
    pub(super) fn connected_without(&self, skip: u32) -> bool {
        let all = self.present & !skip;
        self.flood(all & all.wrapping_neg(), all) == all
    }

    /// The tiles that hold the table together: without any one of them the
    /// rest falls apart. Hopcroft and Tarjan's depth-first search, on the
    /// adjacency masks.
    pub(super) fn articulation_points(&self, skip: u32) -> u32 {
        let all = self.present & !skip;
        if all.count_ones() < 3 {
            return 0;
        }
        let mut order = [0u8; 32];
        let mut low = [0u8; 32];
        let mut parent = [NO_SLOT; 32];
        let mut stack: [(u8, u32); 32] = [(0, 0); 32];
        let root = all.trailing_zeros() as usize;
        let mut depth = 1;
        let mut time = 1;
        let mut root_children = 0;
        let mut points = 0;
        order[root] = 1;
        low[root] = 1;
        stack[0] = (root as u8, self.adjacent[root] & all);
        while depth > 0 {
            let (v, rest) = stack[depth - 1];
            let v = v as usize;
            if rest != 0 {
                let w = rest.trailing_zeros() as usize;
                stack[depth - 1].1 = rest & (rest - 1);
                if order[w] == 0 {
                    time += 1;
                    order[w] = time;
                    low[w] = time;
                    parent[w] = v as u8;
                    stack[depth] = (w as u8, self.adjacent[w] & all);
                    depth += 1;
                } else if w != parent[v] as usize {
                    low[v] = low[v].min(order[w]);
                }
            } else {
                depth -= 1;
                let p = parent[v];
                if p != NO_SLOT {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                    if p == root {
                        root_children += 1;
                    } else if low[v] >= order[p] {
                        points |= 1 << p;
                    }
                }
            }
        }
        if root_children > 1 {
            points |= 1 << root;
        }
        points
    }

    /// The groups the table falls into without the tile in `slot`.
    pub(super) fn parts_without(&self, slot: usize) -> ArrayVec<u32, 4> {
        let mut parts = ArrayVec::new();
        let neighbours = self.adjacent[slot];
        let mut left = self.present & !(1 << slot);
        // Tiles around it in different groups of its ring lie in different
        // parts, unless the table has holes. Flooded from one tile of each
        // of two groups by turns, the smaller part is complete first:
        // nearly always the few tiles a holding tile hangs on to, where a
        // single flood went through the rest of the table as often as not.
        let from = self.square_of(slot);
        let groups = ring_groups(self.ring(from));
        if groups[1] != 0 {
            let seed = |group: u16| {
                let cell = group.trailing_zeros() as i32;
                1 << self.board[from.offset(cell % 3 - 1, cell / 3 - 1).cell()]
            };
            if let Some(part) = self.race(seed(groups[0]), seed(groups[1]), left) {
                parts.push(part);
                left &= !part;
                // With two groups around it, the rest is the other part.
                if groups[2] == 0 {
                    parts.push(left);
                    return parts;
                }
            }
        }
        while left != 0 {
            // Each part holds a neighbour of the tile (the table was one
            // group with it), so once a flood from one neighbour has met
            // all those left, what is left is one part: on a compact
            // table the flood stops after a few tiles.
            let targets = neighbours & left;
            let seen = self.flood_until(targets & targets.wrapping_neg(), left, targets);
            if seen & targets == targets {
                parts.push(left);
                break;
            }
            // The tile's 8 neighbours fall into at most 4 groups around it.
            parts.push(seen);
            left &= !seen;
        }
        parts
    }

    /// Floods `within` from the tiles `a` and from the tiles `b`, a tile
    /// of each in turn: the group of whichever is complete first, or
    /// `None` when the two meet, being one group.
    #[inline]
    fn race(&self, a: u32, b: u32, within: u32) -> Option<u32> {
        let (mut seen_a, mut todo_a, mut seen_b, mut todo_b) = (a, a, b, b);
        // One test a round, with no branch on which flood ends it: that
        // is a coin toss.
        while (todo_a != 0) & (todo_b != 0) & (seen_a & seen_b == 0) {
            for (seen, todo) in [(&mut seen_a, &mut todo_a), (&mut seen_b, &mut todo_b)] {
                let slot = todo.trailing_zeros() as usize;
                *todo &= *todo - 1;
                let new = self.adjacent[slot] & within & !*seen;
                *seen |= new;
                *todo |= new;
            }
        }
        let part = std::hint::select_unpredictable(todo_a == 0, seen_a, seen_b);
        // A flood that has run out is a whole group, met or not.
        (todo_a == 0 || todo_b == 0).then_some(part)
    }

    /// The tiles of `within` reached from `seed` through touching tiles of
    /// `within`, or some of them: the flood may stop once it has met every
    /// tile of `targets`.
    #[inline]
    fn flood_until(&self, seed: u32, within: u32, targets: u32) -> u32 {
        let mut seen = seed;
        let mut todo = seed;
        while todo != 0 && seen & targets != targets {
            let slot = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let new = self.adjacent[slot] & within & !seen;
            seen |= new;
            todo |= new;
        }
        seen
    }

    /// True when the tile in `slot` can leave the table (be captured, or
    /// move off to capture) and the rest stays one group.
    #[inline]
    pub(super) fn removable(&self, slot: usize) -> bool {
        // Without holes the ring test is exact: no flood.
        ring_connected(self.ring(self.square_of(slot)))
            || (!self.without_holes() && self.connected_without(1 << slot))
    }

    /// True when `colour`'s king is on the table and some enemy tile
    /// attacks it by a capture that keeps the table one group.
    pub(super) fn king_capturable(&self, colour: Colour) -> bool {
        let king = self.kings[colour.index()];
        if king == NO_SLOT {
            return false;
        }
        Slots(self.attackers_of(king as usize)).any(|s| self.removable(s))
    }

    /// The enemy tiles that could capture the tile in `slot` by their
    /// movement, path clear; whether the capture keeps the table together
    /// is not considered.
    #[inline]
    pub(super) fn attackers_of(&self, slot: usize) -> u32 {
        self.attackers(Self::colour_of(slot).opposite(), self.square_of(slot))
    }

    /// `enemy`'s tiles that attack `target` (a square near the group) by
    /// their movement, path clear, as a set of slots.
    ///
    /// Every test is arithmetic with no branch: a jump on every tile's
    /// kind, or on whether it attacks, would be mispredicted about every
    /// third tile. How all of `enemy`'s tiles lie from the target is
    /// worked out at once ([`Position::bearings`]) and kept for the kinds
    /// that attack so; pawns are read off the two squares they would
    /// attack from, and a slider's line only once the slider is known to
    /// stand on it.
    #[inline]
    pub(super) fn attackers(&self, enemy: Colour, target: Square) -> u32 {
        self.attackers_through(enemy, target, |line| self.blocker_distance(target, line))
    }

    /// The enemy tiles that attack `to` once the side to move's king has
    /// stepped there from `from`, the square next to it: as
    /// [`Position::attackers`], with the king's origin empty. Whether a
    /// capture keeps the table together is not considered.
    pub(super) fn attackers_after_king_step(&self, from: Square, to: Square) -> u32 {
        // Only the line from `to` through `from` changes: its first tile
        // stands beyond `from`.
        let through = line_towards(to, from);
        self.attackers_through(self.side.opposite(), to, |line| {
            if line == through {
                1 + self.blocker_distance(from, line)
            } else {
                self.blocker_distance(to, line)
            }
        })
    }

    /// The attackers of `target` when the first tile along each line from
    /// it stands at `blocker(line)` (see [`Position::blocker_distance`]):
    /// read only for the lines an enemy slider stands on.
    #[inline(always)]
    fn attackers_through(
        &self,
        enemy: Colour,
        target: Square,
        blocker: impl Fn(usize) -> u32,
    ) -> u32 {
        let of = |kind: Kind| self.tiles_of(enemy, kind);
        // Two squares hold every pawn that attacks the target: cheaper to
        // read than to ask each of up to 8 pawns. Near the group no far
        // tile shares their cells, and an empty cell's `NO_SLOT` lands on
        // bit 63, which the end drops: no branch.
        let f = enemy.forward();
        let mut pawns: u64 = 0;
        for dx in [-1, 1] {
            pawns |= 1 << (self.board[target.offset(dx, -f).cell()] & 63);
        }
        let mut attackers = pawns as u32 & of(Kind::Pawn);
        let bearings = self.bearings(enemy, target);
        attackers |= bearings.knight & of(Kind::Knight);
        attackers |= bearings.adjacent & of(Kind::King);
        // A slider attacks along the line from the target towards it when
        // it is the first tile on that line: only the lines of the sliders
        // on one are read.
        let clear = |dx: i32, dy: i32| blocker(line_back(dx, dy)) == dx.abs().max(dy.abs()) as u32;
        attackers |= self.attacks_by(bearings.aligned(self.sliders(enemy)), target, clear);
        attackers
    }

    /// `colour`'s sliders standing on a line they ride through `target`.
    #[inline(always)]
    pub(super) fn aligned_sliders(&self, colour: Colour, target: Square) -> u32 {
        self.bearings(colour, target).aligned(self.sliders(colour))
    }

    /// How each of `colour`'s 16 slots lies from `target` (see
    /// [`Bearings`]), all 16 at once, eight AVX2 lanes at a time. Every
    /// search for a king's attackers asks this; it used to loop over the
    /// tiles of each kind, and the processor mispredicted the loops'
    /// exits.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn bearings(&self, colour: Colour, target: Square) -> Bearings {
        use std::arch::x86_64::{
            __m256i, _mm256_abs_epi32, _mm256_and_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi32,
            _mm256_loadu_si256, _mm256_max_epi32, _mm256_movemask_ps, _mm256_or_si256,
            _mm256_set1_epi32, _mm256_sub_epi32,
        };
        let base = 16 * colour.index();
        let (xs, ys) = (&self.xs[base..base + 16], &self.ys[base..base + 16]);
        let mut bearings = Bearings::default();
        for half in 0..2 {
            let lanes = 8 * half..8 * half + 8;
            // SAFETY: AVX2 is enabled for this build (the cfg above, and
            // `main` stops on a processor without it); each load reads the
            // eight `i32`s of a slice of that length, unaligned.
            let [straight, diagonal, knight, adjacent] = unsafe {
                let load = |lanes: &[i32]| _mm256_loadu_si256(lanes.as_ptr().cast::<__m256i>());
                let dx = _mm256_abs_epi32(_mm256_sub_epi32(
                    _mm256_set1_epi32(target.x),
                    load(&xs[lanes.clone()]),
                ));
                let dy = _mm256_abs_epi32(_mm256_sub_epi32(
                    _mm256_set1_epi32(target.y),
                    load(&ys[lanes]),
                ));
                let is = |v: __m256i, n: i32| _mm256_cmpeq_epi32(v, _mm256_set1_epi32(n));
                let zero = |v| is(v, 0);
                let mask = |v: __m256i| _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32;
                [
                    mask(_mm256_or_si256(zero(dx), zero(dy))),
                    mask(_mm256_cmpeq_epi32(dx, dy)),
                    mask(_mm256_or_si256(
                        _mm256_and_si256(is(dx, 1), is(dy, 2)),
                        _mm256_and_si256(is(dx, 2), is(dy, 1)),
                    )),
                    mask(is(_mm256_max_epi32(dx, dy), 1)),
                ]
            };
            let shift = base + 8 * half;
            bearings.straight |= straight << shift;
            bearings.diagonal |= diagonal << shift;
            bearings.knight |= knight << shift;
            bearings.adjacent |= adjacent << shift;
        }
        bearings
    }

    /// [`Position::bearings`] without AVX2: tile by tile.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    #[inline(always)]
    fn bearings(&self, colour: Colour, target: Square) -> Bearings {
        let mut bearings = Bearings::default();
        for slot in Slots(colour_mask(colour)) {
            let (dx, dy) = (
                (target.x - self.xs[slot]).abs(),
                (target.y - self.ys[slot]).abs(),
            );
            bearings.straight |= u32::from((dx == 0) | (dy == 0)) << slot;
            bearings.diagonal |= u32::from(dx == dy) << slot;
            bearings.knight |= u32::from((dx == 1) & (dy == 2) | (dx == 2) & (dy == 1)) << slot;
            bearings.adjacent |= u32::from(dx.max(dy) == 1) << slot;
        }
        bearings
    }

    /// The slots of `colour`'s tiles of `kind` on the table.
    #[inline(always)]
    pub(super) fn tiles_of(&self, colour: Colour, kind: Kind) -> u32 {
        self.present & colour_mask(colour) & self.by_kind[kind.index()]
    }

    /// `colour`'s tiles on the table that slide along ranks and files,
    /// and those that slide along diagonals: its queens are in both.
    #[inline(always)]
    pub(super) fn sliders(&self, colour: Colour) -> (u32, u32) {
        let queens = self.tiles_of(colour, Kind::Queen);
        (
            self.tiles_of(colour, Kind::Rook) | queens,
            self.tiles_of(colour, Kind::Bishop) | queens,
        )
    }

    /// The tiles of `tiles` for which `attacks` holds of the step from
    /// the tile to `target`.
    #[inline(always)]
    fn attacks_by(&self, tiles: u32, target: Square, attacks: impl Fn(i32, i32) -> bool) -> u32 {
        let mut set = 0;
        for s in Slots(tiles) {
            let (dx, dy) = (target.x - self.xs[s], target.y - self.ys[s]);
            set |= u32::from(attacks(dx, dy)) << s;
        }
        set
    }

    /// The smallest box holding every tile: (min x, min y, max x, max y).
    pub(super) fn bounds(&self) -> (i32, i32, i32, i32) {
        if self.present == 0 {
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
        let any = self.present.trailing_zeros() as usize;
        let (min_x, max_x) = span(self.occupied_columns, self.xs[any]);
        let (min_y, max_y) = span(self.occupied_rows, self.ys[any]);
        (min_x, min_y, max_x, max_y)
    }

    /// True when a tile other than the one on `except` touches `square`.
    #[inline(always)]
    pub(super) fn has_neighbour_besides(&self, square: Square, except: Square) -> bool {
        self.ring_besides(square, except) != 0
    }

    /// The tiles around `square` (not on it) but the one on `except`.
    #[inline(always)]
    pub(super) fn ring_besides(&self, square: Square, except: Square) -> Ring {
        let except = ring_bit_if_within(except.x - square.x, except.y - square.y);
        self.ring(square) & !CENTRE & !except
    }
}

/// For the direction from a tile to a target, by `3 (sign dy + 1) + sign dx
/// + 1`: the line from the target back towards the tile, in the order of
/// [`Position::blocker_distance`]. The centre is never asked.
const LINE_TOWARDS: [usize; 9] = [4, 2, 5, 0, 0, 1, 6, 3, 7];

/// The line from `from` towards `to`, another square on a line with it,
/// in the order of [`Position::blocker_distance`].
#[inline(always)]
pub(super) fn line_towards(from: Square, to: Square) -> usize {
    line_back(from.x - to.x, from.y - to.y)
}

/// The line from a target back towards a tile on a line with it, the
/// target lying `dx, dy` from the tile (see [`LINE_TOWARDS`]).
#[inline(always)]
fn line_back(dx: i32, dy: i32) -> usize {
    LINE_TOWARDS[(3 * (dy.signum() + 1) + dx.signum() + 1) as usize]
}

/// How far up the torus line `line` from bit `at` the first tile stands:
/// with the bit of the origin at `at`, the square `k` further up the word
/// is bit `k` of the line rotated right by `at`, and the origin drops out.
#[inline(always)]
fn ahead(line: u64, at: u32) -> u32 {
    (line.rotate_right(at) >> 1).trailing_zeros() + 1
}

/// How far down the torus line `line` from bit `at` the first tile
/// stands: the square `k` further down is bit `63 − k` of the line
/// rotated left by `63 − at`.
#[inline(always)]
fn behind(line: u64, at: u32) -> u32 {
    (line.rotate_left(63 - at) << 1).leading_zeros() + 1
}

/// How far up the torus line `line` from bit `at` its last tile stands,
/// plus one (0 with none): the square just past it is the last the tiles
/// of a line touch. Only the 32 bits up from `at` are read, as every
/// tile of the group lies within 31 squares.
#[inline(always)]
fn farthest_ahead(line: u64, at: u32) -> u32 {
    32 - (line.rotate_right(at) as u32).leading_zeros()
}

/// [`farthest_ahead`] down the line: the square `k` further down is bit
/// `31 − k` of the top half of the line rotated left by `63 − at`.
#[inline(always)]
fn farthest_behind(line: u64, at: u32) -> u32 {
    32 - ((line.rotate_left(63 - at) >> 32) as u32).trailing_zeros()
}

/// Iterates over the set bits of a slot mask.
#[derive(Clone, Copy)]
pub(super) struct Slots(pub(super) u32);

impl Iterator for Slots {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let slot = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(slot)
    }
}

/// True when the tiles are one 8-connected group (or none), on true
/// coordinates: used before the tiles are known to fit the torus.
fn tiles_connected(tiles: &[Tile]) -> bool {
    let Some(first) = tiles.first() else {
        return true;
    };
    let mut seen = vec![false; tiles.len()];
    let mut todo = vec![first.square];
    seen[0] = true;
    while let Some(square) = todo.pop() {
        for (i, tile) in tiles.iter().enumerate() {
            if !seen[i] && tile.square.is_adjacent(square) {
                seen[i] = true;
                todo.push(tile.square);
            }
        }
    }
    seen.iter().all(|&s| s)
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

/// Why a set of parts is not a CHEX position (RULES.md section 7).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A coordinate beyond ±1,000,000,000.
    OutOfRange(Tile),
    /// A `*` on a tile that is not a pawn.
    MovedNonPawn(Tile),
    /// A side without exactly one king in pile and on table together.
    KingCount {
        /// Whose king.
        colour: Colour,
        /// How many were found.
        count: usize,
    },
    /// More tiles of a kind than a side's set holds.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many were found in pile and on table together.
        count: usize,
    },
    /// Two tiles on one square.
    SquareTwice(Square),
    /// The table is not one group.
    Disconnected,
    /// An empty table anywhere but at the start.
    EmptyTable,
    /// The side that just moved has no tile on the table.
    NoTileOfLastMover,
    /// The side not to move is in check.
    OpponentInCheck,
    /// The fullmove number is 0.
    FullmoveZero,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tile = |t: &Tile| format!("{}{}", t.piece.letter(), t.square);
        match self {
            PositionError::OutOfRange(t) => write!(
                f,
                "tile {} is off the table: coordinates lie within ±1000000000",
                tile(t)
            ),
            PositionError::MovedNonPawn(t) => {
                write!(f, "tile {}* is marked as moved, but only pawns carry '*'", tile(t))
            }
            PositionError::KingCount { colour, count } => {
                write!(f, "{colour} has {count} kings in pile and on table; it must have exactly one")
            }
            PositionError::TooMany { piece, count } => write!(
                f,
                "{count} tiles '{}' in pile and on table; the set holds {}",
                piece.letter(),
                piece.kind.set_count()
            ),
            PositionError::SquareTwice(s) => write!(f, "two tiles on square {s}"),
            PositionError::Disconnected => write!(f, "the tiles on the table are not one group"),
            PositionError::EmptyTable => write!(
                f,
                "the table is empty, which only the start position allows (both piles full, White to move)"
            ),
            PositionError::NoTileOfLastMover => write!(
                f,
                "the side not to move has no tile on the table, so it cannot have just moved"
            ),
            PositionError::OpponentInCheck => write!(f, "the side not to move is in check"),
            PositionError::FullmoveZero => write!(f, "the fullmove number starts at 1"),
        }
    }
}

impl std::error::Error for PositionError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::playout::{random_turn, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

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
    fn ring_holders(pos: &Position) -> u32 {
        Slots(pos.present)
            .filter(|&s| !ring_connected(pos.ring(pos.square_of(s))))
            .fold(0, |set, s| set | 1 << s)
    }

    /// The groups of the tiles but the one in `skip`, by squares alone:
    /// a walk from each tile not yet reached to the tiles next to it.
    fn groups_by_squares(pos: &Position, skip: usize) -> Vec<u32> {
        let tiles: Vec<usize> = Slots(pos.present & !(1 << skip)).collect();
        let mut groups = Vec::new();
        let mut reached = 0u32;
        for &start in &tiles {
            if reached & 1 << start != 0 {
                continue;
            }
            let mut group = 1u32 << start;
            let mut stack = vec![start];
            while let Some(s) = stack.pop() {
                for &t in &tiles {
                    let near = pos.square_of(s).is_adjacent(pos.square_of(t));
                    if near && group & 1 << t == 0 {
                        group |= 1 << t;
                        stack.push(t);
                    }
                }
            }
            reached |= group;
            groups.push(group);
        }
        groups.sort();
        groups
    }

    /// `parts_without` finds the groups a walk by squares finds, for
    /// every tile of positions with and without holes.
    #[test]
    fn parts_without_each_tile_are_the_groups_left() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut split, mut holed, mut tried) = (0, 0, 0);
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let Turn::Play(mv) = random_turn(&mut pos, &mut rng) else {
                    break;
                };
                pos.make(mv);
                for slot in Slots(pos.present) {
                    let mut parts = pos.parts_without(slot).to_vec();
                    parts.sort();
                    assert_eq!(parts, groups_by_squares(&pos, slot), "{pos} less {slot}");
                    split += usize::from(parts.len() > 1);
                    holed += usize::from(!pos.without_holes());
                    tried += 1;
                }
            }
        }
        assert!(
            split > 10_000 && holed > 5_000 && tried > 30_000,
            "{split} split and {holed} with holes of {tried}"
        );
    }

    /// The Euler number kept square by square is one less the holes, and
    /// without holes the ring test finds exactly the tiles that hold the
    /// table together: in positions with and without holes, and in every
    /// position of random games, after make and after unmake.
    #[test]
    fn holes_and_holding_tiles() {
        let check = |pos: &Position| {
            if pos.present == 0 {
                assert_eq!(pos.euler, 0);
                return 0;
            }
            let holes = holes_by_flood(pos);
            assert_eq!(pos.euler, 4 * (1 - holes as i32), "{pos}");
            assert_eq!(pos.without_holes(), holes == 0, "{pos}");
            if holes == 0 {
                assert_eq!(ring_holders(pos), pos.articulation_points(0), "{pos}");
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
                assert_ne!(ring_holders(&pos), pos.articulation_points(0), "{position}");
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let (mut with_holes, mut positions) = (0, 0);
        for _ in 0..60 {
            let mut pos = Position::startpos();
            for _ in 0..200 {
                let Turn::Play(mv) = random_turn(&mut pos, &mut rng) else {
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
                match random_turn(&mut pos, &mut rng) {
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
