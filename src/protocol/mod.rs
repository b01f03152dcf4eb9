//! The line protocol over stdin/stdout (protocol.md): reads commands,
//! keeps the game and the options, starts searches on their own thread and
//! prints. It parses, dispatches and prints; the rules and the search do
//! the rest.
//!
//! A line that cannot be understood gets exactly one `info string error:`
//! line and changes nothing.
//!
//! This file holds the session: the read loop and the dispatch of each
//! command. [`command`] parses a line, [`options`] holds the options,
//! `setup` builds the game of a `position` command, `job` runs work on
//! its own thread, `print` writes every report, and
//! [`bench`](mod@bench) the lines of `perft` and `bench`, which
//! `chex perft` and `chex bench` print too.
//!
//! [`client`] is the other end of the same lines: what the match runner
//! and the GUI need to drive an engine, kept here beside the engine side.

pub mod bench;
pub mod client;
pub mod command;
mod input;
mod job;
pub mod options;
mod print;
mod setup;

pub use input::MAX_LINE;

use crate::rules::{Game, GameEnd, Kind, Position};
use crate::search;
use command::Command;
use input::{read_line, ReadError};
use job::{JobKind, SearchJob, Worker};
use options::Options;
use print::{error, say};
use setup::setup;
use std::io::BufRead;
use std::sync::Arc;

/// The engine as the protocol sees it.
pub struct Engine {
    game: Game,
    /// The kind of a tile the side to move has drawn and must place.
    pending: Option<Kind>,
    /// The side to move has drawn a tile not known yet (a last `@`): only
    /// `go ponder` searches such a position.
    unknown_draw: bool,
    /// While a ponder search runs: the timed search `ponderhit` starts in
    /// its place, and whether the ponder is of the opponent's draw.
    ponder: Option<SearchJob>,
    options: Options,
    worker: Worker,
    /// What one search leaves for the next, shared with the search job.
    search: Arc<search::Engine>,
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
            unknown_draw: false,
            ponder: None,
            options: Options::default(),
            worker: Worker::default(),
            search: Arc::default(),
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
                self.worker.quit();
                return;
            }
        }
        self.worker.finish();
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
            if let Some(kind) = self.worker.busy() {
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
                // A ponder of the old game runs on until `stop`, as any
                // running search does, but `ponderhit` can no longer turn
                // it into a move: that game is gone.
                self.ponder = None;
                self.game = Game::new(Position::startpos());
                self.pending = None;
                self.unknown_draw = false;
                self.search.new_game();
            }
            Command::Position { start, moves } => match setup(&start, &moves) {
                Ok(set) => {
                    self.game = set.game;
                    self.pending = set.pending;
                    self.unknown_draw = set.unknown_draw;
                }
                Err(e) => error(&e),
            },
            Command::Go {
                limits,
                searchmoves,
                ponder,
            } => self.go(limits, &searchmoves, ponder),
            Command::PonderHit => self.ponderhit(),
            Command::Stop => {
                self.ponder = None;
                self.worker.stop();
            }
            Command::Quit => return false,
            Command::Display => say(&print::display(
                self.game.position(),
                self.pending,
                self.unknown_draw,
                self.ending(),
            )),
            Command::Moves if self.unknown_draw => {
                error("moves: the drawn tile is not known yet; send it as N@")
            }
            Command::Eval | Command::Perft(_) if self.unknown_draw => {
                error("the side to move has drawn a tile not known yet; send it as N@")
            }
            Command::Moves => {
                let actions = match self.ending() {
                    Some(_) => Vec::new(),
                    None => search::root_actions(self.game.position(), self.pending),
                };
                say(&print::moves_line(&actions));
            }
            Command::Eval => {
                if self.pending.is_some() {
                    error("eval judges a position before the draw; a drawn tile is pending");
                } else {
                    say(&print::evaluation_lines(
                        self.game.position(),
                        &self.options.params.evaluation,
                        &self.options.net,
                    ));
                }
            }
            Command::Perft(depth) => {
                if self.pending.is_some() {
                    error("perft counts from a position before the draw; a drawn tile is pending");
                } else {
                    let pos = self.game.position().clone();
                    let threads = self.options.params.threads;
                    self.worker.spawn(JobKind::Count, move |_| {
                        bench::perft_lines(&pos, depth, threads, say)
                    });
                }
            }
            Command::Bench => self.worker.spawn(JobKind::Count, |_| {
                bench::bench_lines(
                    crate::bench::PERFT_DEPTH,
                    crate::bench::PLAYOUTS_PER_POSITION,
                    crate::bench::SEARCH_NODES,
                    say,
                )
            }),
            Command::Status => say(&print::status_line(self.ending())),
        }
        true
    }

    /// How the game has ended, counting a drawn tile that cannot be placed.
    fn ending(&self) -> Option<GameEnd> {
        if let Some(end) = self.game.ending() {
            return Some(end);
        }
        self.pending
            .and_then(|kind| self.game.position().ending_after_draw(kind))
    }

    /// `ponderhit`: the ponder search gives way to the timed search of
    /// the same position, whose limits count from now; the tree search
    /// goes on from the ponder's tree, so nothing searched is lost.
    fn ponderhit(&mut self) {
        let running = self.worker.busy().is_some();
        let Some(mut job) = self.ponder.take().filter(|_| running) else {
            return error(if running {
                "ponderhit: the search running is no ponder of the current game (ucinewgame ends that); send stop to end it"
            } else {
                "ponderhit: no ponder search is running"
            });
        };
        if job.unknown_draw {
            self.ponder = Some(job);
            return error(
                "ponderhit: the pondered reply is a draw, its tile unknown; send stop, then the position with the tile placed",
            );
        }
        self.worker.abandon();
        job.limits.started = Some(std::time::Instant::now());
        let kind = if job
            .limits
            .is_endless(job.position.side_to_move(), job.params.move_overhead)
        {
            JobKind::Endless
        } else {
            JobKind::Search
        };
        self.worker.spawn(kind, move |stop| job.run(stop));
    }

    /// `go`: answers at once when the game is over, else starts a search
    /// job on copies of the game and the options. `go ponder` searches
    /// until `ponderhit` or `stop`, keeping the timed search for
    /// `ponderhit` to start; after a last `@` it ponders the opponent's
    /// draw: the turn before it, its root cut down to the draw, for the
    /// engine on the other side.
    fn go(&mut self, mut limits: search::Limits, searchmoves: &[String], ponder: bool) {
        let now = std::time::Instant::now();
        limits.started = Some(now);
        self.ponder = None;
        if self.unknown_draw && !ponder {
            return error(
                "go: the side to move has drawn a tile not known yet; only go ponder searches here",
            );
        }
        if self.unknown_draw && !searchmoves.is_empty() {
            return error(
                "go: searchmoves names the engine's actions, and after a bare @ it has none yet",
            );
        }
        if limits.depth.is_some() && self.options.params.player != search::Player::Alphabeta {
            error("go depth needs Player alphabeta: a Monte Carlo search has no depth; use nodes or movetime");
            return;
        }
        if let Some(end) = self.ending() {
            say(&format!("info string {end}"));
            say("bestmove (none)");
            return;
        }
        let position = self.game.position().clone();
        let mut searchmoves = match setup::root_actions_named(&position, self.pending, searchmoves)
        {
            Ok(actions) => actions,
            Err(why) => return error(&why),
        };
        let mut params = self.options.params.clone();
        if self.unknown_draw {
            searchmoves = vec![search::Action::Draw];
            params.engine_side = Some(position.side_to_move().opposite());
        }
        let mut kind = if limits.is_endless(position.side_to_move(), params.move_overhead) {
            JobKind::Endless
        } else {
            JobKind::Search
        };
        let mut job = SearchJob {
            engine: Arc::clone(&self.search),
            position,
            pending: self.pending,
            history: self.game.recent_keys().to_vec(),
            limits,
            params,
            searchmoves,
            show_wdl: self.options.show_wdl,
            verbose: self.options.verbose_stats,
            name_reply: self.options.ponder,
            unknown_draw: self.unknown_draw,
        };
        if ponder {
            self.ponder = Some(job.clone());
            // Every limit waits for ponderhit: until then only stop ends it.
            job.limits = search::Limits {
                ponder: true,
                infinite: true,
                started: Some(now),
                ..search::Limits::default()
            };
            kind = JobKind::Endless;
        }
        self.worker.spawn(kind, move |stop| job.run(stop));
    }
}

impl Command {
    /// Commands that start work wait for the running work to end. The
    /// others act at once: a running search has its own copy of the
    /// position and options.
    fn needs_idle(&self) -> bool {
        matches!(
            self,
            Command::Go { .. } | Command::Perft(_) | Command::Bench
        )
    }
}
