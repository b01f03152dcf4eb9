//! `chex gui` end to end in a real headless browser (Debian's chromium,
//! driven through chromedriver's WebDriver HTTP API): an opening played by
//! clicks on the page — draws, placements, a tile move, a capture — then
//! the table, piles and move list the page shows are checked against the
//! engine's `d` for the same moves. The game is then saved, loaded into a
//! game against the engine, and the page is photographed while the engine
//! thinks. The screenshot's path is printed.
//!
//! The test installs chromium and chromium-driver with apt-get when they
//! are missing, so the README's test command runs it on a fresh machine.

mod gui_common;
#[path = "gui_browser/play.rs"]
mod play;
#[path = "gui_browser/study.rs"]
mod study;

use base64::Engine as _;
use gui_common::{http, legal, moves, try_http, Gui};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Installs Debian's chromium and chromium-driver when they are missing,
/// or fails saying how to. The tests of this file run in parallel: one
/// installs while the others wait, for a second apt-get would fail on
/// dpkg's lock.
fn ensure_browser() {
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    let present = || Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if present() {
        return;
    }
    eprintln!("chromium or chromedriver is missing: installing them with apt-get");
    let run = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    let installed = run(&["update"]) && run(&["install", "-y", "chromium", "chromium-driver"]);
    assert!(
        installed && present(),
        "the browser test needs {CHROMIUM} and {CHROMEDRIVER}, and \
         `apt-get update && apt-get install -y chromium chromium-driver` failed \
         (it must run as root on Debian); install them and run the tests again"
    );
}

/// A chromedriver process and one browser session on it.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let path = format!("/session/{}", self.session);
        let _ = try_http(&self.addr, "DELETE", &path, b"");
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("its address").port()
}

impl Browser {
    fn start() -> Browser {
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = format!("127.0.0.1:{port}");
        let end = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < end, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
        };
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1400,900",
                         "--hide-scrollbars"]
            }
        }}});
        let answer = browser.call("POST", "/session", Some(caps));
        browser.session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        browser
    }

    /// One WebDriver command; returns its `value`, failing on an error.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let answer = http(&self.addr, method, path, body.as_bytes());
        let value: Value = serde_json::from_str(&answer.body)
            .unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {}", answer.body));
        assert_eq!(answer.status, 200, "{method} {path}: {value}");
        value["value"].clone()
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn go(&self, url: &str) {
        self.session("POST", "/url", Some(json!({ "url": url })));
    }

    /// The elements that match a CSS selector now.
    fn find_all(&self, css: &str) -> Vec<String> {
        let found = self.session(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        found
            .as_array()
            .expect("a list")
            .iter()
            .map(|e| {
                e[ELEMENT]
                    .as_str()
                    .unwrap_or_else(|| panic!("not an element: {e}"))
                    .to_string()
            })
            .collect()
    }

    /// The one element for a selector, waiting a little for it to appear.
    fn find(&self, css: &str) -> String {
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(e) = self.find_all(css).into_iter().next() {
                return e;
            }
            assert!(Instant::now() < end, "no element '{css}' on the page");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// A real click, as a person's: WebDriver moves the pointer to the
    /// element's middle and presses there.
    fn click(&self, css: &str) {
        // The page may redraw between finding and clicking: find again.
        for _ in 0..5 {
            let element = self.find(css);
            let path = format!("/session/{}/element/{element}/click", self.session);
            let answer = http(&self.addr, "POST", &path, b"{}");
            if answer.status == 200 {
                return;
            }
            assert!(
                answer.body.contains("stale element reference"),
                "click on '{css}': {}",
                answer.body
            );
        }
        panic!("'{css}' went stale five times in a row");
    }

    /// A click where the pointer is, at the middle of the element for
    /// `css`, whatever lies on top there: as a person clicks a point of a
    /// graph whose neighbours overlap it.
    fn click_at(&self, css: &str) {
        // By coordinates: the page may redraw the element between finding
        // it and clicking, and what is under the pointer then is the same.
        self.find(css);
        let middle = self.read(&format!(
            "const r = document.querySelector({}).getBoundingClientRect();
             if (r.top < 0 || r.bottom > window.innerHeight) {{
               document.querySelector({0}).scrollIntoView({{ block: 'center' }});
             }}
             const s = document.querySelector({0}).getBoundingClientRect();
             return [Math.round(s.left + s.width / 2), Math.round(s.top + s.height / 2)];",
            json!(css)
        ));
        self.session(
            "POST",
            "/actions",
            Some(
                json!({"actions": [{"type": "pointer", "id": "mouse", "actions": [
                {"type": "pointerMove", "origin": "viewport", "x": middle[0], "y": middle[1]},
                {"type": "pointerDown", "button": 0},
                {"type": "pointerUp", "button": 0}]}]}),
            ),
        );
        self.session("DELETE", "/actions", None);
    }

    /// Sets the window to `width`×`height` pixels.
    fn resize(&self, width: u32, height: u32) {
        self.session(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    fn type_into(&self, css: &str, text: &str) {
        let element = self.find(css);
        self.session(
            "POST",
            &format!("/element/{element}/clear"),
            Some(json!({})),
        );
        self.session(
            "POST",
            &format!("/element/{element}/value"),
            Some(json!({ "text": text })),
        );
    }

    fn text(&self, css: &str) -> String {
        let element = self.find(css);
        let text = self.session("GET", &format!("/element/{element}/text"), None);
        text.as_str().unwrap_or_default().to_string()
    }

    /// Runs a script that reads the page (it changes nothing).
    fn read(&self, script: &str) -> Value {
        self.session(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until `script` returns true.
    fn wait(&self, what: &str, script: &str) {
        let end = Instant::now() + Duration::from_secs(20);
        while self.read(script) != Value::Bool(true) {
            assert!(Instant::now() < end, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    fn screenshot(&self, path: &Path) {
        let data = self.session("GET", "/screenshot", None);
        let png = base64::engine::general_purpose::STANDARD
            .decode(data.as_str().expect("base64"))
            .expect("a PNG in base64");
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        std::fs::write(path, png).expect("write the screenshot");
    }
}

/// The tiles the page shows: square → letter.
fn page_tiles(browser: &Browser) -> BTreeMap<String, String> {
    let tiles = browser.read(
        "return [...document.querySelectorAll('#world .sq')].filter(s => s.querySelector('.tile'))\
         .map(s => [s.dataset.sq, s.querySelector('.tile').dataset.piece]);",
    );
    tiles
        .as_array()
        .expect("a list")
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect()
}

/// The move list the page shows.
fn page_moves(browser: &Browser) -> Vec<String> {
    let list = browser
        .read("return [...document.querySelectorAll('#moves .mv')].map(m => m.textContent);");
    list.as_array()
        .expect("a list")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// The pile counts the page shows: letter → count.
fn page_piles(browser: &Browser) -> BTreeMap<String, u64> {
    let list = browser.read(
        "return [...document.querySelectorAll('#piles .k')].map(k => [k.dataset.kind, Number(k.dataset.count)]);",
    );
    list.as_array()
        .expect("a list")
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_u64().unwrap()))
        .collect()
}

/// The engine's `d` for a move list: the position line's tiles and piles.
fn engine_d(tokens: &[String]) -> (BTreeMap<String, String>, BTreeMap<String, u64>, String) {
    engine_d_of(&format!("position startpos moves {}", tokens.join(" ")))
}

/// What the engine binary prints for `script` (lines of protocol.md),
/// then `quit`: the tests check the page against the engine itself, not
/// against the server's referee.
fn engine_says(script: &str) -> String {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_chex"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let mut input = engine.stdin.take().expect("stdin");
    writeln!(input, "{script}\nquit").unwrap();
    drop(input);
    let out = engine.wait_with_output().expect("the engine's output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The tiles of a view (or of its cursor), by square: what the table
/// should show.
fn tiles_of(view: &Value) -> BTreeMap<String, String> {
    view["tiles"]
        .as_array()
        .unwrap_or_else(|| panic!("no tiles in {view}"))
        .iter()
        .map(|t| {
            (
                format!("{},{}", t["x"], t["y"]),
                t["piece"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Resizes the window to `width`×`height`, checks that the page does not
/// scroll sideways and that each of `controls` can be scrolled to, lies
/// inside the window's width and is the topmost element at its middle (so
/// that a click lands on it), then scrolls `show` into view and saves the
/// screenshot chex-gui-`name`-`width`x`height`.png.
fn photograph_and_check(
    browser: &Browser,
    name: &str,
    (width, height): (u32, u32),
    controls: &[&str],
    show: &str,
) {
    browser.resize(width, height);
    // Let the page refit the table to the new size.
    browser.wait(
        "the new size",
        &format!("return window.innerWidth <= {width};"),
    );
    std::thread::sleep(Duration::from_millis(300));
    let script = format!(
        "const out = {{ inner: window.innerWidth, page: document.documentElement.scrollWidth,
                       body: document.body.scrollWidth, bad: [] }};
         for (const s of {controls}) {{
           const e = document.querySelector(s);
           if (!e) {{ out.bad.push(s + ': missing'); continue; }}
           e.scrollIntoView({{ block: 'center', inline: 'nearest' }});
           const r = e.getBoundingClientRect();
           if (r.width === 0 || r.height === 0) {{ out.bad.push(s + ': not shown'); continue; }}
           if (r.left < 0 || r.right > window.innerWidth + 0.5) out.bad.push(s + ': outside the width');
           const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
           if (!hit || !(hit === e || e.contains(hit)))
             out.bad.push(s + ': covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing'));
         }}
         window.scrollTo(0, 0);
         document.querySelector({show}).scrollIntoView({{ block: 'start' }});
         return out;",
        controls = json!(controls),
        show = json!(show)
    );
    let fit = browser.read(&script);
    let inner = fit["inner"].as_f64().unwrap();
    assert!(
        fit["page"].as_f64().unwrap() <= inner && fit["body"].as_f64().unwrap() <= inner,
        "{name} at {width}×{height} scrolls sideways: {fit}"
    );
    assert_eq!(fit["bad"], json!([]), "{name} at {width}×{height}: {fit}");
    let path = screenshot_dir().join(format!("chex-gui-{name}-{width}x{height}.png"));
    browser.screenshot(&path);
    eprintln!("screenshot: {}", path.display());
}

/// The engine's `d` after a `position` command: the position line's
/// tiles, piles and side to move.
fn engine_d_of(position: &str) -> (BTreeMap<String, String>, BTreeMap<String, u64>, String) {
    let out = engine_says(&format!("{position}\nd"));
    assert!(
        !out.contains("error"),
        "the engine refused the moves: {out}"
    );
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("Position: "))
        .unwrap_or_else(|| panic!("no Position line in d: {out}"));
    let fields: Vec<&str> = line.split(' ').collect();
    let tiles = fields[0]
        .split('/')
        .map(|t| {
            let t = t.trim_end_matches('*');
            (t[1..].to_string(), t[..1].to_string())
        })
        .collect();
    let mut piles: BTreeMap<String, u64> =
        "KQRBNPkqrbnp".chars().map(|c| (c.to_string(), 0)).collect();
    for c in fields[2].chars().filter(|&c| c != '/' && c != '-') {
        *piles.entry(c.to_string()).or_default() += 1;
    }
    (tiles, piles, fields[1].to_string())
}

/// Plays `n` turns in a two-person game: each a draw and the first legal
/// placement.
fn place_turns(gui: &Gui, n: usize) {
    for _ in 0..n {
        let state = gui.ok("/api/move", r#"{"token":"@"}"#);
        let placement = legal(&state)[0].clone();
        gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    }
}

/// Waits until the page shows `n` moves (a drawn tile counts as one).
fn wait_moves(browser: &Browser, n: usize) {
    browser.wait(
        &format!("{n} moves on the page"),
        &format!("return document.querySelectorAll('#moves .mv').length === {n};"),
    );
}

/// A piece move's two squares: the separator is the first '-' after a
/// digit (RULES.md section 7).
fn split_step(token: &str) -> Option<(String, String)> {
    let bytes = token.as_bytes();
    let cut = (1..bytes.len()).find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())?;
    Some((token[..cut].to_string(), token[cut + 1..].to_string()))
}

/// The square a token ends on.
fn destination(token: &str) -> String {
    match token.split_once('@') {
        Some((_, square)) => square.to_string(),
        None => split_step(token).expect("a piece move").1,
    }
}

/// The square a piece move starts on.
fn origin(token: &str) -> String {
    split_step(token).expect("a piece move").0
}

fn screenshot_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chex-gui-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn a_person_plays_an_opening_by_clicks_and_the_page_matches_the_engine() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "1", "--movetime", "1500"]);
    let browser = Browser::start();
    browser.go(&gui.url());
    browser.wait(
        "the page",
        "return document.body.dataset.version !== undefined;",
    );

    // Two people on one page, seed 17, chosen in the page's controls.
    browser.click("#mode option[value=two]");
    browser.type_into("#seed", "17");
    browser.click("#new");
    browser.wait(
        "the new game",
        "return document.querySelector('#gameinfo').textContent.startsWith('seed 17 ');",
    );
    assert_eq!(browser.text("#turn #side"), "White to move");

    // The opening: draw and place (next to the most enemy tiles), one
    // quiet tile move, then the first capture on offer.
    let mut played: Vec<String> = Vec::new();
    let (mut moved, mut captured) = (false, false);
    for ply in 0..40 {
        if captured {
            break;
        }
        let state = gui.state();
        let tiles = tiles_of(&state);
        let ours = |p: &str| (state["side"] == "white") == (p.to_uppercase() == p);
        let steps: Vec<String> = legal(&state).into_iter().filter(|t| t != "@").collect();
        let capture = steps.iter().find(|t| tiles.contains_key(&destination(t)));
        let quiet = steps.iter().find(|t| !tiles.contains_key(&destination(t)));
        let token = if let (Some(t), true) = (capture, ply >= 10) {
            captured = true;
            t.clone()
        } else if let (Some(t), true, false) = (quiet, ply >= 6, moved) {
            moved = true;
            t.clone()
        } else {
            // Draw: the Draw button, then a green square.
            browser.click("#draw");
            wait_moves(&browser, played.len() + 1);
            let state = gui.state();
            let drawn = state["pending"].as_str().expect("a drawn tile").to_string();
            // The page may draw the move list before the drawn tile and
            // its squares: wait for them, as a person would.
            browser.wait(
                "the drawn tile shown",
                "return !document.querySelector('#drawn').classList.contains('hidden');",
            );
            let placements = legal(&state);
            browser.wait(
                &format!("every one of the {} legal squares shown", placements.len()),
                &format!(
                    "return document.querySelectorAll('#world .sq.legal').length === {};",
                    placements.len()
                ),
            );
            if ply == 2 {
                // A click on a square that is not legal changes nothing.
                let taken = tiles.keys().next().unwrap();
                browser.click(&format!("#world .sq[data-sq='{taken}']"));
                std::thread::sleep(Duration::from_millis(200));
                assert_eq!(moves(&gui.state()).len(), played.len() + 1);
                assert_eq!(gui.state()["pending"], drawn.as_str());
            }
            let enemies = |sq: &str| {
                let (x, y) = sq.split_once(',').unwrap();
                let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
                tiles
                    .iter()
                    .filter(|(s, p)| {
                        let (a, b) = s.split_once(',').unwrap();
                        let (a, b): (i64, i64) = (a.parse().unwrap(), b.parse().unwrap());
                        !ours(p) && (a - x).abs() <= 1 && (b - y).abs() <= 1
                    })
                    .count()
            };
            let best = placements
                .iter()
                .max_by_key(|t| enemies(&destination(t)))
                .unwrap()
                .clone();
            browser.click(&format!(
                "#world .sq.legal[data-sq='{}']",
                destination(&best)
            ));
            played.push(best);
            wait_moves(&browser, played.len());
            continue;
        };
        // A tile move: click the tile, then its green destination.
        browser.click(&format!("#world .sq.mine[data-sq='{}']", origin(&token)));
        browser.find(&format!(
            "#world .sq.selected[data-sq='{}']",
            origin(&token)
        ));
        let css = format!("#world .sq.legal[data-sq='{}']", destination(&token));
        if captured {
            browser.find(&format!("{css}.capture"));
        }
        browser.click(&css);
        played.push(token);
        wait_moves(&browser, played.len());
    }
    assert!(moved && captured, "no capture in 40 plies: {played:?}");
    assert!(played.iter().filter(|t| t.contains('@')).count() >= 4);

    // The page against the engine's `d` for the same moves.
    let shown = page_moves(&browser);
    assert_eq!(shown, played, "the move list");
    assert_eq!(moves(&gui.state()), played);
    let (tiles, piles, side) = engine_d(&shown);
    assert_eq!(page_tiles(&browser), tiles, "the table");
    assert_eq!(page_piles(&browser), piles, "the piles");
    let side_word = if side == "w" { "White" } else { "Black" };
    assert!(browser
        .text("#turn #side")
        .starts_with(&format!("{side_word} to move")));
    let last = played.last().unwrap();
    browser.find(&format!(
        "#world .sq.last-to[data-sq='{}']",
        destination(last)
    ));
    browser.find(&format!("#world .sq.last-from[data-sq='{}']", origin(last)));

    // Save the game, start a game against the engine on the side to move,
    // and load the saved game into it: the engine thinks at once.
    browser.click("#save");
    browser.wait(
        "the saved record",
        "return document.querySelector('#record').value.includes('\"moves\"');",
    );
    let person = if side == "w" { "black" } else { "white" };
    browser.click(&format!("#mode option[value={person}]"));
    browser.click("#new");
    let you = format!("You play {}", if side == "w" { "Black" } else { "White" });
    browser.wait(
        "the game against the engine",
        &format!("return document.querySelector('#turn').textContent.includes('{you}');"),
    );
    browser.click("#load");
    wait_moves(&browser, played.len());
    assert_eq!(page_moves(&browser), played, "the loaded game");
    browser.wait(
        "live engine info",
        "return document.querySelector('#engine-status').textContent.startsWith('thinking') \
         && document.querySelector('#wdl-text').textContent.startsWith('White wins') \
         && document.querySelector('#nps').textContent !== '–';",
    );
    let dir = screenshot_dir();
    let path = dir.join("chex-gui-mid-game.png");
    browser.screenshot(&path);
    println!("screenshot: {}", path.display());
    eprintln!("screenshot: {}", path.display());

    // The engine's answer arrives and is shown.
    browser.wait(
        "the engine's move",
        "return document.querySelector('#engine-move').textContent.startsWith('Engine played');",
    );
    let state = gui.state();
    assert_eq!(moves(&state).len(), played.len() + 1);
    assert_eq!(state["human_turn"], true);
}

/// Issue 24, item 12: the page fits narrow and short windows. At 390×844
/// (a phone) the table takes the width and the panel goes under it, its
/// squares at least 24 px; at 1280×657 and 1280×800 nothing scrolls
/// sideways, the pile counts included.
#[test]
fn the_page_fits_a_phone_and_a_short_laptop_window() {
    ensure_browser();
    let gui = Gui::start(&["--seed", "1", "--movetime", "100"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":5}"#);
    place_turns(&gui, 6);
    let browser = Browser::start();
    let measure = |width: u32, height: u32| -> Value {
        browser.resize(width, height);
        browser.go(&gui.url());
        browser.wait(
            "the page",
            "return document.querySelectorAll('#world .tile').length === 6;",
        );
        browser.read(
            "const r = (s) => document.querySelector(s).getBoundingClientRect();
             const sq = document.querySelector('#world .sq').getBoundingClientRect();
             const aside = document.querySelector('aside');
             const piles = [...document.querySelectorAll('.pile')];
             return {
               inner: window.innerWidth,
               page: document.documentElement.scrollWidth,
               board: r('#board').width, boardBottom: r('#board').bottom,
               asideTop: r('aside').top, square: sq.width,
               asideOver: aside.scrollWidth - aside.clientWidth,
               pileOver: Math.max(...piles.map(p => p.scrollWidth - p.clientWidth)),
             };",
        )
    };
    let phone = measure(390, 844);
    let shot = screenshot_dir().join("chex-gui-phone.png");
    browser.screenshot(&shot);
    eprintln!("screenshot at 390×844: {}", shot.display());
    let inner = phone["inner"].as_f64().unwrap();
    assert!(phone["board"].as_f64().unwrap() >= inner - 2.0, "{phone}");
    assert!(phone["square"].as_f64().unwrap() >= 24.0, "{phone}");
    assert!(
        phone["asideTop"].as_f64().unwrap() >= phone["boardBottom"].as_f64().unwrap() - 1.0,
        "the panel is not under the table: {phone}"
    );
    assert!(phone["page"].as_f64().unwrap() <= inner, "{phone}");
    for (w, h) in [(1280, 657), (1280, 800)] {
        let laptop = measure(w, h);
        let inner = laptop["inner"].as_f64().unwrap();
        assert!(
            laptop["page"].as_f64().unwrap() <= inner,
            "{w}×{h}: {laptop}"
        );
        assert!(
            laptop["asideOver"].as_f64().unwrap() <= 0.0,
            "{w}×{h}: {laptop}"
        );
        assert!(
            laptop["pileOver"].as_f64().unwrap() <= 0.0,
            "{w}×{h}: {laptop}"
        );
    }
}
