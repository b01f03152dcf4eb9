//! One engine as a child process speaking protocol.md. A reader thread
//! turns its output into batches of lines on a bounded channel, so every
//! wait has a deadline, a silent or hung engine can never hang the match,
//! and an engine that floods its output is held back by the pipe instead
//! of filling the runner's memory. The engine runs in a process group of its
//! own: when the client is dropped it is told `quit`, given a moment, and
//! then the whole group is killed, children included. The runner restarts
//! an engine by dropping it and starting a new one.

use crate::protocol::client::{
    engine_error, handshake, is_answer, ISREADY, MATCH_HANDSHAKE, MAX_ENGINE_LINE, QUIT, READYOK,
    UCINEWGAME,
};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine has to exit after `quit` before its process group
/// is killed.
pub const QUIT_GRACE: Duration = Duration::from_secs(3);

/// Batches read ahead of the runner: beyond them the reader waits, the
/// pipe fills and the engine's writes block, so memory stays bounded
/// whatever the engine prints while the runner waits on the other one:
/// with the batch being filled and the one being read, ten batches of
/// at most [`BATCH_BYTES`] plus one line, about a megabyte at worst.
const BATCHES_AHEAD: usize = 8;

/// A batch is handed over once its lines hold this many bytes (each
/// line counted with its bookkeeping), or sooner, when the reader has
/// no whole line left without waiting on the engine. Bytes, not lines,
/// bound it, so long lines hold no more memory than short ones; and one
/// hand-over per pipe read instead of one per line spares both threads
/// a wake-up a line.
const BATCH_BYTES: usize = 64 * 1024;

/// What a line costs in a batch beyond its text: its `String`.
const LINE_OVERHEAD: usize = std::mem::size_of::<String>();

/// What the runner knows of one side of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in tables and records.
    pub name: String,
    /// The command, run by `sh -c`, so it may hold arguments and quotes.
    pub command: String,
    /// `setoption` pairs, sent in this order after `uci`.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// True when the engine ponders: its options set `Ponder` to true
    /// (`--ponder`, `--ponder1`, `--ponder2`), so that a record's options
    /// say who pondered, and a resumed match ponders as it did.
    pub fn ponders(&self) -> bool {
        self.options
            .iter()
            .any(|(n, v)| n.eq_ignore_ascii_case("Ponder") && v.eq_ignore_ascii_case("true"))
    }
}

/// Why an engine stopped answering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// Its output ended: it exited or closed stdout. Says how, if known.
    Crashed(String),
    /// Nothing came before the deadline.
    Silent,
}

/// A running engine.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Vec<String>>,
    /// The rest of the last batch, in order.
    pending: VecDeque<String>,
    /// The last line the engine wrote to stderr: what it said before it
    /// died is the best clue to why.
    last_error: Arc<Mutex<String>>,
}

/// Reads one line into `buf`, keeping at most [`MAX_ENGINE_LINE`] bytes of it
/// and dropping the rest. Before each read that may wait on the engine
/// (its buffer is empty) it calls `idle`, and stops if that says false.
/// False at the end of the stream.
fn read_line_capped<R: Read>(
    reader: &mut BufReader<R>,
    buf: &mut Vec<u8>,
    idle: &mut impl FnMut() -> bool,
) -> bool {
    buf.clear();
    let mut any = false;
    loop {
        if reader.buffer().is_empty() && !idle() {
            return false;
        }
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => return any,
            Ok(chunk) => chunk,
        };
        any = true;
        let (used, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_ENGINE_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        reader.consume(used);
        if ended {
            return true;
        }
    }
}

/// Sends the lines `from` yields to `tx` in batches (stdout), or keeps
/// the last one in `last` (stderr), until the stream ends or the client
/// goes. A batch goes out when it is full or before the reader waits on
/// the engine, so no line is held back while more may never come.
fn read_lines(from: impl Read, tx: Option<SyncSender<Vec<String>>>, last: Arc<Mutex<String>>) {
    let mut reader = BufReader::new(from);
    let mut buf = Vec::new();
    let mut batch = Vec::new();
    let mut bytes = 0;
    let hand_over = |batch: &mut Vec<String>, bytes: &mut usize| match &tx {
        Some(tx) if !batch.is_empty() => {
            *bytes = 0;
            tx.send(std::mem::take(batch)).is_ok()
        }
        _ => true,
    };
    while read_line_capped(&mut reader, &mut buf, &mut || {
        hand_over(&mut batch, &mut bytes)
    }) {
        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
        if tx.is_some() {
            bytes += line.len() + LINE_OVERHEAD;
            batch.push(line);
            if bytes >= BATCH_BYTES && !hand_over(&mut batch, &mut bytes) {
                return;
            }
        } else if !line.is_empty() {
            if let Ok(mut last) = last.lock() {
                *last = line;
            }
        }
    }
    hand_over(&mut batch, &mut bytes);
}

impl EngineProcess {
    /// Starts `spec`'s command, says `uci`, sets its options and waits
    /// until it is ready. An option the engine refuses (an `info string
    /// error` line) is an error: a match with a misspelt option would
    /// measure the wrong thing.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, String> {
        let who = format!("engine '{}' ({})", spec.name, spec.command);
        // Any shell command works (`cd DIR && chex`): `sh` may then stay
        // as the engine's parent, and the process group reaches both.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&spec.command)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{who}: cannot start: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(format!("{who}: no pipes to the process"));
        };
        let (tx, lines) = sync_channel(BATCHES_AHEAD);
        let last_error = Arc::new(Mutex::new(String::new()));
        let last = Arc::clone(&last_error);
        std::thread::spawn(move || read_lines(stdout, Some(tx), last));
        let last = Arc::clone(&last_error);
        std::thread::spawn(move || read_lines(stderr, None, last));
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            pending: VecDeque::new(),
            last_error,
        };
        for step in handshake(&spec.options) {
            let waiting = step.answer;
            let fail = |e: EngineFailure| match e {
                EngineFailure::Crashed(how) => format!("{who} failed before {waiting}: {how}"),
                EngineFailure::Silent => {
                    format!("{who}: no {waiting} within {MATCH_HANDSHAKE:?}")
                }
            };
            for line in &step.send {
                engine.send(line).map_err(fail)?;
            }
            let deadline = Instant::now() + MATCH_HANDSHAKE;
            loop {
                let line = engine.next_line(deadline).map_err(fail)?;
                if is_answer(&line, waiting) {
                    break;
                }
                // The options are sent in the step that waits for
                // `readyok`: a refusal comes before it.
                if let Some(error) = engine_error(&line).filter(|_| waiting == READYOK) {
                    return Err(format!("{who} refused its options: {error}"));
                }
            }
        }
        Ok(engine)
    }

    /// Sends one line. A closed pipe means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.crashed())
    }

    /// The next line of output, waiting at most until `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return Ok(line);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(wait) {
                Ok(batch) => self.pending.extend(batch),
                Err(RecvTimeoutError::Timeout) => return Err(EngineFailure::Silent),
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// Reads lines until one satisfies `wanted` and returns it; the lines
    /// before it are dropped once `wanted` has seen them.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        mut wanted: impl FnMut(&str) -> bool,
    ) -> Result<String, EngineFailure> {
        loop {
            let line = self.next_line(deadline)?;
            if wanted(&line) {
                return Ok(line);
            }
        }
    }

    /// Starts a new game: `ucinewgame`, then [`ready`](Self::ready).
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send(UCINEWGAME)?;
        self.ready()
    }

    /// Sends `isready` and waits for `readyok`, dropping every line
    /// before it: a `bestmove` no `go` asked for (an engine that answers
    /// twice) must not be taken as the answer to the next request.
    pub fn ready(&mut self) -> Result<(), EngineFailure> {
        self.send(ISREADY)?;
        self.wait_for(Instant::now() + MATCH_HANDSHAKE, |l| is_answer(l, READYOK))
            .map(|_| ())
    }

    /// Describes how the engine went away, from its exit status when it
    /// has one within a moment.
    fn crashed(&mut self) -> EngineFailure {
        let until = Instant::now() + Duration::from_millis(200);
        let mut how = "the engine closed its output".to_string();
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    how = format!("the engine exited ({status})");
                    break;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        // Give the stderr thread a moment to catch the last words.
        std::thread::sleep(Duration::from_millis(20));
        let said = self
            .last_error
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        if !said.is_empty() {
            how.push_str(&format!(", saying '{}'", crate::rules::clip(&said)));
        }
        EngineFailure::Crashed(how)
    }
}

impl Drop for EngineProcess {
    /// Says `quit`, waits up to [`QUIT_GRACE`] for the engine to exit,
    /// then kills its process group, so that nothing it started outlives
    /// the match.
    fn drop(&mut self) {
        let _ = self.send(QUIT);
        // The reader stops at its next line, so an engine blocked on a
        // full pipe is unblocked (its writes fail) and can see `quit`.
        let (_, closed) = sync_channel(0);
        drop(std::mem::replace(&mut self.lines, closed));
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                _ => break,
            }
        }
        // The group's id is the engine's pid (`process_group(0)`); the
        // group outlives its leader while a child of it runs.
        let _ = Command::new("sh")
            .arg("-c")
            .arg(format!("kill -s KILL -- -{} 2>/dev/null", self.child.id()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
