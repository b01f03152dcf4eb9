//! Random games for the rules' own tests: positions of every kind, with
//! holes and without, checks and endings among them, where a test
//! compares two ways of answering one question.

use super::{Position, Sampler, Turn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Calls `visit` with each position of `games` games of uniformly random
/// turns, seeded by `seed`, of up to `turns` turns from the start (the
/// start included, the position a game ends in too); returns how many
/// positions it visited.
pub(super) fn each_position_of_random_games(
    seed: u64,
    games: usize,
    turns: usize,
    mut visit: impl FnMut(&mut Position),
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut sampler = Sampler::new();
    let mut positions = 0;
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..turns {
            visit(&mut pos);
            positions += 1;
            let Turn::Play(mv) = sampler.uniform_turn(&mut pos, &mut rng) else {
                break;
            };
            pos.make(mv);
        }
    }
    positions
}
