//! How the page and the engine's lines name things: a colour as its word,
//! the squares a token's tile comes from and goes to, and a `position`
//! command with one more token. Every view and job writes them one way.

use crate::rules::{Colour, MoveToken};

/// A colour as the page reads it: `white` or `black`.
pub fn colour_word(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// Writes a colour as its word in a view the page receives: for
/// `#[serde(serialize_with = "…")]` on a field of the game's own state
/// that the page reads as it is.
pub fn serialize_colour<S: serde::Serializer>(
    colour: &Colour,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(colour_word(*colour))
}

/// Where a token's tile comes from and goes: a step has both, a
/// placement only the second, a draw neither.
pub fn squares(token: &str) -> [Option<[i32; 2]>; 2] {
    match token.parse::<MoveToken>() {
        Ok(MoveToken::Step(from, to)) => [Some([from.x, from.y]), Some([to.x, to.y])],
        Ok(MoveToken::Place(_, to)) => [None, Some([to.x, to.y])],
        _ => [None, None],
    }
}

/// A `position` command with one more token on its move list.
pub fn with_move(position: &str, token: &str) -> String {
    if position.contains(" moves ") {
        format!("{position} {token}")
    } else {
        format!("{position} moves {token}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_of_tokens() {
        assert_eq!(squares("1,0--2,3"), [Some([1, 0]), Some([-2, 3])]);
        assert_eq!(squares("n@4,-1"), [None, Some([4, -1])]);
        assert_eq!(squares("@"), [None, None]);
        assert_eq!(squares("junk"), [None, None]);
        assert_eq!(
            with_move("position startpos", "Q@"),
            "position startpos moves Q@"
        );
        assert_eq!(
            with_move("position startpos moves Q@0,0", "n@"),
            "position startpos moves Q@0,0 n@"
        );
    }

    #[test]
    fn colours_are_written_in_lower_case() {
        assert_eq!(colour_word(Colour::White), "white");
        assert_eq!(colour_word(Colour::Black), "black");
        #[derive(serde::Serialize)]
        struct Mover {
            #[serde(serialize_with = "serialize_colour")]
            side: Colour,
        }
        let json = serde_json::to_string(&Mover {
            side: Colour::Black,
        });
        assert_eq!(json.unwrap(), r#"{"side":"black"}"#);
    }
}
