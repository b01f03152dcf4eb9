//! Move ordering: which action a node searches first, so that the best
//! is likely tried early and the rest cut off.
//!
//! At a decision node: the transposition table's best action, then
//! captures by victim (the cheapest attacker first among equal victims),
//! then the two killers, then "draw", then the quiet moves in the order
//! generated. Placements go nearest the enemy king first; the quiescence
//! tries the most valuable victims first.

use crate::rules::{Kind, Move, Position};
use crate::search::eval::value;
use crate::search::Action;
use arrayvec::ArrayVec;

/// The transposition table's best action: first of all.
pub(super) const REMEMBERED: i32 = 1_000_000;

/// The base of every capture's order, above the killers and the draw.
const CAPTURE: i32 = 10_000;

/// A capture's order per pawn of its victim's value: the victim decides
/// before the attacker, whose value is subtracted once.
const PER_VICTIM_PAWN: i32 = 100;

/// The killer move that cut off last at this ply.
const FIRST_KILLER: i32 = 9_000;

/// The killer move that cut off before it.
const SECOND_KILLER: i32 = 8_000;

/// "Draw", when the table has not found it best: after the killers,
/// before the quiet moves.
const DRAW: i32 = 5_000;

/// A quiet move that is no killer: the moves late move reductions
/// search shallower.
pub(super) const QUIET: i32 = 0;

/// An action at a decision node with its ordering score.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) action: Action,
    pub(super) order: i32,
}

/// The order of a step that captures, by victim first, the cheapest
/// attacker first among equal victims; `None` for a step that does not
/// capture and for a placement.
pub(super) fn capture_order(pos: &Position, mv: Move) -> Option<i32> {
    let Move::Step { from, to } = mv else {
        return None;
    };
    let victim = pos.tile_at(to)?;
    let attacker = pos.tile_at(from).map_or(0, |t| value(t.piece.kind));
    Some(PER_VICTIM_PAWN * value(victim.piece.kind) - attacker + CAPTURE)
}

/// True when capture `mv` puts a tile worth more than its victim on a
/// square the opponent attacks: a capture the quiescence leaves out,
/// as chess engines leave out captures that lose material by static
/// exchange. The attack is counted without the connection rule, so a
/// recapture that would split the table still counts.
pub(super) fn gives_up_material(pos: &Position, mv: Move) -> bool {
    let Move::Step { from, to } = mv else {
        return false;
    };
    let (Some(attacker), Some(victim)) = (pos.tile_at(from), pos.tile_at(to)) else {
        return false;
    };
    value(attacker.piece.kind) > value(victim.piece.kind)
        && pos.attack_count(victim.piece.colour, to) > 0
}

/// The order of step `mv` at a decision node whose table entry's best
/// move is `remembered` and whose ply's killers are `killers`.
pub(super) fn step_order(
    pos: &Position,
    mv: Move,
    remembered: Option<Move>,
    killers: [Option<Move>; 2],
) -> i32 {
    if Some(mv) == remembered {
        REMEMBERED
    } else if let Some(c) = capture_order(pos, mv) {
        c
    } else if Some(mv) == killers[0] {
        FIRST_KILLER
    } else if Some(mv) == killers[1] {
        SECOND_KILLER
    } else {
        QUIET
    }
}

/// The order of "draw" at a decision node: first when the table holds
/// the node with no best move, which is a draw found best.
pub(super) fn draw_order(remembered: bool, remembered_move: Option<Move>) -> i32 {
    if remembered && remembered_move.is_none() {
        REMEMBERED
    } else {
        DRAW
    }
}

/// Orders the placements of a tile of `kind`: near the enemy king first,
/// where checks and attacks are (a king far from it first), and the
/// table's best move, `remembered`, before all.
pub(super) fn order_placements(
    pos: &Position,
    kind: Kind,
    list: &mut [Move],
    remembered: Option<Move>,
) {
    let us = pos.side_to_move();
    if let Some(king) = pos.king_square(us.opposite()) {
        let distance = |m: &Move| {
            let to = m.to();
            let d = (to.x - king.x).abs().max((to.y - king.y).abs());
            if kind == Kind::King {
                -d
            } else {
                d
            }
        };
        list.sort_by_key(distance);
    }
    if let Some(mv) = remembered {
        if let Some(i) = list.iter().position(|&m| m == mv) {
            list[..=i].rotate_right(1);
        }
    }
}

/// The moves of `list` that the quiescence searches, as `(order, index)`
/// in the order to search them: the most valuable victim first, captures
/// that give up material left out; in check, every step.
#[inline]
pub(super) fn order_quiescence(
    pos: &Position,
    list: &[Move],
    in_check: bool,
    order: &mut ArrayVec<(i32, u16), 256>,
) {
    for (i, &mv) in list.iter().enumerate().take(256) {
        match capture_order(pos, mv) {
            Some(_) if !in_check && gives_up_material(pos, mv) => {}
            Some(o) => order.push((o, i as u16)),
            None if in_check => order.push((QUIET, i as u16)),
            None => {}
        }
    }
    order.sort_unstable_by_key(|&(o, i)| (std::cmp::Reverse(o), i));
}

/// Orders the root's actions: captures first, then the rest in the order
/// generated.
pub(super) fn order_root(pos: &Position, actions: &mut [Action]) {
    actions.sort_by_key(|a| match a {
        Action::Play(mv) => std::cmp::Reverse(capture_order(pos, *mv).unwrap_or(QUIET)),
        Action::Draw => std::cmp::Reverse(QUIET),
    });
}
