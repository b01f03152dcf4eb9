//! The network's arithmetic on the listed inputs, for any hidden size:
//! the definition the accumulator of the shipped sizes is tested
//! against, and the path of the other sizes.
//!
//! Sums wrap (i16 hidden sums, i32 output), as the accumulator's vector
//! adds do, so the two agree to the bit on any weights; the trainer keeps
//! its weights small enough that a real net never wraps.

use super::inputs::active;
use super::{Net, QA};
use crate::rules::Position;

/// `QA · QB` times the logit of `pos` for its side to move, from its
/// inputs listed by [`active`].
pub(super) fn listed(net: &Net, pos: &Position) -> i32 {
    let us = pos.side_to_move();
    plain(net, &active(pos, us), &active(pos, us.opposite()))
}

/// The output of the position whose side to move has the active inputs
/// `ours` and the other side `theirs`, a hidden unit at a time.
pub(super) fn plain(net: &Net, ours: &[u16], theirs: &[u16]) -> i32 {
    let h = net.hidden;
    let mut out = net.b2;
    for (half, active) in [(0, ours), (h, theirs)] {
        for unit in 0..h {
            let sum = active.iter().fold(net.b1[unit], |sum, &i| {
                sum.wrapping_add(net.w1[i as usize * h + unit])
            });
            out = out.wrapping_add(i32::from(sum).clamp(0, QA) * i32::from(net.w2[half + unit]));
        }
    }
    out
}
