//! The final table of a match: games, W/D/L, score, Elo, pairs,
//! endings and the SPRT's verdict.

use super::config::Config;
use super::play::Summary;
use super::stats::{show_elo, Verdict};

/// The final table.
pub fn table(config: &Config, summary: &Summary) -> String {
    let t = &summary.tally;
    let mut out = String::new();
    let mut row = |label: &str, value: String| out.push_str(&format!("{label:<10} {value}\n"));
    row("Match", config.title());
    row("Engine 1", config.engines[0].name.clone());
    row("Engine 2", config.engines[1].name.clone());
    row(
        "Games",
        format!(
            "{} of {} ({} complete pairs)",
            t.games(),
            config.games,
            t.pairs()
        ),
    );
    row(
        "W/D/L",
        format!(
            "{} / {} / {}  (engine 1's wins, draws, losses)",
            t.wdl[0], t.wdl[1], t.wdl[2]
        ),
    );
    row(
        "Score",
        format!(
            "{}/{} = {:.1}%",
            t.points(),
            t.games(),
            100.0 * t.score().unwrap_or(0.0)
        ),
    );
    if let Some(e) = t.elo() {
        row(
            "Elo",
            format!(
                "{} ± {:.1}  (95%: {} .. {})",
                show_elo(e.elo),
                e.error(),
                show_elo(e.low),
                show_elo(e.high)
            ),
        );
    }
    row(
        "Draws",
        format!("{:.1}%", 100.0 * t.draw_ratio().unwrap_or(0.0)),
    );
    row(
        "Pairs",
        format!(
            "0: {}  ½: {}  1: {}  1½: {}  2: {}  (engine 1's points per pair)",
            t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]
        ),
    );
    let endings: Vec<String> = t.endings.iter().map(|(k, n)| format!("{k} {n}")).collect();
    row("Endings", endings.join(", "));
    if let (Some(sprt), Some((verdict, llr))) = (config.sprt, summary.sprt) {
        let (lower, upper) = sprt.bounds();
        let said = match verdict {
            Verdict::H1 => "H1 accepted: engine 1 is stronger",
            Verdict::H0 => "H0 accepted: engine 1 is not stronger",
            Verdict::Continue => "undecided",
        };
        row(
            "SPRT",
            format!(
                "elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} [{lower:.2}, {upper:.2}] {said}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            ),
        );
    }
    out
}
