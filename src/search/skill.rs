//! Playing below full strength, for people: the `Skill` option. A level
//! below the top caps the search's iterations and then chooses among the
//! root actions at random, each as likely as its value is near the best
//! (a softmax over expected results), so that a weaker level both sees
//! less and errs more often, as Stockfish's `Skill Level` does.
//!
//! `UCI_Elo` asks for a strength on the ladder's scale instead
//! ([`Skill::at_elo`]): a level's play at a level's Elo, and between two
//! levels a play between theirs.

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

/// The strength each level scored in the ladder, level 1 first: Elo
/// over `Player random`, at 100 ms a move with one thread and the rich
/// evaluation (then the default; the shipped net is now), each level
/// against the one below and level 1 against random, 40 games a step (80
/// for level 5 over 4 and for full strength over level 5),
/// docs/experiments.md section 12. The sums of the steps, each ±80 to
/// ±112.
pub const LADDER_ELO: [u32; FULL_STRENGTH as usize] = [168, 396, 564, 744, 881, 1174];

/// The levels below full strength, level 1 first. Each searches four
/// times as many iterations as the one below. From level 5 down each
/// errs twice as far as the one above, but level 1, the beginner's,
/// chooses nearly at random among the actions it searched: an action a
/// whole expected result below the best is still chosen a third as
/// often as it, so that a beginner can win against it.
const LEVELS: [Skill; FULL_STRENGTH as usize - 1] = [
    Skill {
        nodes: 8,
        temperature: 1.0,
    },
    Skill {
        nodes: 32,
        temperature: 0.08,
    },
    Skill {
        nodes: 128,
        temperature: 0.04,
    },
    Skill {
        nodes: 512,
        temperature: 0.02,
    },
    Skill {
        nodes: 2048,
        temperature: 0.01,
    },
];

/// What a level 6 on level 5's steps would play: where `UCI_Elo` heads
/// between level 5 and full strength.
const PAST_LEVEL_5: Skill = Skill {
    nodes: 8192,
    temperature: 0.005,
};

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
    /// The play of `level` (1 to [`FULL_STRENGTH`]; 0 counts as 1),
    /// `None` at full strength.
    pub fn of(level: u8) -> Option<Skill> {
        LEVELS.get(usize::from(level.max(1)) - 1).copied()
    }

    /// The play whose strength is `elo` on the ladder's scale
    /// ([`LADDER_ELO`], to which `elo` is clamped): a level's own at its
    /// Elo, `None` (full strength) at the top. Between two levels the node
    /// cap and the temperature go from the lower level's to the higher's
    /// in proportion to the Elo, geometrically; between level 5 and full
    /// strength, towards what a level 6 on level 5's steps would be (8192
    /// nodes, temperature 0.005).
    pub fn at_elo(elo: u32) -> Option<Skill> {
        let top = LADDER_ELO[LADDER_ELO.len() - 1];
        let elo = elo.clamp(LADDER_ELO[0], top);
        let below = LADDER_ELO.iter().rposition(|&e| e <= elo)?;
        let low = Skill::of(below as u8 + 1)?;
        let high = Skill::of(below as u8 + 2).unwrap_or(PAST_LEVEL_5);
        let step = f64::from(elo - LADDER_ELO[below])
            / f64::from(LADDER_ELO[below + 1] - LADDER_ELO[below]);
        let between = |a: f64, b: f64| a * (b / a).powf(step);
        Some(Skill {
            nodes: between(low.nodes as f64, high.nodes as f64).round() as u64,
            temperature: between(low.temperature, high.temperature),
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
        // The beginner's level errs far more than the next: level 2 beat
        // it only 57.5% when it erred twice as far.
        assert!(levels[0].temperature >= 10.0 * levels[1].temperature);
    }

    /// `UCI_Elo` at a level's Elo plays that level; between two levels,
    /// it searches more and errs less the higher it is; at the top and
    /// beyond, full strength; below the bottom, level 1.
    #[test]
    fn an_elo_plays_its_level_or_between_two() {
        for (level, &elo) in (1..=FULL_STRENGTH).zip(&LADDER_ELO) {
            assert_eq!(Skill::at_elo(elo), Skill::of(level), "{elo}");
        }
        assert_eq!(Skill::at_elo(0), Skill::of(1));
        assert_eq!(Skill::at_elo(u32::MAX), None);
        let mut last = Skill::at_elo(LADDER_ELO[0]).unwrap();
        for elo in LADDER_ELO[0] + 1..LADDER_ELO[5] {
            let now = Skill::at_elo(elo).unwrap();
            assert!(
                now.nodes >= last.nodes && now.temperature < last.temperature,
                "{elo}"
            );
            last = now;
        }
        // Halfway from level 1 to level 2 in Elo: twice level 1's nodes.
        let half = Skill::at_elo((LADDER_ELO[0] + LADDER_ELO[1]) / 2).unwrap();
        assert_eq!(half.nodes, 16, "{half:?}");
        let [one, two] = [1, 2].map(|l| Skill::of(l).unwrap().temperature);
        assert!(
            (half.temperature - (one * two).sqrt()).abs() < 0.01,
            "{half:?}"
        );
        assert!(last.nodes <= 8192 && last.temperature >= 0.005, "{last:?}");
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
