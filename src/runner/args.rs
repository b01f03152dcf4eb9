//! `chex match`'s command line: the flags, their defaults and their
//! help, as clap reads them; [`MatchArgs::config`] checks them.

use clap::Args;
use std::path::PathBuf;

/// `chex match`'s command line. See tools/README.md for examples.
#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Engine 1's command (run by `sh -c`); default: this `chex` binary.
    #[arg(long, value_name = "CMD")]
    pub engine1: Option<String>,
    /// Engine 2's command; default: this `chex` binary.
    #[arg(long, value_name = "CMD")]
    pub engine2: Option<String>,
    /// Engine 1's name in tables and records; default: from its command
    /// and options.
    #[arg(long, value_name = "NAME")]
    pub name1: Option<String>,
    /// Engine 2's name.
    #[arg(long, value_name = "NAME")]
    pub name2: Option<String>,
    /// An option for engine 1, `Name=Value` (or `option.Name=Value`),
    /// sent as `setoption`; repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub option1: Vec<String>,
    /// An option for engine 2; repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    pub option2: Vec<String>,
    /// Both engines ponder: `--ponder1` and `--ponder2`.
    #[arg(long)]
    pub ponder: bool,
    /// Engine 1 ponders, as cutechess-cli's `ponder`: it is sent
    /// `setoption name Ponder value true`, and after each `bestmove X
    /// ponder Y` it searches on the opponent's time (`go ponder`), told
    /// `ponderhit` when the opponent plays Y, else `stop`.
    #[arg(long)]
    pub ponder1: bool,
    /// Engine 2 ponders.
    #[arg(long)]
    pub ponder2: bool,
    /// Clocks: base seconds per game + increment seconds per turn, e.g.
    /// `10+0.1`.
    #[arg(long, value_name = "BASE+INC", group = "limit")]
    pub tc: Option<String>,
    /// Fixed time per answer, in milliseconds.
    #[arg(long, value_name = "MS", group = "limit")]
    pub movetime: Option<u64>,
    /// Fixed playouts per answer (`go nodes N`); time is not judged.
    #[arg(long, value_name = "N", group = "limit")]
    pub nodes: Option<u64>,
    /// How many games (pairs are filled in order; odd counts leave the
    /// last pair half played). Default 100, or 20000 under --sprt.
    #[arg(long, value_name = "N", conflicts_with = "pairs")]
    pub games: Option<u64>,
    /// How many pairs of games.
    #[arg(long, value_name = "N")]
    pub pairs: Option<u64>,
    /// Games played at once, each with its own two engine processes.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub concurrency: usize,
    /// Plays only pair K (from 0) of the match: games 2K+1 and 2K+2,
    /// dealt and numbered as in the whole match, so that pairs played
    /// apart (on a cluster) make up the same match.
    #[arg(long, value_name = "K")]
    pub pair: Option<u64>,
    /// The match seed: pair p is dealt from the p-th number of SplitMix64
    /// started at this seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The start position: `startpos` or a position string.
    #[arg(
        long,
        value_name = "POSITION",
        default_value = "startpos",
        allow_hyphen_values = true
    )]
    pub start: String,
    /// How far past its time (clock or movetime) an answer may come.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub timemargin: u64,
    /// Under --nodes, how long an engine may think per answer before it
    /// is judged silent.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    pub silence: u64,
    /// Writes one JSON line per game (protocol.md, "Game records").
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Continues the match in --out: finished games are kept and skipped.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Writes each game's text record to this file (appends under
    /// --resume).
    #[arg(long, value_name = "FILE")]
    pub text: Option<PathBuf>,
    /// Writes positions sampled from each finished game, with the game's
    /// result, one JSON line each (protocol.md, "Position samples").
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Positions sampled per game for --positions; 0 takes them all.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub sample: usize,
    /// Plays nothing: prints the table of the records in FILE. The
    /// engines, time control, start and seed are read from the records;
    /// --games/--pairs and the SPRT options may be given.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// With --stats: after FILE, reads more records from stdin, one a
    /// line. Prints the SPRT's state (`continue`, `H0` or `H1`) on stdout
    /// once FILE is read and after each record (whose progress line goes
    /// to stderr); the table at the end of stdin.
    #[arg(long, requires = "stats")]
    pub follow: bool,
    /// Runs an SPRT and stops the match when it decides.
    #[arg(long)]
    pub sprt: bool,
    /// SPRT: the Elo of H0.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
    pub elo0: f64,
    /// SPRT: the Elo of H1.
    #[arg(long, default_value_t = 5.0, allow_hyphen_values = true)]
    pub elo1: f64,
    /// SPRT: the false positive rate.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT: the false negative rate.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
}
