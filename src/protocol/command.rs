//! Parsing one line of the protocol into a [`Command`]; nothing here acts.

use crate::rules::clip;
use crate::search::Limits;

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position.
    StartPos,
    /// A position string (RULES.md section 7).
    Fen(String),
}

/// One command of the protocol (see protocol.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `isready`: answered with `readyok` at once.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its new value.
        value: Option<String>,
    },
    /// `ucinewgame`: forget the game.
    NewGame,
    /// `position startpos|fen <string> [moves <m1> …]`.
    Position {
        /// Where the game starts.
        start: Start,
        /// The moves since, as written.
        moves: Vec<String>,
    },
    /// `go …`: search and answer `bestmove`.
    Go {
        /// When to stop.
        limits: Limits,
        /// The actions to choose from, as written after `searchmoves`
        /// (all when empty).
        searchmoves: Vec<String>,
        /// `go ponder`: search on the opponent's time until `ponderhit`
        /// or `stop`; the limits count from `ponderhit`.
        ponder: bool,
    },
    /// `ponderhit`: the opponent played the reply pondered on; the ponder
    /// search becomes the timed search of the move.
    PonderHit,
    /// `stop`: end the search now.
    Stop,
    /// `quit`: exit.
    Quit,
    /// `d`: draw the table and say everything about the position.
    Display,
    /// `moves`: the choices `go` picks from.
    Moves,
    /// `eval`: the static evaluation taken apart.
    Eval,
    /// `perft <depth>`.
    Perft(u32),
    /// `bench`.
    Bench,
    /// `status`: whether and how the game has ended.
    Status,
}

/// The deepest `perft` the protocol runs: deeper ones take hours.
pub const MAX_PERFT_DEPTH: u32 = 8;

/// Reads one line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let bare = |command: Command| {
        if rest.is_empty() {
            Ok(Some(command))
        } else {
            Err(format!("'{head}' takes no arguments"))
        }
    };
    match head {
        "uci" => bare(Command::Uci),
        "isready" => bare(Command::IsReady),
        "ucinewgame" => bare(Command::NewGame),
        "stop" => bare(Command::Stop),
        "ponderhit" => bare(Command::PonderHit),
        "quit" => bare(Command::Quit),
        "d" => bare(Command::Display),
        "moves" => bare(Command::Moves),
        "eval" => bare(Command::Eval),
        "bench" => bare(Command::Bench),
        "status" => bare(Command::Status),
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(Some),
        "perft" => match rest[..] {
            [depth] => match depth.parse::<u32>() {
                Ok(d) if (1..=MAX_PERFT_DEPTH).contains(&d) => Ok(Some(Command::Perft(d))),
                _ => Err(format!(
                    "perft takes a depth from 1 to {MAX_PERFT_DEPTH}, not '{depth}'"
                )),
            },
            _ => Err("usage: perft <depth>".into()),
        },
        _ => Err(format!("unknown command '{}'", clip(head))),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    let usage = "usage: setoption name <name> [value <value>]";
    if words.first() != Some(&"name") {
        return Err(usage.into());
    }
    let words = &words[1..];
    let split = words.iter().position(|&w| w == "value");
    let (name, value) = match split {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name.is_empty() {
        return Err(usage.into());
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let usage = "usage: position startpos|fen <position string> [moves <move> ...]";
    let split = words.iter().position(|&w| w == "moves");
    let (head, moves) = match split {
        Some(i) => (&words[..i], words[i + 1..].to_vec()),
        None => (words, Vec::new()),
    };
    let start = match head {
        ["startpos"] => Start::StartPos,
        ["fen", fields @ ..] if !fields.is_empty() => Start::Fen(fields.join(" ")),
        _ => return Err(usage.into()),
    };
    Ok(Command::Position {
        start,
        moves: moves.into_iter().map(String::from).collect(),
    })
}

/// The words of `go` that start a limit, or end a `searchmoves` list.
const GO_WORDS: [&str; 11] = [
    "infinite",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "nodes",
    "depth",
    "searchmoves",
    "ponder",
];

fn parse_go(words: &[&str]) -> Result<Command, String> {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut ponder = false;
    let mut words = words.iter().peekable();
    while let Some(&word) = words.next() {
        let slot = match word {
            "infinite" => {
                limits.infinite = true;
                continue;
            }
            "ponder" => {
                ponder = true;
                continue;
            }
            "searchmoves" => {
                while let Some(&&action) = words.peek().filter(|w| !GO_WORDS.contains(w)) {
                    searchmoves.push(action.to_string());
                    words.next();
                }
                if searchmoves.is_empty() {
                    return Err("go: 'searchmoves' needs at least one action".into());
                }
                continue;
            }
            "wtime" => &mut limits.wtime,
            "btime" => &mut limits.btime,
            "winc" => &mut limits.winc,
            "binc" => &mut limits.binc,
            "movestogo" => &mut limits.movestogo,
            "movetime" => &mut limits.movetime,
            "nodes" => &mut limits.nodes,
            "depth" => &mut limits.depth,
            _ => return Err(format!("go: unknown limit '{}'", clip(word))),
        };
        let value = words
            .next()
            .ok_or_else(|| format!("go: '{word}' needs a value"))?;
        let n: u64 = value.parse().map_err(|_| {
            format!(
                "go: '{word}' takes a whole number of at least 0, not '{}'",
                clip(value)
            )
        })?;
        if word == "movestogo" && n == 0 {
            return Err("go: movestogo must be at least 1".into());
        }
        if word == "nodes" && n == 0 {
            return Err("go: nodes must be at least 1".into());
        }
        if word == "depth" && n == 0 {
            return Err("go: depth must be at least 1".into());
        }
        *slot = Some(n);
    }
    Ok(Command::Go {
        limits,
        searchmoves,
        ponder,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        assert_eq!(parse("  ").unwrap(), None);
        assert_eq!(parse("uci").unwrap(), Some(Command::Uci));
        assert_eq!(
            parse("setoption name UCI_ShowWDL value true").unwrap(),
            Some(Command::SetOption {
                name: "UCI_ShowWDL".into(),
                value: Some("true".into())
            })
        );
        assert_eq!(
            parse("position fen - w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1 moves Q@0,0 p@").unwrap(),
            Some(Command::Position {
                start: Start::Fen("- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1".into()),
                moves: vec!["Q@0,0".into(), "p@".into()],
            })
        );
        let Some(Command::Go {
            limits: l,
            searchmoves,
            ponder: false,
        }) = parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5").unwrap()
        else {
            panic!()
        };
        assert_eq!(
            (l.wtime, l.btime, l.winc, l.binc, l.movestogo),
            (Some(1000), Some(2000), Some(10), Some(20), Some(5))
        );
        assert!(searchmoves.is_empty());
        let Some(Command::Go {
            limits: l,
            searchmoves,
            ponder: false,
        }) = parse("go searchmoves @ N@0,1 0,0-1,1 nodes 2000").unwrap()
        else {
            panic!()
        };
        assert_eq!(searchmoves, ["@", "N@0,1", "0,0-1,1"]);
        assert_eq!(l.nodes, Some(2000));
        let Some(Command::Go {
            limits: l,
            searchmoves,
            ponder: true,
        }) = parse("go searchmoves @ ponder movetime 50").unwrap()
        else {
            panic!()
        };
        assert_eq!((searchmoves.len(), l.movetime), (1, Some(50)));
        assert_eq!(parse("ponderhit").unwrap(), Some(Command::PonderHit));
        assert_eq!(parse("perft 3").unwrap(), Some(Command::Perft(3)));
    }

    #[test]
    fn errors() {
        for bad in [
            "ucii",
            "uci now",
            "ponderhit now",
            "go wtime -5",
            "go movetime",
            "go nodes 0",
            "go depth 0",
            "go depth deep",
            "go sideways",
            "go searchmoves",
            "go searchmoves nodes 5",
            "position",
            "position fen",
            "position startpos 1,1",
            "setoption Threads 2",
            "setoption name",
            "perft",
            "perft 0",
            "perft 99",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
