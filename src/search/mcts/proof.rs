//! What the search has proven of a node (MCTS-Solver, Winands,
//! Björnsson and Saito 2008): a win, a loss or a draw for its mover, and
//! how many turns it takes at most.

use crate::rules::Colour;
use crate::search::Proven;

/// A result proven by the search (MCTS-Solver), for a node's `mover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub(super) enum Proof {
    Unknown,
    Loss,
    Draw,
    Win,
}

impl Proof {
    pub(super) const ALL: [Proof; 4] = [Proof::Unknown, Proof::Loss, Proof::Draw, Proof::Win];

    pub(super) fn from_code(code: u8) -> Proof {
        Proof::ALL[code as usize & 3]
    }

    /// The longest proof length [`proof_code`] keeps: longer ones are
    /// counted as this long.
    pub(super) const MAX_TURNS: u8 = 63;

    /// The proof for the other side.
    pub(super) fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            other => other,
        }
    }

    /// The proven result, 0 to 1, a draw worth `draw` to the side.
    pub(super) fn value(self, draw: f32) -> Option<f32> {
        match self {
            Proof::Unknown => None,
            Proof::Loss => Some(0.0),
            Proof::Draw => Some(draw),
            Proof::Win => Some(1.0),
        }
    }

    /// What a report says of a root action with this proof, `turns`
    /// long from the root ([`Proven`] counts as [`Tree::turns_through`]).
    pub(super) fn proven(self, turns: u8) -> Option<Proven> {
        match self {
            Proof::Unknown => None,
            Proof::Loss => Some(Proven::Loss { turns }),
            Proof::Draw => Some(Proven::Draw),
            Proof::Win => Some(Proven::Win { turns }),
        }
    }

    /// The proof of a finished game for `side`.
    pub(super) fn of(winner: Option<Colour>, side: Colour) -> Proof {
        match winner {
            None => Proof::Draw,
            Some(w) if w == side => Proof::Win,
            Some(_) => Proof::Loss,
        }
    }
}

/// A proof and its length in turns as one byte, the length capped at
/// [`Proof::MAX_TURNS`].
pub(super) fn proof_code(proof: Proof, turns: u8) -> u8 {
    proof as u8 | turns.min(Proof::MAX_TURNS) << 2
}
