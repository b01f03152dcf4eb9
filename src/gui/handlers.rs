//! The API's handlers: each reads its request, changes or reads the game
//! under the lock, and answers with the new view or one line saying why
//! not; changes are published to the event streams and the engine driver.

use super::clock::{self, Clock, ClockRequest};
use super::reply::{in_range, refused};
use super::shared::Shared;
use super::state::{check_level, GuiState, Mode, MOVETIME_RANGE};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The game's view as JSON.
fn view_response(state: &GuiState) -> Response {
    axum::Json(state.view()).into_response()
}

/// Reads a JSON body, or says in one line why it is not one.
pub(super) fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("malformed request: {e}"))
}

/// A body as text: axum's own `String` extractor would refuse bytes that
/// are not UTF-8 with a message of its own, not ours.
fn text(body: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(body).map_err(|e| format!("malformed request: not UTF-8: {e}"))
}

/// Applies a change to the game: on success publishes it and answers with
/// the new view; on refusal answers 400 with the reason, the game as it was.
pub(super) fn change(
    shared: &Shared,
    f: impl FnOnce(&mut GuiState) -> Result<(), String>,
) -> Response {
    let mut state = shared.lock();
    match f(&mut state) {
        Ok(()) => {
            shared.publish(&mut state);
            view_response(&state)
        }
        Err(why) => refused(why),
    }
}

/// `GET /api/state`: the game's view.
pub(super) async fn get_state(State(shared): State<Arc<Shared>>) -> Response {
    view_response(&shared.lock())
}

/// `GET /api/record`: the game as a match record, one JSON line, to save.
pub(super) async fn get_record(State(shared): State<Arc<Shared>>) -> Response {
    let line = shared.lock().record();
    (
        [(header::CONTENT_TYPE, "application/json")],
        format!("{line}\n"),
    )
        .into_response()
}

/// A page's open event stream, counted in [`Shared::pages`] while it
/// lives: dropped with the stream when the page goes.
struct OpenPage(Arc<Shared>);

impl OpenPage {
    fn new(shared: Arc<Shared>) -> OpenPage {
        shared.pages.fetch_add(1, Ordering::SeqCst);
        // An analysis asked for before any page was open may run now.
        shared.wake.notify_one();
        OpenPage(shared)
    }
}

impl Drop for OpenPage {
    fn drop(&mut self) {
        self.0.pages.fetch_sub(1, Ordering::SeqCst);
    }
}

/// `GET /api/events`: the view now and after every change, as server-sent
/// `state` events, with keep-alive comments between.
pub(super) async fn events(
    State(shared): State<Arc<Shared>>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let rx = shared.changed.subscribe();
    let shared_keep_alive = shared.keep_alive;
    let page = OpenPage::new(shared);
    let stream =
        futures_util::stream::unfold((page, rx, true), |(page, mut rx, first)| async move {
            if !first && rx.changed().await.is_err() {
                return None;
            }
            rx.mark_unchanged();
            let json = serde_json::to_string(&page.0.lock().view()).unwrap_or_default();
            let event = Event::default().event("state").data(json);
            Some((Ok(event), (page, rx, false)))
        });
    let keep_alive = KeepAlive::default().interval(shared_keep_alive);
    Sse::new(stream).keep_alive(keep_alive)
}

/// The body of `POST /api/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    token: String,
}

/// `POST /api/move`: the person's move, as a token.
pub(super) async fn post_move(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    clock::flag_due(&shared);
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
}

/// A move time the page may ask for, or why not.
fn check_movetime(ms: u64) -> Result<u64, String> {
    in_range("movetime", ms, &MOVETIME_RANGE, " ms")
}

/// `POST /api/new`: a new game, in a mode, perhaps with a move time and
/// a seed.
pub(super) async fn post_new(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: NewRequest = parse(&body)?;
        let movetime = request.movetime.map(check_movetime).transpose()?;
        let clock = request.clock.map(|c| Clock::new(c.base_ms, c.inc_ms));
        let clock = clock.transpose()?;
        let level = request.level.map(check_level).transpose()?;
        state.clock = clock;
        state.level = level.unwrap_or(state.level);
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
pub(super) async fn post_settings(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
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
pub(super) async fn post_takeback(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, GuiState::take_back)
}

/// `POST /api/load`: replaces the game with a recorded one.
pub(super) async fn post_load(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| state.load(text(&body)?))
}

/// `POST /api/resume`: lets a paused engine play again.
pub(super) async fn post_resume(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, |state| {
        state.paused = false;
        Ok(())
    })
}
