//! Criterion benchmarks of the rules core: each measures one thing a user
//! of the engine feels.

use chex::bench::{positions, PLAYOUT_CAP};
use chex::rules::{perft, MoveList, Position};
use chex::search::playout::random_playout;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Legal move generation over the bench's mid-game positions.
fn legal_moves(c: &mut Criterion) {
    let positions = positions();
    let moves: u64 = positions.iter().map(|p| p.legal_moves().len() as u64).sum();
    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("bench_positions", |b| {
        let mut positions = positions.clone();
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for pos in positions.iter_mut() {
                list.clear();
                pos.generate_legal(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.finish();
}

/// Make and unmake of every legal move of the bench positions.
fn make_unmake(c: &mut Criterion) {
    let positions = positions();
    let lists: Vec<MoveList> = positions.iter().map(|p| p.legal_moves()).collect();
    let moves: u64 = lists.iter().map(|l| l.len() as u64).sum();
    let mut group = c.benchmark_group("make_unmake");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("bench_positions", |b| {
        let mut positions = positions.clone();
        b.iter(|| {
            let mut keys = 0u64;
            for (pos, list) in positions.iter_mut().zip(&lists) {
                for &mv in list {
                    let undo = pos.make(mv);
                    keys ^= pos.hash();
                    pos.unmake(mv, undo);
                }
            }
            keys
        })
    });
    group.finish();
}

/// Perft from the start and from a crowded mid-game position.
fn perft_nodes(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, start, depth) in [
        ("startpos_4", Position::startpos(), 4),
        ("midgame_3", positions()[0].clone(), 3),
    ] {
        let nodes = perft(&mut start.clone(), depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            let mut pos = start.clone();
            b.iter(|| perft(&mut pos, depth))
        });
    }
    group.finish();
}

/// Random playouts from the bench positions: the throughput of the
/// search's simulations. Throughput is in playouts; `chex bench` reports
/// the plies.
fn playouts(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("random_playout");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("bench_positions", |b| {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        b.iter_batched_ref(
            || positions.clone(),
            |ps| {
                ps.iter_mut()
                    .map(|p| random_playout(p, &mut rng, PLAYOUT_CAP).plies)
                    .sum::<u32>()
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, legal_moves, make_unmake, perft_nodes, playouts);
criterion_main!(benches);
