//! `chex gui` without a browser: every kind of bad request is refused with
//! one line and changes nothing; a reload mid-game sees the same game; a
//! person's move gets the engine's reply; an engine that crashes or hangs
//! is reported and restarted.

mod gui_common;

use gui_common::{game_of, legal, moves, Gui};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Plays `n` turns in a two-person game: each a draw and the first legal
/// placement. Returns the state after.
fn place_turns(gui: &Gui, n: usize) -> serde_json::Value {
    let mut state = gui.state();
    for _ in 0..n {
        state = gui.ok("/api/move", r#"{"token":"@"}"#);
        let placement = legal(&state)[0].clone();
        state = gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    }
    state
}

/// Asserts that `path` with `body` is refused with 400 and a one-line
/// message containing `why`, and that the game is as it was.
fn refused(gui: &Gui, path: &str, body: &[u8], why: &str) {
    let before = game_of(&gui.state());
    let answer = gui.raw("POST", path, body);
    assert_eq!(answer.status, 400, "{path} {body:?}: {}", answer.body);
    assert!(
        answer.body.starts_with("error: ") && answer.body.trim_end().lines().count() == 1,
        "not one line: {:?}",
        answer.body
    );
    assert!(
        answer.body.contains(why),
        "{path}: expected '{why}' in {:?}",
        answer.body
    );
    assert_eq!(
        game_of(&gui.state()),
        before,
        "{path} {body:?} changed the game"
    );
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "100"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    place_turns(&gui, 2);

    // Malformed requests.
    refused(&gui, "/api/move", b"{bad", "malformed request");
    refused(&gui, "/api/move", b"", "malformed request");
    refused(&gui, "/api/move", br#"{"token":5}"#, "malformed request");
    refused(&gui, "/api/move", br#"{"move":"@"}"#, "malformed request");
    refused(&gui, "/api/move", b"\xff\xfe", "malformed request");
    refused(&gui, "/api/load", b"\xff\xfe", "not UTF-8");
    refused(
        &gui,
        "/api/new",
        br#"{"mode":"purple"}"#,
        "malformed request",
    );
    refused(
        &gui,
        "/api/new",
        br#"{"mode":"two","movetime":0}"#,
        "out of range",
    );
    refused(
        &gui,
        "/api/settings",
        br#"{"movetime":99999999}"#,
        "out of range",
    );
    refused(
        &gui,
        "/api/settings",
        br#"{"movetime":-5}"#,
        "malformed request",
    );

    // Illegal moves: nonsense, a square far away, another side's tile,
    // placing without drawing, and a second draw.
    refused(&gui, "/api/move", br#"{"token":"hello"}"#, "refused");
    refused(&gui, "/api/move", br#"{"token":"40,40-41,41"}"#, "refused");
    let state = gui.state();
    let black_tile = state["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            t["piece"]
                .as_str()
                .unwrap()
                .chars()
                .all(|c| c.is_lowercase())
        })
        .unwrap()
        .clone();
    let (x, y) = (
        black_tile["x"].as_i64().unwrap(),
        black_tile["y"].as_i64().unwrap(),
    );
    let token = format!(r#"{{"token":"{x},{y}-{},{}"}}"#, x, y + 1);
    refused(&gui, "/api/move", token.as_bytes(), "refused");
    refused(&gui, "/api/move", br#"{"token":"P@5,5"}"#, "draw first");
    gui.ok("/api/move", r#"{"token":"@"}"#);
    refused(&gui, "/api/move", br#"{"token":"@"}"#, "waits to be placed");
    let pending = gui.state()["pending"].as_str().unwrap().to_string();
    let wrong = if pending == "Q" { "R" } else { "Q" };
    let body = format!(r#"{{"token":"{wrong}@9,9"}}"#);
    refused(&gui, "/api/move", body.as_bytes(), "refused");

    // Bad records: not JSON, not a record, a move the deal refuses.
    let record = gui.get("/api/record").body;
    refused(&gui, "/api/load", b"not json", "not a game record");
    refused(&gui, "/api/load", br#"{"start":1}"#, "not a game record");
    // A game saved while it is played has no deal (issue 55): its seed
    // deals it again.
    assert!(!record.contains("\"deal\""), "{record}");
    let bad_deal = record.replacen('{', r#"{"deal":"X","#, 1);
    refused(&gui, "/api/load", bad_deal.as_bytes(), "bad game record");
    let first = moves(&gui.state())[0].clone();
    let bad_move = record.replacen(&first, "K@7,7", 1);
    refused(&gui, "/api/load", bad_move.as_bytes(), "move 1");

    // Changes only as JSON, and only for this machine's name.
    let answer = gui.raw_with(
        "POST",
        "/api/move",
        "text/plain",
        "localhost",
        br#"{"token":"@"}"#,
    );
    assert_eq!(answer.status, 400);
    assert!(answer.body.contains("application/json"), "{}", answer.body);
    let answer = gui.raw_with("GET", "/api/state", "", "evil.example:80", b"");
    assert_eq!(answer.status, 400);
    assert!(answer.body.contains("not this machine"), "{}", answer.body);

    // Unknown pages and methods.
    assert_eq!(gui.get("/api/nothing").status, 404);
    assert_eq!(gui.get("/api/move").status, 405);

    // A good record loads, and replays to the same game.
    let before = game_of(&gui.state());
    gui.ok("/api/new", r#"{"mode":"two"}"#);
    assert!(moves(&gui.state()).is_empty());
    gui.ok("/api/load", &record);
    let after = game_of(&gui.state());
    assert_eq!(after["position"], before["position"]);
    // The record keeps the drawn tile (a last `N@`): it waits to be placed.
    assert_eq!(moves(&gui.state()).len(), 3);
    assert!(!gui.state()["pending"].is_null());
}

#[test]
fn out_of_turn_and_take_back_rules() {
    let gui = Gui::start(&["--seed", "3", "--movetime", "20000"]);
    // Engine against engine: the person never has the move.
    gui.ok("/api/new", r#"{"mode":"watch","seed":3}"#);
    // Both first turns are forced and answered at once; Black's first
    // placement is a real choice, thought about for 20 s.
    let state = gui.wait_for(20, "the engine thinking on Black's placement", |s| {
        s["engine"]["status"] == "thinking" && s["pending"].is_string() && s["side"] == "black"
    });
    assert_eq!(state["side"], "black");
    refused(&gui, "/api/move", br#"{"token":"@"}"#, "the engine's turn");
    let placement = format!(r#"{{"token":"{}"}}"#, "n@1,1");
    refused(&gui, "/api/move", placement.as_bytes(), "the engine's turn");
    refused(&gui, "/api/takeback", b"", "not a watched one");

    // A new game stops the search at once: its answer is dropped.
    let state = gui.ok("/api/new", r#"{"mode":"two","seed":3}"#);
    assert!(moves(&state).is_empty());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        moves(&gui.state()).is_empty(),
        "the old search's move leaked in"
    );
    refused(&gui, "/api/takeback", b"", "no earlier turn");

    // Two people: take back goes to the start of the previous turn, the
    // tile drawn on this one back on the pile.
    place_turns(&gui, 3);
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    assert!(state["pending"].is_string());
    let state = gui.ok("/api/takeback", "");
    assert_eq!(moves(&state).len(), 2);
    assert!(state["pending"].is_null());
    assert_eq!(state["side"], "white");
    let state = gui.ok("/api/takeback", "");
    assert_eq!(moves(&state).len(), 1);
    assert_eq!(state["side"], "black");
}

#[test]
fn a_reload_mid_game_sees_the_same_game() {
    let gui = Gui::start(&["--seed", "21", "--movetime", "100"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":21}"#);
    place_turns(&gui, 3);
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    assert_eq!(moves(&state).len(), 4, "three placements and a drawn tile");

    // A reload: the page, its script, and the state again.
    let page = gui.get("/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>CHEX</title>"));
    assert!(page.body.contains("/page.js"));
    assert!(gui.get("/page.js").body.contains("EventSource"));
    assert!(gui.get("/page.css").body.contains(".tile"));
    assert_eq!(game_of(&gui.state()), game_of(&state));

    // A second tab's event stream starts with the same game.
    let mut stream = TcpStream::connect(&gui.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        gui.addr
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let data = loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "stream ended");
        if let Some(data) = line.trim_end().strip_prefix("data: ") {
            break data.to_string();
        }
    };
    let streamed: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(game_of(&streamed), game_of(&state));
    assert_eq!(streamed["pending"], state["pending"]);

    // And a change made elsewhere reaches it.
    let placement = legal(&state)[0].clone();
    gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let next = loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "stream ended");
        if let Some(data) = line.trim_end().strip_prefix("data: ") {
            let view: serde_json::Value = serde_json::from_str(data).unwrap();
            if moves(&view).len() == 4 && view["pending"].is_null() {
                break view;
            }
        }
    };
    assert_eq!(moves(&next)[3], placement);
}

#[test]
fn a_persons_move_gets_the_engines_reply() {
    let gui = Gui::start(&["--seed", "5", "--movetime", "300"]);
    gui.ok("/api/new", r#"{"mode":"white","seed":5}"#);
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    let placement = legal(&state);
    assert_eq!(placement.len(), 1, "the first tile goes on 0,0");
    assert!(placement[0].ends_with("@0,0"));
    gui.ok("/api/move", &format!(r#"{{"token":"{}"}}"#, placement[0]));
    let state = gui.wait_for(15, "the engine's reply", |s| {
        moves(s).len() == 2 && s["human_turn"] == true
    });
    let reply = &moves(&state)[1];
    assert!(
        reply.starts_with(|c: char| c.is_ascii_lowercase()) && reply.contains('@'),
        "Black's first turn is a placement: {reply}"
    );
    assert_eq!(state["last_move"]["token"], reply.as_str());
    assert_eq!(state["last_move"]["engine"], true);
    assert_eq!(state["engine"]["last_move"], reply.as_str());
    // The reply had eight squares to choose from: it searched and showed
    // its win/draw/loss estimate.
    let wdl = state["engine"]["info"]["wdl"].as_array().expect("wdl");
    let sum: u64 = wdl.iter().map(|v| v.as_u64().unwrap()).sum();
    assert!((999..=1001).contains(&sum), "{wdl:?}");
    // The page reads the score's unit as its key.
    let score = &state["engine"]["info"]["score"];
    assert!(score["cp"].is_i64() || score["mate"].is_i64(), "{score}");
    assert!(state["engine"]["info"]["nodes"].as_u64().unwrap() > 0);
    assert_eq!(state["engine"]["restarts"], 0);

    // Take back returns to the person's turn before their placement.
    let state = gui.ok("/api/takeback", "");
    assert!(moves(&state).is_empty());
    assert_eq!(state["human_turn"], true);

    // The record names who played, and the seed.
    let record: serde_json::Value = serde_json::from_str(&gui.get("/api/record").body).unwrap();
    assert_eq!(record["white"]["name"], "human");
    assert_eq!(record["black"]["name"], "chex");
    assert_eq!(record["seed"], 5);
    assert_eq!(record["result"], "*");
}

/// A script that acts as a broken engine the first time it runs (`on_go`
/// is the shell line run on `go`) and execs the real one after.
fn broken_engine(dir: &std::path::Path, on_go: &str) -> String {
    broken_engine_runs(dir, on_go, true)
}

/// [`broken_engine`], broken every time unless `once`.
fn broken_engine_runs(dir: &std::path::Path, on_go: &str, once: bool) -> String {
    let script = dir.join("engine.sh");
    let mark = dir.join("ran-once");
    let mark_text = mark.display().to_string();
    let mark = if once {
        mark_text.as_str()
    } else {
        "/nonexistent/never"
    };
    let text = format!(
        "#!/bin/sh\n\
         if [ -e '{mark}' ]; then exec '{chex}'; fi\n\
         touch '{mark_text}'\n\
         while read line; do\n\
           case \"$line\" in\n\
             uci) echo 'id name broken'; echo uciok;;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
           esac\n\
         done\n",
        chex = env!("CARGO_BIN_EXE_chex"),
    );
    std::fs::write(&script, text).unwrap();
    let mut perms = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&script, perms).unwrap();
    script.display().to_string()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chex-gui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The person (White) places the first tile; the engine must answer.
fn engine_must_answer(engine: &str, why: &str) {
    let gui = Gui::start(&["--seed", "9", "--movetime", "200", "--engine", engine]);
    gui.wait_for(15, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    gui.ok("/api/new", r#"{"mode":"white","seed":9}"#);
    gui.ok("/api/move", r#"{"token":"@"}"#);
    let before = gui.state();
    let placement = legal(&before)[0].clone();
    gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let state = gui.wait_for(20, "the restarted engine's reply", |s| moves(s).len() == 2);
    let engine = &state["engine"];
    assert_eq!(engine["restarts"], 1, "{engine}");
    let message = engine["message"].as_str().unwrap();
    assert!(message.contains(why), "{message}");
    assert!(message.contains("it was restarted"), "{message}");
}

#[test]
fn a_crashing_engine_is_reported_and_restarted() {
    let dir = temp_dir("crash");
    engine_must_answer(&broken_engine(&dir, "exit 3"), "the engine exited");
}

#[test]
fn a_silent_engine_is_reported_and_restarted() {
    let dir = temp_dir("hang");
    engine_must_answer(&broken_engine(&dir, ":"), "no bestmove within 3200 ms");
}

/// An engine that prints one endless line (200 MB with no newline)
/// instead of an answer: the server keeps at most a line's worth of it,
/// so its memory stays small, and the engine is restarted as silent.
#[test]
fn an_engine_printing_without_end_does_not_fill_the_servers_memory() {
    let dir = temp_dir("flood");
    let flood = "head -c 200000000 /dev/zero | tr '\\0' x";
    let gui = Gui::start(&[
        "--seed",
        "9",
        "--movetime",
        "200",
        "--engine",
        &broken_engine(&dir, flood),
    ]);
    gui.wait_for(15, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    gui.ok("/api/new", r#"{"mode":"white","seed":9}"#);
    gui.ok("/api/move", r#"{"token":"@"}"#);
    let placement = legal(&gui.state())[0].clone();
    gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let state = gui.wait_for(30, "the restarted engine's reply", |s| moves(s).len() == 2);
    assert_eq!(state["engine"]["restarts"], 1, "{}", state["engine"]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", gui.pid())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc");
    assert!(
        peak_kib < 64 * 1024,
        "the server peaked at {} MiB",
        peak_kib / 1024
    );
}

#[test]
fn an_engine_that_cannot_start_is_reported() {
    let gui = Gui::start(&["--engine", "/nonexistent/engine"]);
    let state = gui.wait_for(10, "the failure", |s| {
        s["engine"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot start the engine")
    });
    assert_eq!(state["engine"]["status"], "restarting");
    // The page still works for a person.
    assert!(gui.ok("/api/move", r#"{"token":"@"}"#)["pending"].is_string());
}

#[test]
fn an_engine_that_always_fails_is_paused_until_the_person_acts() {
    let dir = temp_dir("always");
    let engine = broken_engine_runs(&dir, "exit 4", false);
    let gui = Gui::start(&["--seed", "2", "--movetime", "100", "--engine", &engine]);
    gui.ok("/api/new", r#"{"mode":"black","seed":2}"#);
    let state = gui.wait_for(20, "the pause", |s| s["engine"]["status"] == "paused");
    assert_eq!(state["engine"]["restarts"], 3);
    let message = state["engine"]["message"].as_str().unwrap();
    assert!(message.contains("failed 3 times"), "{message}");
    // Paused: it stays so, and nothing is played.
    std::thread::sleep(Duration::from_millis(700));
    let state = gui.state();
    assert_eq!(state["engine"]["status"], "paused");
    assert!(moves(&state).is_empty());
    // Resume tries once more, and pauses again at the next failure.
    gui.ok("/api/resume", "");
    let state = gui.wait_for(20, "the next failure", |s| {
        s["engine"]["restarts"].as_u64().unwrap() >= 4 && s["engine"]["status"] == "paused"
    });
    assert!(moves(&state).is_empty());
}

/// Sends `head` (request line and headers, without the blank line), a
/// blank line and `body` on a fresh connection, and reads the answer's
/// status and body.
fn exchange(gui: &Gui, head: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(&gui.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
        .write_all(format!("{head}\r\nConnection: close\r\n\r\n").as_bytes())
        .unwrap();
    stream.write_all(body).unwrap();
    let mut text = String::new();
    let _ = std::io::Read::read_to_string(&mut stream, &mut text);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    (status, body.to_string())
}

/// Issue 24, item 10: a change sent from another site's page (its
/// `Origin` names it) is refused with 403 and one line, and changes
/// nothing; one from this server's own page is taken.
#[test]
fn a_foreign_origin_is_refused() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "100"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    let before = game_of(&gui.state());
    let body = br#"{"token":"@"}"#;
    let post = |origin: &str| {
        let head = format!(
            "POST /api/move HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\n\
             Content-Type: application/json\r\nContent-Length: {}",
            gui.addr,
            body.len()
        );
        exchange(&gui, &head, body)
    };
    for origin in ["http://evil.example", "null", "https://127.0.0.1:1"] {
        let (status, text) = post(origin);
        assert_eq!(status, 403, "{origin}: {text}");
        assert!(
            text.starts_with("error: ") && text.trim_end().lines().count() == 1,
            "{text:?}"
        );
        assert_eq!(game_of(&gui.state()), before, "{origin} changed the game");
    }
    let (status, text) = post(&format!("http://{}", gui.addr));
    assert_eq!(status, 200, "{text}");
    assert_ne!(game_of(&gui.state()), before);
}

/// Issue 24, item 13: a body over the limit gets 413 and the server's one
/// line, not axum's text; `/favicon.ico` is no error, and the page names
/// its (empty) icon so the browser need not ask.
#[test]
fn an_oversized_body_gets_one_line_and_the_icon_is_no_error() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "100"]);
    let head = format!(
        "POST /api/load HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 3000000",
        gui.addr
    );
    let (status, text) = exchange(&gui, &head, b"");
    assert_eq!(status, 413, "{text}");
    assert_eq!(
        text,
        "error: the request body is larger than 2097152 bytes\n"
    );
    let icon = gui.get("/favicon.ico");
    assert_eq!(icon.status, 204, "{}", icon.body);
    assert!(gui.get("/").body.contains(r#"rel="icon""#));
}

/// Issue 24, item 11: connections that send nothing, half a header, or
/// less body than their `Content-Length` are closed after the idle time
/// (1 s here), while an event stream stays open on its keep-alive
/// comments and the page keeps answering.
#[test]
fn slow_and_idle_connections_are_closed() {
    let gui = Gui::start(&["--seed", "11", "--idle-timeout", "1"]);
    let half_sent = [
        String::new(),
        "GET /api/state HTTP/1.1\r\nHo".to_string(),
        format!(
            "POST /api/load HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: 100\r\n\r\n{{\"a\":",
            gui.addr
        ),
    ];
    let mut events = TcpStream::connect(&gui.addr).unwrap();
    events
        .write_all(format!("GET /api/events HTTP/1.1\r\nHost: {}\r\n\r\n", gui.addr).as_bytes())
        .unwrap();
    let start = std::time::Instant::now();
    let mut streams: Vec<TcpStream> = half_sent
        .iter()
        .map(|sent| {
            let mut s = TcpStream::connect(&gui.addr).unwrap();
            s.write_all(sent.as_bytes()).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(15))).unwrap();
            s
        })
        .collect();
    for (stream, sent) in streams.iter_mut().zip(&half_sent) {
        let mut buf = [0u8; 256];
        let closed = match std::io::Read::read(stream, &mut buf) {
            Ok(0) => true,
            Ok(_) => {
                // An answer (408 or the like) is fine if the close follows.
                matches!(std::io::Read::read(stream, &mut buf), Ok(0) | Err(_))
            }
            Err(e) => !matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ),
        };
        assert!(closed, "still open after {:?}: {sent:?}", start.elapsed());
    }
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
    // The event stream lived through it: it still delivers bytes.
    events
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let mut reader = BufReader::new(events);
    let mut got = 0;
    let until = std::time::Instant::now() + Duration::from_secs(3);
    while std::time::Instant::now() < until {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => panic!("the event stream was closed"),
            Ok(n) => got += n,
            Err(e) => panic!("the event stream failed: {e}"),
        }
    }
    assert!(got > 0);
    assert_eq!(gui.get("/api/state").status, 200);
}

/// Issue 24, item 14 (the server's part): each side's clock, and the
/// answer times in a saved game. White takes 400 ms to draw and 300 ms
/// to place; Black answers at once.
#[test]
fn clocks_run_and_a_saved_game_has_its_move_times() {
    let gui = Gui::start(&["--seed", "11"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    // Each side's first turn is untimed (issue 55, lichess's rule): a
    // fresh game runs no clock, and its first turns cost nothing.
    std::thread::sleep(Duration::from_millis(300));
    let state = gui.state();
    assert_eq!(state["thinking_ms"], 0, "{state}");
    assert_eq!(state["clock_runs"], false, "{state}");
    let state = place_turns(&gui, 2);
    assert_eq!(state["clocks_ms"], serde_json::json!([0, 0]), "{state}");
    assert_eq!(state["clock_runs"], true, "{state}");
    std::thread::sleep(Duration::from_millis(400));
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    std::thread::sleep(Duration::from_millis(300));
    let placement = legal(&state)[0].clone();
    let state = gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let white = state["clocks_ms"][0].as_u64().unwrap();
    assert!(white >= 700, "{state}");
    assert!(state["clocks_ms"][1].as_u64().unwrap() < 700, "{state}");
    assert!(state["thinking_ms"].as_u64().is_some(), "{state}");
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    let placement = legal(&state)[0].clone();
    gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let record = gui.get("/api/record").json();
    let answers = record["answers_ms"].as_array().unwrap();
    let times = record["times_ms"].as_array().unwrap();
    assert_eq!(answers.len(), 4, "{record}");
    assert_eq!(times.len(), 4, "{record}");
    assert_eq!(times[0], 0, "{record}");
    let third: Vec<u64> = answers[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_u64().unwrap())
        .collect();
    assert_eq!(third.len(), 2, "{record}");
    assert!(third[0] >= 400 && third[1] >= 300, "{third:?}");
    assert_eq!(times[2].as_u64(), Some(third.iter().sum()));
    // The record loads back with its times.
    let line = serde_json::to_string(&record).unwrap();
    let loaded = gui.ok("/api/load", &line);
    assert_eq!(loaded["clocks_ms"][0].as_u64(), Some(third.iter().sum()));
}

/// Issue 50: the time controls', levels' and setup's requests that are
/// malformed or out of range get one line and change nothing.
#[test]
fn bad_time_controls_levels_and_setups_are_refused() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "100"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    place_turns(&gui, 1);
    let new = |body: &str, why: &str| refused(&gui, "/api/new", body.as_bytes(), why);
    new(
        r#"{"mode":"two","clock":{"base_ms":0,"inc_ms":0}}"#,
        "base time 0 ms is out of range 1000..=10800000 ms",
    );
    new(
        r#"{"mode":"two","clock":{"base_ms":10800001}}"#,
        "out of range",
    );
    new(
        r#"{"mode":"two","clock":{"base_ms":60000,"inc_ms":600001}}"#,
        "increment 600001 ms is out of range",
    );
    new(
        r#"{"mode":"two","clock":{"base_ms":-1}}"#,
        "malformed request",
    );
    new(
        r#"{"mode":"two","clock":{"inc_ms":5}}"#,
        "malformed request",
    );
    new(
        r#"{"mode":"two","clock":{"base_ms":60000,"moves":40}}"#,
        "malformed request",
    );
    new(r#"{"mode":"two","clock":"3+2"}"#, "malformed request");
    new(
        r#"{"mode":"two","level":0}"#,
        "level 0 is out of range 1..=6",
    );
    new(r#"{"mode":"two","level":7}"#, "level 7 is out of range");
    new(r#"{"mode":"two","level":300}"#, "malformed request");
    // A good clock with a bad level is refused whole.
    new(
        r#"{"mode":"two","clock":{"base_ms":60000},"level":9}"#,
        "level 9",
    );
    let settings = |body: &str, why: &str| refused(&gui, "/api/settings", body.as_bytes(), why);
    settings("{}", "nothing to set");
    settings(r#"{"level":9}"#, "level 9 is out of range");
    settings(
        r#"{"level":4,"movetime":5}"#,
        "movetime 5 ms is out of range 10..=600000 ms",
    );
    settings(r#"{"level":"club"}"#, "malformed request");
    assert_eq!(gui.state()["level"], 6);

    // Positions the engine's parser refuses, with its reason.
    let setup = |body: &str, why: &str| refused(&gui, "/api/setup", body.as_bytes(), why);
    setup("{", "malformed request");
    setup(r#"{"position":"startpos"}"#, "malformed request");
    setup(
        r#"{"position":"startpos","mode":"two","moves":[]}"#,
        "malformed request",
    );
    setup(
        r#"{"position":"nonsense","mode":"two"}"#,
        "a position string has 5 fields (tiles side piles halfmove fullmove), found 1",
    );
    setup(
        r#"{"position":"K0,0/k2,2 w -/- 0 1","mode":"two"}"#,
        "impossible position: the tiles on the table are not one group",
    );
    setup(
        r#"{"position":"K0,0/K1,0/k0,1 w -/- 0 1","mode":"two"}"#,
        "impossible position: White has 2 kings in pile and on table; it must have exactly one",
    );
    setup(
        r#"{"position":"- w KQ/kq 0 1","mode":"white"}"#,
        "impossible position: the table is empty",
    );
    setup(
        r#"{"position":"K0,0/k1,1 w PPPPPPPPP/- 0 1","mode":"two"}"#,
        "bad piles",
    );
    setup(
        r#"{"position":"K0,0/k0,1 w -/- 0 1","mode":"purple"}"#,
        "malformed request",
    );
    // A set-up game takes a new game's clock and level, checked alike.
    setup(
        r#"{"position":"K0,0/n1,1/k2,2 w -/- 0 1","mode":"two","clock":{"base_ms":5}}"#,
        "base time 5 ms is out of range",
    );
    setup(
        r#"{"position":"K0,0/n1,1/k2,2 w -/- 0 1","mode":"two","level":9}"#,
        "level 9 is out of range",
    );
    assert_eq!(gui.get("/api/export").status, 200);
}

/// Issue 50: a clock game. The increment comes once per turn (a draw and
/// its placement), each clock is its base less its answers plus its
/// increments, the record carries the time control, and a side that does
/// not move loses on time with no request made: only GETs are sent.
/// Issue 55, as on lichess: a side's first turn is untimed, and a game
/// whose first move does not come is aborted, not lost.
#[test]
fn clocks_run_down_earn_increments_and_flag_without_a_request() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "100"]);
    let state = gui.ok(
        "/api/new",
        r#"{"mode":"two","seed":11,"clock":{"base_ms":60000,"inc_ms":2000}}"#,
    );
    assert_eq!(state["clock"]["left_ms"], serde_json::json!([60000, 60000]));
    assert!(state["clock"]["running"].is_null(), "{state}");
    assert_eq!(state["clock_runs"], false);
    // The first turns of both sides cost nothing and earn nothing.
    std::thread::sleep(Duration::from_millis(150));
    let state = place_turns(&gui, 2);
    assert_eq!(state["clock"]["left_ms"], serde_json::json!([60000, 60000]));
    assert_eq!(state["clock"]["running"], "white");
    assert_eq!(state["clock_runs"], true);
    std::thread::sleep(Duration::from_millis(150));
    let state = gui.ok("/api/move", r#"{"token":"@"}"#);
    // The draw costs its time and earns nothing yet.
    let after_draw = state["clock"]["left_ms"][0].as_u64().unwrap();
    assert!(after_draw <= 59_850, "{state}");
    assert_eq!(state["clock"]["running"], "white");
    let placement = legal(&state)[0].clone();
    let state = gui.ok("/api/move", &format!(r#"{{"token":"{placement}"}}"#));
    let white = state["clock"]["left_ms"][0].as_u64().unwrap();
    assert!(white > 60_000 && white <= after_draw + 2_000, "{state}");
    assert_eq!(state["clock"]["left_ms"][1], 60000);
    assert_eq!(state["clock"]["running"], "black");
    place_turns(&gui, 1);
    let record = gui.get("/api/record").json();
    assert_eq!(record["tc"], "tc 60+2");
    let state = gui.state();
    let answers = record["answers_ms"].as_array().unwrap();
    assert_eq!(answers[0], serde_json::json!([0, 0]), "{record}");
    assert_eq!(answers[1], serde_json::json!([0, 0]), "{record}");
    for side in 0..2 {
        // Moves alternate from White's.
        let spent: u64 = answers
            .iter()
            .skip(side)
            .step_by(2)
            .flat_map(|a| a.as_array().unwrap())
            .map(|a| a.as_u64().unwrap())
            .sum();
        assert_eq!(
            state["clock"]["left_ms"][side].as_u64().unwrap(),
            62_000 - spent,
            "{record} {state}"
        );
    }

    // Take back keeps the clocks; a loaded record starts them afresh.
    let before = state["clock"]["left_ms"].clone();
    let state = gui.ok("/api/takeback", "");
    assert_eq!(state["clock"]["left_ms"], before);
    let line = serde_json::to_string(&record).unwrap();
    let state = gui.ok("/api/load", &line);
    assert_eq!(state["clock"]["left_ms"], serde_json::json!([60000, 60000]));

    // One second on the clock and no first move: nobody asks, and the
    // game is aborted, not lost.
    gui.ok(
        "/api/new",
        r#"{"mode":"two","seed":11,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    let start = std::time::Instant::now();
    let state = gui.wait_for(10, "the abort", |s| s["aborted"] == true);
    assert!(start.elapsed() >= Duration::from_millis(950));
    assert_eq!(state["result"], "*");
    assert_eq!(state["reason"], "White made no first move");
    assert!(state["clock"]["flagged"].is_null());
    assert_eq!(state["clock"]["left_ms"], serde_json::json!([1000, 1000]));
    assert!(legal(&state).is_empty());
    refused(
        &gui,
        "/api/move",
        br#"{"token":"@"}"#,
        "the game was aborted (White made no first move)",
    );
    let record = gui.get("/api/record").json();
    assert_eq!(record["result"], "*");
    assert_eq!(record["ending"], "aborted");
    // Once the game is over the record has its deal.
    assert!(record["deal"].is_string(), "{record}");

    // Both sides' first turns played, White's clock runs: nobody asks,
    // White loses on time.
    gui.ok(
        "/api/new",
        r#"{"mode":"two","seed":11,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    place_turns(&gui, 2);
    let start = std::time::Instant::now();
    let state = gui.wait_for(10, "the flag", |s| s["result"] != "*");
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(900), "{waited:?}");
    assert_eq!(state["result"], "0-1");
    assert_eq!(state["reason"], "White lost on time");
    assert_eq!(state["clock"]["flagged"], "white");
    assert_eq!(state["clock"]["left_ms"][0], 0);
    assert!(state["clock"]["running"].is_null());
    assert_eq!(state["human_turn"], false);
    assert!(legal(&state).is_empty());
    refused(
        &gui,
        "/api/move",
        br#"{"token":"@"}"#,
        "the game is over (White lost on time)",
    );
    refused(&gui, "/api/takeback", b"", "White lost on time");
    let record = gui.get("/api/record").json();
    assert_eq!(record["tc"], "tc 1+0");
    assert_eq!(record["result"], "0-1");
    assert_eq!(record["ending"], "time");
    assert_eq!(record["reason"], "White lost on time");
    // A new game has full clocks and no flag.
    let state = gui.ok("/api/new", r#"{"mode":"two","clock":{"base_ms":1000}}"#);
    assert_eq!(state["result"], "*");
    assert!(state["clock"]["flagged"].is_null());
    // And without a clock, a fixed time per move again.
    let state = gui.ok("/api/new", r#"{"mode":"two"}"#);
    assert!(state["clock"].is_null());
    let record = gui.get("/api/record").json();
    assert_eq!(record["tc"], "movetime 100");
}

/// Issue 50: a set-up position starts a game dealt from the next seed,
/// the engine answers from it, and the export is the `position` command
/// of that game. The level is changed between moves and recorded.
#[test]
fn a_set_up_position_is_played_and_exported() {
    let gui = Gui::start(&["--seed", "30", "--movetime", "200"]);
    // The engine's canonical order of the tiles, so that it reads back
    // as written.
    let fen = "k2,2/n1,1/K0,0 b QRRBBNNPPP/qrrbbnpp 0 1";
    let state = gui.ok(
        "/api/setup",
        &format!(r#"{{"position":"{fen}","mode":"white"}}"#),
    );
    assert_eq!(state["seed"], 31);
    assert_eq!(state["position"], fen);
    assert_eq!(state["mode"], "white");
    // Black to move: the engine's.
    let state = gui.wait_for(20, "the engine's answer", |s| {
        moves(s).len() == 1 && s["human_turn"] == true
    });
    let export = gui.get("/api/export");
    assert_eq!(
        export.body,
        format!("position fen {fen} moves {}\n", moves(&state)[0])
    );
    let state = gui.ok("/api/settings", r#"{"level":2}"#);
    assert_eq!(state["level"], 2);
    let record = gui.get("/api/record").json();
    assert_eq!(record["start"], fen);
    assert_eq!(record["black"]["options"]["Skill"], "2");
}

/// Issue 50: the page offers every level by the engine's own name for
/// it, in the selector and in the help beside its measured strength, and
/// loads its play script.
#[test]
fn the_page_names_every_level_as_the_engine_does() {
    let gui = Gui::start(&["--seed", "1"]);
    let page = gui.get("/").body;
    for (i, name) in chex::search::skill::NAMES.iter().enumerate() {
        let level = i + 1;
        assert!(
            page.contains(&format!(
                r#"<option value="{level}">{level} {name}</option>"#
            )),
            "level {level} {name} is not in the selector"
        );
        assert!(
            page.contains(&format!("<tr><td>{level}</td><td>{name}</td><td>&asymp; ")),
            "level {level} {name} is not in the help"
        );
    }
    assert!(page.contains("not chess Elo"));
    assert!(page.contains(r#"<script type="module" src="/main.js"></script>"#));
    let main = gui.get("/main.js");
    assert_eq!(main.status, 200);
    assert!(main.body.contains(r#"from "./play.js";"#));
    let script = gui.get("/play.js");
    assert_eq!(script.status, 200);
    assert!(script.body.contains("function drawPlayClocks"));
}

/// Issue 50: an engine that overruns its clock loses on time and is not
/// restarted: the flag is a result, not a failure. The engine here thinks
/// 2 s whatever it is given; White's clock holds 1 s. Issue 55: on its
/// first turn, untimed, the same overrun aborts the game instead, again
/// without a restart.
#[test]
fn an_engine_over_its_time_loses_and_is_not_restarted() {
    let dir = temp_dir("overtime");
    let engine = broken_engine_runs(&dir, "sleep 2; echo 'bestmove @'", false);
    let gui = Gui::start(&["--seed", "4", "--engine", &engine]);
    gui.wait_for(15, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    let unharmed = |gui: &Gui| {
        // Its late answer is dropped, and it stays the same process.
        std::thread::sleep(Duration::from_millis(2500));
        let state = gui.state();
        assert_eq!(state["engine"]["restarts"], 0, "{state}");
        assert_eq!(state["engine"]["message"], "", "{state}");
        assert_eq!(state["engine"]["status"], "ready", "{state}");
        state
    };
    gui.ok(
        "/api/new",
        r#"{"mode":"black","seed":4,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    let state = gui.wait_for(10, "the abort", |s| s["aborted"] == true);
    assert_eq!(state["reason"], "White made no first move");
    let state = unharmed(&gui);
    assert!(moves(&state).is_empty(), "{state}");

    // Both first turns played (a record of two people's), White's clock
    // runs for the engine.
    gui.ok(
        "/api/new",
        r#"{"mode":"two","seed":4,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    place_turns(&gui, 2);
    let record = gui.get("/api/record").body;
    gui.ok(
        "/api/new",
        r#"{"mode":"black","seed":4,"clock":{"base_ms":1000,"inc_ms":0}}"#,
    );
    let state = gui.ok("/api/load", &record);
    assert_eq!(state["clock"]["running"], "white", "{state}");
    let state = gui.wait_for(10, "the flag", |s| s["result"] != "*");
    assert_eq!(state["result"], "0-1");
    assert_eq!(state["reason"], "White lost on time");
    let state = unharmed(&gui);
    assert_eq!(moves(&state).len(), 2, "{state}");
}

/// Issue 50: the study routes refuse malformed bodies and values out of
/// range with one line, changing nothing; the analysis runs only while a
/// page is connected to see it.
#[test]
fn study_requests_are_checked_and_analysis_needs_a_page() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "20000"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    refused(
        &gui,
        "/api/review",
        br#"{"movetime":100}"#,
        "nothing to review",
    );
    place_turns(&gui, 2);
    refused(&gui, "/api/hint", b"{bad", "malformed request");
    refused(&gui, "/api/hint", br#"{"x":1}"#, "malformed request");
    refused(&gui, "/api/analysis", b"", "malformed request");
    refused(
        &gui,
        "/api/analysis",
        br#"{"on":"yes"}"#,
        "malformed request",
    );
    refused(
        &gui,
        "/api/analysis",
        br#"{"on":true,"x":1}"#,
        "malformed request",
    );
    refused(&gui, "/api/analysis", b"\xff\xfe", "malformed request");
    refused(&gui, "/api/review", b"[]", "malformed request");
    refused(&gui, "/api/review", br#"{"movetime":10}"#, "out of range");
    refused(
        &gui,
        "/api/review",
        br#"{"movetime":99999}"#,
        "out of range",
    );
    refused(
        &gui,
        "/api/review",
        br#"{"movetime":-1}"#,
        "malformed request",
    );
    refused(
        &gui,
        "/api/cursor",
        br#"{"decision":5}"#,
        "out of range 0..=4",
    );
    refused(
        &gui,
        "/api/cursor",
        br#"{"decision":-1}"#,
        "malformed request",
    );
    refused(&gui, "/api/cursor", br#"{"ply":2}"#, "out of range");
    refused(
        &gui,
        "/api/cursor",
        br#"{"decision":1,"ply":1}"#,
        "not both",
    );
    refused(&gui, "/api/cursor", br#"{"step":1}"#, "malformed request");

    // The cursor: by decision (a draw and its placement are two), by the
    // move list's ply, and back to the game as it stands.
    let state = gui.ok("/api/cursor", r#"{"decision":1}"#);
    assert_eq!(state["cursor"]["decision"], 1);
    assert_eq!(state["cursor"]["ply"], 0);
    assert!(state["cursor"]["pending"].is_string(), "White's tile drawn");
    assert_eq!(state["cursor"]["tiles"], serde_json::json!([]));
    let state = gui.ok("/api/cursor", r#"{"ply":1}"#);
    assert_eq!(state["cursor"]["decision"], 2);
    assert_eq!(state["cursor"]["played"], "@");
    assert_eq!(state["cursor"]["tiles"].as_array().unwrap().len(), 1);
    // The live game is untouched: the person still plays on it.
    assert_eq!(moves(&state).len(), 2);
    assert!(!legal(&state).is_empty());
    let state = gui.ok("/api/cursor", r#"{"decision":null}"#);
    assert!(state["cursor"].is_null());
    assert_eq!(state["decisions"], 4);

    // Analysis on with no page to see it: nothing runs.
    gui.ok("/api/analysis", r#"{"on":true}"#);
    std::thread::sleep(Duration::from_millis(1500));
    let state = gui.state();
    assert!(state["study_job"].is_null(), "{state}");
    assert!(state["analysis"]["lines"].as_array().unwrap().is_empty());
    // A page connects: the analysis runs; it goes: the analysis stops.
    let mut stream = TcpStream::connect(&gui.addr).unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        gui.addr
    )
    .unwrap();
    // The page's connection wakes the driver; so does a change.
    gui.ok("/api/analysis", r#"{"on":true}"#);
    gui.wait_for(10, "the analysis", |s| {
        s["study_job"] == "analysis" && !s["analysis"]["lines"].as_array().unwrap().is_empty()
    });
    drop(stream);
    gui.wait_for(10, "the analysis to stop", |s| s["study_job"].is_null());

    // Watching: no hint on the engine's turn.
    gui.ok("/api/new", r#"{"mode":"watch","seed":3}"#);
    gui.wait_for(20, "the engine thinking on Black's placement", |s| {
        s["engine"]["status"] == "thinking" && s["pending"].is_string() && s["side"] == "black"
    });
    refused(&gui, "/api/hint", b"", "person's turn");
    gui.ok("/api/new", r#"{"mode":"two","seed":3}"#);
}

/// The pawns a verdict names ("1.2 pawns worse than …", "1 pawn …").
fn verdict_pawns(verdict: &str) -> Option<f64> {
    let (number, _) = verdict.split_once(" pawn")?;
    number.parse().ok()
}

/// Issue 56, "What about this move?": while analysing, the person asks
/// about one legal action; the engine searches it alone (`go
/// searchmoves`), and the view sets its line beside the analysis's best
/// with the difference in words, in pawns that agree with the two
/// scores. A request without the analysis, with an action not legal in
/// the position shown, or malformed, is refused with one line; moving
/// the cursor makes the question moot.
#[test]
fn what_about_this_move_sets_an_action_beside_the_best() {
    let gui = Gui::start(&["--seed", "11", "--movetime", "20000"]);
    gui.ok("/api/new", r#"{"mode":"two","seed":11}"#);
    // Turns until the side to move has actions beyond the analysis's
    // three lines.
    let mut state = place_turns(&gui, 2);
    while legal(&state).len() < 5 {
        state = place_turns(&gui, 1);
    }
    let any = legal(&state)[0].clone();
    refused(
        &gui,
        "/api/probe",
        format!(r#"{{"token":"{any}"}}"#).as_bytes(),
        "turn the analysis on",
    );
    let mut stream = TcpStream::connect(&gui.addr).unwrap();
    write!(
        stream,
        "GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
        gui.addr
    )
    .unwrap();
    gui.ok("/api/analysis", r#"{"on":true}"#);
    let state = gui.wait_for(60, "the analysis", |s| {
        !s["analysis"]["lines"].as_array().unwrap().is_empty()
    });
    assert_eq!(state["analysis"]["legal"], state["legal"]);
    refused(&gui, "/api/probe", b"", "malformed request");
    refused(&gui, "/api/probe", br#"{"token":7}"#, "malformed request");
    refused(
        &gui,
        "/api/probe",
        br#"{"token":"@","x":1}"#,
        "malformed request",
    );
    refused(
        &gui,
        "/api/probe",
        br#"{"token":"9,9-9,8"}"#,
        "not a legal action in the position shown",
    );
    assert!(gui.state()["analysis"]["probe"].is_null());

    // An action the analysis does not rank among its best: only a search
    // of it alone reports its line.
    let ranked: Vec<String> = state["analysis"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["token"].as_str().unwrap().to_string())
        .collect();
    let asked = legal(&state)
        .into_iter()
        .rev()
        .find(|t| !ranked.contains(t))
        .expect("an action outside the analysis's lines");
    let state = gui.ok("/api/probe", &format!(r#"{{"token":"{asked}"}}"#));
    assert_eq!(state["analysis"]["probe"]["token"], asked.as_str());
    let state = gui.wait_for(60, "the verdict", |s| {
        s["analysis"]["probe"]["status"] == "done" && s["analysis"]["probe"]["verdict"].is_string()
    });
    let probe = &state["analysis"]["probe"];
    assert_eq!(probe["line"]["token"], asked.as_str(), "{probe}");
    assert!(
        probe["line"]["pv"].as_str().unwrap().starts_with(&asked),
        "{probe}"
    );
    let best = &state["analysis"]["lines"][0];
    assert_eq!(
        probe["best"], *best,
        "the verdict compares with the best shown"
    );
    let verdict = probe["verdict"].as_str().unwrap();
    eprintln!("what about {asked}? {verdict}");
    let best_token = best["token"].as_str().unwrap();
    let best_words = if best_token == "@" {
        "drawing a tile"
    } else {
        best_token
    };
    assert!(verdict.contains(best_words), "{verdict} names {best_token}");
    match (
        probe["line"]["score"]["cp"].as_i64(),
        best["score"]["cp"].as_i64(),
    ) {
        (Some(cp), Some(best_cp)) => {
            let behind = (best_cp - cp) as f64 / 100.0;
            if behind.abs() < 0.1 {
                assert!(verdict.starts_with("about as good as"), "{verdict}");
            } else {
                let said = verdict_pawns(verdict).unwrap_or_else(|| panic!("{verdict}"));
                assert!((said - behind.abs()).abs() <= 0.051, "{verdict}: {behind}");
                let word = if behind > 0.0 { "worse" } else { "better" };
                assert!(verdict.contains(word), "{verdict}: {behind}");
            }
        }
        _ => assert!(verdict.contains("force"), "{verdict}"),
    }
    // The analysis goes on after the question.
    gui.wait_for(10, "the analysis again", |s| s["study_job"] == "analysis");

    // Another position shown: the question was about the old one.
    let state = gui.ok("/api/cursor", r#"{"decision":1}"#);
    assert!(state["analysis"]["probe"].is_null(), "{state}");
    drop(stream);
}

/// A script that runs the real engine, logging every line it is sent.
fn logged_engine(dir: &std::path::Path) -> (String, std::path::PathBuf) {
    let script = dir.join("engine.sh");
    let log = dir.join("sent.log");
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

/// The lines the engine was sent so far.
fn sent(log: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Waits until the engine has been sent `n` `go ponder` lines; returns
/// the reply the last one ponders on (the last word of the `position`
/// before it).
fn wait_ponder(log: &std::path::Path, n: usize) -> String {
    let end = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let lines = sent(log);
        let ponders: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("go ponder "))
            .collect();
        if ponders.len() >= n {
            let at = ponders[n - 1];
            let position = lines[..at]
                .iter()
                .rev()
                .find(|l| l.starts_with("position "))
                .expect("a position before go ponder");
            return position.rsplit(' ').next().unwrap().to_string();
        }
        assert!(
            std::time::Instant::now() < end,
            "no go ponder number {n}: {lines:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// What ended the `n`th ponder: the first `ponderhit`, `stop` or `go`
/// sent after it.
fn ponder_end(log: &std::path::Path, n: usize) -> String {
    let lines = sent(log);
    let at = (0..lines.len())
        .filter(|&i| lines[i].starts_with("go ponder "))
        .nth(n - 1)
        .expect("the ponder");
    lines[at + 1..]
        .iter()
        .find(|l| *l == "ponderhit" || *l == "stop" || l.starts_with("go"))
        .cloned()
        .unwrap_or_default()
}

/// Issue 56: a clock game that asks for it ponders. After its move the
/// engine is sent the game with the reply it expects and `go ponder`
/// with the clocks; the person playing that reply is a `ponderhit`, and
/// the engine's answer is played as its move; another reply is a `stop`,
/// then a `go` for the real game. Off (the default), or without a
/// clock, nothing is pondered.
#[test]
fn a_clock_game_that_asks_for_it_ponders_on_the_persons_time() {
    let dir = temp_dir("ponder");
    let (engine, log) = logged_engine(&dir);
    let gui = Gui::start(&["--seed", "5", "--engine", &engine]);
    gui.wait_for(15, "the engine to start", |s| {
        s["engine"]["status"] == "ready"
    });
    let fen = "k3,3/r2,2/R0,1/n1,1/K0,0 w -/- 0 1";
    let setup = |ponder: bool, clock: bool| {
        let clock = if clock {
            r#","clock":{"base_ms":20000,"inc_ms":0}"#
        } else {
            ""
        };
        gui.ok(
            "/api/setup",
            &format!(r#"{{"position":"{fen}","mode":"white","ponder":{ponder}{clock}}}"#),
        )
    };
    let state = setup(true, true);
    assert_eq!(state["ponder"], true);
    // The person's first move; the engine answers and ponders.
    gui.ok(
        "/api/move",
        &format!(r#"{{"token":"{}"}}"#, legal(&state)[0]),
    );
    let state = gui.wait_for(20, "the engine's move", |s| {
        moves(s).len() == 2 && s["human_turn"] == true
    });
    let expected = wait_ponder(&log, 1);
    assert!(legal(&state).contains(&expected), "{expected}: {state}");
    let go = sent(&log)
        .into_iter()
        .rfind(|l| l.starts_with("go ponder "))
        .unwrap();
    assert!(go.contains("wtime") && go.contains("btime"), "{go}");
    // The reply it expects: a hit, and its answer is its move.
    gui.ok("/api/move", &format!(r#"{{"token":"{expected}"}}"#));
    let state = gui.wait_for(20, "the engine's move after ponderhit", |s| {
        moves(s).len() == 4 || !s["result"].as_str().unwrap_or("*").starts_with('*')
    });
    assert_eq!(ponder_end(&log, 1), "ponderhit", "{:?}", sent(&log));
    if moves(&state).len() < 4 {
        // The game ended on the reply: nothing more to ponder.
        return;
    }
    // Another reply than the one expected: a stop, then a go.
    let expected = wait_ponder(&log, 2);
    let other = legal(&state)
        .into_iter()
        .find(|t| *t != expected)
        .expect("another reply");
    gui.ok("/api/move", &format!(r#"{{"token":"{other}"}}"#));
    gui.wait_for(20, "the engine's move after stop", |s| {
        moves(s).len() == 6 || !s["result"].as_str().unwrap_or("*").starts_with('*')
    });
    assert_eq!(ponder_end(&log, 2), "stop", "{:?}", sent(&log));
    let lines = sent(&log);
    let stop = lines.iter().rposition(|l| l == "stop").unwrap();
    assert!(
        lines[stop..].iter().any(|l| l.starts_with("go wtime")),
        "no go after the stop: {lines:?}"
    );

    // Off, and on without a clock: no ponder after the engine's move.
    // The game before may still be pondering when the next is set up
    // (its last move's ponder is sent just after it), so only what
    // follows the new game's own search counts.
    for (ponder, clock) in [(false, true), (true, false)] {
        let state = setup(ponder, clock);
        gui.ok(
            "/api/move",
            &format!(r#"{{"token":"{}"}}"#, legal(&state)[0]),
        );
        gui.wait_for(20, "the engine's move", |s| {
            moves(s).len() == 2 && s["human_turn"] == true
        });
        std::thread::sleep(Duration::from_millis(500));
        let lines = sent(&log);
        let search = lines
            .iter()
            .rposition(|l| l.starts_with("go ") && !l.starts_with("go ponder"))
            .expect("the engine's search");
        assert!(
            !lines[search..].iter().any(|l| l.starts_with("go ponder")),
            "pondered with ponder {ponder}, clock {clock}: {lines:?}"
        );
    }
}
