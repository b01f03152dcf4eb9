//! The `bench` command: a fixed workload whose node count is a signature of
//! the move generator's behaviour and whose speed any machine can compare,
//! as Stockfish's `bench` is for chess.

use crate::rules::{perft, Position};
use crate::search::eval::Evaluator;
use crate::search::playout::random_playout;
use crate::search::{Engine, Limits, Params, Request};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Mid-game positions reached by random play, one position string a line.
pub const POSITIONS: &str = include_str!("bench_positions.txt");

/// The random playouts started from each bench position by default.
pub const PLAYOUTS_PER_POSITION: u32 = 300;

/// A playout ends at the latest after this many turns.
pub const PLAYOUT_CAP: u32 = 300;

/// The depth of the perft run on each bench position by default.
pub const PERFT_DEPTH: u32 = 3;

/// The search iterations run from each of the [`SEARCH_POSITIONS`] by
/// default.
pub const SEARCH_NODES: u64 = 20_000;

/// The bench positions the search speed is measured on, as indices into
/// [`positions`] (the bench prints them numbered from 1: 1, 3, 4, 5).
/// Not index 1: it holds a forced mate, and once the mate is proven the
/// iterations go where they cost least, which depends on the number of
/// threads: its speed would measure the proof.
pub const SEARCH_POSITIONS: [usize; 4] = [0, 2, 3, 4];

/// What one bench run counted and how long it took.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    /// Perft nodes over all positions: the behaviour signature.
    pub perft_nodes: u64,
    /// Time spent in perft.
    pub perft_time: Duration,
    /// Playouts played.
    pub playouts: u64,
    /// Turns played in all playouts.
    pub playout_plies: u64,
    /// Time spent in playouts.
    pub playout_time: Duration,
}

impl BenchReport {
    /// Perft nodes per second.
    pub fn perft_nps(&self) -> u64 {
        per_second(self.perft_nodes, self.perft_time)
    }

    /// Playout turns per second.
    pub fn plies_per_second(&self) -> u64 {
        per_second(self.playout_plies, self.playout_time)
    }
}

fn per_second(count: u64, time: Duration) -> u64 {
    (count as f64 / time.as_secs_f64().max(1e-9)) as u64
}

/// The bench positions, parsed.
pub fn positions() -> Vec<Position> {
    POSITIONS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.parse().expect("bench positions are valid"))
        .collect()
}

/// Runs the bench on one thread with a fixed seed: perft to `depth` and
/// `playouts` random playouts from each position. `report` is called with
/// a line for each position as it finishes.
pub fn run(depth: u32, playouts: u32, mut report: impl FnMut(String)) -> BenchReport {
    let mut total = BenchReport::default();
    let mut rng = ChaCha8Rng::seed_from_u64(0xC4E5);
    for (i, start) in positions().iter().enumerate() {
        let mut pos = start.clone();
        let t = Instant::now();
        let nodes = perft(&mut pos, depth);
        total.perft_time += t.elapsed();
        total.perft_nodes += nodes;

        let t = Instant::now();
        let mut plies = 0;
        for _ in 0..playouts {
            let mut pos = start.clone();
            plies += random_playout(&mut pos, &mut rng, PLAYOUT_CAP).plies as u64;
        }
        total.playout_time += t.elapsed();
        total.playouts += playouts as u64;
        total.playout_plies += plies;
        report(format!(
            "position {:2}: perft {depth} {nodes:>9} nodes, {playouts} playouts {plies:>7} plies",
            i + 1
        ));
    }
    total
}

/// Search speed: the iterations of a `nodes`-limited search with
/// `params` from each of the [`SEARCH_POSITIONS`], and the time they
/// took.
pub fn search_speed(params: &Params, nodes: u64) -> (u64, Duration) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut iterations = 0;
    let t = Instant::now();
    let positions = positions();
    let engine = Engine::new();
    for pos in SEARCH_POSITIONS.iter().map(|&i| &positions[i]) {
        let mut done = 0;
        engine.search(&Request::new(pos, &limits, params), &stop, &mut |r| {
            done = r.nodes
        });
        iterations += done;
    }
    (iterations, t.elapsed())
}

/// Static evaluation speed: `rounds` evaluations of every bench position
/// by `evaluator`, and the time they took; leaves are judged by such
/// calls, so this is what a learned evaluation must match to be worth
/// its knowledge.
pub fn evaluation_speed(evaluator: &impl Evaluator, rounds: u32) -> (u64, Duration) {
    let positions = positions();
    let t = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for pos in &positions {
            sum += i64::from(evaluator.centipawns(std::hint::black_box(pos)));
        }
    }
    std::hint::black_box(sum);
    (u64::from(rounds) * positions.len() as u64, t.elapsed())
}
