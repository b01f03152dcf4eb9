//! Turns the position samples of self-play into a data set for training
//! an evaluation: split by game into training and validation, each
//! position once ([`chex::referee::DataSet`]).
//!
//! `cargo run --release --example dataset -- OUT SAMPLES...` reads the
//! samples `chex match --positions` wrote (one JSON line each, with the
//! game's result and the search's value) and writes `OUT.train.jsonl`
//! and `OUT.valid.jsonl`. `--valid-every=K` (default 10) sends every
//! K-th game to validation. Game numbers identify games, so samples of
//! several matches are read as one only when their game numbers differ.

use chex::referee::{DataSet, PositionSample};
use std::io::{BufRead, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dataset: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let (options, args): (Vec<String>, Vec<String>) =
        std::env::args().skip(1).partition(|a| a.starts_with("--"));
    let mut valid_every = 10;
    for option in &options {
        let k = option
            .strip_prefix("--valid-every=")
            .ok_or_else(|| format!("unknown option {option}"))?;
        valid_every = k.parse().map_err(|_| format!("{option}: not a number"))?;
    }
    let [out, files @ ..] = &args[..] else {
        return Err("usage: dataset [--valid-every=K] OUT SAMPLES...".to_string());
    };
    let mut samples = Vec::new();
    for file in files {
        let reader = std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?;
        for (i, line) in std::io::BufReader::new(reader).lines().enumerate() {
            let line = line.map_err(|e| format!("{file}: {e}"))?;
            let sample = PositionSample::from_json_line(&line)
                .map_err(|e| format!("{file} line {}: {e}", i + 1))?;
            samples.push(sample);
        }
    }
    let read = samples.len();
    let set = DataSet::split(samples, valid_every)?;
    for (name, part) in [("train", &set.training), ("valid", &set.validation)] {
        let path = format!("{out}.{name}.jsonl");
        let mut file = std::io::BufWriter::new(
            std::fs::File::create(&path).map_err(|e| format!("{path}: {e}"))?,
        );
        for sample in part {
            writeln!(file, "{}", sample.to_json_line()).map_err(|e| format!("{path}: {e}"))?;
        }
        file.flush().map_err(|e| format!("{path}: {e}"))?;
    }
    println!(
        "{read} samples read: {} to train on, {} to validate on, {} repeats left out",
        set.training.len(),
        set.validation.len(),
        set.repeats
    );
    Ok(())
}
