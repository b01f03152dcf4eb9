//! Carrying an iteration's result up its path: the mean results of
//! every node, and in the hybrid search the minimax values (implicit
//! minimax backups, Lanctot, Winands, Pepels and Sturtevant 2014) and
//! the proofs (MCTS-Solver) recomputed from the children.

use super::node::Edge;
use super::outcome::Outcome;
use super::proof::{proof_code, Proof};
use super::tree::Tree;
use crate::search::mate::Mate;
use std::sync::atomic::Ordering::Relaxed;

impl Tree {
    /// Recomputes the minimax value and the proof of node `n` from its
    /// children, if it has any: at a chance node their mean weighted by
    /// the pile, proven only when every kind is proven the same; at a
    /// decision node the best for the side choosing there (the mover of
    /// the children: after a draw the drawer places, so the same side),
    /// won when one child is won, otherwise proven only when every child
    /// is. Returns true when the value or the proof changed.
    ///
    /// Threads may update a node at once, and one may write a value
    /// computed from children another has since changed; the next
    /// iteration through the node mends it.
    pub(super) fn update(&self, n: usize) -> bool {
        let range = self.children(n);
        if range.is_empty() {
            return false;
        }
        let node = &self.nodes[n];
        let before = (node.minimax(), node.proof.load(Relaxed));
        let mover = node.mover();
        let turns = |c: usize| self.turns_through(c);
        // The longest line is the one the loser, or chance, can force.
        let longest = || self.children(n).map(turns).max().unwrap_or(0);
        let (value, proof, proof_turns) = if node.edge() == Edge::Draw {
            let (mut sum, mut total) = (0.0f32, 0.0f32);
            let mut proof = Some(self.nodes[range.start].proof());
            for c in range {
                let child = &self.nodes[c];
                let w = child.weight().max(1) as f32;
                sum += w * child.minimax();
                total += w;
                if proof != Some(child.proof()) {
                    proof = None;
                }
            }
            match proof {
                Some(proof) if proof != Proof::Unknown => (sum / total, proof, longest()),
                _ => (sum / total, Proof::Unknown, 0),
            }
        } else {
            let chooser = self.nodes[range.start].mover();
            let mut best = f32::NEG_INFINITY;
            let mut quickest_win = None;
            let mut all_proven = true;
            let mut best_proof = Proof::Loss;
            for c in range {
                let child = &self.nodes[c];
                best = best.max(child.minimax());
                match child.proof() {
                    Proof::Win => {
                        let t = turns(c);
                        quickest_win = Some(quickest_win.map_or(t, |q: u8| q.min(t)));
                    }
                    Proof::Unknown => all_proven = false,
                    p => best_proof = best_proof.max(p),
                }
            }
            let (proof, proof_turns) = match quickest_win {
                Some(t) => (Proof::Win, t),
                None if all_proven => (best_proof, longest()),
                None => (Proof::Unknown, 0),
            };
            if chooser != mover {
                (1.0 - best, proof.flip(), proof_turns)
            } else {
                (best, proof, proof_turns)
            }
        };
        node.set_minimax(value);
        let code = proof_code(proof, proof_turns);
        node.proof.store(code, Relaxed);
        (value, code) != before
    }

    /// Adds `outcome` to the nodes of `path`, whose visits the descent
    /// has already counted, and in the hybrid search backs their minimax
    /// values and proofs up from the leaf. Returns true when the search
    /// has nothing left to learn ([`Tree::is_solved`]).
    pub(super) fn back_up(&self, path: &[usize], outcome: Outcome) -> bool {
        // The root's own sum is never read, and every thread would write
        // it: it is left out.
        for &i in &path[1..] {
            self.nodes[i].add(outcome);
        }
        if self.hybrid {
            // A node's value and proof follow from its children's alone:
            // once one stays as it was, so do all above it. The leaf was
            // brought up to date when the descent ended there.
            for &i in path.iter().rev().skip(1) {
                if !self.update(i) {
                    break;
                }
            }
        }
        self.is_solved()
    }

    /// The length of child `c`'s proof from its parent: a turn more when
    /// its edge ends one (a step or a placement, not a draw or the kind
    /// that came).
    pub(super) fn turns_through(&self, c: usize) -> u8 {
        let child = &self.nodes[c];
        child.proof_turns().saturating_add(child.edge().turns())
    }

    /// Takes the mate prover's proof of root action `mate.action` as the
    /// solver's own: the child is won, `mate.turns` from the root, and the
    /// root with it. The search never descends into a proven child, so
    /// the proof stands until the tree is dropped.
    pub(super) fn hold_mate(&self, mate: Mate) {
        let Some(c) = self
            .children(0)
            .find(|&c| self.nodes[c].edge().action() == Some(mate.action))
        else {
            return;
        };
        let child = &self.nodes[c];
        let turns = mate.turns.saturating_sub(child.edge().turns());
        child.proof.store(proof_code(Proof::Win, turns), Relaxed);
        child.set_minimax(1.0);
        self.update(0);
    }

    /// Whether no search can improve the answer: the side to move wins
    /// this turn, or every root action is proven. A slower win goes on
    /// searching for a quicker one.
    pub(super) fn is_solved(&self) -> bool {
        // Either way the root is proven; most iterations stop here.
        if self.nodes[0].proof() == Proof::Unknown {
            return false;
        }
        let mut all_proven = true;
        for c in self.children(0) {
            match self.nodes[c].proof() {
                Proof::Win if self.turns_through(c) <= 1 => return true,
                Proof::Unknown => all_proven = false,
                _ => {}
            }
        }
        all_proven && !self.children(0).is_empty()
    }
}
