//! Match statistics from engine 1's point of view: W/D/L, score, Elo with
//! a 95% interval and the SPRT.
//!
//! Games come in pairs on one deal with colours swapped, and the two games
//! of a pair are correlated (a deal that favours White favours each engine
//! once). So the pair is the unit: its score for engine 1 is one of 0, ½,
//! 1, 1½, 2 (the pentanomial), and the variance of the mean score comes
//! from pair scores. This is what fastchess and fishtest do; it gives
//! honest, usually narrower, error bars than counting games as
//! independent. A few pairs say little about their own spread (two pairs
//! scored 1–1 show no variance at all), so until [`MIN_PENTA_PAIRS`] pairs
//! are complete the per-game (trinomial) variance stands in.

use std::collections::BTreeMap;

/// Complete pairs needed before the interval uses the pair variance.
pub const MIN_PENTA_PAIRS: u64 = 10;

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference of an expected score (0 < s < 1); ±∞ at
/// the ends, so a 10–0 match reads as "infinite", not as a number.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// From the mean score.
    pub elo: f64,
    /// The interval's low end.
    pub low: f64,
    /// The interval's high end.
    pub high: f64,
}

impl Estimate {
    /// Half the interval's width, as `±` shows it; infinite when an end
    /// is (a match won or lost outright says nothing finite).
    pub fn error(&self) -> f64 {
        if self.low.is_finite() && self.high.is_finite() {
            (self.high - self.low) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// The outcomes counted so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Engine 1's wins, draws and losses.
    pub wdl: [u64; 3],
    /// Complete pairs by engine 1's pair score: 0, ½, 1, 1½, 2.
    pub penta: [u64; 5],
    /// How many games ended each way (`checkmate`, `time`, …).
    pub endings: BTreeMap<String, u64>,
    /// Pairs with one game counted: pair number → engine 1's score.
    open_pairs: BTreeMap<u64, f64>,
}

/// The total count, mean and variance of values given with their
/// counts (counts may be fractional: see [`Sprt::llr`]).
fn moments(values: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = values.iter().map(|&(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = values.iter().map(|&(v, c)| v * c).sum::<f64>() / n;
    let var = values
        .iter()
        .map(|&(v, c)| c * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// The pentanomial counts as (per-game score, count) pairs, an empty
/// cell counted as `empty`.
fn penta_values(penta: &[u64; 5], empty: f64) -> Vec<(f64, f64)> {
    penta
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, if c == 0 { empty } else { c as f64 }))
        .collect()
}

impl Tally {
    /// Counts a game of pair `pair` that engine 1 scored `score` in (1,
    /// ½ or 0) and that ended as `ending`.
    pub fn add(&mut self, pair: u64, score: f64, ending: &str) {
        let slot = if score >= 1.0 {
            0
        } else if score > 0.0 {
            1
        } else {
            2
        };
        self.wdl[slot] += 1;
        *self.endings.entry(ending.to_string()).or_default() += 1;
        match self.open_pairs.remove(&pair) {
            Some(first) => {
                let index = ((first + score) * 2.0).round() as usize;
                self.penta[index.min(4)] += 1;
            }
            None => {
                self.open_pairs.insert(pair, score);
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Engine 1's points.
    pub fn points(&self) -> f64 {
        self.wdl[0] as f64 + 0.5 * self.wdl[1] as f64
    }

    /// Engine 1's mean score per game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / games as f64)
    }

    /// The share of drawn games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.wdl[1] as f64 / games as f64)
    }

    /// The mean and variance of the per-game score of complete pairs
    /// (each pair's score halved), with the number of pairs.
    fn pair_moments(&self) -> Option<(f64, f64, f64)> {
        moments(&penta_values(&self.penta, 0.0))
    }

    /// The standard error of the mean score per game: from pairs once
    /// [`MIN_PENTA_PAIRS`] are complete, else from games.
    fn standard_error(&self) -> Option<f64> {
        if self.pairs() >= MIN_PENTA_PAIRS {
            let (n, _, var) = self.pair_moments()?;
            return Some((var / n).sqrt());
        }
        let values = [
            (1.0, self.wdl[0] as f64),
            (0.5, self.wdl[1] as f64),
            (0.0, self.wdl[2] as f64),
        ];
        let (n, _, var) = moments(&values)?;
        Some((var / n).sqrt())
    }

    /// Engine 1's Elo advantage with its 95% interval; `None` before the
    /// first game.
    pub fn elo(&self) -> Option<Estimate> {
        let score = self.score()?;
        let se = self.standard_error()?;
        let low = (score - Z95 * se).clamp(0.0, 1.0);
        let high = (score + Z95 * se).clamp(0.0, 1.0);
        Some(Estimate {
            elo: elo_from_score(score),
            low: elo_from_score(low),
            high: elo_from_score(high),
        })
    }
}

/// A sequential probability ratio test: does engine 1 gain `elo1` (H1)
/// or at most `elo0` (H0)? Elo is logistic, as in cutechess and
/// fastchess's `logistic` model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo of H0.
    pub elo0: f64,
    /// The Elo of H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: engine 1 is at least `elo1` stronger (within the
    /// error rates).
    H1,
    /// H0 accepted: engine 1 gains at most `elo0`.
    H0,
    /// Not decided: play on.
    Continue,
}

impl Sprt {
    /// Checks the parameters: elo0 < elo1, alpha and beta in (0, ½).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1, got {elo0} and {elo1}"));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("SPRT {name} must be between 0 and 0.5, got {p}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood-ratio bounds: H0 at or below the first, H1 at
    /// or above the second (Wald's).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalised SPRT's log-likelihood ratio on the pentanomial
    /// pair counts, in its normal approximation (as fastchess and
    /// OpenBench compute it): `N (s1 − s0)(2m − s0 − s1) / (2 var)` with
    /// `N` pairs, `m` and `var` the mean and variance of the pair scores
    /// (halved, per game) and `s0`, `s1` the scores of `elo0`, `elo1`.
    /// As fishtest does, an empty pentanomial cell counts as 0.001 pairs,
    /// so that a one-sided match (every pair 2–0: no variance at all)
    /// still decides. Zero before the first complete pair.
    pub fn llr(&self, tally: &Tally) -> f64 {
        if tally.pairs() == 0 {
            return 0.0;
        }
        let Some((n, mean, var)) = moments(&penta_values(&tally.penta, 1e-3)) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict for `tally`.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// An Elo value for tables: signed, one decimal, `+inf`/`-inf` at the ends.
pub fn show_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Adding zero turns -0.0 into 0.0, which prints as "+0.0".
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(elo_from_score(10.0 / 11.0), 400.0, 1e-9));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for elo in [-300.0, -5.0, 0.0, 42.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(show_elo(f64::INFINITY), "+inf");
        assert_eq!(show_elo(-12.345), "-12.3");
    }

    /// Adds pairs with the given pair scores (in half points: 0..=4).
    fn pairs(halves: &[(u32, u64)]) -> Tally {
        let mut t = Tally::default();
        let mut pair = 0;
        for &(h, count) in halves {
            // Split the pair score into two game scores.
            let (a, b) = match h {
                0 => (0.0, 0.0),
                1 => (0.5, 0.0),
                2 => (1.0, 0.0),
                3 => (1.0, 0.5),
                _ => (1.0, 1.0),
            };
            for _ in 0..count {
                t.add(pair, a, "checkmate");
                t.add(pair, b, "checkmate");
                pair += 1;
            }
        }
        t
    }

    #[test]
    fn pairs_are_counted_as_pentanomial() {
        let mut t = Tally::default();
        t.add(0, 1.0, "checkmate");
        assert_eq!(t.pairs(), 0);
        t.add(7, 0.5, "repetition");
        t.add(0, 0.5, "time");
        assert_eq!(t.penta, [0, 0, 0, 1, 0]);
        assert_eq!(t.wdl, [1, 2, 0]);
        assert_eq!(t.games(), 3);
        assert_eq!(t.points(), 2.0);
        assert_eq!(t.endings["checkmate"], 1);
        assert_eq!(t.endings["time"], 1);
        assert!(close(t.draw_ratio().unwrap(), 2.0 / 3.0, 1e-12));
    }

    #[test]
    fn interval_from_pair_variance() {
        // 10 pairs: 5 at 1½ (0.75 per game), 5 at 1 (0.5): mean 0.625,
        // variance 0.015625, standard error sqrt(0.015625 / 10).
        let t = pairs(&[(3, 5), (2, 5)]);
        let e = t.elo().unwrap();
        let se = (0.015_625f64 / 10.0).sqrt();
        assert!(close(e.elo, elo_from_score(0.625), 1e-9));
        assert!(close(e.low, elo_from_score(0.625 - Z95 * se), 1e-9));
        assert!(close(e.high, elo_from_score(0.625 + Z95 * se), 1e-9));
        assert!(e.low < e.elo && e.elo < e.high);
        // Four times the pairs halve the interval (nearly, on the Elo scale).
        let wide = e.error();
        let narrow = pairs(&[(3, 20), (2, 20)]).elo().unwrap().error();
        assert!(close(narrow / wide, 0.5, 0.02), "{narrow} / {wide}");
        // Ten pairs all 1–1: no spread at all, the interval is a point.
        let even = pairs(&[(2, 10)]).elo().unwrap();
        assert_eq!((even.low, even.elo, even.high), (0.0, 0.0, 0.0));
        // Two such pairs are too few to trust that: the games' spread
        // (two wins, two losses) is used instead.
        let few = pairs(&[(2, 2)]).elo().unwrap();
        let se = (0.25f64 / 4.0).sqrt();
        assert!(close(few.high, elo_from_score(0.5 + Z95 * se), 1e-9));
    }

    #[test]
    fn interval_before_ten_pairs_uses_games() {
        let mut t = Tally::default();
        for (pair, score) in [(0, 1.0), (1, 0.0), (2, 0.5), (3, 0.5)] {
            t.add(pair, score, "checkmate");
        }
        assert_eq!(t.pairs(), 0);
        // Scores 1, 0, ½, ½: mean ½, variance 1/8, se sqrt(1/32).
        let e = t.elo().unwrap();
        let se = (1.0f64 / 32.0).sqrt();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.high, elo_from_score(0.5 + Z95 * se), 1e-9));
        assert!(close(e.low, -e.high, 1e-9));
        // One win and one loss say nothing finite.
        let mut two = Tally::default();
        two.add(0, 1.0, "checkmate");
        two.add(1, 0.0, "checkmate");
        let e = two.elo().unwrap();
        assert_eq!((e.low, e.high), (f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(e.error(), f64::INFINITY);
        assert!(Tally::default().elo().is_none());
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_438_979, 1e-6));
        assert!(close(upper, 2.944_438_979, 1e-6));
        assert_eq!(sprt.verdict(&Tally::default()), Verdict::Continue);

        // A clearly stronger engine 1: H1.
        let strong = pairs(&[(4, 30), (3, 30), (2, 30), (1, 10)]);
        assert!(sprt.llr(&strong) > upper);
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        // The mirror image: H0.
        let weak = pairs(&[(0, 30), (1, 30), (2, 30), (3, 10)]);
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        // Even and few: play on.
        let even = pairs(&[(3, 3), (1, 3), (2, 4)]);
        assert_eq!(sprt.verdict(&even), Verdict::Continue);

        // The LLR by hand: 2 pairs at 0, 2 at ½, 4 at 1, 6 at 1½, 6 at 2
        // (per game 0, ¼, ½, ¾, 1): 20 pairs, mean 13/20 = 0.65,
        // variance 2.05/20 = 0.1025; s0 = ½, s1 = score(10).
        let t = pairs(&[(0, 2), (1, 2), (2, 4), (3, 6), (4, 6)]);
        let s1 = score_from_elo(10.0);
        let want = 20.0 * (s1 - 0.5) * (2.0 * 0.65 - 0.5 - s1) / (2.0 * 0.1025);
        assert!(close(sprt.llr(&t), want, 1e-9), "{} {want}", sprt.llr(&t));

        // Every pair won 2–0: no variance, yet a clear H1 (the empty
        // cells are regularised); and its mirror a clear H0.
        assert_eq!(sprt.verdict(&pairs(&[(4, 2)])), Verdict::H1);
        assert_eq!(sprt.verdict(&pairs(&[(0, 2)])), Verdict::H0);

        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7).is_err());
    }
}
