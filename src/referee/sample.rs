//! Positions sampled from finished games, each with the game's result:
//! the training data of an evaluation fitted to results (Texel's method,
//! `examples/fit_eval.rs`), written by `chex match --positions`.
//!
//! The sample of a game depends only on its record (the deal seed, the
//! game number and the moves), so a match played on one machine or
//! spread over many gives the same positions.

use super::{GameRecord, RecordError};
use rand::seq::index;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Turns at the start of a game that are never sampled: the first turns
/// only draw and place, and every game looks alike there.
pub const SKIP_PLIES: usize = 4;

/// One sampled position: one line of JSON in a `--positions` file (see
/// protocol.md, "Position samples").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionSample {
    /// The game's number in its match, as in its record.
    pub game: u64,
    /// How many turns of the game were played before this position.
    pub ply: usize,
    /// The position string (RULES.md section 7), side to move included.
    pub position: String,
    /// The game's final result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// What the search of the side to move expected here (0 to 1, a draw
    /// counting a half), when the record says: the value a learned
    /// evaluation is trained on beside the result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
}

impl PositionSample {
    /// The sample as one line of JSON.
    pub fn to_json_line(&self) -> String {
        // Strings and numbers always serialise.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads one line of JSON.
    pub fn from_json_line(line: &str) -> Result<PositionSample, RecordError> {
        serde_json::from_str(line).map_err(|e| RecordError::Json(e.to_string()))
    }
}

impl GameRecord {
    /// Up to `per_game` positions of this game (all of them when 0), in
    /// the order played, each with the game's result. A position is
    /// eligible after the first [`SKIP_PLIES`] turns when the side to
    /// move is not in check (its value there is the check, not the
    /// position); which ones are taken is drawn from the deal seed and
    /// the game number. An unfinished game gives none; a record the
    /// rules core refuses is an error.
    pub fn sample_positions(&self, per_game: usize) -> Result<Vec<PositionSample>, RecordError> {
        if self.white_score().is_none() {
            return Ok(Vec::new());
        }
        let mut referee = GameRecord {
            moves: Vec::new(),
            ..self.clone()
        }
        .referee()?;
        let mut eligible = Vec::new();
        for (ply, token) in self.moves.iter().enumerate() {
            let position = referee.position();
            if ply >= SKIP_PLIES && referee.pending().is_none() && !position.in_check() {
                eligible.push((ply, position.to_string()));
            }
            referee.replay(&[token]).map_err(|e| RecordError::Move {
                index: ply + 1,
                why: e.to_string(),
            })?;
        }
        if per_game > 0 && eligible.len() > per_game {
            let seed = self.seed.unwrap_or(0) ^ self.game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut chosen = index::sample(&mut rng, eligible.len(), per_game).into_vec();
            chosen.sort_unstable();
            eligible = chosen.into_iter().map(|i| eligible[i].clone()).collect();
        }
        Ok(eligible
            .into_iter()
            .map(|(ply, position)| PositionSample {
                game: self.game,
                ply,
                position,
                result: self.result.clone(),
                value: self.values.get(ply).copied().flatten(),
            })
            .collect())
    }
}

/// A data set for training an evaluation: samples split by game into
/// training and validation, each position once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DataSet {
    /// The samples to train on.
    pub training: Vec<PositionSample>,
    /// The samples to measure on: from other games than the training
    /// set's, and no position of the training set among them.
    pub validation: Vec<PositionSample>,
    /// Samples left out as repeats of a position already taken.
    pub repeats: usize,
}

impl DataSet {
    /// Splits `samples` by game, every `valid_every`-th game (by number)
    /// to validation (none when 0), so that no game's positions feed
    /// both sets; then keeps each position (by its key, the same wherever
    /// on the table the group lies) once: its first sample in training,
    /// else its first in validation. A sample whose position does not
    /// parse is an error naming it.
    pub fn split(samples: Vec<PositionSample>, valid_every: u64) -> Result<DataSet, String> {
        let is_validation =
            |s: &PositionSample| valid_every > 0 && s.game.is_multiple_of(valid_every);
        let (validation, training): (Vec<_>, Vec<_>) = samples.into_iter().partition(is_validation);
        let mut seen = std::collections::HashSet::new();
        let mut set = DataSet::default();
        for (samples, into) in [
            (training, &mut set.training),
            (validation, &mut set.validation),
        ] {
            for sample in samples {
                let position: crate::rules::Position = sample
                    .position
                    .parse()
                    .map_err(|e| format!("game {} ply {}: {e}", sample.game, sample.ply))?;
                if seen.insert(position.hash()) {
                    into.push(sample);
                } else {
                    set.repeats += 1;
                }
            }
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::{Deal, Referee, Side};
    use crate::rules::Position;

    /// A game of random legal turns on the deal of `seed`, ended by a
    /// forfeit if the rules did not end it.
    fn game(seed: u64) -> GameRecord {
        let start = Position::startpos();
        let mut referee = Referee::new(start.clone(), Deal::from_seed(&start, seed)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..60 {
            if referee.ending().is_some() {
                break;
            }
            let tokens = referee.legal_tokens();
            let pick = index::sample(&mut rng, tokens.len(), 1).index(0);
            referee.play(&tokens[pick]).unwrap();
        }
        let mut record = GameRecord::from_referee(&referee, Side::default(), Side::default());
        if record.white_score().is_none() {
            record.forfeit(crate::rules::Colour::White, "time".into());
        }
        record.game = 3;
        record.seed = Some(seed);
        record
    }

    #[test]
    fn samples_are_legal_positions_chosen_by_the_record_alone() {
        let record = game(11);
        let all = record.sample_positions(0).unwrap();
        assert!(all.len() > 8, "{}", all.len());
        let some = record.sample_positions(8).unwrap();
        assert_eq!(some.len(), 8);
        assert_eq!(some, record.sample_positions(8).unwrap());
        assert!(some.windows(2).all(|w| w[0].ply < w[1].ply));
        for s in &some {
            assert!(all.contains(s));
            assert!(s.ply >= SKIP_PLIES);
            let p: Position = s.position.parse().unwrap();
            assert!(!p.in_check());
            assert_eq!(s.result, record.result);
            assert_eq!(
                PositionSample::from_json_line(&s.to_json_line()).unwrap(),
                *s
            );
        }
        let mut other = record.clone();
        other.game = 4;
        assert_ne!(other.sample_positions(8).unwrap()[0].game, some[0].game);
        let mut unfinished = record;
        unfinished.result = "*".into();
        assert!(unfinished.sample_positions(8).unwrap().is_empty());
    }

    /// No game feeds both sets, no position is taken twice, and a
    /// position the training set holds is not measured on.
    #[test]
    fn a_data_set_is_split_by_game_and_holds_each_position_once() {
        let sample = |game: u64, position: &str| PositionSample {
            game,
            ply: 5,
            position: position.to_string(),
            result: "1-0".to_string(),
            value: Some(0.5),
        };
        let (a, b) = ("K0,0/P0,1/k0,2 w Q/q 0 9", "K0,0/N0,1/k0,2 w Q/q 0 9");
        // `a` shifted along the table: the same position.
        let a_moved = "K5,5/P5,6/k5,7 w Q/q 0 9";
        let samples = vec![
            sample(1, a),
            sample(2, b),
            sample(3, a_moved),
            sample(4, a),
            sample(8, b),
            sample(12, "K0,0/B0,1/k0,2 w Q/q 0 9"),
        ];
        let set = DataSet::split(samples, 4).unwrap();
        let games = |v: &[PositionSample]| v.iter().map(|s| s.game).collect::<Vec<_>>();
        assert_eq!(games(&set.training), [1, 2]);
        assert_eq!(games(&set.validation), [12]);
        assert_eq!(set.repeats, 3);
        let bad = DataSet::split(vec![sample(1, "K0,0 w")], 4).unwrap_err();
        assert!(bad.contains("game 1 ply 5"), "{bad}");
    }
}
