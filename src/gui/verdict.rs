//! "What about this move?" in a player's words: how an action the person
//! asked about compares with the engine's best, from the two scores the
//! engine gave them ("1.2 pawns worse than 0,0-1,0").
//!
//! The engine's `score cp` is on its evaluation's scale, where a pawn is
//! 100: so the difference of two scores, over 100, is in pawns, a unit a
//! player reads without knowing the engine. A proven result (`score
//! mate`) is no number of pawns and is said in words.

use crate::protocol::client::Score;

/// Below this many pawns apart two actions are "about as good": the
/// engine's estimates move by more than that from one report to the next.
const SAME: f64 = 0.1;

/// An action as a sentence names it: `@` is "drawing a tile".
pub fn action_words(token: &str) -> String {
    if token == "@" {
        "drawing a tile".to_string()
    } else {
        token.to_string()
    }
}

/// How many pawns, said with one decimal.
fn pawns(x: f64) -> String {
    let text = format!("{x:.1}");
    if text == "1.0" {
        "1 pawn".to_string()
    } else {
        format!("{text} pawns")
    }
}

/// How many turns, in words.
fn turns(n: i64) -> String {
    match n.abs() {
        1 => "1 turn".to_string(),
        n => format!("{n} turns"),
    }
}

/// How the action `asked` (scored `score`) compares with the engine's
/// best, `best` (scored `best_score`), both for the side to move: one
/// sentence without its subject ("1.2 pawns worse than 0,0-1,0"), for
/// the page to put after the action's name.
pub fn compare(asked: &str, score: Score, best: &str, best_score: Score) -> String {
    let than = action_words(best);
    if asked.eq_ignore_ascii_case(best) {
        return "the engine's best move too".to_string();
    }
    match (score, best_score) {
        (Score::Cp(cp), Score::Cp(best_cp)) => {
            let behind = (best_cp - cp) as f64 / 100.0;
            if behind.abs() < SAME {
                format!("about as good as {than}")
            } else if behind > 0.0 {
                format!("{} worse than {than}", pawns(behind))
            } else {
                // The asked action was searched on its own, longer than
                // the analysis gave it: it may have found more there.
                format!(
                    "{} better than {than}, on a longer look than the analysis gave it",
                    pawns(-behind)
                )
            }
        }
        (Score::Mate(n), Score::Mate(m)) if n > 0 && m > 0 => {
            format!(
                "wins by force too, within {} ({than}: within {m})",
                turns(n)
            )
        }
        (Score::Mate(n), Score::Mate(m)) if n < 0 && m < 0 => {
            format!("loses by force, as {than} does (within {})", turns(n))
        }
        (_, Score::Mate(m)) if m > 0 => {
            format!("misses a forced win: {than} wins within {}", turns(m))
        }
        (Score::Mate(n), _) if n > 0 => {
            format!("wins by force within {}: better than {than}", turns(n))
        }
        (Score::Mate(n), _) => {
            format!(
                "loses by force: the opponent wins within {}, which {than} avoids",
                turns(n)
            )
        }
        (_, Score::Mate(_)) => {
            format!("better than {than}, which loses by force")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_of_scores_is_said_in_pawns() {
        let worse = compare("0,0-1,0", Score::Cp(-40), "2,1-2,2", Score::Cp(80));
        assert_eq!(worse, "1.2 pawns worse than 2,1-2,2");
        assert_eq!(
            compare("0,0-1,0", Score::Cp(-20), "@", Score::Cp(80)),
            "1 pawn worse than drawing a tile"
        );
        assert_eq!(
            compare("0,0-1,0", Score::Cp(75), "@", Score::Cp(80)),
            "about as good as drawing a tile"
        );
        assert!(compare("0,0-1,0", Score::Cp(130), "@", Score::Cp(80))
            .starts_with("0.5 pawns better than drawing a tile"));
        assert_eq!(
            compare("@", Score::Cp(3), "@", Score::Cp(80)),
            "the engine's best move too"
        );
    }

    #[test]
    fn proven_results_are_said_in_words() {
        assert_eq!(
            compare("0,0-1,0", Score::Cp(300), "0,0-0,1", Score::Mate(2)),
            "misses a forced win: 0,0-0,1 wins within 2 turns"
        );
        assert_eq!(
            compare("0,0-1,0", Score::Mate(-1), "0,0-0,1", Score::Cp(-50)),
            "loses by force: the opponent wins within 1 turn, which 0,0-0,1 avoids"
        );
        assert!(compare("a", Score::Mate(3), "b", Score::Mate(1)).starts_with("wins by force too"));
        assert!(
            compare("a", Score::Mate(2), "b", Score::Cp(9)).starts_with("wins by force within 2")
        );
        assert!(
            compare("a", Score::Cp(-900), "b", Score::Mate(-4)).contains("which loses by force")
        );
        assert!(
            compare("a", Score::Mate(-2), "b", Score::Mate(-5)).starts_with("loses by force, as b")
        );
    }
}
