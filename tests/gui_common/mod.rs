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

    /// The server's process id.
    #[allow(dead_code)] // Only the server tests read it.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The URL of the page.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Sends one request with a raw body and reads the whole answer.
    pub fn raw(&self, method: &str, path: &str, body: &[u8]) -> Answer {
        http(&self.addr, method, path, body)
    }

    /// Sends one request with a chosen content type and host name.
    pub fn raw_with(
        &self,
        method: &str,
        path: &str,
        content_type: &str,
        host: &str,
        body: &[u8],
    ) -> Answer {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
             Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).expect("send");
        stream.write_all(body).expect("send");
        let mut text = String::new();
        stream.read_to_string(&mut text).expect("read");
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        Answer {
            status: head.split_whitespace().nth(1).unwrap().parse().unwrap(),
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

/// Sends one HTTP/1.1 request to `addr` and reads the whole answer (the
/// connection is closed after it).
pub fn http(addr: &str, method: &str, path: &str, body: &[u8]) -> Answer {
    try_http(addr, method, path, body).unwrap_or_else(|e| panic!("{method} {path} on {addr}: {e}"))
}

/// [`http`] that fails with an error instead of a panic, for clean-ups.
pub fn try_http(addr: &str, method: &str, path: &str, body: &[u8]) -> std::io::Result<Answer> {
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(60)))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    // Read by the length the answer gives: chromedriver says
    // `Connection: close` but keeps the socket open a while.
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader.read_line(&mut status_line)?;
    let bad = |what: String| std::io::Error::other(what);
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad(format!("no status: {status_line:?}")))?;
    let (mut length, mut chunked) = (None, false);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
            break;
        }
        let lower = line.to_ascii_lowercase();
        if let Some(n) = lower.strip_prefix("content-length:") {
            length = n.trim().parse::<usize>().ok();
        }
        chunked |= lower.starts_with("transfer-encoding:") && lower.contains("chunked");
    }
    let mut bytes = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let size = usize::from_str_radix(size.trim(), 16)
                .map_err(|e| bad(format!("bad chunk size: {e}")))?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = length {
        bytes.resize(n, 0);
        reader.read_exact(&mut bytes)?;
    } else {
        reader.read_to_end(&mut bytes)?;
    }
    Ok(Answer {
        status,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    })
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
/// own (version, the engine's view, the running turn's time).
pub fn game_of(state: &Value) -> Value {
    let mut game = state.clone();
    let object = game.as_object_mut().expect("an object");
    object.remove("version");
    object.remove("engine");
    // The running turn's time grows by itself; the clocks of finished
    // answers (`clocks_ms`) stay part of the game.
    object.remove("thinking_ms");
    game
}
