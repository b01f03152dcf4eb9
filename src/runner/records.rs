//! Reading a records file back: for `--resume`, for `--stats` (the table
//! of a finished or running match, from its records alone) and for
//! `--stats --follow` (the statistics of a match whose records arrive
//! one by one, as `tools/cluster-match` sends them). Every record must
//! belong to one match: the first one read names the match (its engines,
//! time control, start and seed) unless the caller already knows it.

use super::config::{parse_tc, Config};
use super::engine::EngineSpec;
use super::game::Judging;
use super::game::Limit;
use super::stats::{Sprt, Tally};
use crate::referee::{GameRecord, Side};
use crate::rules::Position;
use std::collections::BTreeSet;
use std::path::Path;

/// What ends a records file after its last newline.
pub enum Tail {
    /// Nothing, or only blanks.
    Clean,
    /// A whole record without its newline (where it is, and it).
    Whole(String, Box<GameRecord>),
    /// A line cut off while it was written: where it is, the length of
    /// the file without it, and its own length.
    Torn {
        /// The line, for messages.
        at: String,
        /// The bytes of the file before it.
        keep: u64,
        /// Its length in bytes.
        len: usize,
    },
}

/// Splits a records file into its records, each with where it is for
/// messages (`FILE line N`), and its tail. Every complete line must be a
/// record or blank.
pub fn parse_lines(path: &Path, bytes: &[u8]) -> Result<(Vec<(String, GameRecord)>, Tail), String> {
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let (body, tail) = bytes.split_at(complete);
    let mut records = Vec::new();
    // `body` ends with its newline, so the last piece is empty and its
    // number is the tail's.
    let mut count = 1;
    for (i, line) in body.split(|&b| b == b'\n').enumerate() {
        count = i + 1;
        let at = format!("{} line {}", path.display(), i + 1);
        let line = std::str::from_utf8(line).map_err(|_| format!("{at}: not UTF-8"))?;
        if line.trim().is_empty() {
            continue;
        }
        let record = GameRecord::from_json_line(line).map_err(|e| format!("{at}: {e}"))?;
        records.push((at, record));
    }
    if tail.iter().all(u8::is_ascii_whitespace) {
        return Ok((records, Tail::Clean));
    }
    let at = format!("{} line {count}", path.display());
    let whole = std::str::from_utf8(tail)
        .ok()
        .and_then(|t| GameRecord::from_json_line(t).ok());
    Ok((
        records,
        match whole {
            Some(record) => Tail::Whole(at, Box::new(record)),
            None => Tail::Torn {
                at,
                keep: complete as u64,
                len: tail.len(),
            },
        },
    ))
}

/// Inverts [`super::pair_seed`]: the match seed whose pair `pair` is
/// dealt from `deal_seed`. Records keep only the deal seed, and SplitMix64
/// is a bijection, so the match seed can be read back from any record.
pub fn match_seed(deal_seed: u64, pair: u64) -> u64 {
    /// Undoes `x ^ (x >> shift)`: each pass fixes `shift` more bits.
    fn unshift(y: u64, shift: u32) -> u64 {
        let mut x = y;
        for _ in 0..64 / shift + 1 {
            x = y ^ (x >> shift);
        }
        x
    }
    /// The inverse of an odd number modulo 2^64 (Newton's iteration
    /// doubles the correct low bits from 3).
    fn inverse(c: u64) -> u64 {
        let mut x = c;
        for _ in 0..5 {
            x = x.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(x)));
        }
        x
    }
    let mut z = unshift(deal_seed, 31);
    z = unshift(z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB)), 27);
    z = unshift(z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9)), 30);
    z.wrapping_sub((pair + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Reads a time control as records write it ([`Limit::describe`]).
fn parse_limit(text: &str) -> Result<Limit, String> {
    let number = |n: &str| n.trim().parse::<u64>().ok().filter(|&n| n > 0);
    let limit = match text.split_once(' ') {
        Some(("tc", tc)) => parse_tc(tc).ok(),
        Some(("movetime", ms)) => number(ms).map(Limit::MoveTime),
        Some(("nodes", n)) => number(n).map(Limit::Nodes),
        _ => None,
    };
    limit.ok_or_else(|| format!("unknown time control '{text}'"))
}

/// The match a record belongs to, as far as records tell: its engines,
/// time control, start and seed. Judging and concurrency are not
/// recorded and do not matter to the statistics.
fn config_from_record(
    record: &GameRecord,
    games: u64,
    sprt: Option<Sprt>,
) -> Result<Config, String> {
    let g = record.game;
    if g == 0 {
        return Err("game 0: records number their games from 1".into());
    }
    let deal_seed = record
        .seed
        .ok_or_else(|| format!("game {g} has no deal seed: not a record of chex match"))?;
    let (one, two) = if Config::engine1_white(g) {
        (&record.white, &record.black)
    } else {
        (&record.black, &record.white)
    };
    let spec = |side: &Side| EngineSpec {
        name: side.name.clone(),
        command: side.command.clone(),
        options: side
            .options
            .iter()
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect(),
    };
    let start = if record.start == "startpos" {
        Position::startpos()
    } else {
        record
            .start
            .parse()
            .map_err(|e| format!("game {g}: bad start: {e}"))?
    };
    Ok(Config {
        engines: [spec(one), spec(two)],
        start,
        start_text: record.start.clone(),
        limit: parse_limit(&record.tc).map_err(|e| format!("game {g}: {e}"))?,
        judging: Judging {
            margin_ms: 0,
            silence_ms: 1,
        },
        games,
        concurrency: 1,
        seed: match_seed(deal_seed, Config::pair_of(g)),
        pair: None,
        out: None,
        resume: false,
        text: None,
        positions: None,
        sample: 0,
        sprt,
    })
}

/// Counts the records of one match, refusing a record of another match,
/// an unfinished game and a game recorded twice.
pub struct Counter {
    /// The match; from the first record when not known beforehand.
    config: Option<Config>,
    /// The match's size when known beforehand.
    games: Option<u64>,
    /// The SPRT to judge the counts by.
    sprt: Option<Sprt>,
    /// The counts so far.
    pub tally: Tally,
    seen: BTreeSet<u64>,
}

impl Counter {
    /// Counts records of the match `config`.
    pub fn of(config: &Config) -> Counter {
        Counter {
            config: Some(config.clone()),
            games: Some(config.games),
            sprt: config.sprt,
            tally: Tally::default(),
            seen: BTreeSet::new(),
        }
    }

    /// Counts records of whatever match the first one belongs to, of
    /// `games` games if known, judged by `sprt`.
    pub fn inferring(games: Option<u64>, sprt: Option<Sprt>) -> Counter {
        Counter {
            config: None,
            games,
            sprt,
            tally: Tally::default(),
            seen: BTreeSet::new(),
        }
    }

    /// Counts one record; `at` says where it came from in messages.
    pub fn add(&mut self, at: &str, record: &GameRecord) -> Result<(), String> {
        let config = match &self.config {
            Some(c) => c,
            None => {
                let games = self.games.unwrap_or(u64::MAX);
                let c = config_from_record(record, games, self.sprt)
                    .map_err(|e| format!("{at}: {e}"))?;
                self.config.insert(c)
            }
        };
        config
            .check_record(record)
            .map_err(|e| format!("{at}: {e}"))?;
        let score = Config::engine1_score(record).map_err(|e| format!("{at}: {e}"))?;
        if !self.seen.insert(record.game) {
            return Err(format!("{at}: game {} is recorded twice", record.game));
        }
        self.tally
            .add(Config::pair_of(record.game), score, &record.ending);
        Ok(())
    }

    /// The match counted, once a record has been: its size is the one
    /// given, or else the pairs the records reach.
    pub fn config(&self) -> Option<Config> {
        let mut config = self.config.clone()?;
        if self.games.is_none() {
            let last = self.seen.last().copied().unwrap_or(0);
            config.games = last.div_ceil(2) * 2;
        }
        Some(config)
    }

    /// The games counted.
    pub fn games(&self) -> &BTreeSet<u64> {
        &self.seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::pair_seed;

    #[test]
    fn the_match_seed_is_read_back_from_a_deal_seed() {
        for seed in [0, 1, 7, 42, u64::MAX, 0x0123_4567_89AB_CDEF] {
            for pair in [0, 1, 99, 12_345] {
                assert_eq!(match_seed(pair_seed(seed, pair), pair), seed);
            }
        }
    }

    #[test]
    fn time_controls_read_back_as_written() {
        for limit in [
            Limit::Nodes(200),
            Limit::MoveTime(100),
            Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            },
            Limit::Clock {
                base_ms: 2_500,
                inc_ms: 0,
            },
        ] {
            assert_eq!(parse_limit(&limit.describe()), Ok(limit));
        }
        for bad in ["", "nodes", "nodes 0", "nodes x", "depth 3", "tc x"] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }
}
