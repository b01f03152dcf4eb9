//! `chex match --stats FILE [--follow]`: the table of a match made from
//! its records alone, and under --follow the SPRT's state as more
//! records arrive on stdin (`tools/cluster-match`).

use super::args::MatchArgs;
use super::play::Summary;
use super::progress::{progress, show_progress};
use super::records::{self, Counter, Tail};
use super::stats::{Sprt, Tally, Verdict};
use super::table::table;
use crate::referee::GameRecord;
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

/// `chex match --stats FILE [--follow]`: the table of the records in
/// FILE, and under --follow of those that come on stdin after them.
pub(super) fn stats(args: &MatchArgs, path: &Path) -> Result<(), String> {
    let given = [
        (args.engine1.is_some(), "--engine1"),
        (args.engine2.is_some(), "--engine2"),
        (!args.option1.is_empty(), "--option1"),
        (!args.option2.is_empty(), "--option2"),
        (args.ponder, "--ponder"),
        (args.ponder1, "--ponder1"),
        (args.ponder2, "--ponder2"),
        (args.tc.is_some(), "--tc"),
        (args.movetime.is_some(), "--movetime"),
        (args.nodes.is_some(), "--nodes"),
        (args.pair.is_some(), "--pair"),
        (args.out.is_some(), "--out"),
        (args.text.is_some(), "--text"),
        (args.positions.is_some(), "--positions"),
    ];
    if let Some((_, flag)) = given.iter().find(|(given, _)| *given) {
        return Err(format!(
            "{flag} does not go with --stats: the engines, time control, start and seed come from the records (only --games/--pairs and the SPRT options may be given)"
        ));
    }
    let games = match (args.games, args.pairs) {
        (Some(g), _) => Some(g),
        (None, Some(p)) => Some(p.saturating_mul(2)),
        (None, None) => None,
    };
    let sprt = if args.sprt {
        Some(Sprt::new(args.elo0, args.elo1, args.alpha, args.beta)?)
    } else {
        None
    };
    let mut counter = Counter::inferring(games, sprt);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && args.follow => Vec::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let (records, tail) = records::parse_lines(path, &bytes)?;
    for (at, record) in &records {
        counter.add(at, record)?;
    }
    match tail {
        Tail::Clean => {}
        Tail::Whole(at, record) => counter.add(&at, &record)?,
        // A match still running may be writing it.
        Tail::Torn { at, len, .. } => {
            eprintln!("warning: {at}: left out an unfinished last line ({len} bytes)")
        }
    }
    if args.follow {
        let terminal = std::io::stderr().is_terminal();
        let mut stdout = std::io::stdout().lock();
        let mut state = |tally: &Tally| {
            let word = match sprt.map(|s| s.verdict(tally)) {
                Some(Verdict::H1) => "H1",
                Some(Verdict::H0) => "H0",
                _ => "continue",
            };
            writeln!(stdout, "{word}")
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("cannot write to stdout: {e}"))
        };
        // The state after FILE first: it tells the caller FILE is read.
        state(&counter.tally)?;
        let mut followed = false;
        for (i, line) in std::io::stdin().lock().lines().enumerate() {
            let at = format!("stdin line {}", i + 1);
            let line = line.map_err(|e| format!("{at}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let record = GameRecord::from_json_line(&line).map_err(|e| format!("{at}: {e}"))?;
            counter.add(&at, &record)?;
            if let Some(config) = counter.config() {
                show_progress(terminal, &progress(&config, &counter.tally, &record));
            }
            followed = true;
            state(&counter.tally)?;
        }
        if terminal && followed {
            eprintln!();
        }
    }
    let config = counter
        .config()
        .ok_or_else(|| format!("{} holds no records", path.display()))?;
    let tally = counter.tally;
    let summary = Summary {
        sprt: sprt.map(|s| (s.verdict(&tally), s.llr(&tally))),
        tally,
    };
    print!("{}", table(&config, &summary));
    Ok(())
}
