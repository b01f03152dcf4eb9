//! The `chex` command line.

use chex::rules::{divide, Position};
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chex",
    version,
    about = "An engine for CHEX, chess played with tiles"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts move sequences: one line per root move, then the total.
    Perft {
        /// A position string (RULES.md section 7) or `startpos`. It may
        /// start with '-' (an empty table).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// How many turns deep to count.
        depth: u32,
    },
    /// Runs the fixed benchmark: perft and random playouts on one thread.
    Bench {
        /// Perft depth on each bench position.
        #[arg(long, default_value_t = chex::bench::PERFT_DEPTH)]
        depth: u32,
        /// Random playouts from each bench position.
        #[arg(long, default_value_t = chex::bench::PLAYOUTS_PER_POSITION)]
        playouts: u32,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { position, depth }) => {
            let mut pos: Position = match position.parse() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut total = 0;
            for (mv, n) in divide(&mut pos, depth) {
                println!("{mv}: {n}");
                total += n;
            }
            if depth == 0 {
                total = 1;
            }
            println!("Nodes searched: {total}");
            ExitCode::SUCCESS
        }
        Some(Command::Bench { depth, playouts }) => {
            let report = chex::bench::run(depth, playouts, |line| println!("{line}"));
            println!("perft nodes: {}", report.perft_nodes);
            println!("perft nodes/s: {}", report.perft_nps());
            println!("playouts: {}", report.playouts);
            println!("playout plies: {}", report.playout_plies);
            println!("playout plies/s: {}", report.plies_per_second());
            ExitCode::SUCCESS
        }
        None => {
            chex::protocol::Engine::new().run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
    }
}
