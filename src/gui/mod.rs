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
//! This file starts the server: the options, binding and serving. The
//! modules depend one way, each only on those listed before it:
//!
//! - `notation` (a colour's word, a token's squares) and `refused` (why a
//!   request is refused, and the range check) depend on nothing here;
//! - `clock` is the clocks' arithmetic; `review` marks a game's
//!   decisions; `study` keeps the hint, the analysis (with the action
//!   asked about in it), the review and the cursor; `verdict` says how an
//!   action asked about compares with the best, in a player's words;
//! - `game` is the game as the referee sees it, with the study requests
//!   that change it (`game::study`);
//! - `view` builds every view the page receives from the game;
//! - `shared` is what the server's tasks share: the game under its lock
//!   and the signals of a change;
//! - `flags` ends games on time; `engine` runs the engine (its process,
//!   the one search loop, the play and study jobs, and the driver);
//!   `http` answers the page (one router per resource).
//!
//! [`Referee`]: crate::referee::Referee

mod clock;
mod engine;
mod flags;
mod game;
mod http;
mod notation;
mod refused;
mod review;
mod shared;
mod study;
mod verdict;
mod view;

pub use crate::protocol::client::Info;
pub use clock::Clock;
pub use engine::{EngineProcess, ANSWER_MARGIN, FAILURES_BEFORE_PAUSE};
pub use game::{EngineStatus, GuiState, Mode, MOVETIME_RANGE};
pub use http::BODY_LIMIT;
pub use view::{ClockView, View};

use shared::Shared;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Notify};

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
        pages: AtomicUsize::new(0),
    });
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", options.port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", options.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let app = http::router(shared.clone());
    let listener = http::IdleListener {
        inner: listener,
        idle,
    };
    let server = async move {
        tokio::spawn(flags::watch_flags(shared.clone()));
        tokio::spawn(engine::drive_engine(shared));
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
