//! The page's study requests, as changes of the game's state: a hint for
//! the person's turn, an action to ask the analysis about, a review of
//! the game so far, the cursor; and which game the table shows, which the
//! analysis searches.

use super::GuiState;
use crate::gui::refused::{in_range, Refused};
use crate::gui::review::{Decision, Review, ReviewStatus, Value, REVIEW_MOVETIME_RANGE};
use crate::gui::study::{referee_at, Hint, HintStatus, Probe};
use crate::referee::Referee;
use crate::rules::{Colour, Pile};

/// The game as the table shows it: at the cursor, or as it stands.
fn shown(state: &GuiState) -> Referee {
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

/// The legal actions of the shown game, whoever is to move: what the
/// person may ask the analysis about.
pub fn shown_legal(state: &GuiState) -> Vec<String> {
    let r = shown(state);
    if r.ending().is_some() {
        return Vec::new();
    }
    r.legal_tokens()
}

/// "What about this move?": asks the analysis to search `token`, an
/// action of the shown position, beside its best. Asked again while it
/// stands, it changes nothing.
pub fn ask_probe(state: &mut GuiState, token: &str) -> Result<(), Refused> {
    if !state.study.analysis.on {
        return Err("turn the analysis on to ask about a move".into());
    }
    let t = target(state);
    if t.over {
        return Err("the game is over in the position shown".into());
    }
    let legal = shown_legal(state);
    let Some(token) = legal.iter().find(|l| l.eq_ignore_ascii_case(token.trim())) else {
        return Err(format!(
            "'{token}' is not a legal action in the position shown"
        ));
    };
    let a = &mut state.study.analysis;
    a.at(&t.position);
    if let Some(p) = &a.probe {
        if p.token == *token && p.status != HintStatus::Failed {
            return Ok(());
        }
    }
    a.probe = Some(Probe::asked(token));
    Ok(())
}

/// Asks for a hint for the person's turn.
pub fn ask_hint(state: &mut GuiState) -> Result<(), Refused> {
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
        side,
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
pub fn start_review(state: &mut GuiState, movetime: u64) -> Result<(), Refused> {
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
pub fn set_cursor(state: &mut GuiState, decision: Option<usize>) -> Result<(), Refused> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::game::fixtures::{game, three_turns};
    use crate::gui::game::Mode;

    #[test]
    fn a_review_has_a_decision_per_answer() {
        let mut state = three_turns();
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
        assert_eq!(review.decisions[2].side, Colour::Black);
        let empty = &mut game(Mode::Two);
        assert!(start_review(empty, 100).is_err());
    }
}
