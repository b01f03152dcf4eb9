//! Fitting an evaluation's weights to game results (Texel's method): a
//! logistic regression of each position's result for the side to move on
//! its term counts, the weights in centipawns on the scale of
//! [`LOGISTIC_SCALE`]. `examples/fit_eval.rs` reads the games; this is
//! the arithmetic, kept here so that it is tested.

use crate::search::score::LOGISTIC_SCALE;

/// Positions as rows of term counts, each with the result for its side
/// to move (1, 0.5 or 0).
#[derive(Clone, Debug, Default)]
pub struct Samples {
    /// How many counts a row holds.
    pub dim: usize,
    /// The rows, one after another.
    pub counts: Vec<f32>,
    /// The result of each row.
    pub results: Vec<f32>,
}

impl Samples {
    /// No rows of `dim` counts.
    pub fn new(dim: usize) -> Samples {
        Samples {
            dim,
            ..Samples::default()
        }
    }

    /// Adds a row. The caller gives `dim` counts; extra ones are dropped
    /// and missing ones count 0, so a mistake cannot shift later rows.
    pub fn push(&mut self, counts: &[i32], result: f64) {
        let start = self.counts.len();
        self.counts
            .extend(counts.iter().take(self.dim).map(|&c| c as f32));
        self.counts.resize(start + self.dim, 0.0);
        self.results.push(result as f32);
    }

    /// How many rows there are.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    /// The rows with their results.
    fn rows(&self) -> impl Iterator<Item = (&[f32], f64)> {
        self.counts
            .chunks_exact(self.dim.max(1))
            .zip(self.results.iter().map(|&r| f64::from(r)))
    }

    /// The same rows with only the first `dim` counts each: a smaller
    /// term set on the same positions.
    pub fn truncated(&self, dim: usize) -> Samples {
        let dim = dim.min(self.dim);
        let mut out = Samples::new(dim);
        for (row, result) in self.rows() {
            out.counts.extend_from_slice(&row[..dim]);
            out.results.push(result as f32);
        }
        out
    }
}

/// The log-odds of a win for the side to move of a row by `weights`.
fn logit(row: &[f32], weights: &[f64]) -> f64 {
    row.iter()
        .zip(weights)
        .map(|(&c, w)| f64::from(c) * w)
        .sum::<f64>()
        / LOGISTIC_SCALE
}

/// `ln(1 + e^z)` without overflow.
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// The mean log loss (cross-entropy, in nats) of predicting each row's
/// result by `weights`. A draw, 0.5, costs `ln 2` at best.
pub fn log_loss(samples: &Samples, weights: &[f64]) -> f64 {
    let n = samples.len().max(1) as f64;
    let total: f64 = samples
        .rows()
        .map(|(row, y)| {
            let z = logit(row, weights);
            // −y·ln σ(z) − (1−y)·ln(1−σ(z)) = softplus(z) − y·z.
            softplus(z) - y * z
        })
        .sum();
    total / n
}

/// The weights that minimise the mean log loss plus `l2 / 2` times the
/// sum of the free weights' squares (in centipawns), starting from
/// `start`; the weights where `free` is false keep their start. Newton's
/// method with a backtracking step: the loss is convex, and a few passes
/// settle what plain gradient descent takes thousands for.
pub fn fit(samples: &Samples, start: &[f64], free: &[bool], l2: f64) -> Vec<f64> {
    let dim = samples.dim;
    let mut w: Vec<f64> = (0..dim)
        .map(|i| start.get(i).copied().unwrap_or(0.0))
        .collect();
    let free: Vec<usize> = (0..dim)
        .filter(|&i| free.get(i).copied().unwrap_or(false))
        .collect();
    if free.is_empty() || samples.is_empty() {
        return w;
    }
    let penalised = |w: &[f64]| {
        log_loss(samples, w) + 0.5 * l2 * free.iter().map(|&i| w[i] * w[i]).sum::<f64>()
    };
    let n = samples.len() as f64;
    let k = free.len();
    let mut loss = penalised(&w);
    for _ in 0..50 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![0.0; k * k];
        let mut x = vec![0.0; k];
        for (row, y) in samples.rows() {
            let z = logit(row, &w);
            let p = 1.0 / (1.0 + (-z).exp());
            for (xi, &f) in x.iter_mut().zip(&free) {
                *xi = f64::from(row[f]) / LOGISTIC_SCALE;
            }
            let (g, h) = (p - y, p * (1.0 - p));
            for a in 0..k {
                if x[a] == 0.0 {
                    continue;
                }
                grad[a] += g * x[a];
                let hx = h * x[a];
                for b in 0..=a {
                    hess[a * k + b] += hx * x[b];
                }
            }
        }
        for a in 0..k {
            grad[a] = grad[a] / n + l2 * w[free[a]];
            for b in 0..=a {
                hess[a * k + b] /= n;
                hess[b * k + a] = hess[a * k + b];
            }
            hess[a * k + a] += l2;
        }
        let Some(step) = solve(&hess, &grad, k) else {
            break;
        };
        let slope: f64 = grad.iter().zip(&step).map(|(g, s)| g * s).sum();
        let mut t = 1.0;
        let mut improved = false;
        while t > 1e-6 {
            let mut trial = w.clone();
            for (a, &f) in free.iter().enumerate() {
                trial[f] -= t * step[a];
            }
            let trial_loss = penalised(&trial);
            if trial_loss <= loss - 1e-4 * t * slope {
                let gain = loss - trial_loss;
                w = trial;
                loss = trial_loss;
                improved = gain > 1e-10;
                break;
            }
            t *= 0.5;
        }
        if !improved {
            break;
        }
    }
    w
}

/// `x` with `a·x = b` for the symmetric positive definite `a` (`k` by
/// `k`, by rows): Cholesky's method. `None` when `a` is not positive
/// definite as far as the arithmetic can tell.
fn solve(a: &[f64], b: &[f64], k: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; k * k];
    for i in 0..k {
        for j in 0..=i {
            let s: f64 = (0..j).map(|m| l[i * k + m] * l[j * k + m]).sum();
            if i == j {
                let d = a[i * k + i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i * k + i] = d.sqrt();
            } else {
                l[i * k + j] = (a[i * k + j] - s) / l[j * k + j];
            }
        }
    }
    let mut y = vec![0.0; k];
    for i in 0..k {
        let s: f64 = (0..i).map(|m| l[i * k + m] * y[m]).sum();
        y[i] = (b[i] - s) / l[i * k + i];
    }
    let mut x = vec![0.0; k];
    for i in (0..k).rev() {
        let s: f64 = (i + 1..k).map(|m| l[m * k + i] * x[m]).sum();
        x[i] = (y[i] - s) / l[i * k + i];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_log_loss_of_known_predictions() {
        // One row with a count of 1: weight 0 predicts 50% (ln 2 for any
        // result); weight LOGISTIC_SCALE predicts σ(1) ≈ 0.731.
        let mut s = Samples::new(1);
        s.push(&[1], 1.0);
        assert!((log_loss(&s, &[0.0]) - 2f64.ln()).abs() < 1e-12);
        let p = 1.0 / (1.0 + (-1f64).exp());
        assert!((log_loss(&s, &[LOGISTIC_SCALE]) + p.ln()).abs() < 1e-12);
        s.push(&[1], 0.0);
        let both = -(p.ln() + (1.0 - p).ln()) / 2.0;
        assert!((log_loss(&s, &[LOGISTIC_SCALE]) - both).abs() < 1e-12);
        // Far past any float's reach, the loss is still finite.
        assert!(log_loss(&s, &[1e9]).is_finite());
    }

    #[test]
    fn the_fit_finds_the_weights_that_made_the_results() {
        // Results drawn from known weights (a constant, a strong term, a
        // weak negative one, one that never matters): the fit recovers
        // them, does better than where it started, and leaves a held
        // weight where it was.
        let truth = [30.0, 150.0, -60.0, 0.0];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut s = Samples::new(4);
        for _ in 0..40_000 {
            let counts = [
                1,
                rng.gen_range(-3..=3),
                rng.gen_range(-4..=4),
                rng.gen_range(-2..=2),
            ];
            let z: f64 = counts
                .iter()
                .zip(&truth)
                .map(|(&c, w)| f64::from(c) * w)
                .sum();
            let p = 1.0 / (1.0 + (-z / LOGISTIC_SCALE).exp());
            s.push(&counts, f64::from(u8::from(rng.gen_bool(p))));
        }
        let start = [0.0; 4];
        let w = fit(&s, &start, &[true; 4], 1e-9);
        for (got, want) in w.iter().zip(&truth) {
            assert!((got - want).abs() < 15.0, "{w:?} against {truth:?}");
        }
        assert!(log_loss(&s, &w) < log_loss(&s, &start));
        assert!(log_loss(&s, &w) <= log_loss(&s, &truth));
        let held = fit(
            &s,
            &[0.0, 0.0, 500.0, 0.0],
            &[true, true, false, true],
            1e-9,
        );
        assert_eq!(held[2], 500.0);
        // Only the first two counts: the smaller set on the same rows.
        let two = s.truncated(2);
        assert_eq!((two.dim, two.len()), (2, s.len()));
        assert_eq!(two.counts[2..4], s.counts[4..6]);
    }
}
