//! CHEX's random playouts beside cozy-chess's random chess playouts, in
//! one run on one core: the throughput issue's yardstick is CHEX's plies
//! per second over those of a fast chess move generator.
//!
//! Criterion reports plies/s for each side (group `compare`); then a direct
//! timing of both, interleaved so that both see the same machine, prints
//! `ratio chex/cozy-chess plies per second: X.XX`, also under `--quick`.

use arrayvec::ArrayVec;
use chex::bench::{positions, PLAYOUT_CAP};
use chex::rules::Position;
use chex::search::playout::random_playout;
use cozy_chess::{Board, Move, PieceMoves};
use criterion::{criterion_group, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Instant;

/// The seed of `chex bench`'s playouts; both sides use it.
const SEED: u64 = 0xC4E5;

/// CHEX playouts per bench position in one batch.
const CHEX_PLAYOUTS_PER_POSITION: u32 = 10;

/// cozy-chess playouts from the start position in one batch.
const COZY_PLAYOUTS: u32 = 100;

/// Interleaved timings of a batch of each side for the printed ratio; the
/// median of each is taken.
const RATIO_ROUNDS: usize = 25;

/// A batch of CHEX playouts, measured as `chex bench`'s `playout plies/s`
/// is: [`random_playout`] from each bench position, capped at
/// [`PLAYOUT_CAP`] turns, with a ChaCha8Rng seeded as the bench seeds it.
/// The generator is seeded anew for each batch, so every batch plays the
/// same games and its plies are a constant. Returns the plies played.
fn chex_batch(positions: &[Position]) -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut plies = 0;
    for start in positions {
        for _ in 0..CHEX_PLAYOUTS_PER_POSITION {
            let mut pos = start.clone();
            plies += u64::from(random_playout(&mut pos, &mut rng, PLAYOUT_CAP).plies);
        }
    }
    plies
}

/// One random game of chess from the start position; returns its plies.
///
/// Each ply picks uniformly among the legal moves, as CHEX's sampler picks
/// among its options. It ends as CHEX's playouts end: no legal move
/// (checkmate or stalemate), the fifty-move rule, a third occurrence of a
/// position since the playout began, or [`PLAYOUT_CAP`] plies.
///
/// The moves are kept as cozy-chess hands them out, a set of destinations
/// per piece (at most 18 sets), and only the picked one is expanded: the
/// quickest uniform pick the library offers, as CHEX's sampler too avoids
/// listing every move.
fn cozy_playout(rng: &mut ChaCha8Rng) -> u32 {
    let mut board = Board::default();
    // The keys since the last capture or pawn move, where a repetition
    // can be.
    let mut keys: ArrayVec<u64, 101> = ArrayVec::new();
    keys.push(board.hash());
    for ply in 0..PLAYOUT_CAP {
        let mut sets: ArrayVec<PieceMoves, 18> = ArrayVec::new();
        board.generate_moves(|moves| {
            sets.push(moves);
            false
        });
        let count: usize = sets.iter().map(PieceMoves::len).sum();
        if count == 0 {
            return ply;
        }
        board.play_unchecked(nth_move(&sets, rng.gen_range(0..count)));
        if board.halfmove_clock() == 0 {
            keys.clear();
        } else if board.halfmove_clock() >= 100 {
            return ply + 1;
        }
        let key = board.hash();
        if keys.iter().filter(|&&k| k == key).count() >= 2 {
            return ply + 1;
        }
        keys.push(key);
    }
    PLAYOUT_CAP
}

/// The `n`th move of `sets`, counting as [`PieceMoves::len`] does.
fn nth_move(sets: &[PieceMoves], mut n: usize) -> Move {
    for &set in sets {
        if n < set.len() {
            return set.into_iter().nth(n).expect("n < len");
        }
        n -= set.len();
    }
    unreachable!("n is below the number of moves")
}

/// A batch of [`COZY_PLAYOUTS`] cozy-chess playouts, the generator seeded
/// anew as in [`chex_batch`]. Returns the plies played.
fn cozy_batch() -> u64 {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    (0..COZY_PLAYOUTS)
        .map(|_| u64::from(cozy_playout(&mut rng)))
        .sum()
}

/// The criterion group: each function times one batch, its throughput in
/// plies, so criterion reports plies per second.
fn compare(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("compare");
    group.throughput(Throughput::Elements(chex_batch(&positions)));
    group.bench_function("chex_playouts", |b| {
        b.iter(|| chex_batch(black_box(&positions)))
    });
    group.throughput(Throughput::Elements(cozy_batch()));
    group.bench_function("cozy_chess_playouts", |b| b.iter(cozy_batch));
    group.finish();
}

/// Times [`RATIO_ROUNDS`] batches of each side, alternating, and prints
/// the ratio of the median plies per second; criterion keeps its own
/// estimates to itself, so the ratio is measured here.
fn print_ratio() {
    let positions = positions();
    let per_second = |batch: &dyn Fn() -> u64| {
        let t = Instant::now();
        let plies = black_box(batch());
        plies as f64 / t.elapsed().as_secs_f64()
    };
    let (mut chex, mut cozy) = (Vec::new(), Vec::new());
    for _ in 0..RATIO_ROUNDS {
        chex.push(per_second(&|| chex_batch(&positions)));
        cozy.push(per_second(&cozy_batch));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (chex, cozy) = (median(&mut chex), median(&mut cozy));
    println!("chex plies/s: {chex:.0}, cozy-chess plies/s: {cozy:.0}");
    println!("ratio chex/cozy-chess plies per second: {:.2}", chex / cozy);
}

criterion_group!(benches, compare);

/// `criterion_main!`, and then the ratio; not when only listing.
fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if !std::env::args().any(|a| a == "--list") {
        print_ratio();
    }
}
