//! The referee: a game played from a dealt pair of piles, as the match
//! runner and the browser GUI hold it. The rules core knows only the public
//! multisets of the piles; the referee knows their order (the [`Deal`]),
//! turns the engines' `@` into the tile drawn, and checks every move with
//! the one rules core. It speaks move tokens, so its history is exactly the
//! move list of protocol.md.

mod deal;
mod record;
mod sample;

pub use deal::{Deal, DealError};
pub use record::{GameRecord, RecordError, Side};
pub use sample::{DataSet, PositionSample, SKIP_PLIES};

use crate::rules::{
    clip, kind_name, Colour, Game, GameEnd, Kind, Move, MoveList, MoveToken, Piece, Position,
};
use std::fmt;

/// A move the referee refused, and why; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The token as received (clipped for display).
    pub token: String,
    /// Why it was refused.
    pub why: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' refused: {}", self.token, self.why)
    }
}

impl std::error::Error for Refusal {}

/// What an accepted token did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// `@`: the side to move drew this kind and must place it next.
    Drew(Kind),
    /// A placement or a piece move, now on the table.
    Moved,
}

/// A game in progress under the referee: the start, the deal, the moves.
#[derive(Clone, Debug)]
pub struct Referee {
    start: Position,
    deal: Deal,
    game: Game,
    drawn: [usize; 2],
    pending: Option<Kind>,
    end: Option<GameEnd>,
}

impl Referee {
    /// A game from `start` whose piles are laid out as `deal`. The deal
    /// must hold exactly what the start's piles hold.
    pub fn new(start: Position, deal: Deal) -> Result<Referee, DealError> {
        deal.check_against(&start)?;
        let end = start.ending();
        Ok(Referee {
            game: Game::new(start.clone()),
            start,
            deal,
            drawn: [0; 2],
            pending: None,
            end,
        })
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The order of both piles.
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The game so far (without a drawn tile not yet placed).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The kind the side to move has drawn and must place, if any.
    pub fn pending(&self) -> Option<Kind> {
        self.pending
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<GameEnd> {
        self.end
    }

    /// The move list of protocol.md: every move played, then `N@` when a
    /// drawn tile waits to be placed.
    pub fn tokens(&self) -> Vec<String> {
        let mut tokens: Vec<String> = self.game.moves().iter().map(|m| m.to_string()).collect();
        if let Some(kind) = self.pending {
            let piece = Piece::new(self.position().side_to_move(), kind);
            tokens.push(format!("{}@", piece.letter()));
        }
        tokens
    }

    /// The `position` command that shows an engine this game.
    pub fn position_command(&self) -> String {
        let mut line = if self.start == Position::startpos() {
            "position startpos".to_string()
        } else {
            format!("position fen {}", self.start)
        };
        let tokens = self.tokens();
        if !tokens.is_empty() {
            line.push_str(" moves ");
            line.push_str(&tokens.join(" "));
        }
        line
    }

    /// What the side to move may answer: the placements of the drawn tile,
    /// or its piece moves and `@` while its pile is not empty. Empty once
    /// the game is over.
    pub fn legal_tokens(&self) -> Vec<String> {
        if self.end.is_some() {
            return Vec::new();
        }
        let pos = self.position();
        let mut list = MoveList::new();
        let mut scratch = pos.clone();
        match self.pending {
            Some(kind) => scratch.generate_placements(kind, &mut list),
            None => scratch.generate_steps(&mut list),
        }
        let mut tokens: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        if self.pending.is_none() && !pos.pile(pos.side_to_move()).is_empty() {
            tokens.push("@".into());
        }
        tokens
    }

    /// Applies the side to move's answer: `@` to draw, or a move. After a
    /// draw only a placement of the drawn kind is accepted. A refused token
    /// changes nothing.
    pub fn play(&mut self, token: &str) -> Result<Played, Refusal> {
        let refuse = |why: String| Refusal {
            token: clip(token),
            why,
        };
        if let Some(end) = self.end {
            return Err(refuse(format!("the game is over ({end})")));
        }
        let pos = self.game.position();
        let us = pos.side_to_move();
        let parsed = token
            .parse::<MoveToken>()
            .map_err(|e| refuse(e.to_string()))?;
        match (parsed, self.pending) {
            (MoveToken::Draw, None) => {
                let Some(kind) = self.deal.tile(us, self.drawn[us.index()]) else {
                    return Err(refuse(format!("{us}'s pile is empty")));
                };
                self.drawn[us.index()] += 1;
                self.pending = Some(kind);
                self.end = pos.ending_after_draw(kind);
                Ok(Played::Drew(kind))
            }
            (MoveToken::Draw | MoveToken::Drawn(_), Some(kind)) => Err(refuse(format!(
                "a drawn {} waits to be placed",
                kind_name(kind)
            ))),
            (MoveToken::Drawn(_), None) => Err(refuse(
                "the referee deals the tiles: answer @ to draw".into(),
            )),
            (MoveToken::Place(kind, _), None) => Err(refuse(format!(
                "draw first (@): the {} is not known to be on top of the pile",
                kind_name(kind)
            ))),
            (MoveToken::Place(kind, _), Some(drawn)) if kind != drawn => Err(refuse(format!(
                "the drawn tile is a {}, not a {}",
                kind_name(drawn),
                kind_name(kind)
            ))),
            (MoveToken::Step(..), Some(drawn)) => Err(refuse(format!(
                "a drawn {} must be placed first",
                kind_name(drawn)
            ))),
            (MoveToken::Place(..) | MoveToken::Step(..), _) => {
                let mv = pos.parse_move(token).map_err(|e| refuse(e.to_string()))?;
                self.game
                    .play(mv)
                    .map_err(|_| refuse("illegal here".into()))?;
                self.pending = None;
                self.end = self.game.ending();
                Ok(Played::Moved)
            }
        }
    }

    /// Takes back the last token: a placement goes back to its drawn tile
    /// waiting (`N@`), a draw goes back onto the pile, a piece move is
    /// undone. The game is replayed from the start on the same deal.
    /// Returns false when there is nothing to take back.
    pub fn take_back(&mut self) -> bool {
        let mut tokens = self.full_tokens();
        if tokens.pop().is_none() {
            return false;
        }
        let mut replay = Referee {
            game: Game::new(self.start.clone()),
            drawn: [0; 2],
            pending: None,
            end: self.start.ending(),
            ..self.clone()
        };
        // Every token was accepted before, on the same deal.
        if tokens.iter().any(|t| replay.play(t).is_err()) {
            return false;
        }
        *self = replay;
        true
    }

    /// Plays a move list as protocol.md and the game records write it: a
    /// placement `N@x,y` stands for the draw and the placement, and must
    /// agree with the deal; a last `N@` stands for a draw not yet placed
    /// (a game that ended on it, or was forfeited before the placement).
    /// Stops at the first refused token.
    pub fn replay<S: AsRef<str>>(&mut self, tokens: &[S]) -> Result<(), Refusal> {
        for (i, token) in tokens.iter().enumerate() {
            let token = token.as_ref();
            match (token.parse(), self.pending) {
                (Ok(MoveToken::Place(..)), None) => {
                    self.play("@")?;
                }
                (Ok(MoveToken::Drawn(kind)), None) => {
                    let refuse = |why: String| Refusal {
                        token: clip(token),
                        why,
                    };
                    if i + 1 != tokens.len() {
                        return Err(refuse("a drawn tile 'N@' may only come last".into()));
                    }
                    if let Played::Drew(drawn) = self.play("@")? {
                        if drawn != kind {
                            self.take_back();
                            return Err(refuse(format!(
                                "the deal gives a {} here, not a {}",
                                kind_name(drawn),
                                kind_name(kind)
                            )));
                        }
                    }
                    continue;
                }
                _ => {}
            }
            self.play(token)?;
        }
        Ok(())
    }

    /// Every token accepted so far, `@` included: the moves with each
    /// placement after a draw written as `@` then the placement.
    pub fn full_tokens(&self) -> Vec<String> {
        let mut out = Vec::new();
        for mv in self.game.moves() {
            // Every placement on the table was drawn first.
            if matches!(mv, Move::Place { .. }) {
                out.push("@".to_string());
            }
            out.push(mv.to_string());
        }
        if self.pending.is_some() {
            out.push("@".into());
        }
        out
    }

    /// Who won, from a colour's view: 1, ½ or 0; `None` while playing.
    pub fn score(&self, colour: Colour) -> Option<f64> {
        self.end.map(|e| match e.winner {
            None => 0.5,
            Some(w) if w == colour => 1.0,
            Some(_) => 0.0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Ending;

    fn referee(deal: &str) -> Referee {
        Referee::new(Position::startpos(), deal.parse().unwrap()).unwrap()
    }

    const DEAL: &str = "QKRRBBNNPPPPPPPP/nkqrrbbnpppppppp";

    #[test]
    fn draws_follow_the_deal_and_placements_must_match() {
        let mut r = referee(DEAL);
        assert_eq!(r.play("@"), Ok(Played::Drew(Kind::Queen)));
        assert_eq!(r.tokens(), ["Q@"]);
        assert_eq!(r.position_command(), "position startpos moves Q@");
        for bad in ["K@0,0", "@", "Q@", "0,0-0,1", "Q@1,0", "junk"] {
            let before = r.tokens();
            assert!(r.play(bad).is_err(), "{bad}");
            assert_eq!(r.tokens(), before, "{bad} changed the game");
        }
        assert_eq!(r.play("Q@0,0"), Ok(Played::Moved));
        assert!(r.play("n@1,0").is_err(), "Black must draw first");
        assert_eq!(r.play("@"), Ok(Played::Drew(Kind::Knight)));
        assert_eq!(r.legal_tokens().len(), 8);
        r.play("n@1,1").unwrap();
        assert_eq!(r.full_tokens(), ["@", "Q@0,0", "@", "n@1,1"]);
        assert_eq!(r.position_command(), "position startpos moves Q@0,0 n@1,1");
        assert!(r.legal_tokens().contains(&"@".to_string()));
    }

    #[test]
    fn take_back_replays_on_the_same_deal() {
        let mut r = referee(DEAL);
        r.replay(&["Q@0,0", "n@1,1", "K@-1,-1"]).unwrap();
        assert!(r.take_back());
        assert_eq!(r.tokens(), ["Q@0,0", "n@1,1", "K@"]);
        assert!(r.take_back());
        assert_eq!(r.tokens(), ["Q@0,0", "n@1,1"]);
        assert_eq!(r.play("@"), Ok(Played::Drew(Kind::King)));
        while r.take_back() {}
        assert!(r.tokens().is_empty());
        assert!(!r.take_back());
    }

    /// The match runner and the GUI judge repetition through the
    /// referee's game: a third occurrence across moved pawns' steps ends
    /// it (issue 24, item 1), and no move is taken after.
    #[test]
    fn repetition_across_moved_pawn_steps_ends_the_game() {
        let start = "K0,0/P1,0*/k2,0/r1,-1 w -/- 0 10".parse().unwrap();
        let mut r = Referee::new(start, "/".parse().unwrap()).unwrap();
        let walk = "1,0-1,1 1,-1-1,0 0,0-0,1 2,0-2,1 1,1-1,2 1,0-1,1 0,1-0,2 2,1-2,2";
        for token in walk.split(' ') {
            assert_eq!(r.ending(), None, "ended before {token}");
            assert_eq!(r.play(token), Ok(Played::Moved), "{token}");
        }
        let end = r.ending().map(|e| e.ending);
        assert_eq!(end, Some(Ending::Repetition));
        assert!(r.play("0,2-0,3").is_err(), "a move after the end");
    }

    #[test]
    fn a_drawn_tile_that_cannot_be_placed_ends_the_game() {
        // Black's knight can block nowhere (tests/rules.rs shows why).
        let start: Position = "P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30".parse().unwrap();
        let mut r = Referee::new(start.clone(), "/n".parse().unwrap()).unwrap();
        assert_eq!(r.ending(), None);
        assert_eq!(r.play("@"), Ok(Played::Drew(Kind::Knight)));
        assert_eq!(
            r.ending(),
            Some(GameEnd {
                winner: Some(Colour::White),
                ending: Ending::DrawnTileCheckmate(Kind::Knight)
            })
        );
        assert!(r.legal_tokens().is_empty());
        assert!(r.play("n@2,0").is_err());
        assert_eq!(r.score(Colour::White), Some(1.0));
        assert_eq!(
            r.position_command(),
            format!("position fen {start} moves n@")
        );
    }

    #[test]
    fn deals_are_seeded_and_checked() {
        let start = Position::startpos();
        let a = Deal::from_seed(&start, 7);
        assert_eq!(a, Deal::from_seed(&start, 7));
        assert_ne!(a, Deal::from_seed(&start, 8));
        assert_eq!(a.to_string().parse::<Deal>().unwrap(), a);
        assert!(a.check_against(&start).is_ok());
        for bad in ["", "QK", "QKRRBBNNPPPPPPPP/QKRRBBNNPPPPPPPP", "Xx/"] {
            let ok = bad
                .parse::<Deal>()
                .and_then(|d| Referee::new(start.clone(), d).map(|_| ()));
            assert!(ok.is_err(), "{bad}");
        }
    }

    #[test]
    fn records_round_trip_and_replay() {
        let mut r = referee(DEAL);
        r.replay(&["Q@0,0", "n@1,1", "K@-1,-1", "k@2,2"]).unwrap();
        let white = Side {
            name: "chex".into(),
            ..Side::default()
        };
        let rec = GameRecord::from_referee(&r, white, Side::default());
        let line = rec.to_json_line();
        assert!(!line.contains('\n'));
        let back = GameRecord::from_json_line(&line).unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.referee().unwrap().position(), r.position());
        assert!(rec
            .to_text()
            .ends_with("1. Q@0,0 n@1,1 2. K@-1,-1 k@2,2 *\n"));
        let mut bad = rec.clone();
        bad.moves[2] = "R@-1,0".into();
        assert!(matches!(
            bad.referee(),
            Err(RecordError::Move { index: 3, .. })
        ));
        assert!(GameRecord::from_json_line("{\"start\":1}").is_err());
    }

    #[test]
    fn replay_accepts_a_last_drawn_tile_that_matches_the_deal() {
        let mut r = referee(DEAL);
        r.replay(&["Q@0,0", "n@"]).unwrap();
        assert_eq!(r.pending(), Some(Kind::Knight));
        assert_eq!(r.tokens(), ["Q@0,0", "n@"]);
        for bad in [&["Q@0,0", "q@"][..], &["Q@", "Q@0,0"], &["K@"]] {
            let mut r = referee(DEAL);
            assert!(r.replay(bad).is_err(), "{bad:?}");
        }
        // The drawn-tile ending survives a record: the last token is `n@`.
        let start: Position = "P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30".parse().unwrap();
        let mut r = Referee::new(start, "/n".parse().unwrap()).unwrap();
        r.play("@").unwrap();
        let rec = GameRecord::from_referee(&r, Side::default(), Side::default());
        assert_eq!(rec.moves, ["n@"]);
        assert_eq!(rec.result, "1-0");
        assert_eq!(rec.ending, "drawn-tile-checkmate");
        assert_eq!(rec.referee().unwrap().ending(), r.ending());
    }
}
