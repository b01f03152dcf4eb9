//! The event stream: the game's view now and after every change, as
//! server-sent events. One direction is all the live updates need, and
//! the browser's `EventSource` reconnects by itself.

use crate::gui::shared::Shared;
use crate::gui::view::View;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::Router;
use std::convert::Infallible;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The event stream's route.
pub(super) fn router() -> Router<Arc<Shared>> {
    Router::new().route("/api/events", get(events))
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
async fn events(
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
            let json = serde_json::to_string(&View::of(&page.0.lock())).unwrap_or_default();
            let event = Event::default().event("state").data(json);
            Some((Ok(event), (page, rx, false)))
        });
    let keep_alive = KeepAlive::default().interval(shared_keep_alive);
    Sse::new(stream).keep_alive(keep_alive)
}
