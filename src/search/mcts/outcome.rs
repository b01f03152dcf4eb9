//! What a result is worth: an iteration's, from White's side, and a
//! drawn game's, contempt included.

use crate::rules::Colour;
use crate::search::score::{expected_result, from_centipawns};

/// What a drawn game is worth to White: half a point, less the engine's
/// contempt when the engine plays White (more when it plays Black), so
/// that every draw the search meets, in the tree or among the judged
/// leaves, weighs the same.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DrawValue(f32);

impl DrawValue {
    /// The value of a draw for a search by `engine` with `contempt`
    /// centipawns.
    pub(super) fn new(engine: Colour, contempt: i32) -> DrawValue {
        let ours = expected_result(from_centipawns(-contempt)) as f32;
        DrawValue(match engine {
            Colour::White => ours,
            Colour::Black => 1.0 - ours,
        })
    }

    /// What a draw is worth to `side`.
    pub(super) fn for_side(self, side: Colour) -> f32 {
        match side {
            Colour::White => self.0,
            Colour::Black => 1.0 - self.0,
        }
    }
}

/// The result of one iteration, from White's side.
#[derive(Clone, Copy, Debug)]
pub(super) struct Outcome {
    /// 1 White won, 0 Black won, a draw's [`DrawValue`], or a judgement.
    pub(super) white: f64,
    /// 1 when the game was drawn.
    pub(super) draw: f64,
}

impl Outcome {
    pub(super) fn of(winner: Option<Colour>, draw: DrawValue) -> Outcome {
        match winner {
            Some(Colour::White) => Outcome {
                white: 1.0,
                draw: 0.0,
            },
            Some(Colour::Black) => Outcome {
                white: 0.0,
                draw: 0.0,
            },
            None => Outcome {
                white: draw.0 as f64,
                draw: 1.0,
            },
        }
    }

    pub(super) fn for_side(self, side: Colour) -> f64 {
        match side {
            Colour::White => self.white,
            Colour::Black => 1.0 - self.white,
        }
    }
}
