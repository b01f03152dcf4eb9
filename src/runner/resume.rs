//! Picking up an interrupted match (`--resume`): the records already
//! in --out are read back and checked, a torn last line is repaired, and
//! the position samples of games without a record are dropped.

use super::config::Config;
use super::records::{self, Counter, Tail};
use crate::referee::PositionSample;
use std::collections::BTreeSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

/// Reads the records of an interrupted match, refusing anything that is
/// not a record of it. A last line without its newline was being written
/// when the match stopped: a whole record there gets its newline back, a
/// torn one is cut off the file (its game is played again), each with a
/// warning on stderr; every line before it must be a record.
pub(super) fn read_records(config: &Config, path: &Path) -> Result<Counter, String> {
    let mut counter = Counter::of(config);
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(counter),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let (records, tail) = records::parse_lines(path, &bytes)?;
    for (at, record) in &records {
        counter.add(at, record)?;
    }
    let repair = || OpenOptions::new().append(true).open(path);
    match tail {
        Tail::Clean => {}
        Tail::Whole(at, record) => {
            counter.add(&at, &record)?;
            repair()
                .and_then(|mut f| f.write_all(b"\n"))
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            eprintln!("warning: {at}: the last record had no newline; added it");
        }
        Tail::Torn { at, keep, len } => {
            repair()
                .and_then(|f| f.set_len(keep))
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
            eprintln!(
                "warning: {at}: dropped an unfinished last line ({len} bytes); its game is played again"
            );
        }
    }
    Ok(counter)
}

/// Keeps in a position sample file only the samples of `games`: a match
/// writes a game's samples before its record, so after an interruption
/// the samples of a game without a record are dropped (the game is
/// played again) and no game's samples are written twice.
pub(super) fn keep_samples(path: &Path, games: &BTreeSet<u64>) -> Result<(), String> {
    let text = match std::fs::read(path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    let mut kept = String::new();
    let mut dropped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match PositionSample::from_json_line(line) {
            Ok(sample) if games.contains(&sample.game) => {
                kept.push_str(line);
                kept.push('\n');
            }
            _ => dropped += 1,
        }
    }
    if dropped > 0 {
        let fresh = path.with_extension("resume-tmp");
        std::fs::write(&fresh, kept)
            .and_then(|()| std::fs::rename(&fresh, path))
            .map_err(|e| format!("cannot rewrite {}: {e}", path.display()))?;
        eprintln!(
            "warning: {}: dropped {dropped} samples of games not recorded; they are sampled again",
            path.display()
        );
    }
    Ok(())
}
