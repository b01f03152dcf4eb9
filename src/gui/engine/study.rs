//! The engine's study jobs: a hint, the analysis, an action asked about
//! in it, a review's next decision. The driver runs one when the engine
//! is not needed to play; a play job always comes first and interrupts a
//! study job with `stop`, as does a study job of higher rank (hint, then
//! review, then the action asked about, then analysis) or a change that
//! makes the running one moot.
//!
//! Each search sends the options it needs before its `go` — `Skill` at
//! [`FULL_STRENGTH`] (study is at full strength, whatever level the game is played at) and
//! its `MultiPV` — and puts `MultiPV` back to 1 after its `bestmove`, so
//! that a play job finds the engine as the handshake left it.

use super::process::EngineProcess;
use super::search::search;
use crate::gui::game::study::target;
use crate::gui::game::GuiState;
use crate::gui::notation::{squares, with_move};
use crate::gui::review::{ReviewStatus, Value};
use crate::gui::shared::Shared;
use crate::gui::study::{
    kinds_of, HintStatus, KindAdvice, Line, StudyJob, ANALYSIS_FIRST_LOOK, ANALYSIS_KIND_MOVETIME,
    ANALYSIS_LINES, HINT_KIND_MOVETIME, HINT_MOVETIME, PROBE_MOVETIME, REVIEW_LINES,
};
use crate::protocol::client::{setoption, Info};
use crate::rules::{Colour, Piece, Pile};
use crate::search::skill::FULL_STRENGTH;

/// A study search the driver is to run.
pub(super) enum Job {
    /// The best action for the person's turn.
    Hint {
        generation: u64,
        at: usize,
        position: String,
        side: Colour,
        pile: Pile,
    },
    /// An action asked about in the analysed position, searched alone.
    Probe { position: String, token: String },
    /// The analysis of the position shown, until it is not wanted.
    Analysis {
        position: String,
        side: Colour,
        pile: Pile,
        pending: bool,
    },
    /// One decision of a review.
    Review {
        generation: u64,
        index: usize,
        position: String,
        movetime: u64,
    },
}

impl Job {
    /// The job as the page names it.
    fn kind(&self) -> StudyJob {
        match self {
            Job::Hint { .. } => StudyJob::Hint,
            Job::Probe { .. } => StudyJob::Probe,
            Job::Analysis { .. } => StudyJob::Analysis,
            Job::Review { .. } => StudyJob::Review,
        }
    }
}

/// True while a hint for this turn waits for the engine.
fn hint_waits(state: &GuiState) -> bool {
    let at = state.referee.full_tokens().len();
    state.study.hint.as_ref().is_some_and(|h| {
        h.generation == state.generation && h.at == at && h.status == HintStatus::Thinking
    })
}

/// The next decision of a running review of this game.
fn review_next(state: &GuiState) -> Option<usize> {
    state
        .study
        .review
        .as_ref()
        .filter(|r| r.generation == state.generation)
        .and_then(|r| r.next())
}

/// True while the analysis should run: on, a page to see it, and its
/// position not over.
fn analysis_wanted(shared: &Shared, state: &GuiState) -> bool {
    state.study.analysis.on && shared.pages.load(std::sync::atomic::Ordering::SeqCst) > 0
}

/// The action asked about in the analysed position that waits for the
/// engine, if any.
fn probe_waits(state: &GuiState) -> Option<&str> {
    let a = &state.study.analysis;
    let p = a.probe.as_ref()?;
    (p.status == HintStatus::Thinking && a.position == target(state).position)
        .then_some(p.token.as_str())
}

/// The study job to run now, if the engine is not needed to play.
pub(super) fn next(shared: &Shared) -> Option<Job> {
    let state = shared.lock();
    if state.engine_to_move() {
        return None;
    }
    if hint_waits(&state) {
        let pos = state.referee.position();
        return Some(Job::Hint {
            generation: state.generation,
            at: state.referee.full_tokens().len(),
            position: state.referee.position_command(),
            side: pos.side_to_move(),
            pile: pos.pile(pos.side_to_move()),
        });
    }
    if let Some(index) = review_next(&state) {
        let review = state.study.review.as_ref()?;
        return Some(Job::Review {
            generation: review.generation,
            index,
            position: review.positions.get(index)?.clone(),
            movetime: review.movetime,
        });
    }
    if analysis_wanted(shared, &state) {
        if let Some(token) = probe_waits(&state) {
            return Some(Job::Probe {
                position: state.study.analysis.position.clone(),
                token: token.to_string(),
            });
        }
        let t = target(&state);
        if !t.over {
            return Some(Job::Analysis {
                position: t.position,
                side: t.side,
                pile: t.pile,
                pending: t.pending,
            });
        }
    }
    None
}

/// Runs a study job. An error is the engine's failure: the job is given
/// up with the reason on the page (so that a broken engine does not loop
/// on it), and the driver restarts the engine.
pub(super) async fn run(
    shared: &Shared,
    engine: &mut EngineProcess,
    job: Job,
) -> Result<(), String> {
    set_job(shared, Some(job.kind()));
    let result = match &job {
        Job::Hint {
            generation,
            at,
            position,
            side,
            pile,
        } => hint(shared, engine, *generation, *at, position, *side, *pile).await,
        Job::Probe { position, token } => probe(shared, engine, position, token).await,
        Job::Analysis {
            position,
            side,
            pile,
            pending,
        } => analyse(shared, engine, position, *side, *pile, *pending).await,
        Job::Review {
            generation,
            index,
            position,
            movetime,
        } => review(shared, engine, *generation, *index, position, *movetime).await,
    };
    let mut state = shared.lock();
    state.study.job = None;
    if let Err(why) = &result {
        let why = format!("the engine failed: {why}");
        match job {
            Job::Hint { .. } => {
                if let Some(h) = state.study.hint.as_mut() {
                    h.status = HintStatus::Failed;
                    h.message = why;
                }
            }
            Job::Probe { .. } => {
                if let Some(p) = state.study.analysis.probe.as_mut() {
                    p.status = HintStatus::Failed;
                    p.message = why;
                }
            }
            Job::Analysis { .. } => {
                state.study.analysis.on = false;
                state.study.analysis.message = why;
            }
            Job::Review { .. } => {
                if let Some(r) = state.study.review.as_mut() {
                    r.status = ReviewStatus::Failed;
                    r.message = why;
                }
            }
        }
    }
    shared.publish(&mut state);
    result
}

fn set_job(shared: &Shared, job: Option<StudyJob>) {
    let mut state = shared.lock();
    state.study.job = job;
    shared.publish(&mut state);
}

/// What a finished search reported: its `bestmove` (`None` for
/// `(none)`) and its last report's lines, best first.
struct Report {
    best: Option<String>,
    lines: Vec<Info>,
}

impl Report {
    /// Each reported action with its value for the side to move.
    fn values(&self) -> Vec<(String, Value)> {
        self.lines
            .iter()
            .filter_map(|i| {
                Some((
                    i.action()?.to_string(),
                    Value {
                        expected: i.expected_result()?,
                        wdl: i.wdl,
                    },
                ))
            })
            .collect()
    }
}

/// What one study search asks of the engine.
struct Ask<'a> {
    /// The `position` command.
    position: &'a str,
    /// How many lines to report (`MultiPV`).
    multipv: u32,
    /// The one action to search (`go searchmoves`); all when `None`.
    only: Option<&'a str>,
    /// `go movetime`, or `go infinite` for `None`.
    movetime: Option<u64>,
}

impl<'a> Ask<'a> {
    /// A search of every action of `position` for `movetime`.
    fn new(position: &'a str, multipv: u32, movetime: Option<u64>) -> Ask<'a> {
        Ask {
            position,
            multipv,
            only: None,
            movetime,
        }
    }
}

/// One study search at full strength, as `ask` says, through the one
/// [`search`] loop, then `MultiPV` back to 1. `report` sees every report's lines as
/// they come (it returns true when it changed what the page shows).
/// Stops the search when `wanted` turns false or the engine is needed to
/// play, and then gives `None`.
async fn study_search(
    shared: &Shared,
    engine: &mut EngineProcess,
    ask: Ask<'_>,
    wanted: impl Fn(&GuiState) -> bool,
    mut report: impl FnMut(&mut GuiState, &[Info]) -> bool,
) -> Result<Option<Report>, String> {
    let Ask {
        position,
        multipv,
        only,
        movetime,
    } = ask;
    let wanted = |state: &GuiState| !state.engine_to_move() && wanted(state);
    if !wanted(&shared.lock()) {
        return Ok(None);
    }
    let only = only.map_or(String::new(), |token| format!(" searchmoves {token}"));
    let go = match movetime {
        Some(ms) => format!("go{only} movetime {ms}"),
        None => format!("go{only} infinite"),
    };
    let lines = [
        setoption("Skill", &FULL_STRENGTH.to_string()),
        setoption("MultiPV", &multipv.to_string()),
        position.to_string(),
        go,
    ];
    let mut infos: Vec<Info> = Vec::new();
    let answer = search(shared, engine, &lines, movetime, wanted, |state, info| {
        // A report lists its lines from the best: a first line starts
        // the next report.
        if info.multipv == 1 {
            infos.clear();
        }
        infos.push(info);
        report(state, &infos)
    })
    .await?;
    engine.send(&setoption("MultiPV", "1")).await?;
    Ok(answer.map(|answer| answer.token).map(|token| Report {
        best: (!token.is_empty() && token != "(none)").then_some(token),
        lines: infos,
    }))
}

/// Where a hint keeps its kinds' advice.
fn hint_kinds(state: &mut GuiState) -> Option<&mut Vec<KindAdvice>> {
    state.study.hint.as_mut().map(|h| &mut h.kinds)
}

/// Where the analysis keeps its kinds' advice.
fn analysis_kinds(state: &mut GuiState) -> Option<&mut Vec<KindAdvice>> {
    Some(&mut state.study.analysis.kinds)
}

/// The letters, in the drawer's case, of the kinds a draw may bring.
fn letters(side: Colour, pile: Pile) -> Vec<String> {
    pile.kinds()
        .map(|kind| Piece::new(side, kind).letter().to_string())
        .collect()
}

/// Searches the best placement of each kind of `letters` after a draw
/// in `position`, storing each into the advice `store` gives. `None`
/// when cancelled.
async fn kinds(
    shared: &Shared,
    engine: &mut EngineProcess,
    position: &str,
    letters: Vec<String>,
    movetime: u64,
    wanted: impl Fn(&GuiState) -> bool + Copy,
    store: impl Fn(&mut GuiState) -> Option<&mut Vec<KindAdvice>>,
) -> Result<Option<()>, String> {
    for letter in letters {
        let drawn = with_move(position, &format!("{letter}@"));
        let Some(report) = study_search(
            shared,
            engine,
            Ask::new(&drawn, 1, Some(movetime)),
            wanted,
            |_, _| false,
        )
        .await?
        else {
            return Ok(None);
        };
        let value = report.values().first().map(|(_, v)| v.expected);
        let mut state = shared.lock();
        if let Some(advice) =
            store(&mut state).and_then(|all| all.iter_mut().find(|a| a.kind == letter))
        {
            advice.to = report.best.as_deref().map(squares).and_then(|s| s[1]);
            advice.best = report.best;
            advice.value = value;
            advice.searched = true;
        }
        shared.publish(&mut state);
    }
    Ok(Some(()))
}

/// The hint: the best action, and for a draw each kind's placement.
async fn hint(
    shared: &Shared,
    engine: &mut EngineProcess,
    generation: u64,
    at: usize,
    position: &str,
    side: Colour,
    pile: Pile,
) -> Result<(), String> {
    let wanted = move |state: &GuiState| {
        hint_waits(state)
            && state.generation == generation
            && state.referee.full_tokens().len() == at
    };
    let Some(report) = study_search(
        shared,
        engine,
        Ask::new(position, 1, Some(HINT_MOVETIME)),
        wanted,
        |_, _| false,
    )
    .await?
    else {
        return Ok(());
    };
    let draws = {
        let mut state = shared.lock();
        if !wanted(&state) {
            return Ok(());
        }
        let legal = state.referee.legal_tokens();
        let best = report.best.clone();
        let value = report.values().first().map(|(_, v)| v.expected);
        let Some(h) = state.study.hint.as_mut() else {
            return Ok(());
        };
        let draws = match best {
            Some(best) if legal.iter().any(|t| t.eq_ignore_ascii_case(&best)) => {
                h.squares = squares(&best);
                h.value = value;
                let draws = best == "@";
                if draws {
                    h.kinds = kinds_of(side, pile);
                } else {
                    h.status = HintStatus::Done;
                }
                h.best = Some(best);
                draws
            }
            other => {
                h.status = HintStatus::Failed;
                h.message = format!(
                    "the engine's answer '{}' is not a legal action here",
                    other.unwrap_or_else(|| "(none)".into())
                );
                false
            }
        };
        shared.publish(&mut state);
        draws
    };
    if !draws {
        return Ok(());
    }
    let still = move |state: &GuiState| {
        state.generation == generation
            && state.referee.full_tokens().len() == at
            && state
                .study
                .hint
                .as_ref()
                .is_some_and(|h| h.status == HintStatus::Thinking)
    };
    let done = kinds(
        shared,
        engine,
        position,
        letters(side, pile),
        HINT_KIND_MOVETIME,
        still,
        hint_kinds,
    )
    .await?;
    if done.is_some() {
        let mut state = shared.lock();
        if let Some(h) = state.study.hint.as_mut() {
            h.status = HintStatus::Done;
        }
        shared.publish(&mut state);
    }
    Ok(())
}

/// The analysis: a first look with the best three, each kind's
/// placement when a draw is among them, then on until stopped.
async fn analyse(
    shared: &Shared,
    engine: &mut EngineProcess,
    position: &str,
    side: Colour,
    pile: Pile,
    pending: bool,
) -> Result<(), String> {
    let wanted = move |state: &GuiState| {
        analysis_wanted(shared, state)
            && !hint_waits(state)
            && review_next(state).is_none()
            && probe_waits(state).is_none()
            && target(state).position == position
    };
    let show = |state: &mut GuiState, lines: &[Info]| {
        state.study.analysis.report(position, lines);
        true
    };
    {
        let mut state = shared.lock();
        state.study.analysis.at(position);
    }
    let known = !shared.lock().study.analysis.kinds.is_empty();
    let Some(first) = study_search(
        shared,
        engine,
        Ask::new(position, ANALYSIS_LINES, Some(ANALYSIS_FIRST_LOOK)),
        wanted,
        show,
    )
    .await?
    else {
        return Ok(());
    };
    let draws = first.lines.iter().any(|l| l.action() == Some("@"));
    if draws && !pending && !known {
        {
            let mut state = shared.lock();
            state.study.analysis.kinds = kinds_of(side, pile);
            shared.publish(&mut state);
        }
        let done = kinds(
            shared,
            engine,
            position,
            letters(side, pile),
            ANALYSIS_KIND_MOVETIME,
            wanted,
            analysis_kinds,
        )
        .await?;
        if done.is_none() {
            return Ok(());
        }
    }
    let ask = Ask::new(position, ANALYSIS_LINES, None);
    study_search(shared, engine, ask, wanted, show).await?;
    Ok(())
}

/// "What about this move?": the action asked about, searched alone from
/// what the analysis learned of it, its line shown as it comes; the page
/// sets it beside the analysis's best.
async fn probe(
    shared: &Shared,
    engine: &mut EngineProcess,
    position: &str,
    token: &str,
) -> Result<(), String> {
    let wanted = move |state: &GuiState| {
        analysis_wanted(shared, state)
            && !hint_waits(state)
            && review_next(state).is_none()
            && state.study.analysis.position == position
            && probe_waits(state) == Some(token)
    };
    let show = |state: &mut GuiState, lines: &[Info]| {
        let line = lines.first().and_then(Line::of);
        match state.study.analysis.probe.as_mut() {
            Some(p) if line.is_some() => {
                p.line = line;
                true
            }
            _ => false,
        }
    };
    let Some(report) = study_search(
        shared,
        engine,
        Ask {
            only: Some(token),
            ..Ask::new(position, 1, Some(PROBE_MOVETIME))
        },
        wanted,
        show,
    )
    .await?
    else {
        return Ok(());
    };
    let mut state = shared.lock();
    if !wanted(&state) {
        return Ok(());
    }
    let line = report.lines.first().and_then(Line::of);
    if let Some(p) = state.study.analysis.probe.as_mut() {
        match report.best {
            Some(best) if best.eq_ignore_ascii_case(token) && line.is_some() => {
                p.line = line;
                p.status = HintStatus::Done;
            }
            other => {
                p.status = HintStatus::Failed;
                p.message = format!(
                    "the engine answered '{}', not the move asked about",
                    other.unwrap_or_else(|| "(none)".into())
                );
            }
        }
    }
    shared.publish(&mut state);
    Ok(())
}

/// One decision of a review: every root action's value, then the marks.
async fn review(
    shared: &Shared,
    engine: &mut EngineProcess,
    generation: u64,
    index: usize,
    position: &str,
    movetime: u64,
) -> Result<(), String> {
    let wanted = move |state: &GuiState| {
        !hint_waits(state) && state.generation == generation && review_next(state) == Some(index)
    };
    let Some(report) = study_search(
        shared,
        engine,
        Ask::new(position, REVIEW_LINES, Some(movetime)),
        wanted,
        |_, _| false,
    )
    .await?
    else {
        return Ok(());
    };
    let values = report.values();
    let mut state = shared.lock();
    if !wanted(&state) {
        return Ok(());
    }
    if let Some(r) = state.study.review.as_mut() {
        if let Some(d) = r.decisions.get_mut(index) {
            d.searched(&values, report.best);
        }
        r.judge();
    }
    shared.publish(&mut state);
    Ok(())
}
