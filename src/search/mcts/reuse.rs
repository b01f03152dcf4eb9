//! Tree reuse, as in Lc0: the tree of the last search is kept, and when
//! the game has gone on from its root by a turn or two (a move, or a draw
//! and its placement) along nodes it visited, the next search starts from
//! a copy of the subtree there, with all it learned of it. Anything else
//! starts afresh; so does a second search of the same position, which
//! keeps a seeded search reproducible, unless the last search was a
//! ponder of it (`ponderhit`): then the whole tree goes on.
//!
//! A ponder keeps the tree of the search before it too ([`Kept`]): when
//! the opponent does not play the reply pondered, the game has still gone
//! on from that tree's root by a turn or two, and the next search starts
//! from there as it would have without the ponder.
//!
//! The node array is the next tree's in any case: a search that frees its
//! tree before answering, or faults in a new one, spends that time past
//! its deadline when the machine is busy.

use super::node::{Edge, NodeData, NONE};
use super::tree::Tree;
use crate::rules::{Colour, Kind, Position};
use crate::search::Action;
use std::sync::atomic::Ordering::Relaxed;

/// What one tree search leaves the next.
#[derive(Default)]
pub struct Kept {
    /// The last search's tree.
    pub last: Option<Tree>,
    /// The tree of the last search before a ponder, which the search
    /// after a wrong guess starts from; until the next ponder, whose
    /// node array it becomes.
    pub before_ponder: Option<Tree>,
}

/// What a new tree may start from.
#[derive(Default)]
pub struct Reuse<'a> {
    /// The tree to go on from: whole after a ponder of this very
    /// position, else its subtree where the game now stands. Its node
    /// array is taken in any case.
    pub tree: Option<Tree>,
    /// Another tree whose subtree to start from, when `tree` has none.
    pub fallback: Option<&'a Tree>,
}

impl Tree {
    /// Takes what this new tree can use of `old`, the last search's: the
    /// nodes to start from (none when the game has not gone on along
    /// it), its root keeping only the children `only` names (all when
    /// empty), and its node array when it is as large.
    pub(super) fn take_over(&mut self, old: Tree, only: &[Action]) -> Vec<NodeData> {
        let start = self.start_in(&old, only);
        if old.capacity == self.capacity {
            self.nodes = old.nodes;
        }
        start
    }

    /// The nodes to start from that `old` holds: a copy of its subtree
    /// where the game now stands, its root cut down to `only` (none when
    /// the game has not gone on along it).
    pub(super) fn start_in(&self, old: &Tree, only: &[Action]) -> Vec<NodeData> {
        if !old.searches_as(self) {
            return Vec::new();
        }
        let mover = self.root.side_to_move().opposite();
        old.find(&self.root, self.pending)
            .map(|n| old.subtree(n, mover, only))
            .unwrap_or_default()
    }

    /// Takes `old`, the tree of a ponder of this very position, whole and
    /// in place (its node array and all it holds), or gives it back when
    /// it is not that. A second search of the same position otherwise
    /// starts afresh, which keeps a seeded search reproducible.
    pub(super) fn take_whole(&mut self, old: Tree, only: &[Action]) -> Option<Tree> {
        // A search cut down to some actions takes only those (take_over).
        let same = only.is_empty()
            && old.pondered
            && old.searches_as(self)
            && old.pending == self.pending
            && old.root == self.root;
        if !same {
            return Some(old);
        }
        self.len.store(old.len.load(Relaxed), Relaxed);
        self.nodes = old.nodes;
        None
    }

    /// True when this tree's values mean what `other`'s would: the same
    /// search, draws worth the same, room for the same nodes.
    pub(super) fn searches_as(&self, other: &Tree) -> bool {
        self.hybrid == other.hybrid
            && self.exploration == other.exploration
            && self.mix == other.mix
            && self.draw == other.draw
            && self.capacity == other.capacity
    }

    /// The node whose position is `target` (with a drawn tile of
    /// `pending` kind, if any), one or two turns below the root along
    /// visited nodes: where the game now stands, if this tree searched
    /// the position the game stood at a move ago.
    pub(super) fn find(&self, target: &Position, pending: Option<Kind>) -> Option<usize> {
        let mut pos = self.root.clone();
        self.find_below(0, &mut pos, self.pending, 0, target, pending)
    }

    pub(super) fn find_below(
        &self,
        n: usize,
        pos: &mut Position,
        drawn: Option<Kind>,
        turns: u32,
        target: &Position,
        pending: Option<Kind>,
    ) -> Option<usize> {
        let decision = !matches!(self.nodes[n].edge(), Edge::Draw);
        if turns > 0 && decision && drawn == pending && pos.hash() == target.hash() && pos == target
        {
            return Some(n);
        }
        for c in self.children(n) {
            let child = &self.nodes[c];
            if child.visits() == 0 {
                continue;
            }
            let found = match child.edge() {
                Edge::Play(mv) if turns < 2 => {
                    let undo = pos.make(mv);
                    let found = self.find_below(c, pos, None, turns + 1, target, pending);
                    pos.unmake(mv, undo);
                    found
                }
                Edge::Draw => self.find_below(c, pos, None, turns, target, pending),
                Edge::Drawn(kind) => self.find_below(c, pos, Some(kind), turns, target, pending),
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// A copy of the subtree under node `n`, `n` first as the root (the
    /// edge into it chosen by `mover`), each node's children together. Of
    /// the root's children only those `only` names are kept (all when
    /// empty): a search cut down to some actions (`go searchmoves`, a
    /// ponder of the opponent's draw) searches no others.
    pub(super) fn subtree(&self, n: usize, mover: Colour, only: &[Action]) -> Vec<NodeData> {
        let mut nodes = vec![NodeData {
            edge: Edge::Root,
            mover,
            ..self.nodes[n].load()
        }];
        let named = |c: usize| {
            let action = self.nodes[c].edge().action();
            only.is_empty() || action.is_some_and(|a| only.contains(&a))
        };
        let mut queue = std::collections::VecDeque::from([(0, n)]);
        while let Some((new, old)) = queue.pop_front() {
            let first = nodes.len();
            for c in self.children(old) {
                if new == 0 && !named(c) {
                    continue;
                }
                queue.push_back((nodes.len(), c));
                nodes.push(self.nodes[c].load());
            }
            let count = nodes.len() - first;
            nodes[new].first_child = if count == 0 { NONE } else { first as u32 };
            nodes[new].children = count as u16;
        }
        nodes
    }
}
