//! One thread's iterations. Each is four phases: back to the root; down
//! the tree, choosing children ([`super::select`]) and opening the node
//! where the descent ends ([`super::tree`]); the value of that leaf
//! ([`super::leaf`]); and the result carried up the path
//! ([`super::backup`]).
//!
//! Each node is counted as visited when it is entered: until the result
//! is backed up that visit is a virtual loss (Chaslot, Winands and van
//! den Herik 2008), which steers the other threads to other lines.

use super::leaf::{self, Actions, Outcomes};
use super::node::{Edge, Status, OPENING};
use super::outcome::{DrawValue, Outcome};
use super::proof::Proof;
use super::tree::Tree;
use crate::rules::{is_third_occurrence, Kind, Position};
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::Evaluation;
use crate::search::playout::Policy;
use crate::search::Params;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::Ordering::Acquire;

/// One thread's working state: its randomness and the iteration it is
/// walking (Lc0's search worker, one per thread).
pub struct Walker {
    rng: ChaCha8Rng,
    cap: u32,
    policy: Policy,
    /// The root, its drawn tile and its history, copied so that a
    /// descent starts without reading the tree's.
    root: Position,
    pending: Option<Kind>,
    history: Vec<u64>,
    /// The position of the current iteration.
    pos: Position,
    /// The nodes of the current descent, root first.
    path: Vec<usize>,
    /// The actions of the node being opened: a buffer kept from one
    /// iteration to the next, large as a move list is.
    actions: Box<Actions>,
    /// The tree's history and then the keys of the current descent.
    keys: Vec<u64>,
    /// Turns played in playouts not yet counted in the search's total.
    plies: u64,
    /// The judge of new leaves, when they are searched, not played out.
    judge: Option<LeafJudge<Evaluation>>,
    /// The outcomes of a draw being opened, judged: a buffer.
    outcomes: Vec<Outcomes>,
    /// What a draw is worth, as the tree counts it.
    draw: DrawValue,
}

impl Walker {
    /// A walker for `tree` drawing its randomness from `seed`.
    pub fn new(tree: &Tree, params: &Params, seed: u64) -> Walker {
        Walker {
            rng: ChaCha8Rng::seed_from_u64(seed),
            cap: params.playout_cap,
            policy: params.policy,
            root: tree.root.clone(),
            pending: tree.pending,
            history: tree.history.clone(),
            pos: tree.root.clone(),
            path: Vec::with_capacity(64),
            actions: Box::new(Actions::new()),
            keys: Vec::new(),
            plies: 0,
            judge: tree
                .hybrid
                .then(|| leaf::judge_for(params, params.engine_at(&tree.root))),
            outcomes: Vec::new(),
            draw: tree.draw,
        }
    }

    /// Puts the walker back at the root for the next descent.
    fn reset(&mut self) {
        self.pos.clone_from(&self.root);
        self.keys.clone_from(&self.history);
    }

    /// One iteration: descend, expand, play out, back up. Returns true
    /// when the root's result is proven.
    pub fn iterate(&mut self, tree: &Tree) -> bool {
        self.reset();
        let outcome = match self.descend(tree) {
            Leaf::Ended(outcome) => outcome,
            Leaf::PlayOut(pending) => self.play_out(pending),
        };
        tree.back_up(&self.path, outcome)
    }

    /// The leaf where a descent ends without opening node `n`: in the
    /// hybrid search, the node's value; otherwise a playout from it.
    fn leaf(&self, tree: &Tree, n: usize, pending: Option<Kind>) -> Leaf {
        if tree.hybrid {
            Leaf::Ended(tree.nodes[n].outcome(tree.draw))
        } else {
            Leaf::PlayOut(pending)
        }
    }

    /// Walks from the root (where the walker must stand) to a node never
    /// visited (or the end of the game, or a leaf of a full tree), leaving
    /// the walker's position there.
    ///
    /// Each node is counted as visited when it is entered: until the
    /// result is backed up that visit is a virtual loss, which steers the
    /// other threads to other lines. A node is opened by the one thread
    /// that claims it; to the others it is a leaf until its children are
    /// published.
    fn descend(&mut self, tree: &Tree) -> Leaf {
        self.path.clear();
        self.path.push(0);
        let hybrid = tree.hybrid;
        let mut pending = self.pending;
        let mut n = 0;
        let mut first_visit = false;
        tree.nodes[0].enter();
        loop {
            let node = &tree.nodes[n];
            // A proven node needs no search: its result is backed up. The
            // root goes on while a quicker win may be found.
            if n != 0 && node.proof() != Proof::Unknown {
                return Leaf::Ended(node.outcome(tree.draw));
            }
            // A node reached for the first time: with playouts, play out
            // from here; it is opened when it is passed through. The
            // hybrid search opens it at once, its value the best of its
            // children's.
            if first_visit && !hybrid {
                return Leaf::PlayOut(pending);
            }
            if node.first_child.load(Acquire) >= OPENING {
                // Not opened yet, being opened by another thread, or the
                // tree is full.
                if tree.is_full() || !tree.claim(n) {
                    return self.leaf(tree, n, pending);
                }
                self.actions.find(&mut self.pos, pending);
                if let Some(judge) = self.judge.as_mut() {
                    self.actions.judge(&self.pos, &self.keys, judge, self.draw);
                }
                let opened = tree.open(n, &self.actions);
                if hybrid {
                    tree.update(n);
                    return Leaf::Ended(node.outcome(tree.draw));
                }
                if !opened {
                    return Leaf::PlayOut(pending);
                }
            }
            let child = if hybrid {
                tree.select_by_value(n)
            } else {
                tree.select(n, &mut self.rng)
            };
            let entered = &tree.nodes[child];
            let visits = entered.enter();
            self.path.push(child);
            let status = match entered.edge() {
                Edge::Play(mv) => {
                    pending = None;
                    let known = entered.status();
                    self.pos.make(mv);
                    let repeats = self.repeats_for_the_third_time();
                    let status = match known {
                        Status::Unknown if repeats => Status::Over(None),
                        Status::Unknown => match self.pos.ending() {
                            Some(end) => Status::Over(end.winner),
                            None => Status::Ongoing,
                        },
                        known => known,
                    };
                    entered.settle(status, tree.draw);
                    n = child;
                    first_visit = visits == 0;
                    status
                }
                Edge::Draw => {
                    if entered.first_child.load(Acquire) >= OPENING {
                        if !hybrid {
                            tree.open_chance(child, &self.pos);
                        } else if tree.claim(child) {
                            // The draw's first visit: judge each kind it
                            // can bring, and back up their mean.
                            self.judge_outcomes();
                            tree.open_judged_chance(child, &self.outcomes);
                            tree.update(child);
                            return Leaf::Ended(entered.outcome(tree.draw));
                        } else {
                            // Another thread is judging it.
                            return Leaf::Ended(entered.outcome(tree.draw));
                        }
                    }
                    let pile = self.pos.pile(self.pos.side_to_move());
                    let kind = pile.nth(self.rng.gen_range(0..pile.len()));
                    pending = Some(kind);
                    let Some(drawn) = tree
                        .children(child)
                        .find(|&c| tree.nodes[c].edge() == Edge::Drawn(kind))
                    else {
                        // The tree is full, or another thread is opening
                        // the draw: judge it as it stands.
                        return self.leaf(tree, child, pending);
                    };
                    let outcome = &tree.nodes[drawn];
                    let visits = outcome.enter();
                    self.path.push(drawn);
                    n = drawn;
                    first_visit = visits == 0;
                    if outcome.status() == Status::Unknown {
                        let status = match self.pos.ending_after_draw(kind) {
                            Some(end) => Status::Over(end.winner),
                            None => Status::Ongoing,
                        };
                        outcome.settle(status, tree.draw);
                    }
                    outcome.status()
                }
                // The children of a decision node are all decisions.
                Edge::Root | Edge::Drawn(_) => return self.leaf(tree, n, pending),
            };
            if let Status::Over(winner) = status {
                return Leaf::Ended(Outcome::of(winner, self.draw));
            }
        }
    }

    /// Judges each kind the side to move can draw, into `outcomes`.
    fn judge_outcomes(&mut self) {
        self.outcomes.clear();
        if let Some(judge) = self.judge.as_mut() {
            leaf::judge_outcomes(&self.pos, judge, self.draw, &mut self.outcomes);
        }
    }

    /// A random game from the walker's position, the drawn tile of
    /// `pending` kind placed first at random: how a leaf is valued
    /// without a judge.
    fn play_out(&mut self, pending: Option<Kind>) -> Outcome {
        let playout = leaf::play_out(&mut self.pos, pending, &mut self.rng, self.cap, self.policy);
        self.plies += playout.plies;
        match playout.result {
            Ok(winner) => Outcome::of(winner, self.draw),
            Err(white) => Outcome { white, draw: 0.0 },
        }
    }

    /// The turns played in playouts since the last call, for the
    /// search's total.
    pub(super) fn take_plies(&mut self) -> u64 {
        std::mem::take(&mut self.plies)
    }

    /// Records the walker's position, just reached in the descent, and
    /// tells whether it has now occurred three times. Only positions since
    /// the last irreversible turn can match.
    fn repeats_for_the_third_time(&mut self) -> bool {
        let third = is_third_occurrence(&self.keys, self.pos.hash());
        self.keys.push(self.pos.hash());
        third
    }
}

/// Where a descent ended.
enum Leaf {
    /// At a node to play out from, with a drawn tile of this kind waiting
    /// (if any).
    PlayOut(Option<Kind>),
    /// At the end of the game.
    Ended(Outcome),
}
