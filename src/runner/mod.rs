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

pub mod engine;
pub mod game;
pub mod records;
pub mod stats;

use crate::referee::{Deal, GameRecord, PositionSample, Referee, Side};
use crate::rules::Position;
use clap::Args;
use engine::{EngineProcess, EngineSpec};
use game::{play_game, Judging, Limit};
use records::{Counter, Tail};
use stats::{show_elo, Sprt, Tally, Verdict};
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, Sender};

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

/// A checked match configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine 1 and engine 2.
    pub engines: [EngineSpec; 2],
    /// The start position.
    pub start: Position,
    /// The start as records write it.
    pub start_text: String,
    /// Time control.
    pub limit: Limit,
    /// Tolerances.
    pub judging: Judging,
    /// Games in the whole match.
    pub games: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The match seed.
    pub seed: u64,
    /// Play only this pair.
    pub pair: Option<u64>,
    /// The JSON lines record file.
    pub out: Option<PathBuf>,
    /// Continue the match in `out`.
    pub resume: bool,
    /// The text record file.
    pub text: Option<PathBuf>,
    /// The position sample file.
    pub positions: Option<PathBuf>,
    /// Positions sampled per game (0: all).
    pub sample: usize,
    /// The SPRT, if asked for.
    pub sprt: Option<Sprt>,
}

/// Reads `Name=Value` (an `option.` prefix is allowed).
fn parse_option(text: &str) -> Result<(String, String), String> {
    let body = text.strip_prefix("option.").unwrap_or(text);
    match body.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("bad engine option '{text}': expected Name=Value")),
    }
}

/// Reads `base+inc` in seconds (`10+0.1`, `60`) into milliseconds.
fn parse_tc(text: &str) -> Result<Limit, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| -> Result<u64, String> {
        match part.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
            _ => Err(format!(
                "bad --tc '{text}': expected base+increment in seconds, e.g. 10+0.1"
            )),
        }
    };
    let base_ms = seconds(base)?;
    if base_ms == 0 {
        return Err(format!("bad --tc '{text}': the base time must be positive"));
    }
    Ok(Limit::Clock {
        base_ms,
        inc_ms: seconds(inc)?,
    })
}

/// The p-th output of SplitMix64 started at `seed`: the deal seed of
/// pair `p`. Neighbouring match seeds give unrelated deals.
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    let mut z = seed.wrapping_add((pair + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A default name: the program's file name, then its options.
fn default_name(command: &str, options: &[(String, String)]) -> String {
    let program = command.split_whitespace().next().unwrap_or("engine");
    let mut name = program.rsplit('/').next().unwrap_or(program).to_string();
    if !options.is_empty() {
        let shown: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        name.push_str(&format!(" [{}]", shown.join(",")));
    }
    name
}

impl MatchArgs {
    /// Checks the command line and fills in defaults.
    pub fn config(self) -> Result<Config, String> {
        let this = std::env::current_exe()
            .map_err(|e| format!("cannot find this binary: {e}"))?
            .to_string_lossy()
            .into_owned();
        let quote = |path: &str| format!("'{}'", path.replace('\'', r"'\''"));
        let mut specs = Vec::new();
        for (command, options, name) in [
            (self.engine1, self.option1, self.name1),
            (self.engine2, self.option2, self.name2),
        ] {
            let command = command.unwrap_or_else(|| quote(&this));
            if command.trim().is_empty() {
                return Err("an engine command is empty".into());
            }
            let options = options
                .iter()
                .map(|o| parse_option(o))
                .collect::<Result<Vec<_>, _>>()?;
            let name = name.unwrap_or_else(|| {
                let bare = command.trim_matches('\'');
                default_name(bare, &options)
            });
            specs.push(EngineSpec {
                name,
                command,
                options,
            });
        }
        if specs[0].name == specs[1].name {
            specs[0].name.push_str(" #1");
            specs[1].name.push_str(" #2");
        }
        let limit = match (&self.tc, self.movetime, self.nodes) {
            (Some(tc), _, _) => parse_tc(tc)?,
            (_, Some(0), _) => return Err("--movetime must be at least 1".into()),
            (_, Some(ms), _) => Limit::MoveTime(ms),
            (_, _, Some(0)) => return Err("--nodes must be at least 1".into()),
            (_, _, Some(n)) => Limit::Nodes(n),
            _ => {
                return Err(
                    "choose a time control: --tc BASE+INC, --movetime MS or --nodes N".into(),
                )
            }
        };
        let sprt = if self.sprt {
            Some(Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)?)
        } else {
            None
        };
        let games = match (self.games, self.pairs) {
            (Some(g), _) => g,
            (None, Some(p)) => p.saturating_mul(2),
            (None, None) if sprt.is_some() => 20_000,
            (None, None) => 100,
        };
        if games == 0 {
            return Err("nothing to play: --games/--pairs must be at least 1".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if let Some(pair) = self.pair {
            if pair >= games.div_ceil(2) {
                return Err(format!(
                    "--pair {pair} is outside this match's {} pairs (they count from 0)",
                    games.div_ceil(2)
                ));
            }
        }
        let (start, start_text) = if self.start == "startpos" {
            (Position::startpos(), "startpos".to_string())
        } else {
            let p: Position = self
                .start
                .parse()
                .map_err(|e| format!("bad --start: {e}"))?;
            let text = p.to_string();
            (p, text)
        };
        if let Some(end) = start.ending() {
            return Err(format!("bad --start: the game is already over ({end})"));
        }
        Ok(Config {
            engines: [specs[0].clone(), specs[1].clone()],
            start,
            start_text,
            limit,
            judging: Judging {
                margin_ms: self.timemargin,
                silence_ms: self.silence.max(1),
            },
            games,
            concurrency: self.concurrency,
            seed: self.seed,
            pair: self.pair,
            out: self.out,
            resume: self.resume,
            text: self.text,
            positions: self.positions,
            sample: self.sample,
            sprt,
        })
    }
}

impl Config {
    /// Whether engine 1 plays White in game `game` (from 1): the first
    /// game of each pair.
    pub fn engine1_white(game: u64) -> bool {
        (game - 1).is_multiple_of(2)
    }

    /// The pair of game `game` (from 1), from 0.
    pub fn pair_of(game: u64) -> u64 {
        (game - 1) / 2
    }

    /// How a side appears in records.
    fn side(&self, engine: usize) -> Side {
        let spec = &self.engines[engine];
        Side {
            name: spec.name.clone(),
            command: spec.command.clone(),
            options: spec.options.iter().cloned().collect(),
        }
    }

    /// White's and Black's record sides in game `game`.
    fn sides(&self, game: u64) -> [Side; 2] {
        if Config::engine1_white(game) {
            [self.side(0), self.side(1)]
        } else {
            [self.side(1), self.side(0)]
        }
    }

    /// Checks that a record from the --out file belongs to this match.
    fn check_record(&self, record: &GameRecord) -> Result<(), String> {
        let g = record.game;
        if g == 0 || g > self.games {
            return Err(format!(
                "game {g} is outside this match's {} games",
                self.games
            ));
        }
        let seed = pair_seed(self.seed, Config::pair_of(g));
        let [white, black] = self.sides(g);
        let differs = if record.seed != Some(seed) {
            Some("the seed (--seed)")
        } else if record.start != self.start_text {
            Some("the start (--start)")
        } else if record.tc != self.limit.describe() {
            Some("the time control")
        } else if record.white != white || record.black != black {
            Some("the engines, their names or options")
        } else {
            None
        };
        match differs {
            Some(what) => Err(format!(
                "game {g} was played with different settings: {what}"
            )),
            None => Ok(()),
        }
    }

    /// Engine 1's score in a finished record.
    fn engine1_score(record: &GameRecord) -> Result<f64, String> {
        let white = record
            .white_score()
            .ok_or_else(|| format!("game {} has no result", record.game))?;
        Ok(if Config::engine1_white(record.game) {
            white
        } else {
            1.0 - white
        })
    }

    /// A title line for the match.
    fn title(&self) -> String {
        format!(
            "{} vs {}, {}, seed {}",
            self.engines[0].name,
            self.engines[1].name,
            self.limit.describe(),
            self.seed
        )
    }
}

/// Reads the records of an interrupted match, refusing anything that is
/// not a record of it. A last line without its newline was being written
/// when the match stopped: a whole record there gets its newline back, a
/// torn one is cut off the file (its game is played again), each with a
/// warning on stderr; every line before it must be a record.
fn read_records(config: &Config, path: &Path) -> Result<Counter, String> {
    let mut counter = Counter::of(config);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(counter),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let (records, tail) = records::parse_lines(path, &bytes)?;
    for (at, record) in &records {
        counter.add(at, record)?;
    }
    let repair = || OpenOptions::new().append(true).open(path);
    match tail {
        Tail::Clean => {}
        Tail::Whole(at, record) => {
            counter.add(&at, &record)?;
            repair()
                .and_then(|mut f| f.write_all(b"\n"))
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            eprintln!("warning: {at}: the last record had no newline; added it");
        }
        Tail::Torn { at, keep, len } => {
            repair()
                .and_then(|f| f.set_len(keep))
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            eprintln!(
                "warning: {at}: dropped an unfinished last line ({len} bytes); its game is played again"
            );
        }
    }
    Ok(counter)
}

/// Keeps in a position sample file only the samples of `games`: a match
/// writes a game's samples before its record, so after an interruption
/// the samples of a game without a record are dropped (the game is
/// played again) and no game's samples are written twice.
fn keep_samples(path: &Path, games: &BTreeSet<u64>) -> Result<(), String> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut kept = String::new();
    let mut dropped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match PositionSample::from_json_line(line) {
            Ok(sample) if games.contains(&sample.game) => {
                kept.push_str(line);
                kept.push('\n');
            }
            _ => dropped += 1,
        }
    }
    if dropped > 0 {
        let fresh = path.with_extension("resume-tmp");
        std::fs::write(&fresh, kept)
            .and_then(|()| std::fs::rename(&fresh, path))
            .map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
        eprintln!(
            "warning: {}: dropped {dropped} samples of games not recorded; they are sampled again",
            path.display()
        );
    }
    Ok(())
}

/// Plays the game numbers the main thread hands out on `jobs`, one at a
/// time, with this worker's own two engines, sending each record (or a
/// fatal error) to the main thread tagged with `id`; stops when `jobs`
/// is closed. The main thread hands out the next game only after it has
/// counted this worker's last one, so a match the SPRT has decided starts
/// no new game however the threads are scheduled.
fn worker(
    config: &Config,
    id: usize,
    jobs: Receiver<u64>,
    tx: Sender<(usize, Result<GameRecord, String>)>,
) {
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    for game in jobs {
        for (slot, spec) in engines.iter_mut().zip(&config.engines) {
            if slot.is_none() {
                match EngineProcess::start(spec) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => {
                        let _ = tx.send((id, Err(e)));
                        return;
                    }
                }
            }
        }
        let [Some(one), Some(two)] = &mut engines else {
            return;
        };
        let seed = pair_seed(config.seed, Config::pair_of(game));
        let deal = Deal::from_seed(&config.start, seed);
        let referee = match Referee::new(config.start.clone(), deal) {
            Ok(r) => r,
            Err(e) => {
                let _ = tx.send((id, Err(format!("cannot deal game {game}: {e}"))));
                return;
            }
        };
        let white_is_one = Config::engine1_white(game);
        let by_colour = if white_is_one { [one, two] } else { [two, one] };
        let outcome = play_game(
            referee,
            by_colour,
            config.sides(game),
            config.limit,
            config.judging,
        );
        let mut record = outcome.record;
        record.game = game;
        record.seed = Some(seed);
        // Colour index → engine index.
        let engine_of = |colour: usize| if white_is_one { colour } else { 1 - colour };
        for (colour, restart) in outcome.restart.into_iter().enumerate() {
            if restart {
                engines[engine_of(colour)] = None;
            }
        }
        if tx.send((id, Ok(record))).is_err() {
            return;
        }
    }
}

/// What a match came to.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The counts.
    pub tally: Tally,
    /// The SPRT's last verdict and LLR, when one ran.
    pub sprt: Option<(Verdict, f64)>,
}

/// Where records are written as games finish.
struct Sinks {
    out: Option<File>,
    text: Option<File>,
    positions: Option<File>,
}

impl Sinks {
    /// Opens the files of a new match, refusing to write over records or
    /// samples, or those of a resumed one, whose games are `done`.
    fn open(config: &Config, done: &BTreeSet<u64>) -> Result<Sinks, String> {
        let open = |path: &PathBuf| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        let fresh = |path: &PathBuf, what: &str| {
            let used = std::fs::metadata(path)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
            if used && !config.resume {
                return Err(format!(
                    "{} already holds {what}: add --resume to continue that match, or choose another file",
                    path.display()
                ));
            }
            open(path)
        };
        let out = match &config.out {
            Some(path) => Some(fresh(path, "records")?),
            None => None,
        };
        let positions = match &config.positions {
            Some(path) => {
                if config.resume {
                    keep_samples(path, done)?;
                }
                Some(fresh(path, "position samples")?)
            }
            None => None,
        };
        // A new match starts a new text file; a resumed one adds to it.
        let text = match &config.text {
            Some(path) if !config.resume => Some(
                File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            Some(path) => Some(open(path)?),
            None => None,
        };
        Ok(Sinks {
            out,
            text,
            positions,
        })
    }

    /// Writes each record with its newline in one write and syncs it, so
    /// that an interrupted match leaves at most its last line torn, which
    /// `--resume` repairs.
    fn write(&mut self, config: &Config, record: &GameRecord) -> Result<(), String> {
        let put = |file: &mut File, path: &PathBuf, text: String| {
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        // Samples first: a game whose record is written has its samples,
        // and --resume drops the samples of a game without a record.
        if let (Some(file), Some(path)) = (&mut self.positions, &config.positions) {
            let samples = record
                .sample_positions(config.sample)
                .map_err(|e| format!("cannot sample game {}: {e}", record.game))?;
            let lines: String = samples
                .iter()
                .map(|s| format!("{}\n", s.to_json_line()))
                .collect();
            put(file, path, lines)?;
        }
        if let (Some(file), Some(path)) = (&mut self.out, &config.out) {
            put(file, path, format!("{}\n", record.to_json_line()))?;
        }
        if let (Some(file), Some(path)) = (&mut self.text, &config.text) {
            put(file, path, format!("{}\n", record.to_text()))?;
        }
        Ok(())
    }
}

/// The live progress line.
fn progress(config: &Config, tally: &Tally, record: &GameRecord) -> String {
    let elo = match tally.elo() {
        Some(e) => format!("Elo {} ± {:.1}", show_elo(e.elo), e.error()),
        None => String::new(),
    };
    format!(
        "[{}/{}] {} vs {}: +{} ={} -{}  score {:.1}%  {elo}  (game {}: {} {})",
        tally.games(),
        config.games,
        config.engines[0].name,
        config.engines[1].name,
        tally.wdl[0],
        tally.wdl[1],
        tally.wdl[2],
        100.0 * tally.score().unwrap_or(0.0),
        record.game,
        record.result,
        record.ending,
    )
}

/// Shows a progress line: over the last one on a terminal, else as a
/// line of its own (a log keeps every line).
fn show_progress(terminal: bool, line: &str) {
    if terminal {
        eprint!("\r\x1b[K{line}");
    } else {
        eprintln!("{line}");
    }
}

/// The final table.
pub fn table(config: &Config, summary: &Summary) -> String {
    let t = &summary.tally;
    let mut out = String::new();
    let mut row = |label: &str, value: String| out.push_str(&format!("{label:<10} {value}\n"));
    row("Match", config.title());
    row("Engine 1", config.engines[0].name.clone());
    row("Engine 2", config.engines[1].name.clone());
    row(
        "Games",
        format!(
            "{} of {} ({} complete pairs)",
            t.games(),
            config.games,
            t.pairs()
        ),
    );
    row(
        "W/D/L",
        format!(
            "{} / {} / {}  (engine 1's wins, draws, losses)",
            t.wdl[0], t.wdl[1], t.wdl[2]
        ),
    );
    row(
        "Score",
        format!(
            "{}/{} = {:.1}%",
            t.points(),
            t.games(),
            100.0 * t.score().unwrap_or(0.0)
        ),
    );
    if let Some(e) = t.elo() {
        row(
            "Elo",
            format!(
                "{} ± {:.1}  (95%: {} .. {})",
                show_elo(e.elo),
                e.error(),
                show_elo(e.low),
                show_elo(e.high)
            ),
        );
    }
    row(
        "Draws",
        format!("{:.1}%", 100.0 * t.draw_ratio().unwrap_or(0.0)),
    );
    row(
        "Pairs",
        format!(
            "0: {}  ½: {}  1: {}  1½: {}  2: {}  (engine 1's points per pair)",
            t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]
        ),
    );
    let endings: Vec<String> = t.endings.iter().map(|(k, n)| format!("{k} {n}")).collect();
    row("Endings", endings.join(", "));
    if let (Some(sprt), Some((verdict, llr))) = (config.sprt, summary.sprt) {
        let (lower, upper) = sprt.bounds();
        let said = match verdict {
            Verdict::H1 => "H1 accepted: engine 1 is stronger",
            Verdict::H0 => "H0 accepted: engine 1 is not stronger",
            Verdict::Continue => "undecided",
        };
        row(
            "SPRT",
            format!(
                "elo0 {} elo1 {} alpha {} beta {}: LLR {llr:.2} [{lower:.2}, {upper:.2}] {said}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            ),
        );
    }
    out
}

/// Runs the match: resumes from --out if asked, plays the games left on
/// `concurrency` threads, writes records and the progress line, and
/// stops early when the SPRT decides.
pub fn run(config: &Config) -> Result<Summary, String> {
    let mut tally = Tally::default();
    let mut done = BTreeSet::new();
    if config.resume {
        if let Some(path) = &config.out {
            let counter = read_records(config, path)?;
            done = counter.games().clone();
            tally = counter.tally;
        }
    }
    let mut sinks = Sinks::open(config, &done)?;
    let verdict = |tally: &Tally| config.sprt.map(|s| (s.verdict(tally), s.llr(tally)));
    let decided = |v: Option<(Verdict, f64)>| matches!(v, Some((Verdict::H0 | Verdict::H1, _)));
    if decided(verdict(&tally)) {
        return Ok(Summary {
            sprt: verdict(&tally),
            tally,
        });
    }
    let playing = |g: &u64| config.pair.is_none_or(|p| Config::pair_of(*g) == p);
    let mut todo = (1..=config.games).filter(|g| !done.contains(g) && playing(g));
    let terminal = std::io::stderr().is_terminal();
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        // Per worker, the sender of its next game; `None` once it has been
        // told to stop (or has stopped). Games are handed out here, after
        // the records before them are counted, never taken by the workers
        // themselves: a worker that took its next game while this thread
        // had not yet counted its last one could play on, unseen, past the
        // SPRT's decision (under load, to the end of the match).
        let mut jobs: Vec<Option<Sender<u64>>> = Vec::new();
        for id in 0..config.concurrency {
            let Some(game) = todo.next() else { break };
            let (job_tx, job_rx) = channel();
            // The worker's receiver is alive: this cannot fail.
            let _ = job_tx.send(game);
            jobs.push(Some(job_tx));
            let tx = tx.clone();
            scope.spawn(move || worker(config, id, job_rx, tx));
        }
        drop(tx);
        let mut stopped = false;
        for (id, message) in rx {
            let handled = message.and_then(|record| {
                sinks.write(config, &record)?;
                let score = Config::engine1_score(&record)?;
                tally.add(Config::pair_of(record.game), score, &record.ending);
                show_progress(terminal, &progress(config, &tally, &record));
                Ok(())
            });
            if let Err(e) = handled {
                failure.get_or_insert(e);
                stopped = true;
            }
            if decided(verdict(&tally)) {
                stopped = true;
            }
            // This worker is idle now: its next game, or the end. Games
            // other workers are playing are finished and counted.
            let next = if stopped { None } else { todo.next() };
            let sent = match (&jobs[id], next) {
                (Some(job_tx), Some(game)) => job_tx.send(game).is_ok(),
                _ => false,
            };
            if !sent {
                jobs[id] = None;
            }
        }
    });
    if terminal && tally.games() > done.len() as u64 {
        eprintln!();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(Summary {
        sprt: verdict(&tally),
        tally,
    })
}

/// `chex match --stats FILE [--follow]`: the table of the records in
/// FILE, and under --follow of those that come on stdin after them.
fn stats(args: &MatchArgs, path: &Path) -> Result<(), String> {
    let given = [
        (args.engine1.is_some(), "--engine1"),
        (args.engine2.is_some(), "--engine2"),
        (!args.option1.is_empty(), "--option1"),
        (!args.option2.is_empty(), "--option2"),
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

/// `chex match`: runs the match and prints the table (or, with
/// `--stats`, only the table of a records file); a bad setting or an
/// engine that cannot be started is one line on stderr and a failure
/// exit.
pub fn main(args: MatchArgs) -> ExitCode {
    if let Some(path) = args.stats.clone() {
        return match stats(&args, &path) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_time_controls_parse_or_say_why() {
        assert_eq!(
            parse_option("option.Threads=2"),
            Ok(("Threads".into(), "2".into()))
        );
        assert_eq!(
            parse_option("Player=random"),
            Ok(("Player".into(), "random".into()))
        );
        assert!(parse_option("Threads").is_err());
        assert!(parse_option("=2").is_err());
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("60"),
            Ok(Limit::Clock {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        for bad in ["", "x+1", "10+y", "-5+1", "0+1", "inf"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_tc("2.5+0.05").map(|l| l.describe()),
            Ok("tc 2.5+0.05".into())
        );
    }

    #[test]
    fn pairs_share_a_deal_seed_and_swap_colours() {
        assert!(Config::engine1_white(1));
        assert!(!Config::engine1_white(2));
        assert_eq!(Config::pair_of(1), Config::pair_of(2));
        assert_ne!(Config::pair_of(2), Config::pair_of(3));
        let seeds: BTreeSet<u64> = (0..100).map(|p| pair_seed(1, p)).collect();
        assert_eq!(seeds.len(), 100);
        assert_ne!(pair_seed(1, 0), pair_seed(2, 0));
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
    }

    #[test]
    fn default_names_tell_the_engines_apart() {
        assert_eq!(default_name("/a/b/chex", &[]), "chex");
        assert_eq!(
            default_name("chex --x", &[("Player".into(), "random".into())]),
            "chex [Player=random]"
        );
    }
}
