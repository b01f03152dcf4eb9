//! One engine as a child process speaking protocol.md. A reader thread
//! turns its output into lines on a channel, so every wait has a deadline
//! and a silent or hung engine can never hang the match. The process is
//! killed when the client is dropped; the runner restarts an engine by
//! dropping it and starting a new one.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` or `isready`: generous,
/// since a loaded machine starts processes slowly.
pub const HANDSHAKE: Duration = Duration::from_secs(20);

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
    lines: Receiver<String>,
    /// The last line the engine wrote to stderr: what it said before it
    /// died is the best clue to why.
    last_error: Arc<Mutex<String>>,
}

/// Sends each line `from` yields to `tx` (stdout), or keeps the last
/// one in `last` (stderr), until the stream ends.
fn read_lines(from: impl Read, tx: Option<Sender<String>>, last: Arc<Mutex<String>>) {
    let mut reader = BufReader::new(from);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                match &tx {
                    Some(tx) => {
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                    None if line.is_empty() => {}
                    None => {
                        if let Ok(mut last) = last.lock() {
                            *last = line;
                        }
                    }
                }
            }
        }
    }
}

impl EngineProcess {
    /// Starts `spec`'s command, says `uci`, sets its options and waits
    /// until it is ready. An option the engine refuses (an `info string
    /// error` line) is an error: a match with a misspelt option would
    /// measure the wrong thing.
    pub fn start(spec: &EngineSpec) -> Result<EngineProcess, String> {
        let who = format!("engine '{}' ({})", spec.name, spec.command);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {}", spec.command))
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
        let (tx, lines) = channel();
        let last_error = Arc::new(Mutex::new(String::new()));
        let last = Arc::clone(&last_error);
        std::thread::spawn(move || read_lines(stdout, Some(tx), last));
        let last = Arc::clone(&last_error);
        std::thread::spawn(move || read_lines(stderr, None, last));
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            last_error,
        };
        let fail = |e: EngineFailure, waiting: &str| match e {
            EngineFailure::Crashed(how) => format!("{who} failed before {waiting}: {how}"),
            EngineFailure::Silent => format!("{who}: no {waiting} within {HANDSHAKE:?}"),
        };
        engine.send("uci").map_err(|e| fail(e, "uciok"))?;
        engine
            .wait_for(Instant::now() + HANDSHAKE, |l| l == "uciok")
            .map_err(|e| fail(e, "uciok"))?;
        for (name, value) in &spec.options {
            engine
                .send(&format!("setoption name {name} value {value}"))
                .map_err(|e| fail(e, "readyok"))?;
        }
        engine.send("isready").map_err(|e| fail(e, "readyok"))?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.next_line(deadline).map_err(|e| fail(e, "readyok"))?;
            if line == "readyok" {
                return Ok(engine);
            }
            if let Some(error) = line.strip_prefix("info string error") {
                return Err(format!(
                    "{who} refused its options: {}",
                    error.trim_start_matches(':').trim()
                ));
            }
        }
    }

    /// Sends one line. A closed pipe means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.crashed())
    }

    /// The next line of output, waiting at most until `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String, EngineFailure> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineFailure::Silent),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
        }
    }

    /// Reads lines until one satisfies `wanted` and returns it; the lines
    /// before it are dropped.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<String, EngineFailure> {
        loop {
            let line = self.next_line(deadline)?;
            if wanted(&line) {
                return Ok(line);
            }
        }
    }

    /// Starts a new game: `ucinewgame`, then `isready` until `readyok`,
    /// which also drops anything left over from the game before.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for(Instant::now() + HANDSHAKE, |l| l == "readyok")
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
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
