//! `chex gui`: a local web server and page on which a person plays or
//! watches the engine.
//!
//! The server owns the game (so reloads and second tabs show the same one),
//! deals the piles, and referees every move with the crate's [`Referee`];
//! the page holds no rules and asks the server for the legal moves. The
//! engine runs as a child process spoken to only through protocol.md, by a
//! driver task that restarts it when it crashes or hangs. Changes reach the
//! page as server-sent events: one direction is all the live updates need,
//! and the browser's `EventSource` reconnects by itself.
//!
//! [`Referee`]: crate::referee::Referee

mod engine;
mod idle;
mod state;

pub use crate::protocol::client::Info;
pub use engine::EngineProcess;
pub use state::{EngineStatus, GuiState, Mode, View, MOVETIME_RANGE};

use crate::protocol::client::{bestmove, engine_error, STOP};
use crate::rules::clip;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::Method;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::convert::Infallible;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{watch, Notify};
use tokio::time::{timeout_at, Instant};

/// The page, built into the binary: nothing is fetched at run time.
const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const PAGE_JS: &str = include_str!("page.js");

/// How long past its move time an engine may take before it counts as
/// hung: room for `MoveOverhead`, a busy machine and the pipe.
pub const ANSWER_MARGIN: Duration = Duration::from_secs(3);

/// The largest request body taken; a larger one gets 413 and one line.
/// A saved game is a few kilobytes.
pub const BODY_LIMIT: usize = 2 * 1024 * 1024;

/// After this many failures in a row the engine is paused until the person
/// acts, so that an engine that always fails does not spin.
pub const FAILURES_BEFORE_PAUSE: u32 = 3;

/// The options of `chex gui`.
#[derive(Clone, Debug, clap::Args)]
pub struct GuiOptions {
    /// The port to listen on, on 127.0.0.1 only; 0 takes any free port.
    #[arg(long, default_value_t = 8000)]
    pub port: u16,
    /// The engine command, a program and its arguments split at spaces;
    /// by default this same binary in protocol mode.
    #[arg(long)]
    pub engine: Option<String>,
    /// The seed of the first game's deal; each new game takes the next.
    /// By default one from the clock.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine's time per move at the start, in milliseconds.
    #[arg(long, default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(10..=600_000))]
    pub movetime: u64,
    /// Seconds a connection may pass without a byte either way before it
    /// is closed (half-sent requests, idle keep-alive connections).
    #[arg(long, default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub idle_timeout: u64,
}

/// The end of a failure message while the engine restarts, and once it has.
const RESTARTING: &str = "restarting it";
const RESTARTED: &str = "it was restarted";

/// What the handlers and the driver share.
struct Shared {
    state: Mutex<GuiState>,
    /// Carries the state's version to every open event stream.
    changed: watch::Sender<u64>,
    /// Wakes the engine driver after a change.
    wake: Notify,
    /// The engine command, split.
    command: Vec<String>,
    /// How often an event stream sends a comment to keep its connection
    /// within the idle timeout.
    keep_alive: Duration,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, GuiState> {
        // A panic aborts the process (see the release profile), so a
        // poisoned lock cannot be seen; take it anyway rather than unwrap.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Publishes a change made under `state` and wakes the driver.
    fn publish(&self, state: &mut GuiState) {
        state.touch();
        self.changed.send_replace(state.version);
        self.wake.notify_one();
    }
}

/// `chex gui`: serves until killed. Prints the URL on the first line.
pub fn main(options: GuiOptions) -> std::process::ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the server: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        match bind(options).await {
            Ok((addr, server)) => {
                println!("http://{addr}/");
                let _ = std::io::stdout().flush();
                server.await;
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                std::process::ExitCode::FAILURE
            }
        }
    })
}

/// Binds 127.0.0.1 on the options' port and returns the bound address and
/// the server to await (it also starts the engine driver when awaited).
/// Tests bind port 0 and read the address.
pub async fn bind(options: GuiOptions) -> Result<(SocketAddr, impl Future<Output = ()>), String> {
    let command = match &options.engine {
        Some(cmd) => cmd.split_whitespace().map(str::to_string).collect(),
        None => vec![std::env::current_exe()
            .map_err(|e| format!("cannot find this program to run as the engine: {e}"))?
            .to_string_lossy()
            .into_owned()],
    };
    let command: Vec<String> = command;
    if command.is_empty() {
        return Err("--engine is empty".into());
    }
    let seed = options.seed.unwrap_or_else(clock_seed);
    let idle = Duration::from_secs(options.idle_timeout.max(1));
    let state = GuiState::new(Mode::White, options.movetime, seed, command.join(" "));
    let (changed, _) = watch::channel(0);
    let shared = Arc::new(Shared {
        state: Mutex::new(state),
        changed,
        wake: Notify::new(),
        command,
        keep_alive: (idle / 2).min(Duration::from_secs(15)),
    });
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let app = router(shared.clone());
    let listener = idle::IdleListener {
        inner: listener,
        idle,
    };
    let server = async move {
        tokio::spawn(drive_engine(shared));
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("error: the server stopped: {e}");
        }
    };
    Ok((addr, server))
}

/// A seed from the clock, for a fresh deal each time the GUI starts.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() ^ u64::from(d.subsec_nanos()))
        .unwrap_or(1)
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(PAGE_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/page.css",
            get(|| async { page(PAGE_CSS, "text/css; charset=utf-8") }),
        )
        .route(
            "/page.js",
            get(|| async { page(PAGE_JS, "text/javascript; charset=utf-8") }),
        )
        .route("/api/state", get(get_state))
        .route("/api/events", get(events))
        .route("/api/record", get(get_record))
        .route("/api/move", post(post_move))
        .route("/api/new", post(post_new))
        .route("/api/takeback", post(post_takeback))
        .route("/api/settings", post(post_settings))
        .route("/api/load", post(post_load))
        .route("/api/resume", post(post_resume))
        // The browser asks for it on its own; the page names no icon.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .fallback(|| async { bad(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::from_fn(guard))
        .with_state(shared)
}

/// Keeps other web sites out of the game: a page elsewhere could send
/// simple cross-site POSTs to 127.0.0.1, or reach it through a rebound
/// name. So requests must name this machine as their host, changes must
/// come as JSON (which a browser sends across sites only after a
/// preflight this server never grants) and, when the browser names the
/// page they come from (`Origin`), from this server's own page, as
/// Jupyter checks. A body over [`BODY_LIMIT`] gets 413 and one line.
async fn guard(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = host.rsplit_once(':').map_or(host, |(name, _)| name);
    if !matches!(name, "127.0.0.1" | "localhost" | "[::1]") {
        return refused(format!("host '{}' is not this machine", clip(host)));
    }
    if request.method() == Method::POST {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|h| h.to_str().ok())
            .is_some_and(|t| t.starts_with("application/json"));
        if !json {
            return refused("changes must be sent as application/json".into());
        }
        if let Some(origin) = request.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            if origin.strip_prefix("http://") != Some(host) {
                return bad(
                    StatusCode::FORBIDDEN,
                    format!("origin '{}' is not this page", clip(origin)),
                );
            }
        }
    }
    let too_large = || {
        bad(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {BODY_LIMIT} bytes"),
        )
    };
    let length = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| h.parse::<u64>().ok());
    if length.is_some_and(|n| n > BODY_LIMIT as u64) {
        return too_large();
    }
    // A chunked body has no length to check first: axum stops reading it
    // at the limit and answers 413 in its own words, replaced here.
    let response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large();
    }
    response
}

fn page(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// A refused request: the status and one line saying why.
fn bad(status: StatusCode, why: String) -> Response {
    let line = why.lines().next().unwrap_or("").to_string();
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("error: {line}\n"),
    )
        .into_response()
}

fn refused(why: String) -> Response {
    bad(StatusCode::BAD_REQUEST, why)
}

fn view_response(state: &GuiState) -> Response {
    axum::Json(state.view()).into_response()
}

/// Reads a JSON body, or says in one line why it is not one.
fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, String> {
    serde_json::from_slice(body).map_err(|e| format!("malformed request: {e}"))
}

/// A body as text: axum's own `String` extractor would refuse bytes that
/// are not UTF-8 with a message of its own, not ours.
fn text(body: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(body).map_err(|e| format!("malformed request: not UTF-8: {e}"))
}

/// Applies a change to the game: on success publishes it and answers with
/// the new view; on refusal answers 400 with the reason, the game as it was.
fn change(shared: &Shared, f: impl FnOnce(&mut GuiState) -> Result<(), String>) -> Response {
    let mut state = shared.lock();
    match f(&mut state) {
        Ok(()) => {
            shared.publish(&mut state);
            view_response(&state)
        }
        Err(why) => refused(why),
    }
}

async fn get_state(State(shared): State<Arc<Shared>>) -> Response {
    view_response(&shared.lock())
}

async fn get_record(State(shared): State<Arc<Shared>>) -> Response {
    let line = shared.lock().record();
    (
        [(header::CONTENT_TYPE, "application/json")],
        format!("{line}\n"),
    )
        .into_response()
}

async fn events(
    State(shared): State<Arc<Shared>>,
) -> Sse<impl futures_util::Stream<Item = Result<Event, Infallible>>> {
    let rx = shared.changed.subscribe();
    let shared_keep_alive = shared.keep_alive;
    let stream =
        futures_util::stream::unfold((shared, rx, true), |(shared, mut rx, first)| async move {
            if !first && rx.changed().await.is_err() {
                return None;
            }
            rx.mark_unchanged();
            let json = serde_json::to_string(&shared.lock().view()).unwrap_or_default();
            let event = Event::default().event("state").data(json);
            Some((Ok(event), (shared, rx, false)))
        });
    let keep_alive = KeepAlive::default().interval(shared_keep_alive);
    Sse::new(stream).keep_alive(keep_alive)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    token: String,
}

async fn post_move(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: MoveRequest = parse(&body)?;
        state.human_play(&request.token)
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewRequest {
    mode: Mode,
    movetime: Option<u64>,
    seed: Option<u64>,
}

fn check_movetime(ms: u64) -> Result<u64, String> {
    if MOVETIME_RANGE.contains(&ms) {
        Ok(ms)
    } else {
        Err(format!(
            "movetime {ms} is out of range {}..={} ms",
            MOVETIME_RANGE.start(),
            MOVETIME_RANGE.end()
        ))
    }
}

async fn post_new(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: NewRequest = parse(&body)?;
        let movetime = request.movetime.map(check_movetime).transpose()?;
        state.new_game(request.mode, movetime, request.seed);
        Ok(())
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsRequest {
    movetime: u64,
}

async fn post_settings(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| {
        let request: SettingsRequest = parse(&body)?;
        state.movetime = check_movetime(request.movetime)?;
        Ok(())
    })
}

async fn post_takeback(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, GuiState::take_back)
}

async fn post_load(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    change(&shared, |state| state.load(text(&body)?))
}

async fn post_resume(State(shared): State<Arc<Shared>>) -> Response {
    change(&shared, |state| {
        state.paused = false;
        Ok(())
    })
}

/// A search the driver is to run: for which game, with what command.
struct Job {
    generation: u64,
    moves: usize,
    position: String,
    movetime: u64,
    side: String,
}

/// Why a search gave no move.
enum Failure {
    /// The engine crashed, hung or answered nonsense: restart it.
    Engine(String),
    /// The game changed under the search: just look again.
    Cancelled,
}

/// Runs the engine for as long as the server runs: starts it, asks it for
/// a move whenever it is its turn, applies its answer through the referee,
/// and restarts it after a crash, a hang or an illegal answer.
async fn drive_engine(shared: Arc<Shared>) {
    let mut engine: Option<EngineProcess> = None;
    let mut failures: u32 = 0;
    loop {
        if engine.is_none() {
            let status = if failures == 0 {
                EngineStatus::Starting
            } else {
                EngineStatus::Restarting
            };
            set_status(&shared, status);
            match EngineProcess::start(&shared.command).await {
                Ok(e) => {
                    engine = Some(e);
                    set_status(&shared, EngineStatus::Ready);
                }
                Err(why) => {
                    failures += 1;
                    report_failure(&shared, &why, failures);
                    // Back off, but wake early for a person's action.
                    let pause = Duration::from_millis(500 * u64::from(failures.min(20)));
                    let _ = tokio::time::timeout(pause, shared.wake.notified()).await;
                    continue;
                }
            }
        }
        let Some(running) = engine.as_mut() else {
            continue;
        };
        let job = {
            let mut state = shared.lock();
            if state.engine_to_move() && !state.paused {
                let pos = state.referee.position();
                let side = pos.side_to_move().to_string().to_lowercase();
                let job = Job {
                    generation: state.generation,
                    moves: state.referee.full_tokens().len(),
                    position: state.referee.position_command(),
                    movetime: state.movetime,
                    side,
                };
                state.engine.status = EngineStatus::Thinking;
                state.engine.side = Some(job.side.clone());
                shared.publish(&mut state);
                Some(job)
            } else {
                if state.engine.status == EngineStatus::Thinking {
                    state.engine.status = EngineStatus::Ready;
                    shared.publish(&mut state);
                }
                None
            }
        };
        let Some(job) = job else {
            // Idle: wait for a change, but notice an engine that dies.
            let died = tokio::select! {
                _ = shared.wake.notified() => false,
                line = running.next_line() => line.is_none(),
            };
            if died {
                if let Some(e) = engine.take() {
                    e.kill().await;
                }
                failures += 1;
                report_failure(&shared, "the engine exited while idle", failures);
            }
            continue;
        };
        match search(&shared, running, &job).await {
            Ok(token) => {
                let illegal = {
                    let mut state = shared.lock();
                    if state.generation != job.generation
                        || state.referee.full_tokens().len() != job.moves
                    {
                        continue;
                    }
                    match state.referee.play(&token) {
                        Ok(_) => {
                            failures = 0;
                            state.played(true);
                            state.engine.last_move = Some(token);
                            state.engine.status = EngineStatus::Ready;
                            shared.publish(&mut state);
                            None
                        }
                        Err(why) => Some(why),
                    }
                };
                if let Some(why) = illegal {
                    if let Some(e) = engine.take() {
                        e.kill().await;
                    }
                    failures += 1;
                    report_failure(&shared, &format!("illegal answer: {why}"), failures);
                }
            }
            Err(Failure::Cancelled) => {}
            Err(Failure::Engine(why)) => {
                if let Some(e) = engine.take() {
                    e.kill().await;
                }
                failures += 1;
                report_failure(&shared, &why, failures);
            }
        }
    }
}

/// Shows what the engine does, unless it is paused: a pause lasts until
/// the person acts, whatever the driver does meanwhile.
fn set_status(shared: &Shared, status: EngineStatus) {
    let mut state = shared.lock();
    state.engine.status = if state.paused {
        EngineStatus::Paused
    } else {
        status
    };
    if status == EngineStatus::Ready {
        // The failure stays on the page, now as history.
        state.engine.message = state.engine.message.replace(RESTARTING, RESTARTED);
    }
    shared.publish(&mut state);
}

/// Changes the engine's view and publishes it.
fn set_engine(shared: &Shared, change: impl FnOnce(&mut state::EngineView)) {
    let mut state = shared.lock();
    change(&mut state.engine);
    shared.publish(&mut state);
}

/// Shows a failure on the page; the engine is restarted by the driver,
/// or paused after too many failures in a row.
fn report_failure(shared: &Shared, why: &str, failures: u32) {
    let mut state = shared.lock();
    state.engine.restarts += 1;
    state.engine.message = format!("engine failed: {why}; {RESTARTING}");
    state.engine.status = EngineStatus::Restarting;
    if failures >= FAILURES_BEFORE_PAUSE && state.engine_to_move() {
        state.paused = true;
        state.engine.status = EngineStatus::Paused;
        state.engine.message = format!(
            "engine failed {failures} times in a row (last: {why}); press Resume to try again"
        );
    }
    shared.publish(&mut state);
}

/// Asks the engine for a move in `job`'s game and waits for its
/// `bestmove`, showing its `info` as it comes. Stops the search early when
/// the game changes under it.
async fn search(shared: &Shared, engine: &mut EngineProcess, job: &Job) -> Result<String, Failure> {
    let fail = Failure::Engine;
    engine.send(&job.position).await.map_err(fail)?;
    engine
        .send(&format!("go movetime {}", job.movetime))
        .await
        .map_err(fail)?;
    let mut deadline = Instant::now() + Duration::from_millis(job.movetime) + ANSWER_MARGIN;
    let mut stopping = false;
    loop {
        tokio::select! {
            line = timeout_at(deadline, engine.next_line()) => {
                let line = match line {
                    Err(_) => return Err(Failure::Engine(format!(
                        "no bestmove within {} ms", job.movetime + ANSWER_MARGIN.as_millis() as u64
                    ))),
                    Ok(None) => return Err(Failure::Engine("the engine exited (crashed?)".into())),
                    Ok(Some(line)) => line,
                };
                if let Some(token) = bestmove(&line) {
                    if stopping {
                        return Err(Failure::Cancelled);
                    }
                    return Ok(token.to_string());
                }
                if let Some(info) = Info::parse(&line) {
                    // A forced answer comes with no playouts and so no
                    // estimate: the last real one stays on the page.
                    if !stopping && info.nodes > 0 {
                        set_engine(shared, |e| {
                            e.info = Some(info);
                            e.info_side = Some(job.side.clone());
                        });
                    }
                } else if let Some(err) = engine_error(&line) {
                    return Err(Failure::Engine(format!("the engine said: {err}")));
                }
            }
            _ = shared.wake.notified(), if !stopping => {
                if shared.lock().generation != job.generation {
                    engine.send(STOP).await.map_err(fail)?;
                    stopping = true;
                    deadline = Instant::now() + ANSWER_MARGIN;
                }
            }
        }
    }
}
