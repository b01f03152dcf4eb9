//! The play job: the engine's move when it is its turn, searched at the
//! game's level and time control, and played through the referee.

use super::process::EngineProcess;
use super::search::{search, Answer};
use crate::gui::clock;
use crate::gui::flags::flag_if_out;
use crate::gui::game::{EngineStatus, Expected, GuiState};
use crate::gui::shared::Shared;
use crate::protocol::client::{setoption, Info};
use crate::rules::Colour;

/// A move the driver is to ask for: for which game, with what command.
pub(super) struct Job {
    /// The game's generation when the search was asked for.
    generation: u64,
    /// The moves played by then: an answer to an older turn is dropped.
    moves: usize,
    /// The `Ponder`, `Skill`, `position` and `go` lines. `Skill` is the
    /// game's level: study jobs set their own, so the engine's remembered
    /// value is never relied on. `Ponder` is on when the game ponders, so
    /// that `bestmove` names the reply to ponder on. `go` gives the
    /// clocks, or the move time.
    lines: [String; 4],
    /// The time to think, in milliseconds: the move time, or what is left
    /// on the engine's clock (the deadline counts from it).
    movetime: u64,
    /// The side to move.
    side: Colour,
}

/// The move to ask for now, if it is the engine's turn and it is not
/// paused; the page is told the engine thinks. Otherwise `None`, and an
/// engine shown as thinking is shown ready again.
pub(super) fn next(shared: &Shared) -> Option<Job> {
    let mut state = shared.lock();
    if !state.engine_to_move() || state.paused {
        if state.engine.status == EngineStatus::Thinking {
            state.engine.status = EngineStatus::Ready;
            shared.publish(&mut state);
        }
        return None;
    }
    let mover = state.referee.position().side_to_move();
    let (clock, running) = (state.clock.as_ref(), state.running_ms());
    let job = Job {
        generation: state.generation,
        moves: state.referee.full_tokens().len(),
        lines: [
            setoption("Ponder", &ponders(&state).to_string()),
            setoption("Skill", &state.level.to_string()),
            state.referee.position_command(),
            clock::go_command(state.movetime, clock, mover, running),
        ],
        movetime: clock::answer_ms(state.movetime, clock, mover, running),
        side: mover,
    };
    state.engine.status = EngineStatus::Thinking;
    state.engine.side = Some(job.side);
    shared.publish(&mut state);
    Some(job)
}

/// Asks the engine for `job`'s move, showing its `info` as it comes, and
/// plays its answer. True when the move was played; false when the game
/// changed under the search (it is stopped and its answer dropped) or
/// the clock ran out first. An error is the engine's failure: a crash, a
/// hang, or an illegal answer.
pub(super) async fn run(
    shared: &Shared,
    engine: &mut EngineProcess,
    job: &Job,
) -> Result<bool, String> {
    let wanted = |state: &GuiState| state.generation == job.generation;
    let report = |state: &mut GuiState, info: Info| {
        // A forced answer comes with no playouts and so no estimate: the
        // last real one stays on the page. Only the best line is shown.
        if info.multipv != 1 || info.nodes == 0 {
            return false;
        }
        state.engine.info = Some(info);
        state.engine.info_side = Some(job.side);
        true
    };
    let answer = search(
        shared,
        engine,
        &job.lines,
        Some(job.movetime),
        wanted,
        report,
    )
    .await?;
    let Some(answer) = answer else {
        return Ok(false);
    };
    apply(shared, job.generation, job.moves, answer)
}

/// True when the engine ponders in this game: asked for, and a clock
/// to gain time on.
pub(super) fn ponders(state: &GuiState) -> bool {
    state.ponder && state.clock.is_some()
}

/// Plays the engine's `answer` to the turn after `moves` answers of game
/// `generation`, as [`run`] says, and keeps the reply it expects when
/// the game ponders.
pub(super) fn apply(
    shared: &Shared,
    generation: u64,
    moves: usize,
    answer: Answer,
) -> Result<bool, String> {
    let Answer { token, reply } = answer;
    let mut state = shared.lock();
    if state.generation != generation || state.referee.full_tokens().len() != moves {
        return Ok(false);
    }
    if flag_if_out(&mut state) {
        // It answered after its flag: a result, not a failure.
        shared.publish(&mut state);
        return Ok(false);
    }
    state
        .referee
        .play(&token)
        .map_err(|why| format!("illegal answer: {why}"))?;
    state.played(true);
    state.engine.last_move = Some(token);
    state.engine.expects = reply.filter(|_| ponders(&state)).map(|reply| Expected {
        generation,
        moves: state.referee.full_tokens().len(),
        reply,
    });
    state.engine.status = EngineStatus::Ready;
    shared.publish(&mut state);
    Ok(true)
}
