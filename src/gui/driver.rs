//! The engine driver: a task that runs the engine for as long as the
//! server runs. It asks for a move whenever it is the engine's turn, shows
//! the engine's `info` as it comes, applies its answer through the
//! referee, and restarts it after a crash, a hang or an illegal answer.

use super::clock;
use super::engine::EngineProcess;
use super::state::{self, EngineStatus};
use super::Shared;
use crate::protocol::client::{bestmove, engine_error, setoption, Info, STOP};
use std::sync::Arc;
use std::time::Duration;
use tokio::time::{timeout_at, Instant};

/// How long past its move time an engine may take before it counts as
/// hung: room for `MoveOverhead`, a busy machine and the pipe.
pub const ANSWER_MARGIN: Duration = Duration::from_secs(3);

/// After this many failures in a row the engine is paused until the person
/// acts, so that an engine that always fails does not spin.
pub const FAILURES_BEFORE_PAUSE: u32 = 3;

/// The end of a failure message while the engine restarts, and once it has.
const RESTARTING: &str = "restarting it";
const RESTARTED: &str = "it was restarted";

/// A search the driver is to run: for which game, with what command.
struct Job {
    /// The game's generation when the search was asked for.
    generation: u64,
    /// The moves played by then: an answer to an older turn is dropped.
    moves: usize,
    /// The `position` command of the game.
    position: String,
    /// The time to think, in milliseconds: the move time, or what is left
    /// on the engine's clock (the deadline counts from it).
    movetime: u64,
    /// The `go` command: the clocks, or the move time.
    go: String,
    /// The engine's level, sent as `Skill` before the search: other jobs
    /// set their own, so the engine's remembered value is never relied on.
    skill: u8,
    /// The side to move, lower case, as the page names it.
    side: String,
}

/// Why a search gave no move.
enum Failure {
    /// The engine crashed, hung or answered nonsense: restart it.
    Engine(String),
    /// The game changed under the search: just look again.
    Cancelled,
}

/// Runs the engine for as long as the server runs: starts it, asks it for
/// a move whenever it is its turn, applies its answer through the referee,
/// and restarts it after a crash, a hang or an illegal answer.
pub(super) async fn drive_engine(shared: Arc<Shared>) {
    let mut engine: Option<EngineProcess> = None;
    let mut failures: u32 = 0;
    loop {
        if engine.is_none() {
            let status = if failures == 0 {
                EngineStatus::Starting
            } else {
                EngineStatus::Restarting
            };
            set_status(&shared, status);
            match EngineProcess::start(&shared.command).await {
                Ok(e) => {
                    engine = Some(e);
                    set_status(&shared, EngineStatus::Ready);
                }
                Err(why) => {
                    failures += 1;
                    report_failure(&shared, &why, failures);
                    // Back off, but wake early for a person's action.
                    let pause = Duration::from_millis(500 * u64::from(failures.min(20)));
                    let _ = tokio::time::timeout(pause, shared.wake.notified()).await;
                    continue;
                }
            }
        }
        let Some(running) = engine.as_mut() else {
            continue;
        };
        let job = {
            let mut state = shared.lock();
            if state.engine_to_move() && !state.paused {
                let pos = state.referee.position();
                let mover = pos.side_to_move();
                let side = mover.to_string().to_lowercase();
                let (clock, running) = (state.clock.as_ref(), state.running_ms());
                let job = Job {
                    generation: state.generation,
                    moves: state.referee.full_tokens().len(),
                    position: state.referee.position_command(),
                    movetime: clock::answer_ms(state.movetime, clock, mover, running),
                    go: clock::go_command(state.movetime, clock, mover, running),
                    skill: state.level,
                    side,
                };
                state.engine.status = EngineStatus::Thinking;
                state.engine.side = Some(job.side.clone());
                shared.publish(&mut state);
                Some(job)
            } else {
                if state.engine.status == EngineStatus::Thinking {
                    state.engine.status = EngineStatus::Ready;
                    shared.publish(&mut state);
                }
                None
            }
        };
        let Some(job) = job else {
            // Not needed to play: a study job, if one is wanted.
            if let Some(study) = super::jobs::next(&shared) {
                match super::jobs::run(&shared, running, study).await {
                    // It answered as the protocol says: it works.
                    Ok(()) => failures = 0,
                    Err(why) => {
                        if let Some(e) = engine.take() {
                            e.kill().await;
                        }
                        failures += 1;
                        report_failure(&shared, &why, failures);
                    }
                }
                continue;
            }
            // Idle: wait for a change, but notice an engine that dies.
            let died = tokio::select! {
                _ = shared.wake.notified() => false,
                line = running.next_line() => line.is_none(),
            };
            if died {
                if let Some(e) = engine.take() {
                    e.kill().await;
                }
                failures += 1;
                report_failure(&shared, "the engine exited while idle", failures);
            }
            continue;
        };
        match search(&shared, running, &job).await {
            Ok(token) => {
                let illegal = {
                    let mut state = shared.lock();
                    if state.generation != job.generation
                        || state.referee.full_tokens().len() != job.moves
                    {
                        continue;
                    }
                    if clock::flag_if_out(&mut state) {
                        // It answered after its flag: a result, not a failure.
                        shared.publish(&mut state);
                        continue;
                    }
                    match state.referee.play(&token) {
                        Ok(_) => {
                            failures = 0;
                            state.played(true);
                            state.engine.last_move = Some(token);
                            state.engine.status = EngineStatus::Ready;
                            shared.publish(&mut state);
                            None
                        }
                        Err(why) => Some(why),
                    }
                };
                if let Some(why) = illegal {
                    if let Some(e) = engine.take() {
                        e.kill().await;
                    }
                    failures += 1;
                    report_failure(&shared, &format!("illegal answer: {why}"), failures);
                }
            }
            Err(Failure::Cancelled) => {}
            Err(Failure::Engine(why)) => {
                if let Some(e) = engine.take() {
                    e.kill().await;
                }
                failures += 1;
                report_failure(&shared, &why, failures);
            }
        }
    }
}

/// Shows what the engine does, unless it is paused: a pause lasts until
/// the person acts, whatever the driver does meanwhile.
fn set_status(shared: &Shared, status: EngineStatus) {
    let mut state = shared.lock();
    state.engine.status = if state.paused {
        EngineStatus::Paused
    } else {
        status
    };
    if status == EngineStatus::Ready {
        // The failure stays on the page, now as history.
        state.engine.message = state.engine.message.replace(RESTARTING, RESTARTED);
    }
    shared.publish(&mut state);
}

/// Changes the engine's view and publishes it.
fn set_engine(shared: &Shared, change: impl FnOnce(&mut state::EngineView)) {
    let mut state = shared.lock();
    change(&mut state.engine);
    shared.publish(&mut state);
}

/// Shows a failure on the page; the engine is restarted by the driver,
/// or paused after too many failures in a row.
fn report_failure(shared: &Shared, why: &str, failures: u32) {
    let mut state = shared.lock();
    state.engine.restarts += 1;
    state.engine.message = format!("engine failed: {why}; {RESTARTING}");
    state.engine.status = EngineStatus::Restarting;
    if failures >= FAILURES_BEFORE_PAUSE && state.engine_to_move() {
        state.paused = true;
        state.engine.status = EngineStatus::Paused;
        state.engine.message = format!(
            "engine failed {failures} times in a row (last: {why}); press Resume to try again"
        );
    }
    shared.publish(&mut state);
}

/// Asks the engine for a move in `job`'s game and waits for its
/// `bestmove`, showing its `info` as it comes. Stops the search early when
/// the game changes under it.
async fn search(shared: &Shared, engine: &mut EngineProcess, job: &Job) -> Result<String, Failure> {
    let fail = Failure::Engine;
    let skill = setoption("Skill", &job.skill.to_string());
    engine.send(&skill).await.map_err(fail)?;
    engine.send(&job.position).await.map_err(fail)?;
    engine.send(&job.go).await.map_err(fail)?;
    let mut deadline = Instant::now() + Duration::from_millis(job.movetime) + ANSWER_MARGIN;
    let mut stopping = false;
    loop {
        tokio::select! {
            line = timeout_at(deadline, engine.next_line()) => {
                let line = match line {
                    Err(_) => return Err(Failure::Engine(format!(
                        "no bestmove within {} ms", job.movetime + ANSWER_MARGIN.as_millis() as u64
                    ))),
                    Ok(None) => return Err(Failure::Engine("the engine exited (crashed?)".into())),
                    Ok(Some(line)) => line,
                };
                if let Some(token) = bestmove(&line) {
                    if stopping {
                        return Err(Failure::Cancelled);
                    }
                    return Ok(token.to_string());
                }
                if let Some(info) = Info::parse(&line) {
                    // A forced answer comes with no playouts and so no
                    // estimate: the last real one stays on the page.
                    if !stopping && info.nodes > 0 {
                        set_engine(shared, |e| {
                            e.info = Some(info);
                            e.info_side = Some(job.side.clone());
                        });
                    }
                } else if let Some(err) = engine_error(&line) {
                    return Err(Failure::Engine(format!("the engine said: {err}")));
                }
            }
            _ = shared.wake.notified(), if !stopping => {
                if shared.lock().generation != job.generation {
                    engine.send(STOP).await.map_err(fail)?;
                    stopping = true;
                    deadline = Instant::now() + ANSWER_MARGIN;
                }
            }
        }
    }
}
