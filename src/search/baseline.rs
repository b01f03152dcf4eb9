//! The baseline players, against which the search is measured.

use super::eval::value;
use super::Action;
use crate::rules::{Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(seed: u64) -> ChaCha8Rng {
    if seed == 0 {
        ChaCha8Rng::from_entropy()
    } else {
        ChaCha8Rng::seed_from_u64(seed)
    }
}

/// Uniformly random among `actions`, which must not be empty.
pub fn random(actions: &[Action], seed: u64) -> Action {
    actions[rng(seed).gen_range(0..actions.len())]
}

/// The most valuable capture, else a move that gives check, else random.
pub fn greedy(pos: &Position, actions: &[Action], seed: u64) -> Action {
    let mut rng = rng(seed);
    let captured = |action: &Action| match action {
        Action::Play(Move::Step { to, .. }) => pos.tile_at(*to).map(|t| value(t.piece.kind)),
        _ => None,
    };
    let best = actions.iter().filter_map(captured).max();
    if let Some(best) = best {
        let takes: Vec<&Action> = actions
            .iter()
            .filter(|a| captured(a) == Some(best))
            .collect();
        return *takes[rng.gen_range(0..takes.len())];
    }
    let checks: Vec<&Action> = actions
        .iter()
        .filter(|a| match a {
            Action::Play(mv) => {
                let mut after = pos.clone();
                after.make(*mv);
                after.in_check()
            }
            Action::Draw => false,
        })
        .collect();
    if !checks.is_empty() {
        return *checks[rng.gen_range(0..checks.len())];
    }
    random(actions, rng.gen_range(1..u64::MAX))
}
