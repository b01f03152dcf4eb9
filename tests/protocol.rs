//! Whole transcripts of the line protocol, as protocol.md describes it,
//! against the real `chex` binary.
//!
//! Every `bestmove` is checked against the engine's own `moves` list for
//! the same position (`Engine::go_checked`), and where it helps, `moves`
//! and `d` are checked against the crate's rules library as well.

mod engine;

use chex::protocol::client::Score;
use chex::rules::Position;
use engine::{field, Engine, BIN, WAIT};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

/// The start position string (protocol.md, "Notation").
const START: &str = "- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1";

/// A middlegame from a random game (tests/data/perft.txt): White has
/// pieces to move and pawns to place, so `go` has a real choice.
const MIDDLEGAME: &str = "n1,6/N0,5/K1,4/B0,3/B2,3/q-1,2/N2,2/p-4,1/P-2,1/Q0,1/b3,1/k-4,0/b-3,0/R0,0/p-4,-1/p-3,-1/r-1,-1/P-4,-2/r-2,-2/R0,-2 w PPPPPP/nppppp 0 12";

/// White's rook on 0,0 can take Black's queen (0,1) or a pawn (1,0);
/// both captures are legal. White has tiles left to draw.
const QUEEN_OR_PAWN: &str = "q0,1/k1,1/K-2,0/P-1,0/R0,0/p1,0 w QRBBNNPPPPPPP/rrbbnnppppppp 0 10";

/// How long `quit` may take to end the process during a search, measured
/// from sending `quit` to the process's exit. The aim is 100 ms; on a
/// 2-core machine it measured 1-4 ms with this suite running, but up to
/// 130 ms with two copies of the suite running at once, so the assertion
/// allows 500 ms to keep a loaded CI machine from flaking.
const QUIT_LIMIT: Duration = Duration::from_millis(500);

/// "At once" (`isready` during a search, `bestmove` after `stop`), with
/// the same allowance for a loaded machine.
const AT_ONCE: Duration = Duration::from_millis(500);

/// The `moves` list the rules library expects for a position string, with
/// an optional drawn tile (its letter) to place.
fn library_moves(position: &str, pending: Option<char>) -> Vec<String> {
    let pos: Position = position
        .parse()
        .unwrap_or_else(|e| panic!("library cannot parse '{position}': {e}"));
    let all: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let mut out: Vec<String> = match pending {
        Some(letter) => {
            let prefix = format!("{letter}@");
            all.into_iter().filter(|m| m.starts_with(&prefix)).collect()
        }
        None => {
            let mut steps: Vec<String> = all.into_iter().filter(|m| !m.contains('@')).collect();
            let side = position.split(' ').nth(1).unwrap();
            let piles: Vec<&str> = position.split(' ').nth(2).unwrap().split('/').collect();
            let pile = if side == "w" { piles[0] } else { piles[1] };
            if pile != "-" {
                steps.push("@".into());
            }
            steps
        }
    };
    out.sort();
    out
}

fn is_sorted(v: &[String]) -> bool {
    v.windows(2).all(|w| w[0] <= w[1])
}

/// Removes what may differ between two runs of the same seeded search:
/// the `time` and `nps` tokens and the speed line.
fn normalise(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("info string playouts/s"))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < words.len() {
                if (words[i] == "time" || words[i] == "nps") && l.starts_with("info ") {
                    i += 2;
                } else {
                    out.push(words[i]);
                    i += 1;
                }
            }
            out.join(" ")
        })
        .collect()
}

/// Checks the shape of one `info multipv` line (protocol.md, `go`):
/// `info multipv <k> score (cp|mate) <int> [wdl <w> <d> <l>] nodes <n>
/// nps <n> time <ms> pv <action>`. Returns (k, score, nodes, pv).
#[track_caller]
fn parse_info(line: &str, wdl: bool) -> (u32, Score, u64, String) {
    let w: Vec<&str> = line.split(' ').collect();
    let n = if wdl { 18 } else { 14 };
    assert!(w.len() >= n, "info line '{line}' has {} words", w.len());
    assert_eq!(&w[..2], ["info", "multipv"], "{line}");
    assert_eq!(w[3], "score", "{line}");
    let k: u32 = w[2].parse().expect(line);
    let value: i64 = w[5].parse().expect(line);
    let score = match w[4] {
        "cp" => Score::Cp(value),
        "mate" => Score::Mate(value),
        unit => panic!("score unit '{unit}' in '{line}'"),
    };
    assert_ne!(score, Score::Mate(0), "no mate in 0 while the game goes on");
    let mut i = 6;
    if wdl {
        assert_eq!(w[6], "wdl", "{line}");
        let vals: Vec<u32> = w[7..10].iter().map(|v| v.parse().expect(line)).collect();
        let sum: u32 = vals.iter().sum();
        assert!(
            sum == 1000 || sum == 0,
            "wdl of '{line}' should be per mille"
        );
        i = 10;
    }
    assert_eq!(w[i], "nodes", "{line}");
    let nodes: u64 = w[i + 1].parse().expect(line);
    assert_eq!(w[i + 2], "nps", "{line}");
    let _: u64 = w[i + 3].parse().expect(line);
    assert_eq!(w[i + 4], "time", "{line}");
    let _: u64 = w[i + 5].parse().expect(line);
    assert_eq!(w[i + 6], "pv", "{line}");
    // The rest of the line is the expected play: move tokens or `@`.
    for token in &w[i + 8..] {
        assert!(
            *token == "@" || token.parse::<chex::rules::MoveToken>().is_ok(),
            "pv token '{token}' in '{line}'"
        );
    }
    (k, score, nodes, w[i + 7].to_string())
}

/// Checks every line of a finished `go`: `info multipv` lines, speed
/// lines, then `bestmove`; the final report lists up to `multipv` actions
/// best first, its first `pv` is the `bestmove`, and (with a node limit
/// on one thread) its `nodes` is the limit. Returns the final report.
#[track_caller]
fn check_search_output(
    r: &engine::GoResult,
    multipv: usize,
    wdl: bool,
    nodes: Option<u64>,
) -> Vec<(u32, Score, u64, String)> {
    let (last, body) = r.lines.split_last().unwrap();
    assert!(last.starts_with("bestmove "));
    let mut reports: Vec<Vec<(u32, Score, u64, String)>> = Vec::new();
    for line in body {
        if line.starts_with("info multipv ") {
            let info = parse_info(line, wdl);
            assert!(
                r.moves.contains(&info.3),
                "pv '{}' is not in moves {:?}",
                info.3,
                r.moves
            );
            if info.0 == 1 {
                reports.push(Vec::new());
            }
            let report = reports.last_mut().expect("a report starts with multipv 1");
            assert_eq!(
                info.0 as usize,
                report.len() + 1,
                "multipv numbering: {line}"
            );
            report.push(info);
        } else if let Some(rest) = line.strip_prefix("info string playouts/s ") {
            let w: Vec<&str> = rest.split(' ').collect();
            assert_eq!(w.len(), 3, "speed line '{line}'");
            assert_eq!(w[1], "plies/s", "speed line '{line}'");
            let _: u64 = w[0].parse().expect(line);
            let _: u64 = w[2].parse().expect(line);
        } else {
            panic!("unexpected line during a search: '{line}'");
        }
    }
    let final_report = reports
        .pop()
        .expect("at least one info report (at the end)");
    let expected_len = multipv.min(r.moves.len());
    assert_eq!(
        final_report.len(),
        expected_len,
        "the final report should list {expected_len} actions: {:?}",
        r.lines
    );
    assert_eq!(
        final_report[0].3, r.best,
        "the best action reported first should be the bestmove"
    );
    // Best first: under `Player flat` the best mean, so the scores fall
    // (it proves nothing: every score is in centipawns); under `ucb` the
    // most visited, which the info lines do not show.
    if r.player_flat {
        let cp = |s: Score| match s {
            Score::Cp(cp) => cp,
            Score::Mate(_) => panic!("Player flat proved a mate: {final_report:?}"),
        };
        for pair in final_report.windows(2) {
            assert!(
                cp(pair[0].1) >= cp(pair[1].1),
                "best first: scores {:?}",
                final_report
            );
        }
    }
    let pvs: std::collections::BTreeSet<&String> = final_report.iter().map(|i| &i.3).collect();
    assert_eq!(
        pvs.len(),
        final_report.len(),
        "MultiPV lines repeat an action"
    );
    if let Some(n) = nodes {
        if r.moves.len() > 1 {
            assert_eq!(final_report[0].2, n, "final nodes with 'go nodes {n}'");
        }
    }
    final_report
}

// ---------------------------------------------------------------------
// uci, isready, blank lines
// ---------------------------------------------------------------------

/// The answer to `uci` as protocol.md prints it (the code block under
/// "### `uci`"), with the `Threads` default made this machine's core count
/// ("all cores" in the options table; the example shows a 2-core machine).
fn uci_answer_in_protocol_md() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let doc = std::fs::read_to_string(path).expect("protocol.md");
    let section = doc
        .split("### `uci`")
        .nth(1)
        .expect("protocol.md has a ### `uci` section");
    let block = section
        .split("```")
        .nth(1)
        .expect("the uci section has a code block");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    block
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .map(|l| {
            if l.starts_with("option name Threads type spin default ") {
                let rest = l.split(" min ").nth(1).unwrap();
                format!("option name Threads type spin default {cores} min {rest}")
            } else {
                l.to_string()
            }
        })
        .collect()
}

#[test]
fn handshake_lists_id_and_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until("uciok", WAIT);
    let expected = uci_answer_in_protocol_md();
    assert_eq!(lines, expected, "{}", e.tail());
    assert_eq!(
        lines[0],
        format!("id name CHEX {}", env!("CARGO_PKG_VERSION"))
    );
    // `isready` gets `readyok` and nothing else.
    assert!(e.sync().is_empty());
    // Once more: the answer does not change.
    e.send("uci");
    assert_eq!(e.read_until("uciok", WAIT), expected);
    e.quit();
}

#[test]
fn blank_lines_extra_spaces_and_carriage_returns_are_ignored() {
    let mut e = Engine::start();
    for blank in ["", "   ", "\r", " \r"] {
        e.send(blank);
    }
    assert!(e.sync().is_empty(), "blank lines must print nothing");
    e.send("  isready  ");
    e.expect_line("readyok", |l| l == "readyok", WAIT);
    e.send("isready\r");
    e.expect_line("readyok", |l| l == "readyok", WAIT);
    e.expect_silent("position   startpos   moves  Q@0,0    n@1,0 \r");
    assert_eq!(
        e.position_string(),
        "Q0,0/n1,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
    );
    e.expect_silent("setoption  name  Seed  value  3 \r");
    assert!(e.sync().is_empty());
    e.quit();
}

// ---------------------------------------------------------------------
// setoption
// ---------------------------------------------------------------------

#[test]
fn setoption_valid_in_any_case_changes_the_search_output() {
    let mut e = Engine::start();
    for line in [
        "setoption name threads value 1",
        "setoption name SEED value 11",
        "setoption name Seed value 9007199254740991",
        "setoption name seed value 11",
        "setoption name MOVEOVERHEAD value 0",
        "setoption name MoveOverhead value 10000",
        "setoption name moveoverhead value 30",
        "setoption name playoutcap value 1",
        "setoption name PlayoutCap value 10000",
        "setoption name PlayoutCap value 300",
        "setoption name Threads value 256",
        "setoption name Threads value 1",
        "setoption name multipv value 3",
        "setoption name uci_showwdl value true",
        "setoption name Player value greedy",
        "setoption name player value random",
        "setoption name PLAYER value ucb",
        "setoption name exploration value 0",
        "setoption name Exploration value 100",
        "setoption name Exploration value 0.7",
    ] {
        e.expect_silent(line);
    }
    // The doc's position after Black has drawn a knight: 8 placements.
    e.expect_silent("position startpos moves Q@0,0 n@");
    let r = e.go_checked("go nodes 200");
    check_search_output(&r, 3, true, Some(200));

    e.expect_silent("setoption name UCI_ShowWDL value false");
    e.expect_silent("setoption name MultiPV value 1");
    let r = e.go_checked("go nodes 200");
    check_search_output(&r, 1, false, Some(200));

    // More MultiPV than actions: every action once.
    e.expect_silent("setoption name MultiPV value 256");
    let r = e.go_checked("go nodes 100");
    check_search_output(&r, 256, false, Some(100));

    // Under `flat` the actions are reported by their mean, best first.
    e.expect_silent("setoption name Player value flat");
    e.expect_silent("setoption name MultiPV value 3");
    let mut r = e.go_checked("go nodes 240");
    r.player_flat = true;
    check_search_output(&r, 3, false, Some(240));
    e.quit();
}

/// The output of a seeded one-thread search, normalised.
fn seeded_run(e: &mut Engine, go: &str) -> Vec<String> {
    let r = e.go_checked(go);
    normalise(&r.lines)
}

#[test]
fn setoption_invalid_gets_one_error_and_changes_nothing() {
    let mut e = Engine::with_options(&[
        ("Seed", "5"),
        ("Threads", "1"),
        ("MultiPV", "2"),
        ("PlayoutCap", "300"),
    ]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let before = seeded_run(&mut e, "go nodes 300");
    let state = e.state();
    for bad in [
        "setoption",
        "setoption name",
        "setoption Threads 2",
        "setoption value 3",
        "setoption name Ponder value yes",
        "setoption name Pondering value true",
        "setoption name Hash value 0",
        "setoption name Seed",
        "setoption name Seed value",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name Threads value two",
        "setoption name Threads value 1.5",
        "setoption name Seed value -1",
        "setoption name Seed value 9007199254740992",
        "setoption name Seed value 99999999999999999999999",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 257",
        "setoption name MoveOverhead value -1",
        "setoption name MoveOverhead value 10001",
        "setoption name PlayoutCap value 0",
        "setoption name PlayoutCap value 10001",
        "setoption name UCI_ShowWDL value maybe",
        "setoption name UCI_ShowWDL value 1",
        "setoption name Player value deep",
        "setoption name Player value",
        "setoption name Exploration value -1",
        "setoption name Exploration value 101",
        "setoption name Exploration value lots",
        "setoption name Exploration value NaN",
        "setoption name Exploration value",
    ] {
        e.expect_error(bad);
    }
    assert_eq!(e.state(), state, "a refused setoption changed the position");
    let after = seeded_run(&mut e, "go nodes 300");
    assert_eq!(
        before, after,
        "refused setoptions changed the seeded search's output"
    );
    e.quit();
}

// ---------------------------------------------------------------------
// position, go, bestmove
// ---------------------------------------------------------------------

/// protocol.md, "A whole turn, as a transcript", step by step.
#[test]
fn draw_and_place_transcript() {
    let mut e = Engine::with_options(&[("Seed", "1"), ("Threads", "1")]);
    e.expect_silent("position startpos");
    assert_eq!(e.moves(), ["@"]);
    let r = e.go_checked("go nodes 600");
    assert_eq!(r.best, "@");
    check_search_output(&r, 1, false, None);

    e.expect_silent("position startpos moves Q@");
    assert_eq!(e.moves(), ["Q@0,0"]);
    let d = e.display();
    assert!(
        d.contains(&"Drawn tile: queen (to be placed)".to_string()),
        "{d:?}"
    );
    let r = e.go_checked("go nodes 600");
    assert_eq!(r.best, "Q@0,0");
    check_search_output(&r, 1, false, None);

    e.expect_silent("position startpos moves Q@0,0");
    assert_eq!(e.moves(), ["@"]);
    assert_eq!(e.go_checked("go nodes 600").best, "@");

    e.expect_silent("position startpos moves Q@0,0 n@");
    let moves = e.moves();
    assert_eq!(
        moves.join(" "),
        "n@-1,-1 n@-1,0 n@-1,1 n@0,-1 n@0,1 n@1,-1 n@1,0 n@1,1"
    );
    let r = e.go_checked("go nodes 600");
    check_search_output(&r, 1, false, Some(600));
    assert!(r.best.starts_with("n@"), "{}", r.best);

    e.expect_silent(&format!("position startpos moves Q@0,0 {}", r.best));
    assert_eq!(e.status(), "status ongoing");
    let pos = e.position_string();
    let expected_tile = format!("n{}", &r.best[2..]);
    assert!(
        pos.contains(&expected_tile),
        "{pos} should hold {expected_tile}"
    );
    assert!(
        pos.ends_with(" w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"),
        "{pos}"
    );
    e.quit();
}

/// A line of the tactics suite (tests/data/tactics.txt) by its id: the
/// position, with no drawn tile to place, and the accepted answers.
fn tactic(id: &str) -> (String, Vec<String>) {
    let prefix = format!("{id} ;");
    let line = include_str!("data/tactics.txt")
        .lines()
        .find(|l| l.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no {id} in tests/data/tactics.txt"));
    let fields: Vec<&str> = line.split(';').map(str::trim).collect();
    assert_eq!(fields[2], "-", "{id}: a drawn tile to place");
    let answers = fields[4].split(' ').map(String::from).collect();
    (fields[1].to_string(), answers)
}

/// A proven mate is printed as UCI prints it (protocol.md, `go`):
/// `score mate N`, N the engine's own turns to the mate counting the one
/// it is choosing, with a certain WDL; and it is played.
#[test]
fn proven_mates_are_reported_as_mate_scores() {
    let mut e = Engine::with_options(&[("Seed", "1"), ("Threads", "1"), ("UCI_ShowWDL", "true")]);
    // A step that mates; a draw that mates whatever kind comes; a step,
    // and a draw, after which every reply, and every kind either side
    // draws, leaves a mate in one.
    let mates = [
        ("mate1-step-001", 1),
        ("mate1-draw-008", 1),
        ("mate2-006", 2),
        ("mate2-010", 2),
    ];
    for (id, mate) in mates {
        let (position, answers) = tactic(id);
        e.expect_silent(&format!("position fen {position}"));
        let r = e.go_checked("go nodes 2000");
        // The search stops once nothing can improve its answer.
        check_search_output(&r, 1, true, None);
        let last = r.info_lines().last().copied().unwrap();
        let expected = format!("info multipv 1 score mate {mate} wdl 1000 0 0 nodes ");
        assert!(last.starts_with(&expected), "{id}: {last}");
        assert!(
            answers.contains(&r.best),
            "{id}: {} not in {answers:?}",
            r.best
        );
    }
    // After the first move of a mate in two, every action of the side to
    // move is lost to a mate in one: it is mated on the opponent's first
    // turn.
    let (position, answers) = tactic("mate2-008");
    e.expect_silent(&format!("position fen {position} moves {}", answers[0]));
    let r = e.go_checked("go nodes 2000");
    check_search_output(&r, 1, true, None);
    let last = r.info_lines().last().copied().unwrap();
    assert!(
        last.starts_with("info multipv 1 score mate -1 wdl 0 0 1000 "),
        "{last}"
    );
    // The classical searcher knows a mate in one for certain.
    e.expect_silent("setoption name Player value alphabeta");
    let (position, answers) = tactic("mate1-step-001");
    e.expect_silent(&format!("position fen {position}"));
    let r = e.go_checked("go depth 2");
    check_search_output(&r, 1, true, None);
    let last = r.info_lines().last().copied().unwrap();
    assert!(
        last.starts_with("info multipv 1 score mate 1 wdl 1000 0 0 "),
        "{last}"
    );
    assert_eq!([r.best], answers[..]);
    e.quit();
}

/// Forced moves that lose: the side to move has a single action, after
/// which the opponent mates on its turn. Found by searching random games
/// for single actions. Each is a position string, the drawn tile the side
/// to move holds (if any, as the move list writes it), its action, and
/// the opponent's answer.
const FORCED_LOSSES: [(&str, Option<&str>, &str, &str); 2] = [
    // Black's pile is empty and its king has no square: the bishop's one
    // step is all it can do, and then any tile White draws mates.
    (
        "B3,-4/k4,-4/K5,-5/b6,-5 b RBNPPPP/- 1 38",
        None,
        "6,-5-5,-6",
        "@",
    ),
    // Black has drawn a rook, which has one legal square; then White's
    // knight mates.
    (
        "N-3,3/k-2,3/K-1,3/b-3,2/n-1,2/Q-3,1 b RBBPPPPP/rbnppppp 0 30",
        Some("r@"),
        "r@0,4",
        "-3,3--1,4",
    ),
];

/// A forced move is still searched, briefly, so that its score says what
/// it leads to (protocol.md, `go`), and it is answered at once whatever
/// the clock: `Player ismcts` proves the loss (`score mate -1`, as the
/// opponent's search after it proves `mate 1`), the others score it well
/// below even.
#[test]
fn a_forced_move_that_loses_is_scored_as_a_loss() {
    for player in ["ismcts", "alphabeta", "flat", "ucb"] {
        let mut e = Engine::with_options(&[
            ("Seed", "1"),
            ("Threads", "1"),
            ("UCI_ShowWDL", "true"),
            ("Player", player),
        ]);
        for (position, drawn, action, reply) in FORCED_LOSSES {
            let setup = match drawn {
                Some(drawn) => format!("position fen {position} moves {drawn}"),
                None => format!("position fen {position}"),
            };
            e.expect_silent(&setup);
            let t = Instant::now();
            // Ten minutes each: a move with a choice would take seconds.
            let r = e.go_checked("go wtime 600000 btime 600000");
            let took = t.elapsed();
            assert_eq!(r.moves, [action], "{setup}");
            assert!(took < AT_ONCE, "{player}: {setup}: took {took:?}");
            let report = check_search_output(&r, 1, true, None);
            let (_, score, nodes, _) = report[0];
            assert!(nodes > 0, "{player}: {setup}: {:?}", r.lines);
            match (player, score) {
                ("ismcts", Score::Mate(-1)) => {}
                ("alphabeta" | "flat" | "ucb", Score::Cp(cp)) if cp <= -150 => {}
                _ => panic!("{player}: {setup}: {:?}", r.lines),
            }
            if player == "ismcts" {
                e.expect_silent(&format!("position fen {position} moves {action}"));
                let r = e.go_checked("go wtime 600000 btime 600000");
                assert_eq!(r.best, reply, "{setup}");
                let report = check_search_output(&r, 1, true, None);
                assert_eq!(report[0].1, Score::Mate(1), "{setup}: {:?}", r.lines);
            }
        }
        e.quit();
    }
}

/// The letter of a drawn tile may be written in either case; the engine
/// writes it in the mover's case.
#[test]
fn drawn_tile_letters_in_either_case() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent("position startpos moves q@0,0 N@");
    assert_eq!(
        e.position_string(),
        "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
    );
    let moves = e.moves();
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.starts_with("n@")), "{moves:?}");
    let r = e.go_checked("go nodes 100");
    // Either case is accepted back.
    let upper = r.best.replacen('n', "N", 1);
    e.expect_silent(&format!("position startpos moves q@0,0 {upper}"));
    let pos = e.position_string();
    assert!(pos.contains(&format!("n{}", &r.best[2..])), "{pos}");
    e.quit();
}

#[test]
fn piece_moves_match_the_rules_library() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Seed", "2")]);
    for fen in [
        START,
        "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2",
        QUEEN_OR_PAWN,
        MIDDLEGAME,
        // Empty piles: moves only, no `@`.
        "P-1,3/P-5,2/p-4,2*/N-2,2/P-3,1*/B-1,1/b1,1/p2,1/P-3,0*/p0,0*/B2,0/P0,-1*/K1,-1/k-1,-2/r-2,-3/n-3,-4/r-3,-5/p-4,-6* w -/- 0 37",
        // Black to move with an empty pile on a crowded table.
        "n1,6/P2,6/N0,5/K1,4/p-3,3/B0,3/B2,3/n-2,2/P1,2/N2,2/p-4,1/P-2,1/p0,1/b3,1/k-4,0/b-3,0/Q1,0/R2,0/p3,0/p-4,-1/r-2,-1/r-1,-1/p0,-1/P-4,-2/p-3,-2*/R0,-2/P1,-2/p-4,-3 b PPP/- 0 20",
    ] {
        e.expect_silent(&format!("position fen {fen}"));
        let moves = e.moves();
        assert!(is_sorted(&moves), "moves not sorted: {moves:?}");
        assert_eq!(moves, library_moves(fen, None), "moves of {fen}");
        let r = e.go_checked("go nodes 200");
        // Play the engine's choice, unless it draws: then play the first
        // tile move instead, so that a piece move is played either way.
        let chosen = if r.best == "@" {
            match moves.iter().find(|m| m.contains('-') && !m.contains('@')) {
                Some(m) => m.clone(),
                None => continue,
            }
        } else {
            r.best.clone()
        };
        e.expect_silent(&format!("position fen {fen} moves {chosen}"));
        // The library agrees on the position after the move.
        let mut pos: Position = fen.parse().unwrap();
        let mv = pos.parse_move(&chosen).expect("the engine's move parses");
        pos.make(mv);
        assert_eq!(e.position_string(), pos.to_string(), "after {chosen} from {fen}");
        assert_eq!(e.moves(), library_moves(&pos.to_string(), None));
    }
    e.quit();
}

/// Plays a game through the protocol only: `go`, and when the engine
/// answers `@` the test deals a random tile of that side's pile (read off
/// `d`) as `N@`, asks again and writes the placement in its place. Every
/// `moves` list is checked against the rules library.
fn play_game(e: &mut Engine, seed: u64, turns: usize, go: &str) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played: Vec<String> = Vec::new();
    let position = |played: &[String]| {
        if played.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", played.join(" "))
        }
    };
    for _ in 0..turns {
        e.expect_silent(&position(&played));
        if e.status() != "status ongoing" {
            let r = e.go_checked(go);
            assert_eq!(r.best, "(none)");
            break;
        }
        let fen = e.position_string();
        let r = e.go_checked(go);
        assert_eq!(r.moves, library_moves(&fen, None), "moves at {fen}");
        if r.best != "@" {
            played.push(r.best);
            continue;
        }
        let side = fen.split(' ').nth(1).unwrap();
        let piles: Vec<&str> = fen.split(' ').nth(2).unwrap().split('/').collect();
        let pile: Vec<char> = if side == "w" { piles[0] } else { piles[1] }
            .chars()
            .collect();
        assert_ne!(pile, ['-'], "the engine drew from an empty pile");
        let tile = *pile.choose(&mut rng).unwrap();
        played.push(format!("{tile}@"));
        e.expect_silent(&position(&played));
        let r = e.go_checked(go);
        played.pop();
        if r.best == "(none)" {
            let info = &r.lines[r.lines.len() - 2];
            assert!(info.starts_with("info string "), "{:?}", r.lines);
            let status = e.status();
            assert!(status.starts_with("status drawn-tile-"), "{status}");
            break;
        }
        assert_eq!(
            r.moves,
            library_moves(&fen, Some(tile)),
            "placements of {tile}"
        );
        assert!(r.best.starts_with(&format!("{tile}@")), "{}", r.best);
        played.push(r.best);
    }
    played
}

#[test]
fn a_game_with_dealt_tiles() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Seed", "9")]);
    let played = play_game(&mut e, 1, 24, "go nodes 60");
    assert!(played.len() >= 4, "{played:?}");
    e.quit();
}

#[test]
fn every_player_plays_legal_moves() {
    for (player, seeds) in [("random", 3), ("greedy", 3), ("flat", 1), ("ucb", 1)] {
        for seed in 0..seeds {
            let mut e = Engine::with_options(&[("Threads", "1"), ("Player", player)]);
            if seed > 0 {
                e.expect_silent(&format!("setoption name Seed value {seed}"));
            }
            let played = play_game(&mut e, 100 + seed, 60, "go nodes 50");
            assert!(played.len() >= 4, "{player}: {played:?}");
            for (fen, drawn) in [(MIDDLEGAME, "P@"), (QUEEN_OR_PAWN, "Q@")] {
                e.expect_silent(&format!("position fen {fen}"));
                e.go_checked("go nodes 50");
                e.expect_silent(&format!("position fen {fen} moves {drawn}"));
                let r = e.go_checked("go nodes 50");
                assert!(r.best.starts_with(drawn), "{}", r.best);
            }
            e.quit();
        }
    }
}

/// `greedy` "takes the most valuable piece it can".
#[test]
fn go_depth_is_answered_by_alphabeta_alone() {
    let mut e = Engine::with_options(&[("Player", "alphabeta"), ("Threads", "1")]);
    e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
    // No clock and no node limit: the depth alone ends the search.
    let r = e.go_checked("go depth 2");
    assert_eq!(r.best, "0,0-0,1");
    e.expect_silent("setoption name Player value ismcts");
    let msg = e.expect_error("go depth 2");
    assert!(msg.contains("alphabeta"), "{msg}");
    e.quit();
}

#[test]
fn greedy_takes_the_queen() {
    let mut e = Engine::with_options(&[("Player", "greedy"), ("Threads", "1")]);
    e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
    let r = e.go_checked("go nodes 10");
    assert!(r.moves.contains(&"0,0-1,0".to_string()), "{:?}", r.moves);
    assert_eq!(r.best, "0,0-0,1");
    e.quit();
}

#[test]
fn ucinewgame_returns_to_the_start_position() {
    let mut e = Engine::start();
    e.expect_silent("position startpos moves Q@0,0 n@1,0 B@");
    e.expect_silent("ucinewgame");
    assert_eq!(e.position_string(), START);
    assert!(!e.display().iter().any(|l| l.starts_with("Drawn tile")));
    assert_eq!(e.moves(), ["@"]);
    e.quit();
}

// ---------------------------------------------------------------------
// Limits: movetime, clocks, infinite, stop
// ---------------------------------------------------------------------

#[test]
fn movetime_and_clocks_bound_the_search() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("MoveOverhead", "0")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let moves = e.moves();
    let t = Instant::now();
    e.send("go movetime 300");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    let took = t.elapsed();
    e.check_bestmove(&moves, &line);
    assert!(
        took >= Duration::from_millis(300),
        "movetime 300 took {took:?}"
    );
    assert!(
        took < Duration::from_millis(3000),
        "movetime 300 took {took:?}"
    );

    // A clock of 1 s: never more than half of it (plus slack for a
    // loaded machine).
    let t = Instant::now();
    e.send("go wtime 1000 btime 1000 winc 0 binc 0");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    let took = t.elapsed();
    e.check_bestmove(&moves, &line);
    assert!(
        took < Duration::from_millis(1500),
        "wtime 1000 took {took:?}"
    );

    let t = Instant::now();
    e.send("go wtime 10000 btime 1 movestogo 40 winc 0 binc 0");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    e.check_bestmove(&moves, &line);
    assert!(t.elapsed() < Duration::from_millis(2500));
    e.quit();
}

/// A game in which the engine once fell silent at White's 39th turn:
/// a leaf of its tree had evasions of check met by captures that check
/// again, and the quiescence judging it grew without end (a judgement
/// now stops at a node limit). It must answer like any other position.
#[test]
fn a_position_whose_quiescence_explodes_is_answered() {
    let moves: String = [
        "P@0,0 b@0,1 P@0,2 k@-1,0 P@-2,-1 p@-1,-2 P@1,0 -1,0-0,-1 B@1,-2 ",
        "n@2,-3 1,0-0,1 q@1,-1 B@2,0 p@3,1 N@3,0 3,1-2,0 3,0-1,-1 2,0-1,-1 ",
        "R@2,-1 p@3,0 P@2,-2 0,-1-0,-2 2,-1-2,0 r@1,-3 1,-2--1,0 2,-3-0,-4 ",
        "2,-2-1,-1 0,-2-0,-3 P@-1,-5 b@-2,-6 R@-1,-4 -2,-6--1,-5 -1,-4--1,-5 ",
        "p@-1,-3 -1,0-0,-1 n@0,-6 -1,-5-0,-5 p@-1,-4 0,-5--1,-5 p@0,-2 ",
        "-1,-5-1,-5 0,-6-1,-4 1,-5-1,-4 1,-3-1,-4 0,-1-2,1 p@3,2 Q@2,3 ",
        "0,-4-1,-2 2,3-3,2 r@4,3 2,0-1,0 1,-4-0,-4 1,0-1,1 0,-4-1,-4 N@-1,-5 ",
        "p@-2,-6 K@-2,-5 0,-3-1,-3 -2,-5--3,-5 0,-2-0,-4 P@2,-5 1,-4-1,-5 ",
        "-3,-5--2,-6 1,-3-0,-3 1,1-1,2 0,-3-1,-3 -2,-6--1,-6 1,-3-0,-3 0,2-0,3 ",
        "0,-3-0,-2 -1,-6--2,-6 0,-2-1,-3 -2,-6--1,-6 1,-3-0,-2 2,-5-2,-4 ",
        "1,-2-2,-4",
    ]
    .concat();
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent(&format!("position startpos moves {moves}"));
    let legal = e.moves();
    e.send("go movetime 100");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    e.check_bestmove(&legal, &line);
    e.quit();
}

/// Waits `d` and checks that no `bestmove` came meanwhile.
fn no_bestmove_for(e: &mut Engine, d: Duration) {
    if let Some(l) = e.recv_matching(|l| l.starts_with("bestmove"), d) {
        e.fail(&format!("'{l}' came unasked"));
    }
}

#[test]
fn go_infinite_answers_only_after_stop() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    // A real choice, and a single choice (the empty table): both wait.
    for (setup, nodes_check) in [
        (format!("position fen {MIDDLEGAME}"), true),
        ("position startpos".to_string(), false),
        ("position startpos moves Q@".to_string(), false),
    ] {
        e.expect_silent(&setup);
        let moves = e.moves();
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        no_bestmove_for(&mut e, Duration::from_millis(1200));
        let t = Instant::now();
        e.send("stop");
        let lines = e.read_until("bestmove", WAIT);
        let took = t.elapsed();
        e.check_bestmove(&moves, lines.last().unwrap());
        assert!(
            took < AT_ONCE,
            "bestmove came {took:?} after stop{}",
            e.tail()
        );
        if nodes_check {
            // More than a second passed: at least one periodic report.
            assert!(lines.iter().any(|l| l.starts_with("info multipv 1 ")));
        }
        // Exactly one bestmove; a second stop is ignored.
        assert!(e.command("stop").is_empty());
        no_bestmove_for(&mut e, Duration::from_millis(200));
    }
    e.quit();
}

#[test]
fn go_without_limits_thinks_until_stop() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
    let moves = e.moves();
    e.send("go");
    no_bestmove_for(&mut e, Duration::from_millis(1000));
    e.send("stop");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    e.check_bestmove(&moves, &line);
    e.quit();
}

/// protocol.md: "A caller waits for `bestmove` before it sends the next
/// `go`" and busy errors are for a `go` "while other work runs: wait for
/// its `bestmove`". So a `go` sent right after a `bestmove` arrives must
/// be carried out, not refused as busy.
#[test]
fn go_right_after_bestmove_is_accepted() {
    // Two busy engines load the machine, as on a CI runner running tests
    // in parallel: the race this looks for shows under load.
    let mut load: Vec<Engine> = (0..2)
        .map(|_| {
            let mut l = Engine::with_options(&[("Threads", "2")]);
            l.expect_silent(&format!("position fen {MIDDLEGAME}"));
            l.send("go infinite");
            l
        })
        .collect();
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent("position startpos moves Q@0,0 n@");
    let moves = e.moves();
    for i in 0..300 {
        let go = if i % 2 == 0 {
            "go nodes 1"
        } else {
            "go nodes 16"
        };
        e.send(go);
        let line = e.read_until("bestmove", WAIT).pop().unwrap();
        e.check_bestmove(&moves, &line);
    }
    // The same after `stop`.
    for _ in 0..20 {
        e.send("go infinite");
        e.send("stop");
        let line = e.read_until("bestmove", WAIT).pop().unwrap();
        e.check_bestmove(&moves, &line);
    }
    // The same for perft: "wait for its ... last line".
    e.expect_silent("position startpos");
    for _ in 0..100 {
        e.send("perft 1");
        let (before, last) = e.expect_line(
            "the end of perft 1",
            |l| l.starts_with("Nodes searched: ") || l.starts_with("info string error"),
            WAIT,
        );
        if last != "Nodes searched: 6" {
            e.fail(&format!(
                "perft 1 right after a perft printed {before:?} {last}"
            ));
        }
    }
    e.quit();
    for l in &mut load {
        l.send("stop");
        l.read_until("bestmove", WAIT);
    }
}

/// protocol.md: "`infinite` thinks until `stop`, and answers only then",
/// whoever the `Player` is.
#[test]
fn every_player_waits_for_stop_under_go_infinite() {
    for player in ["ucb", "flat", "greedy", "random"] {
        let mut e = Engine::with_options(&[("Threads", "1"), ("Player", player)]);
        e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
        let moves = e.moves();
        e.send("go infinite");
        let early = e.recv_matching(|l| l.starts_with("bestmove"), Duration::from_millis(500));
        if let Some(l) = early {
            e.fail(&format!(
                "Player {player}: '{l}' came before stop under go infinite"
            ));
        }
        e.send("stop");
        let line = e.read_until("bestmove", WAIT).pop().unwrap();
        e.check_bestmove(&moves, &line);
        e.quit();
    }
}

#[test]
fn stop_when_idle_is_ignored() {
    let mut e = Engine::start();
    assert!(e.command("stop").is_empty());
    e.expect_silent("position startpos moves Q@0,0");
    assert!(e.command("stop").is_empty());
    no_bestmove_for(&mut e, Duration::from_millis(200));
    e.quit();
}

#[test]
fn isready_during_a_search_is_answered_at_once() {
    let mut e = Engine::with_options(&[("Threads", "2")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let moves = e.moves();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let mut worst = Duration::ZERO;
    for _ in 0..20 {
        let t = Instant::now();
        e.send("isready");
        let (before, _) = e.expect_line("readyok", |l| l == "readyok", WAIT);
        worst = worst.max(t.elapsed());
        if let Some(l) = before.iter().find(|l| !l.starts_with("info ")) {
            e.fail(&format!("unexpected '{l}' during the search"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("isready during a search: slowest readyok {worst:?}");
    assert!(
        worst < AT_ONCE,
        "readyok took up to {worst:?} during a search{}",
        e.tail()
    );
    e.send("stop");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    e.check_bestmove(&moves, &line);
    e.quit();
}

/// `position`, `ucinewgame` and `setoption` during a search take effect
/// from the next `go`; commands that start work are refused with one error
/// line each; `d`, `moves`, `status` answer at once.
#[test]
fn commands_during_a_search() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("MultiPV", "1")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let old_moves = e.moves();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    for busy in ["go nodes 10", "go infinite", "go", "perft 1", "bench"] {
        let out = e.command(busy);
        let errors: Vec<&String> = out
            .iter()
            .filter(|l| !l.starts_with("info multipv ") && !l.starts_with("info string playouts/s"))
            .collect();
        if errors.len() != 1 || !errors[0].starts_with("info string error: ") {
            e.fail(&format!(
                "'{busy}' during a search: expected one error line, got {out:?}"
            ));
        }
    }
    // Accepted while searching, silently.
    for line in [
        "setoption name MultiPV value 2",
        "ucinewgame",
        "position startpos moves Q@0,0 n@",
    ] {
        let out = e.command(line);
        if out
            .iter()
            .any(|l| !l.starts_with("info multipv ") && !l.starts_with("info string playouts/s"))
        {
            e.fail(&format!("'{line}' during a search printed {out:?}"));
        }
    }
    let new_moves: Vec<String> = "n@-1,-1 n@-1,0 n@-1,1 n@0,-1 n@0,1 n@1,-1 n@1,0 n@1,1"
        .split(' ')
        .map(String::from)
        .collect();
    // `moves` shows the new position already.
    let moves_now: Vec<String> = {
        e.send("moves");
        let (_, line) = e.expect_line("the moves line", |l| l.starts_with("n@"), WAIT);
        line.split(' ').map(String::from).collect()
    };
    assert_eq!(moves_now, new_moves);
    e.send("stop");
    let lines = e.read_until("bestmove", WAIT);
    // The running search kept its position and its MultiPV 1.
    let best = e.check_bestmove(&old_moves, lines.last().unwrap());
    assert!(!best.starts_with("n@"));
    let mut before_best = lines[..lines.len() - 1].iter().rev();
    let speed = before_best.next().unwrap();
    assert!(speed.starts_with("info string playouts/s"), "{lines:?}");
    let last_report = before_best
        .take_while(|l| l.starts_with("info multipv "))
        .count();
    assert_eq!(
        last_report, 1,
        "the running search kept MultiPV 1: {lines:?}"
    );
    // The next `go` uses the new position and options.
    let r = e.go_checked("go nodes 100");
    assert_eq!(r.moves, new_moves);
    check_search_output(&r, 2, false, Some(100));
    e.quit();
}

// ---------------------------------------------------------------------
// quit and end of input
// ---------------------------------------------------------------------

#[test]
fn quit_during_a_search_exits_at_once_and_prints_bestmove() {
    let mut worst = Duration::ZERO;
    for threads in ["1", "2"] {
        let mut e = Engine::with_options(&[("Threads", threads)]);
        e.expect_silent(&format!("position fen {MIDDLEGAME}"));
        let moves = e.moves();
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        e.send("quit");
        let status = e.wait_exit(WAIT);
        let took = t.elapsed();
        worst = worst.max(took);
        assert!(
            status.is_some_and(|s| s.success()),
            "exit status {status:?}{}",
            e.tail()
        );
        let rest = e.drain_to_end(WAIT);
        let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(
            best.len(),
            1,
            "quit: the search's bestmove is still printed: {rest:?}"
        );
        e.check_bestmove(&moves, best[0]);
        e.join_stderr();
        e.assert_no_panic();
    }
    eprintln!("quit during a search: slowest exit {worst:?}");
    assert!(
        worst <= QUIT_LIMIT,
        "quit during a search took {worst:?} to exit (limit {QUIT_LIMIT:?})"
    );
}

#[test]
fn quit_abandons_perft_and_bench() {
    for work in ["perft 7", "bench"] {
        let mut e = Engine::start();
        e.expect_silent(&format!("position fen {MIDDLEGAME}"));
        e.send(work);
        std::thread::sleep(Duration::from_millis(300));
        // `isready` is answered while the work runs.
        let t = Instant::now();
        e.send("isready");
        e.expect_line("readyok", |l| l == "readyok", WAIT);
        let took = t.elapsed();
        assert!(took < AT_ONCE, "readyok during {work} took {took:?}");
        let t = Instant::now();
        e.send("quit");
        let status = e.wait_exit(WAIT);
        let took = t.elapsed();
        assert!(status.is_some_and(|s| s.success()), "{work}: {status:?}");
        assert!(took <= QUIT_LIMIT, "quit during {work} took {took:?}");
        e.join_stderr();
        e.assert_no_panic();
    }
}

#[test]
fn end_of_input_when_idle_exits_cleanly() {
    let mut e = Engine::start();
    e.expect_silent("position startpos moves Q@0,0");
    e.close_stdin();
    let status = e.wait_exit(WAIT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(e.drain_to_end(WAIT).is_empty());
    e.join_stderr();
    e.assert_no_panic();
    assert!(e.stderr_text().is_empty(), "stderr: {}", e.stderr_text());
}

#[test]
fn end_of_input_lets_a_finite_search_finish() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let moves = e.moves();
    e.send("go nodes 3000");
    e.close_stdin();
    let status = e.wait_exit(WAIT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let rest = e.drain_to_end(WAIT);
    let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{rest:?}");
    e.check_bestmove(&moves, best[0]);
    // It was not cut short: the last report counts all the nodes.
    let last_info = rest
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .expect("a final info line");
    assert_eq!(field(last_info, "nodes"), Some("3000"), "{rest:?}");
    e.join_stderr();
    e.assert_no_panic();
}

#[test]
fn end_of_input_stops_go_infinite() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let moves = e.moves();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(
        status.is_some_and(|s| s.success()),
        "{status:?}{}",
        e.tail()
    );
    let rest = e.drain_to_end(WAIT);
    let best: Vec<&String> = rest.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{rest:?}");
    e.check_bestmove(&moves, best[0]);
}

#[test]
fn end_of_input_lets_perft_finish() {
    let mut e = Engine::start();
    e.send("perft 3");
    e.close_stdin();
    let status = e.wait_exit(WAIT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let rest = e.drain_to_end(WAIT);
    assert_eq!(
        rest.last().map(String::as_str),
        Some("Nodes searched: 15952")
    );
}

#[test]
fn quit_when_idle() {
    let mut e = Engine::start();
    assert!(e.sync().is_empty());
    e.send("quit");
    let status = e.wait_exit(WAIT);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    assert!(e.drain_to_end(WAIT).is_empty());
}

// ---------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------

/// Lines that must be refused in any state, with what the message must
/// mention (if anything).
const BAD_LINES: &[(&str, &str)] = &[
    // unknown commands
    ("foo", ""),
    ("isready2", ""),
    ("goo nodes 5", ""),
    ("position2 startpos", ""),
    // wrong arguments
    ("uci now", ""),
    ("isready now", ""),
    ("ucinewgame now", ""),
    ("stop now", ""),
    ("quit now", ""),
    ("d 1", ""),
    ("moves all", ""),
    ("status now", ""),
    ("bench 3", ""),
    ("position", ""),
    ("position fen", ""),
    ("position startpos 1,1", ""),
    ("position startpos Q@0,0", ""),
    ("position middle", ""),
    ("position startpos fen - w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1", ""),
    ("perft", ""),
    ("perft 0", ""),
    ("perft 9", ""),
    ("perft -1", ""),
    ("perft x", ""),
    ("perft 1 2", ""),
    ("setoption", ""),
    ("setoption name", ""),
    ("setoption Threads 2", ""),
    // malformed or impossible position strings
    ("position fen - w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0", ""),
    ("position fen - w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1 9", ""),
    ("position fen X0,0 b KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1", "X0,0"),
    ("position fen Q0,0/k5,5 w KRRBBNNPPPPPPPP/qrrbbnnpppppppp 0 3", ""),
    ("position fen K0,0/K1,0 b QRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1", ""),
    ("position fen Q0,0/k0,0 w KRRBBNNPPPPPPPP/qrrbbnnpppppppp 0 3", ""),
    ("position fen K1000000001,0 b QRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1", "K1000000001,0"),
    ("position fen Q0,0/n1,1 x KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", ""),
    ("position fen N0,0 b KQRRBBNPPPPPPPP/KQRRBBNNPPPPPPPP 0 1", ""),
    ("position fen N0,0 b KQQRBBNPPPPPPPP/kqrrbbnnpppppppp 0 1", ""),
    ("position fen N0,0 b KQRRBBNPPPPPPPP/kqrrbbnnpppppppp -1 1", ""),
    ("position fen N0,0 b KQRRBBNPPPPPPPP/kqrrbbnnpppppppp x 1", ""),
    ("position fen - w KQRRBBNNPPPPPPP/kqrrbbnnpppppppp 0 1", ""),
    ("position fen Q0,0/k1,0 w KRRBBNNPPPPPPPP/qrrbbnnpppppppp 0 2", ""),
    ("position fen Q0,0/n1,1 w KRRBBNNPPPPPPPP/qrrbbnpppppppp 0 2", ""),
    ("position fen Q0,0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", ""),
    // illegal or malformed moves: the message gives the move's number
    ("position startpos moves Q@0,0 n@5,5", "2"),
    ("position startpos moves Q@1,0", "1"),
    ("position startpos moves Q@0,0 n@1,0 Q@9,9", "3"),
    ("position startpos moves Q@0,0 n@1,0 0,0-0,0", "3"),
    ("position startpos moves Q@0,0 n@1,0 zz", "3"),
    ("position startpos moves Q@0,0 n@1,0 0,0-5,0", "3"),
    ("position startpos moves Q@0,0 k@1,1", "2"),
    ("position startpos moves Q@0,0 n@1,0 X@0,1", "3"),
    // N@ with a kind not left, N@ not last, @ in a move list
    ("position startpos moves Q@0,0 n@1,0 Q@", "3"),
    ("position startpos moves Q@0,0 n@1,0 q@", "3"),
    ("position startpos moves Q@ n@", ""),
    ("position startpos moves Q@0,0 n@ n@1,0", ""),
    ("position startpos moves @ Q@0,0", ""),
    ("position startpos moves Q@0,0 @ n@1,0", ""),
    // a move after the game has ended (threefold repetition at move 6)
    (
        "position fen N0,0/n1,0 w K/k 0 1 moves 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2 4,-1-6,-2 5,-2-7,-1",
        "7",
    ),
    // negative or non-numeric limits, depth, unknown limits
    ("go nodes -5", ""),
    ("go nodes five", ""),
    ("go movetime abc", ""),
    ("go movetime -1", ""),
    ("go wtime -1", ""),
    ("go btime -100 wtime 100", ""),
    ("go winc -3 wtime 100", ""),
    ("go binc x wtime 100", ""),
    ("go movestogo -2 wtime 100", ""),
    ("go nodes 10 movetime", ""),
    ("go depth 3", "alphabeta"),
    ("go depth 0", ""),
    ("go sideways", ""),
    ("go ponder sideways", ""),
    // ponderhit with no ponder search running
    ("ponderhit", "ponder"),
    ("ponderhit now", ""),
    // unknown options, values out of range
    ("setoption name Ponder value maybe", "Ponder"),
    ("setoption name Pondering value true", ""),
    ("setoption name Hash value 0", ""),
    ("setoption name Threads value 0", ""),
    ("setoption name Seed value -1", ""),
    ("setoption name MultiPV value 257", ""),
    ("setoption name Player value deep", ""),
];

/// A game state to refuse lines in: Black has drawn a knight (pending), or
/// White is to move after four placements.
const STATES: &[&str] = &[
    "position startpos moves Q@0,0 n@1,0 B@0,1 p@2,0",
    "position startpos moves Q@0,0 n@1,0 B@0,1 n@",
    "position fen q0,1/k1,1/K-2,0/P-1,0/R0,0/p1,0 w QRBBNNPPPPPPP/rrbbnnppppppp 0 10",
];

#[test]
fn every_error_gets_one_line_and_changes_nothing() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    for setup in STATES {
        e.expect_silent(setup);
        let before = e.state();
        for (bad, mention) in BAD_LINES {
            let msg = e.expect_error(bad);
            if !msg.contains(mention) {
                e.fail(&format!(
                    "the error for '{bad}' should mention '{mention}': {msg}"
                ));
            }
            let now = e.state();
            if now != before {
                e.fail(&format!(
                    "'{bad}' changed the state:\n{before:#?}\n{now:#?}"
                ));
            }
        }
    }
    // perft is refused while a drawn tile is pending.
    e.expect_silent(STATES[1]);
    let before = e.state();
    e.expect_error("perft 1");
    assert_eq!(e.state(), before);
    e.quit();
}

/// A refused `go` starts nothing: a `perft` right after it runs (it would
/// be refused while a search runs).
#[test]
fn a_refused_go_starts_no_search() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent(STATES[0]);
    let moves = e.moves();
    // perft runs on its own thread: read up to its last line.
    let perft1 = |e: &mut Engine| {
        e.send("perft 1");
        let (before, last) = e.expect_line(
            "the end of perft 1",
            |l| l.starts_with("Nodes searched: ") || l.starts_with("info string error"),
            WAIT,
        );
        let mut out = before;
        out.push(last);
        out
    };
    let first = perft1(&mut e);
    let total = format!("Nodes searched: {}", first.len() - 1);
    assert_eq!(first.last(), Some(&total), "{first:?}");
    for (bad, _) in BAD_LINES.iter().filter(|(l, _)| l.starts_with("go ")) {
        e.expect_error(bad);
        let out = perft1(&mut e);
        if out != first {
            // A busy error: did the refused go start a search, or is this
            // the engine's busy-after-the-last-line race? Ask again later.
            std::thread::sleep(Duration::from_millis(300));
            let again = perft1(&mut e);
            let why = if again == first {
                "perft 1 was refused right after the previous perft's last line (the \
                 engine's race, see go_right_after_bestmove_is_accepted)"
            } else {
                "the refused go seems to have started work"
            };
            e.fail(&format!("after '{bad}', perft 1 printed {out:?}: {why}"));
        }
    }
    no_bestmove_for(&mut e, Duration::from_millis(200));
    let r = e.go_checked("go nodes 20");
    assert_eq!(r.moves, moves);
    e.quit();
}

#[test]
fn non_utf8_and_overlong_lines_are_refused_once() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    e.expect_silent("position startpos moves Q@0,0 n@1,0");
    let before = e.state();
    for bytes in [
        b"position startpos\xff".to_vec(),
        b"\xc3\x28".to_vec(),
        b"isready \xfe\xfe".to_vec(),
        b"position startpos moves Q@0,0 \x80n@1,1".to_vec(),
    ] {
        e.expect_error_bytes(&bytes);
        assert_eq!(e.state(), before);
    }
    // A 2 MB line that would be a valid command if it were read: refused
    // whole, once.
    let mut long = b"position startpos".to_vec();
    long.resize(2 << 20, b' ');
    e.expect_error_bytes(&long);
    assert_eq!(e.state(), before);
    let mut long = b"isready".to_vec();
    long.resize(3 << 20, b' ');
    e.expect_error_bytes(&long);
    // A 100 KB line is within the limit: extra spaces are ignored.
    let mut ok = "position startpos moves".to_string();
    ok.push_str(&" ".repeat(100 << 10));
    ok.push_str("Q@0,0 n@1,1");
    e.expect_silent(&ok);
    assert_eq!(
        e.position_string(),
        "n1,1/Q0,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
    );
    // A 100 KB move list of nonsense is refused with one line.
    let junk = format!(
        "position startpos moves {}",
        "Q@0,0 ".repeat((100 << 10) / 6)
    );
    e.expect_error(&junk);
    assert_eq!(
        e.position_string(),
        "n1,1/Q0,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
    );
    e.quit();
}

// ---------------------------------------------------------------------
// status, endings, go at the end of a game
// ---------------------------------------------------------------------

/// (setup, status, a word the `info string` before `bestmove (none)`
/// must contain)
const ENDINGS: &[(&str, &str, &str)] = &[
    (
        "position fen K1,2/R1,1/N2,1/k0,0 b -/- 0 40",
        "status checkmate 1-0",
        "checkmate",
    ),
    (
        "position fen K1,2/R1,1/B2,1/k0,0 b -/- 0 40",
        "status stalemate 1/2-1/2",
        "stalemate",
    ),
    (
        "position fen Q0,0 b K/kp 0 1 moves k@",
        "status drawn-tile-stalemate 1/2-1/2",
        "stalemate",
    ),
    (
        "position fen P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30 moves n@",
        "status drawn-tile-checkmate 1-0",
        "checkmate",
    ),
    (
        "position fen N0,0/n1,0 w K/k 0 1 moves 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2 4,-1-6,-2",
        "status repetition 1/2-1/2",
        "repetition",
    ),
    (
        "position fen n0,1/b2,1/N0,0/P1,0 w K/k 99 80 moves 0,0-1,2",
        "status fifty-moves 1/2-1/2",
        "fifty",
    ),
    (
        "position fen n0,1/b2,1/N0,0/P1,0 w K/k 100 80",
        "status fifty-moves 1/2-1/2",
        "fifty",
    ),
];

#[test]
fn status_and_go_when_the_game_is_over() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    for (setup, status, why) in ENDINGS {
        e.expect_silent(setup);
        assert_eq!(&e.status(), status, "after '{setup}'");
        assert_eq!(e.moves_line(), "", "moves when the game is over");
        for go in ["go nodes 100", "go movetime 50", "go infinite"] {
            let r = e.go_checked(go);
            assert_eq!(r.best, "(none)");
            assert_eq!(r.lines.len(), 2, "{:?}", r.lines);
            let info = &r.lines[0];
            assert!(
                info.starts_with("info string ") && !info.starts_with("info string error"),
                "{info}"
            );
            assert!(
                info.to_lowercase().contains(why),
                "'{info}' should say '{why}'"
            );
            // Nothing runs: a stop changes nothing, no second bestmove.
            assert!(e.command("stop").is_empty());
        }
        let d = e.display();
        assert!(!d.contains(&"Status: ongoing".to_string()), "{d:?}");
    }
    e.quit();
}

#[test]
fn status_ongoing_just_before_the_endings() {
    let mut e = Engine::start();
    for setup in [
        "position startpos",
        "position fen Q0,0 b K/kp 0 1 moves p@",
        "position fen Q0,0 b K/kp 0 1",
        "position fen N0,0/n1,0 w K/k 0 1 moves 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2",
        "position fen n0,1/b2,1/N0,0/P1,0 w K/k 98 80 moves 0,0-1,2",
        "position fen n0,1/b2,1/N0,0/P1,0 w K/k 99 80 moves 1,0-1,1",
    ] {
        e.expect_silent(setup);
        assert_eq!(e.status(), "status ongoing", "after '{setup}'");
        assert_ne!(e.moves_line(), "");
    }
    // One ply short of a threefold repetition from the start position.
    let walk = "N@0,0 n@1,0 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2";
    e.expect_silent(&format!("position startpos moves {walk}"));
    assert_eq!(e.status(), "status ongoing");
    e.quit();
}

/// Issue 24, item 1: a third occurrence across moved pawns' steps is a
/// draw, though every pawn step resets the fifty-move clock.
#[test]
fn threefold_repetition_across_moved_pawn_steps() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    let start = "position fen K0,0/P1,0*/k2,0/r1,-1 w -/- 0 10 moves";
    let walk = "1,0-1,1 1,-1-1,0 0,0-0,1 2,0-2,1 1,1-1,2 1,0-1,1 0,1-0,2 2,1-2,2";
    e.expect_silent(&format!("{start} {walk}"));
    assert_eq!(e.status(), "status repetition 1/2-1/2");
    assert_eq!(e.moves_line(), "");
    let r = e.go_checked("go nodes 100");
    assert_eq!(r.best, "(none)");
    e.quit();
}

/// Issue 24, item 8: Black's move at fullmove 1000000000 would make a
/// position whose string `position fen` refuses (the counters hold at
/// most 1000000000), so it is refused itself, with the reason; the engine
/// keeps its last good position, and what `d` writes it takes back.
#[test]
fn the_fullmove_number_never_passes_what_a_position_string_holds() {
    let mut e = Engine::start();
    let start = "K0,0/k1,2/q1,1 b -/- 0 1000000000";
    e.expect_silent(&format!("position fen {start}"));
    let msg = e.expect_error(&format!("position fen {start} moves 1,2-2,2"));
    assert!(msg.contains("move 1 '1,2-2,2'"), "{msg}");
    assert!(msg.contains("1000000000"), "{msg}");
    for setup in [
        format!("position fen {start}"),
        // White's turn at the limit leaves the number as it is.
        "position fen K0,0/k1,2/q1,1 w -/- 0 1000000000 moves 0,0-1,0".to_string(),
    ] {
        e.expect_silent(&setup);
        let d = e.command("d");
        let written = d
            .iter()
            .find_map(|l| l.strip_prefix("Position: "))
            .unwrap_or_else(|| panic!("no position in {d:?}"))
            .to_string();
        assert!(written.ends_with(" 1000000000"), "{written}");
        e.expect_silent(&format!("position fen {written}"));
    }
    e.quit();
}

/// Issue 24, item 9: a `Hash` larger than the memory available is one
/// error line and changes nothing (the search still runs).
#[test]
fn hash_beyond_the_memory_available_is_refused() {
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let available_kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let mut e = Engine::start();
    if available_kib / 1024 < 65536 {
        let msg = e.expect_error("setoption name Hash value 65536");
        assert!(msg.contains("memory available"), "{msg}");
    }
    e.expect_silent("setoption name Hash value 1");
    e.expect_silent("position startpos moves Q@0,0 n@1,1");
    let r = e.go_checked("go nodes 50");
    assert_ne!(r.best, "(none)");
    e.quit();
}

/// Repetition reached from the start position: the two knights walk
/// across the table, and the position after the placements comes back
/// twice, moved (RULES.md section 6: up to translation).
#[test]
fn threefold_repetition_from_the_start_position() {
    let mut e = Engine::with_options(&[("Threads", "1")]);
    let walk = "N@0,0 n@1,0 0,0-2,1 1,0-3,1 2,1-4,0 3,1-4,-1 4,0-5,-2 4,-1-6,-2";
    e.expect_silent(&format!("position startpos moves {walk}"));
    assert_eq!(e.status(), "status repetition 1/2-1/2");
    assert_eq!(e.moves_line(), "");
    let r = e.go_checked("go nodes 100");
    assert_eq!(r.best, "(none)");
    assert!(r.lines[0].starts_with("info string "));
    e.quit();
}

// ---------------------------------------------------------------------
// perft, moves, d
// ---------------------------------------------------------------------

#[test]
fn perft_from_the_start_position() {
    let mut e = Engine::start();
    for (depth, total) in [(1, 6u64), (2, 262), (3, 15952)] {
        e.send(&format!("perft {depth}"));
        let lines = e.read_until("Nodes searched: ", WAIT);
        assert!(e.sync().is_empty());
        let (last, divide) = lines.split_last().unwrap();
        assert_eq!(last, &format!("Nodes searched: {total}"));
        let mut sum = 0;
        let mut roots = Vec::new();
        for line in divide {
            let (mv, n) = line.split_once(": ").expect(line);
            roots.push(mv.to_string());
            sum += n.parse::<u64>().expect(line);
        }
        assert_eq!(sum, total);
        assert!(is_sorted(&roots), "{roots:?}");
        assert_eq!(
            roots,
            ["B@0,0", "K@0,0", "N@0,0", "P@0,0", "Q@0,0", "R@0,0"]
        );
    }
    e.quit();
}

#[test]
fn perft_matches_the_rules_library() {
    let mut e = Engine::start();
    for (fen, depth) in [
        ("Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", 2),
        (QUEEN_OR_PAWN, 2),
        ("K1,2/R1,1/N2,1/k0,0 b -/- 0 40", 1),
        ("R-2,4/P-1,4/P-2,3*/P0,3*/P0,2/R-2,1/p-1,1/k1,1/K2,0/P2,-1*/r2,-2/p1,-3*/p0,-4*/p-1,-5* w -/- 1 41", 3),
    ] {
        e.expect_silent(&format!("position fen {fen}"));
        e.send(&format!("perft {depth}"));
        let lines = e.read_until("Nodes searched: ", WAIT);
        let mut pos: Position = fen.parse().unwrap();
        let mut divide: Vec<(String, u64)> = chex::rules::divide(&pos, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect();
        divide.sort();
        let mut expected: Vec<String> = divide
            .into_iter()
            .map(|(mv, n)| format!("{mv}: {n}"))
            .collect();
        let total = chex::rules::perft(&mut pos, depth);
        expected.push(format!("Nodes searched: {total}"));
        assert_eq!(lines, expected, "perft {depth} of {fen}");
    }
    e.quit();
}

#[test]
fn perft_command_agrees_with_the_subcommand() {
    let out = std::process::Command::new(BIN)
        .args(["perft", QUEEN_OR_PAWN, "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let cli: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let mut e = Engine::start();
    e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
    e.send("perft 2");
    assert_eq!(e.read_until("Nodes searched: ", WAIT), cli);
    e.quit();
}

#[test]
fn moves_output_is_one_sorted_line() {
    let mut e = Engine::start();
    e.expect_silent("position startpos");
    assert_eq!(e.moves_line(), "@");
    e.expect_silent("position startpos moves Q@");
    assert_eq!(e.moves_line(), "Q@0,0");
    e.expect_silent("position startpos moves Q@0,0 n@1,0");
    let moves = e.moves();
    assert!(is_sorted(&moves));
    assert_eq!(
        moves,
        library_moves("Q0,0/n1,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", None)
    );
    assert_eq!(moves.last().map(String::as_str), Some("@"));
    e.expect_silent("position startpos moves Q@0,0 n@1,0 P@");
    let moves = e.moves();
    assert!(is_sorted(&moves));
    assert_eq!(
        moves,
        library_moves("Q0,0/n1,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2", Some('P'))
    );
    e.quit();
}

/// Under `Evaluation hand`, `eval` takes the static evaluation apart: a
/// line per feature whose count is the library's for the side to move
/// and whose share is count times weight, their sum, a stranded king
/// named, and the two scores the search reads. A pending drawn tile is
/// refused.
#[test]
fn eval_takes_the_evaluation_apart() {
    use chex::search::alphabeta::LeafJudge;
    use chex::search::eval::terms::{Term, Terms};
    use chex::search::eval::weights::FITTED;
    use chex::search::eval::{Evaluator, HandMade};
    use chex::search::score::{centipawns_of_expected, expected_result};
    const FEATURES: usize = Term::COUNT;
    let mut e = Engine::start();
    e.expect_silent("setoption name Evaluation value hand");
    // White's lone king beside a black pawn: Black's pawn counts against
    // White's king ("own tiles by the enemy king" -1 for White), and
    // White has a pawn more in its pile.
    for (fen, side) in [
        ("K0,0/p0,1 w QRRBBNNPPPPPPPP/kqrrbbnnppppppp 0 2", "White"),
        ("K0,0/p0,1 b QRRBBNNPPPPPPPP/kqrrbbnnppppppp 0 2", "Black"),
    ] {
        e.expect_silent(&format!("position fen {fen}"));
        let out = e.command("eval");
        let pos: Position = fen.parse().unwrap();
        let expected = Terms::of(&pos);
        // The terms, their total, the two estimates, and the shipped net's
        // verdict.
        assert_eq!(out.len(), FEATURES + 5, "{out:#?}");
        assert_eq!(
            out[0],
            format!("Evaluation for {side} to move: its counts less the other side's")
        );
        let mut total = 0;
        for (term, line) in Term::ALL.into_iter().zip(&out[1..=FEATURES]) {
            let numbers = line
                .strip_prefix(term.name())
                .unwrap_or_else(|| panic!("{line}"));
            let numbers: Vec<&str> = numbers.split_whitespace().collect();
            let [count, "×", weight, "=", share] = numbers[..] else {
                panic!("{line}");
            };
            let (count, weight, share): (i32, i32, i32) = (
                count.parse().unwrap(),
                weight.parse().unwrap(),
                share.parse().unwrap(),
            );
            assert_eq!((count, weight), (expected[term], FITTED[term]), "{line}");
            assert_eq!(share, count * weight, "{line}");
            total += share;
        }
        let flip = if side == "White" { 1 } else { -1 };
        assert_eq!(
            expected[Term::PawnInPile],
            flip,
            "a pawn more in White's pile"
        );
        assert_eq!(
            expected[Term::OwnTilesByEnemyKing],
            -flip,
            "a black pawn beside White's king"
        );
        assert_eq!(total, HandMade.centipawns(&pos));
        assert_eq!(out[FEATURES + 1], format!("Total: {total} cp"));
        // Each estimate as `info` would print it: its centipawns on the
        // one curve, then the expected result.
        let estimate = |score: i32| {
            let p = expected_result(score);
            format!(
                "{} cp, {:.1}% for {side}",
                centipawns_of_expected(p),
                100.0 * p
            )
        };
        assert_eq!(
            out[FEATURES + 2],
            format!("Static: {}", estimate(HandMade.score(&pos, 0)))
        );
        let quiescence = LeafJudge::new(0).judge(&pos, None);
        assert_eq!(
            out[FEATURES + 3],
            format!("Quiescence: {}", estimate(quiescence))
        );
        assert!(out[FEATURES + 4].starts_with("Net: "), "{out:#?}");
    }

    // Every square by White's lone queen is hers: Black's king, drawn
    // now, would have no square.
    e.expect_silent("position fen Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1");
    let out = e.command("eval");
    let stranded: Vec<&String> = out.iter().filter(|l| l.starts_with("Stranded")).collect();
    assert_eq!(
        stranded,
        ["Stranded king: Black's, drawn now, would have no square (a draw nears)"],
        "{out:#?}"
    );

    e.expect_silent("position startpos moves Q@0,0 n@1,1 N@");
    let msg = e.expect_error("eval");
    assert!(msg.contains("pending"), "{msg}");
    assert!(e.expect_error("eval now").contains("no arguments"));
    e.quit();
}

/// Under `Evaluation rich`, `eval` takes the rich evaluation apart: its
/// 65 terms, each count by rich weight, add up to it, and the static
/// score is its own.
#[test]
fn eval_takes_the_rich_evaluation_apart() {
    use chex::search::eval::rich::{self, Rich, RichTerms, RICH_FITTED};
    use chex::search::eval::terms::Term;
    use chex::search::eval::Evaluator;
    use chex::search::score::{centipawns_of_expected, expected_result};
    let fen = "p-1,1/K0,0/p0,1/q1,2/P0,-1 w QRRBBNNPPPPPPP/krrbbnnpppppp 0 4";
    let pos: Position = fen.parse().unwrap();
    let mut e = Engine::start();
    e.expect_silent("setoption name Evaluation value rich");
    e.expect_silent(&format!("position fen {fen}"));
    let out = e.command("eval");
    assert_eq!(out.len(), rich::COUNT + 5, "{out:#?}");
    let counts = RichTerms::of(&pos).counts();
    let mut total = 0;
    for (i, line) in out[1..=rich::COUNT].iter().enumerate() {
        let name = rich::name(i);
        let numbers: Vec<&str> = line
            .strip_prefix(name.as_str())
            .unwrap_or_else(|| panic!("{line}"))
            .split_whitespace()
            .collect();
        assert_eq!(
            numbers,
            [
                counts[i].to_string(),
                "×".to_string(),
                RICH_FITTED[i].to_string(),
                "=".to_string(),
                (counts[i] * RICH_FITTED[i]).to_string()
            ],
            "{line}"
        );
        total += counts[i] * RICH_FITTED[i];
    }
    assert!(
        counts[Term::COUNT..].iter().any(|&c| c != 0),
        "the position counts some rich term"
    );
    assert_eq!(total, Rich.centipawns(&pos));
    assert_eq!(out[rich::COUNT + 1], format!("Total: {total} cp"));
    let p = expected_result(Rich.score(&pos, 0));
    assert_eq!(
        out[rich::COUNT + 2],
        format!(
            "Static: {} cp, {:.1}% for White",
            centipawns_of_expected(p),
            100.0 * p
        )
    );
    e.quit();
}

/// protocol.md's `d` example, line by line.
#[test]
fn d_shows_the_table_and_the_canonical_position() {
    let mut e = Engine::start();
    // Tiles in a non-canonical order: `d` writes them canonically.
    e.expect_silent("position fen Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2");
    let d = e.display();
    let expected = [
        " 1 | . n",
        " 0 | Q .",
        "     - -",
        "y/x   0 1",
        "Position: n1,1/Q0,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2",
        "Piles: White 15 (K×1 R×2 B×2 N×2 P×8), Black 15 (k×1 q×1 r×2 b×2 n×1 p×8)",
        "Side to move: White",
        "In check: no",
        "Status: ongoing",
    ];
    assert_eq!(&d[..d.len() - 1], expected, "{d:#?}");
    let key = d.last().unwrap().strip_prefix("Key: ").unwrap().to_string();
    assert_eq!(key.len(), 16, "{key}");
    assert!(key.chars().all(|c| c.is_ascii_hexdigit()), "{key}");

    // The same position moved elsewhere: the same key (translation
    // invariant), the same canonical string but for the coordinates.
    e.expect_silent("position fen Q5,-3/n6,-2 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2");
    let d2 = e.display();
    assert!(d2.contains(&"Position: n6,-2/Q5,-3 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2".to_string()));
    assert_eq!(d2.last().unwrap(), &format!("Key: {key}"));
    // Reached by moves: the same Position line as the library's.
    e.expect_silent("position startpos moves Q@0,0 n@1,1");
    assert_eq!(
        e.position_string(),
        "n1,1/Q0,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
    );

    // A pending drawn tile adds its line.
    e.expect_silent("position startpos moves Q@0,0 n@1,1 N@");
    let d = e.display();
    assert!(
        d.contains(&"Drawn tile: knight (to be placed)".to_string()),
        "{d:#?}"
    );
    assert!(d.contains(&"Side to move: White".to_string()));

    // The empty table and the position string round-trip through `fen`.
    e.expect_silent("position startpos");
    assert_eq!(e.position_string(), START);
    for fen in [MIDDLEGAME, QUEEN_OR_PAWN] {
        e.expect_silent(&format!("position fen {fen}"));
        let shown = e.position_string();
        let canonical: Position = fen.parse().unwrap();
        assert_eq!(shown, canonical.to_string());
        e.expect_silent(&format!("position fen {shown}"));
        assert_eq!(e.position_string(), shown);
    }
    // In check is reported.
    e.expect_silent("position fen K1,2/R1,1/N2,1/k0,0 b -/- 0 40");
    assert!(e.display().contains(&"In check: yes".to_string()));
    e.quit();
}

// ---------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------

/// With `Seed` and `Threads 1`, the same `go nodes` on the same position
/// gives the same lines (but for `time`, `nps` and the speed line), in two
/// separate processes and twice in one.
#[test]
fn seeded_single_thread_search_is_reproducible() {
    let setups = [
        "position startpos moves Q@0,0 n@".to_string(),
        format!("position fen {MIDDLEGAME}"),
        format!("position fen {QUEEN_OR_PAWN}"),
    ];
    let run = |repeat: usize| -> Vec<Vec<String>> {
        let mut e = Engine::with_options(&[("Seed", "5"), ("Threads", "1")]);
        let mut all = Vec::new();
        for _ in 0..repeat {
            for setup in &setups {
                e.expect_silent(setup);
                all.push(seeded_run(&mut e, "go nodes 300"));
            }
        }
        e.quit();
        all
    };
    let a = run(2);
    let b = run(1);
    for (i, lines) in b.iter().enumerate() {
        assert_eq!(&a[i], lines, "two processes differ on '{}'", setups[i]);
        assert_eq!(
            &a[i + setups.len()],
            lines,
            "one process differs from itself on '{}'",
            setups[i]
        );
        // Reports after every tenth of the nodes, and one at the end.
        let reports = lines
            .iter()
            .filter(|l| l.starts_with("info multipv 1 "))
            .count();
        assert!(reports >= 2, "{lines:?}");
    }
}

/// Issue 49: the shipped net is there from the start, `EvalFile` loads
/// another, `Evaluation net` puts it to use, `eval` shows its verdict
/// beside the evaluation's terms; a bad file is one error line and changes
/// nothing, and `<empty>` goes back to the shipped net.
#[test]
fn a_net_file_is_loaded_chosen_and_shown() {
    use chex::search::eval::net::{inputs::INPUTS, Net};
    let hidden = 4;
    // A net that likes the side to move's queens on the table.
    let mut w1 = vec![0i16; INPUTS * hidden];
    for cell in 0..225 {
        w1[(225 + cell) * hidden] = 200;
    }
    let net = Net::from_weights(
        hidden,
        w1,
        vec![0; hidden],
        vec![64, 0, 0, 0, -64, 0, 0, 0],
        0,
    )
    .expect("a net of the right shape");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (good, bad) = (
        dir.join("protocol-test.net"),
        dir.join("protocol-test-bad.net"),
    );
    std::fs::write(&good, net.to_bytes()).unwrap();
    std::fs::write(&bad, b"CHEXNET0 not a net").unwrap();

    let fen = "K0,0/Q0,1/k1,2 w RRBBNNPPPPPPPP/qrrbbnnpppppppp 0 9";
    let shipped = {
        let pos: chex::rules::Position = fen.parse().expect("the test's position");
        let logit = Net::shipped().logit(&pos);
        format!(
            "Net: {} cp, {:.1}% for White",
            chex::search::eval::Evaluator::centipawns(Net::shipped().as_ref(), &pos),
            100.0 / (1.0 + (-logit).exp())
        )
    };
    let net_line = |e: &mut Engine| {
        let lines = e.command("eval");
        lines
            .iter()
            .find(|l| l.starts_with("Net:"))
            .cloned()
            .unwrap_or_else(|| panic!("no Net line: {lines:?}"))
    };
    let mut e = Engine::start();
    e.expect_silent(&format!("position fen {fen}"));
    assert_eq!(net_line(&mut e), shipped);
    let msg = e.expect_error(&format!("setoption name EvalFile value {}", bad.display()));
    assert!(msg.contains("magic"), "{msg}");
    assert_eq!(net_line(&mut e), shipped, "a refused file changes nothing");
    e.expect_silent(&format!("setoption name EvalFile value {}", good.display()));
    // One queen on the table, ours: 200 of 255 on one hidden unit, then
    // 64 of 64 of it: a logit of 200/255, 314 cp.
    assert_eq!(
        net_line(&mut e),
        format!(
            "Net: 314 cp, {:.1}% for White",
            100.0 / (1.0 + (-200.0f64 / 255.0).exp())
        )
    );
    e.expect_silent("setoption name Evaluation value net");
    e.expect_silent("setoption name Threads value 1");
    e.send("go nodes 300");
    let lines = e.read_until("bestmove", WAIT);
    assert!(lines.last().unwrap().starts_with("bestmove "), "{lines:?}");
    e.expect_silent("setoption name EvalFile value <empty>");
    assert_eq!(net_line(&mut e), shipped);
}

/// `go searchmoves` limits the root to the actions it names, whatever
/// the player: over the bench positions, with "draw" among them where
/// the pile allows, and over placements of a drawn tile.
#[test]
fn go_searchmoves_answers_one_of_the_actions_named() {
    let positions = include_str!("../src/bench_positions.txt");
    for player in ["ismcts", "alphabeta"] {
        let mut e = Engine::with_options(&[("Threads", "1"), ("Player", player), ("Seed", "5")]);
        let mut asked = 0;
        for fen in positions.lines().filter(|l| !l.trim().is_empty()) {
            for drawn in ["", " moves P@", " moves p@"] {
                if e.command(&format!("position fen {fen}{drawn}")).is_empty() {
                    let moves = e.moves();
                    if moves.len() < 3 {
                        continue;
                    }
                    // The last two listed, or "draw" and the last.
                    let named = match moves.iter().find(|m| *m == "@") {
                        Some(draw) => vec![draw.clone(), moves[moves.len() - 2].clone()],
                        None => moves[moves.len() - 2..].to_vec(),
                    };
                    let r = e.go_checked(&format!("go searchmoves {} nodes 2000", named.join(" ")));
                    assert!(
                        named.contains(&r.best),
                        "{player} {fen}{drawn}: {} not in {named:?}",
                        r.best
                    );
                    asked += 1;
                }
            }
        }
        assert!(asked >= 12, "{player}: only {asked} searches");
        e.expect_silent(&format!("position fen {QUEEN_OR_PAWN}"));
        // One action named is the answer, even against a queen to take.
        assert_eq!(e.go_checked("go searchmoves @ nodes 500").best, "@");
        for bad in [
            "go searchmoves 5,5-5,6 nodes 10",
            "go searchmoves Q@ nodes 10",
            "go searchmoves",
        ] {
            e.expect_error(bad);
        }
        e.quit();
    }
}

// ---------------------------------------------------------------------
// Pondering (issue 56)
// ---------------------------------------------------------------------

/// Sends `line` during a ponder and checks that it is refused with one
/// error line, and that no `bestmove` comes with it (the ponder's `info`
/// lines may).
#[track_caller]
fn expect_error_while_pondering(e: &mut Engine, line: &str) {
    let out = e.command(line);
    let errors = out
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .count();
    if errors != 1 || out.iter().any(|l| l.starts_with("bestmove")) {
        e.fail(&format!("'{line}' during a ponder printed {out:?}"));
    }
}

/// The `pv` of the last `info multipv 1` line among `lines`.
fn last_pv(lines: &[String]) -> Vec<String> {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .expect("an info line");
    let pv = line.split(" pv ").nth(1).unwrap_or("");
    pv.split(' ').map(String::from).collect()
}

/// With `Ponder` on, `bestmove` names the reply the search expects, a
/// legal action of the opponent; off, the line is as it always was. A
/// draw names none: the caller deals, and the engine's own placement
/// comes next.
#[test]
fn bestmove_names_the_expected_reply_when_ponder_is_on() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Seed", "3")]);
    // The rook takes the queen: a step, after which Black replies.
    let at = format!("position fen {QUEEN_OR_PAWN}");
    e.expect_silent(&at);
    let r = e.go_checked("go nodes 1500");
    assert_eq!(r.lines.last().unwrap().split(' ').count(), 2);
    e.expect_silent("setoption name Ponder value true");
    let moves = e.moves();
    e.send("go nodes 1500");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    let (best, reply) = e.bestmove_and_reply(&line);
    assert!(moves.contains(&best), "{line}");
    let reply = reply.unwrap_or_else(|| e.fail(&format!("no ponder reply: '{line}'")));
    e.expect_silent(&format!("{at} moves {best}"));
    let replies = e.moves();
    assert!(replies.contains(&reply), "'{reply}' is not in {replies:?}");
    // The empty table: the only action is the draw, and no reply is named.
    e.expect_silent("position startpos");
    e.send("go nodes 100");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    assert_eq!(line, "bestmove @");
    e.quit();
}

/// `go ponder` prints no `bestmove` until `ponderhit`, after which the
/// move takes no more than the limits given with `go ponder`, counted
/// from `ponderhit`; and the timed search goes on from what the ponder
/// searched.
#[test]
fn go_ponder_then_ponderhit_answers_within_the_time_left() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Ponder", "true")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let moves = e.moves();
    for (go, allowed) in [
        ("go ponder movetime 200", 200),
        ("go ponder wtime 3000 btime 3000", 1500),
    ] {
        e.send(go);
        no_bestmove_for(&mut e, Duration::from_millis(600));
        let t = Instant::now();
        e.send("ponderhit");
        let line = e.read_until("bestmove", WAIT).pop().unwrap();
        let took = t.elapsed();
        let (best, _) = e.bestmove_and_reply(&line);
        assert!(moves.contains(&best), "{line}");
        assert!(
            took < Duration::from_millis(allowed) + AT_ONCE,
            "{go}: bestmove {took:?} after ponderhit{}",
            e.tail()
        );
        // The ponder is over: a second ponderhit is refused.
        e.expect_error("ponderhit");
    }
    // One node after ponderhit reports the ponder's playouts: its tree
    // is the timed search's.
    e.send("go ponder nodes 1");
    no_bestmove_for(&mut e, Duration::from_millis(500));
    e.send("ponderhit");
    let lines = e.read_until("bestmove", WAIT);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .unwrap();
    let nodes: u64 = field(last, "nodes").unwrap().parse().unwrap();
    assert!(nodes > 20, "the timed search started afresh: {last}");
    e.quit();
}

/// `stop` during a ponder answers with a `bestmove` at once, and nothing
/// before it: a ponder with `movetime 50` not answered for far longer
/// prints no `bestmove`, whether the position has a real choice, a
/// single one (the empty table), or a capture to make.
#[test]
fn go_ponder_then_stop_answers_bestmove() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Ponder", "true")]);
    for setup in [
        format!("position fen {MIDDLEGAME}"),
        "position startpos".to_string(),
        format!("position fen {QUEEN_OR_PAWN}"),
    ] {
        e.expect_silent(&setup);
        let moves = e.moves();
        e.send("go ponder movetime 50");
        no_bestmove_for(&mut e, Duration::from_millis(400));
        // Commands that start work wait for the ponder, as for any search.
        expect_error_while_pondering(&mut e, "go movetime 50");
        let t = Instant::now();
        e.send("stop");
        let line = e.read_until("bestmove", WAIT).pop().unwrap();
        let took = t.elapsed();
        let (best, _) = e.bestmove_and_reply(&line);
        assert!(moves.contains(&best), "{line}");
        assert!(took < AT_ONCE, "bestmove {took:?} after stop{}", e.tail());
        assert!(e.command("stop").is_empty());
        e.expect_error("ponderhit");
    }
    e.quit();
}

/// A reply that is a draw is pondered as the chance node it is: the game
/// with a last bare `@` is the opponent's turn before its draw, which
/// only `go ponder` searches. `ponderhit` cannot hit it (the placement
/// is not known), `stop` answers `bestmove (none)`, and the search of the
/// turn after the placement goes on from what the ponder searched.
#[test]
fn a_pondered_draw_is_searched_below_the_opponents_draw() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Ponder", "true"), ("Seed", "7")]);
    // White takes the queen; Black draws, the tile not known yet.
    let played = format!("position fen {QUEEN_OR_PAWN} moves 0,0-0,1");
    e.expect_silent(&format!("{played} @"));
    assert!(e
        .display()
        .iter()
        .any(|l| l.starts_with("Drawn tile: not known")));
    e.expect_error("moves");
    e.expect_error("go movetime 50");
    e.send("go ponder movetime 50");
    no_bestmove_for(&mut e, Duration::from_millis(400));
    expect_error_while_pondering(&mut e, "ponderhit");
    no_bestmove_for(&mut e, Duration::from_millis(100));
    e.send("stop");
    let lines = e.read_until("bestmove", WAIT);
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // The ponder's line: Black's draw and its likeliest placement.
    let pv = last_pv(&lines);
    assert_eq!(pv[0], "@", "{pv:?}");
    let placement = &pv[1];
    e.expect_silent(&format!("{played} {placement}"));
    let r = e.go_checked("go nodes 1");
    let last = r
        .lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .unwrap();
    let nodes: u64 = field(last, "nodes").unwrap().parse().unwrap();
    assert!(nodes > 1, "nothing kept below the pondered draw: {last}");
    e.quit();
}

/// An `info multipv 1` line without the fields that depend on the
/// clock (`nps`, `time`), for comparing two searches.
fn timeless(line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match words[i] {
            "nps" | "time" => i += 2,
            w => {
                out.push(w);
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// The last `info multipv 1` line and the `bestmove` of a search that
/// ends with `lines`.
fn last_info_and_bestmove(e: &Engine, lines: &[String]) -> (String, String) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .unwrap_or_else(|| e.fail("no info line"));
    (timeless(info), lines.last().unwrap().clone())
}

/// A weak level (`Skill`, or `UCI_Elo` under `UCI_LimitStrength`) is
/// its node cap, and pondering must not let it search past it: the
/// move after `ponderhit` is the very move (same playouts, same line,
/// same `bestmove`, with a fixed `Seed`) that `go` gives without the
/// ponder, for every level, however long the ponder ran. Before the fix
/// the ponder's playouts were kept and the timed search added its own
/// cap's worth: 16 playouts at level 1, whose cap is 8.
#[test]
fn pondering_does_not_lift_a_weak_levels_node_cap() {
    for (options, cap) in [
        (vec![("Skill", "1")], 8),
        (vec![("Skill", "3")], 128),
        (vec![("UCI_LimitStrength", "true"), ("UCI_Elo", "282")], 16),
    ] {
        let mut all = vec![("Threads", "1"), ("Seed", "5"), ("Ponder", "true")];
        all.extend(options.iter().copied());
        let mut e = Engine::with_options(&all);
        let at = format!("position fen {MIDDLEGAME}");
        e.expect_silent("ucinewgame");
        e.expect_silent(&at);
        e.send("go nodes 5000");
        let plain = e.read_until("bestmove", WAIT);
        let (plain_info, plain_best) = last_info_and_bestmove(&e, &plain);
        let nodes: u64 = field(&plain_info, "nodes").unwrap().parse().unwrap();
        assert!(
            nodes <= cap,
            "{options:?}: go searched {nodes}: {plain_info}"
        );
        // The same game again, pondered for far longer than the cap takes.
        e.expect_silent("ucinewgame");
        e.expect_silent(&at);
        e.send("go ponder nodes 5000");
        no_bestmove_for(&mut e, Duration::from_millis(400));
        e.send("ponderhit");
        let pondered = e.read_until("bestmove", WAIT);
        let (info, best) = last_info_and_bestmove(&e, &pondered);
        let nodes: u64 = field(&info, "nodes").unwrap().parse().unwrap();
        assert!(
            nodes <= cap,
            "{options:?}: pondering lifted the cap of {cap} to {nodes}: {info}"
        );
        assert_eq!(
            (info, best),
            (plain_info, plain_best),
            "{options:?}: the pondered move differs from go's"
        );
        e.quit();
    }
}

/// `ucinewgame` during a ponder forgets the game the ponder was for:
/// `ponderhit` can no longer turn it into a move (before the fix it
/// started the timed search of the old game's position and answered its
/// `bestmove`), and is refused with one error line; the ponder goes on
/// until `stop`, as any running search does, and the engine then plays
/// the new game.
#[test]
fn ponderhit_after_ucinewgame_mid_ponder_is_refused() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Ponder", "true")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let old_moves = e.moves();
    e.send("go ponder movetime 100");
    no_bestmove_for(&mut e, Duration::from_millis(300));
    e.expect_silent("ucinewgame");
    expect_error_while_pondering(&mut e, "ponderhit");
    no_bestmove_for(&mut e, Duration::from_millis(400));
    e.sync();
    e.send("stop");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    let (best, _) = e.bestmove_and_reply(&line);
    assert!(old_moves.contains(&best), "{line}");
    // Nothing runs now: ponderhit is refused as ever, and the new game
    // is played from the start position.
    e.expect_error("ponderhit");
    e.expect_silent("position startpos");
    e.send("go nodes 50");
    let line = e.read_until("bestmove", WAIT).pop().unwrap();
    assert_eq!(line, "bestmove @");
    e.quit();
}

/// The `score cp` of the last `info multipv 1` line among `lines`.
fn last_cp(e: &Engine, lines: &[String]) -> i64 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .unwrap_or_else(|| e.fail("no info line"));
    field(line, "cp")
        .and_then(|cp| cp.parse().ok())
        .unwrap_or_else(|| e.fail(&format!("no score cp: {line}")))
}

/// A pondered draw is scored as every `info` line is: for the side to
/// move of the position sent, the opponent who draws. White, well ahead
/// after taking the queen, sees its lead as a negative score in the
/// ponder of Black's draw, close to what Black's own search of that draw
/// (`go searchmoves @`, `Contempt` 0 so that a draw weighs the same for
/// both) reports, and the reverse of its own score before.
#[test]
fn a_pondered_draw_is_scored_for_the_side_to_move() {
    let mut e = Engine::with_options(&[
        ("Threads", "1"),
        ("Ponder", "true"),
        ("Seed", "7"),
        ("Contempt", "0"),
    ]);
    let at = format!("position fen {QUEEN_OR_PAWN}");
    e.expect_silent(&at);
    e.send("go nodes 4000");
    let lines = e.read_until("bestmove", WAIT);
    let own = last_cp(&e, &lines);
    e.expect_silent(&format!("{at} moves 0,0-0,1 @"));
    e.send("go ponder nodes 4000");
    no_bestmove_for(&mut e, Duration::from_millis(600));
    e.send("stop");
    let lines = e.read_until("bestmove", WAIT);
    let pondered = last_cp(&e, &lines);
    e.expect_silent("ucinewgame");
    e.expect_silent(&format!("{at} moves 0,0-0,1"));
    e.send("go searchmoves @ nodes 4000");
    let lines = e.read_until("bestmove", WAIT);
    let black = last_cp(&e, &lines);
    assert!(own > 100, "White should lead after 0,0-0,1: {own}");
    assert!(
        pondered < -100 && black < -100,
        "the ponder scores {pondered}, Black's own search {black}"
    );
    assert!(
        (pondered - black).abs() <= 100 && (pondered + own).abs() <= 100,
        "own {own}, pondered {pondered}, Black's {black}"
    );
    e.quit();
}

// ---------------------------------------------------------------------
// UCI_LimitStrength and UCI_Elo (issue 56)
// ---------------------------------------------------------------------

/// The playouts the last `info multipv 1` line of a `go` reports.
fn nodes_searched(e: &mut Engine, go: &str) -> u64 {
    let r = e.go_checked(go);
    let last = r
        .lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info multipv 1 "))
        .unwrap_or_else(|| e.fail("no info line"));
    field(last, "nodes").unwrap().parse().unwrap()
}

/// Under `UCI_LimitStrength`, `UCI_Elo` sets the strength on the
/// ladder's scale: its lowest value searches as level 1 (8 playouts),
/// one between levels 1 and 2 between their caps, its highest at full
/// strength; off, `UCI_Elo` changes nothing, and `Skill` is ignored
/// while it is on. Values off the ladder are refused.
#[test]
fn uci_elo_plays_at_the_strength_of_the_ladder() {
    let mut e = Engine::with_options(&[("Threads", "1"), ("Seed", "9")]);
    e.expect_silent(&format!("position fen {MIDDLEGAME}"));
    let go = "go nodes 3000";
    e.expect_silent("setoption name UCI_Elo value 168");
    assert!(
        nodes_searched(&mut e, go) > 1000,
        "UCI_Elo acted without UCI_LimitStrength"
    );
    e.expect_silent("setoption name UCI_LimitStrength value true");
    let lowest = nodes_searched(&mut e, go);
    assert!(
        lowest <= 8,
        "UCI_Elo 168 searched {lowest} playouts, level 1 caps at 8"
    );
    // Halfway from level 1 to level 2: twice level 1's cap.
    e.expect_silent("setoption name UCI_Elo value 282");
    let between = nodes_searched(&mut e, go);
    assert!(
        (9..=16).contains(&between),
        "UCI_Elo 282 searched {between}"
    );
    // Skill is the engine's own scale, ignored while the Elo rules.
    e.expect_silent("setoption name Skill value 6");
    assert_eq!(nodes_searched(&mut e, go), between);
    e.expect_silent("setoption name UCI_Elo value 1174");
    assert!(
        nodes_searched(&mut e, go) > 1000,
        "UCI_Elo 1174 is full strength"
    );
    for bad in [
        "setoption name UCI_Elo value 167",
        "setoption name UCI_Elo value 1175",
        "setoption name UCI_LimitStrength value 2",
    ] {
        e.expect_error(bad);
    }
    e.quit();
}
