//! Which child an iteration enters: UCB1 with availability counts
//! (`mean + c·sqrt(ln avail / visits)`, Cowling, Powley and Whitehouse's
//! ISMCTS reading of it) over random playouts, and in the hybrid search
//! the same with the minimax value mixed into the mean.

use super::proof::Proof;
use super::tree::Tree;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::Ordering::Relaxed;

impl Tree {
    /// The child of decision node `n` to descend into in the hybrid
    /// search: the best by `(1 − α)·mean + α·minimax` plus UCB1's
    /// exploration term with availability counts. An unvisited child
    /// counts as visited once, with its judged value as its mean, so that
    /// the children are tried in the order of their values (first-play
    /// urgency); a child proven lost is never chosen while another is
    /// not, nor, at a root already proven, any proven child.
    pub(super) fn select_by_value(&self, n: usize) -> usize {
        let range = self.children(n);
        let avail = self.nodes[n].selections.fetch_add(1, Relaxed) + 1;
        let log_avail = (avail as f64).ln();
        let (c, mix) = (self.exploration, self.mix);
        // A root already proven won looks for a quicker win among the
        // actions not proven yet.
        let proven_root = n == 0 && self.nodes[0].proof() != Proof::Unknown;
        let mut best = (range.start, f64::NEG_INFINITY);
        for i in range {
            let node = &self.nodes[i];
            let proof = node.proof();
            let score = if proof == Proof::Loss || (proven_root && proof != Proof::Unknown) {
                -1.0
            } else {
                let minimax = node.minimax() as f64;
                let visits = node.visits();
                let (mean, visits) = if visits == 0 {
                    (minimax, 1.0)
                } else {
                    (node.mean(), visits as f64)
                };
                (1.0 - mix) * mean + mix * minimax + c * (log_avail / visits).sqrt()
            };
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// The child of decision node `n` to descend into: an unvisited one
    /// at random, else the best by UCB1 with availability counts.
    pub(super) fn select(&self, n: usize, rng: &mut ChaCha8Rng) -> usize {
        let range = self.children(n);
        let avail = self.nodes[n].selections.fetch_add(1, Relaxed) + 1;
        let unvisited = range
            .clone()
            .filter(|&c| self.nodes[c].visits() == 0)
            .count();
        if unvisited > 0 {
            let mut k = rng.gen_range(0..unvisited);
            for c in range.clone() {
                if self.nodes[c].visits() == 0 {
                    if k == 0 {
                        return c;
                    }
                    k -= 1;
                }
            }
        }
        let log_avail = (avail as f64).ln();
        let c = self.exploration;
        let mut best = (range.start, f64::NEG_INFINITY);
        for i in range {
            let node = &self.nodes[i];
            let score = node.mean() + c * (log_avail / node.visits() as f64).sqrt();
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }
}
