//! Games from a set-up position, and a game written out as the engine's
//! `position` command.
//!
//! The page's editor builds a position string (protocol.md's `position
//! fen` format); the server reads it with the rules' own parser, so a
//! position the engine would refuse is refused here with the same reason,
//! and the game in progress is left as it was. An accepted position starts
//! a new game whose piles are dealt from a seed, as every new game's are.

use super::reply::change;
use super::request::{parse, ClockRequest};
use crate::gui::game::{check_level, Mode};
use crate::gui::shared::Shared;
use crate::rules::Position;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::sync::Arc;

/// The routes of set-up positions and export.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/setup", post(post_setup))
        .route("/api/export", get(get_export))
}

/// The body of `POST /api/setup`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SetupRequest {
    /// The position string, or `startpos`.
    position: String,
    /// Who plays what from it.
    mode: Mode,
    /// The seed of its deal; the next seed when absent.
    seed: Option<u64>,
    /// A clock game; absent, the engine has a fixed time per move, as
    /// for `POST /api/new`.
    clock: Option<ClockRequest>,
    /// The engine's level; absent, the level as it stands.
    level: Option<u8>,
    /// In a clock game, the engine thinks on the person's time, as for
    /// `POST /api/new`; off when absent.
    #[serde(default)]
    ponder: bool,
}

/// `POST /api/setup`: a new game from a set-up position, with the time
/// control and level the request names, as a new game's: the page sends
/// what its Game panel has chosen.
async fn post_setup(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: SetupRequest = parse(&body)?;
        let start: Position = request.position.parse().map_err(|e| format!("{e}"))?;
        let clock = request.clock.map(ClockRequest::clock).transpose()?;
        let level = request.level.map(check_level).transpose()?;
        state.new_game_from(start, request.mode, request.seed, clock)?;
        state.level = level.unwrap_or(state.level);
        state.ponder = request.ponder;
        Ok(())
    })
}

/// `GET /api/export`: the game as the `position` command that shows an
/// engine this game (`position startpos moves …` or `position fen …
/// moves …`), one line of text.
async fn get_export(State(shared): State<Arc<Shared>>) -> Response {
    let line = shared.lock().referee.position_command();
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{line}\n"),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::game::GuiState;
    use crate::rules::Colour;

    #[test]
    fn a_set_up_position_starts_a_game_dealt_from_the_next_seed() {
        let mut state = GuiState::new(Mode::White, 100, 40, "chex".into());
        let fen = "k2,2/n1,1/K0,0 b QRRBBNNPPP/qrrbbnpp 0 1";
        state
            .new_game_from(fen.parse().unwrap(), Mode::Two, None, None)
            .unwrap();
        assert_eq!(state.seed, 41);
        assert_eq!(state.referee.start().to_string(), fen);
        assert_eq!(state.referee.position().side_to_move(), Colour::Black);
        assert_eq!(
            state.referee.position_command(),
            format!("position fen {fen}")
        );
        state.human_play("2,2-2,1").unwrap();
        assert_eq!(
            state.referee.position_command(),
            format!("position fen {fen} moves 2,2-2,1")
        );
    }
}
