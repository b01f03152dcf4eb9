//! Playing below full strength, for people: the `Skill` option. A level
//! below the top caps the search's iterations and then chooses among the
//! root actions at random, each as likely as its value is near the best
//! (a softmax over expected results), so that a weaker level both sees
//! less and errs more often, as Stockfish's `Skill Level` does.

use super::{Action, ActionStats, Limits, Proven, Report};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The full-strength level, the default: no cap and no randomness.
pub const FULL_STRENGTH: u8 = 6;

/// The levels' names, from 1 (a beginner's) to [`FULL_STRENGTH`].
pub const NAMES: [&str; FULL_STRENGTH as usize] = [
    "beginner",
    "novice",
    "casual",
    "club",
    "strong",
    "full strength",
];

/// How a level below full strength plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The most iterations (nodes) a search may take.
    pub nodes: u64,
    /// How far below the best, in expected result, an action may be and
    /// still be chosen about a third as often (the softmax's temperature).
    pub temperature: f64,
}

impl Skill {
    /// The play of `level` (1 to [`FULL_STRENGTH`]), `None` at full
    /// strength. Each level searches four times as much as the one below
    /// and errs half as far.
    pub fn of(level: u8) -> Option<Skill> {
        let below = u32::from(FULL_STRENGTH.checked_sub(level.max(1)).filter(|&b| b > 0)?);
        Some(Skill {
            nodes: 2048 >> (2 * (below - 1)),
            temperature: 0.01 * f64::from(1u32 << (below - 1)),
        })
    }

    /// `limits` with the level's node cap.
    pub fn cap(&self, limits: &Limits) -> Limits {
        Limits {
            nodes: Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes))),
            ..*limits
        }
    }

    /// The action this level plays, given the search's last report and
    /// the randomness of `seed`: each action searched is chosen with
    /// probability proportional to `exp((value − best) / temperature)`.
    /// Actions never visited are not chosen while one is; a proven win
    /// counts as 1, a proven loss as 0.
    pub fn choose(&self, report: &Report, seed: u64) -> Option<Action> {
        let searched: Vec<&ActionStats> = match report.actions.iter().any(|a| a.visits > 0) {
            true => report.actions.iter().filter(|a| a.visits > 0).collect(),
            false => report.actions.iter().collect(),
        };
        let values: Vec<f64> = searched.iter().map(|a| value(a)).collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = values
            .iter()
            .map(|v| ((v - best) / self.temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut pick = ChaCha8Rng::seed_from_u64(seed).gen_range(0.0..total.max(f64::MIN_POSITIVE));
        for (action, weight) in searched.iter().zip(&weights) {
            if pick < *weight {
                return Some(action.action);
            }
            pick -= weight;
        }
        searched.last().map(|a| a.action)
    }
}

/// An action's value for the side to move, 0 to 1.
fn value(stats: &ActionStats) -> f64 {
    match stats.proven {
        Some(Proven::Win { .. }) => 1.0,
        Some(Proven::Loss { .. }) => 0.0,
        Some(Proven::Draw) => 0.5,
        None => stats.value(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Move;
    use crate::rules::Square;
    use std::time::Duration;

    fn stats(x: i32, visits: u64, value: f64) -> ActionStats {
        ActionStats {
            action: Action::Play(Move::Step {
                from: Square::new(0, 0),
                to: Square::new(x, 1),
            }),
            visits,
            wins: value * visits as f64,
            draws: 0.0,
            losses: (1.0 - value) * visits as f64,
            pv: Vec::new(),
            proven: None,
        }
    }

    #[test]
    fn each_level_searches_more_and_errs_less_than_the_one_below() {
        assert_eq!(Skill::of(FULL_STRENGTH), None);
        let levels: Vec<Skill> = (1..FULL_STRENGTH).filter_map(Skill::of).collect();
        assert_eq!(levels.len(), FULL_STRENGTH as usize - 1);
        for pair in levels.windows(2) {
            assert!(pair[1].nodes > pair[0].nodes, "{pair:?}");
            assert!(pair[1].temperature < pair[0].temperature, "{pair:?}");
        }
        assert_eq!(Skill::of(0), Skill::of(1));
    }

    #[test]
    fn better_actions_are_chosen_more_often_and_unsearched_ones_never() {
        let report = Report {
            actions: vec![stats(0, 50, 0.6), stats(1, 30, 0.5), stats(2, 0, 0.9)],
            nodes: 80,
            plies: 0,
            elapsed: Duration::ZERO,
        };
        for level in 1..FULL_STRENGTH {
            let skill = Skill::of(level).unwrap();
            let mut counts = [0; 3];
            for seed in 0..2000 {
                let chosen = skill.choose(&report, seed).unwrap();
                let i = report
                    .actions
                    .iter()
                    .position(|a| a.action == chosen)
                    .unwrap();
                counts[i] += 1;
            }
            assert_eq!(counts[2], 0, "level {level}: an action never searched");
            assert!(counts[0] > counts[1], "level {level}: {counts:?}");
            // exp(-0.1 / T) of the best's share for the worse one.
            let expected = 2000.0 / (1.0 + (0.1 / skill.temperature).exp());
            let sd = (2000.0 * 0.25f64).sqrt();
            assert!(
                (counts[1] as f64 - expected).abs() < 5.0 * sd,
                "level {level}: {counts:?}"
            );
        }
    }
}
