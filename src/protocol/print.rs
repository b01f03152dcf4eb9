//! What the engine prints: the one way a line reaches stdout, and the text
//! of every report: the `info` lines of a search, `d`, `eval`, `moves`
//! and `status`. Everything here but [`say`] only formats.

use crate::rules::{kind_name, Colour, GameEnd, Kind, Position};
use crate::search::eval::net::Net;
use crate::search::eval::{Evaluation, Evaluator};
use crate::search::score::{self, centipawns_of_expected, expected_result};
use crate::search::trace::{EvaluationTrace, TermLine};
use crate::search::{Action, ActionStats, Proven, Report};
use std::fmt::Write as _;
use std::io::Write;

/// Prints one line and flushes it, so a GUI sees it at once.
pub(super) fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means nobody is listening: nothing left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Prints the one `info string error:` line a refused command gets.
pub(super) fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

/// The `d` report: the table, the piles, whose turn it is, a drawn tile
/// still to be placed (`pending`, or one not known yet), check, how the
/// game has ended and the position's key.
pub(super) fn display(
    pos: &Position,
    pending: Option<Kind>,
    unknown_draw: bool,
    ending: Option<GameEnd>,
) -> String {
    let mut out = board_picture(pos);
    let piles: Vec<String> = Colour::ALL
        .iter()
        .map(|&c| {
            let pile = pos.pile(c);
            let kinds: Vec<String> = Kind::ALL
                .iter()
                .filter(|&&k| pile.count(k) > 0)
                .map(|&k| {
                    format!(
                        "{}×{}",
                        crate::rules::Piece::new(c, k).letter(),
                        pile.count(k)
                    )
                })
                .collect();
            format!("{c} {} ({})", pile.len(), kinds.join(" "))
        })
        .collect();
    let _ = writeln!(out, "Position: {pos}");
    let _ = writeln!(out, "Piles: {}", piles.join(", "));
    let _ = writeln!(out, "Side to move: {}", pos.side_to_move());
    if let Some(kind) = pending {
        let _ = writeln!(out, "Drawn tile: {} (to be placed)", kind_name(kind));
    }
    if unknown_draw {
        let _ = writeln!(out, "Drawn tile: not known yet (to be placed)");
    }
    let _ = writeln!(
        out,
        "In check: {}",
        if pos.in_check() { "yes" } else { "no" }
    );
    let status = match ending {
        None => "ongoing".to_string(),
        Some(end) => end.to_string(),
    };
    let _ = writeln!(out, "Status: {status}");
    let _ = write!(out, "Key: {:016x}", pos.hash());
    out
}

/// The table as text: rows from high y to low, with coordinates.
fn board_picture(pos: &Position) -> String {
    let tiles = pos.tiles();
    let mut out = String::new();
    if tiles.is_empty() {
        out.push_str("(the table is empty)\n");
        return out;
    }
    let min_x = tiles.iter().map(|t| t.square.x).min().unwrap_or(0);
    let max_x = tiles.iter().map(|t| t.square.x).max().unwrap_or(0);
    let min_y = tiles.iter().map(|t| t.square.y).min().unwrap_or(0);
    let max_y = tiles.iter().map(|t| t.square.y).max().unwrap_or(0);
    let width = [min_y, max_y, min_x, max_x]
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        + 1;
    for y in (min_y..=max_y).rev() {
        let _ = write!(out, "{y:>width$} |");
        for x in min_x..=max_x {
            let cell = match pos.tile_at(crate::rules::Square::new(x, y)) {
                Some(t) => t.piece.letter().to_string(),
                None => ".".into(),
            };
            let _ = write!(out, "{cell:>width$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>width$}  ", "");
    for _ in min_x..=max_x {
        let _ = write!(out, "{:>width$}", "-".repeat(width - 1));
    }
    out.push('\n');
    let _ = write!(out, "{:>width$}  ", "y/x");
    for x in min_x..=max_x {
        let _ = write!(out, "{x:>width$}");
    }
    out.push('\n');
    out
}

/// The `moves` line: the actions, sorted, separated by spaces.
pub(super) fn moves_line(actions: &[Action]) -> String {
    let mut actions: Vec<String> = actions.iter().map(Action::to_string).collect();
    actions.sort();
    actions.join(" ")
}

/// The `status` line: `status ongoing`, or the ending's word and score.
pub(super) fn status_line(ending: Option<GameEnd>) -> String {
    match ending {
        None => "status ongoing".to_string(),
        Some(end) => format!("status {} {}", ending_word(end), end.score()),
    }
}

/// The word `status` prints for an ending.
fn ending_word(end: GameEnd) -> &'static str {
    end.ending.word()
}

/// The `eval` report: each term of `evaluation` (the hand-made ones for
/// a net) with its count, weight and share in centipawns, their sum,
/// and the two scores the search reads from `evaluation` as expected
/// results; then the verdict of `net`, the net `Evaluation net` uses.
pub(super) fn evaluation_lines(pos: &Position, evaluation: &Evaluation, net: &Net) -> String {
    let trace = EvaluationTrace::of(pos, evaluation);
    let side = pos.side_to_move();
    let mut out = format!("Evaluation for {side} to move: its counts less the other side's\n");
    for TermLine {
        name,
        count,
        weight,
    } in &trace.terms
    {
        let share = count * weight;
        let _ = writeln!(out, "{name:<50} {count:>3} × {weight:>4} = {share:>5}");
    }
    let _ = writeln!(out, "Total: {} cp", trace.centipawns);
    for colour in Colour::ALL
        .into_iter()
        .filter(|c| trace.stranded[c.index()])
    {
        let _ = writeln!(
            out,
            "Stranded king: {colour}'s, drawn now, would have no square (a draw nears)"
        );
    }
    // Each as `info` would print a search whose estimate it was.
    let estimate = |score: i32| {
        let p = expected_result(score);
        format!(
            "{} cp, {:.1}% for {side}",
            centipawns_of_expected(p),
            100.0 * p
        )
    };
    let _ = writeln!(out, "Static: {}", estimate(trace.score));
    let _ = writeln!(out, "Quiescence: {}", estimate(trace.quiescence));
    let _ = write!(
        out,
        "Net: {}",
        estimate(score::from_centipawns(net.centipawns(pos)))
    );
    out
}

/// The `score` of an action: `mate N` when the search has proven a win
/// (`mate -N` a loss), as UCI counts it ([`Proven::mate_in`]: the
/// winner's own turns, the root action the first of the side to move),
/// `cp 0` for a proven draw, else its mean result as centipawns.
fn score(stats: &ActionStats) -> String {
    match stats.proven {
        Some(proven) => match proven.mate_in() {
            Some(n) => format!("mate {n}"),
            None => "cp 0".to_string(),
        },
        None => format!("cp {}", centipawns_of_expected(stats.value())),
    }
}

/// The win, draw and loss per mille of an action: certain once proven,
/// else its results so far.
fn wdl(stats: &ActionStats) -> [i64; 3] {
    match stats.proven {
        Some(Proven::Win { .. }) => return [1000, 0, 0],
        Some(Proven::Draw) => return [0, 1000, 0],
        Some(Proven::Loss { .. }) => return [0, 0, 1000],
        None => {}
    }
    if stats.visits == 0 {
        return [0, 1000, 0];
    }
    // Rounded where the shares add up (wins, then wins and draws), so
    // that none is below 0 and the three make 1000: rounding wins and
    // losses each could make 1001 and leave draws at -1.
    let per_mille = |x: f64| ((1000.0 * x / stats.visits as f64).round() as i64).clamp(0, 1000);
    let w = per_mille(stats.wins);
    let wd = per_mille(stats.wins + stats.draws).max(w);
    [w, wd - w, 1000 - wd]
}

/// The `info` lines of a report: one per reported action, then the speed.
pub(super) fn info_lines(report: &Report, multipv: usize, show_wdl: bool) -> String {
    let ms = report.elapsed.as_millis().max(1) as u64;
    let nps = report.nodes * 1000 / ms;
    let mut lines = Vec::new();
    for (i, stats) in report.actions.iter().take(multipv.max(1)).enumerate() {
        let mut line = format!("info multipv {} score {}", i + 1, score(stats));
        if show_wdl {
            let [w, d, l] = wdl(stats);
            let _ = write!(line, " wdl {w} {d} {l}");
        }
        let _ = write!(
            line,
            " nodes {} nps {nps} time {ms} pv {}",
            report.nodes, stats.action
        );
        for step in &stats.pv {
            let _ = write!(line, " {step}");
        }
        lines.push(line);
    }
    lines.push(format!(
        "info string playouts/s {nps} plies/s {}",
        report.plies * 1000 / ms
    ));
    lines.join("\n")
}

/// `VerboseMoveStats`: one `info string` line per root action, most
/// visited first, so a user can see why the engine chose.
pub(super) fn move_stats_lines(report: &Report) -> String {
    let total = report.actions.iter().map(|a| a.visits).sum::<u64>().max(1);
    let mut out = String::new();
    for stats in &report.actions {
        let _ = writeln!(
            out,
            "info string {:<14} N: {:>8} ({:>5.1}%) Q: {:>6.3} W: {:.3} D: {:.3} L: {:.3}",
            stats.action.to_string(),
            stats.visits,
            100.0 * stats.visits as f64 / total as f64,
            2.0 * stats.value() - 1.0,
            stats.wins / stats.visits.max(1) as f64,
            stats.draws / stats.visits.max(1) as f64,
            stats.losses / stats.visits.max(1) as f64,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Proven actions print UCI's mate counts and a certain WDL; the
    /// others their estimate.
    #[test]
    fn proven_actions_print_mate_scores() {
        let stats = |proven| ActionStats {
            action: Action::Draw,
            visits: 10,
            wins: 6.0,
            draws: 0.0,
            losses: 4.0,
            pv: Vec::new(),
            proven,
        };
        let report = Report {
            actions: vec![
                stats(Some(Proven::Win { turns: 3 })),
                stats(Some(Proven::Win { turns: 1 })),
                stats(Some(Proven::Draw)),
                stats(None),
                stats(Some(Proven::Loss { turns: 4 })),
                stats(Some(Proven::Loss { turns: 0 })),
            ],
            nodes: 10,
            plies: 0,
            elapsed: std::time::Duration::from_millis(5),
        };
        let lines = info_lines(&report, 6, true);
        let heads: Vec<String> = lines
            .lines()
            .filter_map(|l| l.split(" nodes ").next())
            .map(String::from)
            .collect();
        let cp = centipawns_of_expected(0.6);
        assert_eq!(
            heads[..6],
            [
                "info multipv 1 score mate 2 wdl 1000 0 0".to_string(),
                "info multipv 2 score mate 1 wdl 1000 0 0".to_string(),
                "info multipv 3 score cp 0 wdl 0 1000 0".to_string(),
                format!("info multipv 4 score cp {cp} wdl 600 0 400"),
                "info multipv 5 score mate -2 wdl 0 0 1000".to_string(),
                "info multipv 6 score mate -1 wdl 0 0 1000".to_string(),
            ]
        );
    }

    /// Per mille shares are never negative and make 1000, however their
    /// fractions round.
    #[test]
    fn wdl_shares_add_up() {
        let stats = |wins: f64, draws: f64, losses: f64| ActionStats {
            action: Action::Draw,
            visits: 1,
            wins,
            draws,
            losses,
            pv: Vec::new(),
            proven: None,
        };
        // Both halves round up: 20.5 and 979.5.
        assert_eq!(wdl(&stats(0.0205, 0.0, 0.9795)), [21, 0, 979]);
        assert_eq!(wdl(&stats(0.2505, 0.5, 0.2495)), [251, 500, 249]);
        assert_eq!(wdl(&stats(1.0, 0.0, 0.0)), [1000, 0, 0]);
    }

    /// `eval` and `info` print one value for one estimate: the static
    /// evaluation's and the quiescence's expected results, in
    /// centipawns as `eval` prints them, are what `score cp` says of a
    /// search whose mean result they are; and with no king stranded the
    /// static one is the features' sum, for the scale is the one curve.
    #[test]
    fn eval_and_info_print_one_value_for_one_estimate() {
        for pos in crate::bench::positions() {
            let trace = EvaluationTrace::of(&pos, &Evaluation::HandMade);
            let printed = evaluation_lines(&pos, &Evaluation::HandMade, &Net::shipped());
            for (name, score) in [
                ("Static: ", trace.score),
                ("Quiescence: ", trace.quiescence),
            ] {
                let line = printed.lines().find(|l| l.starts_with(name)).unwrap();
                let cp: i32 = line[name.len()..]
                    .split(" cp")
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let p = expected_result(score);
                let report = Report {
                    actions: vec![ActionStats {
                        action: Action::Draw,
                        visits: 1000,
                        wins: 1000.0 * p,
                        draws: 0.0,
                        losses: 1000.0 * (1.0 - p),
                        pv: Vec::new(),
                        proven: None,
                    }],
                    nodes: 1000,
                    plies: 0,
                    elapsed: std::time::Duration::ZERO,
                };
                let info = info_lines(&report, 1, false);
                assert!(
                    info.starts_with(&format!("info multipv 1 score cp {cp} nodes")),
                    "{pos}: {line} but {info}"
                );
                if name == "Static: " && !trace.stranded.contains(&true) {
                    assert!(
                        (cp - trace.centipawns).abs() <= 1,
                        "{pos}: {line}, total {}",
                        trace.centipawns
                    );
                }
            }
        }
    }
}
