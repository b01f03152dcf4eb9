//! Which path the server answers how: the page's three files, the API's
//! handlers, and the guard and body limit in front of them all.

use super::guard::{guard, BODY_LIMIT};
use super::handlers::{
    events, get_record, get_state, post_load, post_move, post_new, post_resume, post_settings,
    post_takeback,
};
use super::reply::{bad, page};
use super::setup::{get_export, post_setup};
use super::shared::Shared;
use super::study::{post_analysis, post_cursor, post_hint, post_review};
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;

/// The page, built into the binary: nothing is fetched at run time.
const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");
const PLAY_JS: &str = include_str!("play.js");
const STUDY_JS: &str = include_str!("study.js");

/// Every route of the server, behind the [`guard`].
pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(PAGE_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/page.css",
            get(|| async { page(PAGE_CSS, "text/css; charset=utf-8") }),
        )
        .route(
            "/page.js",
            get(|| async { page(PAGE_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/play.js",
            get(|| async { page(PLAY_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/study.js",
            get(|| async { page(STUDY_JS, "text/javascript; charset=utf-8") }),
        )
        .route("/api/state", get(get_state))
        .route("/api/events", get(events))
        .route("/api/record", get(get_record))
        .route("/api/move", post(post_move))
        .route("/api/new", post(post_new))
        .route("/api/takeback", post(post_takeback))
        .route("/api/settings", post(post_settings))
        .route("/api/load", post(post_load))
        .route("/api/resume", post(post_resume))
        .route("/api/setup", post(post_setup))
        .route("/api/export", get(get_export))
        .route("/api/hint", post(post_hint))
        .route("/api/analysis", post(post_analysis))
        .route("/api/review", post(post_review))
        .route("/api/cursor", post(post_cursor))
        // The browser asks for it on its own; the page names no icon.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .fallback(|| async { bad(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(guard))
        .with_state(shared)
}
