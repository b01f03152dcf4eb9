//! The lines of the counting commands, `perft` and `bench`: the protocol
//! runs them as jobs and `chex perft` and `chex bench` print the same
//! lines, so they are written once, here.
//!
//! They stay in the protocol rather than in [`crate::bench`] because the
//! bench's search speed is that of the engine as it plays, with the
//! protocol's default [`Options`](super::options::Options): [`crate::bench`] measures the rules and
//! the search and knows nothing of the protocol.

use crate::rules::Position;
use crate::search::eval::net::Net;
use crate::search::eval::rich::Rich;
use crate::search::eval::{Evaluation, HandMade};
use crate::search::{self, Params};
use std::time::Duration;

/// Prints the divide of `pos` at `depth` (a line per root move, sorted)
/// through `emit` and returns the last line, `Nodes searched: <n>`. The
/// subtrees are counted on `threads` threads.
pub fn perft_lines(
    pos: &Position,
    depth: u32,
    threads: usize,
    mut emit: impl FnMut(&str),
) -> String {
    let divide = || crate::rules::divide(pos, depth);
    // Without a pool of its own (the system refused the threads), the
    // count runs on rayon's global pool: the same count.
    let split = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(divide),
        Err(_) => divide(),
    };
    let mut total = 0;
    for (mv, n) in split {
        emit(&format!("{mv}: {n}"));
        total += n;
    }
    format!("Nodes searched: {total}")
}

/// How many times the bench evaluates each of its positions to time the
/// static evaluations: long enough to be steady, short beside the rest.
const EVALUATION_ROUNDS: u32 = 20_000;

/// `n` things done in `time`, a second.
fn per_second((n, time): (u64, Duration)) -> f64 {
    n as f64 / time.as_secs_f64().max(1e-9)
}

/// Runs the bench, printing through `emit`, and returns the last line,
/// `playout plies/s: <n>`.
pub fn bench_lines(
    depth: u32,
    playouts: u32,
    search_nodes: u64,
    mut emit: impl FnMut(&str),
) -> String {
    let report = crate::bench::run(depth, playouts, |line| emit(&line));
    emit(&format!("perft nodes: {}", report.perft_nodes));
    emit(&format!("perft nodes/s: {}", report.perft_nps()));
    emit(&format!("playouts: {}", report.playouts));
    emit(&format!("playout plies: {}", report.playout_plies));
    if search_nodes > 0 {
        // The engine as it plays with its default options, made
        // reproducible by a fixed seed.
        let threads = search::params::cores();
        let params = |threads| Params {
            threads,
            seed: 0xC4E5,
            ..Params::default()
        };
        let rate = |params: &Params| per_second(crate::bench::search_speed(params, search_nodes));
        let one = rate(&params(1));
        emit(&format!("search iterations/s, 1 thread: {one:.0}"));
        if threads > 1 {
            let many = rate(&params(threads));
            emit(&format!(
                "search iterations/s, {threads} threads: {many:.0} ({:.2}x)",
                many / one
            ));
        }
        let alphabeta = rate(&Params {
            player: crate::search::Player::Alphabeta,
            ..params(1)
        });
        emit(&format!("alphabeta nodes/s, 1 thread: {alphabeta:.0}"));
        // The rich and the plain hand-made evaluations beside the default
        // (the shipped net, which corrects the rich one), at equal
        // settings: an evaluation is kept for what it wins at equal time.
        for (name, evaluation) in [
            ("rich evaluation", Evaluation::Rich),
            ("hand-made evaluation", Evaluation::HandMade),
        ] {
            let other = rate(&Params {
                evaluation,
                ..params(1)
            });
            emit(&format!(
                "search iterations/s, 1 thread, {name}: {other:.0} ({:.2}x)",
                other / one
            ));
        }
        let hand = per_second(crate::bench::evaluation_speed(&HandMade, EVALUATION_ROUNDS));
        let net = per_second(crate::bench::evaluation_speed(
            Net::shipped().as_ref(),
            EVALUATION_ROUNDS,
        ));
        let rich = per_second(crate::bench::evaluation_speed(&Rich, EVALUATION_ROUNDS));
        emit(&format!(
            "static evaluations/s: hand-made {hand:.0}, shipped net {net:.0} ({:.2}x), rich {rich:.0} ({:.2}x)",
            net / hand,
            rich / hand
        ));
    }
    format!("playout plies/s: {}", report.plies_per_second())
}
