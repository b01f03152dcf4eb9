//! Study on the page, clicked as a person would: a hint that is a legal
//! action (and for a draw, a legal placement of every kind that may
//! come), analysis marks legal in the position shown, analysis that stops
//! the engine when turned off, and the review of a `chex match` record
//! whose marks agree with the drops in the engine's WDL, with its graph,
//! its points and the arrow keys. Each saves screenshots at 1280×800 and
//! 390×844 and checks that the page stays usable at both.

use super::gui_common::{legal, moves, Gui};
use super::{
    engine_says, ensure_browser, page_tiles, photograph_and_check, place_turns, tiles_of, Browser,
};
use serde_json::{json, Value};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// WebDriver's codes for the keys the cursor answers.
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

/// A two-person game on seed 3 with `turns` turns placed (see
/// [`place_turns`]), and a browser at 1280×800 on its page once the page
/// shows their tiles.
fn placed_game(turns: usize) -> (Gui, Browser) {
    let gui = Gui::start(&["--seed", "3", "--movetime", "200"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":3}"#);
    place_turns(&gui, turns);
    let browser = Browser::start();
    browser.resize(1280, 800);
    browser.go(&gui.url());
    browser.wait(
        "the page",
        &format!("return document.querySelectorAll('#world .tile').length === {turns};"),
    );
    (gui, browser)
}

/// What the engine itself lists as legal (`moves`) after a `position`
/// command: the check does not trust the server's referee.
fn engine_legal(position: &str) -> Vec<String> {
    let out = engine_says(&format!("{position}\nmoves"));
    assert!(!out.contains("error"), "{position}: {out}");
    out.lines()
        .find(|l| !l.starts_with("info"))
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A `position` command with one more token.
fn with_move(position: &str, token: &str) -> String {
    if position.contains(" moves ") {
        format!("{position} {token}")
    } else {
        format!("{position} moves {token}")
    }
}

/// Waits until `test` holds for the state, for up to `secs`.
fn wait_state(gui: &Gui, secs: u64, what: &str, test: impl Fn(&Value) -> bool) -> Value {
    gui.wait_for(secs, what, test)
}

/// Presses a key as a person would (WebDriver key actions).
fn press(browser: &Browser, key: &str) {
    browser.session(
        "POST",
        "/actions",
        Some(
            json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]}),
        ),
    );
    browser.session("DELETE", "/actions", None);
}

/// The marks drawn over the table: (class list, token, data).
fn page_marks(browser: &Browser) -> Vec<Value> {
    let marks = browser.read(
        "return [...document.querySelectorAll('#study-marks g.mark')].map(g => ({
           cls: g.getAttribute('class'), token: g.dataset.token, kind: g.dataset.kind || null,
           source: g.dataset.source || null, rank: g.dataset.rank || null }));",
    );
    marks.as_array().expect("a list").clone()
}

/// Waits until the page has drawn the server's view as of now.
fn page_caught_up(browser: &Browser, gui: &Gui) -> Value {
    let state = gui.state();
    let version = state["version"].as_u64().unwrap();
    browser.wait(
        "the page to catch up",
        &format!("return Number(document.body.dataset.version) >= {version};"),
    );
    state
}

/// CPU time (clock ticks) spent so far by the server's child processes:
/// the engine.
fn engine_ticks(gui_pid: u32) -> u64 {
    let mut children = Vec::new();
    if let Ok(tasks) = std::fs::read_dir(format!("/proc/{gui_pid}/task")) {
        for task in tasks.flatten() {
            let list = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            children.extend(list.split_whitespace().map(str::to_string));
        }
    }
    children
        .iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .map(|stat| {
            // The fields after the command's closing parenthesis: utime
            // and stime are the 12th and 13th.
            let rest = stat.rsplit_once(") ").map_or("", |(_, r)| r);
            let f: Vec<u64> = rest
                .split_whitespace()
                .map(|w| w.parse().unwrap_or(0))
                .collect();
            f.get(11).copied().unwrap_or(0) + f.get(12).copied().unwrap_or(0)
        })
        .sum()
}

/// The engine's CPU ticks over `ms`.
fn engine_busy(gui: &Gui, ms: u64) -> u64 {
    let before = engine_ticks(gui.pid());
    std::thread::sleep(Duration::from_millis(ms));
    engine_ticks(gui.pid()) - before
}

/// Checks every analysis mark on the page against the engine's legal
/// actions in the analysed position (and a kind's placement in the
/// position with that kind drawn). Returns how many marks were checked.
fn analysis_marks_are_legal(browser: &Browser, state: &Value, server_legal: &[String]) -> usize {
    let position = state["analysis"]["position"].as_str().unwrap().to_string();
    let legal = engine_legal(&position);
    for token in server_legal {
        assert!(
            legal.contains(token),
            "the view's {token} is not the engine's"
        );
    }
    let mut checked = 0;
    for mark in page_marks(browser) {
        let cls = mark["cls"].as_str().unwrap();
        let token = mark["token"].as_str().unwrap();
        if cls.contains("analysis") {
            assert!(
                legal.contains(&token.to_string()),
                "{token} not legal in {position}: {legal:?}"
            );
            let rank: u32 = mark["rank"].as_str().unwrap().parse().unwrap();
            assert!((1..=3).contains(&rank), "{mark}");
            checked += 1;
        } else if mark["source"] == "analysis" {
            let kind = mark["kind"].as_str().unwrap();
            let drawn = with_move(&position, &format!("{kind}@"));
            assert!(
                engine_legal(&drawn).contains(&token.to_string()),
                "{token} not legal after {kind}@ in {position}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn a_hint_and_the_analysis_are_legal_and_analysis_stops_when_off() {
    ensure_browser();
    let (gui, browser) = placed_game(4);

    // Hints until one says to draw: each is legal, and a draw's advice
    // places every kind legally in the position with that kind drawn.
    let mut saw_draw = false;
    for _ in 0..6 {
        let before = gui.state();
        browser.click("#hint-btn");
        let state = wait_state(&gui, 30, "the hint", |s| s["hint"]["status"] == "done");
        assert!(state["hint"]["message"].as_str().unwrap().is_empty());
        let best = state["hint"]["best"].as_str().unwrap().to_string();
        assert_eq!(legal(&state), legal(&before));
        assert!(
            legal(&state).contains(&best),
            "hint {best} is not legal: {state}"
        );
        page_caught_up(&browser, &gui);
        let shown = browser.text("#hint-advice");
        assert!(shown.starts_with("Hint:"), "{shown}");
        let marks = page_marks(&browser);
        if best == "@" {
            let position = state["analysis"]["position"].as_str().unwrap();
            let kinds = state["hint"]["kinds"].as_array().unwrap();
            let piles = &state["piles"][if state["side"] == "white" { 0 } else { 1 }];
            let total: u64 = piles
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p[1].as_u64().unwrap())
                .sum();
            assert_eq!(
                kinds.len(),
                piles
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|p| p[1].as_u64().unwrap() > 0)
                    .count()
            );
            for k in kinds {
                let kind = k["kind"].as_str().unwrap();
                let count = k["count"].as_u64().unwrap();
                assert!((k["chance"].as_f64().unwrap() - count as f64 / total as f64).abs() < 1e-9);
                let placement = k["best"].as_str().expect("a placement for every kind here");
                let drawn = with_move(position, &format!("{kind}@"));
                assert!(
                    engine_legal(&drawn).contains(&placement.to_string()),
                    "{placement} is not legal after {kind}@"
                );
                assert!(
                    marks
                        .iter()
                        .any(|m| m["source"] == "hint" && m["token"] == placement),
                    "{placement} not drawn: {marks:?}"
                );
                assert!(shown.contains(placement), "{shown}");
            }
            assert!(shown.contains("draw"), "{shown}");
            saw_draw = true;
            break;
        }
        assert!(
            marks
                .iter()
                .any(|m| m["source"] == "hint" && m["token"] == best.as_str()),
            "{best} not drawn: {marks:?}"
        );
        gui.ok("/api/move", &json!({ "token": best }).to_string());
        let state = gui.state();
        if state["pending"].is_string() {
            let placement = legal(&state)[0].clone();
            gui.ok("/api/move", &json!({ "token": placement }).to_string());
        }
    }
    assert!(saw_draw, "no hint said to draw in six turns");

    // Analysis on: marks legal in the position shown, the engine busy.
    browser.click("#analysis-on");
    let analysed = |browser: &Browser, gui: &Gui, legal_now: &dyn Fn(&Value) -> Vec<String>| {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let state = page_caught_up(browser, gui);
            let a = &state["analysis"];
            let drawn = page_marks(browser)
                .iter()
                .filter(|m| {
                    m["cls"].as_str().unwrap().contains("analysis") || m["source"] == "analysis"
                })
                .count();
            if a["on"] == true && !a["lines"].as_array().unwrap().is_empty() && drawn > 0 {
                let checked = analysis_marks_are_legal(browser, &state, &legal_now(&state));
                if checked > 0 {
                    return state;
                }
            }
            assert!(Instant::now() < end, "no analysis marks: {state}");
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    let state = analysed(&browser, &gui, &|s: &Value| legal(s));
    assert_eq!(state["study_job"], "analysis");
    let lines = state["analysis"]["lines"].as_array().unwrap();
    assert!(lines.len() <= 3);
    let wdl = state["analysis"]["white_wdl"].as_array().expect("a WDL");
    assert_eq!(
        wdl.iter().map(|v| v.as_u64().unwrap()).sum::<u64>() / 10,
        100
    );
    assert!(browser.text("#analysis-wdl").starts_with("White "));
    // It goes on searching: the reported nodes grow, and the engine
    // takes the CPU (an idle one takes none; the bound is low, for the
    // tests share two cores with each other).
    let nodes = |s: &Value| s["analysis"]["lines"][0]["nodes"].as_u64().unwrap_or(0);
    let first = nodes(&state);
    wait_state(&gui, 10, "the analysis to go on", |s| nodes(s) > first);
    let busy = engine_busy(&gui, 2000);
    assert!(
        busy >= 20,
        "the engine does not seem to analyse: {busy} ticks in 2 s"
    );

    // One decision back with the key: the table shows that position and
    // the analysis follows it.
    press(&browser, LEFT);
    let decisions = state["decisions"].as_u64().unwrap();
    let back = wait_state(&gui, 10, "the cursor one back", |s| {
        s["cursor"]["decision"].as_u64() == Some(decisions - 1)
            && s["analysis"]["position"] == s["cursor"]["position"]
    });
    let cursor_legal = |s: &Value| legal(&s["cursor"]);
    let state = analysed(&browser, &gui, &cursor_legal);
    assert_eq!(state["cursor"]["position"], back["cursor"]["position"]);
    let tiles = tiles_of(&state["cursor"]);
    assert_eq!(page_tiles(&browser), tiles, "the table at the cursor");
    // Nothing can be played on a past position.
    assert_eq!(
        browser
            .read("return document.querySelectorAll('#world .sq.legal, #world .sq.mine').length;"),
        json!(0)
    );

    let controls = [
        "#hint-btn",
        "#analysis-on",
        "#review-btn",
        "#cur-prev",
        "#draw",
        "#board",
    ];
    photograph_and_check(&browser, "analysis", (1280, 800), &controls, "#board");
    photograph_and_check(&browser, "analysis", (390, 844), &controls, "#board");

    // Off: the study job ends and the engine is idle.
    browser.click("#analysis-on");
    wait_state(&gui, 10, "the analysis off", |s| {
        s["analysis"]["on"] == false && s["study_job"].is_null()
    });
    std::thread::sleep(Duration::from_millis(300));
    let idle = engine_busy(&gui, 1500);
    assert!(idle <= 10, "the engine still works: {idle} ticks in 1.5 s");
    page_caught_up(&browser, &gui);
    assert!(page_marks(&browser)
        .iter()
        .all(|m| !m["cls"].as_str().unwrap().contains("analysis")));
}

/// A short `chex match` record: two engines at 50 playouts a turn.
fn match_record() -> String {
    let dir = std::env::temp_dir().join(format!("chex-gui-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("games.jsonl");
    let _ = std::fs::remove_file(&out);
    let status = Command::new(env!("CARGO_BIN_EXE_chex"))
        .args(["match", "--nodes", "50", "--games", "1", "--seed", "7"])
        .args(["--option1", "Threads=1", "--option2", "Threads=1"])
        .args(["--option1", "Seed=1", "--option2", "Seed=2"])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run chex match");
    assert!(status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    text.lines().next().expect("a record").to_string()
}

#[test]
fn a_review_of_a_match_record_marks_the_drops_and_the_cursor_steps() {
    ensure_browser();
    let record = match_record();
    let played: Value = serde_json::from_str(&record).unwrap();
    let gui = Gui::start(&["--seed", "1", "--movetime", "200"]);
    let browser = Browser::start();
    browser.resize(1280, 800);
    browser.go(&gui.url());
    browser.wait(
        "the page",
        "return document.body.dataset.version !== undefined;",
    );
    browser.type_into("#record", &record);
    browser.click("#load");
    let n_moves = played["moves"].as_array().unwrap().len();
    browser.wait(
        "the loaded game",
        &format!("return document.querySelectorAll('#moves .mv').length === {n_moves};"),
    );
    browser.type_into("#review-ms", "100");
    browser.click("#review-btn");
    let state = wait_state(&gui, 240, "the review", |s| s["review"]["status"] == "done");
    let review = &state["review"];
    let decisions = review["decisions"].as_array().unwrap();
    assert_eq!(decisions.len() as u64, state["decisions"].as_u64().unwrap());
    assert!(decisions.len() > n_moves, "a placement is two decisions");

    // Every decision's values are the engine's WDL, and its mark is the
    // one the drop earns: 0.05, 0.10, 0.15 on the 0..1 expected result.
    let expected = |v: &Value| {
        let wdl: Vec<f64> = v["wdl"]
            .as_array()
            .expect("a WDL")
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let e = (wdl[0] + wdl[1] / 2.0) / (wdl[0] + wdl[1] + wdl[2]);
        assert!((e - v["expected"].as_f64().unwrap()).abs() < 1e-3, "{v}");
        e
    };
    let mut marked = 0;
    for d in decisions {
        assert_eq!(d["searched"], true, "{d}");
        let before = expected(&d["before"]);
        let white = if d["side"] == "white" {
            before
        } else {
            1.0 - before
        };
        assert!((d["white"].as_f64().unwrap() - white).abs() < 1e-3, "{d}");
        if d["after"].is_null() {
            // Only a draw the search reported no line for has no value.
            assert_eq!(d["played"], "@", "{d}");
            assert!(d["mark"].is_null());
            continue;
        }
        let after = expected(&d["after"]);
        let drop = (before - after).max(0.0);
        assert!((d["drop"].as_f64().unwrap() - drop).abs() < 1e-3, "{d}");
        let drop = d["drop"].as_f64().unwrap();
        let mark = if drop >= 0.15 {
            json!("blunder")
        } else if drop >= 0.10 {
            json!("mistake")
        } else if drop >= 0.05 {
            json!("inaccuracy")
        } else {
            Value::Null
        };
        let near = [0.05, 0.10, 0.15].iter().any(|t| (drop - t).abs() < 1e-6);
        if !near {
            assert_eq!(d["mark"], mark, "{d}");
        }
        if !d["mark"].is_null() {
            marked += 1;
        }
        if d["played"] == d["best"] {
            // The best action played loses nothing.
            assert!(d["mark"].is_null() && drop < 1e-9, "{d}");
        }
    }
    // A placement is judged with its kind known: its own search, in the
    // position after `N@`, found a placement of that kind best.
    let mut draws = 0;
    for pair in decisions.windows(2) {
        if pair[0]["played"] == "@" {
            let kind = |d: &Value| {
                d.as_str()
                    .and_then(|t| t.split_once('@'))
                    .map(|(k, _)| k.to_string())
            };
            assert!(kind(&pair[1]["played"]).is_some(), "{}", pair[1]);
            assert_eq!(
                kind(&pair[1]["best"]),
                kind(&pair[1]["played"]),
                "{}",
                pair[1]
            );
            draws += 1;
        }
    }
    assert!(draws > 0);

    // The summary counts each side's marks, in words that agree with
    // the numbers ("1 blunder", "2 blunders").
    page_caught_up(&browser, &gui);
    let count = |side: &str, mark: &str, many: &str| {
        let n = decisions
            .iter()
            .filter(|d| d["side"] == side && d["mark"] == mark)
            .count();
        format!("{n} {}", if n == 1 { mark } else { many })
    };
    let summary = |side: &str, name: &str| {
        format!(
            "{name}: {}, {}, {}",
            count(side, "inaccuracy", "inaccuracies"),
            count(side, "mistake", "mistakes"),
            count(side, "blunder", "blunders")
        )
    };
    let shown = browser.read("return document.getElementById('review-progress').textContent;");
    assert_eq!(
        shown.as_str().unwrap_or_default(),
        format!(
            "{} · {}",
            summary("white", "White"),
            summary("black", "Black")
        )
    );

    // The graph: one point per decision, marks where the review put them.
    let points = browser.read(
        "return [...document.querySelectorAll('#graph circle[data-decision]')].map(c => [Number(c.dataset.decision), c.dataset.mark || null]);",
    );
    let points = points.as_array().unwrap();
    assert_eq!(points.len(), decisions.len());
    for (i, p) in points.iter().enumerate() {
        assert_eq!(p[0], json!(i));
        assert_eq!(p[1], decisions[i]["mark"]);
    }
    // The move list carries each move's worst mark.
    let list_marks = browser.read(
        "return [...document.querySelectorAll('#moves .mv')].map(m => m.dataset.mark || null);",
    );
    assert_eq!(list_marks, review["moves"]);
    eprintln!("review: {} decisions, {marked} marked", decisions.len());

    // A click on a point shows that decision's position, with the
    // better action drawn when it was not played.
    let k = decisions
        .iter()
        .position(|d| !d["mark"].is_null() && d["index"].as_u64().unwrap() > 0)
        .unwrap_or(decisions.len() / 2);
    browser.click_at(&format!("#graph circle[data-decision='{k}']"));
    let state = wait_state(&gui, 10, "the cursor on the point", |s| {
        s["cursor"]["decision"].as_u64() == Some(k as u64)
    });
    page_caught_up(&browser, &gui);
    let cursor = &state["cursor"];
    let tiles = tiles_of(cursor);
    assert_eq!(page_tiles(&browser), tiles, "the table at decision {k}");
    let d = &decisions[k];
    assert_eq!(cursor["played"], d["played"]);
    assert!(legal(cursor).contains(&d["played"].as_str().unwrap().to_string()));
    let marks = page_marks(&browser);
    if d["best"] != d["played"] && !d["best_squares"][1].is_null() {
        assert!(
            marks
                .iter()
                .any(|m| m["cls"].as_str().unwrap().contains("best") && m["token"] == d["best"]),
            "the better action {} is not drawn: {marks:?}",
            d["best"]
        );
        assert!(legal(cursor).contains(&d["best"].as_str().unwrap().to_string()));
    }
    // The detail names what was played: a step by its token, a draw in
    // words.
    let action = d["played"].as_str().unwrap();
    let detail = browser.text("#review-detail");
    if action == "@" {
        assert!(detail.contains("drew a tile"), "{detail}");
    } else {
        assert!(detail.contains(action), "{detail}");
    }

    // The keys step the cursor.
    let at = |gui: &Gui, want: Option<u64>, what: &str| {
        wait_state(gui, 10, what, |s| s["cursor"]["decision"].as_u64() == want);
    };
    press(&browser, RIGHT);
    at(&gui, Some(k as u64 + 1), "→");
    press(&browser, LEFT);
    press(&browser, LEFT);
    at(&gui, Some(k as u64 - 1), "← ←");
    press(&browser, HOME);
    at(&gui, Some(0), "Home");
    page_caught_up(&browser, &gui);
    assert!(
        page_tiles(&browser).is_empty(),
        "the start has an empty table"
    );
    press(&browser, END);
    at(&gui, None, "End");
    // A move of the list shows where it was played.
    browser.click("#moves .mv[data-ply='3']");
    let state = wait_state(&gui, 10, "the third move", |s| s["cursor"]["ply"] == 2);
    // Where a placement was played, its draw came first.
    let third = played["moves"][2].as_str().unwrap();
    let first_answer = if third.contains('@') { "@" } else { third };
    assert_eq!(state["cursor"]["played"], first_answer);
    assert!(state["cursor"]["pending"].is_null());

    browser.click_at(&format!("#graph circle[data-decision='{k}']"));
    at(&gui, Some(k as u64), "the marked point again");
    let controls = [
        "#review-btn",
        "#graph svg",
        "#cur-next",
        "#cur-prev",
        "#board",
    ];
    photograph_and_check(&browser, "review", (1280, 800), &controls, "#board");
    photograph_and_check(&browser, "review", (390, 844), &controls, "#study-panel");
}

/// Issue 55: nothing is played while the table shows an earlier decision.
/// Looking back, the Draw button is off and a click on it draws nothing;
/// with a tile drawn and the table looking back, the prompt says to go
/// back to the game (no square is highlighted there, as it would claim),
/// and its button brings the game back with the squares to place on.
#[test]
fn nothing_is_played_while_looking_back() {
    ensure_browser();
    let (gui, browser) = placed_game(2);
    browser.click("#cur-prev");
    wait_state(&gui, 10, "the cursor", |s| !s["cursor"].is_null());
    page_caught_up(&browser, &gui);
    assert_eq!(
        browser.read("return document.querySelector('#draw').disabled;"),
        true
    );
    browser.click("#draw");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(moves(&gui.state()).len(), 2);

    // Back to the game, a tile drawn, then a look back.
    browser.click("#cur-end");
    wait_state(&gui, 10, "the game", |s| s["cursor"].is_null());
    page_caught_up(&browser, &gui);
    browser.click("#draw");
    let state = wait_state(&gui, 10, "the draw", |s| s["pending"].is_string());
    press(&browser, LEFT);
    wait_state(&gui, 10, "the cursor", |s| !s["cursor"].is_null());
    page_caught_up(&browser, &gui);
    assert!(browser.find_all("#world .sq.legal").is_empty());
    let prompt = browser.text("#hint");
    assert!(!prompt.contains("highlighted"), "{prompt}");
    assert!(prompt.contains("Back to the game"), "{prompt}");
    browser.click("#hint .back-to-game");
    wait_state(&gui, 10, "the game", |s| s["cursor"].is_null());
    browser.wait(
        "the squares to place on",
        &format!(
            "return document.querySelectorAll('#world .sq.legal').length === {};",
            legal(&state).len()
        ),
    );
    assert!(browser.text("#hint").contains("highlighted"));
}

/// Draws the page's view as it is with `overrides` put over it (fields of
/// the view: a hint, an analysis, a review), as if the server had sent
/// it; later views from the server are ignored until `resume`.
fn show_with(browser: &Browser, overrides: &Value) {
    browser.read(&format!(
        "chex.render(Object.assign({{}}, chex.view, {overrides}, {{ version: 1e9 }})); return true;"
    ));
}

/// Lets the page take the server's views again, and forgets the version
/// drawn, so that [`page_caught_up`] waits for the server's next view.
fn resume(browser: &Browser) {
    browser.read("chex.view.version = -1; document.body.dataset.version = -1; return true;");
}

/// The labels over the table: (square, text, box).
fn mark_labels(browser: &Browser) -> Vec<Value> {
    browser
        .read(
            "return [...document.querySelectorAll('#study-marks text')].map(t => {
               const r = t.getBoundingClientRect();
               return { sq: t.dataset.sq, text: t.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom };
             });",
        )
        .as_array()
        .expect("a list")
        .clone()
}

/// Issue 55: marks that hid each other, and numbers that disagreed. A
/// hint to draw whose rook and pawn go on one square shows both letters;
/// with the analysis on, the old hint's marks go, the draw's rank is on
/// the table with its kinds, and no label covers another. The review
/// says "draw a tile", not "@", and names a decision as the move list
/// does, as the graph's tooltip and the cursor do; the tooltip gives the
/// value before the move and after it.
#[test]
fn marks_do_not_hide_each_other_and_numbers_agree() {
    ensure_browser();
    let (gui, browser) = placed_game(3);
    let state = gui.state();
    let tokens = moves(&state);
    let kind = |k: &str, sq: [i32; 2]| {
        json!({"kind": k, "count": 2, "chance": 0.25, "best": format!("{k}@{},{}", sq[0], sq[1]),
               "to": sq, "value": 0.5, "searched": true})
    };
    let side = state["side"].as_str().unwrap();
    let (r, p, b, n) = if side == "white" {
        ("R", "P", "B", "N")
    } else {
        ("r", "p", "b", "n")
    };
    let hint = json!({"side": side, "status": "done", "message": "", "best": "@",
        "squares": [null, null], "value": 0.5,
        "kinds": [kind(r, [0, 1]), kind(p, [0, 1]), kind(b, [1, -2]), kind(n, [1, -2])]});
    show_with(&browser, &json!({ "hint": hint }));
    let labels = mark_labels(&browser);
    for (sq, a, b) in [("0,1", "R", "P"), ("1,-2", "B", "N")] {
        let text = labels
            .iter()
            .find(|l| l["sq"] == sq)
            .unwrap_or_else(|| panic!("no label on {sq}: {labels:?}"))["text"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(text.contains(a) && text.contains(b), "{sq}: {text:?}");
    }

    let line = |rank: u32, token: &str, squares: Value| {
        json!({"rank": rank, "token": token, "squares": squares, "value": 0.5, "wdl": null,
               "score": null, "nodes": 100, "pv": ""})
    };
    let analysis = json!({"on": true, "position": "position startpos", "side": side,
        "over": false, "white": 0.5, "white_wdl": null, "message": "",
        "lines": [line(1, "@", json!([null, null])), line(2, "0,0-0,1", json!([[0, 0], [0, 1]])),
                  line(3, "0,0-1,-2", json!([[0, 0], [1, -2]]))],
        "kinds": [kind(r, [0, 1]), kind(b, [1, -2])]});
    show_with(&browser, &json!({ "hint": hint, "analysis": analysis }));
    let marks = page_marks(&browser);
    assert!(
        !marks.iter().any(|m| m["source"] == "hint"),
        "the old hint is still drawn: {marks:?}"
    );
    assert!(
        marks
            .iter()
            .any(|m| m["source"] == "analysis" && m["rank"] == "1"),
        "the draw has no rank on the table: {marks:?}"
    );
    let labels = mark_labels(&browser);
    assert!(
        labels
            .iter()
            .any(|l| l["text"].as_str().unwrap().contains("1:")),
        "{labels:?}"
    );
    let num = |l: &Value, k: &str| l[k].as_f64().unwrap();
    for (i, one) in labels.iter().enumerate() {
        for other in &labels[i + 1..] {
            let apart = num(one, "r") <= num(other, "l")
                || num(other, "r") <= num(one, "l")
                || num(one, "b") <= num(other, "t")
                || num(other, "b") <= num(one, "t");
            assert!(apart, "{one} covers {other}");
        }
    }
    let shot = super::screenshot_dir().join("chex-gui-marks-1280x800.png");
    browser.screenshot(&shot);
    eprintln!("screenshot: {}", shot.display());

    // The review of the game, the cursor before its fourth decision
    // (Black's placement, the second move of the list's first row).
    resume(&browser);
    gui.ok("/api/cursor", r#"{"decision":3}"#);
    page_caught_up(&browser, &gui);
    let mut decisions = Vec::new();
    for (ply, token) in tokens.iter().enumerate() {
        for played in ["@", token.as_str()] {
            let index = decisions.len();
            let white = if ply % 2 == 0 { "white" } else { "black" };
            decisions.push(
                json!({"index": index, "ply": ply, "side": white, "played": played,
                "best": "@", "before": {"expected": 0.6}, "after": {"expected": 0.4},
                "drop": 0.2, "mark": "mistake", "white": 0.5, "searched": true,
                "played_squares": [null, null], "best_squares": [null, null]}),
            );
        }
    }
    let review = json!({"status": "done", "done": decisions.len(), "message": "",
        "decisions": decisions, "moves": []});
    show_with(&browser, &json!({ "review": review }));
    let label = format!("1. … {}", tokens[1]);
    let detail = browser.text("#review-detail");
    assert!(detail.contains("better draw a tile"), "{detail}");
    assert!(detail.contains(&label), "{detail}");
    let cursor = browser.text("#cursor-text");
    assert!(cursor.contains(&label), "{cursor}");
    assert!(cursor.contains("decision 4 of 6"), "{cursor}");
    let row = browser.read("return document.querySelector('#moves li').textContent;");
    assert!(row.as_str().unwrap().contains(&tokens[1]), "{row}");
    let tip = browser.read(
        "return document.querySelector('#graph circle[data-decision=\"3\"] title').textContent;",
    );
    let tip = tip.as_str().unwrap();
    assert!(tip.starts_with(&label), "{tip}");
    // Black's action was worth 40% to Black: White 60% after it.
    assert!(
        tip.contains("50.0% before") && tip.contains("60.0% after"),
        "{tip}"
    );
}

/// Issue 55's smaller things that made the page look wrong: long moves
/// in the move list stay in their column and its last row is not cut
/// off; on a phone the "You drew" notice leaves the zoom and centre
/// buttons uncovered.
#[test]
fn the_move_list_and_the_drawn_notice_fit() {
    ensure_browser();
    let (gui, browser) = placed_game(3);
    let long: Vec<String> = (0..30)
        .map(|i| format!("-{},-5--{},-4", 3 + i % 7, 3 + i % 7))
        .collect();
    // Each marked a blunder by a review, which adds its "??".
    let review = json!({"status": "done", "done": 0, "message": "", "decisions": [],
        "moves": vec!["blunder"; long.len()]});
    show_with(&browser, &json!({ "moves": long, "review": review }));
    let fit = browser.read(
        "const list = document.querySelector('#moves');
         const rows = [...list.querySelectorAll('li')];
         const bad = [];
         const column = rows[0].querySelectorAll('.mv')[1].getBoundingClientRect().left;
         for (const li of rows) {
           const [a, b] = [...li.querySelectorAll('.mv')].map(m => m.getBoundingClientRect());
           if (b && (a.right + 4 > b.left || Math.abs(b.left - column) > 0.5 || b.top !== a.top))
             bad.push(li.textContent);
         }
         const last = rows[rows.length - 1].getBoundingClientRect();
         return { bad, last: last.bottom, list: list.getBoundingClientRect().bottom };",
    );
    assert_eq!(fit["bad"], json!([]), "{fit}");
    assert!(
        fit["last"].as_f64().unwrap() <= fit["list"].as_f64().unwrap() + 0.5,
        "the last row is cut off: {fit}"
    );
    resume(&browser);

    // A drawn tile on a phone.
    browser.resize(390, 844);
    gui.ok("/api/move", r#"{"token":"@"}"#);
    browser.wait(
        "the drawn tile",
        "return !document.querySelector('#drawn').classList.contains('hidden');",
    );
    let covered = browser.read(
        "const d = document.querySelector('#drawn').getBoundingClientRect();
         return ['#zoom-in', '#zoom-out', '#centre'].filter(s => {
           const r = document.querySelector(s).getBoundingClientRect();
           return !(r.right <= d.left || d.right <= r.left || r.bottom <= d.top || d.bottom <= r.top);
         });",
    );
    assert_eq!(covered, json!([]), "the notice covers them");
    let shot = super::screenshot_dir().join("chex-gui-drawn-390x844.png");
    browser.screenshot(&shot);
    eprintln!("screenshot: {}", shot.display());
}

/// Issue 55: the page says why nothing happens. Take back is off once
/// the game is over (a checkmate); a click on one of the person's tiles
/// that has no move says so; below full strength the engine panel says
/// the move played may differ from its line (pv) on purpose.
#[test]
fn the_page_says_why_nothing_happens() {
    ensure_browser();
    let (gui, browser) = placed_game(3);
    let state = gui.state();
    assert_eq!(
        browser.read("return document.querySelector('#takeback').disabled;"),
        false
    );
    show_with(
        &browser,
        &json!({"result": "1-0", "reason": "checkmate, White wins", "human_turn": false, "legal": []}),
    );
    assert_eq!(
        browser.read("return document.querySelector('#takeback').disabled;"),
        true
    );

    // Black to move, with no legal move for its tiles: a click on one
    // says so.
    let ours = |t: &Value| {
        let p = t["piece"].as_str().unwrap();
        (state["side"] == "white") == (p.to_uppercase() == p)
    };
    let tile = state["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| ours(t))
        .expect("a tile of the side to move")
        .clone();
    let sq = format!("{},{}", tile["x"], tile["y"]);
    show_with(&browser, &json!({"legal": ["@"], "human_turn": true}));
    browser.click(&format!("#world .sq[data-sq='{sq}']"));
    browser.wait(
        "the word",
        &format!(
            "return document.querySelector('#hint').textContent.includes('{sq} has no legal move');"
        ),
    );

    show_with(&browser, &json!({"level": 1}));
    let note = browser.text("#level-note");
    assert!(note.contains("level 1"), "{note}");
    show_with(&browser, &json!({"level": 6}));
    assert!(browser.find_all("#level-note:not(.hidden)").is_empty());
}

/// Issue 56, "What about this move?", clicked as a person would: with
/// the analysis on, the list offers every legal action of the position
/// shown; choosing one the analysis does not rank and pressing the
/// button shows that move's value and line beside the engine's best,
/// with the difference in words (the server's verdict), and marks the
/// move on the table in its own colour. Screenshots at 1280×800 and
/// 390×844.
#[test]
fn what_about_this_move_shows_the_move_beside_the_best() {
    ensure_browser();
    let (gui, browser) = placed_game(4);
    browser.click("#analysis-on");
    let state = wait_state(&gui, 60, "the analysis", |s| {
        !s["analysis"]["lines"].as_array().unwrap().is_empty()
    });
    assert!(
        legal(&state).len() > 3,
        "too few actions to ask about: {state}"
    );
    page_caught_up(&browser, &gui);
    let offered = browser
        .read("return [...document.querySelectorAll('#probe-move option')].map(o => o.value);");
    assert_eq!(
        offered,
        json!(legal(&state)),
        "the list is not the legal actions"
    );
    let ranked: Vec<&str> = state["analysis"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["token"].as_str().unwrap())
        .collect();
    // A tile's step, so that the table shows an arrow for it.
    let asked = legal(&state)
        .into_iter()
        .filter(|t| !ranked.contains(&t.as_str()))
        .max_by_key(|t| !t.contains('@'))
        .expect("an action the analysis does not rank");
    browser.click(&format!("#probe-move option[value=\"{asked}\"]"));
    browser.click("#probe-btn");
    // A second's search, but the whole suite shares two cores with its
    // browsers: once it took over 30 s to come under a load of 18.
    let state = wait_state(&gui, 60, "the verdict", |s| {
        s["analysis"]["probe"]["status"] == "done" && s["analysis"]["probe"]["verdict"].is_string()
    });
    page_caught_up(&browser, &gui);
    let probe = &state["analysis"]["probe"];
    assert_eq!(probe["token"], asked.as_str());
    let verdict = probe["verdict"].as_str().unwrap();
    let shown = browser.text("#probe-result");
    assert!(shown.contains(verdict), "{shown:?} lacks {verdict:?}");
    let word = |t: &str| {
        if t == "@" {
            "draw a tile".to_string()
        } else {
            t.to_string()
        }
    };
    assert!(
        shown.contains(&format!("this move: {}", word(&asked))),
        "{shown:?}"
    );
    let best = probe["best"]["token"].as_str().unwrap();
    assert!(
        shown.contains(&format!("best: {}", word(best))),
        "{shown:?}"
    );
    // Each line's value as the server gave it, for the side to move.
    for line in [&probe["line"], &probe["best"]] {
        let pct = format!("{:.1}%", 100.0 * line["value"].as_f64().unwrap());
        assert!(shown.contains(&pct), "{shown:?} lacks {pct}");
    }
    assert!(
        page_marks(&browser)
            .iter()
            .any(|m| m["source"] == "probe" && m["token"] == asked.as_str()),
        "the move asked about is not on the table"
    );
    let controls = ["#analysis-on", "#probe-move", "#probe-btn", "#board"];
    photograph_and_check(&browser, "probe", (1280, 800), &controls, "#board");
    photograph_and_check(&browser, "probe", (390, 844), &controls, "#analysis");
}
