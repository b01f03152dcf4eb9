//! The study routes: a hint, the analysis on or off, an action to ask
//! the analysis about, a review, and the cursor. Each asks the game for the change (`game::study`); the engine
//! driver runs the searches.

use super::reply::change;
use super::request::parse;
use crate::gui::game::study::{ask_hint, ask_probe, set_cursor, start_review};
use crate::gui::review::REVIEW_MOVETIME;
use crate::gui::shared::Shared;
use crate::gui::study::decision_of_ply;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use axum::routing::post;
use axum::Router;
use serde::Deserialize;
use std::sync::Arc;

/// The study routes.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/api/hint", post(post_hint))
        .route("/api/analysis", post(post_analysis))
        .route("/api/probe", post(post_probe))
        .route("/api/review", post(post_review))
        .route("/api/cursor", post(post_cursor))
}

/// The body of `POST /api/hint`: empty, or `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {}

/// `POST /api/hint`: asks the engine for the person's best action.
async fn post_hint(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        if !body.iter().all(u8::is_ascii_whitespace) {
            let _: HintRequest = parse(&body)?;
        }
        ask_hint(state)
    })
}

/// The body of `POST /api/analysis`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    on: bool,
}

/// `POST /api/analysis`: analysis on or off.
async fn post_analysis(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: AnalysisRequest = parse(&body)?;
        state.study.analysis.on = request.on;
        state.study.analysis.message.clear();
        Ok(())
    })
}

/// The body of `POST /api/probe`: the action to ask about.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProbeRequest {
    token: String,
}

/// `POST /api/probe`: "What about this move?" in the analysed position.
async fn post_probe(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: ProbeRequest = parse(&body)?;
        ask_probe(state, &request.token)
    })
}

/// The body of `POST /api/review`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    movetime: Option<u64>,
}

/// `POST /api/review`: reviews the game so far, in the background.
async fn post_review(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: ReviewRequest = parse(&body)?;
        start_review(state, request.movetime.unwrap_or(REVIEW_MOVETIME))
    })
}

/// The body of `POST /api/cursor`: a decision (`null` for the game as
/// it stands), or the move `ply` of the move list, shown where it was
/// played.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CursorRequest {
    #[serde(default)]
    decision: Option<usize>,
    #[serde(default)]
    ply: Option<usize>,
}

/// `POST /api/cursor`: the position the table shows.
async fn post_cursor(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: CursorRequest = parse(&body)?;
        let decision = match (request.decision, request.ply) {
            (Some(_), Some(_)) => return Err("give a decision or a ply, not both".into()),
            (None, Some(ply)) => Some(decision_of_ply(&state.referee, ply)?),
            (decision, None) => decision,
        };
        set_cursor(state, decision)
    })
}
