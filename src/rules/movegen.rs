//! Legal move generation.
//!
//! Two questions decide whether a candidate is legal: does the table stay
//! one group (the connection rule), and is the mover's king safe from a
//! connected capture (check). Both are answered cheaply for nearly every
//! candidate:
//!
//! - A tile whose neighbours hold together without it (see
//!   `connectivity`) may move to any square touching another tile, and may
//!   capture anywhere: after a capture the occupied squares are exactly the
//!   old ones less the mover's origin. Only tiles that hold the table
//!   together need a flood fill, and only for their non-capturing moves.
//! - While no enemy tile attacks the king by movement, only king moves and
//!   moves off a line through the king can expose it; everything else is
//!   safe without a test. Otherwise every candidate is tried on the table.

use super::moves::Move;
use super::piece::{Colour, Kind, Piece};
use super::position::{colour_mask, Position, Slots, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use super::square::Square;
use arrayvec::ArrayVec;

/// An upper bound on the legal moves of any position: at most 6 kinds ×
/// 128 squares around 31 tiles, plus the piece moves of 16 tiles.
pub const MAX_MOVES: usize = 2048;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// How much testing a candidate needs to be known not to expose the king.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KingGuard {
    /// The mover's king is in its pile: it can never be in check.
    Absent,
    /// No enemy tile attacks the king by movement: only king moves and
    /// moves from a line through the king need a test.
    Quiet(Square),
    /// Some enemy tile attacks the king by movement: test every move.
    Threatened,
}

/// The box within which any legal destination lies: one square around
/// every tile.
#[derive(Clone, Copy)]
struct Reach {
    min_x: i32,
    min_y: i32,
    max_x: i32,
    max_y: i32,
}

impl Reach {
    #[inline(always)]
    fn contains(&self, s: Square) -> bool {
        s.x >= self.min_x && s.x <= self.max_x && s.y >= self.min_y && s.y <= self.max_y
    }
}

impl Position {
    /// Every legal move of the side to move: each placement of each kind
    /// left in its pile, and each legal move of its tiles on the table.
    ///
    /// Drawing itself is not a move here: see RULES.md section 8, where a
    /// draw counts once per kind and square, like a drop.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.clone().generate_legal(&mut list);
        list
    }

    /// The legal placements of a tile of `kind` the side to move has just
    /// drawn; empty when it cannot be placed.
    pub fn legal_placements(&self, kind: Kind) -> MoveList {
        let mut list = MoveList::new();
        self.clone().generate_placements(kind, &mut list);
        list
    }

    /// True when `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place { piece, .. } => {
                piece.colour == self.side
                    && self.pile(self.side).count(piece.kind) > 0
                    && self.legal_placements(piece.kind).contains(&mv)
            }
            Move::Step { .. } => self.legal_moves().contains(&mv),
        }
    }

    /// Appends every legal move to `list`.
    ///
    /// Takes `&mut self` because candidates are tried on the table; the
    /// position is left exactly as it was.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let guard = self.king_guard();
        self.placements(guard, self.piles[self.side.index()], list);
        self.steps(guard, list);
    }

    /// Appends the legal placements of a drawn `kind` to `list`.
    pub fn generate_placements(&mut self, kind: Kind, list: &mut MoveList) {
        let mut pile = super::pile::Pile::EMPTY;
        pile.add(kind);
        let guard = self.king_guard();
        self.placements(guard, pile, list);
    }

    pub(super) fn king_guard(&self) -> KingGuard {
        match self.king_square(self.side) {
            None => KingGuard::Absent,
            Some(_) if self.king_attacked_by_movement(self.side) => KingGuard::Threatened,
            Some(king) => KingGuard::Quiet(king),
        }
    }

    fn reach(&self) -> Reach {
        let (min_x, min_y, max_x, max_y) = self.bounds();
        Reach {
            min_x: min_x - 1,
            min_y: min_y - 1,
            max_x: max_x + 1,
            max_y: max_y + 1,
        }
    }

    /// True when, after `mv` is played on the table, the table is one group
    /// (if `check_group`) and the mover's king is not capturable.
    fn survives(&mut self, mv: Move, check_group: bool) -> bool {
        let us = self.side;
        let undo = self.apply_to_table(mv);
        let ok = (!check_group || self.connected_without(0)) && !self.king_capturable(us);
        self.revert_on_table(mv, undo);
        ok
    }

    /// The empty squares touching the table, or `0,0` on an empty table.
    pub(super) fn frontier(&mut self, mut visit: impl FnMut(&mut Self, Square)) {
        if self.present == 0 {
            visit(self, Square::ORIGIN);
            return;
        }
        let reach = self.reach();
        for y in reach.min_y..=reach.max_y {
            let row = |dy: i32| self.rows[(y + dy) as usize & 63];
            let band = row(-1) | row(0) | row(1);
            let spread = band | band.rotate_left(1) | band.rotate_right(1);
            let mut empty = spread & !row(0);
            while empty != 0 {
                let bit = empty.trailing_zeros() as i32;
                empty &= empty - 1;
                // The band spans fewer than 64 files from reach.min_x on.
                let x = reach.min_x + ((bit - reach.min_x) & 63);
                visit(self, Square::new(x, y));
            }
        }
    }

    fn placements(&mut self, guard: KingGuard, pile: super::pile::Pile, list: &mut MoveList) {
        let us = self.side;
        let others: ArrayVec<Kind, 5> = pile.kinds().filter(|&k| k != Kind::King).collect();
        let king_left = pile.count(Kind::King) > 0;
        if others.is_empty() && !king_left {
            return;
        }
        self.frontier(|pos, to| {
            if let Some(&kind) = others.first() {
                let mv = Move::Place {
                    piece: Piece::new(us, kind),
                    to,
                };
                // Placing a tile opens no line, so it only matters when an
                // attack exists whose capture the new tile might connect.
                if guard != KingGuard::Threatened || pos.survives(mv, false) {
                    for &kind in &others {
                        list.push(Move::Place {
                            piece: Piece::new(us, kind),
                            to,
                        });
                    }
                }
            }
            if king_left {
                let mv = Move::Place {
                    piece: Piece::new(us, Kind::King),
                    to,
                };
                if pos.survives(mv, false) {
                    list.push(mv);
                }
            }
        });
    }

    fn steps(&mut self, guard: KingGuard, list: &mut MoveList) {
        let us = self.side;
        let reach = self.reach();
        for slot in Slots(self.present & colour_mask(us)) {
            let from = self.square_of(slot);
            let kind = self.kinds[slot];
            let mover = Mover {
                from,
                removable: self.removable(slot),
                test_king: match guard {
                    KingGuard::Absent => false,
                    KingGuard::Threatened => true,
                    KingGuard::Quiet(king) => kind == Kind::King || on_a_line(from, king),
                },
            };
            match kind {
                Kind::Queen => {
                    self.slides(&mover, &ORTHOGONAL, reach, list);
                    self.slides(&mover, &DIAGONAL, reach, list);
                }
                Kind::Rook => self.slides(&mover, &ORTHOGONAL, reach, list),
                Kind::Bishop => self.slides(&mover, &DIAGONAL, reach, list),
                Kind::Knight => self.leaps(&mover, &KNIGHT, list),
                Kind::King => self.leaps(&mover, &KING, list),
                Kind::Pawn => self.pawn(&mover, us, self.moved & (1 << slot) == 0, list),
            }
        }
    }

    /// Adds the step `mover.from → to` if it is legal; `to` is empty or
    /// holds an enemy tile.
    #[inline]
    fn push_step(&mut self, mover: &Mover, to: Square, capture: bool, list: &mut MoveList) {
        let mv = Move::Step {
            from: mover.from,
            to,
        };
        let legal = if capture {
            mover.removable && (!mover.test_king || self.survives(mv, false))
        } else if mover.removable {
            self.has_neighbour_besides(to, mover.from)
                && (!mover.test_king || self.survives(mv, false))
        } else {
            // The mover holds the table together: it must join the parts
            // again from its new square.
            self.has_neighbour_besides(to, mover.from) && self.survives_group(mv, mover.test_king)
        };
        if legal {
            list.push(mv);
        }
    }

    /// Like `survives` with the group test, and the king test only if asked.
    fn survives_group(&mut self, mv: Move, test_king: bool) -> bool {
        let us = self.side;
        let undo = self.apply_to_table(mv);
        let ok = self.connected_without(0) && !(test_king && self.king_capturable(us));
        self.revert_on_table(mv, undo);
        ok
    }

    /// The target of a step onto `to`: `Some(capture)` if the mover may go
    /// there by occupancy alone.
    #[inline(always)]
    fn target(&self, to: Square) -> Option<bool> {
        match self.tile_slot(to) {
            None => Some(false),
            Some(s) => (Self::colour_of(s) != self.side).then_some(true),
        }
    }

    #[inline(always)]
    fn tile_slot(&self, s: Square) -> Option<usize> {
        let slot = self.board[s.cell()];
        (slot != super::position::NO_SLOT).then_some(slot as usize)
    }

    fn slides(&mut self, mover: &Mover, dirs: &[(i32, i32); 4], reach: Reach, list: &mut MoveList) {
        for &(dx, dy) in dirs {
            let mut to = mover.from.offset(dx, dy);
            // Past the reach no square touches a tile: nothing legal there.
            while reach.contains(to) {
                match self.target(to) {
                    Some(false) => self.push_step(mover, to, false, list),
                    Some(true) => {
                        self.push_step(mover, to, true, list);
                        break;
                    }
                    None => break,
                }
                to = to.offset(dx, dy);
            }
        }
    }

    fn leaps(&mut self, mover: &Mover, offsets: &[(i32, i32); 8], list: &mut MoveList) {
        for &(dx, dy) in offsets {
            let to = mover.from.offset(dx, dy);
            if let Some(capture) = self.target(to) {
                self.push_step(mover, to, capture, list);
            }
        }
    }

    fn pawn(&mut self, mover: &Mover, us: Colour, unmoved: bool, list: &mut MoveList) {
        let f = us.forward();
        let reach = if unmoved { 3 } else { 1 };
        for n in 1..=reach {
            let to = mover.from.offset(0, n * f);
            if self.occupied(to) {
                break;
            }
            self.push_step(mover, to, false, list);
        }
        for dx in [-1, 1] {
            let to = mover.from.offset(dx, f);
            if self.target(to) == Some(true) {
                self.push_step(mover, to, true, list);
            }
        }
    }
}

/// The tile about to move, and what is known of it before its targets.
struct Mover {
    from: Square,
    /// The table stays one group without it.
    removable: bool,
    /// Its moves must be tried against the king.
    test_king: bool,
}

/// True when `a` and `b` share a rank, file or diagonal: a tile leaving
/// `a` could open a line onto a king on `b`.
#[inline(always)]
fn on_a_line(a: Square, b: Square) -> bool {
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    dx == 0 || dy == 0 || dx == dy || dx == -dy
}
