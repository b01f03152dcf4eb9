//! Study: what the page asks of the engine besides its moves — a hint for
//! the person's turn, the analysis of the position shown, and the review
//! of the game — and the cursor that shows a position of the game without
//! taking moves back.
//!
//! This file holds their state on the server. `game::study` takes the
//! page's requests for them, `view` shows them, `engine::study` runs the
//! engine's searches for them whenever the engine is not needed to play,
//! and `review` judges the game's decisions. The page holds no rules here
//! either: every square it marks and every legal token it checks comes
//! from the view.

use super::notation::{serialize_colour, squares};
use super::refused::Refused;
use super::review::Review;
use crate::protocol::client::{Info, Score};
use crate::referee::Referee;
use crate::rules::{Colour, Move, Piece, Pile};
use serde::Serialize;

/// How long the engine searches for a hint, in ms.
pub const HINT_MOVETIME: u64 = 1000;
/// How long it searches each kind's placement when the hint is to draw.
pub const HINT_KIND_MOVETIME: u64 = 300;
/// How long the analysis looks before it decides whether to search the
/// kinds a draw may bring; it then goes on until stopped.
pub const ANALYSIS_FIRST_LOOK: u64 = 1500;
/// How long the analysis searches each kind's placement.
pub const ANALYSIS_KIND_MOVETIME: u64 = 300;
/// How long the engine searches an action the person asks about
/// ("What about this move?"), on top of what the analysis learned of it.
pub const PROBE_MOVETIME: u64 = 1000;
/// How many actions the analysis shows.
pub const ANALYSIS_LINES: u32 = 3;
/// The `MultiPV` of a review's searches: protocol.md's largest, so that
/// the line of the action played is among those reported.
pub const REVIEW_LINES: u32 = 256;

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

/// Where a hint, or an action asked about, stands; the page reads it as
/// a word.
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
    /// An action the person asked about in the analysis.
    Probe,
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
    /// The mover; the page reads `white` or `black`.
    #[serde(serialize_with = "serialize_colour")]
    pub side: Colour,
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

/// "What about this move?": one action of the analysed position that the
/// person asked about, searched alone (`go searchmoves`) so that its
/// value and line stand beside the analysis's best.
#[derive(Clone, Debug, Serialize)]
pub struct Probe {
    /// The action, as the legal list spells it.
    pub token: String,
    /// Its squares, for the table.
    pub squares: [Option<[i32; 2]>; 2],
    /// Where it stands.
    pub status: HintStatus,
    /// Why it failed, in words.
    pub message: String,
    /// Its line, as the engine reports it (updated as it searches).
    pub line: Option<Line>,
}

impl Probe {
    /// An action asked about, not searched yet.
    pub fn asked(token: &str) -> Probe {
        Probe {
            token: token.to_string(),
            squares: squares(token),
            status: HintStatus::Thinking,
            message: String::new(),
            line: None,
        }
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
    /// The action asked about in this position, if any.
    pub probe: Option<Probe>,
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
            // An action of another position: moot here.
            self.probe = None;
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

/// The game replayed to `decision` answers (`@` and placements apart).
pub fn referee_at(referee: &Referee, decision: usize) -> Option<Referee> {
    let tokens = referee.full_tokens();
    let mut r = Referee::new(referee.start().clone(), referee.deal().clone()).ok()?;
    for token in tokens.get(..decision)? {
        r.play(token).ok()?;
    }
    Some(r)
}

/// The decision where move `ply` (from 0) of the game began: a placement
/// took two answers, the draw and itself.
pub fn decision_of_ply(referee: &Referee, ply: usize) -> Result<usize, Refused> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
