//! The position's redundant state checked against a recomputation, as
//! Stockfish's `pos_is_ok()`: the board, the line words, the adjacency
//! masks, the sets by kind, the Euler number and the hash sum are each
//! kept incrementally, and a slip in any of them shows up only moves
//! later as a wrong move list. `make` and `unmake` run the check in debug
//! builds, so the property and cross-check tests catch a slip at the move
//! that made it.

use super::{Position, NO_SLOT};
use crate::rules::hash;
use crate::rules::piece::{Colour, Kind};
use crate::rules::tile_set::TileSet;
use std::fmt;

/// Which piece of redundant state disagrees with the tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inconsistency {
    /// A board cell names the wrong slot, or a slot off the table.
    Board,
    /// A row, column, diagonal or anti-diagonal word, or the occupied
    /// rows or columns, differ from the tiles' squares.
    Lines,
    /// An adjacency mask differs from the tiles' squares, or is not
    /// symmetric.
    Adjacency,
    /// The slots by kind differ from the tiles on the table.
    Kinds,
    /// A slot is both on the table and captured, or a side holds more
    /// than its 16 slots or its set.
    Slots,
    /// A king slot is not that side's king on the table, or the king is
    /// both in the pile and on the table.
    Kings,
    /// A non-pawn on the table is marked as moved.
    Moved,
    /// The Euler number differs from the one counted on the table.
    Euler,
    /// The hash's sum over the tiles differs from a recomputation.
    Hash,
}

impl fmt::Display for Inconsistency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Inconsistency::Board => "the board cells disagree with the tiles",
            Inconsistency::Lines => "the line words disagree with the tiles",
            Inconsistency::Adjacency => "the adjacency masks disagree with the tiles",
            Inconsistency::Kinds => "the slots by kind disagree with the tiles",
            Inconsistency::Slots => "a slot is both on the table and captured",
            Inconsistency::Kings => "the king slots disagree with the tiles and piles",
            Inconsistency::Moved => "a tile that is not a pawn is marked as moved",
            Inconsistency::Euler => "the Euler number disagrees with the tiles",
            Inconsistency::Hash => "the hash sum disagrees with the tiles",
        };
        f.write_str(what)
    }
}

impl Position {
    /// Panics, naming the broken invariant, unless every piece of state
    /// kept alongside the tiles agrees with them (see [`Inconsistency`]).
    /// `make` and `unmake` call it in debug builds.
    pub fn assert_consistent(&self) {
        if let Err(broken) = self.consistency() {
            panic!("inconsistent position: {broken}: {self}");
        }
    }

    /// The first piece of redundant state found to disagree with the
    /// tiles' slots, squares and kinds, which are the truth here.
    pub fn consistency(&self) -> Result<(), Inconsistency> {
        let check = |holds: bool, broken| if holds { Ok(()) } else { Err(broken) };
        check(
            (self.present & self.captured).is_empty(),
            Inconsistency::Slots,
        )?;
        for colour in Colour::ALL {
            let used = (self.present | self.captured) & TileSet::colour(colour);
            for kind in Kind::ALL {
                let of_kind = used.into_iter().filter(|&s| self.kinds[s] == kind).count();
                let pile = self.piles[colour.index()].count(kind) as usize;
                check(
                    of_kind + pile <= kind.set_count() as usize,
                    Inconsistency::Slots,
                )?;
            }
        }

        let on_board = self.board.iter().filter(|&&s| s != NO_SLOT).count();
        check(
            on_board == self.present.len() as usize
                && self
                    .present
                    .into_iter()
                    .all(|s| self.board[self.square_of(s).cell()] == s as u8),
            Inconsistency::Board,
        )?;

        let mut lines = Position::startpos();
        for slot in self.present {
            let square = self.square_of(slot);
            let (x, y) = ((square.x & 63) as usize, (square.y & 63) as usize);
            let (column, diagonal, anti_diagonal, bit) = Position::lines_of(square);
            lines.rows[y] |= 1 << x;
            lines.columns[column] |= bit;
            lines.diagonals[diagonal] |= bit;
            lines.anti_diagonals[anti_diagonal] |= bit;
            lines.occupied_rows |= bit;
            lines.occupied_columns |= 1 << column;
        }
        check(
            lines.rows == self.rows
                && lines.columns == self.columns
                && lines.diagonals == self.diagonals
                && lines.anti_diagonals == self.anti_diagonals
                && lines.occupied_rows == self.occupied_rows
                && lines.occupied_columns == self.occupied_columns,
            Inconsistency::Lines,
        )?;

        for slot in 0..32 {
            let expected = if !self.present.contains(slot) {
                TileSet::EMPTY
            } else {
                let square = self.square_of(slot);
                self.present
                    .into_iter()
                    .filter(|&t| t != slot && self.square_of(t).is_adjacent(square))
                    .collect()
            };
            let symmetric = self.adjacent[slot]
                .into_iter()
                .all(|t| self.adjacent[t].contains(slot));
            check(
                self.adjacent[slot] == expected && symmetric,
                Inconsistency::Adjacency,
            )?;
        }

        for kind in Kind::ALL {
            let expected: TileSet = self
                .present
                .into_iter()
                .filter(|&s| self.kinds[s] == kind)
                .collect();
            check(self.by_kind[kind.index()] == expected, Inconsistency::Kinds)?;
        }

        for colour in Colour::ALL {
            let king = self.kings[colour.index()];
            let on_table = self.tiles_of(colour, Kind::King);
            let in_pile = self.piles[colour.index()].count(Kind::King) > 0;
            let agrees = if king == NO_SLOT {
                on_table.is_empty() && in_pile
            } else {
                on_table == TileSet::one(usize::from(king)) && !in_pile
            };
            check(agrees, Inconsistency::Kings)?;
        }

        let pawns = self.by_kind[Kind::Pawn.index()];
        check(
            (self.moved & self.present & !pawns).is_empty(),
            Inconsistency::Moved,
        )?;

        check(self.euler == self.euler_by_quads(), Inconsistency::Euler)?;

        let mut sum = 0;
        for slot in self.present {
            let square = self.square_of(slot);
            sum = hash::add(sum, hash::tile_term(self.state(slot), square.x, square.y));
        }
        check(sum == self.table_sum, Inconsistency::Hash)
    }

    /// Four times the Euler number of the tiles (8-connected, the empty
    /// squares 4-connected), by Gray's count of 2 × 2 windows: windows with
    /// one tile, less those with three, less twice those with two tiles
    /// touching only at a corner. It shares nothing with the square by
    /// square count it checks.
    fn euler_by_quads(&self) -> i32 {
        let mut euler = 0;
        for y in 0..64 {
            // Bit x of each word: the window's four squares from x, y.
            let (p, r) = (self.rows[y], self.rows[(y + 1) & 63]);
            let (q, s) = (p.rotate_right(1), r.rotate_right(1));
            let odd = p ^ q ^ r ^ s;
            let two_or_more = p & q | p & r | p & s | q & r | q & s | r & s;
            let corners = p & s & !q & !r | q & r & !p & !s;
            euler += (odd & !two_or_more).count_ones() as i32;
            euler -= (odd & two_or_more).count_ones() as i32;
            euler -= 2 * corners.count_ones() as i32;
        }
        euler
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const POSITION: &str =
        "p0,2/p1,2/k2,2/P0,1/p2,1/K0,0/P1,0/P2,0 w QRRBBNNPPPPP/qrrbbnnppppp 0 9";

    /// Positions of random games agree with themselves after make and
    /// after unmake, with and without holes.
    #[test]
    fn random_games_stay_consistent() {
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut positions = 0;
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                    break;
                };
                let undo = pos.make(mv);
                assert_eq!(pos.consistency(), Ok(()), "{pos}");
                pos.unmake(mv, undo);
                assert_eq!(pos.consistency(), Ok(()), "{pos}");
                pos.make(mv);
                positions += 1;
            }
        }
        assert!(positions > 1_000, "{positions}");
    }

    /// Each kind of slip in the redundant state is caught and named.
    #[test]
    fn corrupted_copies_are_caught() {
        let pos: Position = POSITION.parse().unwrap();
        assert_eq!(pos.consistency(), Ok(()));
        let slot = pos.present.lowest();
        let cell = pos.square_of(slot).cell();
        type Corruption = fn(&mut Position, usize, usize);
        let corruptions: [(Corruption, Inconsistency); 10] = [
            (|p, _, c| p.board[c ^ 1] = p.board[c], Inconsistency::Board),
            (
                |p, s, _| p.rows[(p.ys[s] & 63) as usize] ^= 1 << 40,
                Inconsistency::Lines,
            ),
            (|p, _, _| p.diagonals[7] ^= 1, Inconsistency::Lines),
            (
                |p, _, _| p.occupied_columns ^= 1 << 50,
                Inconsistency::Lines,
            ),
            (
                |p, s, _| p.adjacent[s] ^= TileSet::one(31),
                Inconsistency::Adjacency,
            ),
            (
                |p, s, _| p.by_kind[Kind::Queen.index()].insert(s),
                Inconsistency::Kinds,
            ),
            (|p, s, _| p.captured.insert(s), Inconsistency::Slots),
            (|p, _, _| p.kings[0] = NO_SLOT, Inconsistency::Kings),
            (|p, _, _| p.euler += 4, Inconsistency::Euler),
            (|p, _, _| p.table_sum ^= 1, Inconsistency::Hash),
        ];
        for (i, (corrupt, broken)) in corruptions.into_iter().enumerate() {
            let mut copy = pos.clone();
            corrupt(&mut copy, slot, cell);
            assert_eq!(copy.consistency(), Err(broken), "corruption {i}");
        }
        let mut moved_king = pos.clone();
        moved_king.moved.insert(usize::from(moved_king.kings[0]));
        assert_eq!(moved_king.consistency(), Err(Inconsistency::Moved));
    }

    #[test]
    #[should_panic(expected = "inconsistent position")]
    fn assert_consistent_panics_on_a_slip() {
        let mut pos: Position = POSITION.parse().unwrap();
        pos.euler += 4;
        pos.assert_consistent();
    }
}
