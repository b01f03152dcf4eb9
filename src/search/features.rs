//! What the static evaluation looks at: counts of a position's features,
//! each the side to move's minus the opponent's, so that a weighted sum
//! is an evaluation for the side to move. The weights are fitted to game
//! results (`examples/fit_eval.rs`).
//!
//! Tried and not kept, the fit's log loss no better on the same
//! positions: the open squares by a king that the other side attacks in
//! place of all its open squares, tiles hanging on either side, whether
//! a side has no tile on the table, a frozen king counted only while the
//! other side has tiles to place, flight squares counted only for a king
//! that can leave its square, and tiles that hold the table together.
//!
//! Better fitted but not kept, the matches not won: the squares from
//! which a placement checks a king from a knight's jump or along its open
//! lines, counted for the kinds the placer's pile holds (log loss 0.57221
//! to 0.57018; against the engine without them +16 ± 25 over 400 games
//! and −1 ± 28 over 337 at 100 ms, and a mate in one by drawing missed
//! at 5,000 iterations). Weighed by the kind's share of the pile, or
//! counted whatever the pile holds, they fit worse. Nor did all the
//! weights refitted to games at 100 to 800 ms a move rather than at 400
//! nodes (a tile in the pile then worth far more than on the table, a
//! pawn 148 cp against 14): −3 ± 34 over 203 games at 100 ms.
//!
//! A king alone on its side's table, its pile not empty: fitted with the
//! other weights held, +234 cp (the weights misjudge it, but towards
//! danger: its seven or eight open squares then counted 79 cp each);
//! with all refitted, −294. Not matched against the engine: such
//! positions come from a king drawn first, which takes the tiles placed
//! beside it whatever the weight (White so scored 63% over 98 games at
//! 100 ms to 1 s). Against `random` all the same: 17 draws in 400 games
//! where the engine without it had 14, the lone king still taking every
//! tile.
//!
//! Mobility, the steps of a side's tiles onto squares beside the table
//! (checks and the holding of the table aside): fitted with the other
//! weights held, −6.5 cp a step (log loss 0.62387 to 0.62094), probably
//! standing in for tiles on the table valued too high, not mobility
//! (+1.4 with all refitted); at equal playouts −71 ± 47 over 129 games,
//! and each evaluation 50–70% dearer.
//!
//! The placement threat's weight (feature 17, 79) moved by hand, at
//! equal playouts (1,500, 200 games each): 10 −60 ± 45, 40 +19 ± 34 and
//! +30 ± 38, 120 −69 ± 38. At 100 ms a move 40 then scored 50.0% over
//! 400 games (+14 ± 33, −14 ± 34): the fit's value stays, but only up
//! to three open squares (feature 19).
//!
//! With feature 19 in, each fitted with the other weights held (log loss
//! 0.62125 without): own tiles by the enemy king past two, −75 cp
//! (0.62117); a king alone on its side's table, +45 (no gain); the
//! placement threat counted again while the table holds four tiles or
//! fewer, +4 (no gain); the placement threat of a side with no tile on
//! the table, whose placements the king can take, −12 (no gain).
//!
//! A model with room for interactions fits no better than the weighted
//! sum on the data there is: gradient-boosted trees on these features
//! (and on each side's own counts besides), trained on four fifths of
//! the games' quiet positions, scored a log loss of 0.6055 (0.6096) on
//! the rest, where the logistic regression scored 0.6025, and 0.558 on
//! their own training positions. Some 1,600 games teach no more than
//! the weights; a learned evaluation needs far more games.

use crate::rules::{Colour, Kind, Position};

/// How many features there are.
pub const FEATURES: usize = 20;

/// The features' names, in order, for the fitting tool's report.
pub const NAMES: [&str; FEATURES] = [
    "tempo",
    "queen on table",
    "rook on table",
    "bishop on table",
    "knight on table",
    "pawn on table",
    "queen in pile",
    "rook in pile",
    "bishop in pile",
    "knight in pile",
    "pawn in pile",
    "pressure on the enemy king",
    "open squares by the enemy king",
    "king on table",
    "own tiles by the king",
    "own tiles by the enemy king",
    "flight squares of the king",
    "open squares by the enemy king, own pile not empty",
    "king frozen",
    "open squares by the enemy king past three",
];

/// The kinds with a material value, in feature order.
const MATERIAL: [Kind; 5] = [
    Kind::Queen,
    Kind::Rook,
    Kind::Bishop,
    Kind::Knight,
    Kind::Pawn,
];

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
    for square in king.neighbours() {
        let (dx, dy) = (square.x - king.x, square.y - king.y);
        let attacked = attacked >> (3 * (dy + 1) + dx + 1) & 1 == 1;
        match pos.tile_at(square) {
            None => {
                zone.open += 1;
                zone.flight += i32::from(!attacked);
            }
            Some(t) => zone.tiles[t.piece.colour.index()] += 1,
        }
    }
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

/// The features of `pos`, for the side to move.
pub fn features(pos: &Position) -> [i32; FEATURES] {
    let us = pos.side_to_move();
    let them = us.opposite();
    let mut f = [0; FEATURES];
    f[0] = 1;
    for (i, kind) in MATERIAL.into_iter().enumerate() {
        f[1 + i] = pos.table_count(us, kind) as i32 - pos.table_count(them, kind) as i32;
        f[6 + i] = pos.pile(us).count(kind) as i32 - pos.pile(them).count(kind) as i32;
    }
    let ours = king_zone(pos, us);
    let theirs = king_zone(pos, them);
    f[11] = theirs.pressure - ours.pressure;
    f[12] = theirs.open - ours.open;
    f[13] = i32::from(pos.king_square(us).is_some()) - i32::from(pos.king_square(them).is_some());
    f[14] = ours.tiles[us.index()] - theirs.tiles[them.index()];
    f[15] = theirs.tiles[us.index()] - ours.tiles[them.index()];
    f[16] = ours.flight - theirs.flight;
    // Open squares by a king are where the other side's placements check
    // it, and only while that side has tiles to place.
    let threat = |open: i32, placer: Colour| open * i32::from(!pos.pile(placer).is_empty());
    f[17] = threat(theirs.open, us) - threat(ours.open, them);
    // A king that cannot leave its square without splitting the table
    // has no flight whatever its open squares.
    let frozen = |c: Colour| i32::from(pos.king_square(c).is_some() && !pos.king_is_free(c));
    f[18] = frozen(us) - frozen(them);
    // Each open square past the first few adds less danger: a king with
    // many is a king with few tiles about it, where few placements beside
    // it are guarded.
    let beyond = |open: i32| (open - THREAT_SATURATES).max(0);
    f[19] = threat(beyond(theirs.open), us) - threat(beyond(ours.open), them);
    f
}

/// The open squares by a king past which each counts less as a threat.
const THREAT_SATURATES: i32 = 3;

/// The weighted sum of the features: an evaluation in the weights' unit.
pub fn weighted(features: &[i32; FEATURES], weights: &[i32; FEATURES]) -> i32 {
    features.iter().zip(weights).map(|(f, w)| f * w).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_the_side_to_moves_less_the_opponents() {
        // White: king 0,0, queen 1,0; Black: king 0,2, pawn 0,1. White's
        // pile lacks the queen, Black's the pawn.
        let pos: Position = "K0,0/Q1,0/p0,1/k0,2 w RRBBNNPPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let white = features(&pos);
        assert_eq!(white[1], 1, "a queen on the table against none");
        assert_eq!(white[5], -1, "a pawn on the table against none");
        assert_eq!(white[6], -1, "no queen in the pile against one");
        assert_eq!(white[10], 1, "eight pawns in the pile against seven");
        assert_eq!(white[13], 0, "both kings are on the table");
        // Around the white king (0,0): 1,0 queen and 0,1 pawn; round the
        // black king (0,2): 0,1 pawn only.
        assert_eq!(white[14], 1 - 1);
        assert_eq!(white[15], 0 - 1);
        assert_eq!(white[12], 7 - 6);
        // The same position with Black to move gives the opposite counts
        // (the tempo aside).
        let pos: Position = "K0,0/Q1,0/p0,1/k0,2 b RRBBNNPPPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        let black = features(&pos);
        for i in 1..FEATURES {
            assert_eq!(black[i], -white[i], "{}", NAMES[i]);
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
        let f = features(&pos);
        assert_eq!(f[11], 2 - 5, "pressure: 0,1 and the rook against five");
        assert_eq!(f[12], 7 - 7);
        assert_eq!(f[16], 3 - 6, "{}", NAMES[16]);
        assert_eq!(f[17], 0 - 7, "{}", NAMES[17]);
        assert_eq!(f[19], 0 - (7 - 3), "{}", NAMES[19]);
    }

    #[test]
    fn a_king_holding_the_table_together_is_frozen() {
        // White's king joins -2,0..-1,0 to 1,0..2,0; Black's ends the row.
        let pos: Position = "p-2,0/P-1,0/K0,0/P1,0/k2,0 w QRRBBNNPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert_eq!(features(&pos)[18], 1, "{}", NAMES[18]);
        // A king in the pile is not frozen.
        let pos: Position = "P-1,0/p0,0/P1,0/k2,0 b KQRRBBNNPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert_eq!(features(&pos)[18], 0);
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
