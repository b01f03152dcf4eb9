//! The live progress line on stderr: the score so far after each game.

use super::config::Config;
use super::stats::{show_elo, Tally};
use crate::referee::GameRecord;

/// The live progress line.
pub(super) fn progress(config: &Config, tally: &Tally, record: &GameRecord) -> String {
    let elo = match tally.elo() {
        Some(e) => format!("Elo {} ± {:.1}", show_elo(e.elo), e.error()),
        None => String::new(),
    };
    format!(
        "[{}/{}] {} vs {}: +{} ={} -{}  score {:.1}%  {elo}  (game {}: {} {})",
        tally.games(),
        config.games,
        config.engines[0].name,
        config.engines[1].name,
        tally.wdl[0],
        tally.wdl[1],
        tally.wdl[2],
        100.0 * tally.score().unwrap_or(0.0),
        record.game,
        record.result,
        record.ending,
    )
}

/// Shows a progress line: over the last one on a terminal, else as a
/// line of its own (a log keeps every line).
pub(super) fn show_progress(terminal: bool, line: &str) {
    if terminal {
        eprint!("\r\x1b[K{line}");
    } else {
        eprintln!("{line}");
    }
}
