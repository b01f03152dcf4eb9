//! Robustness of the line protocol: thousands of random and mutated lines,
//! seeded so that a failure can be replayed (set `CHEX_FUZZ_SEED` to run
//! other seeds).
//!
//! Nothing sent here may start unbounded work that would block the test:
//! mutated lines whose first word is `bench`, a bare `quit` or a deep
//! `perft` are not sent, and every `go` is followed by `stop`.

mod engine;

use chex::rules::Position;
use engine::{Engine, WAIT};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// The seed of every generator here, unless `CHEX_FUZZ_SEED` gives one.
fn seed(default: u64) -> u64 {
    std::env::var("CHEX_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Valid commands to mutate.
const CORPUS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "stop",
    "d",
    "moves",
    "status",
    "setoption name Threads value 1",
    "setoption name Threads value 2",
    "setoption name Seed value 7",
    "setoption name MultiPV value 3",
    "setoption name MoveOverhead value 0",
    "setoption name PlayoutCap value 40",
    "setoption name Exploration value 0.7",
    "setoption name UCI_ShowWDL value true",
    "setoption name Player value random",
    "setoption name Player value greedy",
    "setoption name Player value ucb",
    "position startpos",
    "position startpos moves Q@",
    "position startpos moves Q@0,0 n@1,0",
    "position startpos moves Q@0,0 n@1,0 0,0-0,1 b@",
    "position startpos moves N@0,0 n@1,0 0,0-2,1 1,0-3,1 2,1-4,0",
    "position fen - w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1",
    "position fen Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2 moves 0,0-1,1",
    "position fen q0,1/k1,1/K-2,0/P-1,0/R0,0/p1,0 w QRBBNNPPPPPPP/rrbbnnppppppp 0 10 moves P@",
    "position fen K1,2/R1,1/N2,1/k0,0 b -/- 0 40",
    "position fen Q0,0 b K/kp 0 1 moves k@",
    "position fen n0,1/b2,1/N0,0/P1,0 w K/k 99 80 moves 0,0-1,2",
    "position fen N0,0/n1,0 w K/k 0 1 moves 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2 4,-1-6,-2",
    "go nodes 20",
    "go movetime 10",
    "go wtime 200 btime 200 winc 0 binc 0",
    "go wtime 200 btime 200 movestogo 5",
    "go infinite",
    "go",
    "go nodes 5 movetime 5",
    "perft 1",
    "perft 2",
];

/// Words to put into lines: numbers at and beyond every limit, keywords
/// in the wrong place, odd characters.
const WORDS: &[&str] = &[
    "0",
    "1",
    "-1",
    "+1",
    "-0",
    "00",
    "1.5",
    "1e9",
    "0x10",
    "NaN",
    "inf",
    "256",
    "257",
    "10000",
    "10001",
    "9007199254740991",
    "9007199254740992",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999999999",
    "moves",
    "startpos",
    "fen",
    "name",
    "value",
    "infinite",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "searchmoves",
    "ponder",
    "@",
    "Q@",
    "q@",
    "X@",
    "N@0,0",
    "k@1000000000,0",
    "K@1000000001,0",
    "0,0-1,1",
    "0,0--1,0",
    "1,1-",
    "-",
    "--",
    "w",
    "b",
    "/",
    "*",
    "K0,0",
    "k1,1/K0,0",
    "- w -/- 0 1",
    "é",
    "日本",
    "\u{feff}",
    "\u{a0}",
    "\t",
    "\u{7f}",
    "(none)",
    "readyok",
    "bestmove",
];

/// One line made from a valid command by a few random changes: tokens
/// dropped, duplicated, swapped, replaced or inserted, the line cut short,
/// bytes flipped, inserted or deleted (NUL and invalid UTF-8 included),
/// case changed, a `\r` appended.
fn mutate(rng: &mut ChaCha8Rng, line: &str) -> Vec<u8> {
    let mut tokens: Vec<String> = line.split(' ').map(String::from).collect();
    for _ in 0..rng.gen_range(1..=3) {
        let n = tokens.len();
        match rng.gen_range(0..7) {
            0 if n > 1 => {
                tokens.remove(rng.gen_range(0..n));
            }
            1 => {
                let i = rng.gen_range(0..n);
                let t = tokens[i].clone();
                tokens.insert(i, t);
            }
            2 if n > 1 => {
                let (i, j) = (rng.gen_range(0..n), rng.gen_range(0..n));
                tokens.swap(i, j);
            }
            3 => {
                let i = rng.gen_range(0..n);
                tokens[i] = WORDS.choose(rng).unwrap().to_string();
            }
            4 => {
                let i = rng.gen_range(0..=n);
                tokens.insert(i, WORDS.choose(rng).unwrap().to_string());
            }
            5 => tokens.truncate(rng.gen_range(1..=n)),
            _ => {
                let i = rng.gen_range(0..n);
                tokens[i] = if rng.gen_bool(0.5) {
                    tokens[i].to_uppercase()
                } else {
                    tokens[i].to_lowercase()
                };
            }
        }
    }
    let sep = *[" ", " ", " ", "  ", "\t"].choose(rng).unwrap();
    let mut bytes = tokens.join(sep).into_bytes();
    for _ in 0..rng.gen_range(0..=2) {
        let n = bytes.len();
        match rng.gen_range(0..6) {
            0 if n > 0 => {
                let i = rng.gen_range(0..n);
                bytes[i] ^= 1 << rng.gen_range(0..8);
            }
            1 => bytes.insert(rng.gen_range(0..=n), rng.gen()),
            2 if n > 0 => {
                bytes.remove(rng.gen_range(0..n));
            }
            3 => bytes.insert(rng.gen_range(0..=n), 0),
            4 => {
                let bad: &[u8] = [&[0xff][..], &[0xc3], &[0xe6, 0x97], &[0xed, 0xa0, 0x80]]
                    .choose(rng)
                    .unwrap();
                let i = rng.gen_range(0..=n);
                bytes.splice(i..i, bad.iter().copied());
            }
            _ => bytes.push(b'\r'),
        }
    }
    // A newline would make two lines of one.
    for b in &mut bytes {
        if *b == b'\n' {
            *b = b' ';
        }
    }
    bytes
}

/// A line of random bytes (no newline).
fn random_bytes(rng: &mut ChaCha8Rng, max: usize) -> Vec<u8> {
    let n = rng.gen_range(0..=max);
    (0..n)
        .map(|_| match rng.gen::<u8>() {
            b'\n' => b' ',
            b => b,
        })
        .collect()
}

/// A line of random printable words.
fn random_words(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let n = rng.gen_range(1..6);
    let words: Vec<String> = (0..n)
        .map(|_| {
            if rng.gen_bool(0.5) {
                WORDS.choose(rng).unwrap().to_string()
            } else {
                let len = rng.gen_range(1..8);
                (0..len)
                    .map(|_| rng.gen_range(b'!'..=b'~') as char)
                    .collect()
            }
        })
        .collect();
    words.join(" ").into_bytes()
}

/// How the engine must answer a line, by protocol.md, as far as these
/// tests can tell without thinking about its meaning.
#[derive(Debug, PartialEq)]
enum Expect {
    /// Not sent here: it starts work (`go`, `perft`, `bench`), ends the
    /// engine (`quit`), or is a valid bare query whose answer is not an
    /// error (`isready`, `uci`, `d`, `moves`, `status`).
    Skip,
    /// Exactly one `info string error:` line and nothing else.
    Error,
    /// Nothing, or exactly one error line.
    SilentOrError,
}

/// What a line's words are, split as the engine splits them.
fn words(bytes: &[u8]) -> Option<Vec<String>> {
    std::str::from_utf8(bytes)
        .ok()
        .map(|s| s.split_whitespace().map(String::from).collect())
}

fn classify(bytes: &[u8]) -> Expect {
    let Some(words) = words(bytes) else {
        return Expect::Error; // not UTF-8
    };
    let Some(head) = words.first() else {
        return Expect::SilentOrError; // blank: ignored
    };
    let bare = words.len() == 1;
    match head.as_str() {
        "go" => Expect::Skip,
        "perft" => {
            if words.len() == 2 && words[1].parse::<u32>().is_ok() {
                Expect::Skip
            } else {
                Expect::Error
            }
        }
        "bench" | "quit" | "isready" | "uci" | "d" | "moves" | "status" => {
            if bare {
                Expect::Skip
            } else {
                Expect::Error
            }
        }
        "stop" | "ucinewgame" => {
            if bare {
                Expect::SilentOrError
            } else {
                Expect::Error
            }
        }
        "position" | "setoption" => Expect::SilentOrError,
        _ => Expect::Error,
    }
}

/// Every mutated line that is not skipped gets nothing or exactly one
/// `info string error:` line (protocol.md, "Errors"), and a refused line
/// leaves `d`, `moves` and `status` as they were.
#[test]
fn every_mutated_line_gets_at_most_one_error_and_a_refusal_changes_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(seed(1));
    let mut e = Engine::with_options(&[("Threads", "1")]);
    let mut state = e.state();
    let (mut sent, mut errors) = (0, 0);
    for i in 0..5000 {
        let bytes = match i % 10 {
            0 => random_bytes(&mut rng, 80),
            1 => random_words(&mut rng),
            _ => {
                let base = *CORPUS.choose(&mut rng).unwrap();
                mutate(&mut rng, base)
            }
        };
        let expect = classify(&bytes);
        if expect == Expect::Skip {
            continue;
        }
        let mut line = bytes.clone();
        line.push(b'\n');
        e.send_bytes(&line);
        let out = e.sync();
        sent += 1;
        let shown = String::from_utf8_lossy(&bytes).escape_debug().to_string();
        let is_error = match out.as_slice() {
            [] if expect == Expect::SilentOrError => false,
            [one] if one.starts_with("info string error: ") => true,
            _ => e.fail(&format!(
                "line {i} '{shown}' ({expect:?}) got {out:?} (seed {})",
                seed(1)
            )),
        };
        if is_error {
            errors += 1;
            let now = e.state();
            if now != state {
                e.fail(&format!(
                    "the refused line {i} '{shown}' changed the state:\n{state:#?}\n{now:#?}"
                ));
            }
        } else {
            state = e.state();
        }
    }
    eprintln!("mutated lines: {sent} sent, {errors} refused");
    assert!(
        sent > 3000 && errors > 2000,
        "sent {sent}, refused {errors}"
    );
    e.quit();
}

/// Well-formed-looking position strings, mutated a character at a time:
/// the engine takes exactly those the rules library parses, shows them as
/// the library writes them, and refuses the others with one error line.
#[test]
fn mutated_position_strings_agree_with_the_rules_library() {
    const FENS: &[&str] = &[
        "- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1",
        "N0,0 b KQRRBBNPPPPPPPP/kqrrbbnnpppppppp 0 1",
        "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2",
        "R-3,0/p-2,0/N-1,0/K0,0/b1,0/q2,0/k3,0 w QBP/rn 0 20",
        "p-1,4/r0,3/n1,2/P1,1/K0,0 w QN/kq 0 12",
        "k1,4/p1,3/n1,2/p1,1/P0,0*/K1,0 w QB/qr 0 9",
        "K1,2/R1,1/N2,1/k0,0 b -/- 0 40",
        "n1,6/N0,5/K1,4/B0,3/B2,3/q-1,2/N2,2/p-4,1/P-2,1/Q0,1/b3,1/k-4,0/b-3,0/R0,0/p-4,-1/p-3,-1/r-1,-1/P-4,-2/r-2,-2/R0,-2 w PPPPPP/nppppp 0 12",
        "p-999999991,-999999991/r-999999990,-999999992/n-999999989,-999999993/P-999999989,-999999994/K-999999990,-999999995 w QN/kq 0 12",
    ];
    const ALPHABET: &[u8] = b"0123456789,-/*KQRBNPkqrbnpwb -9";
    let mut rng = ChaCha8Rng::seed_from_u64(seed(2));
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent("position startpos");
    let mut state = e.state();
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..3000 {
        let mut fen: Vec<u8> = FENS.choose(&mut rng).unwrap().as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..=3) {
            let n = fen.len();
            let c = *ALPHABET.choose(&mut rng).unwrap();
            match rng.gen_range(0..4) {
                0 => fen[rng.gen_range(0..n)] = c,
                1 => fen.insert(rng.gen_range(0..=n), c),
                2 if n > 1 => {
                    fen.remove(rng.gen_range(0..n));
                }
                _ => {
                    let (a, b) = (rng.gen_range(0..n), rng.gen_range(0..n));
                    fen.swap(a, b);
                }
            }
        }
        // The engine splits words at spaces and joins them with one.
        let fen: String = String::from_utf8(fen)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let library = fen.parse::<Position>();
        let out = e.command(&format!("position fen {fen}"));
        match (&library, out.as_slice()) {
            (Ok(pos), []) => {
                accepted += 1;
                state = e.state();
                let shown = format!("Position: {pos}");
                if !state.contains(&shown) {
                    e.fail(&format!("case {i}: '{fen}' should show '{shown}'"));
                }
            }
            (Err(_), [one]) if one.starts_with("info string error: ") => {
                refused += 1;
                let now = e.state();
                if now != state {
                    e.fail(&format!("case {i}: the refused '{fen}' changed the state"));
                }
            }
            _ => e.fail(&format!(
                "case {i}: '{fen}': library says {library:?}, engine printed {out:?} (seed {})",
                seed(2)
            )),
        }
    }
    eprintln!("position strings: {accepted} accepted, {refused} refused");
    assert!(
        accepted > 40 && refused > 1000,
        "accepted {accepted}, refused {refused}"
    );
    e.quit();
}

/// The same line generators as a stream, without waiting for answers,
/// with searches started and stopped, over-long lines, blank lines and
/// raw bytes; then the engine must still be alive, answer `isready`, have
/// printed no panic, and play a legal move.
#[test]
fn a_stream_of_garbage_leaves_the_engine_healthy() {
    let mut rng = ChaCha8Rng::seed_from_u64(seed(3));
    let mut e = Engine::with_options(&[("Threads", "1")]);
    let mut output: Vec<String> = Vec::new();
    let mut searches = 0;
    for i in 0..10000 {
        let bytes = match i % 20 {
            0 => random_bytes(&mut rng, 300),
            1 => random_words(&mut rng),
            2 => Vec::new(),
            3 if i % 400 == 3 => {
                // About 100 KB of printable junk after a real command.
                let head = *[
                    "position startpos moves",
                    "setoption name Seed value",
                    "foo",
                ]
                .choose(&mut rng)
                .unwrap();
                let mut b = head.as_bytes().to_vec();
                b.extend((0..100_000).map(|_| rng.gen_range(b' '..=b'~')));
                b
            }
            4 if i % 1000 == 4 => {
                // 2 MB: over the 1 MiB limit.
                let mut b = b"position startpos moves Q@0,0 ".to_vec();
                b.extend((0..2_000_000).map(|_| rng.gen_range(b' '..=b'~')));
                b
            }
            5 => {
                let n: u64 = rng.gen();
                let line = *[
                    "go nodes {}",
                    "go movetime {}",
                    "go wtime {} btime {}",
                    "go wtime -{} btime {}",
                    "go nodes -{}",
                    "go movestogo {} wtime {}",
                    "go winc {} binc {}",
                    "go infinite nodes {}",
                ]
                .choose(&mut rng)
                .unwrap();
                line.replace("{}", &n.to_string()).into_bytes()
            }
            _ => {
                let base = *CORPUS.choose(&mut rng).unwrap();
                mutate(&mut rng, base)
            }
        };
        let words = words(&bytes).unwrap_or_default();
        let head = words.first().map(String::as_str);
        let bare = words.len() == 1;
        // Work that would block: not sent.
        let deep_perft = head == Some("perft")
            && words.len() == 2
            && words[1].parse::<u32>().is_ok_and(|d| d > 2);
        if head == Some("bench") || (head == Some("quit") && bare) || deep_perft {
            continue;
        }
        let mut line = bytes;
        line.push(b'\n');
        e.send_bytes(&line);
        if head == Some("go") {
            searches += 1;
            e.send("stop");
        }
        if i % 100 == 99 {
            output.extend(e.sync());
            if !e.alive() {
                e.fail(&format!("the engine died (seed {})", seed(3)));
            }
        }
    }
    let errors = output
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .count();
    let bestmoves = output.iter().filter(|l| l.starts_with("bestmove ")).count();
    eprintln!("stream: {searches} go lines, {bestmoves} bestmoves, {errors} errors");
    assert!(searches > 100, "only {searches} go lines");
    e.send("stop");
    output.extend(e.sync());
    // Let stopped searches and short perfts finish printing.
    output.extend(e.drain_quiet(Duration::from_millis(500)));
    if let Some(l) = output.iter().find(|l| l.contains("panicked")) {
        e.fail(&format!("the engine printed '{l}'"));
    }
    assert!(e.alive(), "the engine died");
    assert!(e.sync().is_empty());
    e.assert_no_panic();

    // Still plays a legal move, with sane options.
    for (name, value) in [
        ("Threads", "1"),
        ("Player", "ucb"),
        ("MultiPV", "1"),
        ("PlayoutCap", "300"),
    ] {
        e.expect_silent(&format!("setoption name {name} value {value}"));
    }
    e.expect_silent("position startpos moves Q@0,0");
    assert_eq!(e.moves(), ["@"]);
    e.go_checked("go nodes 50");
    e.expect_silent("position startpos moves Q@0,0 n@1,0");
    let r = e.go_checked("go nodes 50");
    assert!(r.moves.len() > 1);
    let err = e.stderr_text();
    assert!(!err.contains("panicked"), "stderr: {err}");
    e.quit();
}

/// Huge and negative limits never hang the engine: each search started
/// ends at `stop` (or by itself), and refused ones print one error line.
#[test]
fn extreme_go_limits() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("MoveOverhead", "10000")]);
    e.expect_silent("position startpos moves Q@0,0 n@1,0");
    let moves = e.moves();
    for limits in [
        "nodes 18446744073709551615",
        "movetime 18446744073709551615",
        "wtime 18446744073709551615 btime 18446744073709551615",
        "wtime 18446744073709551615 winc 18446744073709551615",
        "wtime 0 btime 0",
        "wtime 1",
        "movetime 0",
        "movetime 1",
        "movestogo 1 wtime 1",
        "btime 5",
        "infinite nodes 1",
        "nodes 1 infinite",
    ] {
        let line = format!("go {limits}");
        e.send(&line);
        e.send("stop");
        let best = e.read_until("bestmove", WAIT).pop().unwrap();
        e.check_bestmove(&moves, &best);
        // Give the search thread time to end before the next `go`: the
        // engine may refuse a `go` sent right after a `bestmove` as busy,
        // a bug that protocol.rs's `go_right_after_bestmove_is_accepted`
        // asserts on; this test is about the limits, not that race.
        e.drain_quiet(Duration::from_millis(50));
    }
    for limits in [
        "nodes -1",
        "movetime -18446744073709551615",
        "wtime -5 btime 5",
        "nodes 1e9",
        "nodes 0x10",
        "nodes",
        "infinite infinite depth 1",
    ] {
        e.expect_error(&format!("go {limits}"));
    }
    assert!(e.command("stop").is_empty());
    e.quit();
}
