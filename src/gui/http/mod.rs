//! The HTTP side of the server: one router per resource — the game
//! (`game`), study (`study`), set-up positions (`setup`), the event stream
//! (`events`) and the page's files (`assets`) — behind the `guard` and its
//! body limit, on connections that `idle` closes when they fall silent.
//! `request` reads a request and `reply` shapes every answer, a refusal
//! as one `error:` line.

mod assets;
mod events;
mod game;
mod guard;
mod idle;
mod reply;
mod request;
mod setup;
mod study;

pub use guard::BODY_LIMIT;
pub use idle::IdleListener;

use crate::gui::shared::Shared;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::Router;
use std::sync::Arc;

/// Every route of the server, behind the [`guard`](guard::guard).
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .merge(assets::router())
        .merge(game::router())
        .merge(study::router())
        .merge(setup::router())
        .merge(events::router())
        .fallback(|| async { reply::bad(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(guard::guard))
        .with_state(shared)
}
