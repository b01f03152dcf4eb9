//! The pieces of the views the page receives that the game's view and
//! the cursor's share, each built one way so that the two agree: a colour
//! as its word, the tiles of a position, and the last move of a game
//! (whose player, while a drawn tile waits, is the other side).

use crate::referee::Referee;
use crate::rules::{Colour, Move, Position};
use serde::Serialize;

/// A colour as the page reads it: `white` or `black`.
pub fn colour_word(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// A tile as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct TileView {
    /// Its file.
    pub x: i32,
    /// Its rank.
    pub y: i32,
    /// Its letter: upper case White, lower case Black.
    pub piece: String,
}

impl TileView {
    /// The tiles on the table of `position`.
    pub fn all(position: &Position) -> Vec<TileView> {
        position
            .tiles()
            .iter()
            .map(|t| TileView {
                x: t.square.x,
                y: t.square.y,
                piece: t.piece.letter().to_string(),
            })
            .collect()
    }
}

/// The last move as the page highlights it.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    /// The token.
    pub token: String,
    /// Where the tile came from; `None` for a placement.
    pub from: Option<[i32; 2]>,
    /// Where it went.
    pub to: [i32; 2],
    /// Who played it: `white` or `black`.
    pub by: String,
    /// True when the engine played it.
    pub engine: bool,
}

impl LastMove {
    /// The last completed move of `referee`'s game, if any; `engine` says
    /// whether the engine played it. A tile drawn and not yet placed is
    /// no move: the last one was the other side's, whose turn ended it.
    pub fn of(referee: &Referee, engine: bool) -> Option<LastMove> {
        let mv = *referee.game().moves().last()?;
        let from = match mv {
            Move::Step { from, .. } => Some([from.x, from.y]),
            Move::Place { .. } => None,
        };
        let to = mv.to();
        // A drawn tile does not change the side to move.
        let by = referee.position().side_to_move().opposite();
        Some(LastMove {
            token: mv.to_string(),
            from,
            to: [to.x, to.y],
            by: colour_word(by).into(),
            engine,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::Deal;

    #[test]
    fn the_last_move_is_the_other_sides_while_a_drawn_tile_waits() {
        let start = Position::startpos();
        let mut referee = Referee::new(start.clone(), Deal::from_seed(&start, 17)).unwrap();
        assert!(LastMove::of(&referee, false).is_none());
        referee.play("@").unwrap();
        let token = referee.legal_tokens()[0].clone();
        referee.play(&token).unwrap();
        let last = LastMove::of(&referee, true).unwrap();
        assert_eq!(
            (last.token.as_str(), last.by.as_str()),
            (token.as_str(), "white")
        );
        assert_eq!(last.from, None);
        // Black draws: the last move is still White's.
        referee.play("@").unwrap();
        let last = LastMove::of(&referee, true).unwrap();
        assert_eq!(
            (last.token.as_str(), last.by.as_str()),
            (token.as_str(), "white")
        );
        assert_eq!(TileView::all(referee.position()).len(), 1);
        assert_eq!(colour_word(Colour::Black), "black");
    }
}
