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
//!
//! With `--records`, each file is instead a records file of
//! `chex match --out` (gzip when its name ends in `.gz`), such as the
//! shards of the self-play corpus, `data/selfplay/`: every eligible
//! position of every finished game is a sample
//! ([`chex::referee::GameRecord::sample_positions`]), and the games are
//! numbered afresh in the order read, since each shard numbers its own
//! from 1.

use chex::referee::{DataSet, GameRecord, PositionSample};
use flate2::read::MultiGzDecoder;
use std::io::{BufRead, BufReader, Read, Write};
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
    let mut records = false;
    for option in &options {
        if option == "--records" {
            records = true;
            continue;
        }
        let k = option
            .strip_prefix("--valid-every=")
            .ok_or_else(|| format!("unknown option {option}"))?;
        valid_every = k.parse().map_err(|_| format!("{option}: not a number"))?;
    }
    let [out, files @ ..] = &args[..] else {
        return Err("usage: dataset [--valid-every=K] [--records] OUT FILES...".to_string());
    };
    let mut samples = Vec::new();
    let mut games = 0;
    for file in files {
        for (i, line) in lines_of(file)?.enumerate() {
            let line = line.map_err(|e| format!("{file}: {e}"))?;
            let at = |e| format!("{file} line {}: {e}", i + 1);
            if !records {
                samples.push(PositionSample::from_json_line(&line).map_err(at)?);
                continue;
            }
            games += 1;
            let record = GameRecord::from_json_line(&line).map_err(at)?;
            for mut sample in record.sample_positions(0).map_err(at)? {
                sample.game = games;
                samples.push(sample);
            }
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
    if records {
        println!("{games} games read");
    }
    println!(
        "{read} samples read: {} to train on, {} to validate on, {} repeats left out",
        set.training.len(),
        set.validation.len(),
        set.repeats
    );
    Ok(())
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
