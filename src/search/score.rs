//! The one score scale of the searches: an expected result for the side
//! to move, in integers from `−WIN` (lost) through 0 (drawn) to `+WIN`
//! (won), with mates counted by their distance and centipawn evaluations
//! mapped onto it by one logistic curve.
//!
//! The curve is `p = 1 / (1 + e^(−cp / LOGISTIC_SCALE))`: a lead of
//! [`LOGISTIC_SCALE`] centipawns is a win probability of `1 / (1 + e^−1)`,
//! about 73%. The score of a probability `p` is `(2p − 1)·WIN`, so that the
//! mean of scores at a chance node is the mean of expected results, as
//! expectimax needs.

/// The score of a won game.
pub const WIN: i32 = 10_000;

/// The deepest a search goes, quiescence included: mates are counted
/// within it.
pub const MAX_PLY: usize = 96;

/// Scores beyond this (either sign) are mates, counted from the root.
pub const MATE_BOUND: i32 = WIN - MAX_PLY as i32;

/// The most a static evaluation may claim: less than any mate.
pub const EVAL_BOUND: i32 = MATE_BOUND - 1;

/// The score, at the root, of mating on ply `ply`: the nearer, the
/// higher.
pub const fn mate_in(ply: usize) -> i32 {
    WIN - ply as i32
}

/// The score, at the root, of being mated on ply `ply`.
pub const fn mated_in(ply: usize) -> i32 {
    -mate_in(ply)
}

/// Centipawns per unit of the logistic curve's exponent: the scale the
/// evaluation's weights were fitted on, and the tree reads its values on.
pub const LOGISTIC_SCALE: f64 = 400.0;

/// The logistic function `1 / (1 + e^−x)`: the probability whose log-odds
/// is `x`. Every conversion between an advantage and an expected result
/// in the crate goes through it.
pub fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The expected result (0 to 1, a draw counting a half) of a lead of `cp`
/// centipawns.
pub fn expected_of_centipawns(cp: f64) -> f64 {
    logistic(cp / LOGISTIC_SCALE)
}

/// A centipawn evaluation on the score scale, kept below any mate.
pub fn from_centipawns(cp: i32) -> i32 {
    let p = expected_of_centipawns(cp as f64);
    ((2.0 * p - 1.0) * WIN as f64)
        .round()
        .clamp(-EVAL_BOUND as f64, EVAL_BOUND as f64) as i32
}

/// The expected result, 0 to 1 (a draw counting a half), that a score
/// stands for.
pub fn expected_result(score: i32) -> f64 {
    (0.5 + 0.5 * score as f64 / WIN as f64).clamp(0.0, 1.0)
}

/// The centipawns that an expected result `p` stands for on the same
/// curve: the inverse of [`expected_of_centipawns`]. A `p` nearer 0 or 1
/// than any evaluation reaches ([`EVAL_BOUND`]: a mate, or a proof)
/// counts as that bound's centipawns, so the answer is always finite.
pub fn centipawns_of_expected(p: f64) -> i32 {
    let bound = expected_result(EVAL_BOUND);
    let p = p.clamp(1.0 - bound, bound);
    (LOGISTIC_SCALE * (p / (1.0 - p)).ln()).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centipawns_go_to_expected_results_and_back() {
        for cp in -2_000..=2_000 {
            assert_eq!(
                centipawns_of_expected(expected_of_centipawns(cp as f64)),
                cp
            );
        }
        // Through the integer scores, within the scores' rounding.
        for cp in (-1_000..=1_000).step_by(7) {
            let back = centipawns_of_expected(expected_result(from_centipawns(cp)));
            assert!((back - cp).abs() <= 1, "{cp} came back as {back}");
        }
        assert_eq!(from_centipawns(0), 0);
        assert_eq!(centipawns_of_expected(0.5), 0);
        // A lead of the scale is e : 1 odds.
        let p = expected_of_centipawns(LOGISTIC_SCALE);
        assert!((p - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-15);
        // Mates and proofs stay finite.
        assert_eq!(
            centipawns_of_expected(1.0),
            centipawns_of_expected(0.999_999)
        );
        assert_eq!(centipawns_of_expected(0.0), -centipawns_of_expected(1.0));
    }

    #[test]
    fn scores_go_to_expected_results_and_back() {
        for score in (-WIN..=WIN).step_by(13) {
            let p = expected_result(score);
            assert_eq!(((2.0 * p - 1.0) * WIN as f64).round() as i32, score);
        }
        assert_eq!(expected_result(WIN), 1.0);
        assert_eq!(expected_result(0), 0.5);
        assert_eq!(expected_result(-WIN), 0.0);
        // An evaluation never reaches a mate.
        assert_eq!(from_centipawns(100_000), EVAL_BOUND);
        assert_eq!(from_centipawns(-100_000), -EVAL_BOUND);
        assert!(mated_in(MAX_PLY) > -MATE_BOUND - 1 && mate_in(1) == WIN - 1);
    }
}
