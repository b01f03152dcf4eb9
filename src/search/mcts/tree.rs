//! The search tree: one array of nodes shared by the threads without a
//! lock, and how a node is claimed by one thread and opened, its
//! children written and then published to the others.
//!
//! The nodes live in one array, its capacity set by the `Hash` option
//! (MiB), allocated zeroed so that only the part in use is ever faulted
//! in. When a tree is full it stops opening nodes: the iterations go on,
//! descending the tree as it stands and valuing its leaves, so a long
//! `go infinite` keeps refining the statistics it has without growing.

use super::leaf::{self, Actions, Outcomes};
use super::node::{Edge, Node, NodeData, NONE, OPENING};
use super::outcome::DrawValue;
use super::reuse::Reuse;
use crate::rules::{Kind, Position};
use crate::search::{Action, Params, MAX_ROOT_ACTIONS};
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};

/// The search tree, shared by the threads without a lock.
pub struct Tree {
    /// Room for the tree's nodes, allocated zeroed at the start.
    pub(super) nodes: Box<[Node]>,
    /// Nodes in use: the first `len` of `nodes`.
    pub(super) len: AtomicUsize,
    /// The nodes the `Hash` option asked room for (`nodes` may be smaller
    /// if the memory could not be had).
    pub(super) capacity: usize,
    /// What a draw is worth.
    pub(super) draw: DrawValue,
    pub(super) root: Position,
    pub(super) pending: Option<Kind>,
    pub(super) exploration: f64,
    /// The weight of the minimax value against the mean in selection
    /// (hybrid search).
    pub(super) mix: f64,
    /// Leaves are judged by the leaf judge and values backed up by
    /// minimax as well as by mean (the MCTS–minimax hybrid), rather than
    /// played out at random.
    pub(super) hybrid: bool,
    /// The keys of the game's positions since its last irreversible turn,
    /// the root's last.
    pub(super) history: Vec<u64>,
    /// The tree of a ponder search with every root action: the search of
    /// the same position that follows (`ponderhit`) goes on from it whole.
    pub(super) pondered: bool,
}

impl Tree {
    /// An empty tree for the side to move of `root` (with a drawn tile of
    /// `pending` kind, if any), holding at most `capacity` nodes, its root
    /// opened with the actions `only` names (all when empty). It starts
    /// from `kept`'s subtree where the game has gone on along it (its
    /// root cut down to `only` too), else from its fallback's, and takes
    /// `kept`'s node array when it is as large.
    pub fn new(
        root: &Position,
        pending: Option<Kind>,
        history: &[u64],
        only: &[Action],
        params: &Params,
        capacity: usize,
        kept: Reuse,
    ) -> Tree {
        let capacity = capacity.max(1 + MAX_ROOT_ACTIONS);
        let mover = root.side_to_move().opposite();
        let hybrid = leaf::judges_leaves(params);
        let mut tree = Tree {
            nodes: Box::new([]),
            len: AtomicUsize::new(0),
            capacity,
            root: root.clone(),
            pending,
            exploration: if hybrid {
                params.hybrid_exploration
            } else {
                params.exploration
            },
            mix: params.minimax_weight,
            draw: DrawValue::new(params.engine_at(root), params.contempt),
            hybrid,
            history: history.to_vec(),
            pondered: false,
        };
        // After a ponder of this position the whole tree goes on as it
        // stands: copying it node by node would be time on the clock.
        let Reuse {
            tree: kept,
            fallback,
        } = kept;
        let kept = kept.and_then(|old| tree.take_whole(old, only));
        if tree.len.load(Relaxed) == 0 {
            let mut start = kept
                .map(|old| tree.take_over(old, only))
                .unwrap_or_default();
            if let Some(fallback) = fallback.filter(|_| start.is_empty()) {
                start = tree.start_in(fallback, only);
            }
            if tree.nodes.is_empty() {
                tree.nodes = allocate(capacity);
            }
            if start.len() > tree.nodes.len() || start.is_empty() {
                start = vec![NodeData::new(Edge::Root, mover)];
            }
            for (node, data) in tree.nodes.iter().zip(&start) {
                node.store(data);
            }
            tree.len.store(start.len(), Relaxed);
        }
        if tree.nodes[0].first_child.load(Relaxed) == NONE && tree.claim(0) {
            let mut actions = Actions::new();
            let mut pos = root.clone();
            actions.find(&mut pos, pending);
            actions.keep(only);
            if tree.hybrid {
                let mut judge = leaf::judge_for(params, params.engine_at(root));
                actions.judge(&pos, history, &mut judge, tree.draw);
            }
            tree.open(0, &actions);
        }
        tree.update(0);
        tree
    }

    /// Claims node `n`, not yet opened, for the calling thread to open:
    /// false if another thread has claimed or opened it.
    pub(super) fn claim(&self, n: usize) -> bool {
        self.nodes[n]
            .first_child
            .compare_exchange(NONE, OPENING, Acquire, Relaxed)
            .is_ok()
    }

    /// Takes `count` unused nodes together: the index of the first, or
    /// `None` when the tree has no room.
    pub(super) fn allocate(&self, count: usize) -> Option<usize> {
        let mut len = self.len.load(Relaxed);
        loop {
            if count == 0 || len + count > self.nodes.len() {
                return None;
            }
            match self
                .len
                .compare_exchange_weak(len, len + count, Relaxed, Relaxed)
            {
                Ok(_) => return Some(len),
                Err(now) => len = now,
            }
        }
    }

    /// Makes the `count` nodes from `first`, written by the thread that
    /// claimed node `n`, its children, for every thread to see.
    pub(super) fn publish(&self, n: usize, first: usize, count: usize) {
        let node = &self.nodes[n];
        node.children.store(count as u16, Relaxed);
        node.first_child.store(first as u32, Release);
    }

    /// Creates the children of decision node `n`, claimed by the caller,
    /// the actions of a position found by [`Actions::find`]. Without room
    /// for them (or without actions) the node is left unopened. Returns
    /// true when the children were created.
    pub(super) fn open(&self, n: usize, actions: &Actions) -> bool {
        let count = actions.moves.len() + usize::from(actions.draw);
        let Some(first) = self.allocate(count) else {
            self.nodes[n].first_child.store(NONE, Release);
            return false;
        };
        let us = actions.side;
        let edges = actions
            .moves
            .iter()
            .map(|&mv| Edge::Play(mv))
            .chain(actions.draw.then_some(Edge::Draw));
        for (i, edge) in edges.enumerate() {
            self.nodes[first + i].store(&NodeData::new(edge, us));
        }
        if actions.values.len() == count {
            for (i, (&value, &status)) in actions.values.iter().zip(&actions.statuses).enumerate() {
                let child = &self.nodes[first + i];
                child.set_minimax(value);
                child.settle(status, self.draw);
            }
        }
        self.publish(n, first, count);
        true
    }

    /// True when no node can be added.
    pub(super) fn is_full(&self) -> bool {
        self.len.load(Relaxed) >= self.nodes.len()
    }

    /// Creates the chance children of draw node `n`: one per kind in the
    /// pile of the side to move, unless the tree is full or another thread
    /// is opening the node.
    pub(super) fn open_chance(&self, n: usize, pos: &Position) {
        let us = pos.side_to_move();
        let pile = pos.pile(us);
        if !self.claim(n) {
            return;
        }
        let count = pile.kinds().count();
        let Some(first) = self.allocate(count) else {
            self.nodes[n].first_child.store(NONE, Release);
            return;
        };
        for (i, kind) in pile.kinds().enumerate() {
            self.nodes[first + i].store(&NodeData {
                weight: pile.count(kind),
                ..NodeData::new(Edge::Drawn(kind), us)
            });
        }
        self.publish(n, first, count);
    }

    /// Creates the chance children of draw node `n`, claimed by the
    /// caller, from the judged `outcomes` of the draw, unless the tree is
    /// full.
    pub(super) fn open_judged_chance(&self, n: usize, outcomes: &[Outcomes]) {
        let Some(first) = self.allocate(outcomes.len()) else {
            self.nodes[n].first_child.store(NONE, Release);
            return;
        };
        let us = self.nodes[n].mover();
        for (i, &(kind, weight, value, status)) in outcomes.iter().enumerate() {
            let node = &self.nodes[first + i];
            node.store(&NodeData {
                weight,
                minimax: value,
                ..NodeData::new(Edge::Drawn(kind), us)
            });
            node.settle(status, self.draw);
        }
        self.publish(n, first, outcomes.len());
    }

    /// The children of node `n`: none while it is not opened.
    pub(super) fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        let first = node.first_child.load(Acquire);
        if first >= OPENING {
            return 0..0;
        }
        let first = first as usize;
        first..first + node.children.load(Relaxed) as usize
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// True for a tree of the root alone.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }
}

/// Room for `capacity` nodes, zeroed so that the memory is faulted in
/// only as the tree grows; half as much, and so on, when the system will
/// not give that much.
fn allocate(capacity: usize) -> Box<[Node]> {
    let mut size = capacity;
    loop {
        match bytemuck::allocation::try_zeroed_slice_box(size) {
            Ok(nodes) => return nodes,
            Err(()) if size > 1 + MAX_ROOT_ACTIONS => size /= 2,
            // Out of memory for even the root's children.
            Err(()) => return bytemuck::allocation::zeroed_slice_box(size),
        }
    }
}
