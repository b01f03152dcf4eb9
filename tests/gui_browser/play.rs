//! Issue 50's play tools in the browser, each used by clicks as a person
//! would: a clock game lost on the flag, a clock game where the engine is
//! given its clocks, a level below full strength, a set-up position played
//! from and exported, and an illegal setup refused with the parser's
//! reason. The clock game and the editor are photographed at 1280×800 and
//! 390×844, and must fit both.

use super::gui_common::{game_of, legal, moves, Gui};
use super::{
    destination, engine_d_of, engine_says, ensure_browser, page_piles, page_tiles,
    photograph_and_check, place_turns, Browser,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A browser on the page, once it has its first view.
fn open(gui: &Gui) -> Browser {
    let browser = Browser::start();
    browser.go(&gui.url());
    browser.wait(
        "the page",
        "return document.body.dataset.version !== undefined;",
    );
    browser
}

/// A fresh folder for a test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chex-play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An engine that is this crate's, with everything the GUI sends it
/// copied to `log`.
fn logging_engine(dir: &std::path::Path) -> (String, PathBuf) {
    let script = dir.join("engine.sh");
    let log = dir.join("engine-input.log");
    let text = format!(
        "#!/bin/sh\ntee -a '{}' | '{}'\n",
        log.display(),
        env!("CARGO_BIN_EXE_chex")
    );
    std::fs::write(&script, text).unwrap();
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    (script.display().to_string(), log)
}

/// The GUI's lines to the engine so far.
fn sent(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The numbers of a `go` line: `wtime` → ms, and so on.
fn go_fields(line: &str) -> BTreeMap<String, u64> {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    words
        .chunks(2)
        .map(|pair| {
            let n = pair[1]
                .parse()
                .unwrap_or_else(|_| panic!("not a number in {line:?}"));
            (pair[0].to_string(), n)
        })
        .collect()
}

/// Every search's `position` comes right after a `Skill` setting: the
/// level is never left to what the engine remembers.
fn assert_skill_before_each_search(lines: &[String], level: u8) {
    let setting = format!("setoption name Skill value {level}");
    let searches: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("position "))
        .collect();
    assert!(!searches.is_empty(), "no search in {lines:?}");
    for i in searches {
        assert!(
            i > 0 && lines[i - 1] == setting,
            "line {i} {:?} not after {setting:?}: {lines:?}",
            lines[i]
        );
    }
}

/// A clock's time as the page shows it: whole seconds rounded up.
fn shown(ms: u64) -> String {
    let s = ms.div_ceil(1000);
    format!("{}:{:02}", s / 60, s % 60)
}

/// The reason the engine's own parser gives for a position it refuses.
fn engine_refusal(position: &str) -> String {
    let out = engine_says(&format!("position fen {position}"));
    out.lines()
        .find_map(|l| l.strip_prefix("info string error: "))
        .unwrap_or_else(|| panic!("the engine took {position:?}: {out}"))
        .to_string()
}

/// A clock game lost on time: a custom clock of 3 s, the person plays
/// White. Neither clock runs on its side's first turn (lichess's rule);
/// after the engine's first answer White's clock runs and the person does
/// not move. The page counts it down with no new view, in tenths and red
/// under 10 s, the server flags it with no request, and the page shows
/// 0-1, the reason and 0:00.0; a move is then refused with the reason.
#[test]
fn a_clock_game_ends_on_the_flag() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "3", "--movetime", "200"]);
    gui.wait_for(20, "the engine", |s| s["engine"]["status"] == "ready");
    let browser = open(&gui);
    browser.click("#mode option[value=white]");
    browser.click("#tc option[value=custom]");
    browser.find("#tc-custom:not(.hidden)");
    browser.type_into("#tc-base", "3");
    browser.type_into("#tc-inc", "0");
    browser.click("#new");
    let state = gui.wait_for(10, "the clock game", |s| s["clock"]["base_ms"] == 3000);
    assert_eq!(state["clock"]["inc_ms"], 0);
    assert!(state["clock"]["running"].is_null(), "{state}");
    assert_eq!(state["mode"], "white");

    // The first turns, White's by clicks and Black's the engine's, cost
    // no time.
    browser.wait(
        "the draw offered",
        "return !document.querySelector('#draw').disabled;",
    );
    browser.click("#draw");
    browser.click("#world .sq.legal[data-sq='0,0']");
    let state = gui.wait_for(30, "the engine's reply", |s| {
        moves(s).len() == 2 && s["human_turn"] == true
    });
    let started = Instant::now();
    assert_eq!(state["clock"]["left_ms"], json!([3000, 3000]), "{state}");
    assert_eq!(state["clock"]["running"], "white");
    let version = state["version"].as_u64().unwrap();

    // The page counts down between views, in tenths, red: no view comes
    // while White thinks.
    browser.wait(
        "White's clock running",
        "return document.querySelector('#clock-white').classList.contains('running');",
    );
    browser.wait(
        "the countdown in tenths",
        "const t = document.querySelector('#clock-white').textContent;
         return /^0:0[12]\\.\\d$/.test(t);",
    );
    assert_eq!(
        browser.read("return document.querySelector('#clock-white').classList.contains('low');"),
        true
    );
    assert_eq!(browser.text("#clock-black"), "0:03.0");
    assert!(
        started.elapsed() < Duration::from_millis(2900),
        "the flag is not yet due"
    );
    assert_eq!(gui.state()["version"].as_u64().unwrap(), version);

    // The flag: nothing was sent since the engine's answer.
    browser.wait(
        "the flag on the page",
        "return document.querySelector('#result').textContent.startsWith('0-1');",
    );
    // `started` is when the test saw the engine's answer, which may be a
    // few hundred ms after the clock started on a loaded machine.
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(2400), "{waited:?}");
    assert_eq!(browser.text("#result"), "0-1 — White lost on time");
    assert_eq!(browser.text("#clock-white"), "0:00.0");
    assert_eq!(
        browser
            .read("return document.querySelector('#clock-white').classList.contains('flagged');"),
        true
    );
    let state = gui.state();
    assert_eq!(state["result"], "0-1");
    assert_eq!(state["reason"], "White lost on time");
    assert_eq!(state["clock"]["left_ms"][0], 0);
    assert!(legal(&state).is_empty());

    // A move after the flag: the Draw button is off and does nothing, the
    // table offers no move, and one sent anyway is refused with the
    // reason, shown on the page.
    assert_eq!(
        browser.read("return document.querySelector('#draw').disabled;"),
        true
    );
    browser.click("#draw");
    browser.click("#world .sq[data-sq='0,0']");
    assert!(browser.find_all("#world .sq.legal").is_empty());
    browser.read("chex.play('@'); return true;");
    browser.wait(
        "the refusal",
        "return document.querySelector('#message').textContent \
         === 'error: the game is over (White lost on time)';",
    );
    assert_eq!(moves(&gui.state()).len(), 2);
    let record = gui.get("/api/record").json();
    assert_eq!(record["tc"], "tc 3+0");
    assert_eq!(record["result"], "0-1");
    assert_eq!(record["ending"], "time");
}

/// A clock game the engine plays: it is sent `go wtime … btime … winc …
/// binc …` from the server's clocks, its level before each search, and
/// what its answers took comes off its clock. Photographed at both sizes
/// while the person's clock runs.
#[test]
fn the_engine_is_given_the_clocks() {
    ensure_browser();
    let dir = temp_dir("clocks");
    let (engine, log) = logging_engine(&dir);
    let gui = Gui::start(&["--seed", "5", "--movetime", "200", "--engine", &engine]);
    let browser = open(&gui);
    browser.click("#mode option[value=white]");
    browser.click("#tc option[value='300+3']");
    browser.click("#new");
    gui.wait_for(10, "the clock game", |s| s["clock"]["base_ms"] == 300_000);
    browser.wait(
        "the draw offered",
        "return !document.querySelector('#draw').disabled;",
    );
    browser.click("#draw");
    browser.click("#world .sq.legal[data-sq='0,0']");
    let state = gui.wait_for(30, "the engine's reply", |s| {
        moves(s).len() == 2 && s["human_turn"] == true
    });
    let clock = &state["clock"];
    let left = |i: usize| clock["left_ms"][i].as_u64().unwrap();
    assert_eq!(clock["running"], "white");

    // What the engine was sent: Black's draw, then its placement.
    let lines = sent(&log);
    assert_skill_before_each_search(&lines, 6);
    let gos: Vec<BTreeMap<String, u64>> = lines
        .iter()
        .filter(|l| l.starts_with("go "))
        .map(|l| {
            assert!(l.starts_with("go wtime "), "not a clock's go: {l}");
            go_fields(l)
        })
        .collect();
    assert_eq!(gos.len(), 2, "{lines:?}");
    for go in &gos {
        assert_eq!(go["winc"], 3000, "{go:?}");
        assert_eq!(go["binc"], 3000, "{go:?}");
        // White's clock stood still while Black thought.
        assert_eq!(go["wtime"], left(0), "{go:?} {state}");
    }
    assert!(
        gos[0]["btime"] <= 300_000 && gos[0]["btime"] > 290_000,
        "{gos:?}"
    );
    assert!(gos[1]["btime"] <= gos[0]["btime"], "{gos:?}");
    // Black's clock: the time its two answers took, less, and one
    // increment for the turn, more.
    assert!(left(1) <= gos[1]["btime"] + 3000, "{gos:?} {state}");
    assert!(left(1) < 303_000, "{state}");
    let record = gui.get("/api/record").json();
    assert_eq!(record["tc"], "tc 300+3");
    for side in 0..2 {
        let spent: u64 = record["answers_ms"][side]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_u64().unwrap())
            .sum();
        // Each side's first turn is untimed (lichess's rule): it costs
        // nothing and earns no increment.
        assert_eq!(spent, 0, "{record}");
        assert_eq!(left(side), 300_000, "{record} {state}");
    }
    // The page shows the engine's clock as the server keeps it, and
    // White's running.
    assert_eq!(browser.text("#clock-black"), shown(left(1)));
    assert_eq!(
        browser
            .read("return document.querySelector('#clock-white').classList.contains('running');"),
        true
    );

    for size in [(1280, 800), (390, 844)] {
        photograph_and_check(
            &browser,
            "clock",
            size,
            &[
                "#clock-white",
                "#clock-black",
                "#draw",
                "#tc",
                "#level",
                "#new",
            ],
            "body",
        );
    }
}

/// Level 1 caps the engine's search at 8 iterations, where full strength
/// at the same time per move searches thousands: the same position (the
/// same deal, taken back and played again), the level changed between
/// moves on the page.
#[test]
fn a_lower_level_searches_less_in_the_same_position() {
    ensure_browser();
    let dir = temp_dir("level");
    let (engine, log) = logging_engine(&dir);
    let gui = Gui::start(&["--seed", "5", "--movetime", "500", "--engine", &engine]);
    let browser = open(&gui);
    browser.click("#mode option[value=white]");
    browser.click("#level option[value='1']");
    browser.click("#new");
    gui.wait_for(10, "level 1", |s| {
        s["level"] == 1 && s["mode"] == "white" && s["clock"].is_null()
    });
    let reply = |browser: &Browser| -> Value {
        browser.wait(
            "the draw offered",
            "return !document.querySelector('#draw').disabled;",
        );
        browser.click("#draw");
        browser.click("#world .sq.legal[data-sq='0,0']");
        let state = gui.wait_for(30, "the engine's reply", |s| {
            moves(s).len() == 2 && s["human_turn"] == true
        });
        browser.wait(
            "the reply on the page",
            "return document.querySelector('#engine-move').textContent.startsWith('Engine played');",
        );
        state
    };
    let weak = reply(&browser);
    let nodes = weak["engine"]["info"]["nodes"].as_u64().unwrap();
    assert!((1..=8).contains(&nodes), "level 1 searched {nodes} nodes");
    assert_eq!(browser.text("#nodes"), nodes.to_string());
    assert_skill_before_each_search(&sent(&log), 1);

    // Back to the start, full strength, the same moves.
    browser.click("#takeback");
    gui.wait_for(10, "the take-back", |s| moves(s).is_empty());
    browser.click("#level option[value='6']");
    gui.wait_for(10, "level 6", |s| s["level"] == 6);
    let before = sent(&log).len();
    let strong = reply(&browser);
    assert_eq!(
        moves(&strong)[1].chars().next(),
        moves(&weak)[1].chars().next(),
        "the same tile drawn"
    );
    let nodes = strong["engine"]["info"]["nodes"].as_u64().unwrap();
    assert!(nodes >= 100, "full strength searched only {nodes} nodes");
    assert_skill_before_each_search(&sent(&log)[before..], 6);
    let record = gui.get("/api/record").json();
    assert_eq!(record["black"]["options"]["Skill"], "6");
}

/// Places `piece` (a letter, or "" for the eraser) on `square` by clicks.
fn put(browser: &Browser, piece: &str, square: &str) {
    browser.click(&format!("#palette .pal[data-tool='{piece}']"));
    browser.find(&format!("#palette .pal.chosen[data-tool='{piece}']"));
    browser.click(&format!("#setup-world .sq[data-sq='{square}']"));
}

/// A position set up by clicks (three tiles, both piles, the side to
/// move), played from against the engine, and exported: the engine's `d`
/// of the exported text is the table and piles the page shows.
#[test]
fn a_set_up_position_is_played_from_and_exported() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "7", "--movetime", "300"]);
    let browser = open(&gui);
    browser.click("#setup-new");
    browser.find("#setup-panel:not(.hidden)");
    // An empty table: the grid around 0,0.
    browser.wait(
        "the empty grid",
        "return document.querySelectorAll('#setup-world .sq').length === 25 \
         && document.querySelector('#setup-world .sq.origin[data-sq=\"0,0\"]') !== null;",
    );
    put(&browser, "K", "0,0");
    put(&browser, "n", "1,1");
    put(&browser, "k", "2,2");
    // A click on a tile with its own kind chosen takes it off again, and
    // the eraser takes off any: each goes back to its pile.
    put(&browser, "Q", "-1,0");
    put(&browser, "Q", "-1,0");
    put(&browser, "R", "3,3");
    put(&browser, "", "3,3");
    browser.type_into("#setup-piles input[data-pile='P']", "3");
    browser.type_into("#setup-piles input[data-pile='p']", "2");
    browser.click("#setup-side option[value='w']");
    browser.click("#setup-mode option[value='white']");
    let fen = "K0,0/n1,1/k2,2 w QRRBBNNPPP/qrrbbnpp 0 1";
    browser.wait(
        "the position string",
        &format!("return document.querySelector('#setup-fen').textContent === '{fen}';"),
    );
    for size in [(1280, 800), (390, 844)] {
        photograph_and_check(
            &browser,
            "setup",
            size,
            &[
                "#palette .pal[data-tool='K']",
                "#palette .pal[data-tool='']",
                "#setup-world .sq[data-sq='0,0']",
                "#setup-piles input[data-pile='p']",
                "#setup-side",
                "#setup-use",
            ],
            "body",
        );
    }
    browser.resize(1400, 900);
    browser.click("#setup-use");
    browser.find("#setup-panel.hidden");
    let state = gui.state();
    assert_eq!(
        state["position"],
        "k2,2/n1,1/K0,0 w QRRBBNNPPP/qrrbbnpp 0 1"
    );
    assert_eq!(state["seed"], 8);
    assert_eq!(state["mode"], "white");
    assert!(moves(&state).is_empty());
    let table: BTreeMap<String, String> = [("0,0", "K"), ("1,1", "n"), ("2,2", "k")]
        .iter()
        .map(|(s, p)| (s.to_string(), p.to_string()))
        .collect();
    browser.wait(
        "the set-up table",
        "return document.querySelectorAll('#world .tile').length === 3;",
    );
    assert_eq!(page_tiles(&browser), table);

    // The king steps by clicks; the engine answers.
    let step = legal(&state)
        .into_iter()
        .find(|t| t.starts_with("0,0-"))
        .expect("a king step");
    browser.click("#world .sq.mine[data-sq='0,0']");
    browser.click(&format!(
        "#world .sq.legal[data-sq='{}']",
        destination(&step)
    ));
    let state = gui.wait_for(30, "the engine's answer", |s| {
        moves(s).len() == 2 && s["human_turn"] == true
    });
    assert_eq!(moves(&state)[0], step);

    // The export, read by the engine, is the game the page shows.
    browser.click("#export");
    browser.wait(
        "the export",
        "return document.querySelector('#export-text').value.includes(' moves ');",
    );
    let text = browser.read("return document.querySelector('#export-text').value;");
    let text = text.as_str().unwrap();
    assert_eq!(
        text,
        format!(
            "position fen k2,2/n1,1/K0,0 w QRRBBNNPPP/qrrbbnpp 0 1 moves {}",
            moves(&state).join(" ")
        )
    );
    browser.wait(
        "the table after the answer",
        &format!(
            "return document.querySelectorAll('#moves .mv').length === {};",
            moves(&state).len()
        ),
    );
    let (tiles, piles, side) = engine_d_of(text);
    assert_eq!(page_tiles(&browser), tiles);
    assert_eq!(page_piles(&browser), piles);
    assert_eq!(side, "w");
    browser.find("#export-copy");
    browser.find("#export-download");
}

/// Illegal setups are refused with exactly the reason the engine's own
/// parser gives, shown on the page, the game unchanged and the editor
/// still open: tiles that are not one group, then two white kings.
#[test]
fn an_illegal_setup_is_refused_with_the_parsers_reason() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "7", "--movetime", "300"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":7}"#);
    place_turns(&gui, 2);
    gui.ok("/api/move", r#"{"token":"@"}"#);
    let before = game_of(&gui.state());
    let browser = open(&gui);
    browser.click("#setup-new");
    put(&browser, "K", "0,0");
    put(&browser, "k", "2,2");
    let try_use = |browser: &Browser| {
        let fen = browser.text("#setup-fen");
        let reason = engine_refusal(&fen);
        browser.click("#setup-use");
        browser.wait(
            "the refusal",
            &format!(
                "return document.querySelector('#setup-message').textContent === {};",
                json!(format!("error: {reason}"))
            ),
        );
        assert_eq!(game_of(&gui.state()), before, "{fen} changed the game");
        browser.find("#setup-panel:not(.hidden)");
        reason
    };
    let reason = try_use(&browser);
    assert_eq!(
        reason,
        "impossible position: the tiles on the table are not one group"
    );
    put(&browser, "K", "1,1");
    let reason = try_use(&browser);
    assert_eq!(
        reason,
        "impossible position: White has 2 kings in pile and on table; it must have exactly one"
    );
    // The editor from the game on the table: its drawn tile back on the
    // pile, as the position string has it.
    browser.click("#setup-cancel");
    browser.click("#setup-edit");
    let position = gui.state()["position"].as_str().unwrap().to_string();
    assert_eq!(browser.text("#setup-fen"), position);
}

/// Waits until the message `text` is shown where the person looks: in a
/// message box inside the window, on top at its middle, and within 80 px
/// of `control`, the control that caused it.
fn assert_message_beside(browser: &Browser, text: &str, control: &str) {
    browser.wait(
        &format!("{text:?} in sight beside {control}"),
        &format!(
            "const box = [...document.querySelectorAll('.message')].find(e => e.textContent === {text});
             if (!box) return false;
             const r = box.getBoundingClientRect();
             const c = document.querySelector({control}).getBoundingClientRect();
             const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             const seen = r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight
               && hit !== null && (hit === box || box.contains(hit));
             return seen && Math.max(r.top - c.bottom, c.top - r.bottom) < 80;",
            text = json!(text),
            control = json!(control)
        ),
    );
}

/// Issue 55: an error shows beside the control that caused it, in sight:
/// a setup refused (Black's king taken out of the set) beside "Use this
/// position", and "Load text" of text that is no record beside "Load
/// text". The editor with its refusal is photographed.
#[test]
fn errors_show_beside_the_control_that_caused_them() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "7", "--movetime", "300"]);
    let browser = open(&gui);
    browser.resize(1280, 800);
    browser.click("#setup-new");
    browser.find("#setup-panel:not(.hidden)");
    browser.type_into("#setup-piles input[data-pile='k']", "0");
    let fen = browser.text("#setup-fen");
    let reason = engine_refusal(&fen);
    browser.click("#setup-use");
    assert_message_beside(&browser, &format!("error: {reason}"), "#setup-use");
    let shot = super::screenshot_dir().join("chex-gui-setup-refused-1280x800.png");
    browser.screenshot(&shot);
    eprintln!("screenshot: {}", shot.display());
    browser.click("#setup-cancel");

    browser.type_into("#record", "not json at all");
    let why = gui.post("/api/load", "not json at all").body;
    browser.click("#load");
    assert_message_beside(&browser, why.trim(), "#load");
}
/// Issue 55: "Clear the table" puts the tiles back in the set, as the
/// eraser does, and a game from a set-up position runs on the time
/// control chosen in the Game panel (3+2), not a fixed time per move.
#[test]
fn the_editor_clears_into_the_set_and_keeps_the_clock_chosen() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "7", "--movetime", "300"]);
    let browser = open(&gui);
    browser.click("#tc option[value='180+2']");
    browser.click("#setup-new");
    put(&browser, "K", "0,0");
    put(&browser, "q", "1,1");
    browser.click("#setup-clear");
    let full = "- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1";
    browser.wait(
        "the cleared position",
        &format!("return document.querySelector('#setup-fen').textContent === '{full}';"),
    );
    put(&browser, "K", "0,0");
    put(&browser, "n", "1,1");
    put(&browser, "k", "2,2");
    browser.click("#setup-mode option[value='two']");
    browser.click("#setup-use");
    browser.find("#setup-panel.hidden");
    let state = gui.state();
    assert_eq!(state["clock"]["base_ms"], 180_000, "{state}");
    assert_eq!(state["clock"]["inc_ms"], 2_000, "{state}");
    browser.wait(
        "the clock in the game's line",
        "return document.querySelector('#gameinfo').textContent.includes('clock 180 s + 2 s');",
    );

    // On a phone, opening the editor keeps its table in sight, with the
    // palette under it.
    browser.resize(390, 844);
    browser.click("#setup-new");
    browser.find("#setup-panel:not(.hidden)");
    std::thread::sleep(Duration::from_millis(300));
    let sight = browser.read(
        "const b = document.querySelector('#board').getBoundingClientRect();
         const p = document.querySelector('#palette').getBoundingClientRect();
         return { board: b.top, boardBottom: b.bottom, palette: p.top, inner: window.innerHeight };",
    );
    let at = |k: &str| sight[k].as_f64().unwrap();
    assert!(at("board") >= -1.0 && at("board") < 100.0, "{sight}");
    assert!(at("palette") < at("inner"), "{sight}");
}
/// Issue 55, clocks as lichess runs them: on a fresh page with a fixed
/// time per move no clock runs; in a clock game neither side's clock
/// runs before its first move, and a game where White makes no first
/// move (in 30 s, or the base time when shorter) is aborted, not lost on
/// time.
#[test]
fn no_clock_runs_before_a_first_move_and_a_game_without_one_is_aborted() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "3", "--movetime", "200"]);
    gui.wait_for(20, "the engine", |s| s["engine"]["status"] == "ready");
    let browser = open(&gui);
    std::thread::sleep(Duration::from_millis(1500));
    for side in ["white", "black"] {
        assert_eq!(browser.text(&format!("#clock-{side}")), "0:00");
    }
    assert!(browser.find_all("#clocks b.running").is_empty());

    browser.click("#mode option[value=white]");
    browser.click("#tc option[value=custom]");
    browser.type_into("#tc-base", "3");
    browser.type_into("#tc-inc", "0");
    browser.click("#new");
    let started = Instant::now();
    gui.wait_for(10, "the clock game", |s| s["clock"]["base_ms"] == 3000);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(browser.text("#clock-white"), "0:03.0");
    assert!(browser.find_all("#clocks b.running").is_empty());
    browser.wait(
        "the abort on the page",
        "return document.querySelector('#result').textContent.startsWith('Aborted');",
    );
    assert!(started.elapsed() >= Duration::from_millis(2900));
    let state = gui.state();
    assert_eq!(state["result"], "*", "{state}");
    assert_eq!(state["aborted"], true, "{state}");
    assert_eq!(state["clock"]["left_ms"], json!([3000, 3000]));
    assert!(state["clock"]["flagged"].is_null());
    assert!(legal(&state).is_empty());
    assert_eq!(browser.text("#clock-white"), "0:03.0");
    assert_eq!(
        browser.read("return document.querySelector('#draw').disabled;"),
        true
    );
}

/// Issue 55: "Save game" while the game is played writes no deal (the
/// order of the tiles to come), and the saved game loads back to the same
/// position; once the game is over (here aborted) the record has it.
#[test]
fn a_game_saved_while_played_hides_the_deal() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "3", "--movetime", "200"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":3}"#);
    place_turns(&gui, 2);
    let before = game_of(&gui.state());
    let browser = open(&gui);
    browser.click("#save");
    browser.wait(
        "the saved record",
        "return document.querySelector('#record').value.includes('\"moves\"');",
    );
    let saved = browser.read("return document.querySelector('#record').value;");
    let saved = saved.as_str().unwrap().to_string();
    assert!(!saved.contains("\"deal\""), "{saved}");
    gui.ok("/api/new", r#"{"mode":"two","seed":1}"#);
    browser.click("#load");
    browser.wait(
        "the loaded game",
        "return document.querySelectorAll('#world .tile').length === 2;",
    );
    assert_eq!(game_of(&gui.state()), before);

    gui.ok(
        "/api/new",
        r#"{"mode":"two","seed":3,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    gui.wait_for(10, "the abort", |s| s["aborted"] == true);
    browser.click("#save");
    browser.wait(
        "the record of the aborted game",
        "return document.querySelector('#record').value.includes('\"deal\"');",
    );
}

/// Issue 56: the new game's "engine thinks on your time" checkbox, off
/// by default, asks a clock game to ponder, and the game's line on the
/// page says so; a game with a fixed time per move does not ponder even
/// when it is ticked.
#[test]
fn the_ponder_checkbox_asks_a_clock_game_to_ponder() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "5", "--movetime", "200"]);
    let browser = open(&gui);
    assert_eq!(
        browser.read("return document.querySelector('#ponder').checked;"),
        false
    );
    browser.click("#mode option[value=white]");
    browser.click("#tc option[value='300+3']");
    browser.click("#new");
    let state = gui.wait_for(10, "the clock game", |s| s["clock"]["base_ms"] == 300_000);
    assert_eq!(state["ponder"], false);
    browser.click("#ponder");
    browser.click("#new");
    gui.wait_for(10, "a pondering game", |s| {
        s["ponder"] == true && s["clock"]["base_ms"] == 300_000
    });
    browser.wait(
        "the game line to say so",
        "return document.querySelector('#gameinfo').textContent.includes('pondering');",
    );
    browser.click("#tc option[value=move]");
    browser.click("#new");
    gui.wait_for(10, "a game without a clock", |s| {
        s["clock"].is_null() && s["ponder"] == false
    });
}
