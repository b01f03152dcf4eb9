//! Reading a request: a JSON body into its type, or text, each refused
//! in one line when it is not one; and the clock a new game asks for.

use crate::gui::clock::Clock;
use crate::gui::refused::Refused;
use serde::Deserialize;

/// Reads a JSON body, or says in one line why it is not one.
pub(super) fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, Refused> {
    serde_json::from_slice(body).map_err(|e| format!("malformed request: {e}"))
}

/// A body as text: axum's own `String` extractor would refuse bytes that
/// are not UTF-8 with a message of its own, not ours.
pub(super) fn text(body: &[u8]) -> Result<&str, Refused> {
    std::str::from_utf8(body).map_err(|e| format!("malformed request: not UTF-8: {e}"))
}

/// A clock as a new game's request asks for it.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ClockRequest {
    /// Each side's time for the game, in ms.
    pub base_ms: u64,
    /// The increment per completed turn, in ms.
    #[serde(default)]
    pub inc_ms: u64,
}

impl ClockRequest {
    /// The clocks asked for, or why the page may not ask for them.
    pub(super) fn clock(self) -> Result<Clock, Refused> {
        Clock::new(self.base_ms, self.inc_ms)
    }
}
