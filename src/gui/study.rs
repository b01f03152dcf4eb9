//! Study: what the page asks of the engine besides its moves — a hint for
//! the person's turn, the analysis of the position shown, and the review
//! of the game — and the cursor that shows a position of the game without
//! taking moves back.
//!
//! This file holds their state on the server, the view the page draws
//! from, and the handlers of their routes; `jobs` runs the engine's
//! searches for them whenever the engine is not needed to play, and
//! `review` judges the game's decisions. The page holds no rules here
//! either: every square it marks and every legal token it checks comes
//! from this view.

use super::handlers::{change, parse};
use super::reply::in_range;
use super::review::{
    Decision, Review, ReviewStatus, Value, REVIEW_MOVETIME, REVIEW_MOVETIME_RANGE,
};
use super::shared::Shared;
use super::state::GuiState;
use super::view::{colour_word, LastMove, TileView};
use crate::protocol::client::{Info, Score};
use crate::referee::Referee;
use crate::rules::{Colour, Move, MoveToken, Piece, Pile};
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How long the engine searches for a hint, in ms.
pub const HINT_MOVETIME: u64 = 1000;
/// How long it searches each kind's placement when the hint is to draw.
pub const HINT_KIND_MOVETIME: u64 = 300;
/// How long the analysis looks before it decides whether to search the
/// kinds a draw may bring; it then goes on until stopped.
pub const ANALYSIS_FIRST_LOOK: u64 = 1500;
/// How long the analysis searches each kind's placement.
pub const ANALYSIS_KIND_MOVETIME: u64 = 300;
/// How many actions the analysis shows.
pub const ANALYSIS_LINES: u32 = 3;
/// The `MultiPV` of a review's searches: protocol.md's largest, so that
/// the line of the action played is among those reported.
pub const REVIEW_LINES: u32 = 256;

/// Where a token's tile comes from and goes: a step has both, a
/// placement only the second, a draw neither.
pub fn squares(token: &str) -> [Option<[i32; 2]>; 2] {
    match token.parse::<MoveToken>() {
        Ok(MoveToken::Step(from, to)) => [Some([from.x, from.y]), Some([to.x, to.y])],
        Ok(MoveToken::Place(_, to)) => [None, Some([to.x, to.y])],
        _ => [None, None],
    }
}

/// A `position` command with one more token on its move list.
pub fn with_move(position: &str, token: &str) -> String {
    if position.contains(" moves ") {
        format!("{position} {token}")
    } else {
        format!("{position} moves {token}")
    }
}

/// What to do if a draw brings one kind: its chance and best placement.
#[derive(Clone, Debug, Serialize)]
pub struct KindAdvice {
    /// The kind, as its letter in the drawer's case.
    pub kind: String,
    /// How many of it are in the pile.
    pub count: u8,
    /// Its chance of coming: count / pile size.
    pub chance: f64,
    /// The best placement, once searched; `None` when it cannot be placed.
    pub best: Option<String>,
    /// The square of that placement.
    pub to: Option<[i32; 2]>,
    /// The drawer's expected result after that placement.
    pub value: Option<f64>,
    /// True once searched.
    pub searched: bool,
}

/// The kinds a draw of `side` may bring from `pile`, not yet searched.
pub fn kinds_of(side: Colour, pile: Pile) -> Vec<KindAdvice> {
    let total = f64::from(pile.len().max(1));
    pile.kinds()
        .map(|k| KindAdvice {
            kind: Piece::new(side, k).letter().to_string(),
            count: pile.count(k),
            chance: f64::from(pile.count(k)) / total,
            best: None,
            to: None,
            value: None,
            searched: false,
        })
        .collect()
}

/// Where a hint stands; the page reads it as a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HintStatus {
    /// The engine is searching it.
    Thinking,
    /// Found: `best` is the action.
    Done,
    /// The search failed; `message` says why.
    Failed,
}

/// What the engine searches for study; the page shows it as a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StudyJob {
    /// A hint for the person's turn.
    Hint,
    /// The analysis of the position shown.
    Analysis,
    /// The review of the game.
    Review,
}

/// A hint for the person's turn.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The game's generation it was asked in.
    #[serde(skip)]
    pub generation: u64,
    /// The answers played when it was asked: it is for that turn only.
    #[serde(skip)]
    pub at: usize,
    /// The mover: `white` or `black`.
    pub side: String,
    /// Where it stands.
    pub status: HintStatus,
    /// Why it failed, in words.
    pub message: String,
    /// The best action.
    pub best: Option<String>,
    /// Its squares, for the table.
    pub squares: [Option<[i32; 2]>; 2],
    /// The mover's expected result with it.
    pub value: Option<f64>,
    /// When the best action is to draw: each kind that may come.
    pub kinds: Vec<KindAdvice>,
}

/// One of the analysis's best actions.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// 1 for the best.
    pub rank: u32,
    /// The action.
    pub token: String,
    /// Its squares, for the table.
    pub squares: [Option<[i32; 2]>; 2],
    /// The mover's expected result with it.
    pub value: Option<f64>,
    /// The mover's wins, draws and losses per mille.
    pub wdl: Option<[u32; 3]>,
    /// The engine's score for it.
    pub score: Option<Score>,
    /// The playouts of the whole search so far.
    pub nodes: u64,
    /// The line the engine expects.
    pub pv: String,
}

impl Line {
    /// The line an `info` line reports.
    pub fn of(info: &Info) -> Option<Line> {
        let token = info.action()?.to_string();
        Some(Line {
            rank: info.multipv,
            squares: squares(&token),
            token,
            value: info.expected_result(),
            wdl: info.wdl,
            score: info.score,
            nodes: info.nodes,
            pv: info.pv.clone(),
        })
    }
}

/// The analysis of the position shown.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Analysis {
    /// True while the page wants it.
    pub on: bool,
    /// The `position` command the lines below are for.
    pub position: String,
    /// The best actions, best first.
    pub lines: Vec<Line>,
    /// When a draw is among them: each kind that may come.
    pub kinds: Vec<KindAdvice>,
    /// The last failure, in words.
    pub message: String,
}

impl Analysis {
    /// Takes a report of the search of `position`; a new position
    /// forgets the old one's lines and kinds.
    pub fn report(&mut self, position: &str, infos: &[Info]) {
        self.at(position);
        self.lines = infos.iter().filter_map(Line::of).collect();
    }

    /// Makes the analysis speak of `position`.
    pub fn at(&mut self, position: &str) {
        if self.position != position {
            self.position = position.to_string();
            self.lines.clear();
            self.kinds.clear();
        }
    }
}

/// What the server keeps for studying the game.
#[derive(Default)]
pub struct Study {
    /// The hint asked for, if any.
    pub hint: Option<Hint>,
    /// The analysis.
    pub analysis: Analysis,
    /// The review, if one was asked for.
    pub review: Option<Review>,
    /// The decision the table shows, `None` for the game as it stands.
    pub cursor: Option<usize>,
    /// What the engine searches for study now; `None` when it does
    /// nothing for study.
    pub job: Option<StudyJob>,
}

impl Study {
    /// After the game was replaced or taken back: what was about the old
    /// game goes; the analysis stays on, for the new position.
    pub fn replaced(&mut self) {
        self.hint = None;
        self.review = None;
        self.cursor = None;
    }
}

/// The analysis as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    /// True while on.
    pub on: bool,
    /// The `position` command of the position shown.
    pub position: String,
    /// Its side to move: `white` or `black`.
    pub side: String,
    /// True when the game is over there: nothing to analyse.
    pub over: bool,
    /// The best actions, best first (empty until the first report).
    pub lines: Vec<Line>,
    /// When a draw is among them: each kind that may come.
    pub kinds: Vec<KindAdvice>,
    /// White's expected result, from the best line: the eval bar.
    pub white: Option<f64>,
    /// White's wins, draws and losses per mille, from the best line.
    pub white_wdl: Option<[u32; 3]>,
    /// The last failure, in words.
    pub message: String,
}

/// The position the cursor shows.
#[derive(Clone, Debug, Serialize)]
pub struct CursorView {
    /// The decisions played before it.
    pub decision: usize,
    /// The game's decisions in all.
    pub decisions: usize,
    /// The moves played before it.
    pub ply: usize,
    /// The side to move: `white` or `black`.
    pub side: String,
    /// The tiles on the table.
    pub tiles: Vec<TileView>,
    /// The drawn tile waiting to be placed, as its letter.
    pub pending: Option<String>,
    /// The move before it.
    pub last_move: Option<LastMove>,
    /// The king in check.
    pub check_square: Option<[i32; 2]>,
    /// The legal answers there, whoever is to move.
    pub legal: Vec<String>,
    /// What the game played there, and its squares.
    pub played: Option<String>,
    /// Its squares, for the table.
    pub played_squares: [Option<[i32; 2]>; 2],
    /// The `position` command of it.
    pub position: String,
}

/// Everything about study in the view, flattened into it.
#[derive(Clone, Debug, Serialize)]
pub struct StudyView {
    /// The hint for this turn.
    pub hint: Option<Hint>,
    /// The analysis.
    pub analysis: AnalysisView,
    /// The review.
    pub review: Option<Review>,
    /// The position the table shows when it is not the game's last.
    pub cursor: Option<CursorView>,
    /// What the engine searches for study now.
    pub study_job: Option<StudyJob>,
    /// The game's decisions so far (a draw and its placement are two):
    /// where the cursor may go.
    pub decisions: usize,
}

/// The game replayed to `decision` answers (`@` and placements apart).
pub fn referee_at(referee: &Referee, decision: usize) -> Option<Referee> {
    let tokens = referee.full_tokens();
    let mut r = Referee::new(referee.start().clone(), referee.deal().clone()).ok()?;
    for token in tokens.get(..decision)? {
        r.play(token).ok()?;
    }
    Some(r)
}

/// The game as the table shows it: at the cursor, or as it stands.
pub fn shown(state: &GuiState) -> Referee {
    state
        .study
        .cursor
        .and_then(|c| referee_at(&state.referee, c))
        .unwrap_or_else(|| state.referee.clone())
}

/// The side to move's pile before a draw, without a drawn tile.
fn pile_of(r: &Referee) -> Pile {
    let pos = r.position();
    pos.pile(pos.side_to_move())
}

/// What the analysis of the shown game would search.
pub struct Target {
    /// The `position` command.
    pub position: String,
    /// The side to move.
    pub side: Colour,
    /// Its pile.
    pub pile: Pile,
    /// True when a drawn tile waits: the kinds are known.
    pub pending: bool,
    /// True when the game is over there.
    pub over: bool,
}

/// The analysis's target now.
pub fn target(state: &GuiState) -> Target {
    let r = shown(state);
    Target {
        position: r.position_command(),
        side: r.position().side_to_move(),
        pile: pile_of(&r),
        pending: r.pending().is_some(),
        over: r.ending().is_some(),
    }
}

impl StudyView {
    /// The study part of the view of `state`.
    pub fn of(state: &GuiState) -> StudyView {
        let study = &state.study;
        let at = state.referee.full_tokens().len();
        let hint = study
            .hint
            .clone()
            .filter(|h| h.generation == state.generation && h.at == at);
        let target = target(state);
        let a = &study.analysis;
        let current = a.position == target.position;
        let lines = if current { a.lines.clone() } else { Vec::new() };
        let best = lines.first();
        let white_side = target.side == Colour::White;
        let analysis = AnalysisView {
            on: a.on,
            side: colour_word(target.side).into(),
            over: target.over,
            kinds: if current { a.kinds.clone() } else { Vec::new() },
            white: best
                .and_then(|l| l.value)
                .map(|v| if white_side { v } else { 1.0 - v }),
            white_wdl: best
                .and_then(|l| l.wdl)
                .map(|[w, d, l]| if white_side { [w, d, l] } else { [l, d, w] }),
            lines,
            message: a.message.clone(),
            position: target.position,
        };
        StudyView {
            hint,
            analysis,
            review: study
                .review
                .clone()
                .filter(|r| r.generation == state.generation),
            cursor: study.cursor.and_then(|c| cursor_view(state, c)),
            study_job: study.job,
            decisions: at,
        }
    }
}

/// The view of the position before decision `c`.
fn cursor_view(state: &GuiState, c: usize) -> Option<CursorView> {
    let full = state.referee.full_tokens();
    let r = referee_at(&state.referee, c)?;
    let pos = r.position();
    let us = pos.side_to_move();
    let last_move = LastMove::of(&r, false);
    let played = full.get(c).cloned();
    Some(CursorView {
        decision: c,
        decisions: full.len(),
        ply: r.game().moves().len(),
        side: colour_word(us).into(),
        tiles: TileView::all(pos),
        pending: r.pending().map(|k| Piece::new(us, k).letter().to_string()),
        last_move,
        check_square: if pos.in_check() {
            pos.king_square(us).map(|s| [s.x, s.y])
        } else {
            None
        },
        legal: r.legal_tokens(),
        played_squares: played.as_deref().map(squares).unwrap_or([None, None]),
        played,
        position: r.position_command(),
    })
}

// ---- the requests ----

/// Asks for a hint for the person's turn.
pub fn ask_hint(state: &mut GuiState) -> Result<(), String> {
    if let Some(end) = state.referee.ending() {
        return Err(format!("the game is over ({end})"));
    }
    if state.engine_to_move() {
        return Err("a hint is for a person's turn, and this is the engine's".into());
    }
    let at = state.referee.full_tokens().len();
    if let Some(h) = &state.study.hint {
        if h.generation == state.generation && h.at == at && h.status != HintStatus::Failed {
            // Asked twice: the first is coming, or here.
            return Ok(());
        }
    }
    let side = state.referee.position().side_to_move();
    state.study.hint = Some(Hint {
        generation: state.generation,
        at,
        side: colour_word(side).into(),
        status: HintStatus::Thinking,
        message: String::new(),
        best: None,
        squares: [None, None],
        value: None,
        kinds: Vec::new(),
    });
    Ok(())
}

/// Starts a review of the game so far, `movetime` ms a decision.
pub fn start_review(state: &mut GuiState, movetime: u64) -> Result<(), String> {
    let movetime = in_range("review movetime", movetime, &REVIEW_MOVETIME_RANGE, " ms")?;
    let full = state.referee.full_tokens();
    if full.is_empty() {
        return Err("there is nothing to review: no move has been played".into());
    }
    let mut r = Referee::new(state.referee.start().clone(), state.referee.deal().clone())
        .map_err(|e| e.to_string())?;
    let mut decisions = Vec::with_capacity(full.len());
    let mut positions = Vec::with_capacity(full.len());
    for (i, token) in full.iter().enumerate() {
        let white = r.position().side_to_move() == Colour::White;
        decisions.push(Decision::new(
            i,
            r.game().moves().len(),
            white,
            token.clone(),
        ));
        positions.push(r.position_command());
        r.play(token).map_err(|e| e.to_string())?;
    }
    let last_result = decisions.last().and_then(|d| {
        let score = state.referee.score(d.mover())?;
        let wdl = if score > 0.75 {
            [1000, 0, 0]
        } else if score < 0.25 {
            [0, 0, 1000]
        } else {
            [0, 1000, 0]
        };
        Some(Value {
            expected: score,
            wdl: Some(wdl),
        })
    });
    let mut review = Review {
        generation: state.generation,
        movetime,
        decisions,
        done: 0,
        status: ReviewStatus::Running,
        message: String::new(),
        moves: Vec::new(),
        positions,
        last_result,
    };
    review.judge();
    state.study.review = Some(review);
    Ok(())
}

/// Shows the position before decision `decision`, or (`None`) the game
/// as it stands.
pub fn set_cursor(state: &mut GuiState, decision: Option<usize>) -> Result<(), String> {
    let n = state.referee.full_tokens().len();
    state.study.cursor = match decision {
        Some(d) if d > n => {
            return Err(format!("decision {d} is out of range 0..={n}"));
        }
        Some(d) if d < n => Some(d),
        _ => None,
    };
    Ok(())
}

// ---- the routes ----

/// The body of `POST /api/hint`: empty, or `{}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HintRequest {}

/// `POST /api/hint`: asks the engine for the person's best action.
pub(super) async fn post_hint(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        if !body.iter().all(u8::is_ascii_whitespace) {
            let _: HintRequest = parse(&body)?;
        }
        ask_hint(state)
    })
}

/// The body of `POST /api/analysis`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    on: bool,
}

/// `POST /api/analysis`: analysis on or off.
pub(super) async fn post_analysis(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: AnalysisRequest = parse(&body)?;
        state.study.analysis.on = request.on;
        state.study.analysis.message.clear();
        Ok(())
    })
}

/// The body of `POST /api/review`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
    movetime: Option<u64>,
}

/// `POST /api/review`: reviews the game so far, in the background.
pub(super) async fn post_review(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: ReviewRequest = parse(&body)?;
        start_review(state, request.movetime.unwrap_or(REVIEW_MOVETIME))
    })
}

/// The body of `POST /api/cursor`: a decision (`null` for the game as
/// it stands), or the move `ply` of the move list, shown where it was
/// played.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CursorRequest {
    #[serde(default)]
    decision: Option<usize>,
    #[serde(default)]
    ply: Option<usize>,
}

/// The decision where move `ply` (from 0) of the game began: a placement
/// took two answers, the draw and itself.
pub fn decision_of_ply(referee: &Referee, ply: usize) -> Result<usize, String> {
    let moves = referee.game().moves();
    if ply >= referee.tokens().len() {
        return Err(format!(
            "move {ply} is out of range 0..{}",
            referee.tokens().len()
        ));
    }
    Ok(moves
        .iter()
        .take(ply)
        .map(|m| match m {
            Move::Place { .. } => 2,
            Move::Step { .. } => 1,
        })
        .sum())
}

/// `POST /api/cursor`: the position the table shows.
pub(super) async fn post_cursor(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: CursorRequest = parse(&body)?;
        let decision = match (request.decision, request.ply) {
            (Some(_), Some(_)) => return Err("give a decision or a ply, not both".into()),
            (None, Some(ply)) => Some(decision_of_ply(&state.referee, ply)?),
            (decision, None) => decision,
        };
        set_cursor(state, decision)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::Mode;

    fn game() -> GuiState {
        let mut state = GuiState::new(Mode::Two, 100, 17, "chex".into());
        for _ in 0..3 {
            state.referee.play("@").unwrap();
            let token = state.referee.legal_tokens()[0].clone();
            state.referee.play(&token).unwrap();
        }
        state
    }

    #[test]
    fn squares_of_tokens() {
        assert_eq!(squares("1,0--2,3"), [Some([1, 0]), Some([-2, 3])]);
        assert_eq!(squares("n@4,-1"), [None, Some([4, -1])]);
        assert_eq!(squares("@"), [None, None]);
        assert_eq!(squares("junk"), [None, None]);
        assert_eq!(
            with_move("position startpos", "Q@"),
            "position startpos moves Q@"
        );
        assert_eq!(
            with_move("position startpos moves Q@0,0", "n@"),
            "position startpos moves Q@0,0 n@"
        );
    }

    #[test]
    fn the_cursor_shows_a_decision_and_refuses_past_the_end() {
        let mut state = game();
        let full = state.referee.full_tokens();
        assert_eq!(full.len(), 6);
        set_cursor(&mut state, Some(3)).unwrap();
        let view = StudyView::of(&state);
        let cursor = view.cursor.unwrap();
        // After White's draw, its placement and Black's draw: Black's
        // tile waits.
        assert_eq!(
            (cursor.decision, cursor.ply, cursor.side.as_str()),
            (3, 1, "black")
        );
        assert!(cursor.pending.is_some());
        assert_eq!(cursor.tiles.len(), 1);
        assert_eq!(cursor.played.as_deref(), Some(full[3].as_str()));
        assert!(cursor.legal.contains(&full[3]));
        assert_eq!(view.analysis.position, cursor.position);
        assert!(cursor.position.ends_with('@'));
        assert!(set_cursor(&mut state, Some(7)).is_err());
        assert_eq!(state.study.cursor, Some(3));
        set_cursor(&mut state, Some(6)).unwrap();
        assert_eq!(state.study.cursor, None);
        assert!(StudyView::of(&state).cursor.is_none());
    }

    #[test]
    fn a_review_has_a_decision_per_answer() {
        let mut state = game();
        assert!(start_review(&mut state, 10).is_err());
        assert!(state.study.review.is_none());
        start_review(&mut state, 100).unwrap();
        let review = state.study.review.as_ref().unwrap();
        assert_eq!(review.decisions.len(), 6);
        assert_eq!(review.next(), Some(0));
        assert_eq!(review.positions[0], "position startpos");
        assert!(review.positions[1].ends_with("moves Q@") || review.positions[1].ends_with('@'));
        assert_eq!(review.decisions[1].ply, 0);
        assert_eq!(review.decisions[2].ply, 1);
        assert_eq!(review.decisions[2].side, "black");
        let empty = &mut GuiState::new(Mode::Two, 100, 17, "chex".into());
        assert!(start_review(empty, 100).is_err());
    }

    #[test]
    fn a_draw_brings_each_kind_by_its_share() {
        let kinds = kinds_of(Colour::Black, Pile::FULL);
        assert_eq!(kinds.len(), 6);
        assert_eq!(kinds[0].kind, "k");
        assert!((kinds[5].chance - 0.5).abs() < 1e-12);
        let total: f64 = kinds.iter().map(|k| k.chance).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
