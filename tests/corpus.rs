//! The self-play corpus (`data/selfplay/`, README "The self-play corpus")
//! is committed data that later training trusts without looking: a shard
//! that was changed, dropped, listed twice or written by another rules core
//! would bias every net trained from it without a sign. These tests check
//! it where it lies, and check the checker on a small corpus made the way
//! `tools/selfplay stop` makes one.

use chex::referee::GameRecord;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The endings of RULES.md, as records name them: only these are the rules
/// core's to judge (a forfeit is the runner's).
const RULES_ENDINGS: [&str; 6] = [
    "checkmate",
    "stalemate",
    "drawn-tile-checkmate",
    "drawn-tile-stalemate",
    "repetition",
    "fifty-moves",
];

/// Replaying every game would make the test grow with the corpus; the
/// first and last of a shard and every 50th catch a shard of another rules
/// core or a cut or shuffled file.
const REPLAY_EVERY: usize = 50;

/// What a check went through, so that a test can tell an empty corpus from
/// a checked one.
#[derive(Debug, Default, PartialEq)]
struct Checked {
    shards: usize,
    games: usize,
    replayed: usize,
}

/// Checks the corpus in `dir` against its manifest; a missing manifest is
/// an empty corpus, as before the first shard is closed.
fn check_corpus(dir: &Path) -> Result<Checked, String> {
    let manifest = match fs::read_to_string(dir.join("manifest.jsonl")) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("manifest.jsonl: {e}")),
    };
    let mut checked = Checked::default();
    let mut listed = BTreeSet::new();
    for (i, line) in manifest.lines().enumerate() {
        let entry: Value =
            serde_json::from_str(line).map_err(|e| format!("manifest line {}: {e}", i + 1))?;
        let (shard, sha256, games) =
            check_fields(&entry).map_err(|e| format!("manifest line {}: {e}", i + 1))?;
        if !listed.insert(shard.to_string()) {
            return Err(format!("{shard} is listed twice in the manifest"));
        }
        let replayed =
            check_shard(&dir.join(shard), sha256, games).map_err(|e| format!("{shard}: {e}"))?;
        checked.shards += 1;
        checked.games += games;
        checked.replayed += replayed;
    }
    if dir.is_dir() {
        for file in fs::read_dir(dir).map_err(|e| e.to_string())? {
            let name = file.map_err(|e| e.to_string())?.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".jsonl.gz") && !listed.contains(name.as_ref()) {
                return Err(format!("{name} is not in the manifest"));
            }
        }
    }
    Ok(checked)
}

/// Checks the types of a manifest line's fields, since the shard's
/// provenance is only as good as they are; returns the shard's name,
/// sha256 and game count.
fn check_fields(entry: &Value) -> Result<(&str, &str, usize), String> {
    let text = |key: &str| {
        entry[key]
            .as_str()
            .ok_or(format!("'{key}' is not a string"))
    };
    let number = |key: &str| {
        entry[key]
            .as_u64()
            .ok_or(format!("'{key}' is not a number"))
    };
    let is_hex = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit());
    let shard = text("shard")?;
    if shard.contains('/') || !shard.ends_with(".jsonl.gz") {
        return Err(format!("'{shard}' is not a shard's file name"));
    }
    for key in ["sha256", "net_sha256"] {
        if !is_hex(text(key)?, 64) {
            return Err(format!("'{key}' is not a sha256"));
        }
    }
    let commit = text("commit")?;
    if !is_hex(commit.strip_suffix("-dirty").unwrap_or(commit), 40) {
        return Err(format!("'{commit}' is not a commit"));
    }
    let date = text("date")?.as_bytes();
    let digits = |r: std::ops::Range<usize>| date[r].iter().all(u8::is_ascii_digit);
    if date.len() != 10 || date[4] != b'-' || date[7] != b'-' || !digits(0..4) || !digits(5..7) {
        return Err("'date' is not YYYY-MM-DD".into());
    }
    let command = text("command")?;
    // The first shards, which all played the net, have no `evaluation`.
    if !entry["evaluation"].is_null() {
        let evaluation = text("evaluation")?;
        if !["hand", "rich", "net"].contains(&evaluation)
            || !command.contains(&format!("Evaluation={evaluation}"))
        {
            return Err(format!(
                "'evaluation' {evaluation} is not what the command played"
            ));
        }
    }
    for key in ["generation", "nodes", "seed"] {
        number(key)?;
    }
    Ok((shard, text("sha256")?, number("games")? as usize))
}

/// The hash only says the shard is the one that was closed; the records
/// must also parse, name no machine's paths and replay, or a broken build
/// could have closed it. Returns how many games it replayed.
fn check_shard(path: &Path, sha256: &str, games: usize) -> Result<usize, String> {
    let bytes = fs::read(path).map_err(|e| e.to_string())?;
    let actual = format!("{:x}", Sha256::digest(&bytes));
    if actual != sha256 {
        return Err(format!("sha256 is {actual}, the manifest says {sha256}"));
    }
    let mut text = String::new();
    MultiGzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .map_err(|e| format!("does not gunzip: {e}"))?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() != games {
        return Err(format!("{} lines, the manifest says {games}", lines.len()));
    }
    let mut replayed = 0;
    for (i, line) in lines.iter().enumerate() {
        let at = |e: String| format!("line {}: {e}", i + 1);
        let record = GameRecord::from_json_line(line).map_err(|e| at(e.to_string()))?;
        for side in [&record.white, &record.black] {
            if side.command.contains('/') {
                return Err(at(format!("command '{}' names a path", side.command)));
            }
        }
        if i == 0 || i + 1 == lines.len() || i % REPLAY_EVERY == 0 {
            replay(&record).map_err(at)?;
            replayed += 1;
        }
    }
    Ok(replayed)
}

/// The rules core refuses any illegal move, and a game it ended must end
/// there the same way: otherwise another rules core played the shard.
fn replay(record: &GameRecord) -> Result<(), String> {
    let referee = record.referee().map_err(|e| e.to_string())?;
    if !RULES_ENDINGS.contains(&record.ending.as_str()) {
        return Ok(());
    }
    let end = referee.ending().ok_or("the replayed game has not ended")?;
    let replayed = format!("{} {}", end.score(), end.ending.word());
    let recorded = format!("{} {}", record.result, record.ending);
    if replayed != recorded {
        return Err(format!("the replay ends {replayed}, the record {recorded}"));
    }
    Ok(())
}

#[test]
fn the_committed_corpus_is_whole_and_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/selfplay");
    let checked = check_corpus(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    eprintln!("data/selfplay: {checked:?}");
}

/// A directory of its own for each corpus, so that one's leftovers cannot
/// pass or fail another.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a shard and its manifest line as `tools/selfplay stop` does
/// (rules endings only; with `strip`, each command cut to `chex`), so that
/// the checker is tried on what the script writes.
fn add_shard(dir: &Path, name: &str, records: &[GameRecord], strip: bool) {
    let mut text = String::new();
    for record in records
        .iter()
        .filter(|r| RULES_ENDINGS.contains(&r.ending.as_str()))
    {
        let mut record = record.clone();
        if strip {
            record.white.command = "chex".into();
            record.black.command = "chex".into();
        }
        text.push_str(&record.to_json_line());
        text.push('\n');
    }
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    fs::write(dir.join(name), &bytes).unwrap();
    let entry = json!({
        "shard": name, "sha256": format!("{:x}", Sha256::digest(&bytes)),
        "games": text.lines().count(), "commit": format!("{}-dirty", "0".repeat(40)),
        "command": "chex match --option1 Evaluation=rich --option2 Evaluation=rich --nodes 1",
        "evaluation": "rich", "generation": 2, "net_sha256": "a".repeat(64),
        "nodes": 1, "seed": 5, "date": "2026-01-02",
    });
    let manifest = dir.join("manifest.jsonl");
    let before = fs::read_to_string(&manifest).unwrap_or_default();
    fs::write(manifest, format!("{before}{entry}\n")).unwrap();
}

#[test]
fn a_corpus_made_like_tools_selfplay_passes_and_a_damaged_one_is_refused() {
    // Random players end games in a second, by several of the rules' endings.
    const MATCH: &str =
        "match --option1 Player=random --option2 Player=random --nodes 1 --games 4 --seed 5 --out";
    let games = Path::new(env!("CARGO_TARGET_TMPDIR")).join("corpus-games.jsonl");
    let _ = fs::remove_file(&games);
    let status = Command::new(env!("CARGO_BIN_EXE_chex"))
        .args(MATCH.split(' '))
        .arg(&games)
        .output()
        .unwrap()
        .status;
    assert!(status.success());
    let records: Vec<GameRecord> = fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|line| GameRecord::from_json_line(line).unwrap())
        .collect();
    assert_eq!(records.len(), 4);

    let dir = fresh_dir("corpus-good");
    let refused = |needle: &str| {
        let err = check_corpus(&dir).expect_err(needle);
        assert!(err.contains(needle), "{err}");
    };
    let name = "2026-01-02-0000000000-5.jsonl.gz";
    add_shard(&dir, name, &records, true);
    let checked = check_corpus(&dir).unwrap();
    assert_eq!((checked.shards, checked.games, checked.replayed), (1, 4, 2));

    let manifest = fs::read_to_string(dir.join("manifest.jsonl")).unwrap();
    fs::write(dir.join("manifest.jsonl"), manifest.repeat(2)).unwrap();
    refused("listed twice");
    let net = manifest.replace(r#""evaluation":"rich""#, r#""evaluation":"net""#);
    assert_ne!(net, manifest);
    fs::write(dir.join("manifest.jsonl"), net).unwrap();
    refused("not what the command played");
    fs::write(dir.join("manifest.jsonl"), &manifest).unwrap();

    fs::copy(dir.join(name), dir.join("stray.jsonl.gz")).unwrap();
    refused("not in the manifest");
    fs::remove_file(dir.join("stray.jsonl.gz")).unwrap();

    let mut bytes = fs::read(dir.join(name)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    fs::write(dir.join(name), bytes).unwrap();
    refused("sha256");

    let dir = fresh_dir("corpus-paths");
    add_shard(&dir, name, &records, false);
    let err = check_corpus(&dir).unwrap_err();
    assert!(err.contains("names a path"), "{err}");

    let dir = fresh_dir("corpus-none");
    assert_eq!(check_corpus(&dir.join("absent")), Ok(Checked::default()));
}
