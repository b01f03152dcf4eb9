//! The one search loop: sends a search's lines, then reads the engine
//! until its `bestmove`, showing its reports as they come and stopping it
//! once it is no longer wanted. Play and study both search through here,
//! so that the deadline, the `stop` and the failures are read one way.

use super::process::EngineProcess;
use crate::gui::game::GuiState;
use crate::gui::shared::Shared;
use crate::protocol::client::{bestmove, engine_error, Info, STOP};
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// How long past its move time an engine may take before it counts as
/// hung: room for `MoveOverhead`, a busy machine and the pipe.
pub const ANSWER_MARGIN: Duration = Duration::from_secs(3);

/// Sends `lines` (the options, the `position` and the `go`) and waits for
/// the engine's `bestmove`, giving its word (`(none)` or empty as the
/// engine wrote them). `movetime` is the time the `go` gives, in ms
/// (`None` for `go infinite`): past it and [`ANSWER_MARGIN`] the engine
/// counts as hung.
///
/// `report` takes each `info` line of the search under the lock, and
/// returns true when it changed what the page shows. `wanted` is asked
/// on each report and each change of the game: once it is false the
/// search is stopped, its answer dropped, and the result is `None`.
/// An error is the engine's failure, in words.
pub async fn search(
    shared: &Shared,
    engine: &mut EngineProcess,
    lines: &[String],
    movetime: Option<u64>,
    wanted: impl Fn(&GuiState) -> bool,
    mut report: impl FnMut(&mut GuiState, Info) -> bool,
) -> Result<Option<String>, String> {
    for line in lines {
        engine.send(line).await?;
    }
    let limit = movetime.map(|ms| Duration::from_millis(ms) + ANSWER_MARGIN);
    // An infinite search has no deadline until it is stopped.
    let mut deadline = Instant::now() + limit.unwrap_or(Duration::from_secs(365 * 24 * 3600));
    let mut stopping = false;
    loop {
        let stop_now = tokio::select! {
            line = timeout_at(deadline, engine.next_line()) => {
                let line = match line {
                    Err(_) => return Err(format!(
                        "no bestmove within {} ms", limit.unwrap_or(ANSWER_MARGIN).as_millis()
                    )),
                    Ok(None) => return Err("the engine exited (crashed?)".into()),
                    Ok(Some(line)) => line,
                };
                if let Some(token) = bestmove(&line) {
                    return Ok((!stopping).then(|| token.to_string()));
                }
                if let Some(err) = engine_error(&line) {
                    return Err(format!("the engine said: {err}"));
                }
                match Info::parse_any(&line) {
                    Some(info) if !stopping => {
                        let mut state = shared.lock();
                        if !wanted(&state) {
                            true
                        } else {
                            if report(&mut state, info) {
                                shared.publish(&mut state);
                            }
                            false
                        }
                    }
                    _ => false,
                }
            }
            _ = shared.wake.notified(), if !stopping => !wanted(&shared.lock()),
        };
        if stop_now && !stopping {
            engine.send(STOP).await?;
            stopping = true;
            deadline = Instant::now() + ANSWER_MARGIN;
        }
    }
}
