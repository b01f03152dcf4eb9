//! The engine as a child process, spoken to only through protocol.md: the
//! GUI must work with any engine that speaks it, so it never calls the
//! search directly.

use crate::protocol::client::{handshake, is_answer, GUI_HANDSHAKE, MAX_ENGINE_LINE};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

/// A running engine: its input, and its output read line by line.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl EngineProcess {
    /// Starts `command` (a program and its arguments) and waits until it
    /// has answered `uci` and `isready`, with the WDL shown in its `info`.
    pub async fn start(command: &[String]) -> Result<EngineProcess, String> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| "no engine command".to_string())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("cannot start the engine '{program}': {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("the engine's pipes are missing".into());
        };
        let mut engine = EngineProcess {
            child,
            stdin,
            stdout: BufReader::new(stdout),
        };
        let show_wdl = [("UCI_ShowWDL".to_string(), "true".to_string())];
        for step in handshake(&show_wdl) {
            for line in &step.send {
                engine.send(line).await?;
            }
            engine.expect(step.answer).await?;
        }
        Ok(engine)
    }

    /// Waits for a line that is exactly `word`, skipping the others.
    async fn expect(&mut self, word: &str) -> Result<(), String> {
        let wait = async {
            loop {
                match self.next_line().await {
                    Some(line) if is_answer(&line, word) => return Ok(()),
                    Some(_) => {}
                    None => return Err(format!("the engine exited before '{word}'")),
                }
            }
        };
        timeout(GUI_HANDSHAKE, wait).await.unwrap_or_else(|_| {
            Err(format!(
                "the engine did not answer '{word}' within {} s",
                GUI_HANDSHAKE.as_secs()
            ))
        })
    }

    /// Sends one line.
    pub async fn send(&mut self, line: &str) -> Result<(), String> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.stdin
            .write_all(&bytes)
            .await
            .map_err(|e| format!("the engine stopped reading: {e}"))?;
        self.stdin
            .flush()
            .await
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    /// The next line the engine prints, at most [`MAX_ENGINE_LINE`] bytes
    /// of it (the rest is dropped, so that an engine that prints without
    /// end cannot fill the server's memory), without its line ending;
    /// `None` once it has exited or closed its output.
    pub async fn next_line(&mut self) -> Option<String> {
        let mut line = Vec::new();
        loop {
            let chunk = match self.stdout.fill_buf().await {
                Ok([]) | Err(_) if line.is_empty() => return None,
                Ok([]) | Err(_) => break,
                Ok(chunk) => chunk,
            };
            let (used, ended) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let room = MAX_ENGINE_LINE.saturating_sub(line.len());
            line.extend_from_slice(&chunk[..used.min(room)]);
            self.stdout.consume(used);
            if ended {
                break;
            }
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        Some(String::from_utf8_lossy(&line).into_owned())
    }

    /// Ends the process now; used before a restart, so that a hung engine
    /// does not linger.
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }
}
