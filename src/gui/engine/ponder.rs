//! The ponder job: in a clock game that asked for it, the engine thinks
//! on the person's time about the reply it expects (`bestmove X ponder
//! Y`). It searches the game with Y played (`go ponder`, the clocks as
//! they stand) until the person answers: Y is a hit (`ponderhit`, and
//! the engine's answer is played as its move), anything else a miss
//! (`stop`, the answer dropped, and the play job asks afresh).
//!
//! A reply that is a draw is not pondered: the person's tile is dealt
//! then, and a ponder of it could never be hit. The engine yields to
//! study: a hint asked for or the analysis on end the ponder.

use super::play::{apply, ponders};
use super::process::EngineProcess;
use super::search::{ponder, PonderTurn};
use crate::gui::clock;
use crate::gui::game::{EngineStatus, GuiState};
use crate::gui::notation::with_move;
use crate::gui::shared::Shared;
use crate::gui::study::HintStatus;
use crate::protocol::client::{setoption, Info};
use crate::rules::Colour;

/// A ponder the driver is to run.
pub(super) struct Job {
    /// The game's generation.
    generation: u64,
    /// The answers played when the engine moved.
    moves: usize,
    /// The reply pondered on.
    reply: String,
    /// The `Ponder`, `Skill`, `position` and `go ponder` lines.
    lines: [String; 4],
    /// The engine's time for its move once the reply is played, in ms.
    movetime: u64,
    /// The engine's side.
    side: Colour,
}

/// True when the person wants the engine for study: a hint waits, or the
/// analysis is on.
fn study_wanted(state: &GuiState) -> bool {
    state.study.analysis.on
        || state
            .study
            .hint
            .as_ref()
            .is_some_and(|h| h.status == HintStatus::Thinking)
}

/// The ponder to run now, if the engine moved last, expects a reply and
/// the game ponders. The expectation is taken: one ponder a move.
pub(super) fn next(shared: &Shared) -> Option<Job> {
    let mut state = shared.lock();
    let expected = state.engine.expects.take()?;
    let moves = state.referee.full_tokens().len();
    if !ponders(&state)
        || state.paused
        || study_wanted(&state)
        || !state.human_turn()
        || expected.generation != state.generation
        || expected.moves != moves
        || expected.reply == "@"
    {
        return None;
    }
    let reply = state
        .referee
        .legal_tokens()
        .into_iter()
        .find(|t| t.eq_ignore_ascii_case(&expected.reply))?;
    let person = state.referee.position().side_to_move();
    let (clock, running) = (state.clock.as_ref(), state.running_ms());
    // The clocks as they stand: the person's running, as UCI's GUIs send
    // them with `go ponder`.
    let go = clock::go_command(state.movetime, clock, person, running);
    let go = go.replacen("go ", "go ponder ", 1);
    Some(Job {
        generation: state.generation,
        moves,
        lines: [
            setoption("Ponder", "true"),
            setoption("Skill", &state.level.to_string()),
            with_move(&state.referee.position_command(), &reply),
            go,
        ],
        reply,
        movetime: clock::answer_ms(state.movetime, clock, person.opposite(), 0),
        side: person.opposite(),
    })
}

/// Where the game stands for the ponder of `job`.
fn turn(job: &Job, state: &GuiState) -> PonderTurn {
    if state.generation != job.generation {
        return PonderTurn::Miss;
    }
    let tokens = state.referee.full_tokens();
    if tokens.len() == job.moves {
        return if study_wanted(state) {
            PonderTurn::Miss
        } else {
            PonderTurn::Wait
        };
    }
    let played = tokens.get(job.moves).map(String::as_str);
    if tokens.len() == job.moves + 1 && played == Some(job.reply.as_str()) {
        PonderTurn::Hit
    } else {
        PonderTurn::Miss
    }
}

/// Ponders until the person answers. True when the reply was the one
/// pondered and the engine's answer was played; false on a miss (the
/// play job then asks for the move). An error is the engine's failure.
pub(super) async fn run(
    shared: &Shared,
    engine: &mut EngineProcess,
    job: &Job,
) -> Result<bool, String> {
    let report = |state: &mut GuiState, info: Info| {
        // Reports come only after the hit: the engine now thinks on its
        // own time, as for any move.
        if info.multipv != 1 || info.nodes == 0 {
            return false;
        }
        state.engine.status = EngineStatus::Thinking;
        state.engine.side = Some(job.side);
        state.engine.info = Some(info);
        state.engine.info_side = Some(job.side);
        true
    };
    let answer = ponder(
        shared,
        engine,
        &job.lines,
        job.movetime,
        |state| turn(job, state),
        report,
    )
    .await?;
    match answer {
        Some(answer) => apply(shared, job.generation, job.moves + 1, answer),
        None => Ok(false),
    }
}
