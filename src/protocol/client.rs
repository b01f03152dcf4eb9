//! The driving end of protocol.md, shared by the match runner and the GUI
//! so that the two cannot drift apart: the handshake in its order, the
//! answers awaited, the lines a driver sends and the engine's lines read
//! into values. Words and lines only: each driver keeps its own transport
//! (the runner's reader threads and deadlines, the GUI's tokio tasks).

use std::time::Duration;

/// How long an engine may take to answer `uci` or `isready` in a match:
/// generous, since a machine loaded by the match starts processes slowly.
pub const MATCH_HANDSHAKE: Duration = Duration::from_secs(20);

/// How long an engine may take to answer `uci` or `isready` in the GUI: a
/// person is waiting, so a slow start is a hang the page should report
/// rather than wait on for ever.
pub const GUI_HANDSHAKE: Duration = Duration::from_secs(10);

/// The engine's answer to `uci`, once it has listed its options.
pub const UCIOK: &str = "uciok";

/// The engine's answer to `isready`, once it has carried out every line
/// before it.
pub const READYOK: &str = "readyok";

/// Asks whether the engine has carried out every line so far.
pub const ISREADY: &str = "isready";

/// Tells the engine the next position belongs to a new game.
pub const UCINEWGAME: &str = "ucinewgame";

/// Ends the running search: the engine answers `bestmove` at once.
pub const STOP: &str = "stop";

/// Tells the engine to exit.
pub const QUIT: &str = "quit";

/// One step of the handshake: lines to send, then the answer to wait for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeStep {
    /// Sent in this order.
    pub send: Vec<String>,
    /// The line that ends the step ([`UCIOK`] or [`READYOK`]); the lines
    /// before it are skipped, except a refusal of an option.
    pub answer: &'static str,
}

/// The handshake of protocol.md: `uci` until `uciok`, then each of
/// `options` as a `setoption` line and `isready` until `readyok`. An
/// option is refused (see [`engine_error`]) before `readyok`.
pub fn handshake(options: &[(String, String)]) -> [HandshakeStep; 2] {
    let mut configure: Vec<String> = options
        .iter()
        .map(|(name, value)| setoption(name, value))
        .collect();
    configure.push(ISREADY.to_string());
    [
        HandshakeStep {
            send: vec!["uci".to_string()],
            answer: UCIOK,
        },
        HandshakeStep {
            send: configure,
            answer: READYOK,
        },
    ]
}

/// The line that sets option `name` to `value`.
pub fn setoption(name: &str, value: &str) -> String {
    format!("setoption name {name} value {value}")
}

/// True when `line` is the answer `word` ([`UCIOK`], [`READYOK`]), blanks
/// around it ignored.
pub fn is_answer(line: &str, word: &str) -> bool {
    line.trim() == word
}

/// The action of a `bestmove` line (empty when the line names none), or
/// `None` for any other line.
pub fn bestmove(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    (words.next() == Some("bestmove")).then(|| words.next().unwrap_or(""))
}

/// What an `info string error` line says is wrong, or `None` for any
/// other line.
pub fn engine_error(line: &str) -> Option<&str> {
    line.strip_prefix("info string error")
        .map(|error| error.trim_start_matches(':').trim())
}

/// What a search line of the engine says, as far as a driver shows it.
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

    #[test]
    fn answers_are_read() {
        assert_eq!(bestmove("bestmove N@2,1"), Some("N@2,1"));
        assert_eq!(bestmove("bestmove"), Some(""));
        assert_eq!(bestmove("info string bestmove @"), None);
        assert_eq!(
            engine_error("info string error: unknown option 'Foo'"),
            Some("unknown option 'Foo'")
        );
        assert_eq!(engine_error("info string playouts/s 3683"), None);
        assert!(is_answer("readyok\r", READYOK) && !is_answer("readyok?", READYOK));
    }

    /// The handshake sends `uci`, then the options in order and
    /// `isready`.
    #[test]
    fn the_handshake_is_in_order() {
        let options = [("Threads".to_string(), "2".to_string())];
        let [uci, ready] = handshake(&options);
        assert_eq!((uci.send, uci.answer), (vec!["uci".to_string()], UCIOK));
        let expected = vec![
            "setoption name Threads value 2".to_string(),
            "isready".to_string(),
        ];
        assert_eq!((ready.send, ready.answer), (expected, READYOK));
    }
}
