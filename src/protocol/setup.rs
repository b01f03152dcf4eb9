//! The game a `position` command describes: its start and its moves,
//! each checked against the rules, so that a bad list is refused whole
//! and the engine keeps the game it had; and the actions a `go
//! searchmoves` list names, checked the same way.

use super::command::Start;
use crate::rules::{clip, kind_name, Game, Kind, Move, MoveToken, Position, MAX_COUNTER};
use crate::search::{root_actions, Action};

/// The root actions `names` (a `go searchmoves` list) stand for in `pos`,
/// with a drawn tile of `pending` kind, or what is wrong with the first
/// that stands for none of them.
pub(super) fn root_actions_named(
    pos: &Position,
    pending: Option<Kind>,
    names: &[String],
) -> Result<Vec<Action>, String> {
    let legal = root_actions(pos, pending);
    names
        .iter()
        .map(|name| {
            let token: MoveToken = name.parse().map_err(|e| format!("go searchmoves: {e}"))?;
            legal
                .iter()
                .copied()
                .find(|&action| names_action(token, action))
                .ok_or_else(|| {
                    format!(
                        "go searchmoves: '{}' is not a legal action here",
                        clip(name)
                    )
                })
        })
        .collect()
}

/// True when `token` names `action`.
fn names_action(token: MoveToken, action: Action) -> bool {
    match (token, action) {
        (MoveToken::Draw, Action::Draw) => true,
        (MoveToken::Place(kind, square), Action::Play(Move::Place { piece, to })) => {
            piece.kind == kind && to == square
        }
        (MoveToken::Step(f, t), Action::Play(Move::Step { from, to })) => from == f && to == t,
        _ => false,
    }
}

/// Builds the game of a `position` command, with the kind of a tile drawn
/// and still to be placed (a last `N@`), or says what is wrong.
/// A last `@` is a draw whose tile is not known yet: the caller ponders
/// the opponent's draw (`bestmove X ponder @`), and the game is the one
/// before the draw, `unknown_draw` set.
pub(super) fn setup(start: &Start, moves: &[String]) -> Result<Setup, String> {
    let position = match start {
        Start::StartPos => Position::startpos(),
        Start::Fen(text) => text.parse().map_err(|e| format!("{e}"))?,
    };
    let mut game = Game::new(position);
    let mut pending = None;
    let mut unknown_draw = false;
    for (i, token) in moves.iter().enumerate() {
        let n = i + 1;
        let token_shown = clip(token);
        if pending.is_some() || unknown_draw {
            return Err(format!(
                "move {n} '{token_shown}': a drawn tile (N@ or @) must be the last of the moves"
            ));
        }
        if let Some(end) = game.ending() {
            return Err(format!(
                "move {n} '{token_shown}': the game is over ({end})"
            ));
        }
        let pos = game.position();
        match token.parse::<MoveToken>() {
            Ok(MoveToken::Drawn(kind)) => {
                if pos.pile(pos.side_to_move()).count(kind) == 0 {
                    return Err(format!(
                        "move {n} '{token_shown}': {} has no {} left to draw",
                        pos.side_to_move(),
                        kind_name(kind)
                    ));
                }
                pending = Some(kind);
            }
            Ok(MoveToken::Draw) if n == moves.len() => {
                if pos.pile(pos.side_to_move()).is_empty() {
                    return Err(format!(
                        "move {n} '@': {} has no tile left to draw",
                        pos.side_to_move()
                    ));
                }
                unknown_draw = true;
            }
            Ok(MoveToken::Draw) => {
                return Err(format!(
                    "move {n} '@': say which tile was drawn, as N@ or N@x,y; a bare @ only last"
                ))
            }
            Ok(_) => {
                let mv = pos
                    .parse_move(token)
                    .map_err(|e| format!("move {n}: {e}"))?;
                if game.counters_overflow(mv) {
                    return Err(format!(
                        "move {n} '{mv}': the fullmove number or halfmove clock would pass {MAX_COUNTER}, the largest a position string holds"
                    ));
                }
                // parse_move checked legality, so play cannot refuse it.
                game.play(mv)
                    .map_err(|mv| format!("move {n} '{mv}' is illegal"))?;
            }
            Err(e) => return Err(format!("move {n}: {e}")),
        }
    }
    Ok(Setup {
        game,
        pending,
        unknown_draw,
    })
}

/// The game of a `position` command.
pub(super) struct Setup {
    /// The moves played.
    pub game: Game,
    /// The kind of a tile drawn and still to be placed (a last `N@`).
    pub pending: Option<Kind>,
    /// The side to move has drawn a tile nobody knows yet (a last `@`).
    pub unknown_draw: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_refuses_bad_move_lists_whole() {
        let start = Start::StartPos;
        let ok = |moves: &[&str]| {
            setup(
                &start,
                &moves.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        assert!(ok(&["Q@0,0", "p@1,1"]).is_ok());
        let drawn = ok(&["Q@0,0", "n@"]).unwrap();
        assert_eq!(drawn.pending, Some(Kind::Knight));
        assert_eq!(drawn.game.moves().len(), 1);
        assert!(!drawn.unknown_draw);
        // A last bare @: Black has drawn, the tile not known yet.
        let unknown = ok(&["Q@0,0", "@"]).unwrap();
        assert_eq!((unknown.pending, unknown.unknown_draw), (None, true));
        assert_eq!(unknown.game.moves().len(), 1);
        for bad in [
            vec!["Q@1,0"],                // first tile not on 0,0
            vec!["Q@0,0", "@", "n@1,1"],  // a bare @ not last
            vec!["@", "Q@0,0"],           // the same, first
            vec!["Q@0,0", "n@", "n@1,1"], // N@ not last
            vec!["x@0,0"],                // no such piece
            vec!["Q@0,0", "q@0,0"],       // an occupied square
            vec!["0,0-0,1"],              // no tile there
        ] {
            assert!(ok(&bad).is_err(), "{bad:?}");
        }
    }
}
