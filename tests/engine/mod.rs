//! A small harness that drives the `chex` binary over its line protocol
//! (protocol.md): the engine runs as a child process with piped stdin and
//! stdout, a reader thread turns its output into lines on a channel, and
//! every line sent and received is kept in a transcript for failure
//! messages.
//!
//! Waiting is generous (a slow, loaded CI machine must not flake); where
//! protocol.md promises speed the tests measure it themselves.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long to wait for an answer that needs no thinking (or whose
/// thinking is bounded and small). Generous on purpose.
pub const WAIT: Duration = Duration::from_secs(20);

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_chex");

/// One line of output, or the end of it.
enum Event {
    Line(String),
    Eof,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    stdout_closed: bool,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: Option<JoinHandle<()>>,
    /// `> sent` and `< received` lines, for failure messages.
    transcript: Vec<String>,
}

/// Shortens a line for the transcript (the tests send megabyte lines).
fn shown(line: &str) -> String {
    const MAX: usize = 200;
    if line.len() <= MAX {
        line.to_string()
    } else {
        let mut end = MAX;
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}… ({} bytes)", &line[..end], line.len())
    }
}

impl Engine {
    /// Starts `chex` with no arguments: the protocol.
    pub fn start() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start the chex binary");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_thread = std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => sink.lock().unwrap().extend_from_slice(&chunk[..n]),
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            rx,
            stdout_closed: false,
            stderr,
            stderr_thread: Some(stderr_thread),
            transcript: Vec::new(),
        }
    }

    /// Starts an engine and sets the given options (`name`, `value`), then
    /// waits for `readyok`.
    pub fn with_options(options: &[(&str, &str)]) -> Engine {
        let mut e = Engine::start();
        for (name, value) in options {
            e.send(&format!("setoption name {name} value {value}"));
        }
        let out = e.sync();
        assert!(out.is_empty(), "setoption printed {out:?}");
        e
    }

    /// The last lines of the transcript, for a failure message.
    pub fn tail(&self) -> String {
        let from = self.transcript.len().saturating_sub(60);
        let mut s = String::from("\n--- transcript (last lines) ---\n");
        for line in &self.transcript[from..] {
            s.push_str(line);
            s.push('\n');
        }
        let err = self.stderr_text();
        if !err.is_empty() {
            s.push_str("--- stderr ---\n");
            s.push_str(&err);
        }
        s
    }

    /// Panics with `message` and the transcript.
    #[track_caller]
    pub fn fail(&self, message: &str) -> ! {
        panic!("{message}{}", self.tail())
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {}", shown(line)));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write_raw(&bytes);
    }

    /// Sends raw bytes, exactly as given (the caller adds any newline).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!(
            "> (raw) {}",
            shown(&String::from_utf8_lossy(bytes).escape_debug().to_string())
        ));
        self.write_raw(bytes);
    }

    fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = match self.stdin.as_mut() {
            Some(s) => s,
            None => self.fail("stdin is already closed"),
        };
        if let Err(e) = stdin.write_all(bytes).and_then(|_| stdin.flush()) {
            let msg = format!("cannot write to the engine: {e}");
            self.fail(&msg);
        }
    }

    /// Closes the engine's standard input (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> (end of input)".into());
        self.stdin = None;
    }

    /// The next line within `timeout`, or `None` (also at end of output).
    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        if self.stdout_closed {
            return None;
        }
        match self.rx.recv_timeout(timeout) {
            Ok(Event::Line(line)) => {
                self.transcript.push(format!("< {}", shown(&line)));
                Some(line)
            }
            Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.stdout_closed = true;
                self.transcript.push("< (end of output)".into());
                None
            }
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    /// The first line within `timeout` that satisfies `pred` (others are
    /// read and dropped), or `None`.
    pub fn recv_matching(
        &mut self,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            match self.recv(left) {
                Some(line) if pred(&line) => return Some(line),
                Some(_) => {}
                None if self.stdout_closed => return None,
                None => {}
            }
        }
    }

    /// Reads lines until one satisfies `pred`; returns the lines before it
    /// and the line itself. Panics after `timeout`.
    #[track_caller]
    pub fn expect_line(
        &mut self,
        what: &str,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> (Vec<String>, String) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) if pred(&line) => return (before, line),
                Some(line) => before.push(line),
                None => {
                    let why = if self.stdout_closed {
                        "the engine's output ended"
                    } else {
                        "timed out"
                    };
                    self.fail(&format!("{why} waiting {timeout:?} for {what}"));
                }
            }
        }
    }

    /// Reads lines up to and including the first that starts with
    /// `prefix`; returns them all (the match last).
    #[track_caller]
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let waiting_for_bestmove = prefix == "bestmove";
        let (mut lines, last) = self.expect_line(
            &format!("a line starting '{prefix}'"),
            |l| {
                l.starts_with(prefix)
                    || (waiting_for_bestmove && l.starts_with("info string error:"))
            },
            timeout,
        );
        if waiting_for_bestmove && last.starts_with("info string error:") {
            self.fail(&format!(
                "waiting for bestmove, the engine printed '{last}'. If it says the engine \
                 is busy although the previous bestmove had arrived, that is the engine's \
                 race (protocol.md: a caller waits for bestmove before it sends the next go)"
            ));
        }
        lines.push(last);
        lines
    }

    /// Sends `isready` and returns everything printed before `readyok`.
    #[track_caller]
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let (before, _) = self.expect_line("readyok", |l| l == "readyok", WAIT);
        before
    }

    /// Sends `line`, then `isready`; returns what `line` printed (every
    /// line before `readyok`).
    #[track_caller]
    pub fn command(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Sends a line that must be refused with exactly one `info string
    /// error:` line and nothing else; returns the message.
    #[track_caller]
    pub fn expect_error(&mut self, line: &str) -> String {
        let out = self.command(line);
        self.check_one_error(line, &out)
    }

    /// Like [`Engine::expect_error`] for raw bytes (a newline is added).
    #[track_caller]
    pub fn expect_error_bytes(&mut self, bytes: &[u8]) -> String {
        let mut b = bytes.to_vec();
        b.push(b'\n');
        self.send_bytes(&b);
        let out = self.sync();
        let line = String::from_utf8_lossy(bytes).into_owned();
        self.check_one_error(&line, &out)
    }

    #[track_caller]
    fn check_one_error(&self, line: &str, out: &[String]) -> String {
        if out.len() != 1 || !out[0].starts_with("info string error: ") {
            self.fail(&format!(
                "'{}' should get exactly one 'info string error:' line, got {out:?}",
                shown(line)
            ));
        }
        let msg = out[0]["info string error: ".len()..].to_string();
        if msg.trim().is_empty() {
            self.fail("the error line says nothing");
        }
        msg
    }

    /// Sends a line that must be accepted silently.
    #[track_caller]
    pub fn expect_silent(&mut self, line: &str) {
        let out = self.command(line);
        if !out.is_empty() {
            self.fail(&format!(
                "'{}' should print nothing, got {out:?}",
                shown(line)
            ));
        }
    }

    /// The `moves` answer: the actions `go` may choose from.
    #[track_caller]
    pub fn moves(&mut self) -> Vec<String> {
        let out = self.command("moves");
        if out.len() != 1 {
            self.fail(&format!(
                "'moves' should print exactly one line, got {out:?}"
            ));
        }
        out[0]
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    }

    /// The raw `moves` line.
    #[track_caller]
    pub fn moves_line(&mut self) -> String {
        let out = self.command("moves");
        if out.len() != 1 {
            self.fail(&format!(
                "'moves' should print exactly one line, got {out:?}"
            ));
        }
        out[0].clone()
    }

    /// The `d` answer, every line of it (up to the `Key:` line).
    #[track_caller]
    pub fn display(&mut self) -> Vec<String> {
        self.send("d");
        let lines = self.read_until("Key: ", WAIT);
        let after = self.sync();
        if !after.is_empty() {
            self.fail(&format!("'d' printed more after its Key line: {after:?}"));
        }
        lines
    }

    /// The `Position:` line of `d`, without its label.
    #[track_caller]
    pub fn position_string(&mut self) -> String {
        let d = self.display();
        let found: Vec<&String> = d.iter().filter(|l| l.starts_with("Position: ")).collect();
        if found.len() != 1 {
            self.fail(&format!("'d' should have one Position: line, got {d:?}"));
        }
        found[0]["Position: ".len()..].to_string()
    }

    /// The `status` answer.
    #[track_caller]
    pub fn status(&mut self) -> String {
        let out = self.command("status");
        if out.len() != 1 {
            self.fail(&format!("'status' should print one line, got {out:?}"));
        }
        out[0].clone()
    }

    /// Everything that describes the game state as the engine shows it:
    /// `d`, `moves` and `status`. Equal before and after a refused line.
    #[track_caller]
    pub fn state(&mut self) -> Vec<String> {
        // One round trip: `d`, `moves` and `status` answer in order.
        self.send("d");
        self.send("moves");
        self.send("status");
        let s = self.sync();
        let keys = s.iter().filter(|l| l.starts_with("Key: ")).count();
        let statuses = s.iter().filter(|l| l.starts_with("status ")).count();
        if keys != 1 || statuses != 1 || !s.last().unwrap().starts_with("status ") {
            self.fail(&format!("malformed d/moves/status answer: {s:?}"));
        }
        s
    }

    /// Sends `go_line` (a search that ends by itself) and returns every
    /// line up to and including `bestmove`, after checking that the
    /// `bestmove` is one of the engine's own `moves` for the position (or
    /// `(none)` when that list is empty).
    #[track_caller]
    pub fn go_checked(&mut self, go_line: &str) -> GoResult {
        let moves = self.moves();
        self.send(go_line);
        let lines = self.read_until("bestmove", WAIT);
        let best = self.check_bestmove(&moves, lines.last().unwrap());
        GoResult {
            lines,
            best,
            moves,
            player_flat: false,
        }
    }

    /// A `bestmove` line's action and the reply it names after `ponder`
    /// (under `Ponder`, when the search expects one).
    #[track_caller]
    pub fn bestmove_and_reply(&self, line: &str) -> (String, Option<String>) {
        match line.split(' ').collect::<Vec<_>>()[..] {
            ["bestmove", best] => (best.to_string(), None),
            ["bestmove", best, "ponder", reply] if !reply.is_empty() => {
                (best.to_string(), Some(reply.to_string()))
            }
            _ => self.fail(&format!("malformed bestmove line '{line}'")),
        }
    }

    /// Checks a `bestmove` line against a `moves` list; returns the move.
    #[track_caller]
    pub fn check_bestmove(&self, moves: &[String], line: &str) -> String {
        let (best, _) = self.bestmove_and_reply(line);
        if moves.is_empty() {
            if best != "(none)" {
                self.fail(&format!("no moves, yet '{line}'"));
            }
        } else if !moves.contains(&best) {
            self.fail(&format!("'{best}' is not in the engine's moves {moves:?}"));
        }
        best
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_micros(500));
        }
    }

    /// True while the process runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Reads every line printed until the output ends (the process has
    /// exited); panics after `timeout`.
    #[track_caller]
    pub fn drain_to_end(&mut self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        while !self.stdout_closed {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.fail("the engine's output did not end");
            }
            if let Some(line) = self.recv(left) {
                lines.push(line);
            }
        }
        lines
    }

    /// Lines that arrive within `quiet` of each other, until none does.
    pub fn drain_quiet(&mut self, quiet: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        while let Some(line) = self.recv(quiet) {
            lines.push(line);
        }
        lines
    }

    /// What the engine wrote to standard error so far.
    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Waits for the stderr reader to see the end (after the exit).
    pub fn join_stderr(&mut self) {
        if let Some(t) = self.stderr_thread.take() {
            let _ = t.join();
        }
    }

    /// Fails if the engine panicked (it prints "panicked" on stderr).
    #[track_caller]
    pub fn assert_no_panic(&self) {
        let err = self.stderr_text();
        if err.contains("panicked") {
            self.fail("the engine panicked");
        }
    }

    /// Sends `quit`, checks the engine exits with status 0 and printed no
    /// panic.
    #[track_caller]
    pub fn quit(mut self) {
        self.send("quit");
        let status = self.wait_exit(WAIT);
        match status {
            Some(s) if s.success() => {}
            other => self.fail(&format!("quit: the engine ended with {other:?}")),
        }
        self.join_stderr();
        self.assert_no_panic();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What a `go` printed and chose.
pub struct GoResult {
    /// Every line from `go` on, `bestmove` last.
    pub lines: Vec<String>,
    /// The action chosen.
    pub best: String,
    /// The engine's `moves` list before the `go`.
    pub moves: Vec<String>,
    /// The search ran as `Player flat` (set by the test that chose it),
    /// which reports its actions by mean rather than by visits.
    pub player_flat: bool,
}

impl GoResult {
    /// The `info multipv` lines.
    pub fn info_lines(&self) -> Vec<&String> {
        self.lines
            .iter()
            .filter(|l| l.starts_with("info multipv "))
            .collect()
    }
}

/// The value after `key` in a line of words, e.g. `nodes` in an `info`
/// line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split(' ').collect();
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1).copied())
}
