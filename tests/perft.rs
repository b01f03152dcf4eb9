//! The perft suite in `tests/data/perft.txt` (RULES.md section 8; STYLE.md
//! item 10: perft suites are data).
//!
//! The counts in the file come from the slow reference generator in
//! `tests/reference`; here the crate's `perft`, `divide` and the `chex perft`
//! command line are checked against them, and the file itself is re-checked
//! against the reference at shallow depth so that a typo in it cannot pass
//! unnoticed.

mod reference;

use chex::rules::{divide, perft, perft_parallel, Position};
use std::process::Command;

/// One line of the suite.
struct Entry {
    /// The line number in the file, for messages.
    line: usize,
    position: String,
    /// `(depth, nodes)` pairs in increasing depth.
    counts: Vec<(u32, u64)>,
}

/// Reads `tests/data/perft.txt`: `<position> ; D1 n1 ; D2 n2 ...`, `#`
/// comments and blank lines ignored.
fn suite() -> Vec<Entry> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft.txt");
    let text = std::fs::read_to_string(path).expect("tests/data/perft.txt");
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let position = fields.next().unwrap().to_string();
        let counts = fields
            .map(|f| {
                let (d, n) = f
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("line {}: bad field {f:?}", i + 1));
                let depth = d
                    .strip_prefix('D')
                    .unwrap_or_else(|| panic!("line {}: bad depth {d:?}", i + 1));
                (depth.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        entries.push(Entry {
            line: i + 1,
            position,
            counts,
        });
    }
    entries
}

/// In debug builds the biggest counts take minutes; CI runs `--release`.
const DEBUG_NODE_LIMIT: u64 = 2_000_000;

/// The crate's perft must match every count in the file.
#[test]
fn perft_suite() {
    let entries = suite();
    assert!(
        entries.len() >= 12,
        "the suite has only {} positions",
        entries.len()
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in &entries {
        let mut pos: Position = entry
            .position
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
        let before = pos.to_string();
        for &(depth, expected) in &entry.counts {
            if cfg!(debug_assertions) && expected > DEBUG_NODE_LIMIT {
                continue;
            }
            let got = perft(&mut pos, depth);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "line {}: {} perft {depth}: expected {expected}, got {got}",
                    entry.line, entry.position
                ));
            }
        }
        assert_eq!(
            pos.to_string(),
            before,
            "line {}: perft changed the position",
            entry.line
        );
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(checked >= 40, "only {checked} counts checked");
}

/// The file's depth-1 and depth-2 counts, recomputed by the reference: a
/// guard against a count mistyped into the file (depth 3 is left to
/// `perft_suite`, which would then disagree with the crate).
#[test]
fn suite_counts_are_the_reference_counts() {
    for entry in suite() {
        let rpos = reference::parse(&entry.position);
        reference::validate(&rpos)
            .unwrap_or_else(|e| panic!("line {}: inconsistent position: {e}", entry.line));
        for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= 2) {
            assert_eq!(
                reference::perft(&rpos, depth),
                expected,
                "line {}: reference perft {depth} of {}",
                entry.line,
                entry.position
            );
        }
    }
}

/// `divide` lists exactly the reference's legal moves, sorted by token, and
/// its per-move counts add up to the file's count at the next depth.
#[test]
fn divide_matches_the_reference_moves() {
    for entry in suite() {
        let pos: Position = entry.position.parse().unwrap();
        let expected_moves = reference::legal_moves_of(&entry.position);
        let Some(&(_, d2)) = entry.counts.iter().find(|(d, _)| *d == 2) else {
            continue;
        };
        let split = divide(&pos, 2);
        let tokens: Vec<String> = split.iter().map(|(mv, _)| mv.to_string()).collect();
        assert_eq!(
            tokens, expected_moves,
            "line {}: divide's moves",
            entry.line
        );
        let total: u64 = split.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, d2, "line {}: divide 2 total", entry.line);
        // Each branch, one move deeper, as the reference counts it.
        let rpos = reference::parse(&entry.position);
        for (mv, n) in split {
            let child = reference::play(&rpos, &mv.to_string());
            assert_eq!(
                n,
                reference::perft(&child, 1),
                "line {}: divide branch {mv}",
                entry.line
            );
        }
    }
}

/// The `chex perft "<position>" <depth>` command prints one `<move>: <count>`
/// line per root move, sorted, then `Nodes searched: <n>`.
#[test]
fn command_line_perft() {
    let cases = [
        ("startpos", 3, 15952),
        ("Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", 2, 5120),
        (
            "P-3,2/N-6,1/k-3,1/P0,1/p-5,0/R-4,0/p-2,0/P-1,0/K1,0/B2,0/p-4,-1/p3,-1* b -/- 0 36",
            2,
            0,
        ),
    ];
    for (position, depth, nodes) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_chex"))
            .args(["perft", position, &depth.to_string()])
            .output()
            .expect("run chex");
        assert!(
            output.status.success(),
            "chex perft {position:?} {depth} failed"
        );
        let stdout = String::from_utf8(output.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        let (last, moves) = lines.split_last().expect("no output");
        assert_eq!(*last, format!("Nodes searched: {nodes}"), "{position}");
        let tokens: Vec<String> = moves
            .iter()
            .map(|l| l.split_once(": ").expect("`<move>: <count>`").0.to_string())
            .collect();
        assert_eq!(
            tokens,
            reference::legal_moves_of(position),
            "{position}: root moves"
        );
        let sum: u64 = moves
            .iter()
            .map(|l| l.rsplit_once(": ").unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(sum, nodes, "{position}: the lines do not add up");
    }
}

/// Split among threads (from depth 4 up), the counts are the serial
/// ones: the start position's depth 4 from the file through
/// `perft_parallel` and `divide`, and its depth 5 (two levels split)
/// against `perft` itself.
#[test]
fn parallel_counts_are_the_serial_ones() {
    let entry = &suite()[0];
    let (depth, expected) = *entry.counts.last().unwrap();
    assert!(
        depth >= 4,
        "line {}: the first entry goes to depth 4",
        entry.line
    );
    let mut pos: Position = entry.position.parse().unwrap();
    assert_eq!(
        perft_parallel(&pos, depth),
        expected,
        "perft_parallel {depth}"
    );
    let split: u64 = divide(&pos, depth).iter().map(|&(_, n)| n).sum();
    assert_eq!(split, expected, "divide {depth}");
    if !cfg!(debug_assertions) {
        let serial = perft(&mut pos, depth + 1);
        assert_eq!(
            perft_parallel(&pos, depth + 1),
            serial,
            "depth {}",
            depth + 1
        );
    }
}
