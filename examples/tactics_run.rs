//! Measures a player's solve rate on the tactics suite, per category.
//!
//! ```sh
//! cargo run --release --example tactics_run -- --player ismcts --movetime 100
//! cargo run --release --example tactics_run -- --player alphabeta --nodes 20000
//! ```
//!
//! Each position is searched once, with the engine's default options
//! (`src/protocol/options.rs`) but for those given here, by
//! `chex::search::Engine::search` as `go` would; it is solved when the answer is
//! one of the position's accepted answers. The time is spent in full: the
//! move overhead is 0 unless `--overhead` says otherwise.
//!
//! Options: `--player NAME` (default ismcts), `--movetime MS` or `--nodes N`
//! (default movetime 100), `--threads N` (default 1), `--seed N` (default
//! 1; 0 draws a fresh one), `--overhead MS` (default 0), `--evaluation
//! hand|rich|net` (default the engine's), `--file PATH`
//! (default tests/data/tactics.txt), `--category NAME` (only that one),
//! `--quiet` (no line per missed position).

#[path = "../tests/tactics_common/mod.rs"]
mod tactics_common;

use chex::protocol::options::Options;
use chex::search::eval::Evaluation;
use chex::search::{Engine, Limits, Params, Player, Request};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use tactics_common::{Category, Entry};

fn value<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn number(args: &[String], name: &str) -> Option<u64> {
    value(args, name).map(|v| v.parse().unwrap_or_else(|_| panic!("{name}: not a number")))
}

/// The evaluation `--evaluation` names, read as the `Evaluation` option
/// reads it; the engine's default without it.
fn evaluation(name: Option<&str>) -> Evaluation {
    let mut options = Options::default();
    if let Some(name) = name {
        options
            .set("Evaluation", Some(name))
            .unwrap_or_else(|e| panic!("--evaluation: {e}"));
    }
    options.params.evaluation
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let params = Params {
        player: value(&args, "--player")
            .unwrap_or("ismcts")
            .parse::<Player>()
            .unwrap_or_else(|e| panic!("{e}")),
        threads: number(&args, "--threads").unwrap_or(1) as usize,
        seed: number(&args, "--seed").unwrap_or(1),
        move_overhead: number(&args, "--overhead").unwrap_or(0),
        evaluation: evaluation(value(&args, "--evaluation")),
        ..Params::default()
    };
    let limits = match number(&args, "--nodes") {
        Some(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(number(&args, "--movetime").unwrap_or(100)),
            ..Limits::default()
        },
    };
    let only: Option<Category> = value(&args, "--category").map(|c| c.parse().unwrap());
    let quiet = args.iter().any(|a| a == "--quiet");
    let path = value(&args, "--file").unwrap_or("tests/data/tactics.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let entries = Entry::parse_file(&text).unwrap_or_else(|e| panic!("{e}"));

    let started = Instant::now();
    let mut tally: BTreeMap<Category, (usize, usize)> = BTreeMap::new();
    let engine = Engine::new();
    for entry in &entries {
        if only.is_some_and(|c| c != entry.category) {
            continue;
        }
        let stop = AtomicBool::new(false);
        let history = [entry.pos.hash()];
        let request = Request {
            pending: entry.pending,
            history: &history,
            ..Request::new(&entry.pos, &limits, &params)
        };
        let choice = engine.search(&request, &stop, &mut |_| {});
        let answer = choice.map_or("(none)".to_string(), |a| a.to_string());
        let solved = entry.answers.contains(&answer);
        let t = tally.entry(entry.category).or_default();
        t.0 += usize::from(solved);
        t.1 += 1;
        if !solved && !quiet {
            println!(
                "missed {}: played {answer}, wants {}",
                entry.id,
                entry.answers.join(" ")
            );
        }
    }
    let limit = match (limits.nodes, limits.movetime) {
        (Some(n), _) => format!("nodes {n}"),
        (_, Some(ms)) => format!("movetime {ms} ms"),
        _ => unreachable!(),
    };
    println!(
        "player {}, {limit}, threads {}, seed {}, overhead {} ms ({:.1?}):",
        params.player.name(),
        params.threads,
        params.seed,
        params.move_overhead,
        started.elapsed()
    );
    let (mut solved, mut total) = (0, 0);
    for (category, (s, n)) in &tally {
        println!(
            "  {:<11} {s:>3}/{n:<3} {:5.1}%",
            category.name(),
            100.0 * *s as f64 / *n as f64
        );
        solved += s;
        total += n;
    }
    let easy: (usize, usize) = tally
        .iter()
        .filter(|(c, _)| c.is_easy())
        .fold((0, 0), |acc, (_, t)| (acc.0 + t.0, acc.1 + t.1));
    println!(
        "  {:<11} {:>3}/{:<3} {:5.1}%",
        "easy part",
        easy.0,
        easy.1,
        100.0 * easy.0 as f64 / easy.1.max(1) as f64
    );
    println!(
        "  {:<11} {solved:>3}/{total:<3} {:5.1}%",
        "all",
        100.0 * solved as f64 / total.max(1) as f64
    );
}
