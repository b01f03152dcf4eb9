//! The shapes of the server's answers: the game's view as JSON, a
//! built-in file of the page, and the one-line `error:` text every
//! refused request gets, so that the guard, the routes and the handlers
//! refuse alike.

use crate::gui::game::GuiState;
use crate::gui::refused::Refused;
use crate::gui::shared::Shared;
use crate::gui::view::View;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The game's view as JSON.
pub(super) fn view_response(state: &GuiState) -> Response {
    axum::Json(View::of(state)).into_response()
}

/// Applies a change to the game: on success publishes it and answers with
/// the new view; on refusal answers 400 with the reason, the game as it was.
pub(super) fn change(
    shared: &Shared,
    f: impl FnOnce(&mut GuiState) -> Result<(), Refused>,
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

/// A file of the page, built into the binary, with its content type.
pub(super) fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A refused request: the status and one line saying why.
pub(super) fn bad(status: StatusCode, why: String) -> Response {
    let line = why.lines().next().unwrap_or("").to_string();
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("error: {line}\n"),
    )
        .into_response()
}

/// A request refused as malformed or not allowed now: 400 and one line.
pub(super) fn refused(why: Refused) -> Response {
    bad(StatusCode::BAD_REQUEST, why)
}
