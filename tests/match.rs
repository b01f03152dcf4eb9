//! `chex match` end to end: the referee against a scripted fake engine
//! (tests/data/fake-engine.sh) for every way a game can end, resume and
//! its refusals, the SPRT stop, and a short real match of `chex` against
//! its random player whose records replay under the referee.

use chex::referee::GameRecord;
use chex::runner::stats::{Sprt, Tally, Verdict};
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_chex");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fake-engine.sh");

/// The command that runs the fake engine with this script, every entry
/// quoted for `sh -c`.
fn fake(script: &[&str]) -> String {
    let mut command = format!("bash '{FAKE}'");
    for entry in script {
        command.push_str(&format!(" '{entry}'"));
    }
    command
}

/// A fresh path in the temporary directory for this test.
fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("chex-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// A finished `chex match` run.
struct Run {
    output: Output,
    /// The lines of the --out file that are records.
    records: Vec<GameRecord>,
    /// All its lines.
    lines: usize,
}

impl Run {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// The record of game `n`.
    fn game(&self, n: u64) -> &GameRecord {
        self.records
            .iter()
            .find(|r| r.game == n)
            .unwrap_or_else(|| panic!("no game {n}; stderr:\n{}", self.stderr()))
    }
}

/// Runs `chex match` with `args`, writing records to `out`, and reads
/// them back.
fn run_to(out: &PathBuf, args: &[&str]) -> Run {
    let output = Command::new(BIN)
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("cannot run chex match");
    let text = std::fs::read_to_string(out).unwrap_or_default();
    let records = text
        .lines()
        .filter_map(|l| GameRecord::from_json_line(l).ok())
        .collect();
    Run {
        output,
        records,
        lines: text.lines().count(),
    }
}

/// Runs a match of two engines with the same script.
fn scripted(name: &str, script: &[&str], args: &[&str]) -> Run {
    let engine = fake(script);
    let mut all = vec!["--engine1", &engine, "--engine2", &engine];
    all.extend_from_slice(args);
    let run = run_to(&temp(name), &all);
    assert!(run.output.status.success(), "stderr:\n{}", run.stderr());
    assert_eq!(run.lines, run.records.len(), "every line is a record");
    run
}

/// Checks that a record replays under the referee to where it stopped,
/// and, for a game that ended on the table, to the recorded ending.
fn replays(record: &GameRecord) {
    let referee = record
        .referee()
        .unwrap_or_else(|e| panic!("game {}: {e}", record.game));
    assert_eq!(record.times_ms.len(), record.moves.len(), "{record:?}");
    if let Some(end) = referee.ending() {
        assert_eq!(record.ending, end.ending.word(), "{record:?}");
        let white = referee.score(chex::rules::Colour::White);
        assert_eq!(record.white_score(), white, "{record:?}");
    } else {
        assert!(
            ["illegal", "time", "silent", "crash"].contains(&record.ending.as_str()),
            "{record:?}"
        );
    }
}

#[test]
fn an_illegal_or_unparsable_answer_loses() {
    // Black places its drawn tile far from the table.
    let run = scripted(
        "illegal",
        &["@", "*@0,0", "@", "*@9,9"],
        &["--games", "1", "--nodes", "5"],
    );
    let r = run.game(1);
    assert_eq!(r.result, "1-0");
    assert_eq!(r.ending, "illegal");
    assert!(
        r.reason.starts_with("Black forfeits: illegal answer"),
        "{}",
        r.reason
    );
    assert!(r.reason.contains("@9,9"), "{}", r.reason);
    // The drawn tile is recorded as waiting: `x@` last.
    assert_eq!(r.moves.len(), 2);
    assert!(r.moves[1].ends_with('@'), "{:?}", r.moves);
    replays(r);
    assert!(run.stdout().contains("illegal 1"), "{}", run.stdout());

    // A word that is no move at all, from engine 2 as Black.
    let one = fake(&["@", "*@0,0"]);
    let two = fake(&["@", "*@0,0", "hello"]);
    let out = temp("unparsable");
    let run = run_to(
        &out,
        &[
            "--engine1",
            &one,
            "--engine2",
            &two,
            "--games",
            "1",
            "--nodes",
            "5",
        ],
    );
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "illegal"));
    assert!(r.reason.contains("'hello' refused"), "{}", r.reason);
}

#[test]
fn overrunning_the_clock_or_falling_silent_loses() {
    // Black answers its placement after 900 ms with 500 ms on its clock
    // and a 100 ms margin: lost on time, though it did answer (within
    // the second the runner waits after `stop`).
    let run = scripted(
        "time",
        &["@", "*@0,0", "@", "SLEEP:900:*@1,0"],
        &["--games", "1", "--tc", "0.5+0"],
    );
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "time"));
    // What was left of the clock after Black's draw, plus the margin.
    assert!(
        r.reason.starts_with("Black forfeits: lost on time"),
        "{}",
        r.reason
    );
    assert!(r.reason.contains(" ms + 100 ms margin"), "{}", r.reason);
    replays(r);

    // Silent under movetime: lost, restarted, and the match goes on: in
    // game 2 the engine that fell silent in game 1 plays White's turns.
    let run = scripted(
        "silent",
        &["@", "*@0,0", "@", "SILENT"],
        &["--games", "2", "--movetime", "200", "--timemargin", "200"],
    );
    for n in [1, 2] {
        let r = run.game(n);
        assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "silent"));
        assert!(
            r.reason.starts_with("Black forfeits: silent"),
            "{}",
            r.reason
        );
        assert_eq!(r.moves.len(), 2, "{:?}", r.moves);
        replays(r);
    }
    assert!(
        run.stdout().contains("W/D/L      1 / 0 / 1"),
        "{}",
        run.stdout()
    );

    // Silent under --nodes: judged after --silence.
    let run = scripted(
        "silent-nodes",
        &["@", "SILENT"],
        &["--games", "1", "--nodes", "5", "--silence", "300"],
    );
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("0-1", "silent"));
    assert!(r.reason.contains("within 300 ms"), "{}", r.reason);
}

#[test]
fn a_draw_turn_runs_on_one_clock_and_the_increment_comes_once() {
    // White thinks 600 ms over `@`, leaving 400 of its second; the
    // placement then takes 700 ms: past 400 + 100 margin. Were the draw
    // not charged, or the 5 s increment added before the placement, it
    // would be in time.
    let run = scripted(
        "draw-clock",
        &["SLEEP:600:@", "SLEEP:700:*@0,0"],
        &["--games", "1", "--tc", "1+5"],
    );
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("0-1", "time"));
    assert!(
        r.reason.starts_with("White forfeits: lost on time"),
        "{}",
        r.reason
    );
    assert_eq!(r.moves.len(), 1);
    assert!(r.moves[0].ends_with('@'), "{:?}", r.moves);
    assert!(r.times_ms[0] >= 600, "{:?}", r.times_ms);

    // Six moves of 500 ms each on 600 ms + 500 ms a turn: the increment
    // keeps both clocks at 600 ms, and the walk ends in repetition.
    let walk = [
        "SLEEP:500:0,0-2,1",
        "SLEEP:500:1,0-3,1",
        "SLEEP:500:2,1-4,0",
        "SLEEP:500:3,1-4,-1",
        "SLEEP:500:4,0-5,-2",
        "SLEEP:500:4,-1-6,-2",
    ];
    let run = scripted(
        "increment",
        &walk,
        &[
            "--start",
            "N0,0/n1,0 w K/k 0 1",
            "--games",
            "1",
            "--tc",
            "0.6+0.5",
        ],
    );
    let r = run.game(1);
    assert_eq!(
        (r.result.as_str(), r.ending.as_str()),
        ("1/2-1/2", "repetition"),
        "{}",
        r.reason
    );
    assert_eq!(r.times_ms.len(), 6);
    assert!(r.times_ms.iter().all(|&t| t >= 500), "{:?}", r.times_ms);
    assert_eq!(r.tc, "tc 0.6+0.5");
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    let run = scripted(
        "crash",
        &["@", "*@0,0", "@", "CRASH"],
        &["--games", "4", "--nodes", "5"],
    );
    assert_eq!(run.records.len(), 4);
    // Engine 2 crashed in game 1 and played White's turns in game 2.
    for n in 1..=4 {
        let r = run.game(n);
        assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "crash"));
        assert!(r.reason.contains("exited"), "{}", r.reason);
        replays(r);
    }
    assert!(run.stdout().contains("crash 4"), "{}", run.stdout());
}

#[test]
fn games_end_by_the_rules_core() {
    // White's knight jumps to 2,1: checkmate.
    let mate = "K1,2/R1,1/N0,2/k0,0 w -/- 0 40";
    let run = scripted(
        "checkmate",
        &["0,2-2,1"],
        &["--start", mate, "--games", "2", "--nodes", "5"],
    );
    for n in [1, 2] {
        let r = run.game(n);
        assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "checkmate"));
        assert_eq!(r.moves, ["0,2-2,1"]);
        replays(r);
    }
    // Each engine won as White once: an even pair.
    assert!(
        run.stdout().contains("W/D/L      1 / 0 / 1"),
        "{}",
        run.stdout()
    );
    assert!(run.stdout().contains("1: 1"), "{}", run.stdout());

    // Black draws its king and cannot place it: stalemate, a draw.
    let run = scripted(
        "drawn-stalemate",
        &["@"],
        &["--start", "Q0,0 b K/k 0 1", "--games", "1", "--nodes", "5"],
    );
    let r = run.game(1);
    assert_eq!(
        (r.result.as_str(), r.ending.as_str()),
        ("1/2-1/2", "drawn-tile-stalemate")
    );
    assert_eq!(r.moves, ["k@"]);
    replays(r);

    // Black, in check, draws a knight that cannot block: checkmate.
    let run = scripted(
        "drawn-mate",
        &["@"],
        &[
            "--start",
            "P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30",
            "--games",
            "1",
            "--nodes",
            "5",
        ],
    );
    let r = run.game(1);
    assert_eq!(
        (r.result.as_str(), r.ending.as_str()),
        ("1-0", "drawn-tile-checkmate")
    );
    assert_eq!(r.moves, ["n@"]);
    replays(r);

    // Two knights walk until the position repeats up to translation.
    let walk = [
        "0,0-2,1",
        "1,0-3,1",
        "2,1-4,0",
        "3,1-4,-1",
        "4,0-5,-2",
        "4,-1-6,-2",
    ];
    let run = scripted(
        "repetition",
        &walk,
        &[
            "--start",
            "N0,0/n1,0 w K/k 0 1",
            "--games",
            "1",
            "--nodes",
            "5",
        ],
    );
    let r = run.game(1);
    assert_eq!(
        (r.result.as_str(), r.ending.as_str()),
        ("1/2-1/2", "repetition")
    );
    assert_eq!(r.moves, walk);
    replays(r);
}

/// Engine 1 mates as White; engine 2 answers nonsense as White, so engine
/// 1 wins every pair 2–0.
fn one_sided() -> (String, String) {
    (fake(&["0,2-2,1"]), fake(&["junk"]))
}

const MATE: &str = "K1,2/R1,1/N0,2/k0,0 w -/- 0 40";

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let (one, two) = one_sided();
    let out = temp("sprt");
    let run = run_to(
        &out,
        &[
            "--engine1",
            &one,
            "--engine2",
            &two,
            "--start",
            MATE,
            "--nodes",
            "5",
            "--games",
            "100",
            "--sprt",
            "--elo0",
            "0",
            "--elo1",
            "10",
        ],
    );
    assert!(run.output.status.success(), "{}", run.stderr());
    assert!(run.records.len() < 10, "played {}", run.records.len());
    assert!(run.stdout().contains("H1 accepted"), "{}", run.stdout());
    // One game at a time, so no game starts once the SPRT has decided:
    // the match ends exactly at the first record that decides it, however
    // the runner's threads are scheduled (a worker that ran ahead of the
    // count once played on, under load, to all 100 games).
    let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let mut tally = Tally::default();
    let mut decided_at = None;
    for (i, r) in run.records.iter().enumerate() {
        assert_eq!(r.game, i as u64 + 1, "games finish in order");
        let engine1_white = r.game % 2 == 1;
        let score = if engine1_white { 1.0 } else { 0.0 };
        assert_eq!(r.white_score(), Some(score), "engine 1 wins: {r:?}");
        tally.add((r.game - 1) / 2, 1.0, &r.ending);
        if decided_at.is_none() && sprt.verdict(&tally) == Verdict::H1 {
            decided_at = Some(r.game);
        }
    }
    assert_eq!(
        decided_at,
        Some(run.records.len() as u64),
        "the SPRT decided at game {decided_at:?} but {} were played",
        run.records.len()
    );
}

#[test]
fn resume_continues_and_refuses_what_is_not_this_match() {
    let (one, two) = one_sided();
    let out = temp("resume");
    let base = [
        "--engine1",
        &one,
        "--engine2",
        &two,
        "--start",
        MATE,
        "--nodes",
        "5",
    ];
    let with = |extra: &[&str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        run_to(&out, &v)
    };
    let first = with(&["--games", "2"]);
    assert_eq!(first.records.len(), 2);
    // Without --resume, a file of records is not overwritten.
    let again = with(&["--games", "4"]);
    assert!(!again.output.status.success());
    assert!(again.stderr().contains("--resume"), "{}", again.stderr());
    assert_eq!(again.records.len(), 2);
    // Other settings: refused.
    let other = with(&["--games", "4", "--resume", "--seed", "9"]);
    assert!(!other.output.status.success());
    assert!(
        other.stderr().contains("different settings"),
        "{}",
        other.stderr()
    );
    // Resumed: games 3 and 4 are added, 1 and 2 are not replayed.
    let resumed = with(&["--games", "4", "--resume"]);
    assert!(resumed.output.status.success(), "{}", resumed.stderr());
    let games: Vec<u64> = resumed.records.iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3, 4]);
    assert_eq!(resumed.records[..2], first.records[..]);
    assert!(
        resumed.stdout().contains("W/D/L      4 / 0 / 0"),
        "{}",
        resumed.stdout()
    );
    // A file that is not records: refused, untouched.
    std::fs::write(&out, "hello\n").unwrap();
    let junk = with(&["--games", "4", "--resume"]);
    assert!(!junk.output.status.success());
    assert!(
        junk.stderr().contains("line 1: not a game record"),
        "{}",
        junk.stderr()
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "hello\n");
}

#[test]
fn bad_settings_are_one_line_errors() {
    let engine = fake(&["@"]);
    let cases: [(&[&str], &str); 6] = [
        (&[][..], "choose"),
        (&["--tc", "ten"], "bad --tc"),
        (&["--nodes", "5", "--option1", "Threads"], "Name=Value"),
        (&["--nodes", "5", "--start", "K0,0 w"], "bad --start"),
        (
            &[
                "--nodes",
                "5",
                "--engine1",
                "/nonexistent/engine",
                "--engine2",
                &engine,
            ],
            "engine '",
        ),
        (
            &[
                "--nodes",
                "5",
                "--engine1",
                &engine,
                "--engine2",
                &engine,
                "--option1",
                "Fail=1",
            ],
            "refused its options",
        ),
    ];
    for (i, (args, want)) in cases.into_iter().enumerate() {
        let out = temp(&format!("bad-{i}"));
        let run = run_to(&out, args);
        assert!(!run.output.status.success(), "{args:?}");
        let err = run.stderr();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert!(run.records.is_empty());
    }
}

#[test]
fn a_short_real_match_against_the_random_player_replays() {
    let out = temp("real");
    let text = temp("real-text");
    let text_arg = text.to_string_lossy().into_owned();
    // A new match starts the text file afresh.
    std::fs::write(&text, "left over\n").unwrap();
    let run = run_to(
        &out,
        &[
            "--option1",
            "Threads=1",
            "--option2",
            "Player=random",
            "--nodes",
            "30",
            "--pairs",
            "2",
            "--concurrency",
            "2",
            "--text",
            &text_arg,
        ],
    );
    assert!(run.output.status.success(), "{}", run.stderr());
    let mut games: Vec<u64> = run.records.iter().map(|r| r.game).collect();
    games.sort();
    assert_eq!(games, [1, 2, 3, 4]);
    assert_eq!(run.lines, 4, "every line is a record");
    for pair in [[1, 2], [3, 4]] {
        let (a, b) = (run.game(pair[0]), run.game(pair[1]));
        assert_eq!(
            (a.seed, &a.deal),
            (b.seed, &b.deal),
            "a pair shares its deal"
        );
        assert_eq!(a.white, b.black, "colours swap within a pair");
        assert_eq!(
            a.white.options.get("Threads").map(String::as_str),
            Some("1")
        );
        assert_eq!(
            b.white.options.get("Player").map(String::as_str),
            Some("random")
        );
        assert_eq!(a.tc, "nodes 30");
    }
    assert_ne!(run.game(1).deal, run.game(3).deal);
    for r in &run.records {
        replays(r);
        assert!(!r.moves.is_empty());
    }
    let stdout = run.stdout();
    for want in [
        "W/D/L",
        "Score",
        "Elo",
        "Draws",
        "Endings",
        "Games      4 of 4",
    ] {
        assert!(stdout.contains(want), "{want} missing:\n{stdout}");
    }
    let text = std::fs::read_to_string(&text).unwrap();
    assert!(!text.contains("left over"));
    assert_eq!(text.matches("[Game \"").count(), 4);
    assert_eq!(text.matches("[Deal \"").count(), 4);
}

// ---------------------------------------------------------------------
// Issue 24: the runner under engines that misbehave, and torn records
// ---------------------------------------------------------------------

/// Item 3: an engine that prints each `bestmove` twice. The copy must
/// not be taken as the answer to the next request: each game goes on
/// to Black's illegal placement, and no one forfeits for a stale `@`.
#[test]
fn a_second_bestmove_is_not_taken_for_the_next_answer() {
    let run = scripted(
        "twice",
        &["TWICE:@", "TWICE:*@0,0", "TWICE:@", "*@9,9"],
        &["--games", "2", "--nodes", "5"],
    );
    for n in 1..=2 {
        let r = run.game(n);
        assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "illegal"));
        assert!(r.reason.contains("@9,9"), "game {n}: {}", r.reason);
        replays(r);
    }
}

/// Item 6: any shell command is an engine command, compound ones too.
#[test]
fn a_compound_shell_command_is_an_engine() {
    let dir = std::env::temp_dir();
    let engine = format!(
        "cd '{}' && {}",
        dir.display(),
        fake(&["@", "*@0,0", "@", "*@9,9"])
    );
    let out = temp("compound");
    let args = ["--engine1", &engine, "--engine2", &engine];
    let run = run_to(
        &out,
        &[&args[..], &["--games", "1", "--nodes", "5"]].concat(),
    );
    assert!(run.output.status.success(), "stderr:\n{}", run.stderr());
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "illegal"));
}

/// The state of process `pid` from /proc (`R`, `S`, `Z`…), or `None`
/// when it is gone.
fn process_state(pid: &str) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit(") ").next()?.chars().next()
}

/// Item 4: at the end of a match each engine is told `quit`, and what it
/// started is killed with it: the fake engine's child process (a long
/// sleep) must not outlive the match.
#[test]
fn engines_are_told_quit_and_their_children_end_with_them() {
    let pids = temp("children");
    let engine = fake(&["@", "*@0,0", "@", "*@9,9"]);
    let out = temp("children-out");
    let output = Command::new(BIN)
        .args(["match", "--engine1", &engine, "--engine2", &engine])
        .args(["--games", "2", "--nodes", "5", "--out"])
        .arg(&out)
        .env("FAKE_CHILD_PIDS", &pids)
        .output()
        .unwrap();
    assert!(output.status.success());
    let log = std::fs::read_to_string(&pids).unwrap();
    let children: Vec<&str> = log.lines().filter(|l| *l != "quit").collect();
    // A killed process may take a moment to be scheduled and die.
    let running = |pid: &&str| !matches!(process_state(pid), None | Some('Z' | 'X'));
    let waited = std::time::Instant::now();
    while children.iter().any(running) && waited.elapsed().as_secs() < 2 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let alive: Vec<&str> = children.iter().copied().filter(running).collect();
    for pid in &alive {
        let _ = Command::new("kill").arg(pid).status();
    }
    assert_eq!(children.len(), 2, "{log}");
    assert!(alive.is_empty(), "children still running: {alive:?}");
    assert_eq!(log.lines().filter(|l| *l == "quit").count(), 2, "{log}");
}

/// Runs `chex match` with both engines on `script` for `games` games,
/// flood lines of `line_bytes`, and returns the runner's peak resident
/// memory in KiB (VmHWM, read from /proc while it runs) and the records
/// it wrote.
fn peak_memory_kib(
    name: &str,
    script: &[&str],
    games: &str,
    line_bytes: u64,
) -> (u64, Vec<GameRecord>) {
    let engine = fake(script);
    let out = temp(name);
    let mut child = Command::new(BIN)
        .args(["match", "--engine1", &engine, "--engine2", &engine])
        .args(["--games", games, "--nodes", "5", "--out"])
        .arg(&out)
        // Reading a gigabyte of `info` before an answer can pass the
        // default minute of silence on a loaded machine: what is measured
        // here is memory, so the engine is given ten.
        .args(["--silence", "600000"])
        .env("FAKE_LINE_BYTES", line_bytes.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kib = 0u64;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        let status = std::fs::read_to_string(&status_file).unwrap_or_default();
        let hwm = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
        peak_kib = peak_kib.max(hwm.unwrap_or(0));
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{name}: {status}");
    let text = std::fs::read_to_string(&out).unwrap();
    let records = text
        .lines()
        .map(|l| GameRecord::from_json_line(l).unwrap())
        .collect();
    assert!(peak_kib > 0, "{name}: no memory reading");
    (peak_kib, records)
}

/// Item 2: an engine that floods `info` lines, 100 MB and then 1 GB,
/// must not grow the runner's memory. After its answer it floods while
/// the runner waits on the other engine (which thinks 1.5 s), and in
/// game 2 the runner reads through that backlog before asking it again;
/// before its answer it floods while the runner waits on it. Lines of
/// 100 kB (cut at 64 KiB) must not raise the peak either. The runner
/// holds about a megabyte of lines ahead at most, so its peak stays far
/// below the bound.
#[test]
fn an_engine_flooding_its_output_does_not_fill_the_runners_memory() {
    const BOUND_KIB: u64 = 24 * 1024;
    for (name, flood, games, line_bytes) in [
        ("flood-100mb-after", "FLOOD:100000000:*@0,0", "2", 220),
        ("flood-1gb-after", "FLOOD:1000000000:*@0,0", "2", 220),
        ("flood-100mb-before", "INFO:100000000:*@0,0", "2", 220),
        ("flood-1gb-before", "INFO:1000000000:*@0,0", "1", 220),
        ("flood-long-lines", "FLOOD:100000000:*@0,0", "2", 100_000),
    ] {
        let started = std::time::Instant::now();
        let script = ["@", flood, "SLEEP:1500:@", "*@9,9"];
        let (peak_kib, records) = peak_memory_kib(name, &script, games, line_bytes);
        eprintln!("{name}: peak {peak_kib} KiB in {:.1?}", started.elapsed());
        assert_eq!(records.len().to_string(), games, "{name}");
        for r in &records {
            assert_eq!(
                (r.result.as_str(), r.ending.as_str()),
                ("1-0", "illegal"),
                "{name}: {r:?}"
            );
        }
        assert!(
            peak_kib < BOUND_KIB,
            "{name}: the runner peaked at {} MiB",
            peak_kib / 1024
        );
    }
}

/// Item 5: a record torn before its newline. A whole last record without
/// its newline gets it back; a cut-off last line is dropped with a
/// warning and its game played again; nothing complete is lost, and the
/// next `--resume` reads the file.
#[test]
fn resume_repairs_or_drops_a_torn_last_line() {
    let (one, two) = one_sided();
    let out = temp("torn");
    let args = |games: &'static str| {
        vec![
            "--engine1".to_string(),
            one.clone(),
            "--engine2".to_string(),
            two.clone(),
            "--start".to_string(),
            MATE.to_string(),
            "--nodes".to_string(),
            "5".to_string(),
            "--games".to_string(),
            games.to_string(),
            "--resume".to_string(),
        ]
    };
    let run = |games| {
        let a = args(games);
        run_to(&out, &a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = run("2");
    assert_eq!(first.records.len(), 2);
    let text = std::fs::read_to_string(&out).unwrap();

    // The newline of record 2 is missing.
    std::fs::write(&out, text.trim_end()).unwrap();
    let repaired = run("3");
    assert!(repaired.output.status.success(), "{}", repaired.stderr());
    assert!(
        repaired.stderr().contains("no newline"),
        "{}",
        repaired.stderr()
    );
    let games: Vec<u64> = repaired.records.iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3]);
    assert_eq!(repaired.lines, 3);
    assert_eq!(repaired.records[..2], first.records[..]);

    // Record 3 cut in the middle: dropped, game 3 played again.
    let text = std::fs::read_to_string(&out).unwrap();
    let cut = text.len() - text.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&out, &text[..cut]).unwrap();
    let dropped = run("4");
    assert!(dropped.output.status.success(), "{}", dropped.stderr());
    assert!(dropped.stderr().contains("dropped"), "{}", dropped.stderr());
    let games: Vec<u64> = dropped.records.iter().map(|r| r.game).collect();
    assert_eq!(games, [1, 2, 3, 4]);
    assert_eq!(dropped.lines, 4);
    assert_eq!(dropped.records[..2], repaired.records[..2]);
    // Game 3, played again, is the same game; only its clock readings
    // are new.
    let unclocked = |r: &GameRecord| GameRecord {
        times_ms: Vec::new(),
        answers_ms: Vec::new(),
        ..r.clone()
    };
    assert_eq!(
        unclocked(&dropped.records[2]),
        unclocked(&repaired.records[2])
    );

    // A complete file resumes without a word.
    let again = run("4");
    assert!(again.output.status.success(), "{}", again.stderr());
    assert!(!again.stderr().contains("warning"), "{}", again.stderr());
    assert_eq!(again.records.len(), 4);
}

/// Item 7: `tools/match` runs the binary where cargo built it, in
/// `CARGO_TARGET_DIR` when that is set, not in `target/`. A stand-in
/// `cargo` on the PATH reports the target directory as cargo would, and
/// the `chex` there only says which one ran.
#[test]
fn tools_match_runs_the_binary_cargo_built() {
    let dir = temp("target-dir");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::create_dir_all(dir.join("release")).unwrap();
    let write_script = |path: PathBuf, body: &str| {
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        let _ = Command::new("chmod").arg("+x").arg(&path).status();
    };
    write_script(
        dir.join("bin/cargo"),
        r#"case "$1" in metadata) printf '{"target_directory":"%s","x":1}\n' "$CARGO_TARGET_DIR" ;; esac"#,
    );
    write_script(dir.join("release/chex"), r#"echo "stand-in chex $*""#);
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/match");
    let output = Command::new("bash")
        .arg(script)
        .arg("--nodes")
        .arg("5")
        .env("PATH", path)
        .env("CARGO_TARGET_DIR", &dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert_eq!(said.trim(), "stand-in chex match --nodes 5");
}

/// Item 16: each answer of a draw turn has its own time. White thinks
/// 600 ms over `@` and places at once; Black draws at once and thinks
/// 600 ms over its placement (refused: 9,9 is off the table).
#[test]
fn each_answer_of_a_draw_turn_is_timed_apart() {
    let run = scripted(
        "answers",
        &["SLEEP:600:@", "*@0,0", "@", "SLEEP:600:*@9,9"],
        &["--games", "1", "--nodes", "5"],
    );
    let r = run.game(1);
    assert_eq!((r.result.as_str(), r.ending.as_str()), ("1-0", "illegal"));
    assert_eq!(r.answers_ms.len(), r.moves.len(), "{r:?}");
    let [white, black] = &r.answers_ms[..] else {
        panic!("{r:?}")
    };
    assert_eq!(white.len(), 2, "{r:?}");
    assert!(white[0] >= 600 && white[1] < white[0], "{white:?}");
    assert_eq!(black.len(), 2, "{r:?}");
    assert!(black[1] >= 600 && black[0] < black[1], "{black:?}");
    let sums: Vec<u64> = r.answers_ms.iter().map(|a| a.iter().sum()).collect();
    assert_eq!(sums, r.times_ms);
    replays(r);
}

// ---------------------------------------------------------------------
// Issue 26: pairs played alone, the table of a records file, samples
// ---------------------------------------------------------------------

/// A record without what differs from run to run (the times).
fn untimed(record: &GameRecord) -> GameRecord {
    GameRecord {
        times_ms: Vec::new(),
        answers_ms: Vec::new(),
        ..record.clone()
    }
}

/// Runs `chex match` with `args` alone (no --out added).
fn chex_match(args: &[&str], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .arg("match")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("cannot run chex match");
    let mut input = child.stdin.take().expect("stdin is piped");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("chex match reads its stdin");
    drop(input);
    child.wait_with_output().expect("chex match ends")
}

/// A short deterministic match of the engine against itself under
/// --nodes (one thread, fixed seeds).
const SEEDED: [&str; 10] = [
    "--option1",
    "Threads=1",
    "--option1",
    "Seed=1",
    "--option2",
    "Threads=1",
    "--option2",
    "Seed=2",
    "--nodes",
    "30",
];

#[test]
fn pairs_played_alone_make_up_the_same_match_and_the_same_table() {
    let (out, samples) = (temp("whole"), temp("whole-samples"));
    let samples_arg = samples.to_string_lossy().into_owned();
    let mut args = SEEDED.to_vec();
    args.extend(["--pairs", "3", "--concurrency", "2"]);
    args.extend(["--positions", &samples_arg, "--sample", "5"]);
    let whole = run_to(&out, &args);
    assert!(whole.output.status.success(), "{}", whole.stderr());
    assert_eq!(whole.records.len(), 6);

    // Each pair alone, into one file in pair order.
    let (joined, joined_samples) = (temp("joined"), temp("joined-samples"));
    let mut all_samples = String::new();
    let mut lines = String::new();
    for pair in 0..3 {
        let (o, s) = (temp(&format!("pair{pair}")), temp(&format!("pair{pair}-s")));
        let (pair_arg, s_arg) = (pair.to_string(), s.to_string_lossy().into_owned());
        let mut args = SEEDED.to_vec();
        args.extend(["--pairs", "3", "--pair", &pair_arg]);
        args.extend(["--positions", &s_arg, "--sample", "5"]);
        let run = run_to(&o, &args);
        assert!(run.output.status.success(), "{}", run.stderr());
        let games: Vec<u64> = run.records.iter().map(|r| r.game).collect();
        assert_eq!(games, [2 * pair + 1, 2 * pair + 2]);
        for r in &run.records {
            assert_eq!(untimed(r), untimed(whole.game(r.game)), "game {}", r.game);
        }
        lines.push_str(&std::fs::read_to_string(&o).unwrap());
        all_samples.push_str(&std::fs::read_to_string(&s).unwrap());
    }
    std::fs::write(&joined, &lines).unwrap();
    std::fs::write(&joined_samples, &all_samples).unwrap();
    let sorted = |text: &str| {
        let mut v: Vec<String> = text.lines().map(String::from).collect();
        v.sort();
        v
    };
    let whole_samples = std::fs::read_to_string(&samples).unwrap();
    assert_eq!(sorted(&whole_samples), sorted(&all_samples));
    for line in whole_samples.lines() {
        let s = chex::referee::PositionSample::from_json_line(line).unwrap();
        let record = whole.game(s.game);
        assert_eq!(s.result, record.result);
        let p: chex::rules::Position = s.position.parse().unwrap();
        assert!(!p.in_check());
        // The search's own value there, as the mover's record of it.
        let value = s.value.unwrap_or_else(|| panic!("no value: {line}"));
        assert!((0.0..=1.0).contains(&value), "{line}");
        assert_eq!(Some(value), record.values[s.ply], "{line}");
    }
    for r in &whole.records {
        assert_eq!(r.values.len(), r.moves.len(), "a value a turn: {r:?}");
        assert!(r.values.iter().all(Option::is_some), "{r:?}");
    }
    assert!(whole_samples.lines().count() <= 6 * 5);

    // The table of either file is the match's own table.
    for file in [&out, &joined] {
        let file = file.to_string_lossy().into_owned();
        let stats = chex_match(&["--stats", &file, "--pairs", "3"], None);
        assert!(stats.status.success());
        assert_eq!(String::from_utf8_lossy(&stats.stdout), whole.stdout());
    }

    // Followed record by record, one SPRT state a record, the same table.
    let sprt = ["--sprt", "--elo0", "0", "--elo1", "5"];
    let empty = temp("follow").to_string_lossy().into_owned();
    let mut args = vec!["--stats", &empty, "--follow", "--pairs", "3"];
    args.extend(sprt);
    let followed = chex_match(&args, Some(&lines));
    assert!(followed.status.success());
    let joined_arg = joined.to_string_lossy().into_owned();
    let mut args = vec!["--stats", &joined_arg, "--pairs", "3"];
    args.extend(sprt);
    let at_once = chex_match(&args, None);
    let stdout = String::from_utf8_lossy(&followed.stdout).into_owned();
    let (states, table) = stdout.split_at(stdout.find("Match ").unwrap());
    assert_eq!(
        states,
        "continue\n".repeat(7),
        "the empty file, then each record"
    );
    assert_eq!(table, String::from_utf8_lossy(&at_once.stdout));
    assert!(table.contains("SPRT       elo0 0 elo1 5"), "{table}");
    assert_eq!(String::from_utf8_lossy(&followed.stderr).lines().count(), 6);
}

#[test]
fn stats_of_a_bad_records_file_is_a_one_line_error() {
    let good = {
        let out = temp("stats-good");
        let mut args = SEEDED.to_vec();
        args.extend(["--pairs", "1"]);
        let run = run_to(&out, &args);
        assert!(run.output.status.success(), "{}", run.stderr());
        std::fs::read_to_string(&out).unwrap()
    };
    let first = good.lines().next().unwrap();
    let other_seed = {
        let mut second = GameRecord::from_json_line(good.lines().nth(1).unwrap()).unwrap();
        second.seed = Some(5);
        second.to_json_line()
    };
    let cases: [(String, &str); 6] = [
        ("{\"game\":1\n".into(), "line 1: not a game record"),
        ("hello\n".into(), "line 1: not a game record"),
        (String::new(), "holds no records"),
        (
            format!("{good}{first}\n"),
            "line 3: game 1 is recorded twice",
        ),
        (format!("{first}\n{other_seed}\n"), "different settings"),
        (
            first.replace("\"tc\":\"nodes 30\"", "\"tc\":\"moves 3\"") + "\n",
            "unknown time control",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = temp(&format!("stats-bad-{i}"));
        std::fs::write(&path, text).unwrap();
        let out = chex_match(&["--stats", &path.to_string_lossy()], None);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "case {i}");
        assert_eq!(err.lines().count(), 1, "case {i}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "case {i}: {err}"
        );
    }
    let path = temp("stats-flag");
    std::fs::write(&path, &good).unwrap();
    let out = chex_match(&["--stats", &path.to_string_lossy(), "--nodes", "5"], None);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--nodes does not go with --stats"));
    let out = chex_match(&["--nodes", "5", "--pairs", "2", "--pair", "2"], None);
    assert!(String::from_utf8_lossy(&out.stderr).contains("outside this match's 2 pairs"));
}

#[test]
fn resume_keeps_the_samples_of_recorded_games_only() {
    let (out, samples) = (temp("resume-samples"), temp("resume-samples-s"));
    let s_arg = samples.to_string_lossy().into_owned();
    let mut args = SEEDED.to_vec();
    args.extend(["--pairs", "2", "--positions", &s_arg]);
    let first = run_to(&out, &args);
    assert!(first.output.status.success(), "{}", first.stderr());
    let all = std::fs::read_to_string(&samples).unwrap();
    // As if stopped after game 3's samples, before its record.
    let records = std::fs::read_to_string(&out).unwrap();
    let kept: Vec<&str> = records
        .lines()
        .filter(|l| !l.contains("\"game\":4,"))
        .collect();
    assert_eq!(kept.len(), 3);
    std::fs::write(&out, kept.join("\n") + "\n").unwrap();
    let resumed = run_to(&out, &[args.as_slice(), &["--resume"]].concat());
    assert!(resumed.output.status.success(), "{}", resumed.stderr());
    assert!(resumed.stderr().contains("dropped"), "{}", resumed.stderr());
    let again = std::fs::read_to_string(&samples).unwrap();
    let mut a: Vec<&str> = all.lines().collect();
    let mut b: Vec<&str> = again.lines().collect();
    a.sort();
    b.sort();
    assert_eq!(a, b, "each game's samples once");
}

/// Issue 56: `--ponder1` makes engine 1 ponder. Its input, logged on the
/// way in, shows `go ponder` after its answers and a `ponderhit` or a
/// `stop` before each of its next; nothing is lost on time, every game
/// ends on the table, and the records replay. Engine 2 does not ponder.
#[test]
fn an_engine_that_ponders_is_told_ponderhit_or_stop() {
    let log = temp("ponder-log");
    let quoted = |p: &str| format!("'{}'", p.replace('\'', r"'\''"));
    let engine1 = format!(
        "tee -a {} | {}",
        quoted(&log.to_string_lossy()),
        quoted(BIN)
    );
    let run = run_to(
        &temp("ponder"),
        &[
            "--engine1",
            &engine1,
            "--name1",
            "ponderer",
            "--ponder1",
            "--option1",
            "Threads=1",
            "--option2",
            "Threads=1",
            "--movetime",
            "40",
            "--games",
            "2",
        ],
    );
    assert!(run.output.status.success(), "{}", run.stderr());
    assert_eq!(run.records.len(), 2, "{}", run.stderr());
    for r in &run.records {
        replays(r);
        let ends = ["time", "silent", "crash", "illegal"];
        assert!(!ends.contains(&r.ending.as_str()), "{r:?}");
        let (ponderer, other) = if r.white.name == "ponderer" {
            (&r.white, &r.black)
        } else {
            (&r.black, &r.white)
        };
        assert_eq!(
            ponderer.options.get("Ponder").map(String::as_str),
            Some("true")
        );
        assert_eq!(other.options.get("Ponder"), None);
    }
    let sent = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    let ponders = lines
        .iter()
        .filter(|l| l.starts_with("go ponder movetime 40"))
        .count();
    let hits = lines.iter().filter(|l| **l == "ponderhit").count();
    let stops = lines.iter().filter(|l| **l == "stop").count();
    assert!(ponders > 0, "no go ponder sent:\n{sent}");
    // Every ponder is ended, by ponderhit or stop, and by nothing else.
    assert_eq!(
        hits + stops,
        ponders,
        "{hits} ponderhits, {stops} stops:\n{sent}"
    );
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("go ponder") {
            let next = lines[i + 1..]
                .iter()
                .find(|l| l.starts_with("go") || **l == "ponderhit" || **l == "stop");
            assert!(
                matches!(next, Some(&"ponderhit") | Some(&"stop")),
                "after line {i} came {next:?}"
            );
        }
    }
    let _ = std::fs::remove_file(&log);
}
