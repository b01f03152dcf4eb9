//! A position as an editor or a parser holds it: a plain [`Setup`] of
//! tiles, piles, side and clocks, any of which may be changed, turned
//! into a [`Position`] only after every consistency rule has been
//! checked ([`PositionError`] says which failed), as shakmaty's `Setup`
//! and cozy-chess's `BoardBuilder` are.

use super::{Position, Tile};
use crate::rules::piece::{Colour, Kind, Piece};
use crate::rules::pile::Pile;
use crate::rules::square::Square;
use crate::rules::tile_set::TileSet;
use std::fmt;

/// The parts of a position, unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The tiles on the table, in any order.
    pub tiles: Vec<Tile>,
    /// The side whose turn it is.
    pub side: Colour,
    /// White's pile, then Black's.
    pub piles: [Pile; 2],
    /// Plies since the last capture, pawn move or placement.
    pub halfmove: u32,
    /// The move number, from 1.
    pub fullmove: u32,
}

impl Setup {
    /// The position, when the setup obeys every consistency rule of
    /// RULES.md section 7.
    pub fn position(&self) -> Result<Position, PositionError> {
        let Setup {
            ref tiles,
            side,
            piles,
            halfmove,
            fullmove,
        } = *self;
        let mut pos = Position::startpos();
        pos.piles = piles;
        pos.side = side;
        pos.halfmove = halfmove;
        pos.fullmove = fullmove;
        if fullmove == 0 {
            return Err(PositionError::FullmoveZero);
        }
        for tile in tiles.iter() {
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
        for tile in tiles.iter() {
            let colour = tile.piece.colour;
            let free = !pos.present & TileSet::colour(colour);
            let slot = free.lowest();
            pos.put(slot, tile.piece.kind, tile.square);
            if tile.moved {
                pos.moved.insert(slot);
            }
            if tile.piece.kind == Kind::King {
                pos.kings[colour.index()] = slot as u8;
            }
        }
        for slot in pos.present {
            pos.link(slot);
        }
        pos.recompute_sums();
        if pos.king_capturable(side.opposite()) {
            return Err(PositionError::OpponentInCheck);
        }
        Ok(pos)
    }
}

impl Position {
    /// The position's parts, to edit and check again.
    pub fn setup(&self) -> Setup {
        Setup {
            tiles: self.tiles(),
            side: self.side,
            piles: self.piles,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
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
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A position's setup gives the position back, along random games;
    /// an edit that breaks a rule is refused with the rule's error.
    #[test]
    fn a_setup_gives_its_position_back_and_refuses_broken_edits() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut pos = Position::startpos();
        let mut checked = 0;
        for _ in 0..60 {
            let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                break;
            };
            pos.make(mv);
            let setup = pos.setup();
            assert_eq!(setup.position().as_ref(), Ok(&pos));
            assert_eq!(setup.position().map(|p| p.hash()), Ok(pos.hash()));
            let mut without_clock = setup.clone();
            without_clock.fullmove = 0;
            assert_eq!(without_clock.position(), Err(PositionError::FullmoveZero));
            if let Some(i) = setup.tiles.iter().position(|t| t.piece.kind == Kind::King) {
                let mut kingless = setup.clone();
                let king = kingless.tiles.remove(i);
                assert_eq!(
                    kingless.position(),
                    Err(PositionError::KingCount {
                        colour: king.piece.colour,
                        count: 0
                    }),
                    "without the king of {pos}"
                );
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }
}
