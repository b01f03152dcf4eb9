//! Fits the evaluation's weights to game results (Texel's method): a
//! logistic regression of each game's result, for the side to move, on
//! the terms (`chex::search::eval::terms`) of the positions of the game.
//!
//! `cargo run --release --example fit_eval -- FILE...` reads the game
//! records `chex match --out` writes (every position of every game) or
//! the position samples `chex match --positions` writes (a few positions
//! a game, so that many more games fit in memory), in any mix, and prints
//! the fitted weights, in centipawns, as the `(term, weight)` pairs of
//! `eval::weights::FITTED`. Only quiet positions are fitted: those where
//! the quiescence search agrees with the static evaluation.
//!
//! `--without=I,J` fits with features I and J (their indices in
//! `Term::ALL`) held at zero, so that the log loss of a feature set
//! with and without them can be compared on the same positions.
//! `--only=I,J` fits features I and J alone, the others held at the
//! weights in use: how a new feature is weighed against the evaluation
//! as it stands.

use chex::referee::{PositionSample, SKIP_PLIES};
use chex::rules::Position;
use chex::search::alphabeta::LeafJudge;
use chex::search::eval::terms::{Term, Terms};
use chex::search::eval::weights::FITTED;
use chex::search::eval::{Evaluator, HandMade};
use chex::search::score::{logistic, LOGISTIC_SCALE};
use std::io::BufRead;

/// How many features (terms) are fitted.
const FEATURES: usize = Term::COUNT;

fn main() {
    let mut samples: Vec<([f64; FEATURES], f64)> = Vec::new();
    let (options, files): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let (mut without, mut only) = (Vec::new(), Vec::new());
    for option in &options {
        let (list, indices) = if let Some(list) = option.strip_prefix("--without=") {
            (list, &mut without)
        } else if let Some(list) = option.strip_prefix("--only=") {
            (list, &mut only)
        } else {
            eprintln!("fit_eval: unknown option {option}");
            std::process::exit(2);
        };
        let parsed = list
            .split(',')
            .map(|i| i.parse::<usize>().ok().filter(|&i| i < FEATURES))
            .collect::<Option<Vec<usize>>>();
        match parsed {
            Some(parsed) => indices.extend(parsed),
            None => {
                eprintln!("fit_eval: not a list of feature indices: {option}");
                std::process::exit(2);
            }
        }
    }
    if files.is_empty() {
        eprintln!(
            "usage: fit_eval [--without=I,J...] [--only=I,J...] RECORDS.jsonl|POSITIONS.jsonl..."
        );
        std::process::exit(2);
    }
    let mut judge = LeafJudge::new(0);
    for file in &files {
        let reader = match std::fs::File::open(file) {
            Ok(f) => std::io::BufReader::new(f),
            Err(e) => {
                eprintln!("fit_eval: cannot read {file}: {e}");
                std::process::exit(2);
            }
        };
        for line in reader.lines().map_while(Result::ok) {
            let Ok(record) = serde_json::from_str::<serde_json::Value>(&line) else {
                continue;
            };
            if record.get("position").is_some() {
                add_sample(&line, &mut judge, &mut samples);
            } else {
                add_game(&record, &mut judge, &mut samples);
            }
        }
    }
    eprintln!("{} positions from {} files", samples.len(), files.len());
    for (x, _) in &mut samples {
        for &i in &without {
            x[i] = 0.0;
        }
    }
    let weights = fit(&samples, &only);
    for (term, w) in Term::ALL.iter().zip(&weights) {
        println!("{:>32}: {w:8.1}", term.name());
    }
    for (term, w) in Term::ALL.iter().zip(&weights) {
        println!("    (Term::{term:?}, {}),", w.round() as i64);
    }
}

/// Adds one position sample with its game's result for its side to
/// move; the sampler has already left out early positions and checks.
fn add_sample(line: &str, judge: &mut LeafJudge, samples: &mut Vec<([f64; FEATURES], f64)>) {
    let Ok(sample) = PositionSample::from_json_line(line) else {
        return;
    };
    let white_score = match sample.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        _ => return,
    };
    let Ok(pos) = sample.position.parse::<Position>() else {
        return;
    };
    let score = match pos.side_to_move() {
        chex::rules::Colour::White => white_score,
        chex::rules::Colour::Black => 1.0 - white_score,
    };
    if is_quiet(&pos, judge) {
        samples.push((Terms::of(&pos).counts().map(f64::from), score));
    }
}

/// Whether no capture changes the position's value: the quiescence
/// search agrees with the static evaluation. A position with a tile en
/// prise is judged by the material it is about to lose, not the material
/// it shows (Texel's method fits quiet positions).
fn is_quiet(pos: &Position, judge: &mut LeafJudge) -> bool {
    judge.judge(pos, None) == HandMade.score(pos, 0)
}

/// Adds the positions of one game record, each with the game's result
/// for its side to move.
fn add_game(
    record: &serde_json::Value,
    judge: &mut LeafJudge,
    samples: &mut Vec<([f64; FEATURES], f64)>,
) {
    let white_score = match record["result"].as_str() {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => return,
    };
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
            let f = Terms::of(&pos).counts().map(f64::from);
            let score = match pos.side_to_move() {
                chex::rules::Colour::White => white_score,
                chex::rules::Colour::Black => 1.0 - white_score,
            };
            samples.push((f, score));
        }
        let Some(mv) = token.as_str().and_then(|t| pos.parse_move(t).ok()) else {
            return;
        };
        pos.make(mv);
    }
}

/// Gradient descent with Adam on the mean log loss, from the weights in
/// use; a faint L2 penalty keeps features never seen near zero. When
/// `only` names features, the others keep their weights.
fn fit(samples: &[([f64; FEATURES], f64)], only: &[usize]) -> [f64; FEATURES] {
    let mut w = FITTED.values().map(f64::from);
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (rate, b1, b2, l2) = (1.0, 0.9, 0.999, 1e-9);
    let n = samples.len().max(1) as f64;
    for step in 1..=4000 {
        let mut grad = [0.0; FEATURES];
        let mut loss = 0.0;
        for (x, y) in samples {
            let z: f64 = x.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>() / LOGISTIC_SCALE;
            let p = logistic(z);
            loss -= y * p.max(1e-12).ln() + (1.0 - y) * (1.0 - p).max(1e-12).ln();
            for i in 0..FEATURES {
                grad[i] += (p - y) * x[i] / LOGISTIC_SCALE;
            }
        }
        for i in 0..FEATURES {
            if !only.is_empty() && !only.contains(&i) {
                continue;
            }
            let g = grad[i] / n + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
        if step % 500 == 0 {
            eprintln!("step {step}: mean log loss {:.5}", loss / n);
        }
    }
    w
}
