//! What the server's tasks share: the game under its lock, the signals
//! that carry a change to the event streams and the engine driver, and
//! the settings they all read. The HTTP handlers, the engine driver and
//! the flag timer each hold one `Arc` of it; it knows none of them.

use super::game::GuiState;
use std::sync::atomic::AtomicUsize;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{watch, Notify};

/// What the handlers and the driver share.
pub struct Shared {
    /// The game; see [`Shared::lock`].
    pub state: Mutex<GuiState>,
    /// Carries the state's version to every open event stream.
    pub changed: watch::Sender<u64>,
    /// Wakes the engine driver after a change.
    pub wake: Notify,
    /// The engine command, split.
    pub command: Vec<String>,
    /// How often an event stream sends a comment to keep its connection
    /// within the idle timeout.
    pub keep_alive: Duration,
    /// How many pages hold an event stream open: the analysis runs only
    /// while one can see it. Counted apart from `changed`'s receivers,
    /// which the server's own tasks hold too.
    pub pages: AtomicUsize,
}

impl Shared {
    /// The game, locked.
    pub fn lock(&self) -> MutexGuard<'_, GuiState> {
        // A panic aborts the process (see the release profile), so a
        // poisoned lock cannot be seen; take it anyway rather than unwrap.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Publishes a change made under `state` and wakes the driver.
    pub fn publish(&self, state: &mut GuiState) {
        state.touch();
        self.changed.send_replace(state.version);
        self.wake.notify_one();
    }
}
