//! The engine driver: a task that runs the engine for as long as the
//! server runs. It chooses the next job — the engine's move when it is its
//! turn, else a study job, else waiting for a change — and restarts the
//! engine after a crash, a hang or an illegal answer, pausing it after
//! too many failures in a row.

use super::process::EngineProcess;
use super::{play, ponder, study};
use crate::gui::game::EngineStatus;
use crate::gui::shared::Shared;
use std::sync::Arc;
use std::time::Duration;

/// After this many failures in a row the engine is paused until the person
/// acts, so that an engine that always fails does not spin.
pub const FAILURES_BEFORE_PAUSE: u32 = 3;

/// The end of a failure message while the engine restarts, and once it has.
const RESTARTING: &str = "restarting it";
const RESTARTED: &str = "it was restarted";

/// Runs the engine for as long as the server runs: starts it, asks it for
/// a move whenever it is its turn, applies its answer through the referee,
/// and restarts it after a crash, a hang or an illegal answer.
pub async fn drive_engine(shared: Arc<Shared>) {
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
        // The engine's move first; then a ponder on the person's time,
        // when the game asked for one; a study job when it is not needed.
        let result = if let Some(job) = play::next(&shared) {
            play::run(&shared, running, &job).await
        } else if let Some(job) = ponder::next(&shared) {
            ponder::run(&shared, running, &job).await
        } else if let Some(job) = study::next(&shared) {
            // It answered as the protocol says: it works.
            study::run(&shared, running, job).await.map(|()| true)
        } else {
            // Idle: wait for a change, but notice an engine that dies.
            tokio::select! {
                _ = shared.wake.notified() => Ok(false),
                line = running.next_line() => match line {
                    Some(_) => Ok(false),
                    None => Err("the engine exited while idle".to_string()),
                },
            }
        };
        match result {
            Ok(true) => failures = 0,
            Ok(false) => {}
            Err(why) => {
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
