//! Turns position samples into the learned evaluation's inputs
//! (docs/net.md), so the trainer reads the engine's own encoding rather
//! than a copy of it.
//!
//! `cargo run --release --example featurize -- IN.jsonl OUT.jsonl` reads
//! the samples `chex match --positions` (or the `dataset` example) wrote
//! and writes one line each:
//! `{"stm":[...],"nstm":[...],"result":R,"value":V,"hand":C,"rich":D}`,
//! the active inputs of the side to move's perspective and of the
//! other's, the game's result for the side to move (1, 0.5 or 0), the
//! search's value for it (null where the sample has none), and the
//! hand-made and rich evaluations' centipawns for it: what a correcting
//! net adds to.
//!
//! `featurize --spec [OUT.json]` prints (or writes) instead the net's
//! contract with the trainer as one JSON object ([`Spec`]): the input
//! count and layout, the scales and the file's magics and header, taken
//! from the engine's constants. `tools/net/train.py --spec` reads it.

use chex::referee::PositionSample;
use chex::rules::{Colour, Position};
use chex::search::alphabeta::LeafJudge;
use chex::search::eval::net::{inputs, Spec};
use chex::search::eval::rich::Rich;
use chex::search::eval::{Evaluator, HandMade};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::process::ExitCode;

/// One line of the output.
#[derive(Serialize)]
struct Features {
    stm: Vec<u16>,
    nstm: Vec<u16>,
    result: f64,
    value: Option<f64>,
    hand: i32,
    rich: i32,
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("featurize: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--spec") {
        return spec(&args[1..]);
    }
    let quiet_only = args.first().is_some_and(|a| a == "--quiet");
    if quiet_only {
        args.remove(0);
    }
    let [input, output] = &args[..] else {
        return Err(
            "usage: featurize [--quiet] IN.jsonl OUT.jsonl, or featurize --spec [OUT.json]"
                .to_string(),
        );
    };
    let reader = std::fs::File::open(input).map_err(|e| format!("{input}: {e}"))?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(output).map_err(|e| format!("{output}: {e}"))?,
    );
    let (mut written, mut noisy) = (0, 0);
    for (i, line) in std::io::BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|e| format!("{input}: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let Some(features) =
            featurize(&line, quiet_only).map_err(|e| format!("{input} line {}: {e}", i + 1))?
        else {
            noisy += 1;
            continue;
        };
        let json = serde_json::to_string(&features).map_err(|e| format!("{output}: {e}"))?;
        writeln!(out, "{json}").map_err(|e| format!("{output}: {e}"))?;
        written += 1;
    }
    out.flush().map_err(|e| format!("{output}: {e}"))?;
    eprintln!("featurize: {written} positions written to {output}, {noisy} not quiet left out");
    Ok(())
}

/// Prints the net's contract as JSON, or writes it to the one file named.
fn spec(args: &[String]) -> Result<(), String> {
    let json = serde_json::to_string_pretty(&Spec::engine()).map_err(|e| e.to_string())? + "\n";
    match args {
        [] => std::io::stdout()
            .write_all(json.as_bytes())
            .map_err(|e| format!("stdout: {e}")),
        [out] => std::fs::write(out, json).map_err(|e| format!("{out}: {e}")),
        _ => Err("usage: featurize --spec [OUT.json]".to_string()),
    }
}

/// The features of one sample line; `None` when `quiet_only` and the
/// position is not quiet.
fn featurize(line: &str, quiet_only: bool) -> Result<Option<Features>, String> {
    let sample = PositionSample::from_json_line(line).map_err(|e| e.to_string())?;
    let pos: Position = sample
        .position
        .parse()
        .map_err(|e| format!("position {:?}: {e}", sample.position))?;
    let white = match sample.result.as_str() {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        other => return Err(format!("result {other:?} is not 1-0, 0-1 or 1/2-1/2")),
    };
    let us = pos.side_to_move();
    let result = match us {
        Colour::White => white,
        Colour::Black => 1.0 - white,
    };
    if let Some(v) = sample.value {
        if !(0.0..=1.0).contains(&v) {
            return Err(format!("value {v} is not between 0 and 1"));
        }
    }
    if quiet_only && !is_quiet(&pos) {
        return Ok(None);
    }
    Ok(Some(Features {
        stm: inputs::active(&pos, us).to_vec(),
        nstm: inputs::active(&pos, us.opposite()).to_vec(),
        result,
        value: sample.value,
        hand: HandMade.centipawns(&pos),
        rich: Rich.centipawns(&pos),
    }))
}

/// Not in check, and no capture changes the hand-made evaluation: the
/// search resolves what a noisy position's value anticipates with its
/// quiescence, so a net taught that value would count it twice.
fn is_quiet(pos: &Position) -> bool {
    !pos.in_check() && LeafJudge::new(0).judge(pos, None) == HandMade.score(pos, 0)
}
