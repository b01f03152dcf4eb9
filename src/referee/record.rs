//! Game records: one line of JSON per game, as the match runner writes
//! them and the GUI saves and loads them, and a text form for people.

use super::{Deal, Referee};
use crate::rules::{score_of, white_points, Colour, Position, UNFINISHED_SCORE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// One engine of a game as the record names it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// A short name for tables ("chex", "random", "human").
    pub name: String,
    /// The command that ran it, empty for a person.
    #[serde(default)]
    pub command: String,
    /// The options set on it with `setoption`.
    #[serde(default)]
    pub options: BTreeMap<String, String>,
}

/// A game as recorded: enough to replay it exactly and to know why it
/// ended. Written as one line of JSON (see protocol.md, "Game records").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its match, from 1.
    #[serde(default)]
    pub game: u64,
    /// The seed the deal came from, when it came from one.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The start: `startpos` or a position string.
    pub start: String,
    /// The order of both piles (see [`Deal`]). Empty, and not written,
    /// in a game saved while it is played (the GUI's "Save game"): the
    /// order of the tiles to come is hidden information, and the deal is
    /// then the one `seed` gives.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deal: String,
    /// Who played White.
    pub white: Side,
    /// Who played Black.
    pub black: Side,
    /// The moves in protocol.md's notation (placements as `N@x,y`), with a
    /// last `N@` when the game ended with a drawn tile not placed.
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for a game not finished.
    pub result: String,
    /// Why the game ended, in words.
    #[serde(default)]
    pub reason: String,
    /// Why the game ended, as one word for counting: an ending of the
    /// rules as `status` names it (`checkmate`, `repetition`, …), or a
    /// forfeit (`illegal`, `time`, `silent`, `crash`). Empty while playing.
    #[serde(default)]
    pub ending: String,
    /// The time control the game was played at, as the runner writes it
    /// (`tc 10+0.1`, `movetime 100`, `nodes 1000`); empty when untimed.
    #[serde(default)]
    pub tc: String,
    /// How long each move took to answer, in milliseconds, one per entry
    /// of `moves` (a draw's two answers added together).
    #[serde(default)]
    pub times_ms: Vec<u64>,
    /// Each answer's time, in milliseconds: one list per entry of
    /// `moves`, with one answer for a move and two for a draw turn (`@`,
    /// then the placement), so that a record shows which answer was slow.
    /// An answer the referee refused is timed too; one that never came is
    /// not. Empty when not timed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub answers_ms: Vec<Vec<u64>>,
    /// What the mover's search expected for itself (0 to 1, a draw
    /// counting a half) where each entry of `moves` began, from its last
    /// `info` line before its answer: `null` where it said nothing. The
    /// search's own value of the positions, beside the game's result,
    /// for training an evaluation. Empty when not recorded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Option<f64>>,
}

/// A record that cannot be read or replayed.
#[derive(Debug)]
pub enum RecordError {
    /// Not a JSON game record.
    Json(String),
    /// The start or the deal is bad.
    Setup(String),
    /// Move `index` (from 1) is refused on this deal.
    Move {
        /// The move's number in the list, from 1.
        index: usize,
        /// Why the referee refused it.
        why: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Json(e) => write!(f, "not a game record: {e}"),
            RecordError::Setup(e) => write!(f, "bad game record: {e}"),
            RecordError::Move { index, why } => write!(f, "bad game record: move {index}: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl GameRecord {
    /// The record of `referee`'s game so far. A game lost by a rule
    /// outside the table (time, an illegal answer, a crash) is marked with
    /// [`GameRecord::forfeit`].
    pub fn from_referee(referee: &Referee, white: Side, black: Side) -> GameRecord {
        let start = if *referee.start() == Position::startpos() {
            "startpos".to_string()
        } else {
            referee.start().to_string()
        };
        GameRecord {
            game: 0,
            seed: None,
            start,
            deal: referee.deal().to_string(),
            white,
            black,
            moves: referee.tokens(),
            result: referee
                .ending()
                .map_or(UNFINISHED_SCORE, |end| end.score())
                .into(),
            reason: referee.ending().map(|e| e.to_string()).unwrap_or_default(),
            ending: referee
                .ending()
                .map(|e| e.ending.word().to_string())
                .unwrap_or_default(),
            tc: String::new(),
            times_ms: Vec::new(),
            answers_ms: Vec::new(),
            values: Vec::new(),
        }
    }

    /// Marks the game lost by `loser` for `reason` (time, illegal move,
    /// crash).
    pub fn forfeit(&mut self, loser: Colour, reason: String) {
        self.forfeit_for(loser, "forfeit", reason);
    }

    /// Marks the game lost by `loser`, with `ending` the one word that
    /// tables count (`illegal`, `time`, `silent`, `crash`) and `reason`
    /// the sentence for people.
    pub fn forfeit_for(&mut self, loser: Colour, ending: &str, reason: String) {
        self.result = score_of(Some(loser.opposite())).into();
        self.ending = ending.into();
        self.reason = reason;
    }

    /// The score of White: 1, ½ or 0; `None` for a game not finished or
    /// a result that is not one of the four tags.
    pub fn white_score(&self) -> Option<f64> {
        white_points(&self.result)
    }

    /// The record as one line of JSON.
    pub fn to_json_line(&self) -> String {
        // A struct of strings, numbers and maps always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads one line of JSON.
    pub fn from_json_line(line: &str) -> Result<GameRecord, RecordError> {
        serde_json::from_str(line).map_err(|e| RecordError::Json(e.to_string()))
    }

    /// The position the game started from.
    pub fn start_position(&self) -> Result<Position, RecordError> {
        if self.start == "startpos" {
            Ok(Position::startpos())
        } else {
            self.start
                .parse()
                .map_err(|e| RecordError::Setup(format!("{e}")))
        }
    }

    /// Replays the record on its deal with the rules core, refusing any
    /// move the referee would have refused. A record without its deal is
    /// dealt from its seed.
    pub fn referee(&self) -> Result<Referee, RecordError> {
        let start = self.start_position()?;
        let deal: Deal = match (self.deal.is_empty(), self.seed) {
            (true, Some(seed)) => Deal::from_seed(&start, seed),
            (true, None) => {
                return Err(RecordError::Setup(
                    "no deal, and no seed to deal from".into(),
                ))
            }
            (false, _) => self
                .deal
                .parse()
                .map_err(|e| RecordError::Setup(format!("{e}")))?,
        };
        let mut referee =
            Referee::new(start, deal).map_err(|e| RecordError::Setup(e.to_string()))?;
        for (i, token) in self.moves.iter().enumerate() {
            referee.replay(&[token]).map_err(|e| RecordError::Move {
                index: i + 1,
                why: e.to_string(),
            })?;
        }
        Ok(referee)
    }

    /// The record in its text form, for people: tag lines, then the
    /// numbered moves and the result (see protocol.md, "Game records").
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", value.replace('"', "'")))
        };
        tag("Game", &self.game.to_string());
        tag("White", &self.white.name);
        tag("Black", &self.black.name);
        if let Some(seed) = self.seed {
            tag("Seed", &seed.to_string());
        }
        tag("Start", &self.start);
        tag("Deal", &self.deal);
        if !self.tc.is_empty() {
            tag("TimeControl", &self.tc);
        }
        tag("Result", &self.result);
        tag("Ending", &self.ending);
        tag("Reason", &self.reason);
        out.push('\n');
        let black_first = self.start != "startpos" && self.start.split(' ').nth(1) == Some("b");
        let mut line = String::new();
        for (i, mv) in self.moves.iter().enumerate() {
            let ply = i + usize::from(black_first);
            if ply % 2 == 0 {
                line.push_str(&format!("{}. ", ply / 2 + 1));
            } else if i == 0 {
                line.push_str("1... ");
            }
            line.push_str(mv);
            line.push(' ');
        }
        line.push_str(&self.result);
        out.push_str(&line);
        out.push('\n');
        out
    }
}
