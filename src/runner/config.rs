//! The checked match configuration: the command line turned into a
//! [`Config`] (engines, time control, start, games, files, SPRT), and
//! the layout of a match that every other part relies on: which pair a
//! game is in, who plays White, how a pair is dealt and how a side
//! appears in records.

use super::args::MatchArgs;
use super::engine::EngineSpec;
use super::game::{Judging, Limit};
use super::stats::Sprt;
use crate::referee::{GameRecord, Side};
use crate::rules::Position;
use std::path::PathBuf;

/// A checked match configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Engine 1 and engine 2.
    pub engines: [EngineSpec; 2],
    /// The start position.
    pub start: Position,
    /// The start as records write it.
    pub start_text: String,
    /// Time control.
    pub limit: Limit,
    /// Tolerances.
    pub judging: Judging,
    /// Games in the whole match.
    pub games: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The match seed.
    pub seed: u64,
    /// Play only this pair.
    pub pair: Option<u64>,
    /// The JSON lines record file.
    pub out: Option<PathBuf>,
    /// Continue the match in `out`.
    pub resume: bool,
    /// The text record file.
    pub text: Option<PathBuf>,
    /// The position sample file.
    pub positions: Option<PathBuf>,
    /// Positions sampled per game (0: all).
    pub sample: usize,
    /// The SPRT, if asked for.
    pub sprt: Option<Sprt>,
}

/// Reads `Name=Value` (an `option.` prefix is allowed).
pub(super) fn parse_option(text: &str) -> Result<(String, String), String> {
    let body = text.strip_prefix("option.").unwrap_or(text);
    match body.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("bad engine option '{text}': expected Name=Value")),
    }
}

/// Reads `base+inc` in seconds (`10+0.1`, `60`) into milliseconds.
pub(super) fn parse_tc(text: &str) -> Result<Limit, String> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let seconds = |part: &str| -> Result<u64, String> {
        match part.trim().parse::<f64>() {
            Ok(s) if s.is_finite() && (0.0..1e9).contains(&s) => Ok((s * 1000.0).round() as u64),
            _ => Err(format!(
                "bad --tc '{text}': expected base+increment in seconds, e.g. 10+0.1"
            )),
        }
    };
    let base_ms = seconds(base)?;
    if base_ms == 0 {
        return Err(format!("bad --tc '{text}': the base time must be positive"));
    }
    Ok(Limit::Clock {
        base_ms,
        inc_ms: seconds(inc)?,
    })
}

/// The p-th output of SplitMix64 started at `seed`: the deal seed of
/// pair `p`. Neighbouring match seeds give unrelated deals.
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    let mut z = seed.wrapping_add((pair + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A default name: the program's file name, then its options.
fn default_name(command: &str, options: &[(String, String)]) -> String {
    let program = command.split_whitespace().next().unwrap_or("engine");
    let mut name = program.rsplit('/').next().unwrap_or(program).to_string();
    if !options.is_empty() {
        let shown: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        name.push_str(&format!(" [{}]", shown.join(",")));
    }
    name
}

impl MatchArgs {
    /// Checks the command line and fills in defaults.
    pub fn config(self) -> Result<Config, String> {
        let this = std::env::current_exe()
            .map_err(|e| format!("cannot find this binary: {e}"))?
            .to_string_lossy()
            .into_owned();
        let quote = |path: &str| format!("'{}'", path.replace('\'', r"'\''"));
        let mut specs = Vec::new();
        for (command, options, name, ponder) in [
            (self.engine1, self.option1, self.name1, self.ponder1),
            (self.engine2, self.option2, self.name2, self.ponder2),
        ] {
            let command = command.unwrap_or_else(|| quote(&this));
            if command.trim().is_empty() {
                return Err("an engine command is empty".into());
            }
            let mut options = options
                .iter()
                .map(|o| parse_option(o))
                .collect::<Result<Vec<_>, _>>()?;
            // Pondering is the engine's Ponder option, set last so that it
            // wins over an --option saying otherwise.
            if ponder || self.ponder {
                options.retain(|(n, _)| !n.eq_ignore_ascii_case("Ponder"));
                options.push(("Ponder".to_string(), "true".to_string()));
            }
            let name = name.unwrap_or_else(|| {
                let bare = command.trim_matches('\'');
                default_name(bare, &options)
            });
            specs.push(EngineSpec {
                name,
                command,
                options,
            });
        }
        if specs[0].name == specs[1].name {
            specs[0].name.push_str(" #1");
            specs[1].name.push_str(" #2");
        }
        let limit = match (&self.tc, self.movetime, self.nodes) {
            (Some(tc), _, _) => parse_tc(tc)?,
            (_, Some(0), _) => return Err("--movetime must be at least 1".into()),
            (_, Some(ms), _) => Limit::MoveTime(ms),
            (_, _, Some(0)) => return Err("--nodes must be at least 1".into()),
            (_, _, Some(n)) => Limit::Nodes(n),
            _ => {
                return Err(
                    "choose a time control: --tc BASE+INC, --movetime MS or --nodes N".into(),
                )
            }
        };
        let sprt = if self.sprt {
            Some(Sprt::new(self.elo0, self.elo1, self.alpha, self.beta)?)
        } else {
            None
        };
        let games = match (self.games, self.pairs) {
            (Some(g), _) => g,
            (None, Some(p)) => p.saturating_mul(2),
            (None, None) if sprt.is_some() => 20_000,
            (None, None) => 100,
        };
        if games == 0 {
            return Err("nothing to play: --games/--pairs must be at least 1".into());
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        if let Some(pair) = self.pair {
            if pair >= games.div_ceil(2) {
                return Err(format!(
                    "--pair {pair} is outside this match's {} pairs (they count from 0)",
                    games.div_ceil(2)
                ));
            }
        }
        let (start, start_text) = if self.start == "startpos" {
            (Position::startpos(), "startpos".to_string())
        } else {
            let p: Position = self
                .start
                .parse()
                .map_err(|e| format!("bad --start: {e}"))?;
            let text = p.to_string();
            (p, text)
        };
        if let Some(end) = start.ending() {
            return Err(format!("bad --start: the game is already over ({end})"));
        }
        Ok(Config {
            engines: [specs[0].clone(), specs[1].clone()],
            start,
            start_text,
            limit,
            judging: Judging {
                margin_ms: self.timemargin,
                silence_ms: self.silence.max(1),
            },
            games,
            concurrency: self.concurrency,
            seed: self.seed,
            pair: self.pair,
            out: self.out,
            resume: self.resume,
            text: self.text,
            positions: self.positions,
            sample: self.sample,
            sprt,
        })
    }
}

impl Config {
    /// Whether engine 1 plays White in game `game` (from 1): the first
    /// game of each pair.
    pub fn engine1_white(game: u64) -> bool {
        (game - 1).is_multiple_of(2)
    }

    /// The pair of game `game` (from 1), from 0.
    pub fn pair_of(game: u64) -> u64 {
        (game - 1) / 2
    }

    /// How a side appears in records.
    fn side(&self, engine: usize) -> Side {
        let spec = &self.engines[engine];
        Side {
            name: spec.name.clone(),
            command: spec.command.clone(),
            options: spec.options.iter().cloned().collect(),
        }
    }

    /// White's and Black's record sides in game `game`.
    pub(super) fn sides(&self, game: u64) -> [Side; 2] {
        if Config::engine1_white(game) {
            [self.side(0), self.side(1)]
        } else {
            [self.side(1), self.side(0)]
        }
    }

    /// Checks that a record from the --out file belongs to this match.
    pub(super) fn check_record(&self, record: &GameRecord) -> Result<(), String> {
        let g = record.game;
        if g == 0 || g > self.games {
            return Err(format!(
                "game {g} is outside this match's {} games",
                self.games
            ));
        }
        let seed = pair_seed(self.seed, Config::pair_of(g));
        let [white, black] = self.sides(g);
        let differs = if record.seed != Some(seed) {
            Some("the seed (--seed)")
        } else if record.start != self.start_text {
            Some("the start (--start)")
        } else if record.tc != self.limit.describe() {
            Some("the time control")
        } else if record.white != white || record.black != black {
            Some("the engines, their names or options")
        } else {
            None
        };
        match differs {
            Some(what) => Err(format!(
                "game {g} was played with different settings: {what}"
            )),
            None => Ok(()),
        }
    }

    /// Engine 1's score in a finished record.
    pub(super) fn engine1_score(record: &GameRecord) -> Result<f64, String> {
        let white = record
            .white_score()
            .ok_or_else(|| format!("game {} has no result", record.game))?;
        Ok(if Config::engine1_white(record.game) {
            white
        } else {
            1.0 - white
        })
    }

    /// A title line for the match.
    pub(super) fn title(&self) -> String {
        format!(
            "{} vs {}, {}, seed {}",
            self.engines[0].name,
            self.engines[1].name,
            self.limit.describe(),
            self.seed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn options_and_time_controls_parse_or_say_why() {
        assert_eq!(
            parse_option("option.Threads=2"),
            Ok(("Threads".into(), "2".into()))
        );
        assert_eq!(
            parse_option("Player=random"),
            Ok(("Player".into(), "random".into()))
        );
        assert!(parse_option("Threads").is_err());
        assert!(parse_option("=2").is_err());
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            parse_tc("60"),
            Ok(Limit::Clock {
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        for bad in ["", "x+1", "10+y", "-5+1", "0+1", "inf"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_tc("2.5+0.05").map(|l| l.describe()),
            Ok("tc 2.5+0.05".into())
        );
    }

    #[test]
    fn pairs_share_a_deal_seed_and_swap_colours() {
        assert!(Config::engine1_white(1));
        assert!(!Config::engine1_white(2));
        assert_eq!(Config::pair_of(1), Config::pair_of(2));
        assert_ne!(Config::pair_of(2), Config::pair_of(3));
        let seeds: BTreeSet<u64> = (0..100).map(|p| pair_seed(1, p)).collect();
        assert_eq!(seeds.len(), 100);
        assert_ne!(pair_seed(1, 0), pair_seed(2, 0));
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
    }

    #[test]
    fn default_names_tell_the_engines_apart() {
        assert_eq!(default_name("/a/b/chex", &[]), "chex");
        assert_eq!(
            default_name("chex --x", &[("Player".into(), "random".into())]),
            "chex [Player=random]"
        );
    }
}
