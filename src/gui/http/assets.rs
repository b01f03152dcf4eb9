//! The page's files, built into the binary: nothing is fetched at run
//! time.

use super::reply::page;
use crate::gui::shared::Shared;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The page, built into the binary: nothing is fetched at run time.
const PAGE_HTML: &str = include_str!("../page.html");
const PAGE_CSS: &str = include_str!("../page.css");
const PAGE_JS: &str = include_str!("../page.js");
const PLAY_JS: &str = include_str!("../play.js");
const STUDY_JS: &str = include_str!("../study.js");
const MAIN_JS: &str = include_str!("../main.js");

/// The routes of the page's files.
pub(super) fn router() -> Router<Arc<Shared>> {
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
        .route(
            "/main.js",
            get(|| async { page(MAIN_JS, "text/javascript; charset=utf-8") }),
        )
        // The browser asks for it on its own; the page names no icon.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}
