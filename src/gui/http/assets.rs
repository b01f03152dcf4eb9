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

#[cfg(test)]
mod tests {
    use super::FILES;
    use crate::search::skill::{LADDER_ELO, NAMES};

    /// The help panel's table of levels prints the ladder the engine
    /// plays by, each level with its name and Elo.
    #[test]
    fn the_help_panel_prints_the_ladder() {
        let html = FILES[0].1;
        for (level, (name, elo)) in NAMES.iter().zip(LADDER_ELO).enumerate() {
            let row = format!(
                "<tr><td>{}</td><td>{name}</td><td>&asymp; {elo}</td></tr>",
                level + 1
            );
            assert!(html.contains(&row), "the help panel lacks {row}");
        }
    }
}
