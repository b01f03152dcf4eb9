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

/// Prints the divide of `pos` at `depth` (a line per root move, sorted)
/// through `emit` and returns the last line, `Nodes searched: <n>`.
pub fn perft_lines(pos: &mut Position, depth: u32, mut emit: impl FnMut(&str)) -> String {
    let mut total = 0;
    for (mv, n) in crate::rules::divide(pos, depth) {
        emit(&format!("{mv}: {n}"));
        total += n;
    }
    format!("Nodes searched: {total}")
}

/// How many times the bench evaluates each of its positions to time the
/// static evaluations: long enough to be steady, short beside the rest.
const EVALUATION_ROUNDS: u32 = 20_000;

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
        let (n1, t1) = crate::bench::search_speed(&params(1), search_nodes);
        let one = n1 as f64 / t1.as_secs_f64().max(1e-9);
        emit(&format!("search iterations/s, 1 thread: {one:.0}"));
        if threads > 1 {
            let (n, t) = crate::bench::search_speed(&params(threads), search_nodes);
            let many = n as f64 / t.as_secs_f64().max(1e-9);
            emit(&format!(
                "search iterations/s, {threads} threads: {many:.0} ({:.2}x)",
                many / one
            ));
        }
        let alphabeta = Params {
            player: crate::search::Player::Alphabeta,
            ..params(1)
        };
        let (n, t) = crate::bench::search_speed(&alphabeta, search_nodes);
        let nps = n as f64 / t.as_secs_f64().max(1e-9);
        emit(&format!("alphabeta nodes/s, 1 thread: {nps:.0}"));
        // The shipped net and the plain hand-made evaluation beside the
        // default (rich), at equal settings: an evaluation is kept for
        // what it wins at equal time.
        let net = Params {
            evaluation: Evaluation::Net(Net::shipped()),
            ..params(1)
        };
        let (n, t) = crate::bench::search_speed(&net, search_nodes);
        let with_net = n as f64 / t.as_secs_f64().max(1e-9);
        emit(&format!(
            "search iterations/s, 1 thread, shipped net: {with_net:.0} ({:.2}x)",
            with_net / one
        ));
        let hand = Params {
            evaluation: Evaluation::HandMade,
            ..params(1)
        };
        let (n, t) = crate::bench::search_speed(&hand, search_nodes);
        let with_hand = n as f64 / t.as_secs_f64().max(1e-9);
        emit(&format!(
            "search iterations/s, 1 thread, hand-made evaluation: {with_hand:.0} ({:.2}x)",
            with_hand / one
        ));
        let per_second = |(n, t): (u64, std::time::Duration)| n as f64 / t.as_secs_f64().max(1e-9);
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
