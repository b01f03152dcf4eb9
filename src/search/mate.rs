//! A proof search for forced mates a few turns deep, exact over every
//! reply and every tile a draw can bring.
//!
//! The tree search proves mates too (its solver), but only once it has
//! opened every reply of a line, and a draw that mates whatever comes
//! needs every kind's line proven. An AND-OR search that looks for
//! nothing else proves short mates in a few thousand moves, since a reply
//! that escapes ends a line at once. It runs at the root before the tree
//! search ([`super::mcts`]), which then holds the proof as its own.
//!
//! A line counts as a mate only as the rules end games: the defender in
//! check with no step and, drawing, no placement of the kind that comes
//! (a kind it could not place out of check is a loss, one it could not
//! place otherwise a stalemate). A line through a third occurrence of a
//! position or past the fifty-move count is a draw, so never a mate.

use super::Action;
use crate::rules::{is_third_occurrence, Kind, Move, MoveList, Pile, Position};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A forced mate: the action that forces it and how many turns it takes,
/// counted as [`super::Proven::Win`] counts them (the mating side's turns
/// and the defender's between them; a mate this turn is 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mate {
    /// The first action of the mate.
    pub action: Action,
    /// Its length in turns.
    pub turns: u8,
}

/// The search ran out of nodes or time before it could answer.
struct OutOfNodes;

/// Moves made between two looks at the clock.
const CLOCK_EVERY: u64 = 256;

/// One proof search: the attacker is the side to move at its root.
struct Prover<'a> {
    pos: Position,
    /// The keys of the positions before this one in the game (since the
    /// last irreversible turn) and along the line searched, for
    /// repetition.
    keys: Vec<u64>,
    nodes: u64,
    limit: u64,
    /// When to give up, if the search has a clock.
    deadline: Option<Instant>,
    /// Set when the search is told to stop: a search that only `stop`
    /// ends (`go infinite`, a ponder) has no deadline, and its `stop`
    /// (or `ponderhit`) must not wait for the prover's last node.
    stop: &'a AtomicBool,
    /// Attacker-to-move positions with no mate within the stored number
    /// of turns, keyed by the position's key and that number. A refutation
    /// that a repetition or the fifty-move count helped may be reused
    /// where neither applies, which can only hide a mate, never claim one.
    refuted: HashSet<(u64, u32)>,
}

impl Prover<'_> {
    /// Counts a move made; an error once the nodes or the time run out.
    fn count(&mut self) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        let late = || {
            self.nodes.is_multiple_of(CLOCK_EVERY)
                && (self.stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|d| Instant::now() >= d))
        };
        if self.nodes > self.limit || late() {
            Err(OutOfNodes)
        } else {
            Ok(())
        }
    }

    /// A third occurrence of this position, just reached.
    fn is_repeated(&self) -> bool {
        is_third_occurrence(&self.keys, self.pos.hash())
    }

    /// How the game stands on reaching this position, the attacker having
    /// moved: `Some(true)` when the defender is mated, `Some(false)` when
    /// the game is drawn, `None` when it goes on. As the rules order
    /// them: a repetition first; a mate with an empty pile before the
    /// fifty-move count; a mate with tiles left only on the draw that
    /// the defender must still make, after it.
    fn ending(&mut self) -> Option<bool> {
        if self.is_repeated() {
            return Some(false);
        }
        let mated = self.is_mated();
        if mated && self.pos.pile(self.pos.side_to_move()).is_empty() {
            return Some(true);
        }
        if self.pos.halfmove_clock() >= 100 {
            return Some(false);
        }
        mated.then_some(true)
    }

    /// The side to move has lost: in check, with no step, and no kind in
    /// its pile can be placed (an empty pile included).
    fn is_mated(&mut self) -> bool {
        if !self.pos.in_check() || self.pos.has_legal_step() {
            return false;
        }
        let pile = self.pos.pile(self.pos.side_to_move());
        let stuck = pile.kinds().all(|k| !self.pos.can_place(k));
        stuck
    }

    /// Plays `mv` for the attacker and answers whether the defender is
    /// then mated, or must allow a mate within `n − 1` more turns of the
    /// attacker's.
    fn forces(&mut self, mv: Move, n: u32) -> Result<bool, OutOfNodes> {
        self.count()?;
        let before = self.pos.hash();
        let undo = self.pos.make(mv);
        self.keys.push(before);
        let result = match self.ending() {
            Some(mated) => Ok(mated),
            None if n <= 1 => Ok(false),
            None => self.every_reply_allows(n - 1),
        };
        self.keys.pop();
        self.pos.unmake(mv, undo);
        result
    }

    /// The defender, to move and not mated, cannot escape a mate within
    /// `n` turns of the attacker's: whatever it steps, draws and places.
    fn every_reply_allows(&mut self, n: u32) -> Result<bool, OutOfNodes> {
        let mut steps = MoveList::new();
        self.pos.generate_steps(&mut steps);
        let pile = self.pos.pile(self.pos.side_to_move());
        if steps.is_empty() && pile.is_empty() {
            return Ok(false); // stalemate
        }
        for &reply in steps.iter() {
            if !self.reply_allows(reply, n)? {
                return Ok(false);
            }
        }
        let in_check = self.pos.in_check();
        for kind in pile.kinds() {
            let mut placements = MoveList::new();
            self.pos.generate_placements(kind, &mut placements);
            if placements.is_empty() && !in_check {
                return Ok(false); // a drawn-tile stalemate
            }
            for &reply in placements.iter() {
                if !self.reply_allows(reply, n)? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    /// The defender's `reply` leaves the attacker a mate within `n` turns.
    fn reply_allows(&mut self, reply: Move, n: u32) -> Result<bool, OutOfNodes> {
        self.count()?;
        let before = self.pos.hash();
        let undo = self.pos.make(reply);
        self.keys.push(before);
        // A reply that draws by the rules escapes.
        let drawn = self.is_repeated() || self.pos.halfmove_clock() >= 100;
        let result = if drawn {
            Ok(false)
        } else {
            self.mates_within(n)
        };
        self.keys.pop();
        self.pos.unmake(reply, undo);
        result
    }

    /// The attacker, to move, can force mate within `n` of its turns: by
    /// a step, or by drawing when every kind that can come has a
    /// placement that does.
    fn mates_within(&mut self, n: u32) -> Result<bool, OutOfNodes> {
        let key = (self.pos.hash(), n);
        if self.refuted.contains(&key) {
            return Ok(false);
        }
        let found = self.first_step(n)?.is_some() || self.draw_forces(n)?;
        if !found {
            self.refuted.insert(key);
        }
        Ok(found)
    }

    /// The first step, checks first, that forces mate within `n` turns.
    /// A mate this turn is a check, so with one turn left only checks
    /// are tried.
    fn first_step(&mut self, n: u32) -> Result<Option<Move>, OutOfNodes> {
        let mut steps = MoveList::new();
        self.pos.generate_steps(&mut steps);
        let (mut checks, mut quiet) = (MoveList::new(), MoveList::new());
        for &mv in steps.iter() {
            self.count()?;
            let undo = self.pos.make(mv);
            let check = self.pos.in_check();
            self.pos.unmake(mv, undo);
            if check {
                checks.push(mv);
            } else if n > 1 {
                quiet.push(mv);
            }
        }
        for &mv in checks.iter().chain(quiet.iter()) {
            if self.forces(mv, n)? {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    /// The first placement of a drawn `kind`, checks first, that forces
    /// mate within `n` turns. With one turn left only checks are tried,
    /// and the rules core generates those alone.
    fn first_placement(&mut self, kind: Kind, n: u32) -> Result<Option<Move>, OutOfNodes> {
        let mut one = Pile::EMPTY;
        one.add(kind);
        let mut checks = MoveList::new();
        self.pos.generate_checking_placements(one, &mut checks);
        for &mv in checks.iter() {
            if self.forces(mv, n)? {
                return Ok(Some(mv));
            }
        }
        if n > 1 {
            let mut placements = MoveList::new();
            self.pos.generate_placements(kind, &mut placements);
            for &mv in placements.iter() {
                if !checks.contains(&mv) && self.forces(mv, n)? {
                    return Ok(Some(mv));
                }
            }
        }
        Ok(None)
    }

    /// Drawing forces mate within `n` turns: the pile is not empty and
    /// every kind in it has a placement that does.
    fn draw_forces(&mut self, n: u32) -> Result<bool, OutOfNodes> {
        let pile = self.pos.pile(self.pos.side_to_move());
        if pile.is_empty() {
            return Ok(false);
        }
        for kind in pile.kinds() {
            if self.first_placement(kind, n)?.is_none() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The root's action that forces mate within `n` turns, if any.
    fn root(&mut self, pending: Option<Kind>, n: u32) -> Result<Option<Action>, OutOfNodes> {
        if let Some(kind) = pending {
            return Ok(self.first_placement(kind, n)?.map(Action::Play));
        }
        if let Some(mv) = self.first_step(n)? {
            return Ok(Some(Action::Play(mv)));
        }
        Ok(self.draw_forces(n)?.then_some(Action::Draw))
    }
}

/// The quickest forced mate of the side to move of `pos` (with a drawn
/// tile of `pending` kind to place, if any) within `max_turns` of its
/// turns, found within `node_limit` moves made and by `deadline`; `None`
/// when there is none that short or the search ran out first. `history` holds the
/// keys of the positions before `pos` since the last irreversible turn
/// (`pos` itself may come last), for repetition.
///
/// Deepening one turn at a time makes the mate found the quickest, and
/// the shallow searches cost little beside the deepest.
pub fn quickest_mate(
    pos: &Position,
    pending: Option<Kind>,
    history: &[u64],
    max_turns: u32,
    node_limit: u64,
    deadline: Option<Instant>,
) -> Option<Mate> {
    let never = AtomicBool::new(false);
    quickest_mate_until(
        pos, pending, history, max_turns, node_limit, deadline, &never,
    )
}

/// [`quickest_mate`], giving up as well once `stop` is set.
pub fn quickest_mate_until(
    pos: &Position,
    pending: Option<Kind>,
    history: &[u64],
    max_turns: u32,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> Option<Mate> {
    let mut keys = history.to_vec();
    if keys.last() == Some(&pos.hash()) {
        keys.pop();
    }
    let mut prover = Prover {
        pos: pos.clone(),
        keys,
        nodes: 0,
        limit: node_limit,
        deadline,
        stop,
        refuted: HashSet::new(),
    };
    for n in 1..=max_turns {
        match prover.root(pending, n) {
            Ok(Some(action)) => {
                return Some(Mate {
                    action,
                    turns: (2 * n - 1) as u8,
                })
            }
            Ok(None) => {}
            Err(OutOfNodes) => return None,
        }
    }
    None
}
