//! Where candidates may land: the [`Reach`], the box around the table
//! past which no square touches a tile, and what a step's destination
//! holds ([`Landing`]). Shared by the generators, `legality` and
//! `sampling`.

use crate::rules::position::geometry::line_back;
use crate::rules::position::Position;
use crate::rules::ring::Ring;
use crate::rules::square::{Square, COORD_LIMIT};

/// What a step's destination holds.
#[derive(Clone, Copy, Debug)]
pub(super) enum Landing {
    /// An enemy tile: the step captures it.
    Capture,
    /// Nothing: the tiles around it but the mover's, when already read.
    Empty(Option<Ring>),
}

/// The box within which any legal destination lies: one square around
/// every tile, and never past the coordinate limit of RULES.md section 1.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    pub(super) min_x: i32,
    pub(super) min_y: i32,
    pub(super) max_x: i32,
    pub(super) max_y: i32,
    /// True when the coordinate limit cuts the box short. Otherwise a
    /// square past it lies two squares or more from every tile, so it
    /// neither holds a tile nor touches one.
    pub(super) clipped: bool,
}

impl Reach {
    #[inline(always)]
    pub(super) fn contains(&self, s: Square) -> bool {
        s.x >= self.min_x && s.x <= self.max_x && s.y >= self.min_y && s.y <= self.max_y
    }

    /// How many squares from `from` along the unit step `dx, dy` lie
    /// within the reach: past it no square touches a tile.
    #[inline(always)]
    pub(super) fn room(&self, from: Square, dx: i32, dy: i32) -> i32 {
        let room = |d: i32, at: i32, lo: i32, hi: i32| match d {
            1 => hi - at,
            -1 => at - lo,
            _ => i32::MAX,
        };
        room(dx, from.x, self.min_x, self.max_x)
            .min(room(dy, from.y, self.min_y, self.max_y))
            .max(0)
    }

    /// [`Reach::room`] along the orthogonal unit steps, in the order of
    /// `ORTHOGONAL` (east, west, north, south).
    #[inline(always)]
    pub(super) fn orthogonal_rooms(&self, from: Square) -> [i32; 4] {
        [
            self.max_x - from.x,
            from.x - self.min_x,
            self.max_y - from.y,
            from.y - self.min_y,
        ]
        .map(|room| room.max(0))
    }

    /// [`Reach::room`] along the diagonal unit steps, in the order of
    /// `DIAGONAL` (north-east, north-west, south-east, south-west).
    #[inline(always)]
    pub(super) fn diagonal_rooms(&self, from: Square) -> [i32; 4] {
        let [east, west, north, south] = self.orthogonal_rooms(from);
        [
            east.min(north),
            west.min(north),
            east.min(south),
            west.min(south),
        ]
    }
}

impl Position {
    /// One square around every tile, within the coordinate limit.
    pub(super) fn reach(&self) -> Reach {
        let (min_x, min_y, max_x, max_y) = self.bounds();
        Reach {
            min_x: (min_x - 1).max(-COORD_LIMIT),
            min_y: (min_y - 1).max(-COORD_LIMIT),
            max_x: (max_x + 1).min(COORD_LIMIT),
            max_y: (max_y + 1).min(COORD_LIMIT),
            clipped: min_x.min(min_y) <= -COORD_LIMIT || max_x.max(max_y) >= COORD_LIMIT,
        }
    }

    /// The squares of torus row `y` touching a tile or holding one, by
    /// bit `x mod 64`: where steps may land and tiles may be placed.
    #[inline(always)]
    pub(super) fn touch_row(&self, y: i32) -> u64 {
        touching(self.row(y - 1) | self.row(y) | self.row(y + 1))
    }

    /// How many empty squares from `from` along the unit step `dx, dy`
    /// lie before the first tile and within `reach`: those a slider on
    /// `from` attacks, or reaches from.
    #[inline(always)]
    pub(super) fn empty_run(&self, from: Square, dx: i32, dy: i32, reach: Reach) -> i32 {
        let blocker = self.blocker_distance(from, line_back(-dx, -dy)) as i32;
        (blocker - 1).min(reach.room(from, dx, dy))
    }
}

/// The squares of a row touching or holding a tile of `band`, the row's
/// tiles and those of the rows either side of it.
#[inline(always)]
pub(super) fn touching(band: u64) -> u64 {
    band | band.rotate_left(1) | band.rotate_right(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::geometry::{DIAGONAL, ORTHOGONAL};

    /// The four-at-once rooms are [`Reach::room`] in the order of the
    /// line tables the generators zip them with, from squares inside,
    /// on and outside the box.
    #[test]
    fn the_four_at_once_rooms_are_room_in_line_order() {
        let reach = Reach {
            min_x: -3,
            min_y: -1,
            max_x: 4,
            max_y: 6,
            clipped: false,
        };
        for x in -5..=6 {
            for y in -3..=8 {
                let from = Square::new(x, y);
                let one_by_one =
                    |lines: &[(i32, i32); 4]| lines.map(|(dx, dy)| reach.room(from, dx, dy));
                assert_eq!(
                    reach.orthogonal_rooms(from),
                    one_by_one(&ORTHOGONAL),
                    "{from:?}"
                );
                assert_eq!(
                    reach.diagonal_rooms(from),
                    one_by_one(&DIAGONAL),
                    "{from:?}"
                );
            }
        }
    }
}
