//! The engine-vs-engine match runner behind `chex match` and
//! `tools/match`.
//!
//! Two engine commands speaking protocol.md play games in pairs: both
//! games of a pair use one deal (dealt from the match seed and the pair's
//! number) with colours swapped, so neither engine profits from a lucky
//! pile. The referee (the crate's one rules core) checks every answer; an
//! engine that answers illegally, overruns its time, crashes or falls
//! silent loses that game and the match goes on (a crashed or silent
//! engine is restarted). Games run `concurrency` at a time, each worker
//! thread with its own pair of engine processes. Records go to a JSON
//! lines file as games finish, and a match can be resumed from it. One
//! pair can be played alone (`--pair`), so that a cluster can play a
//! match a pair per task (`tools/cluster-match`), and the table can be
//! made from a records file alone (`--stats`), so that the cluster's
//! driver shows the very statistics of this runner.

mod args;
mod config;
pub mod engine;
pub mod game;
mod play;
mod progress;
pub mod records;
mod resume;
mod sinks;
pub mod stats;
mod stats_command;
mod table;
mod workers;

pub use args::MatchArgs;
pub use config::{pair_seed, Config};
pub use play::{run, Summary};
pub use table::table;

use std::process::ExitCode;

/// `chex match`: runs the match and prints the table (or, with
/// `--stats`, only the table of a records file); a bad setting or an
/// engine that cannot be started is one line on stderr and a failure
/// exit.
pub fn main(args: MatchArgs) -> ExitCode {
    if let Some(path) = args.stats.clone() {
        return match stats_command::stats(&args, &path) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match args.config() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&config) {
        Ok(summary) => {
            print!("{}", table(&config, &summary));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
