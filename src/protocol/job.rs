//! Work off the read loop's thread: a search, a perft or a bench runs on
//! its own thread with a stop flag, so that the loop keeps answering
//! (`isready`, `stop`) while it runs, as Stockfish and lc0 do. Here the
//! engine starts, stops and waits for that work.

use super::print::{info_lines, move_stats_lines, say};
use crate::rules::{Kind, Position};
use crate::search::{self, Action, Params, Report, Request};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Work running on its own thread: a search, a perft or a bench.
struct Job {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// Set with `stop` when the job's last line is not wanted: a ponder
    /// search that `ponderhit` turns into the timed one.
    quiet: Arc<AtomicBool>,
    /// Set just before the job prints its last line: from then on a new
    /// command may start work, though the thread may not have ended yet.
    finished: Arc<AtomicBool>,
    /// What the job is, for the messages and for `quit` and end of input.
    kind: JobKind,
}

/// What a job is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum JobKind {
    /// A search that ends by its limits, or by `stop`.
    Search,
    /// A search that only `stop` ends (`go infinite`, or no limit that
    /// applies to the side to move).
    Endless,
    /// A perft or bench: runs to its end.
    Count,
}

/// The engine's one job at a time: the last one started, which may have
/// finished.
#[derive(Default)]
pub(super) struct Worker {
    job: Option<Job>,
}

impl Worker {
    /// What runs, unless it has printed its last line.
    pub(super) fn busy(&self) -> Option<JobKind> {
        let job = self.job.as_ref()?;
        (!job.finished.load(Ordering::Acquire)).then_some(job.kind)
    }

    /// Runs `work` on its own thread with a fresh stop flag; `work`
    /// prints as it goes and returns its last line, which is printed after
    /// the job is marked finished. The previous job has printed its last
    /// line (commands that start work wait for that), so joining it is
    /// immediate.
    pub(super) fn spawn(
        &mut self,
        kind: JobKind,
        work: impl FnOnce(&AtomicBool) -> String + Send + 'static,
    ) {
        if let Some(job) = self.job.take() {
            let _ = job.handle.join();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let quiet = Arc::new(AtomicBool::new(false));
        let finished = Arc::new(AtomicBool::new(false));
        let (stop_flag, done) = (Arc::clone(&stop), Arc::clone(&finished));
        let hush = Arc::clone(&quiet);
        let handle = std::thread::spawn(move || {
            let last = work(&stop_flag);
            done.store(true, Ordering::Release);
            if !hush.load(Ordering::Acquire) {
                say(&last);
            }
        });
        self.job = Some(Job {
            handle,
            stop,
            quiet,
            finished,
            kind,
        });
    }

    /// `stop`: asks the job to end now; a perft or bench ignores it.
    pub(super) fn stop(&self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops the job and waits for it without printing its last line:
    /// `ponderhit` replaces the ponder search by the timed one, which
    /// answers instead.
    pub(super) fn abandon(&mut self) {
        if let Some(job) = self.job.take() {
            job.quiet.store(true, Ordering::Release);
            job.stop.store(true, Ordering::Relaxed);
            let _ = job.handle.join();
        }
    }

    /// `quit`: stops a search and waits for its `bestmove`; abandons a
    /// perft or bench.
    pub(super) fn quit(&mut self) {
        if let Some(job) = self.job.take() {
            if job.kind != JobKind::Count {
                job.stop.store(true, Ordering::Relaxed);
                let _ = job.handle.join();
            }
        }
    }

    /// End of input: lets the job finish, so that a piped script gets its
    /// answers; stops only a search that nothing else would end.
    pub(super) fn finish(&mut self) {
        if let Some(job) = self.job.take() {
            if job.kind == JobKind::Endless {
                job.stop.store(true, Ordering::Relaxed);
            }
            let _ = job.handle.join();
        }
    }
}

/// A search as a job: its own copy of the game and the options, so that
/// commands may change the engine's while it runs.
#[derive(Clone)]
pub(super) struct SearchJob {
    /// The engine that searches, with what its last search left.
    pub engine: Arc<search::Engine>,
    /// The position searched.
    pub position: Position,
    /// The kind of a drawn tile the side to move must place.
    pub pending: Option<Kind>,
    /// The keys of the positions before, for repetitions.
    pub history: Vec<u64>,
    /// When to stop, with the time it started.
    pub limits: search::Limits,
    /// The search's parameters.
    pub params: Params,
    /// `UCI_ShowWDL`: a `wdl` in each `info` line.
    pub show_wdl: bool,
    /// `VerboseMoveStats`: every root action's statistics at the end.
    pub verbose: bool,
    /// The root actions to choose from (`go searchmoves`): all when empty.
    pub searchmoves: Vec<Action>,
    /// `Ponder`: name the reply the search expects after its choice.
    pub name_reply: bool,
    /// The position is the opponent's turn before its draw, whose tile is
    /// not known yet: the search ponders that draw and has no action of
    /// the engine's own to answer with.
    pub unknown_draw: bool,
}

impl SearchJob {
    /// Searches, printing `info` lines as reports come, and returns the
    /// last line, `bestmove`, after the verbose statistics if asked.
    pub(super) fn run(self, stop: &AtomicBool) -> String {
        let SearchJob {
            engine,
            position: pos,
            pending,
            history,
            limits,
            params,
            show_wdl,
            verbose,
            searchmoves,
            name_reply,
            unknown_draw,
        } = self;
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
            searchmoves: &searchmoves,
        };
        let choice = engine.search(&request, stop, &mut print);
        let mut out = String::new();
        if let (true, Some(report)) = (verbose, &last) {
            out = move_stats_lines(report);
        }
        match choice {
            Some(_) if unknown_draw => out.push_str("bestmove (none)"),
            Some(action) => {
                out.push_str(&format!("bestmove {action}"));
                let reply = last.as_ref().and_then(|r| expected_reply(r, action));
                if let Some(reply) = reply.filter(|_| name_reply) {
                    out.push_str(&format!(" ponder {reply}"));
                }
            }
            None => out.push_str("bestmove (none)"),
        }
        out
    }
}

/// The opponent's reply the search expects after `action`: the first
/// action of its line. None after a draw, whose line goes on with the
/// engine's own placement, once the caller has dealt the tile.
fn expected_reply(report: &Report, action: Action) -> Option<Action> {
    if action == Action::Draw {
        return None;
    }
    let stats = report.actions.iter().find(|s| s.action == action)?;
    stats.pv.first().copied()
}
