//! The engine as a child process, spoken to only through protocol.md: the
//! GUI must work with any engine that speaks it, so it never calls the
//! search directly.

use std::process::Stdio;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::time::timeout;

/// How long an engine may take to answer `uci` and `isready`: a slow start
/// is a hang, and the page should say so rather than wait for ever.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// A running engine: its input, and its output read line by line.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

/// What a search line of the engine says, as far as the page shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    /// The score of the best action for the side to move, in centipawns.
    pub score_cp: Option<i64>,
    /// Wins, draws and losses per mille for the side to move.
    pub wdl: Option<[u32; 3]>,
    /// Playouts so far.
    pub nodes: u64,
    /// Playouts per second.
    pub nps: u64,
    /// Milliseconds since `go`.
    pub time: u64,
    /// The principal variation, as the engine wrote it.
    pub pv: String,
}

impl Info {
    /// Reads an `info` line of the best action (`multipv 1` or none);
    /// other lines (`info string`, lesser multipv lines) give `None`.
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        let mut seen = false;
        while let Some(word) = words.next() {
            match word {
                "string" => return None,
                "multipv" if number(&mut words) != Some(1) => return None,
                // `score cp N`: the unit word comes first.
                "score" if words.next() == Some("cp") => {
                    info.score_cp = words.next().and_then(|w| w.parse().ok());
                }
                "wdl" => {
                    let w: Vec<u32> = (0..3)
                        .filter_map(|_| words.next().and_then(|w| w.parse().ok()))
                        .collect();
                    if let [w, d, l] = w[..] {
                        info.wdl = Some([w, d, l]);
                    }
                }
                "nodes" => info.nodes = number(&mut words).unwrap_or(0).max(0) as u64,
                "nps" => info.nps = number(&mut words).unwrap_or(0).max(0) as u64,
                "time" => info.time = number(&mut words).unwrap_or(0).max(0) as u64,
                "pv" => {
                    info.pv = words.by_ref().collect::<Vec<_>>().join(" ");
                    seen = true;
                }
                _ => {}
            }
        }
        seen.then_some(info)
    }
}

/// The next word as a number, if it is one.
fn number<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<i64> {
    words.next().and_then(|w| w.parse().ok())
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
            lines: BufReader::new(stdout).lines(),
        };
        engine.send("uci").await?;
        engine.expect("uciok").await?;
        engine.send("setoption name UCI_ShowWDL value true").await?;
        engine.send("isready").await?;
        engine.expect("readyok").await?;
        Ok(engine)
    }

    /// Waits for a line that is exactly `word`, skipping the others.
    async fn expect(&mut self, word: &str) -> Result<(), String> {
        let wait = async {
            loop {
                match self.next_line().await {
                    Some(line) if line.trim() == word => return Ok(()),
                    Some(_) => {}
                    None => return Err(format!("the engine exited before '{word}'")),
                }
            }
        };
        timeout(HANDSHAKE_TIMEOUT, wait).await.unwrap_or_else(|_| {
            Err(format!(
                "the engine did not answer '{word}' within {} s",
                HANDSHAKE_TIMEOUT.as_secs()
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

    /// The next line the engine prints; `None` once it has exited or
    /// closed its output.
    pub async fn next_line(&mut self) -> Option<String> {
        self.lines.next_line().await.ok().flatten()
    }

    /// Ends the process now; used before a restart, so that a hung engine
    /// does not linger.
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_read() {
        let info = Info::parse(
            "info multipv 1 score cp 31 wdl 520 21 459 nodes 2000 nps 3683 time 543 pv 0,0-1,0 @",
        )
        .unwrap();
        assert_eq!(info.score_cp, Some(31));
        assert_eq!(info.wdl, Some([520, 21, 459]));
        assert_eq!((info.nodes, info.nps, info.time), (2000, 3683, 543));
        assert_eq!(info.pv, "0,0-1,0 @");
        assert_eq!(Info::parse("info string playouts/s 3683"), None);
        assert_eq!(Info::parse("info multipv 2 score cp 1 pv @"), None);
        assert_eq!(Info::parse("bestmove @"), None);
        assert_eq!(Info::parse("info score cp x wdl 1 2"), None);
    }
}
