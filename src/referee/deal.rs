//! The hidden order of both piles, dealt from a seed.

use crate::rules::{Colour, Kind, Piece, Pile, Position};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;

/// The order of each side's pile, top first. Written as two strings of
/// piece letters, White's then Black's: `QPKN…/pnq…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    orders: [Vec<Kind>; 2],
}

/// A deal that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealError {
    /// The text is not two strings of piece letters split by '/'.
    Malformed(String),
    /// The deal does not hold what the position's pile holds.
    Mismatch(Colour),
}

impl fmt::Display for DealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DealError::Malformed(why) => write!(f, "bad deal: {why}"),
            DealError::Mismatch(c) => {
                write!(f, "bad deal: {c}'s order does not hold exactly {c}'s pile")
            }
        }
    }
}

impl std::error::Error for DealError {}

impl Deal {
    /// Shuffles the piles of `start` uniformly, the same way for the same
    /// seed on every machine.
    pub fn from_seed(start: &Position, seed: u64) -> Deal {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let orders = Colour::ALL.map(|colour| {
            let mut order = expand(start.pile(colour));
            order.shuffle(&mut rng);
            order
        });
        Deal { orders }
    }

    /// The `n`-th tile from the top of `colour`'s pile, if the pile is
    /// that deep.
    pub fn tile(&self, colour: Colour, n: usize) -> Option<Kind> {
        self.orders[colour.index()].get(n).copied()
    }

    /// Checks that the deal holds exactly the piles of `start`.
    pub fn check_against(&self, start: &Position) -> Result<(), DealError> {
        for colour in Colour::ALL {
            let mut ours = self.orders[colour.index()].clone();
            ours.sort();
            if ours != expand(start.pile(colour)) {
                return Err(DealError::Mismatch(colour));
            }
        }
        Ok(())
    }
}

/// The tiles of a pile in `KQRBNP` order.
fn expand(pile: Pile) -> Vec<Kind> {
    pile.kinds()
        .flat_map(|k| std::iter::repeat_n(k, pile.count(k) as usize))
        .collect()
}

impl fmt::Display for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for colour in Colour::ALL {
            if colour == Colour::Black {
                f.write_str("/")?;
            }
            for &kind in &self.orders[colour.index()] {
                write!(f, "{}", Piece::new(colour, kind).letter())?;
            }
        }
        Ok(())
    }
}

impl FromStr for Deal {
    type Err = DealError;

    fn from_str(text: &str) -> Result<Deal, DealError> {
        let (white, black) = text
            .split_once('/')
            .ok_or_else(|| DealError::Malformed("expected White's order '/' Black's".into()))?;
        let read = |part: &str, colour: Colour| {
            part.chars()
                .map(|c| match Piece::from_letter(c) {
                    Some(p) if p.colour == colour => Ok(p.kind),
                    _ => Err(DealError::Malformed(format!(
                        "'{c}' is not a piece letter of {colour}"
                    ))),
                })
                .collect::<Result<Vec<Kind>, DealError>>()
        };
        Ok(Deal {
            orders: [read(white, Colour::White)?, read(black, Colour::Black)?],
        })
    }
}
