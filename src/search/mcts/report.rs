//! The root's statistics as the search reports them: each action's
//! visits, results, proof and line, best first.

use super::proof::Proof;
use super::tree::Tree;
use crate::search::time::Clock;
use crate::search::{Action, ActionStats, Report};
use std::sync::atomic::{AtomicU64, Ordering};

impl Tree {
    /// How a root child ranks before its visits count: a proven win for
    /// the side to move first, the quickest first; a proven loss last,
    /// the slowest first.
    pub(super) fn rank(&self, c: usize) -> u8 {
        let turns = self.turns_through(c).min(Proof::MAX_TURNS);
        match self.nodes[c].proof() {
            Proof::Win => 2 * (Proof::MAX_TURNS + 1) + (Proof::MAX_TURNS - turns),
            Proof::Loss => turns,
            _ => Proof::MAX_TURNS + 1,
        }
    }

    /// The most and second most visits among the root's children.
    pub(super) fn top_two(&self) -> (u64, u64) {
        let mut top = (0, 0);
        for c in self.children(0) {
            let v = self.nodes[c].visits() as u64;
            if v > top.0 {
                top = (v, top.0);
            } else if v > top.1 {
                top.1 = v;
            }
        }
        top
    }

    /// The statistics of the root's children.
    pub(super) fn root_stats(&self) -> Vec<ActionStats> {
        self.children(0)
            .filter_map(|c| {
                let node = self.nodes[c].load();
                let visits = node.visits as f64;
                let draw = self.draw.for_side(node.mover) as f64;
                let wins = node.value - draw * node.draws;
                // The proof and its length from the one load, so that a
                // thread proving the child meanwhile cannot pair one
                // proof with another's length. Counted from the root,
                // the root action's own turn included (a step that mates
                // is 1): what `Proven` asks.
                let turns = node.proof_turns.saturating_add(node.edge.turns());
                Some(ActionStats {
                    action: node.edge.action()?,
                    visits: node.visits as u64,
                    wins,
                    draws: node.draws,
                    losses: (visits - wins - node.draws).max(0.0),
                    pv: self.principal_variation(c),
                    proven: node.proof.proven(turns),
                })
            })
            .collect()
    }

    /// The most visited line below node `n`: after a draw, the most
    /// visited kind's most visited placement.
    pub(super) fn principal_variation(&self, n: usize) -> Vec<Action> {
        let mut pv = Vec::new();
        let mut n = n;
        loop {
            let best = self
                .children(n)
                .filter(|&c| self.nodes[c].visits() > 0)
                .max_by_key(|&c| self.nodes[c].visits());
            let Some(c) = best else { break };
            pv.extend(self.nodes[c].edge().action());
            n = c;
            if pv.len() >= 16 {
                break;
            }
        }
        pv
    }

    /// The report of the tree: the most visited actions first, ties in the
    /// order of the root's actions so that the answer is reproducible.
    pub(super) fn snapshot(&self, plies: &AtomicU64, clock: &Clock) -> Report {
        let ranks: Vec<u8> = self.children(0).map(|c| self.rank(c)).collect();
        let mut actions = self.root_stats();
        let nodes = actions.iter().map(|a| a.visits).sum();
        // A proven win first, a proven loss last, else by visits.
        let mut ranked: Vec<(u8, ActionStats)> = ranks.into_iter().zip(actions.drain(..)).collect();
        ranked.sort_by_key(|(rank, a)| std::cmp::Reverse((*rank, a.visits)));
        let actions: Vec<ActionStats> = ranked.into_iter().map(|(_, a)| a).collect();
        Report {
            actions,
            nodes,
            plies: plies.load(Ordering::Relaxed),
            elapsed: clock.elapsed(),
        }
    }
}
