//! Every view the page receives, built from the game one way: the game's
//! view, sent whole on every change, with its clocks, its study and the
//! cursor's position. The parts that two views share are built once, so
//! that they agree: the tiles of a position, and the last move of a game
//! (whose player, while a drawn tile waits, is the other side).

use super::clock::Clock;
use super::game::study::{shown_legal, target};
use super::game::{Engine, EngineStatus, GuiState, Mode};
use super::notation::{colour_word, squares};
use super::review::Review;
use super::study::{referee_at, Hint, HintStatus, KindAdvice, Line, Probe, StudyJob};
use super::verdict::compare;
use crate::protocol::client::Info;
use crate::referee::{Referee, Side};
use crate::rules::{Colour, Kind, Move, Piece, Position};
use serde::Serialize;

/// Everything the page shows, sent whole on every change: it is small,
/// and a page that missed an update is right again with the next one.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// Grows with every change; the page ignores older views.
    pub version: u64,
    /// Who plays what.
    pub mode: Mode,
    /// The engine's time per move, in ms.
    pub movetime: u64,
    /// The seed this game's piles were dealt from.
    pub seed: u64,
    /// The position string.
    pub position: String,
    /// `white` or `black`.
    pub side: String,
    /// The tiles on the table.
    pub tiles: Vec<TileView>,
    /// Each pile as counts per kind, `KQRBNP` order, White's first; a
    /// drawn tile waiting to be placed is no longer counted.
    pub piles: [Vec<(String, u8)>; 2],
    /// The drawn tile waiting to be placed, as its letter.
    pub pending: Option<String>,
    /// The legal answers now (empty when it is not a person's turn).
    pub legal: Vec<String>,
    /// True when a person is to move.
    pub human_turn: bool,
    /// True when the side to move is in check.
    pub in_check: bool,
    /// The king in check.
    pub check_square: Option<[i32; 2]>,
    /// The last move played.
    pub last_move: Option<LastMove>,
    /// The move list of RULES.md, with `N@` last while a tile waits.
    pub moves: Vec<String>,
    /// `*`, `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended, in words.
    pub reason: String,
    /// The engine.
    pub engine: EngineView,
    /// The time each side has spent on its answers so far, in ms, White's
    /// first: the clocks the page shows (the turn running not included).
    pub clocks_ms: [u64; 2],
    /// How long the side to move has been on its turn, in ms; the page
    /// adds the time since this view came while the clock runs.
    pub thinking_ms: u64,
    /// The clocks of a game with a base and an increment; `None` when
    /// the engine has a fixed time per move (`movetime`).
    pub clock: Option<ClockView>,
    /// True while the side to move's time runs: not on a side's first
    /// turn, which is untimed, nor once the game is over.
    pub clock_runs: bool,
    /// True when the game was aborted: a side made no first move in time
    /// (`reason` says which). `result` stays `*`.
    pub aborted: bool,
    /// The engine's level, its `Skill` (1 to 6).
    pub level: u8,
    /// In a clock game, the engine thinks on the person's time.
    pub ponder: bool,
    /// Hint, analysis, review and cursor (`hint`, `analysis`, `review`,
    /// `cursor`, `study_job` at the top level).
    #[serde(flatten)]
    pub study: StudyView,
}

impl View {
    /// What the page shows of `state` now.
    pub fn of(state: &GuiState) -> View {
        let pos = state.referee.position();
        let us = pos.side_to_move();
        let human_turn = state.human_turn();
        let tiles = TileView::all(pos);
        // A drawn tile is in the hand, no longer in the pile.
        let pending = state.referee.pending();
        let piles = Colour::ALL.map(|c| {
            let pile = pos.pile(c);
            Kind::ALL
                .iter()
                .map(|&k| {
                    let held = u8::from(c == us && pending == Some(k));
                    (letter(c, k), pile.count(k).saturating_sub(held))
                })
                .collect()
        });
        let last_move = LastMove::of(
            &state.referee,
            state.engine_played().last().copied().unwrap_or(false),
        );
        let record = state.game_record(Side::default(), Side::default());
        View {
            version: state.version,
            mode: state.mode,
            movetime: state.movetime,
            seed: state.seed,
            position: pos.to_string(),
            side: colour_word(us).into(),
            tiles,
            piles,
            pending: state.referee.pending().map(|k| letter(us, k)),
            legal: if human_turn {
                state.referee.legal_tokens()
            } else {
                Vec::new()
            },
            human_turn,
            in_check: pos.in_check(),
            check_square: check_square(pos),
            last_move,
            moves: state.referee.tokens(),
            result: record.result,
            reason: record.reason,
            engine: EngineView::of(&state.engine),
            clocks_ms: state.clocks_ms(),
            thinking_ms: if state.clock_runs() {
                state.running_ms()
            } else {
                0
            },
            clock: state
                .clock
                .as_ref()
                .map(|c| ClockView::of(c, state.clock_runs().then_some(us))),
            clock_runs: state.clock_runs(),
            aborted: state.is_aborted(),
            level: state.level,
            ponder: state.ponder,
            study: StudyView::of(state),
        }
    }
}

/// What the engine is doing, as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineView {
    /// The command that runs it.
    pub command: String,
    /// What it is doing.
    pub status: EngineStatus,
    /// The last failure, in words (empty when none).
    pub message: String,
    /// How many times it was restarted after a failure.
    pub restarts: u32,
    /// The colour it is thinking for.
    pub side: Option<String>,
    /// The live search line while it thinks, or the last one.
    pub info: Option<Info>,
    /// The colour `info` speaks for: its score and WDL are that side's.
    pub info_side: Option<String>,
    /// Its last move, as it answered it.
    pub last_move: Option<String>,
}

impl EngineView {
    /// The engine as the page shows it.
    pub fn of(engine: &Engine) -> EngineView {
        let word = |side: Option<Colour>| side.map(|c| colour_word(c).to_string());
        EngineView {
            command: engine.command.clone(),
            status: engine.status,
            message: engine.message.clone(),
            restarts: engine.restarts,
            side: word(engine.side),
            info: engine.info.clone(),
            info_side: word(engine.info_side),
            last_move: engine.last_move.clone(),
        }
    }
}

/// The square of the side to move's king, when it is in check.
fn check_square(position: &Position) -> Option<[i32; 2]> {
    let king = position.king_square(position.side_to_move());
    king.filter(|_| position.in_check()).map(|s| [s.x, s.y])
}

/// The letter of a kind in `colour`'s case.
fn letter(colour: Colour, kind: Kind) -> String {
    Piece::new(colour, kind).letter().to_string()
}

/// What the page shows of the clocks.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Each side's time for the game, in ms.
    pub base_ms: u64,
    /// The increment per completed turn, in ms.
    pub inc_ms: u64,
    /// Each side's time left, White's first, in ms, before the answer now
    /// running: the page takes the view's `thinking_ms` and the time since
    /// the view came off the running side's.
    pub left_ms: [u64; 2],
    /// The side whose clock runs (`white` or `black`); `None` once the
    /// game is over.
    pub running: Option<String>,
    /// The side that lost on time, if one did.
    pub flagged: Option<String>,
}

impl ClockView {
    /// The clocks as the page shows them, `running` being the side whose
    /// clock runs now, if the game goes on.
    pub fn of(clock: &Clock, running: Option<Colour>) -> ClockView {
        ClockView {
            base_ms: clock.base_ms,
            inc_ms: clock.inc_ms,
            left_ms: Colour::ALL.map(|c| clock.left_ms(c)),
            running: running.map(|c| colour_word(c).into()),
            flagged: clock.flagged().map(|c| colour_word(c).into()),
        }
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
    /// The legal actions there, whoever is to move: what the person may
    /// ask about.
    pub legal: Vec<String>,
    /// The action asked about ("What about this move?"), beside the best.
    pub probe: Option<ProbeView>,
    /// The last failure, in words.
    pub message: String,
}

/// An action asked about, as the page shows it beside the best.
#[derive(Clone, Debug, Serialize)]
pub struct ProbeView {
    /// The action asked about, its search and its line.
    #[serde(flatten)]
    pub probe: Probe,
    /// The analysis's best line, to compare with.
    pub best: Option<Line>,
    /// Once searched: how it compares with the best, in a player's words
    /// ("1.2 pawns worse than 0,0-1,0").
    pub verdict: Option<String>,
}

impl ProbeView {
    /// The view of `probe` beside the analysis's `best` line.
    fn of(probe: &Probe, best: Option<&Line>) -> ProbeView {
        let verdict = match (&probe.line, best) {
            (Some(line), Some(best)) if probe.status == HintStatus::Done => {
                match (line.score, best.score) {
                    (Some(score), Some(best_score)) => {
                        Some(compare(&probe.token, score, &best.token, best_score))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        ProbeView {
            probe: probe.clone(),
            best: best.cloned(),
            verdict,
        }
    }
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
        let probe = a
            .probe
            .as_ref()
            .filter(|_| current)
            .map(|p| ProbeView::of(p, best));
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
            legal: shown_legal(state),
            probe,
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
        pending: r.pending().map(|k| letter(us, k)),
        last_move,
        check_square: check_square(pos),
        legal: r.legal_tokens(),
        played_squares: played.as_deref().map(squares).unwrap_or([None, None]),
        played,
        position: r.position_command(),
    })
}

/// A tile as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct TileView {
    /// Its file.
    pub x: i32,
    /// Its rank.
    pub y: i32,
    /// Its letter: upper case White, lower case Black.
    pub piece: String,
}

impl TileView {
    /// The tiles on the table of `position`.
    pub fn all(position: &Position) -> Vec<TileView> {
        position
            .tiles()
            .iter()
            .map(|t| TileView {
                x: t.square.x,
                y: t.square.y,
                piece: t.piece.letter().to_string(),
            })
            .collect()
    }
}

/// The last move as the page highlights it.
#[derive(Clone, Debug, Serialize)]
pub struct LastMove {
    /// The token.
    pub token: String,
    /// Where the tile came from; `None` for a placement.
    pub from: Option<[i32; 2]>,
    /// Where it went.
    pub to: [i32; 2],
    /// Who played it: `white` or `black`.
    pub by: String,
    /// True when the engine played it.
    pub engine: bool,
}

impl LastMove {
    /// The last completed move of `referee`'s game, if any; `engine` says
    /// whether the engine played it. A tile drawn and not yet placed is
    /// no move: the last one was the other side's, whose turn ended it.
    pub fn of(referee: &Referee, engine: bool) -> Option<LastMove> {
        let mv = *referee.game().moves().last()?;
        let from = match mv {
            Move::Step { from, .. } => Some([from.x, from.y]),
            Move::Place { .. } => None,
        };
        let to = mv.to();
        // A drawn tile does not change the side to move.
        let by = referee.position().side_to_move().opposite();
        Some(LastMove {
            token: mv.to_string(),
            from,
            to: [to.x, to.y],
            by: colour_word(by).into(),
            engine,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::game::fixtures::{game, three_turns};
    use crate::gui::game::study::set_cursor;
    use crate::referee::Deal;

    #[test]
    fn the_view_counts_a_drawn_tile_out_of_the_pile() {
        let mut state = game(Mode::Two);
        state.referee.play("@").unwrap();
        let view = View::of(&state);
        let drawn = view.pending.clone().unwrap();
        let left: u32 = view.piles[0].iter().map(|(_, n)| u32::from(*n)).sum();
        assert_eq!(left, 15);
        let kind = Kind::from_letter(drawn.chars().next().unwrap()).unwrap();
        let count = view.piles[0].iter().find(|(k, _)| *k == drawn).unwrap().1;
        assert_eq!(count + 1, kind.set_count());
        assert_eq!(view.legal, [format!("{drawn}@0,0")]);
        assert_eq!(view.moves, [format!("{drawn}@")]);
    }

    #[test]
    fn a_loaded_record_knows_who_played() {
        let mut state = game(Mode::White);
        state.human_play("@").unwrap();
        let token = state.referee.legal_tokens()[0].clone();
        state.human_play(&token).unwrap();
        state.referee.play("@").unwrap();
        let token = state.referee.legal_tokens()[0].clone();
        state.referee.play(&token).unwrap();
        state.played(true);
        let line = state.record();
        let mut other = game(Mode::Two);
        other.load(&line).unwrap();
        assert_eq!(other.referee.tokens(), state.referee.tokens());
        assert_eq!(other.seed, 17);
        assert_eq!(other.engine_played(), [false, true]);
        let last = View::of(&other).last_move.unwrap();
        assert!(last.engine);
        assert_eq!(last.by, "black");
        // A refused record leaves the game as it was.
        let before = other.referee.tokens();
        assert!(other.load("{}").is_err());
        assert!(other.load(&line.replace("startpos", "nonsense")).is_err());
        assert_eq!(other.referee.tokens(), before);
    }

    #[test]
    fn the_cursor_shows_a_decision_and_refuses_past_the_end() {
        let mut state = three_turns();
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
    fn the_clocks_view_names_the_flagged_side() {
        let mut clock = Clock::new(3_000, 0).unwrap();
        clock.flag(Colour::White);
        let view = ClockView::of(&clock, None);
        assert_eq!(view.flagged.as_deref(), Some("white"));
        assert_eq!(view.left_ms, [0, 3_000]);
    }

    #[test]
    fn the_last_move_is_the_other_sides_while_a_drawn_tile_waits() {
        let start = Position::startpos();
        let mut referee = Referee::new(start.clone(), Deal::from_seed(&start, 17)).unwrap();
        assert!(LastMove::of(&referee, false).is_none());
        referee.play("@").unwrap();
        let token = referee.legal_tokens()[0].clone();
        referee.play(&token).unwrap();
        let last = LastMove::of(&referee, true).unwrap();
        assert_eq!(
            (last.token.as_str(), last.by.as_str()),
            (token.as_str(), "white")
        );
        assert_eq!(last.from, None);
        // Black draws: the last move is still White's.
        referee.play("@").unwrap();
        let last = LastMove::of(&referee, true).unwrap();
        assert_eq!(
            (last.token.as_str(), last.by.as_str()),
            (token.as_str(), "white")
        );
        assert_eq!(TileView::all(referee.position()).len(), 1);
    }
}
