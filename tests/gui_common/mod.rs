//! Shared by the GUI tests: start `chex gui` on a free port and speak plain
//! HTTP/1.1 to it over a socket, so that the tests can send requests no
//! well-behaved client would (malformed JSON, bytes that are not UTF-8).

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `chex gui`, killed when dropped.
pub struct Gui {
    child: Child,
    /// `127.0.0.1:port`.
    pub addr: String,
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer: status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The body as JSON; panics with the body when it is not.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

impl Gui {
    /// Starts `chex gui --port 0` with `args` and reads the URL it prints.
    pub fn start(args: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chex"))
            .arg("gui")
            .args(["--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start chex gui");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the URL");
        let addr = line
            .trim()
            .strip_prefix("http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line is not the URL: {line:?}"))
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{addr}");
        Gui { child, addr }
    }

    /// The URL of the page.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Sends one request with a raw body and reads the whole answer.
    pub fn raw(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("send");
        stream.write_all(body).expect("send");
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).expect("read the answer");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let (head, body) = text
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status: {head:?}"));
        Answer {
            status,
            body: body.to_string(),
        }
    }

    /// GET `path`.
    pub fn get(&self, path: &str) -> Answer {
        self.raw("GET", path, b"")
    }

    /// POST `body` to `path`.
    pub fn post(&self, path: &str, body: &str) -> Answer {
        self.raw("POST", path, body.as_bytes())
    }

    /// The state the page would show.
    pub fn state(&self) -> Value {
        let answer = self.get("/api/state");
        assert_eq!(answer.status, 200, "{}", answer.body);
        answer.json()
    }

    /// POSTs and expects success; returns the new state.
    pub fn ok(&self, path: &str, body: &str) -> Value {
        let answer = self.post(path, body);
        assert_eq!(answer.status, 200, "{path} {body}: {}", answer.body);
        answer.json()
    }

    /// Waits until `test` holds for the state, or fails after `secs`.
    pub fn wait_for(&self, secs: u64, what: &str, test: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let state = self.state();
            if test(&state) {
                return state;
            }
            assert!(
                Instant::now() < end,
                "timed out waiting for {what}: {state}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The moves of a state as strings.
pub fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect()
}

/// The legal tokens of a state.
pub fn legal(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|m| m.as_str().expect("a token").to_string())
        .collect()
}

/// What a state says about the game, without the parts that move on their
/// own (version, the engine's view).
pub fn game_of(state: &Value) -> Value {
    let mut game = state.clone();
    let object = game.as_object_mut().expect("an object");
    object.remove("version");
    object.remove("engine");
    game
}
