//! The evaluation of playouts cut short by their cap: material and
//! pressure on the kings, turned into a win probability on the crate's
//! one logistic curve ([`crate::search::score`]).
//!
//! Material alone wins pieces but not games: once a side is far ahead
//! every line looks equally won, and a search on it wanders into
//! repetitions instead of mating. So a large lead counts less and less
//! (it still always counts for more), and the squares a side attacks
//! around the enemy king add to its score, which gives the search a way
//! to improve a won position.

use super::value;
use crate::rules::{Colour, Kind, Position};
use crate::search::score;

/// `colour`'s material minus the opponent's, in pawns, counting tiles on
/// the table and in the pile alike: only captures change it.
pub fn material(pos: &Position, colour: Colour) -> i32 {
    let them = colour.opposite();
    let mut balance = 0;
    for kind in Kind::ALL {
        let ours = pos.table_count(colour, kind) + pos.pile(colour).count(kind) as u32;
        let theirs = pos.table_count(them, kind) + pos.pile(them).count(kind) as u32;
        balance += value(kind) * (ours as i32 - theirs as i32);
    }
    balance
}

/// The squares of the enemy king and around it that `colour`'s tiles
/// attack by movement (0 to 9; 0 while that king is in the pile).
pub fn king_pressure(pos: &Position, colour: Colour) -> i32 {
    let Some(king) = pos.king_square(colour.opposite()) else {
        return 0;
    };
    let mut attacked = 0;
    for dy in -1..=1 {
        for dx in -1..=1 {
            attacked += i32::from(pos.attack_count(colour, king.offset(dx, dy)) > 0);
        }
    }
    attacked
}

/// The lead in pawns beyond which material counts less and less.
const MATERIAL_SCALE: f64 = 10.0;

/// Pawns per attacked square around the enemy king.
const PRESSURE: f64 = 0.5;

/// A pawn of [`score()`]'s advantage in centipawns of the score scale:
/// 0.4 of the logistic exponent a pawn, which makes a pawn worth about
/// 10% of the result, as a pawn is worth to a playout cut short.
pub const PAWN_CENTIPAWNS: f64 = 160.0;

/// `colour`'s advantage in pawns: material, a large lead damped, plus the
/// difference in pressure on the kings.
pub fn score(pos: &Position, colour: Colour) -> f64 {
    let material = material(pos, colour) as f64;
    let pressure = king_pressure(pos, colour) - king_pressure(pos, colour.opposite());
    MATERIAL_SCALE * (material / MATERIAL_SCALE).tanh() + PRESSURE * pressure as f64
}

/// The chance that `colour` wins from here: [`score()`] in pawns of
/// [`PAWN_CENTIPAWNS`] on the score scale's logistic curve.
pub fn win_probability(pos: &Position, colour: Colour) -> f64 {
    // The exponent per pawn, 160 / 400 = 0.4 exactly as a double.
    score::logistic(score(pos, colour) * (PAWN_CENTIPAWNS / score::LOGISTIC_SCALE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn material_counts_captures_only() {
        let start = Position::startpos();
        assert_eq!(material(&start, Colour::White), 0);
        assert!((win_probability(&start, Colour::White) - 0.5).abs() < 1e-12);
        // White has lost its queen.
        let pos: Position = "k0,2/p0,1/K0,0 w RRBBNNPPPPPPPP/qrrbbnnppppppp 0 2"
            .parse()
            .unwrap();
        assert_eq!(material(&pos, Colour::White), -9);
        assert_eq!(material(&pos, Colour::Black), 9);
        assert!(win_probability(&pos, Colour::White) < 0.05);
    }

    #[test]
    fn the_win_probability_is_the_old_curve_of_0_4_a_pawn() {
        assert_eq!(PAWN_CENTIPAWNS / score::LOGISTIC_SCALE, 0.4);
        for s in [-12.5f64, -3.0, -0.1, 0.0, 0.7, 1.0, 4.25, 20.0] {
            let old = 1.0 / (1.0 + (-0.4 * s).exp());
            let new = score::logistic(s * (PAWN_CENTIPAWNS / score::LOGISTIC_SCALE));
            assert_eq!(old.to_bits(), new.to_bits(), "{s}");
        }
    }

    #[test]
    fn pressure_counts_the_attacked_squares_round_the_king() {
        // Round the black king on 0,3 (x -1..1, y 2..4) White attacks
        // 0,2 (rook, knight, pawn 1,1) and the king's own square (rook,
        // pawn 1,2); nothing attacks the other seven.
        let pos: Position = "R0,0/N1,0/P1,1/P1,2/k0,3/p1,3 b K/- 0 1".parse().unwrap();
        assert_eq!(king_pressure(&pos, Colour::White), 2);
        // The white king is in the pile: no pressure on it.
        assert_eq!(king_pressure(&pos, Colour::Black), 0);
        let (white, black) = (score(&pos, Colour::White), score(&pos, Colour::Black));
        assert!((white + black).abs() < 1e-9, "{white} {black}");
    }

    #[test]
    fn a_larger_lead_always_scores_higher_but_less_and_less() {
        let damped = |m: f64| MATERIAL_SCALE * (m / MATERIAL_SCALE).tanh();
        let mut last = f64::NEG_INFINITY;
        for m in -40..=40 {
            let d = damped(m as f64);
            assert!(d > last);
            last = d;
        }
        assert!((damped(1.0) - 1.0).abs() < 0.01);
        assert!(damped(30.0) - damped(20.0) < damped(10.0) - damped(0.0));
    }
}
