//! The one search loop: sends a search's lines, then reads the engine
//! until its `bestmove`, showing its reports as they come and stopping it
//! once it is no longer wanted. Play, the ponder on the person's time and
//! study all search through here, so that the deadline, the `stop`, the
//! `ponderhit` and the failures are read one way.

use super::process::EngineProcess;
use crate::gui::game::GuiState;
use crate::gui::shared::Shared;
use crate::protocol::client::{bestmove, engine_error, ponder_reply, Info, PONDERHIT, STOP};
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// How long past its move time an engine may take before it counts as
/// hung: room for `MoveOverhead`, a busy machine and the pipe.
pub const ANSWER_MARGIN: Duration = Duration::from_secs(3);

/// A deadline that never comes: a search only `stop` ends.
const NEVER: Duration = Duration::from_secs(365 * 24 * 3600);

/// A search's answer: its `bestmove` word (`(none)` or empty as the
/// engine wrote them) and the reply it expects, when it names one.
pub struct Answer {
    /// The action.
    pub token: String,
    /// `bestmove X ponder Y`'s `Y`.
    pub reply: Option<String>,
}

/// What a ponder on the person's time does as the game changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PonderTurn {
    /// The person has not answered yet: go on pondering.
    Wait,
    /// The person played the reply pondered on: `ponderhit`.
    Hit,
    /// Anything else (another reply, a new game, the engine wanted for
    /// study): `stop`, and the answer is dropped.
    Miss,
}

/// Sends `lines` (the options, the `position` and the `go`) and waits for
/// the engine's `bestmove`. `movetime` is the time the `go` gives, in ms
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
    report: impl FnMut(&mut GuiState, Info) -> bool,
) -> Result<Option<Answer>, String> {
    let turn = |state: &GuiState| {
        if wanted(state) {
            PonderTurn::Hit
        } else {
            PonderTurn::Miss
        }
    };
    run(shared, engine, lines, movetime, false, turn, report).await
}

/// Sends `lines`, whose `go` is `go ponder`, and waits: `turn` is asked
/// at once and on each change of the game. On [`PonderTurn::Hit`] the
/// engine is told `ponderhit`, its reports go to `report` from then on,
/// and its `bestmove` is the answer, due within `movetime` ms (and
/// [`ANSWER_MARGIN`]) of the hit; on [`PonderTurn::Miss`] it is stopped
/// and the result is `None`. An error is the engine's failure, in words.
pub async fn ponder(
    shared: &Shared,
    engine: &mut EngineProcess,
    lines: &[String],
    movetime: u64,
    turn: impl Fn(&GuiState) -> PonderTurn,
    report: impl FnMut(&mut GuiState, Info) -> bool,
) -> Result<Option<Answer>, String> {
    run(shared, engine, lines, Some(movetime), true, turn, report).await
}

/// The loop of [`search`] and [`ponder`]: a plain search is one already
/// hit, whose `turn` never waits.
async fn run(
    shared: &Shared,
    engine: &mut EngineProcess,
    lines: &[String],
    movetime: Option<u64>,
    pondering: bool,
    turn: impl Fn(&GuiState) -> PonderTurn,
    mut report: impl FnMut(&mut GuiState, Info) -> bool,
) -> Result<Option<Answer>, String> {
    for line in lines {
        engine.send(line).await?;
    }
    let limit = movetime.map(|ms| Duration::from_millis(ms) + ANSWER_MARGIN);
    let timed = |now: Instant| now + limit.unwrap_or(NEVER);
    // A ponder has no deadline until it is hit; an infinite search none
    // until it is stopped.
    let mut deadline = if pondering {
        Instant::now() + NEVER
    } else {
        timed(Instant::now())
    };
    let mut hit = !pondering;
    let mut stopping = false;
    // The person may have answered before the ponder began.
    let mut next = if pondering {
        turn(&shared.lock())
    } else {
        PonderTurn::Wait
    };
    loop {
        match next {
            PonderTurn::Hit if !hit && !stopping => {
                engine.send(PONDERHIT).await?;
                hit = true;
                deadline = timed(Instant::now());
            }
            PonderTurn::Miss if !stopping => {
                engine.send(STOP).await?;
                stopping = true;
                deadline = Instant::now() + ANSWER_MARGIN;
            }
            _ => {}
        }
        next = tokio::select! {
            line = timeout_at(deadline, engine.next_line()) => {
                let line = match line {
                    Err(_) => return Err(format!(
                        "no bestmove within {} ms", limit.unwrap_or(ANSWER_MARGIN).as_millis()
                    )),
                    Ok(None) => return Err("the engine exited (crashed?)".into()),
                    Ok(Some(line)) => line,
                };
                if let Some(token) = bestmove(&line) {
                    return Ok((hit && !stopping).then(|| Answer {
                        token: token.to_string(),
                        reply: ponder_reply(&line).map(str::to_string),
                    }));
                }
                if let Some(err) = engine_error(&line) {
                    return Err(format!("the engine said: {err}"));
                }
                match Info::parse_any(&line) {
                    Some(info) if hit && !stopping => {
                        let mut state = shared.lock();
                        match turn(&state) {
                            PonderTurn::Miss => PonderTurn::Miss,
                            _ => {
                                if report(&mut state, info) {
                                    shared.publish(&mut state);
                                }
                                PonderTurn::Wait
                            }
                        }
                    }
                    _ => PonderTurn::Wait,
                }
            }
            _ = shared.wake.notified(), if !stopping => turn(&shared.lock()),
        };
    }
}
