//! The written form of positions and moves (RULES.md section 7): parsing
//! with errors that say what is wrong, and formatting in canonical form.

use super::moves::Move;
use super::piece::{Colour, Kind, Piece};
use super::pile::Pile;
use super::position::setup::{PositionError, Setup};
use super::position::{Position, Tile};
use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// The start position's string.
pub const STARTPOS: &str = "- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1";

/// Why a position string or move token was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The position string does not have five space-separated fields.
    FieldCount(usize),
    /// A tile of the tiles field cannot be read.
    BadTile {
        /// The tile as written.
        tile: String,
        /// What is wrong with it.
        why: String,
    },
    /// The side field is not `w` or `b`.
    BadSide(String),
    /// The piles field cannot be read.
    BadPiles {
        /// The field as written.
        piles: String,
        /// What is wrong with it.
        why: String,
    },
    /// The halfmove or fullmove field is not a number.
    BadCounter {
        /// `halfmove` or `fullmove`.
        field: &'static str,
        /// The field as written.
        text: String,
    },
    /// The fields read, but they do not make a CHEX position.
    Inconsistent(PositionError),
    /// A move token cannot be read.
    BadMove {
        /// The token as written.
        token: String,
        /// What is wrong with it.
        why: String,
    },
    /// A move token reads, but is not legal in the position.
    IllegalMove {
        /// The token as written.
        token: String,
        /// Why it is not legal.
        why: String,
    },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::FieldCount(n) => write!(
                f,
                "a position string has 5 fields (tiles side piles halfmove fullmove), found {n}"
            ),
            NotationError::BadTile { tile, why } => write!(f, "bad tile '{tile}': {why}"),
            NotationError::BadSide(s) => write!(f, "bad side to move '{s}': expected 'w' or 'b'"),
            NotationError::BadPiles { piles, why } => write!(f, "bad piles '{piles}': {why}"),
            NotationError::BadCounter { field, text } => write!(
                f,
                "bad {field} field '{text}': expected a whole number up to {MAX_COUNTER}"
            ),
            NotationError::Inconsistent(e) => write!(f, "impossible position: {e}"),
            NotationError::BadMove { token, why } => write!(f, "bad move '{token}': {why}"),
            NotationError::IllegalMove { token, why } => write!(f, "illegal move '{token}': {why}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<PositionError> for NotationError {
    fn from(e: PositionError) -> Self {
        NotationError::Inconsistent(e)
    }
}

/// The largest halfmove clock or fullmove number a position string may
/// give.
pub const MAX_COUNTER: u32 = 1_000_000_000;

/// Input quoted in an error, cut to a readable length: a megabyte-long
/// token makes no better message.
pub fn clip(text: &str) -> String {
    const MAX: usize = 60;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

/// Reads an integer coordinate: an optional `-` and digits, nothing else.
fn parse_coordinate(text: &str) -> Result<i32, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{}' is not a whole number", clip(text)));
    }
    // Many leading zeros are harmless; too many digits are out of range.
    match text.parse::<i64>() {
        Ok(v) if v.abs() <= super::square::COORD_LIMIT as i64 => Ok(v as i32),
        _ => Err(format!("coordinate '{}' is beyond ±1000000000", clip(text))),
    }
}

impl FromStr for Square {
    type Err = String;

    /// Reads `x,y`.
    fn from_str(text: &str) -> Result<Square, String> {
        let (x, y) = text
            .split_once(',')
            .ok_or_else(|| format!("square '{}' is not of the form x,y", clip(text)))?;
        Ok(Square::new(parse_coordinate(x)?, parse_coordinate(y)?))
    }
}

fn parse_tile(text: &str) -> Result<Tile, NotationError> {
    let bad = |why: String| NotationError::BadTile {
        tile: clip(text),
        why,
    };
    let mut chars = text.chars();
    let letter = chars.next().ok_or_else(|| bad("empty tile".into()))?;
    let piece = Piece::from_letter(letter).ok_or_else(|| {
        bad(format!(
            "'{letter}' is not a piece letter (KQRBNP or kqrbnp)"
        ))
    })?;
    let rest = chars.as_str();
    let (square, moved) = match rest.strip_suffix('*') {
        Some(s) => (s, true),
        None => (rest, false),
    };
    let square: Square = square.parse().map_err(bad)?;
    if moved && piece.kind != Kind::Pawn {
        return Err(bad("only a pawn can be marked '*' (moved)".into()));
    }
    Ok(Tile {
        square,
        piece,
        moved,
    })
}

fn parse_pile(text: &str, colour: Colour, field: &str) -> Result<Pile, NotationError> {
    let bad = |why: String| NotationError::BadPiles {
        piles: clip(field),
        why,
    };
    let mut pile = Pile::EMPTY;
    if text == "-" {
        return Ok(pile);
    }
    if text.is_empty() {
        return Err(bad(format!("{colour}'s pile is empty: write '-'")));
    }
    for c in text.chars() {
        let piece =
            Piece::from_letter(c).ok_or_else(|| bad(format!("'{c}' is not a piece letter")))?;
        if piece.colour != colour {
            return Err(bad(format!("'{c}' in {colour}'s pile")));
        }
        if pile.count(piece.kind) >= piece.kind.set_count() {
            return Err(bad(format!(
                "more than {} '{c}' in {colour}'s pile",
                piece.kind.set_count()
            )));
        }
        pile.add(piece.kind);
    }
    Ok(pile)
}

impl FromStr for Position {
    type Err = NotationError;

    /// Reads a position string, or `startpos`.
    fn from_str(text: &str) -> Result<Position, NotationError> {
        if text.trim() == "startpos" {
            return Ok(Position::startpos());
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [tiles, side, piles, halfmove, fullmove] = fields[..] else {
            return Err(NotationError::FieldCount(fields.len()));
        };
        let tiles: Vec<Tile> = if tiles == "-" {
            Vec::new()
        } else {
            tiles.split('/').map(parse_tile).collect::<Result<_, _>>()?
        };
        let side = match side {
            "w" => Colour::White,
            "b" => Colour::Black,
            _ => return Err(NotationError::BadSide(clip(side))),
        };
        let (white, black) = piles
            .split_once('/')
            .ok_or_else(|| NotationError::BadPiles {
                piles: clip(piles),
                why: "expected White's pile, '/', Black's pile".into(),
            })?;
        let piles = [
            parse_pile(white, Colour::White, piles)?,
            parse_pile(black, Colour::Black, piles)?,
        ];
        // A cap far above any game keeps the clocks from overflowing.
        let counter = |field: &'static str, text: &str| match text.parse::<u32>() {
            Ok(n) if n <= MAX_COUNTER => Ok(n),
            _ => Err(NotationError::BadCounter {
                field,
                text: clip(text),
            }),
        };
        let halfmove = counter("halfmove", halfmove)?;
        let fullmove = counter("fullmove", fullmove)?;
        let setup = Setup {
            tiles,
            side,
            piles,
            halfmove,
            fullmove,
        };
        Ok(setup.position()?)
    }
}

fn write_pile(f: &mut fmt::Formatter<'_>, pile: Pile, colour: Colour) -> fmt::Result {
    if pile.is_empty() {
        return f.write_str("-");
    }
    for kind in Kind::ALL {
        for _ in 0..pile.count(kind) {
            write!(f, "{}", Piece::new(colour, kind).letter())?;
        }
    }
    Ok(())
}

impl fmt::Display for Position {
    /// Writes the canonical position string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tiles = self.tiles();
        if tiles.is_empty() {
            f.write_str("-")?;
        }
        for (i, t) in tiles.iter().enumerate() {
            let sep = if i == 0 { "" } else { "/" };
            let star = if t.moved { "*" } else { "" };
            write!(f, "{sep}{}{}{star}", t.piece.letter(), t.square)?;
        }
        write!(f, " {} ", self.side_to_move().letter())?;
        write_pile(f, self.pile(Colour::White), Colour::White)?;
        f.write_str("/")?;
        write_pile(f, self.pile(Colour::Black), Colour::Black)?;
        write!(f, " {} {}", self.halfmove_clock(), self.fullmove_number())
    }
}

/// A move token as written, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveToken {
    /// `N@x,y`: a tile of this kind placed on the square.
    Place(Kind, Square),
    /// `x,y-x,y`: a tile moved.
    Step(Square, Square),
    /// `N@`: a tile of this kind has been drawn and is yet to be placed.
    Drawn(Kind),
    /// `@`: "I draw", the tile not yet known.
    Draw,
}

impl FromStr for MoveToken {
    type Err = NotationError;

    fn from_str(token: &str) -> Result<MoveToken, NotationError> {
        let bad = |why: String| NotationError::BadMove {
            token: clip(token),
            why,
        };
        if token == "@" {
            return Ok(MoveToken::Draw);
        }
        if let Some((letter, square)) = token.split_once('@') {
            let mut chars = letter.chars();
            let kind = match (chars.next(), chars.next()) {
                (Some(c), None) => Kind::from_letter(c),
                _ => None,
            }
            .ok_or_else(|| bad(format!("'{letter}' is not a piece letter")))?;
            if square.is_empty() {
                return Ok(MoveToken::Drawn(kind));
            }
            return Ok(MoveToken::Place(kind, square.parse().map_err(bad)?));
        }
        // The separator is the first '-' that follows a digit.
        let bytes = token.as_bytes();
        let split = (1..bytes.len())
            .find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())
            .ok_or_else(|| bad("expected N@x,y or x,y-x,y".into()))?;
        let from = token[..split].parse().map_err(bad)?;
        let to = token[split + 1..].parse().map_err(bad)?;
        Ok(MoveToken::Step(from, to))
    }
}

impl Position {
    /// Reads a complete move (`N@x,y` or `x,y-x,y`) and checks that it is
    /// legal here.
    pub fn parse_move(&self, token: &str) -> Result<Move, NotationError> {
        let illegal = |why: String| NotationError::IllegalMove {
            token: clip(token),
            why,
        };
        let us = self.side_to_move();
        let mv = match token.parse::<MoveToken>()? {
            MoveToken::Place(kind, to) => {
                if self.pile(us).count(kind) == 0 {
                    return Err(illegal(format!(
                        "{us} has no '{}' left in its pile",
                        kind.letter()
                    )));
                }
                Move::Place {
                    piece: Piece::new(us, kind),
                    to,
                }
            }
            MoveToken::Step(from, to) => {
                match self.tile_at(from) {
                    None => return Err(illegal(format!("no tile on {from}"))),
                    Some(t) if t.piece.colour != us => {
                        return Err(illegal(format!("the tile on {from} is not {us}'s")))
                    }
                    _ => {}
                }
                Move::Step { from, to }
            }
            MoveToken::Draw | MoveToken::Drawn(_) => {
                return Err(NotationError::BadMove {
                    token: clip(token),
                    why: "a draw is not a complete move: place the tile with N@x,y".into(),
                })
            }
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(illegal(
                "it breaks the movement, connection or check rules here".into(),
            ))
        }
    }
}
