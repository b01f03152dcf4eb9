//! The line protocol over stdin/stdout (protocol.md): reads commands,
//! keeps the game and the options, starts searches on their own thread and
//! prints. It parses, dispatches and prints; the rules and the search do
//! the rest.
//!
//! A line that cannot be understood gets exactly one `info string error:`
//! line and changes nothing.
//!
//! [`client`] is the other end of the same lines: what the match runner
//! and the GUI need to drive an engine, kept here beside the engine side.

pub mod client;
pub mod command;
pub mod options;

use crate::rules::{
    clip, kind_name, Colour, Game, GameEnd, Kind, MoveToken, Position, MAX_COUNTER,
};
use crate::search::eval::EvaluationTrace;
use crate::search::score::expected_result;
use crate::search::{self, Action, ActionStats, Params, Proven, Report, Request};
use command::{Command, Start};
use options::Options;
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Lines longer than this are refused unread: no command needs so much.
pub const MAX_LINE: usize = 1 << 20;

/// Prints one line and flushes it, so a GUI sees it at once.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means nobody is listening: nothing left to tell.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

/// Work running on its own thread: a search, a perft or a bench.
struct Job {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// Set just before the job prints its last line: from then on a new
    /// command may start work, though the thread may not have ended yet.
    finished: Arc<AtomicBool>,
    /// What the job is, for the messages and for `quit` and end of input.
    kind: JobKind,
}

/// What a job is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum JobKind {
    /// A search that ends by its limits, or by `stop`.
    Search,
    /// A search that only `stop` ends (`go infinite`, or no limit that
    /// applies to the side to move).
    Endless,
    /// A perft or bench: runs to its end.
    Count,
}

/// The engine as the protocol sees it.
pub struct Engine {
    game: Game,
    /// The kind of a tile the side to move has drawn and must place.
    pending: Option<Kind>,
    options: Options,
    job: Option<Job>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine at the start position with default options.
    pub fn new() -> Engine {
        Engine {
            game: Game::new(Position::startpos()),
            pending: None,
            options: Options::default(),
            job: None,
        }
    }

    /// Reads commands from `input` until `quit` or its end.
    ///
    /// On `quit` a search is stopped (its `bestmove` still printed) and a
    /// perft or bench abandoned. At the end of input the engine first lets
    /// running work finish, so that a piped script gets its answers; only a
    /// search that nothing but `stop` would end is stopped.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_line(&mut input, &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(ReadError::TooLong) => {
                    error(&format!("line longer than {MAX_LINE} bytes ignored"));
                    continue;
                }
                // Input that cannot be read is input that has ended.
                Err(ReadError::Io) => break,
            }
            let Ok(text) = std::str::from_utf8(&line) else {
                error("the line is not UTF-8 text");
                continue;
            };
            if !self.handle(text) {
                // quit: stop a search and print its bestmove; abandon a count.
                if let Some(job) = self.job.take() {
                    if job.kind != JobKind::Count {
                        job.stop.store(true, Ordering::Relaxed);
                        let _ = job.handle.join();
                    }
                }
                return;
            }
        }
        // End of input: let work finish, so that a piped script gets its
        // answers; stop only what nothing else would end.
        if let Some(job) = self.job.take() {
            if job.kind == JobKind::Endless {
                job.stop.store(true, Ordering::Relaxed);
            }
            let _ = job.handle.join();
        }
    }

    /// Carries out one line; false when the engine should exit.
    pub fn handle(&mut self, line: &str) -> bool {
        let command = match command::parse(line) {
            Ok(Some(c)) => c,
            Ok(None) => return true,
            Err(e) => {
                error(&e);
                return true;
            }
        };
        if command.needs_idle() {
            if let Some(kind) = self.busy() {
                error(match kind {
                    JobKind::Search | JobKind::Endless => {
                        "a search is running: wait for its bestmove or send stop"
                    }
                    JobKind::Count => "a perft or bench is running: wait for its last line",
                });
                return true;
            }
        }
        match command {
            Command::Uci => {
                say(&format!("id name CHEX {}", env!("CARGO_PKG_VERSION")));
                say("id author the CHEX engine developers");
                for spec in options::specs() {
                    say(&spec.uci_line());
                }
                say("uciok");
            }
            Command::IsReady => say("readyok"),
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    error(&e);
                }
            }
            Command::NewGame => {
                self.game = Game::new(Position::startpos());
                self.pending = None;
            }
            Command::Position { start, moves } => match setup(&start, &moves) {
                Ok((game, pending)) => {
                    self.game = game;
                    self.pending = pending;
                }
                Err(e) => error(&e),
            },
            Command::Go(limits) => self.go(limits),
            Command::Stop => {
                if let Some(job) = &self.job {
                    job.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::Quit => return false,
            Command::Display => say(&self.display()),
            Command::Moves => {
                let mut actions: Vec<String> = match self.ending() {
                    Some(_) => Vec::new(),
                    None => search::root_actions(self.game.position(), self.pending)
                        .iter()
                        .map(Action::to_string)
                        .collect(),
                };
                actions.sort();
                say(&actions.join(" "));
            }
            Command::Eval => {
                if self.pending.is_some() {
                    error("eval judges a position before the draw; a drawn tile is pending");
                } else {
                    say(&evaluation_lines(self.game.position()));
                }
            }
            Command::Perft(depth) => {
                if self.pending.is_some() {
                    error("perft counts from a position before the draw; a drawn tile is pending");
                } else {
                    let mut pos = self.game.position().clone();
                    self.spawn(JobKind::Count, move |_| perft_lines(&mut pos, depth, say));
                }
            }
            Command::Bench => self.spawn(JobKind::Count, |_| {
                bench_lines(
                    crate::bench::PERFT_DEPTH,
                    crate::bench::PLAYOUTS_PER_POSITION,
                    crate::bench::SEARCH_NODES,
                    say,
                )
            }),
            Command::Status => say(&match self.ending() {
                None => "status ongoing".to_string(),
                Some(end) => format!("status {} {}", ending_word(end), end.score()),
            }),
        }
        true
    }

    /// What runs, unless it has printed its last line.
    fn busy(&self) -> Option<JobKind> {
        let job = self.job.as_ref()?;
        (!job.finished.load(Ordering::Acquire)).then_some(job.kind)
    }

    /// Runs `work` on its own thread with a fresh stop flag; `work`
    /// prints as it goes and returns its last line, which is printed after
    /// the job is marked finished. The previous job has printed its last
    /// line (commands that start work wait for that), so joining it is
    /// immediate.
    fn spawn(&mut self, kind: JobKind, work: impl FnOnce(&AtomicBool) -> String + Send + 'static) {
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let (stop_flag, done) = (Arc::clone(&stop), Arc::clone(&finished));
        let handle = std::thread::spawn(move || {
            let last = work(&stop_flag);
            done.store(true, Ordering::Release);
            say(&last);
        });
        self.job = Some(Job {
            handle,
            stop,
            finished,
            kind,
        });
    }

    /// How the game has ended, counting a drawn tile that cannot be placed.
    fn ending(&self) -> Option<GameEnd> {
        if let Some(end) = self.game.ending() {
            return Some(end);
        }
        self.pending
            .and_then(|kind| self.game.position().ending_after_draw(kind))
    }

    fn go(&mut self, mut limits: search::Limits) {
        limits.started = Some(std::time::Instant::now());
        if limits.depth.is_some() && self.options.params.player != search::Player::Alphabeta {
            error("go depth needs Player alphabeta: a Monte Carlo search has no depth; use nodes or movetime");
            return;
        }
        if let Some(end) = self.ending() {
            say(&format!("info string {end}"));
            say("bestmove (none)");
            return;
        }
        let pos = self.game.position().clone();
        let history = self.game.recent_keys().to_vec();
        let pending = self.pending;
        let params = self.options.params.clone();
        let show_wdl = self.options.show_wdl;
        let verbose = self.options.verbose_stats;
        let kind = if limits.is_endless(pos.side_to_move(), params.move_overhead) {
            JobKind::Endless
        } else {
            JobKind::Search
        };
        self.spawn(kind, move |stop| {
            let mut last = None;
            let mut print = |report: &Report| {
                say(&info_lines(report, params.multipv, show_wdl));
                last = Some(report.clone());
            };
            let request = Request {
                position: &pos,
                pending,
                history: &history,
                limits: &limits,
                params: &params,
            };
            let choice = search::search(&request, stop, &mut print);
            let mut out = String::new();
            if let (true, Some(report)) = (verbose, last) {
                out = move_stats_lines(&report);
            }
            match choice {
                Some(action) => out.push_str(&format!("bestmove {action}")),
                None => out.push_str("bestmove (none)"),
            }
            out
        });
    }

    fn display(&self) -> String {
        let pos = self.game.position();
        let mut out = board_picture(pos);
        let piles: Vec<String> = Colour::ALL
            .iter()
            .map(|&c| {
                let pile = pos.pile(c);
                let kinds: Vec<String> = Kind::ALL
                    .iter()
                    .filter(|&&k| pile.count(k) > 0)
                    .map(|&k| {
                        format!(
                            "{}×{}",
                            crate::rules::Piece::new(c, k).letter(),
                            pile.count(k)
                        )
                    })
                    .collect();
                format!("{c} {} ({})", pile.len(), kinds.join(" "))
            })
            .collect();
        let _ = writeln!(out, "Position: {pos}");
        let _ = writeln!(out, "Piles: {}", piles.join(", "));
        let _ = writeln!(out, "Side to move: {}", pos.side_to_move());
        if let Some(kind) = self.pending {
            let _ = writeln!(out, "Drawn tile: {} (to be placed)", kind_name(kind));
        }
        let _ = writeln!(
            out,
            "In check: {}",
            if pos.in_check() { "yes" } else { "no" }
        );
        let status = match self.ending() {
            None => "ongoing".to_string(),
            Some(end) => end.to_string(),
        };
        let _ = writeln!(out, "Status: {status}");
        let _ = write!(out, "Key: {:016x}", pos.hash());
        out
    }
}

impl Command {
    /// Commands that start work wait for the running work to end. The
    /// others act at once: a running search has its own copy of the
    /// position and options.
    fn needs_idle(&self) -> bool {
        matches!(self, Command::Go(_) | Command::Perft(_) | Command::Bench)
    }
}

/// The `eval` report: each feature's count, weight and share in
/// centipawns, their sum, and the two scores the search reads from it as
/// expected results.
fn evaluation_lines(pos: &Position) -> String {
    let trace = EvaluationTrace::of(pos);
    let side = pos.side_to_move();
    let mut out = format!("Evaluation for {side} to move: its counts less the other side's\n");
    for (term, count, weight) in trace.lines() {
        let name = term.name();
        let share = count * weight;
        let _ = writeln!(out, "{name:<50} {count:>3} × {weight:>4} = {share:>5}");
    }
    let _ = writeln!(out, "Total: {} cp", trace.centipawns);
    for colour in Colour::ALL
        .into_iter()
        .filter(|c| trace.stranded[c.index()])
    {
        let _ = writeln!(
            out,
            "Stranded king: {colour}'s, drawn now, would have no square (a draw nears)"
        );
    }
    let percent = |score: i32| 100.0 * expected_result(score);
    let _ = writeln!(out, "Static: {:.1}% for {side}", percent(trace.score));
    let _ = write!(
        out,
        "Quiescence: {:.1}% for {side}",
        percent(trace.quiescence)
    );
    out
}

/// Why a line could not be read.
#[derive(Debug)]
enum ReadError {
    /// Longer than [`MAX_LINE`]; the rest of it was skipped.
    TooLong,
    /// The input failed.
    Io,
}

/// Reads one line into `line`, without its end; refuses a line longer
/// than [`MAX_LINE`] (reading on to its end). `Ok(0)` at the end of input.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> Result<usize, ReadError> {
    let mut total = 0;
    let mut too_long = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Err(ReadError::Io),
        };
        if buf.is_empty() {
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        total += chunk.len();
        if line.len() + chunk.len() > MAX_LINE {
            too_long = true;
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = chunk.len();
        input.consume(used);
        if done {
            break;
        }
    }
    if too_long {
        return Err(ReadError::TooLong);
    }
    while matches!(line.last(), Some(b'\n' | b'\r')) {
        line.pop();
    }
    Ok(total)
}

/// Prints the divide of `pos` at `depth` (a line per root move, sorted)
/// through `emit` and returns the last line, `Nodes searched: <n>`.
pub fn perft_lines(pos: &mut Position, depth: u32, mut emit: impl FnMut(&str)) -> String {
    let mut total = 0;
    for (mv, n) in crate::rules::divide(pos, depth) {
        emit(&format!("{mv}: {n}"));
        total += n;
    }
    format!("Nodes searched: {total}")
}

/// Runs the bench, printing through `emit`, and returns the last line,
/// `playout plies/s: <n>`.
pub fn bench_lines(
    depth: u32,
    playouts: u32,
    search_nodes: u64,
    mut emit: impl FnMut(&str),
) -> String {
    let report = crate::bench::run(depth, playouts, |line| emit(&line));
    emit(&format!("perft nodes: {}", report.perft_nodes));
    emit(&format!("perft nodes/s: {}", report.perft_nps()));
    emit(&format!("playouts: {}", report.playouts));
    emit(&format!("playout plies: {}", report.playout_plies));
    if search_nodes > 0 {
        // The engine as it plays with its default options, made
        // reproducible by a fixed seed.
        let threads = options::cores();
        let params = |threads| Params {
            threads,
            seed: 0xC4E5,
            ..Options::default().params
        };
        let (n1, t1) = crate::bench::search_speed(&params(1), search_nodes);
        let one = n1 as f64 / t1.as_secs_f64().max(1e-9);
        emit(&format!("search iterations/s, 1 thread: {one:.0}"));
        if threads > 1 {
            let (n, t) = crate::bench::search_speed(&params(threads), search_nodes);
            let many = n as f64 / t.as_secs_f64().max(1e-9);
            emit(&format!(
                "search iterations/s, {threads} threads: {many:.0} ({:.2}x)",
                many / one
            ));
        }
        let alphabeta = Params {
            player: crate::search::Player::Alphabeta,
            ..params(1)
        };
        let (n, t) = crate::bench::search_speed(&alphabeta, search_nodes);
        let nps = n as f64 / t.as_secs_f64().max(1e-9);
        emit(&format!("alphabeta nodes/s, 1 thread: {nps:.0}"));
    }
    format!("playout plies/s: {}", report.plies_per_second())
}

/// Builds the game of a `position` command, or says what is wrong.
fn setup(start: &Start, moves: &[String]) -> Result<(Game, Option<Kind>), String> {
    let position = match start {
        Start::StartPos => Position::startpos(),
        Start::Fen(text) => text.parse().map_err(|e| format!("{e}"))?,
    };
    let mut game = Game::new(position);
    let mut pending = None;
    for (i, token) in moves.iter().enumerate() {
        let n = i + 1;
        let token_shown = clip(token);
        if pending.is_some() {
            return Err(format!(
                "move {n} '{token_shown}': a drawn tile (N@) must be the last of the moves"
            ));
        }
        if let Some(end) = game.ending() {
            return Err(format!(
                "move {n} '{token_shown}': the game is over ({end})"
            ));
        }
        let pos = game.position();
        match token.parse::<MoveToken>() {
            Ok(MoveToken::Drawn(kind)) => {
                if pos.pile(pos.side_to_move()).count(kind) == 0 {
                    return Err(format!(
                        "move {n} '{token_shown}': {} has no {} left to draw",
                        pos.side_to_move(),
                        kind_name(kind)
                    ));
                }
                pending = Some(kind);
            }
            Ok(MoveToken::Draw) => {
                return Err(format!(
                    "move {n} '@': say which tile was drawn, as N@ or N@x,y"
                ))
            }
            Ok(_) => {
                let mv = pos
                    .parse_move(token)
                    .map_err(|e| format!("move {n}: {e}"))?;
                if game.counters_overflow(mv) {
                    return Err(format!(
                        "move {n} '{mv}': the fullmove number or halfmove clock would pass {MAX_COUNTER}, the largest a position string holds"
                    ));
                }
                // parse_move checked legality, so play cannot refuse it.
                game.play(mv)
                    .map_err(|mv| format!("move {n} '{mv}' is illegal"))?;
            }
            Err(e) => return Err(format!("move {n}: {e}")),
        }
    }
    Ok((game, pending))
}

/// The table as text: rows from high y to low, with coordinates.
fn board_picture(pos: &Position) -> String {
    let tiles = pos.tiles();
    let mut out = String::new();
    if tiles.is_empty() {
        out.push_str("(the table is empty)\n");
        return out;
    }
    let min_x = tiles.iter().map(|t| t.square.x).min().unwrap_or(0);
    let max_x = tiles.iter().map(|t| t.square.x).max().unwrap_or(0);
    let min_y = tiles.iter().map(|t| t.square.y).min().unwrap_or(0);
    let max_y = tiles.iter().map(|t| t.square.y).max().unwrap_or(0);
    let width = [min_y, max_y, min_x, max_x]
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        + 1;
    for y in (min_y..=max_y).rev() {
        let _ = write!(out, "{y:>width$} |");
        for x in min_x..=max_x {
            let cell = match pos.tile_at(crate::rules::Square::new(x, y)) {
                Some(t) => t.piece.letter().to_string(),
                None => ".".into(),
            };
            let _ = write!(out, "{cell:>width$}");
        }
        out.push('\n');
    }
    let _ = write!(out, "{:>width$}  ", "");
    for _ in min_x..=max_x {
        let _ = write!(out, "{:>width$}", "-".repeat(width - 1));
    }
    out.push('\n');
    let _ = write!(out, "{:>width$}  ", "y/x");
    for x in min_x..=max_x {
        let _ = write!(out, "{x:>width$}");
    }
    out.push('\n');
    out
}

/// The word `status` prints for an ending.
fn ending_word(end: GameEnd) -> &'static str {
    end.ending.word()
}

/// A win probability as centipawns, on the curve where 0.5 is 0.
fn centipawns(p: f64) -> i64 {
    let p = p.clamp(0.001, 0.999);
    (400.0 * (p / (1.0 - p)).log10()).round() as i64
}

/// The `score` of an action: `mate N` when the search has proven a win
/// (`mate -N` a loss), as UCI counts it ([`Proven::mate_in`]: the
/// winner's own turns, the root action the first of the side to move),
/// `cp 0` for a proven draw, else its mean result as centipawns.
fn score(stats: &ActionStats) -> String {
    match stats.proven {
        Some(proven) => match proven.mate_in() {
            Some(n) => format!("mate {n}"),
            None => "cp 0".to_string(),
        },
        None => format!("cp {}", centipawns(stats.value())),
    }
}

/// The win, draw and loss per mille of an action: certain once proven,
/// else its results so far.
fn wdl(stats: &ActionStats) -> [i64; 3] {
    match stats.proven {
        Some(Proven::Win { .. }) => return [1000, 0, 0],
        Some(Proven::Draw) => return [0, 1000, 0],
        Some(Proven::Loss { .. }) => return [0, 0, 1000],
        None => {}
    }
    if stats.visits == 0 {
        return [0, 1000, 0];
    }
    // Rounded where the shares add up (wins, then wins and draws), so
    // that none is below 0 and the three make 1000: rounding wins and
    // losses each could make 1001 and leave draws at -1.
    let per_mille = |x: f64| ((1000.0 * x / stats.visits as f64).round() as i64).clamp(0, 1000);
    let w = per_mille(stats.wins);
    let wd = per_mille(stats.wins + stats.draws).max(w);
    [w, wd - w, 1000 - wd]
}

/// The `info` lines of a report: one per reported action, then the speed.
fn info_lines(report: &Report, multipv: usize, show_wdl: bool) -> String {
    let ms = report.elapsed.as_millis().max(1) as u64;
    let nps = report.nodes * 1000 / ms;
    let mut lines = Vec::new();
    for (i, stats) in report.actions.iter().take(multipv.max(1)).enumerate() {
        let mut line = format!("info multipv {} score {}", i + 1, score(stats));
        if show_wdl {
            let [w, d, l] = wdl(stats);
            let _ = write!(line, " wdl {w} {d} {l}");
        }
        let _ = write!(
            line,
            " nodes {} nps {nps} time {ms} pv {}",
            report.nodes, stats.action
        );
        for step in &stats.pv {
            let _ = write!(line, " {step}");
        }
        lines.push(line);
    }
    lines.push(format!(
        "info string playouts/s {nps} plies/s {}",
        report.plies * 1000 / ms
    ));
    lines.join("\n")
}

/// `VerboseMoveStats`: one `info string` line per root action, most
/// visited first, so a user can see why the engine chose.
fn move_stats_lines(report: &Report) -> String {
    let total = report.actions.iter().map(|a| a.visits).sum::<u64>().max(1);
    let mut out = String::new();
    for stats in &report.actions {
        let _ = writeln!(
            out,
            "info string {:<14} N: {:>8} ({:>5.1}%) Q: {:>6.3} W: {:.3} D: {:.3} L: {:.3}",
            stats.action.to_string(),
            stats.visits,
            100.0 * stats.visits as f64 / total as f64,
            2.0 * stats.value() - 1.0,
            stats.wins / stats.visits.max(1) as f64,
            stats.draws / stats.visits.max(1) as f64,
            stats.losses / stats.visits.max(1) as f64,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setup_refuses_bad_move_lists_whole() {
        let start = Start::StartPos;
        let ok = |moves: &[&str]| {
            setup(
                &start,
                &moves.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            )
        };
        assert!(ok(&["Q@0,0", "p@1,1"]).is_ok());
        let (game, pending) = ok(&["Q@0,0", "n@"]).unwrap();
        assert_eq!(pending, Some(Kind::Knight));
        assert_eq!(game.moves().len(), 1);
        for bad in [
            vec!["Q@1,0"],                // first tile not on 0,0
            vec!["Q@0,0", "@"],           // the engine's word, not a move
            vec!["Q@0,0", "n@", "n@1,1"], // N@ not last
            vec!["x@0,0"],                // no such piece
            vec!["Q@0,0", "q@0,0"],       // an occupied square
            vec!["0,0-0,1"],              // no tile there
        ] {
            assert!(ok(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn line_reading_caps_length() {
        let long = vec![b'a'; MAX_LINE + 10];
        let mut input: Vec<u8> = long.clone();
        input.extend_from_slice(b"\nisready\r\n");
        let mut reader = std::io::Cursor::new(input);
        let mut line = Vec::new();
        assert!(matches!(
            read_line(&mut reader, &mut line),
            Err(ReadError::TooLong)
        ));
        line.clear();
        assert!(read_line(&mut reader, &mut line).unwrap() > 0);
        assert_eq!(line, b"isready");
        line.clear();
        assert_eq!(read_line(&mut reader, &mut line).unwrap(), 0);
    }

    /// Proven actions print UCI's mate counts and a certain WDL; the
    /// others their estimate.
    #[test]
    fn proven_actions_print_mate_scores() {
        let stats = |proven| ActionStats {
            action: Action::Draw,
            visits: 10,
            wins: 6.0,
            draws: 0.0,
            losses: 4.0,
            pv: Vec::new(),
            proven,
        };
        let report = Report {
            actions: vec![
                stats(Some(Proven::Win { turns: 3 })),
                stats(Some(Proven::Win { turns: 1 })),
                stats(Some(Proven::Draw)),
                stats(None),
                stats(Some(Proven::Loss { turns: 4 })),
                stats(Some(Proven::Loss { turns: 0 })),
            ],
            nodes: 10,
            plies: 0,
            elapsed: std::time::Duration::from_millis(5),
        };
        let lines = info_lines(&report, 6, true);
        let heads: Vec<String> = lines
            .lines()
            .filter_map(|l| l.split(" nodes ").next())
            .map(String::from)
            .collect();
        let cp = centipawns(0.6);
        assert_eq!(
            heads[..6],
            [
                "info multipv 1 score mate 2 wdl 1000 0 0".to_string(),
                "info multipv 2 score mate 1 wdl 1000 0 0".to_string(),
                "info multipv 3 score cp 0 wdl 0 1000 0".to_string(),
                format!("info multipv 4 score cp {cp} wdl 600 0 400"),
                "info multipv 5 score mate -2 wdl 0 0 1000".to_string(),
                "info multipv 6 score mate -1 wdl 0 0 1000".to_string(),
            ]
        );
    }

    /// Per mille shares are never negative and make 1000, however their
    /// fractions round.
    #[test]
    fn wdl_shares_add_up() {
        let stats = |wins: f64, draws: f64, losses: f64| ActionStats {
            action: Action::Draw,
            visits: 1,
            wins,
            draws,
            losses,
            pv: Vec::new(),
            proven: None,
        };
        // Both halves round up: 20.5 and 979.5.
        assert_eq!(wdl(&stats(0.0205, 0.0, 0.9795)), [21, 0, 979]);
        assert_eq!(wdl(&stats(0.2505, 0.5, 0.2495)), [251, 500, 249]);
        assert_eq!(wdl(&stats(1.0, 0.0, 0.0)), [1000, 0, 0]);
    }

    #[test]
    fn centipawn_curve() {
        assert_eq!(centipawns(0.5), 0);
        assert!(centipawns(0.75) > 150 && centipawns(0.75) < 250);
        assert_eq!(centipawns(0.25), -centipawns(0.75));
    }
}
