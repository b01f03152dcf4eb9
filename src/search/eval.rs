//! A static evaluation for playouts cut short by their cap: material,
//! turned into a win probability.

use crate::rules::{Colour, Kind, Position};

/// Pawn units of each kind. The king is never lost, so it counts nothing.
pub const fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Queen => 9,
        Kind::Rook => 5,
        Kind::Bishop | Kind::Knight => 3,
        Kind::Pawn => 1,
    }
}

/// `colour`'s material minus the opponent's, in pawns, counting tiles on
/// the table and in the pile alike: only captures change it.
pub fn material(pos: &Position, colour: Colour) -> i32 {
    let mut balance = 0;
    for tile in pos.tiles() {
        let v = value(tile.piece.kind);
        balance += if tile.piece.colour == colour { v } else { -v };
    }
    for kind in Kind::ALL {
        let v = value(kind);
        balance += v * pos.pile(colour).count(kind) as i32;
        balance -= v * pos.pile(colour.opposite()).count(kind) as i32;
    }
    balance
}

/// The chance that `colour` wins from here, judged by material alone: a
/// logistic curve on which a pawn is worth about 10%.
pub fn win_probability(pos: &Position, colour: Colour) -> f64 {
    1.0 / (1.0 + (-0.4 * material(pos, colour) as f64).exp())
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
}
