//! Random games: the playouts of Monte Carlo search and the engine's
//! speed benchmark.
//!
//! A turn is picked by the rules' [`Sampler`]: uniformly among the legal
//! moves of the tiles on the table plus one option "draw" (while the pile
//! is not empty), or trying the most valuable captures first. A drawn
//! tile that cannot be placed ends the game as RULES.md section 5 says.

use super::eval::value;
use crate::rules::{is_third_occurrence, Ending, GameEnd, Move, Position, Sampler};
use arrayvec::ArrayVec;
use rand::Rng;

pub use crate::rules::Turn;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The ending, or `None` when the ply cap was reached first.
    pub end: Option<GameEnd>,
    /// Turns played.
    pub plies: u32,
}

/// How a playout chooses its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly at random, "draw" one option beside each piece move.
    Uniform,
    /// The most valuable capture when there is one (ties at random), else
    /// uniformly at random: games that look more like play, at the price
    /// of testing the captures first.
    Captures,
}

impl Policy {
    /// Every policy, in the order the `uci` option lists them.
    pub const ALL: [Policy; 2] = [Policy::Uniform, Policy::Captures];

    /// The option value naming this policy.
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "random",
            Policy::Captures => "captures",
        }
    }
}

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(s: &str) -> Result<Policy, String> {
        Policy::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown playout policy '{s}'"))
    }
}

/// Picks a uniformly random turn for the side to move: "draw" counts as
/// one option beside each legal piece move.
pub fn random_turn(pos: &mut Position, rng: &mut impl Rng) -> Turn {
    turn(pos, rng, Policy::Uniform)
}

/// Picks a turn for the side to move by `policy`.
pub fn turn(pos: &mut Position, rng: &mut impl Rng, policy: Policy) -> Turn {
    turn_by(pos, rng, policy, &mut Sampler::new())
}

/// [`turn`] with `sampler`: a playout picks all its turns with one.
#[inline(always)]
fn turn_by<R: Rng>(pos: &mut Position, rng: &mut R, policy: Policy, sampler: &mut Sampler) -> Turn {
    match policy {
        Policy::Uniform => sampler.uniform_turn(pos, rng),
        Policy::Captures => sampler.turn_trying_first(pos, rng, most_valuable_captures),
    }
}

/// The captures among `candidates` (up to 64 of them), most valuable
/// victim first; a random offset breaks ties without favouring the order
/// of generation.
fn most_valuable_captures<R: Rng>(
    pos: &Position,
    candidates: &[Move],
    rng: &mut R,
) -> impl Iterator<Item = usize> {
    let mut captures: ArrayVec<(i32, usize), 64> = ArrayVec::new();
    for (i, mv) in candidates.iter().enumerate() {
        if let Move::Step { to, .. } = *mv {
            if let Some(victim) = pos.tile_at(to) {
                if captures.is_full() {
                    break;
                }
                captures.push((value(victim.piece.kind) * 64 + rng.gen_range(0..64), i));
            }
        }
    }
    captures.sort_unstable_by_key(|&(v, _)| std::cmp::Reverse(v));
    captures.into_iter().map(|(_, i)| i)
}

/// The keys of the positions since the last irreversible turn, where a
/// repetition is looked for; the fifty-move rule ends a game before more
/// than 101 accumulate.
#[derive(Default)]
struct Keys {
    keys: ArrayVec<u64, 101>,
    /// A bit for the top six bits of each key: nearly every new key has a
    /// bit of its own, and then no key need be read, nor a loop's end
    /// predicted.
    seen: u64,
}

impl Keys {
    fn bit(key: u64) -> u64 {
        1 << (key >> 58)
    }

    fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.seen |= Self::bit(key);
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.seen = 0;
    }

    /// True when the position of `key`, just reached, occurs for the
    /// third time ([`is_third_occurrence`]).
    fn is_third_occurrence(&self, key: u64) -> bool {
        self.seen & Self::bit(key) != 0 && is_third_occurrence(&self.keys, key)
    }
}

/// A uniformly random [`playout`]: the benchmark's workload.
pub fn random_playout(pos: &mut Position, rng: &mut impl Rng, max_plies: u32) -> Playout {
    playout(pos, rng, max_plies, Policy::Uniform)
}

/// Plays turns chosen by `policy` from `pos` until the game ends or
/// `max_plies` turns have been played; `pos` is left at the final
/// position. Repetitions are counted from the playout's start only:
/// earlier history is not known here.
pub fn playout(pos: &mut Position, rng: &mut impl Rng, max_plies: u32, policy: Policy) -> Playout {
    let mut keys = Keys::default();
    keys.push(pos.hash());
    let mut sampler = Sampler::new();
    for plies in 0..max_plies {
        let mv = match turn_by(pos, rng, policy, &mut sampler) {
            Turn::Play(mv) => mv,
            // The turn has tried every option: the ending needs no
            // search again.
            Turn::Stuck(kind) => {
                let end = Some(pos.ending_when_stuck(kind));
                return Playout { end, plies };
            }
            Turn::NoMove => {
                let end = Some(pos.ending_without_moves());
                return Playout { end, plies };
            }
        };
        pos.make(mv);
        if pos.halfmove_clock() == 0 {
            keys.clear();
        }
        if pos.halfmove_clock() >= 100 {
            let end = pos.ending();
            return Playout {
                end,
                plies: plies + 1,
            };
        }
        let key = pos.hash();
        if keys.is_third_occurrence(key) {
            let end = Some(GameEnd {
                winner: None,
                ending: Ending::Repetition,
            });
            return Playout {
                end,
                plies: plies + 1,
            };
        }
        keys.push(key);
    }
    Playout {
        end: None,
        plies: max_plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashMap;

    /// Calls `visit` with each position of `games` random games of up to
    /// 150 turns from the start, and the games' randomness; returns how
    /// many positions it visited.
    fn each_position_of_random_games(
        seed: u64,
        games: usize,
        mut visit: impl FnMut(&mut Position, &mut ChaCha8Rng),
    ) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut positions = 0;
        for _ in 0..games {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                visit(&mut pos, &mut rng);
                positions += 1;
                match random_turn(&mut pos, &mut rng) {
                    Turn::Play(mv) => {
                        pos.make(mv);
                    }
                    _ => break,
                }
            }
        }
        positions
    }

    /// Every option is chosen with its share, within five standard
    /// deviations, and nothing illegal is ever chosen.
    fn check_uniform(position: &str) {
        let pos: Position = position.parse().unwrap();
        let steps: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Step { .. }))
            .collect();
        let options = steps.len() + usize::from(!pos.pile(pos.side_to_move()).is_empty());
        let trials = 400 * options;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut counts: HashMap<Option<Move>, usize> = HashMap::new();
        for _ in 0..trials {
            let turn = random_turn(&mut pos.clone(), &mut rng);
            let key = match turn {
                Turn::Play(mv @ Move::Step { .. }) => Some(mv),
                Turn::Play(mv @ Move::Place { piece, .. }) => {
                    assert!(pos.legal_placements(piece.kind).contains(&mv), "{mv}");
                    None
                }
                Turn::Stuck(kind) => {
                    assert!(pos.legal_placements(kind).is_empty());
                    None
                }
                Turn::NoMove => panic!("{position} has moves"),
            };
            *counts.entry(key).or_default() += 1;
        }
        let p = 1.0 / options as f64;
        let sigma = (trials as f64 * p * (1.0 - p)).sqrt();
        for (key, &n) in &counts {
            if let Some(mv) = key {
                assert!(steps.contains(mv), "{mv} is not legal in {position}");
            }
            let expected = trials as f64 * p;
            assert!(
                (n as f64 - expected).abs() < 5.0 * sigma,
                "{key:?} chosen {n} times, expected {expected:.0} in {position}"
            );
        }
        assert_eq!(counts.len(), options, "every option is chosen");
    }

    #[test]
    fn turns_are_uniform_over_legal_moves_and_draw() {
        for position in crate::bench::POSITIONS.lines().take(6) {
            check_uniform(position);
        }
    }

    /// Where most numbered steps hold nothing, a turn strikes them out until it
    /// lists the rest: still uniform.
    #[test]
    fn turns_are_uniform_where_few_numbered_steps_hold_moves() {
        for position in [
            // 3 steps and "draw".
            "Q-5,6/b-4,5/P-3,4*/K-4,3/R-2,3/P-1,3/p-3,2/r0,2/n-1,1/N0,0/q0,-1/R-1,-2/N-2,-3/p-3,-4* \
             b BBPPPPPP/krbnpppppp 8 13",
            // 5 steps and "draw".
            "p0,3/P-1,2*/P-6,1/P-5,1/q-2,1/b-5,0/K-3,0/p-6,-1/Q-4,-1/B-7,-2/R-4,-2/B-7,-3/p-5,-3*/\
             P-6,-4/k-4,-4/p-3,-4*/p-2,-4* b PPP/np 1 44",
            // 2 steps, and an empty pile.
            "P-6,2*/P0,2/P-5,1/q-2,1/p-1,1*/n-4,0/K-3,0/R-5,-1/b-4,-1/P-6,-2*/P-3,-2/p-7,-3*/\
             p-5,-3*/k-4,-4/p-3,-5*/p-2,-5*/p-3,-6 b P/- 1 54",
        ] {
            check_uniform(position);
        }
    }

    /// `Policy::Captures` takes a most valuable legal capture whenever
    /// there is one, and otherwise a legal turn.
    #[test]
    fn the_captures_policy_takes_the_most_valuable_capture() {
        let mut with_captures = 0;
        each_position_of_random_games(8, 60, |pos, rng| {
            let legal = pos.legal_moves();
            let victim = |mv: &Move| match *mv {
                Move::Step { to, .. } => pos.tile_at(to).map(|t| value(t.piece.kind)),
                Move::Place { .. } => None,
            };
            let best = legal.iter().filter_map(victim).max();
            let turn = turn(&mut pos.clone(), rng, Policy::Captures);
            match (turn, best) {
                (Turn::Play(mv), Some(best)) => {
                    with_captures += 1;
                    assert!(legal.contains(&mv), "{mv} in {pos}");
                    assert_eq!(victim(&mv), Some(best), "{mv} in {pos}");
                }
                (Turn::Play(mv), None) => {
                    let placed = matches!(mv, Move::Place { piece, .. }
                        if pos.legal_placements(piece.kind).contains(&mv));
                    assert!(legal.contains(&mv) || placed, "{mv} in {pos}");
                }
                (_, Some(_)) => panic!("a capture was missed in {pos}"),
                (_, None) => {}
            }
        });
        assert!(with_captures > 500, "{with_captures}");
    }

    /// The filter in front of the keys hides no occurrence: keys that
    /// share its bit are told apart, and a cleared list holds nothing.
    #[test]
    fn keys_count_every_occurrence() {
        let a = 0x0123_4567_89AB_CDEF;
        let (same_bit, other_bit) = (a ^ 1, a ^ 1 << 60);
        let mut keys = Keys::default();
        for key in [a, same_bit, a] {
            keys.push(key);
        }
        assert!(keys.is_third_occurrence(a));
        keys.push(same_bit);
        assert!(keys.is_third_occurrence(same_bit));
        assert!(!keys.is_third_occurrence(other_bit));
        keys.clear();
        assert!(!keys.is_third_occurrence(a));
        keys.push(other_bit);
        keys.push(other_bit);
        assert!(keys.is_third_occurrence(other_bit));
        assert!(!keys.is_third_occurrence(a));
    }

    #[test]
    fn playouts_end_by_the_rules_or_the_cap() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..50 {
            let mut pos = Position::startpos();
            let playout = random_playout(&mut pos, &mut rng, 300);
            match playout.end {
                None => assert_eq!(playout.plies, 300),
                Some(end) => match end.ending {
                    Ending::Checkmate | Ending::Stalemate => {
                        assert!(
                            pos.legal_moves().is_empty() && pos.pile(pos.side_to_move()).is_empty()
                        );
                        assert_eq!(end.winner.is_some(), pos.in_check());
                    }
                    Ending::FiftyMoves => assert!(pos.halfmove_clock() >= 100),
                    Ending::DrawnTileCheckmate(k) | Ending::DrawnTileStalemate(k) => {
                        assert!(pos.legal_placements(k).is_empty());
                        assert_eq!(end.winner.is_some(), pos.in_check());
                    }
                    Ending::Repetition => assert!(pos.halfmove_clock() >= 4),
                },
            }
        }
    }
}
