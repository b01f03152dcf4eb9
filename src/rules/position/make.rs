//! Making and unmaking moves: the tile storage's updates (board, line
//! words, adjacency masks, Euler number) and the hash, clocks and piles
//! around them. `apply_to_table` alone moves tiles without the rest, for
//! trying a move before keeping it.

use super::{Position, TableUndo, Undo, NO_SLOT};
use crate::rules::hash;
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::ring::euler_gain;
use crate::rules::square::Square;
use crate::rules::tile_set::TileSet;

impl Position {
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
                    self.moved.insert(slot);
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
        // would be mispredicted often.
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
    pub(in crate::rules) fn apply_to_table(&mut self, mv: Move) -> TableUndo {
        match mv {
            Move::Place { piece, to } => {
                let free = !(self.present | self.captured) & TileSet::colour(piece.colour);
                let slot = free.lowest();
                self.put(slot, piece.kind, to);
                self.link(slot);
                self.moved.remove(slot);
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
                    self.captured.insert(captured as usize);
                }
                self.move_tile(slot as usize, to);
                TableUndo { slot, captured }
            }
        }
    }

    /// Undoes `apply_to_table`.
    #[inline]
    pub(in crate::rules) fn revert_on_table(&mut self, mv: Move, undo: TableUndo) {
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
                    self.captured.remove(c);
                    self.put(c, self.kinds[c], to);
                    self.link(c);
                }
            }
        }
    }

    /// Records the tile in `slot` in the adjacency masks of the tiles
    /// around it and its own.
    #[inline]
    pub(super) fn link(&mut self, slot: usize) {
        let neighbours = self.neighbour_slots(self.square_of(slot));
        for n in neighbours {
            self.adjacent[n].insert(slot);
        }
        self.adjacent[slot] = neighbours;
    }

    /// Moves the tile in `slot` to the empty `square`. Only the tiles it
    /// touches before or after but not both change their adjacency
    /// masks: one loop over them, not one to unlink and one to link.
    #[inline]
    fn move_tile(&mut self, slot: usize, square: Square) {
        let before = self.adjacent[slot];
        self.vacate(self.square_of(slot));
        self.occupy(slot, square);
        let after = self.neighbour_slots(square);
        for n in before ^ after {
            self.adjacent[n] ^= TileSet::one(slot);
        }
        self.adjacent[slot] = after;
    }

    /// Removes the tile in `slot` from the adjacency masks.
    #[inline]
    fn unlink(&mut self, slot: usize) {
        for n in self.adjacent[slot] {
            self.adjacent[n].remove(slot);
        }
        self.adjacent[slot] = TileSet::EMPTY;
    }

    /// Puts a tile of `kind` in `slot` on the empty `square`.
    #[inline]
    pub(super) fn put(&mut self, slot: usize, kind: Kind, square: Square) {
        self.present.insert(slot);
        self.kinds[slot] = kind;
        self.by_kind[kind.index()].insert(slot);
        self.occupy(slot, square);
    }

    /// Stands the tile in `slot` on the empty `square` in the storage by
    /// square: board, line words, Euler number. A move between squares
    /// changes nothing else.
    #[inline]
    fn occupy(&mut self, slot: usize, square: Square) {
        self.euler += euler_gain(self.ring(square));
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
    pub(super) fn lift(&mut self, slot: usize) {
        self.present.remove(slot);
        self.by_kind[self.kinds[slot].index()].remove(slot);
        self.vacate(self.square_of(slot));
    }

    /// Empties `square` in the storage by square ([`Position::occupy`]).
    #[inline]
    fn vacate(&mut self, square: Square) {
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
}
