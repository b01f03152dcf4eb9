//! Fits the evaluation's weights to game results (Texel's method): a
//! logistic regression of each game's result, for the side to move, on
//! the terms of the positions of the game (`chex::search::eval::fit`).
//!
//! `cargo run --release --example fit_eval -- FILE...` reads the game
//! records `chex match --out` writes (every position of every game; gzip
//! when the name ends in `.gz`, as the shards of `data/selfplay/`) or the
//! position samples `chex match --positions` writes, in any mix. Only
//! quiet positions are fitted: those where the quiescence search agrees
//! with the static evaluation.
//!
//! The games are split into training and validation (every K-th game,
//! `--valid-every=K`, default 5: 4/5 and 1/5), and three fits are
//! compared on the same positions by their validation log loss: the
//! weights in use (`FITTED`) as they are; the plain terms
//! (`eval::terms`) refitted; and the rich terms (`eval::rich`) fitted.
//! The plain refit is printed as the pairs of `eval::weights::FITTED`,
//! the rich fit as the array `eval::rich::RICH_FITTED`.
//!
//! Feature indices below are those of the rich terms (the plain terms
//! are its first `Term::COUNT`). `--without=I,J` holds features I and J
//! at zero, so that a set with and without them can be compared on the
//! same positions. `--only=I,J` fits features I and J alone, the others
//! held at the weights in use. `--hold=I,J` keeps features I and J at
//! the weights in use (the queen on the table, say) and fits the rest.
//! `--fix=I:W,J:V` holds feature I at W centipawns and J at V (a
//! holding tile's weight at a fraction of its fit, say) and fits the
//! rest. `--l2=X` sets the ridge penalty on the weights (default 1e-9).
//! `--lambda=X` fits each game position to X times the value the mover's
//! search gave it (the record's `values`, where it has one) plus 1 − X
//! times the game's result (default 0: the result alone); the validation
//! loss is then against the same blend.
//! `--ablate` also fits the rich terms less each of their groups (the
//! distances, the holding tiles), to tell what each adds.

use chex::referee::{PositionSample, SKIP_PLIES};
use chex::rules::{Colour, Position};
use chex::search::alphabeta::LeafJudge;
use chex::search::eval::fit::{fit, log_loss, Samples};
use chex::search::eval::rich::{self, RichTerms, RICH_FITTED};
use chex::search::eval::terms::Term;
use chex::search::eval::weights::FITTED;
use chex::search::eval::{Evaluator, HandMade};
use flate2::read::MultiGzDecoder;
use std::io::{BufRead, BufReader, Read};
use std::process::ExitCode;

/// What the command line asks for.
struct Options {
    without: Vec<usize>,
    only: Vec<usize>,
    hold: Vec<usize>,
    fix: Vec<(usize, f64)>,
    valid_every: u64,
    l2: f64,
    lambda: f64,
    ablate: bool,
    files: Vec<String>,
}

/// The quiet positions read, split by game.
struct Split {
    training: Samples,
    validation: Samples,
    games: u64,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("fit_eval: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let options = parse_options()?;
    let mut split = Split {
        training: Samples::new(rich::COUNT),
        validation: Samples::new(rich::COUNT),
        games: 0,
    };
    let mut judge = LeafJudge::new(0);
    for file in &options.files {
        for line in lines_of(file)? {
            let line = line.map_err(|e| format!("{file}: {e}"))?;
            let Ok(record) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            if record.get("position").is_some() {
                add_sample(&line, &mut judge, &mut split, options.valid_every);
            } else {
                split.games += 1;
                let valid = split.games.is_multiple_of(options.valid_every);
                let part = if valid {
                    &mut split.validation
                } else {
                    &mut split.training
                };
                add_game(&record, options.lambda, &mut judge, part);
            }
        }
    }
    for part in [&mut split.training, &mut split.validation] {
        for row in part.counts.chunks_exact_mut(rich::COUNT) {
            for &i in &options.without {
                row[i] = 0.0;
            }
        }
    }
    eprintln!(
        "{} game records in {} files: {} training and {} validation positions",
        split.games,
        options.files.len(),
        split.training.len(),
        split.validation.len()
    );
    report(&options, &split);
    Ok(())
}

/// Fits and prints the three comparisons.
fn report(options: &Options, split: &Split) {
    let plain_start: Vec<f64> = FITTED.values().map(f64::from).to_vec();
    let mut rich_start = vec![0.0; rich::COUNT];
    rich_start[..Term::COUNT].copy_from_slice(&plain_start);
    for &(i, w) in &options.fix {
        rich_start[i] = w;
    }
    let free = |dim: usize| -> Vec<bool> {
        (0..dim)
            .map(|i| {
                (options.only.is_empty() || options.only.contains(&i))
                    && !options.hold.contains(&i)
                    && !options.fix.iter().any(|&(j, _)| j == i)
                    && !options.without.contains(&i)
            })
            .collect()
    };
    let plain_train = split.training.truncated(Term::COUNT);
    let plain_valid = split.validation.truncated(Term::COUNT);
    let losses = |train: &Samples, valid: &Samples, w: &[f64]| {
        format!(
            "training {:.5}, validation {:.5}",
            log_loss(train, w),
            log_loss(valid, w)
        )
    };
    println!(
        "constant 50%: validation {:.5}",
        log_loss(&plain_valid, &[0.0; Term::COUNT])
    );
    println!(
        "FITTED as it is: {}",
        losses(&plain_train, &plain_valid, &plain_start)
    );
    let in_use: Vec<f64> = RICH_FITTED.iter().map(|&w| f64::from(w)).collect();
    println!(
        "RICH_FITTED as it is: {}",
        losses(&split.training, &split.validation, &in_use)
    );
    let plain = fit(&plain_train, &plain_start, &free(Term::COUNT), options.l2);
    println!(
        "plain terms refitted: {}",
        losses(&plain_train, &plain_valid, &plain)
    );
    let rich_fit = fit(&split.training, &rich_start, &free(rich::COUNT), options.l2);
    println!(
        "rich terms fitted: {}",
        losses(&split.training, &split.validation, &rich_fit)
    );
    if options.ablate {
        // Each group of the rich terms left out in turn (held at zero):
        // what each adds to the plain terms on the same positions.
        let groups = [
            ("distances", rich::near_index(0, 0, 0)..rich::held_index(0)),
            ("holding tiles", rich::held_index(0)..rich::COUNT),
        ];
        for (group, range) in groups {
            let mut free = free(rich::COUNT);
            free[range.clone()].fill(false);
            let w = fit(&split.training, &rich_start, &free, options.l2);
            println!(
                "rich terms without the {group}: {}",
                losses(&split.training, &split.validation, &w)
            );
        }
    }
    println!("\nplain terms refitted:");
    for (term, w) in Term::ALL.iter().zip(&plain) {
        println!("    (Term::{term:?}, {}),", w.round() as i64);
    }
    println!("\nrich terms fitted:");
    for (i, w) in rich_fit.iter().enumerate() {
        println!("{i:>3} {:>42}: {w:8.1}", rich::name(i));
    }
    let rounded: Vec<String> = rich_fit
        .iter()
        .map(|w| (w.round() as i64).to_string())
        .collect();
    println!("[{}]", rounded.join(", "));
}

fn parse_options() -> Result<Options, String> {
    let (flags, files): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let mut options = Options {
        without: Vec::new(),
        only: Vec::new(),
        hold: Vec::new(),
        fix: Vec::new(),
        valid_every: 5,
        l2: 1e-9,
        lambda: 0.0,
        ablate: false,
        files,
    };
    for flag in &flags {
        if flag == "--ablate" {
            options.ablate = true;
            continue;
        }
        let (name, value) = flag
            .split_once('=')
            .ok_or_else(|| format!("option {flag} wants a value"))?;
        let indices = || {
            value
                .split(',')
                .map(|i| i.parse::<usize>().ok().filter(|&i| i < rich::COUNT))
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| format!("not a list of feature indices: {flag}"))
        };
        match name {
            "--without" => options.without.extend(indices()?),
            "--only" => options.only.extend(indices()?),
            "--hold" => options.hold.extend(indices()?),
            "--fix" => {
                for pair in value.split(',') {
                    let fixed = pair
                        .split_once(':')
                        .and_then(|(i, w)| Some((i.parse::<usize>().ok()?, w.parse::<f64>().ok()?)))
                        .filter(|&(i, _)| i < rich::COUNT)
                        .ok_or_else(|| format!("not a list of index:weight pairs: {flag}"))?;
                    options.fix.push(fixed);
                }
            }
            "--valid-every" => {
                options.valid_every = value
                    .parse()
                    .ok()
                    .filter(|&k| k >= 2)
                    .ok_or_else(|| format!("{flag}: not a number of at least 2"))?;
            }
            "--l2" => {
                options.l2 = value
                    .parse()
                    .ok()
                    .filter(|&x: &f64| x >= 0.0)
                    .ok_or_else(|| format!("{flag}: not a penalty"))?;
            }
            "--lambda" => {
                options.lambda = value
                    .parse()
                    .ok()
                    .filter(|x: &f64| (0.0..=1.0).contains(x))
                    .ok_or_else(|| format!("{flag}: not a weight from 0 to 1"))?;
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if options.files.is_empty() {
        return Err(
            "usage: fit_eval [--without=I,J] [--only=I,J] [--hold=I,J] [--fix=I:W,J:V] \
             [--valid-every=K] [--l2=X] [--lambda=X] [--ablate] RECORDS.jsonl[.gz]|POSITIONS.jsonl..."
                .to_string(),
        );
    }
    Ok(options)
}

/// The lines of `file`, unzipped when its name ends in `.gz`.
fn lines_of(file: &str) -> Result<std::io::Lines<BufReader<Box<dyn Read>>>, String> {
    let opened = std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?;
    let reader: Box<dyn Read> = if file.ends_with(".gz") {
        Box::new(MultiGzDecoder::new(opened))
    } else {
        Box::new(opened)
    };
    Ok(BufReader::new(reader).lines())
}

/// The result of a game for `side` from its result string, `None` for an
/// unfinished game.
fn result_for(result: &str, side: Colour) -> Option<f64> {
    let white = match result {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return None,
    };
    Some(match side {
        Colour::White => white,
        Colour::Black => 1.0 - white,
    })
}

/// Adds one position sample with its game's result for its side to
/// move, to validation when its game number says so; the sampler has
/// already left out early positions and checks.
fn add_sample(line: &str, judge: &mut LeafJudge, split: &mut Split, valid_every: u64) {
    let Ok(sample) = PositionSample::from_json_line(line) else {
        return;
    };
    let Ok(pos) = sample.position.parse::<Position>() else {
        return;
    };
    let Some(score) = result_for(&sample.result, pos.side_to_move()) else {
        return;
    };
    if is_quiet(&pos, judge) {
        let part = if sample.game.is_multiple_of(valid_every) {
            &mut split.validation
        } else {
            &mut split.training
        };
        part.push(&RichTerms::of(&pos).counts(), score);
    }
}

/// Whether no capture changes the position's value: the quiescence
/// search agrees with the static evaluation. A position with a tile en
/// prise is judged by the material it is about to lose, not the material
/// it shows (Texel's method fits quiet positions). The plain evaluation
/// decides, so that every term set is fitted on the same positions.
fn is_quiet(pos: &Position, judge: &mut LeafJudge) -> bool {
    judge.judge(pos, None) == HandMade.score(pos, 0)
}

/// Adds the positions of one game record, each with the game's result
/// for its side to move, or with `lambda` of it the value the mover's
/// search gave the position (where the record has one).
fn add_game(record: &serde_json::Value, lambda: f64, judge: &mut LeafJudge, part: &mut Samples) {
    let Some(result) = record["result"].as_str() else {
        return;
    };
    if result_for(result, Colour::White).is_none() {
        return;
    }
    let start = record["start"].as_str().unwrap_or("startpos");
    let mut pos = if start == "startpos" {
        Position::startpos()
    } else {
        match start.parse() {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    let Some(moves) = record["moves"].as_array() else {
        return;
    };
    for (ply, token) in moves.iter().enumerate() {
        if ply >= SKIP_PLIES && !pos.in_check() && is_quiet(&pos, judge) {
            if let Some(score) = result_for(result, pos.side_to_move()) {
                let target = match record["values"][ply].as_f64() {
                    Some(value) => lambda * value + (1.0 - lambda) * score,
                    None => score,
                };
                part.push(&RichTerms::of(&pos).counts(), target);
            }
        }
        let Some(mv) = token.as_str().and_then(|t| pos.parse_move(t).ok()) else {
            return;
        };
        pos.make(mv);
    }
}
