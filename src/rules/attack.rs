//! Attacks by movement, for judging positions: which tiles could capture
//! on a square if the connection rule allowed it.

use super::piece::Colour;
use super::position::Position;
use super::square::Square;

impl Position {
    /// How many of `colour`'s tiles attack `square` by their movement,
    /// path clear. Whether a capture there would keep the table one group
    /// is not considered: this is a cheap measure of control, not a
    /// legality test. `square` lies near the group (within a square of
    /// the tiles' box), as the table is read on a torus.
    pub fn attack_count(&self, colour: Colour, square: Square) -> u32 {
        self.attackers(colour, square).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attackers_follow_movement_and_blocking() {
        let pos: Position = "R0,0/N1,0/P1,1/P1,2/k0,3/p1,3 b K/- 0 1".parse().unwrap();
        // The rook past the empty 0,1, the knight, the pawn on 1,1; not
        // the pawn on 1,2 beside the square.
        assert_eq!(pos.attack_count(Colour::White, Square::new(0, 2)), 3);
        // The king, and the pawn capturing towards -y.
        assert_eq!(pos.attack_count(Colour::Black, Square::new(0, 2)), 2);
        // The rook's file is blocked by the black king.
        assert_eq!(pos.attack_count(Colour::White, Square::new(0, 4)), 0);
        assert_eq!(pos.attack_count(Colour::White, Square::new(2, 2)), 2);
    }
}
