//! The game's routes: its view and record, a person's move, a new game,
//! the settings, take-back, loading a record and resuming a paused
//! engine. Each reads its request, changes or reads the game under the
//! lock, and answers with the new view or one line saying why not.

use super::reply::{change, view_response};
use super::request::{parse, text, ClockRequest};
use crate::gui::flags::flag_due;
use crate::gui::game::{check_level, GuiState, Mode, MOVETIME_RANGE};
use crate::gui::refused::{in_range, Refused};
use crate::gui::shared::Shared;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::sync::Arc;

/// The game's routes.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/state", get(get_state))
        .route("/api/record", get(get_record))
        .route("/api/move", post(post_move))
        .route("/api/new", post(post_new))
        .route("/api/settings", post(post_settings))
        .route("/api/takeback", post(post_takeback))
        .route("/api/load", post(post_load))
        .route("/api/resume", post(post_resume))
}

/// `GET /api/state`: the game's view.
async fn get_state(State(shared): State<Arc<Shared>>) -> Response {
    view_response(&shared.lock())
}

/// `GET /api/record`: the game as a match record, one JSON line, to save.
async fn get_record(State(shared): State<Arc<Shared>>) -> Response {
    let line = shared.lock().record();
    (
        [(header::CONTENT_TYPE, "application/json")],
        format!("{line}\n"),
    )
        .into_response()
}

/// The body of `POST /api/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    token: String,
}

/// `POST /api/move`: the person's move, as a token.
async fn post_move(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    flag_due(&shared);
    change(&shared, |state| {
        let request: MoveRequest = parse(&body)?;
        state.human_play(&request.token)
    })
}

/// The body of `POST /api/new`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    mode: Mode,
    movetime: Option<u64>,
    seed: Option<u64>,
    /// A clock game; absent, the engine has a fixed time per move.
    clock: Option<ClockRequest>,
    level: Option<u8>,
    /// In a clock game, the engine thinks on the person's time; off when
    /// absent.
    #[serde(default)]
    ponder: bool,
}

/// A move time the page may ask for, or why not.
fn check_movetime(ms: u64) -> Result<u64, Refused> {
    in_range("movetime", ms, &MOVETIME_RANGE, " ms")
}

/// `POST /api/new`: a new game, in a mode, perhaps with a move time and
/// a seed.
async fn post_new(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: NewRequest = parse(&body)?;
        let movetime = request.movetime.map(check_movetime).transpose()?;
        let clock = request.clock.map(ClockRequest::clock).transpose()?;
        let level = request.level.map(check_level).transpose()?;
        state.clock = clock;
        state.level = level.unwrap_or(state.level);
        state.ponder = request.ponder;
        state.new_game(request.mode, movetime, request.seed);
        Ok(())
    })
}

/// The body of `POST /api/settings`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsRequest {
    movetime: Option<u64>,
    level: Option<u8>,
}

/// `POST /api/settings`: the engine's time per move, or its level (the
/// level takes effect from the engine's next search).
async fn post_settings(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: SettingsRequest = parse(&body)?;
        if request.movetime.is_none() && request.level.is_none() {
            return Err("nothing to set: give movetime or level".into());
        }
        let movetime = request.movetime.map(check_movetime).transpose()?;
        let level = request.level.map(check_level).transpose()?;
        state.movetime = movetime.unwrap_or(state.movetime);
        state.level = level.unwrap_or(state.level);
        Ok(())
    })
}

/// `POST /api/takeback`: back to the start of the person's previous turn.
async fn post_takeback(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, GuiState::take_back)
}

/// `POST /api/load`: replaces the game with a recorded one.
async fn post_load(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| state.load(text(&body)?))
}

/// `POST /api/resume`: lets a paused engine play again.
async fn post_resume(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, |state| {
        state.paused = false;
        Ok(())
    })
}
