//! Where a match's records go as games finish: the JSON lines file
//! (--out), the text records (--text) and the position samples
//! (--positions), each written so that an interruption tears at most
//! the last line.

use super::config::Config;
use super::resume::keep_samples;
use crate::referee::GameRecord;
use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;

/// Where records are written as games finish.
pub(super) struct Sinks {
    out: Option<File>,
    text: Option<File>,
    positions: Option<File>,
}

impl Sinks {
    /// Opens the files of a new match, refusing to write over records or
    /// samples, or those of a resumed one, whose games are `done`.
    pub(super) fn open(config: &Config, done: &BTreeSet<u64>) -> Result<Sinks, String> {
        let open = |path: &PathBuf| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        let fresh = |path: &PathBuf, what: &str| {
            let used = std::fs::metadata(path)
                .map(|m| m.len() > 0)
                .unwrap_or(false);
            if used && !config.resume {
                return Err(format!(
                    "{} already holds {what}: add --resume to continue that match, or choose another file",
                    path.display()
                ));
            }
            open(path)
        };
        let out = match &config.out {
            Some(path) => Some(fresh(path, "records")?),
            None => None,
        };
        let positions = match &config.positions {
            Some(path) => {
                if config.resume {
                    keep_samples(path, done)?;
                }
                Some(fresh(path, "position samples")?)
            }
            None => None,
        };
        // A new match starts a new text file; a resumed one adds to it.
        let text = match &config.text {
            Some(path) if !config.resume => Some(
                File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            Some(path) => Some(open(path)?),
            None => None,
        };
        Ok(Sinks {
            out,
            text,
            positions,
        })
    }

    /// Writes each record with its newline in one write and syncs it, so
    /// that an interrupted match leaves at most its last line torn, which
    /// `--resume` repairs.
    pub(super) fn write(&mut self, config: &Config, record: &GameRecord) -> Result<(), String> {
        let put = |file: &mut File, path: &PathBuf, text: String| {
            file.write_all(text.as_bytes())
                .and_then(|()| file.sync_data())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        // Samples first: a game whose record is written has its samples,
        // and --resume drops the samples of a game without a record.
        if let (Some(file), Some(path)) = (&mut self.positions, &config.positions) {
            let samples = record
                .sample_positions(config.sample)
                .map_err(|e| format!("cannot sample game {}: {e}", record.game))?;
            let lines: String = samples
                .iter()
                .map(|s| format!("{}\n", s.to_json_line()))
                .collect();
            put(file, path, lines)?;
        }
        if let (Some(file), Some(path)) = (&mut self.out, &config.out) {
            put(file, path, format!("{}\n", record.to_json_line()))?;
        }
        if let (Some(file), Some(path)) = (&mut self.text, &config.text) {
            put(file, path, format!("{}\n", record.to_text()))?;
        }
        Ok(())
    }
}
