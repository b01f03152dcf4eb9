//! What the hand-made evaluation looks at: the counts of a position's
//! terms, each the side to move's less the opponent's, so that a weighted
//! sum ([`super::weights`]) is an evaluation for the side to move.

use crate::rules::{Colour, Kind, Position};
use std::ops::{Index, IndexMut};

/// A term of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// 1 for the side to move: the value of having the turn.
    Tempo,
    /// Queens on the table.
    QueenOnTable,
    /// Rooks on the table.
    RookOnTable,
    /// Bishops on the table.
    BishopOnTable,
    /// Knights on the table.
    KnightOnTable,
    /// Pawns on the table.
    PawnOnTable,
    /// Queens in the pile.
    QueenInPile,
    /// Rooks in the pile.
    RookInPile,
    /// Bishops in the pile.
    BishopInPile,
    /// Knights in the pile.
    KnightInPile,
    /// Pawns in the pile.
    PawnInPile,
    /// Squares of the enemy king and its neighbours that the side
    /// attacks.
    PressureOnEnemyKing,
    /// Empty squares beside the enemy king.
    OpenByEnemyKing,
    /// 1 while the side's king is on the table.
    KingOnTable,
    /// The side's own tiles beside its king.
    OwnTilesByKing,
    /// The side's own tiles beside the enemy king.
    OwnTilesByEnemyKing,
    /// Empty squares beside the side's king that the enemy does not
    /// attack.
    FlightSquares,
    /// Empty squares beside the enemy king while the side has tiles to
    /// place: where its placements check that king.
    PlacementThreat,
    /// 1 while the side's king cannot leave its square without splitting
    /// the table.
    KingFrozen,
    /// [`Term::PlacementThreat`] past [`THREAT_SATURATES`] open squares.
    PlacementThreatPastThree,
}

impl Term {
    /// How many terms there are.
    pub const COUNT: usize = 20;

    /// Every term, in the order of their indices.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Tempo,
        Term::QueenOnTable,
        Term::RookOnTable,
        Term::BishopOnTable,
        Term::KnightOnTable,
        Term::PawnOnTable,
        Term::QueenInPile,
        Term::RookInPile,
        Term::BishopInPile,
        Term::KnightInPile,
        Term::PawnInPile,
        Term::PressureOnEnemyKing,
        Term::OpenByEnemyKing,
        Term::KingOnTable,
        Term::OwnTilesByKing,
        Term::OwnTilesByEnemyKing,
        Term::FlightSquares,
        Term::PlacementThreat,
        Term::KingFrozen,
        Term::PlacementThreatPastThree,
    ];

    /// The term's place in [`Term::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The term's name, for people (the protocol's `eval`, the fitting
    /// tool's report).
    pub const fn name(self) -> &'static str {
        match self {
            Term::Tempo => "tempo",
            Term::QueenOnTable => "queen on table",
            Term::RookOnTable => "rook on table",
            Term::BishopOnTable => "bishop on table",
            Term::KnightOnTable => "knight on table",
            Term::PawnOnTable => "pawn on table",
            Term::QueenInPile => "queen in pile",
            Term::RookInPile => "rook in pile",
            Term::BishopInPile => "bishop in pile",
            Term::KnightInPile => "knight in pile",
            Term::PawnInPile => "pawn in pile",
            Term::PressureOnEnemyKing => "pressure on the enemy king",
            Term::OpenByEnemyKing => "open squares by the enemy king",
            Term::KingOnTable => "king on table",
            Term::OwnTilesByKing => "own tiles by the king",
            Term::OwnTilesByEnemyKing => "own tiles by the enemy king",
            Term::FlightSquares => "flight squares of the king",
            Term::PlacementThreat => "open squares by the enemy king, own pile not empty",
            Term::KingFrozen => "king frozen",
            Term::PlacementThreatPastThree => "open squares by the enemy king past three",
        }
    }
}

/// The counts of every term for one position and side, indexed by
/// [`Term`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms([i32; Term::COUNT]);

impl Terms {
    /// The counts in the order of [`Term::ALL`].
    pub const fn counts(&self) -> [i32; Term::COUNT] {
        self.0
    }

    /// The terms of `pos`, for the side to move.
    pub fn of(pos: &Position) -> Terms {
        let frozen = |c: Colour| pos.king_square(c).is_some() && !pos.king_is_free(c);
        Terms::knowing_frozen_kings(pos, Colour::ALL.map(frozen))
    }

    /// The terms of `pos` for the side to move, told whether each
    /// colour's king (White's first) is on the table and cannot leave
    /// its square without splitting it: an evaluation that works out
    /// every holding tile anyway reads it from those.
    pub fn knowing_frozen_kings(pos: &Position, frozen: [bool; 2]) -> Terms {
        let us = pos.side_to_move();
        let them = us.opposite();
        let mut t = Terms::default();
        t[Term::Tempo] = 1;
        // The material terms are consecutive, in the order of `MATERIAL`
        // (a test holds them so): indexed by offset, the loop unrolls.
        for (i, kind) in MATERIAL.into_iter().enumerate() {
            t.0[Term::QueenOnTable.index() + i] =
                pos.table_count(us, kind) as i32 - pos.table_count(them, kind) as i32;
            t.0[Term::QueenInPile.index() + i] =
                pos.pile(us).count(kind) as i32 - pos.pile(them).count(kind) as i32;
        }
        let ours = king_zone(pos, us);
        let theirs = king_zone(pos, them);
        let on_table = |c: Colour| i32::from(pos.king_square(c).is_some());
        t[Term::PressureOnEnemyKing] = theirs.pressure - ours.pressure;
        t[Term::OpenByEnemyKing] = theirs.open - ours.open;
        t[Term::KingOnTable] = on_table(us) - on_table(them);
        t[Term::OwnTilesByKing] = ours.tiles[us.index()] - theirs.tiles[them.index()];
        t[Term::OwnTilesByEnemyKing] = theirs.tiles[us.index()] - ours.tiles[them.index()];
        t[Term::FlightSquares] = ours.flight - theirs.flight;
        // Open squares by a king are where the other side's placements
        // check it, and only while that side has tiles to place.
        let threat = |open: i32, placer: Colour| open * i32::from(!pos.pile(placer).is_empty());
        t[Term::PlacementThreat] = threat(theirs.open, us) - threat(ours.open, them);
        // A king that cannot leave its square without splitting the table
        // has no flight whatever its open squares.
        let frozen = |c: Colour| i32::from(frozen[c.index()]);
        t[Term::KingFrozen] = frozen(us) - frozen(them);
        // Each open square past the first few adds less danger: a king
        // with many is a king with few tiles about it, where few
        // placements beside it are guarded.
        let beyond = |open: i32| (open - THREAT_SATURATES).max(0);
        t[Term::PlacementThreatPastThree] =
            threat(beyond(theirs.open), us) - threat(beyond(ours.open), them);
        t
    }
}

impl Index<Term> for Terms {
    type Output = i32;

    fn index(&self, term: Term) -> &i32 {
        &self.0[term.index()]
    }
}

impl IndexMut<Term> for Terms {
    fn index_mut(&mut self, term: Term) -> &mut i32 {
        &mut self.0[term.index()]
    }
}

/// The kinds with a material value, in the order of their terms.
const MATERIAL: [Kind; 5] = [
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
    Kind::Pawn,
];

/// The open squares by a king past which each counts less as a threat.
pub const THREAT_SATURATES: i32 = 3;

/// What surrounds `colour`'s king (all 0 while it is in the pile).
#[derive(Default)]
struct KingZone {
    /// Squares of the king and its neighbours the other side attacks.
    pressure: i32,
    /// Empty neighbours.
    open: i32,
    /// Empty neighbours the other side does not attack: where the king
    /// could step (the connection rule aside) and where a tile placed
    /// by the other side could be taken by it.
    flight: i32,
    /// Neighbouring tiles of each colour.
    tiles: [i32; 2],
}

fn king_zone(pos: &Position, colour: Colour) -> KingZone {
    let mut zone = KingZone::default();
    let Some(king) = pos.king_square(colour) else {
        return zone;
    };
    let attacked = pos.attacked_block(colour.opposite(), king);
    zone.pressure = attacked.count_ones() as i32;
    let (occupied, tiles) = pos.block_around(king);
    // The block less its centre, the king's own square.
    const AROUND: u16 = 0b111_101_111;
    let open = AROUND & !occupied;
    zone.open = open.count_ones() as i32;
    zone.flight = (open & !attacked).count_ones() as i32;
    zone.tiles = tiles.map(|n| n as i32);
    zone
}

/// For each colour (White first): true when its king is in its pile
/// and, drawn now, would have no square, every empty square by the table
/// being attacked by the other side. Its owner's draw may then end the
/// game in a stalemate. The attacks are counted as
/// [`Position::attack_count`] does, without the connection rule's
/// exemption, so a rare square is missed.
///
/// Only a table of at most three tiles is looked at: that is where it
/// happens (a lone queen or king taking each tile placed beside it), and
/// the look is too dear for every evaluation.
pub fn stranded_kings(pos: &Position) -> [bool; 2] {
    let mut stranded = Colour::ALL.map(|c| pos.pile(c).count(Kind::King) > 0);
    if !stranded.contains(&true) || !(1..=3).contains(&pos.tile_count()) {
        return [false; 2];
    }
    for tile in pos.tiles() {
        for square in tile.square.neighbours() {
            if pos.tile_at(square).is_some() {
                continue;
            }
            for colour in Colour::ALL {
                let c = colour.index();
                stranded[c] &= pos.attack_count(colour.opposite(), square) > 0;
            }
            if !stranded.contains(&true) {
                return stranded;
            }
        }
    }
    stranded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_term_has_its_place_and_a_name() {
        for (i, term) in Term::ALL.into_iter().enumerate() {
            assert_eq!(term.index(), i);
            assert!(!term.name().is_empty());
        }
        // `Terms::of` indexes the material terms by offset.
        for (i, kind) in MATERIAL.into_iter().enumerate() {
            let on_table = Term::ALL[Term::QueenOnTable.index() + i];
            let in_pile = Term::ALL[Term::QueenInPile.index() + i];
            let name = format!("{kind:?}").to_lowercase();
            assert_eq!(on_table.name(), format!("{name} on table"));
            assert_eq!(in_pile.name(), format!("{name} in pile"));
        }
    }

    #[test]
    fn terms_are_the_side_to_moves_less_the_opponents() {
        // White: king 0,0, queen 1,0; Black: king 0,2, pawn 0,1. White's
        // pile lacks the queen, Black's the pawn.
        let pos: Position = "K0,0/Q1,0/p0,1/k0,2 w RRBBNNPPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let white = Terms::of(&pos);
        assert_eq!(
            white[Term::QueenOnTable],
            1,
            "a queen on the table against none"
        );
        assert_eq!(
            white[Term::PawnOnTable],
            -1,
            "a pawn on the table against none"
        );
        assert_eq!(
            white[Term::QueenInPile],
            -1,
            "no queen in the pile against one"
        );
        assert_eq!(
            white[Term::PawnInPile],
            1,
            "eight pawns in the pile against seven"
        );
        assert_eq!(white[Term::KingOnTable], 0, "both kings are on the table");
        // Around the white king (0,0): 1,0 queen and 0,1 pawn; round the
        // black king (0,2): 0,1 pawn only.
        assert_eq!(white[Term::OwnTilesByKing], 1 - 1);
        assert_eq!(white[Term::OwnTilesByEnemyKing], 0 - 1);
        assert_eq!(white[Term::OpenByEnemyKing], 7 - 6);
        // The same position with Black to move gives the opposite counts
        // (the tempo aside).
        let pos: Position = "K0,0/Q1,0/p0,1/k0,2 b RRBBNNPPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let black = Terms::of(&pos);
        for term in Term::ALL.into_iter().skip(1) {
            assert_eq!(black[term], -white[term], "{}", term.name());
        }
    }

    #[test]
    fn flight_squares_are_the_open_ones_the_enemy_does_not_attack() {
        // Round the white king (0,0): seven open squares; the black rook
        // on -1,1 attacks 0,1, 1,1, -1,0 and -1,-1 (its king guards it
        // and stops its file upwards), so three are flight squares. Round
        // the black king (-1,2): seven open squares, of which the white
        // king attacks 0,1 alone. White's pile is empty: Black's
        // placements may check White, White's cannot check Black. The
        // pressure counts the rook's square too, which its king guards.
        let pos: Position = "K0,0/r-1,1/k-1,2 w -/qrbbnnpppppppp 0 2".parse().unwrap();
        let t = Terms::of(&pos);
        let pressure = Term::PressureOnEnemyKing;
        assert_eq!(
            t[pressure],
            2 - 5,
            "pressure: 0,1 and the rook against five"
        );
        assert_eq!(t[Term::OpenByEnemyKing], 7 - 7);
        for (term, count) in [
            (Term::FlightSquares, 3 - 6),
            (Term::PlacementThreat, 0 - 7),
            (Term::PlacementThreatPastThree, 0 - (7 - 3)),
        ] {
            assert_eq!(t[term], count, "{}", term.name());
        }
    }

    #[test]
    fn a_king_holding_the_table_together_is_frozen() {
        // White's king joins -2,0..-1,0 to 1,0..2,0; Black's ends the row.
        let pos: Position = "p-2,0/P-1,0/K0,0/P1,0/k2,0 w QRRBBNNPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert_eq!(Terms::of(&pos)[Term::KingFrozen], 1);
        // A king in the pile is not frozen.
        let pos: Position = "P-1,0/p0,0/P1,0/k2,0 b KQRRBBNNPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert_eq!(Terms::of(&pos)[Term::KingFrozen], 0);
    }

    #[test]
    fn a_king_has_no_square_beside_a_lone_queen() {
        // Every square by a lone queen is hers: Black's king, drawn now,
        // could not be placed; White's could be anywhere by her.
        let queen: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
            .parse()
            .unwrap();
        assert_eq!(stranded_kings(&queen), [false, true]);
        // A lone rook leaves the corners.
        let rook: Position = "R0,0 b KQRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
            .parse()
            .unwrap();
        assert_eq!(stranded_kings(&rook), [false, false]);
        // A king already placed is never stranded.
        let placed: Position = "Q0,0/p1,0/k2,1 w KRRBBNNPPPPPPPP/qrrbbnnppppppp 0 2"
            .parse()
            .unwrap();
        assert_eq!(stranded_kings(&placed), [false, false]);
    }
}
