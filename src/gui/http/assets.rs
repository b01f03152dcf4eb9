//! The page's files, built into the binary: nothing is fetched at run
//! time.

use super::reply::page;
use crate::gui::shared::Shared;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

/// The page's files, built into the binary: each path, its text and its
/// content type.
const FILES: [(&str, &str, &str); 6] = [
    (
        "/",
        include_str!("../page.html"),
        "text/html; charset=utf-8",
    ),
    (
        "/page.css",
        include_str!("../page.css"),
        "text/css; charset=utf-8",
    ),
    ("/page.js", include_str!("../page.js"), JS),
    ("/play.js", include_str!("../play.js"), JS),
    ("/study.js", include_str!("../study.js"), JS),
    ("/main.js", include_str!("../main.js"), JS),
];

/// The content type of the page's scripts.
const JS: &str = "text/javascript; charset=utf-8";

/// The routes of the page's files.
pub(super) fn router() -> Router<Arc<Shared>> {
    let files = FILES
        .iter()
        .fold(Router::new(), |router, &(path, body, kind)| {
            router.route(path, get(move || async move { page(body, kind) }))
        });
    // The browser asks for it on its own; the page names no icon.
    files.route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
}
