//! What every player does at the root of a turn: the actions to choose
//! from, the seed of the search's randomness, the clock it stops by, and
//! how a forced move is searched.

use super::{time, Action, Limits, Params, Request};
use crate::rules::{Kind, MoveList, Position};

/// The choices of the side to move: with a drawn tile of `pending` kind,
/// its legal placements; otherwise its legal piece moves and, while its
/// pile is not empty, "draw".
pub fn root_actions(pos: &Position, pending: Option<Kind>) -> Vec<Action> {
    let mut list = MoveList::new();
    let mut scratch = pos.clone();
    match pending {
        Some(kind) => scratch.generate_placements(kind, &mut list),
        None => scratch.generate_steps(&mut list),
    }
    let mut actions: Vec<Action> = list.into_iter().map(Action::Play).collect();
    if pending.is_none() && !pos.pile(pos.side_to_move()).is_empty() {
        actions.push(Action::Draw);
    }
    actions
}

/// The most root actions a turn can have: every move of the move list's
/// capacity, and "draw".
pub const MAX_ROOT_ACTIONS: usize = crate::rules::MAX_MOVES + 1;

impl<'a> Request<'a> {
    /// A search of `position` with no drawn tile and no history.
    pub fn new(position: &'a Position, limits: &'a Limits, params: &'a Params) -> Request<'a> {
        Request {
            position,
            pending: None,
            history: &[],
            limits,
            params,
            searchmoves: &[],
        }
    }

    /// True when the search may choose `action` at the root:
    /// `searchmoves` is empty or names it.
    pub fn allows(&self, action: Action) -> bool {
        self.searchmoves.is_empty() || self.searchmoves.contains(&action)
    }

    /// The root actions the search chooses from: [`root_actions`] less
    /// those `searchmoves` leaves out.
    pub fn actions(&self) -> Vec<Action> {
        let mut actions = root_actions(self.position, self.pending);
        actions.retain(|&a| self.allows(a));
        actions
    }

    /// The clock every player stops by: the limits for the side to move,
    /// less `MoveOverhead`.
    pub(crate) fn clock(&self) -> time::Clock {
        time::Clock::new(
            self.limits,
            self.position.side_to_move(),
            self.params.move_overhead,
        )
    }

    /// True when no limit but `stop` ends this search.
    pub(crate) fn is_endless(&self) -> bool {
        self.limits
            .is_endless(self.position.side_to_move(), self.params.move_overhead)
    }

    /// True when the search is of a forced move (`actions`, the number of
    /// root actions, is 1) and some limit ends it. Such a search is only
    /// for the score it reports, so it is kept short ([`time::Clock::forced`],
    /// and a small node limit of each player's own): a brief look proves a
    /// quick mate either way or settles an estimate, and any longer is time
    /// taken from the clock for nothing. A search that only `stop` ends is
    /// not cut: the caller is watching it.
    pub(crate) fn is_forced(&self, actions: usize) -> bool {
        actions == 1 && !self.is_endless()
    }

    /// The seed of this search's randomness: the `Seed` option, or a
    /// fresh one each search when it is 0.
    pub(crate) fn seed(&self) -> u64 {
        match self.params.seed {
            0 => rand::random(),
            seed => seed,
        }
    }
}

/// The playouts (iterations) a Monte Carlo player gives a forced move:
/// enough for a tree search to prove a mate of a turn or two after it,
/// and for a mean over random games to mean something, in a small part
/// of a move's time.
pub(crate) const FORCED_PLAYOUTS: u64 = 256;
