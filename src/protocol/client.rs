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

/// The longest engine line a driver keeps; the rest of a longer line is
/// read and dropped, so that an engine printing without end cannot fill
/// the driver's memory. No protocol line comes near it.
pub const MAX_ENGINE_LINE: usize = 64 * 1024;

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

/// The reply a `bestmove X ponder Y` line expects, `Y`, or `None` when
/// the line names none (or is no `bestmove`).
pub fn ponder_reply(line: &str) -> Option<&str> {
    let mut words = line.split_whitespace();
    if words.next() != Some("bestmove") {
        return None;
    }
    words.next();
    (words.next() == Some("ponder"))
        .then(|| words.next())
        .flatten()
}

/// The line that tells a pondering engine the opponent played the reply
/// it pondered: its ponder search becomes the timed search of its move.
pub const PONDERHIT: &str = "ponderhit";

/// What an `info string error` line says is wrong, or `None` for any
/// other line.
pub fn engine_error(line: &str) -> Option<&str> {
    line.strip_prefix("info string error")
        .map(|error| error.trim_start_matches(':').trim())
}

/// The score of an `info` line, for the side to move.
///
/// Serialised as `{"cp": 31}` or `{"mate": -2}` for the GUI's page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Score {
    /// An estimate, in centipawns.
    Cp(i64),
    /// A proven result, as UCI counts it: the side to move mates with its
    /// Nth turn from now, or, below 0, is mated on the opponent's Nth.
    Mate(i64),
}

/// What a search line of the engine says, as far as a driver shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Info {
    /// Which of the reported actions the line is, 1 the best (`multipv`;
    /// 1 when the line names none): the lines of one report share a
    /// search, so a driver collects them by this index.
    pub multipv: u32,
    /// The score of the best action for the side to move.
    pub score: Option<Score>,
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

impl Default for Info {
    fn default() -> Info {
        Info {
            multipv: 1,
            score: None,
            wdl: None,
            nodes: 0,
            nps: 0,
            time: 0,
            pv: String::new(),
        }
    }
}

impl Info {
    /// The action the line is about: the first word of its `pv`.
    pub fn action(&self) -> Option<&str> {
        self.pv.split_whitespace().next()
    }

    /// The expected result (0 to 1, a draw counting a half) for the side
    /// to move that the line reports: its `wdl` when it has one, else
    /// its score read back through the curve the engine printed it by
    /// ([`crate::search::score`]), a mate as a win or a loss.
    pub fn expected_result(&self) -> Option<f64> {
        if let Some([w, d, l]) = self.wdl {
            let total = f64::from(w + d + l);
            return (total > 0.0).then(|| (f64::from(w) + 0.5 * f64::from(d)) / total);
        }
        match self.score? {
            Score::Cp(cp) => Some(crate::search::score::expected_of_centipawns(cp as f64)),
            Score::Mate(n) => Some(if n > 0 { 1.0 } else { 0.0 }),
        }
    }

    /// Reads an `info` line of the best action (`multipv 1` or none);
    /// other lines (`info string`, lesser multipv lines) give `None`.
    pub fn parse(line: &str) -> Option<Info> {
        Info::parse_any(line).filter(|info| info.multipv == 1)
    }

    /// Reads an `info` line of any reported action, its rank in
    /// [`Info::multipv`]; `info string` and other lines give `None`.
    pub fn parse_any(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let mut info = Info::default();
        let mut seen = false;
        while let Some(word) = words.next() {
            match word {
                "string" => return None,
                "multipv" => match number(&mut words) {
                    Some(n) if n >= 1 => info.multipv = u32::try_from(n).ok()?,
                    _ => return None,
                },
                // `score cp N` or `score mate N`: the unit word first.
                "score" => {
                    info.score = match words.next() {
                        Some("cp") => number(&mut words).map(Score::Cp),
                        Some("mate") => number(&mut words).map(Score::Mate),
                        _ => None,
                    };
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
        assert_eq!(info.score, Some(Score::Cp(31)));
        assert_eq!(info.wdl, Some([520, 21, 459]));
        assert_eq!((info.nodes, info.nps, info.time), (2000, 3683, 543));
        assert_eq!(info.pv, "0,0-1,0 @");
        assert_eq!(Info::parse("info string playouts/s 3683"), None);
        assert_eq!(Info::parse("info multipv 2 score cp 1 pv @"), None);
        let second = Info::parse_any("info multipv 2 score cp 1 wdl 1 2 3 pv N@1,0 @").unwrap();
        assert_eq!((second.multipv, second.action()), (2, Some("N@1,0")));
        assert_eq!(info.multipv, 1);
        assert_eq!(Info::parse_any("info score cp 1 pv @").unwrap().multipv, 1);
        assert_eq!(Info::parse_any("info multipv 0 score cp 1 pv @"), None);
        assert_eq!(Info::parse_any("info multipv x score cp 1 pv @"), None);
        assert_eq!(Info::parse("bestmove @"), None);
        assert_eq!(Info::parse("info score cp x wdl 1 2"), None);
    }

    /// A proven result comes as `score mate N`, the sign for the side
    /// to move.
    #[test]
    fn mate_scores_are_read() {
        let read = |line: &str| Info::parse(line).unwrap().score;
        let win =
            Info::parse("info multipv 1 score mate 3 wdl 1000 0 0 nodes 40 nps 9 time 4 pv @")
                .unwrap();
        assert_eq!(win.score, Some(Score::Mate(3)));
        assert_eq!(win.wdl, Some([1000, 0, 0]));
        assert_eq!((win.nodes, win.pv.as_str()), (40, "@"));
        let loss = read("info score mate -2 nodes 40 pv 0,0-1,0");
        assert_eq!(loss, Some(Score::Mate(-2)));
        assert_eq!(read("info score mate x nodes 1 pv @"), None);
        assert_eq!(read("info score wdl 1 0 0 nodes 1 pv @"), None);
        // The GUI's page reads the unit as a key.
        let json = |s: Score| serde_json::to_string(&s).unwrap();
        assert_eq!(json(Score::Mate(-2)), r#"{"mate":-2}"#);
        assert_eq!(json(Score::Cp(31)), r#"{"cp":31}"#);
    }

    #[test]
    fn answers_are_read() {
        assert_eq!(bestmove("bestmove N@2,1"), Some("N@2,1"));
        assert_eq!(bestmove("bestmove"), Some(""));
        assert_eq!(bestmove("info string bestmove @"), None);
        assert_eq!(bestmove("bestmove 0,0-1,1 ponder @"), Some("0,0-1,1"));
        assert_eq!(ponder_reply("bestmove 0,0-1,1 ponder @"), Some("@"));
        assert_eq!(ponder_reply("bestmove 0,0-1,1"), None);
        assert_eq!(ponder_reply("bestmove 0,0-1,1 ponder"), None);
        assert_eq!(ponder_reply("info pv 0,0-1,1 ponder @"), None);
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

    #[test]
    fn an_info_line_says_what_it_expects() {
        let expects = |line: &str| Info::parse(line).and_then(|i| i.expected_result());
        assert_eq!(expects("info score cp 0 nodes 5 pv @"), Some(0.5));
        let lead = expects("info score cp 400 nodes 5 pv @").unwrap();
        assert!(
            (lead - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12,
            "{lead}"
        );
        assert_eq!(expects("info score mate 2 nodes 5 pv @"), Some(1.0));
        assert_eq!(expects("info score mate -1 nodes 5 pv @"), Some(0.0));
        // The shares, when the line has them, are what it expects.
        assert_eq!(expects("info score cp 400 wdl 500 200 300 pv @"), Some(0.6));
        assert_eq!(expects("info nodes 5 pv @"), None);
    }
}
