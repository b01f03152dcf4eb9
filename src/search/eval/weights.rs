//! The hand-made evaluation's weights: centipawns per count of each
//! [`Term`], fitted to game results by `examples/fit_eval.rs`.

use super::terms::{Term, Terms};
use std::ops::Index;

/// A weight for every term, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights([i32; Term::COUNT]);

impl Weights {
    /// The weights given as `(term, weight)` pairs, each term once, in
    /// any order.
    pub const fn new(pairs: [(Term, i32); Term::COUNT]) -> Weights {
        let mut weights = [0; Term::COUNT];
        let mut given = [false; Term::COUNT];
        let mut i = 0;
        while i < Term::COUNT {
            let (term, weight) = pairs[i];
            assert!(!given[term.index()], "a term weighed twice");
            given[term.index()] = true;
            weights[term.index()] = weight;
            i += 1;
        }
        Weights(weights)
    }

    /// The weights in the order of [`Term::ALL`].
    pub const fn values(&self) -> [i32; Term::COUNT] {
        self.0
    }

    /// The weighted sum of `terms`: an evaluation in centipawns.
    pub fn apply(&self, terms: &Terms) -> i32 {
        terms.counts().iter().zip(&self.0).map(|(t, w)| t * w).sum()
    }
}

impl Index<Term> for Weights {
    type Output = i32;

    fn index(&self, term: Term) -> &i32 {
        &self.0[term.index()]
    }
}

/// The weights fitted to game results, all but the queen on the table,
/// which the fit puts below a queen in the pile (near 250) and the search
/// then lets free queens be; the placement threat past three was fitted
/// with the others held.
pub const FITTED: Weights = Weights::new([
    (Term::Tempo, 6),
    (Term::QueenOnTable, 300),
    (Term::RookOnTable, 133),
    (Term::BishopOnTable, 115),
    (Term::KnightOnTable, 116),
    (Term::PawnOnTable, 22),
    (Term::QueenInPile, 358),
    (Term::RookInPile, 195),
    (Term::BishopInPile, 186),
    (Term::KnightInPile, 150),
    (Term::PawnInPile, 86),
    (Term::PressureOnEnemyKing, -4),
    (Term::OpenByEnemyKing, 0),
    (Term::KingOnTable, -14),
    (Term::OwnTilesByKing, 17),
    (Term::OwnTilesByEnemyKing, 130),
    (Term::FlightSquares, 3),
    (Term::PlacementThreat, 79),
    (Term::KingFrozen, -154),
    (Term::PlacementThreatPastThree, -50),
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fitted_weights_are_those_of_the_fit() {
        // The order of `Term::ALL`, as the fitting tool prints them.
        assert_eq!(
            FITTED.values(),
            [
                6, 300, 133, 115, 116, 22, 358, 195, 186, 150, 86, -4, 0, -14, 17, 130, 3, 79,
                -154, -50
            ]
        );
        assert_eq!(FITTED[Term::KingFrozen], -154);
    }
}
