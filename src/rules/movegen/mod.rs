//! Legal move generation: candidates, the moves by movement whose
//! destination touches some other tile (captures always), listed here
//! and settled one by one by `legality`; `placement` finds where a drawn
//! tile may go. `sampling` numbers the candidates for random playouts,
//! which test only the candidate they pick, and `random` picks those
//! turns. `reach` bounds where candidates land, and `list` is the list
//! they fill.

use super::moves::Move;
use super::piece::{Colour, Kind};
use super::position::geometry::{DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use super::position::Position;
use super::ring::ring_connected;
use super::square::Square;
use super::tile_set::TileSet;

mod legality;
mod list;
mod placement;
mod random;
mod reach;
mod sampling;

use legality::Screen;
pub use list::{MoveList, MAX_MOVES};
pub use random::{Sampler, Turn};
use reach::Reach;

impl Position {
    /// Every legal move of the side to move: each placement of each kind
    /// left in its pile, and each legal move of its tiles on the table.
    ///
    /// Drawing itself is not a move here: see RULES.md section 8, where a
    /// draw counts once per kind and square, like a drop.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.clone().generate_legal(&mut list);
        list
    }

    /// The legal placements of a tile of `kind` the side to move has just
    /// drawn; empty when it cannot be placed.
    pub fn legal_placements(&self, kind: Kind) -> MoveList {
        let mut list = MoveList::new();
        self.clone().generate_placements(kind, &mut list);
        list
    }

    /// True when `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place { piece, .. } => {
                piece.colour == self.side_to_move()
                    && self.pile(self.side_to_move()).count(piece.kind) > 0
                    && self.legal_placements(piece.kind).contains(&mv)
            }
            Move::Step { .. } => {
                let mut list = MoveList::new();
                self.clone().generate_steps(&mut list);
                list.contains(&mv)
            }
        }
    }

    /// Appends every legal move to `list`.
    ///
    /// Takes `&mut self` because candidates are tried on the table; the
    /// position is left exactly as it was.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let mut screen = self.screen();
        self.placements(&mut screen, self.pile(self.side_to_move()), |mv| {
            list.push(mv)
        });
        self.legal_steps(&mut screen, list);
    }

    /// How many legal moves [`Position::generate_legal`] would list,
    /// counted without listing them: perft's last ply.
    pub fn count_legal(&mut self) -> u64 {
        let mut screen = self.screen();
        let mut area = Area::nothing(screen.reach);
        self.fill_area(&mut area);
        let mut count = self.count_placements(&mut screen, &area.touch);
        let mut candidates = MoveList::new();
        for slot in self.present() & TileSet::colour(self.side_to_move()) {
            candidates.clear();
            self.step_candidates_of(slot, &area, &mut candidates);
            if let Some(legal) = self.count_connecting(slot, &candidates, &mut screen) {
                count += legal;
                continue;
            }
            for &mv in &candidates {
                count += u64::from(self.candidate_is_legal(mv, &mut screen));
            }
        }
        count
    }

    /// Appends the legal moves of the side to move's tiles on the table,
    /// without placements: with "draw" as one more option, these are the
    /// choices of a turn before the drawn tile is known.
    pub fn generate_steps(&mut self, list: &mut MoveList) {
        let mut screen = self.screen();
        self.legal_steps(&mut screen, list);
    }

    /// Keeps the legal ones of the step candidates.
    fn legal_steps(&mut self, screen: &mut Screen, list: &mut MoveList) {
        let start = list.len();
        self.generate_step_candidates(screen, list);
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            if self.candidate_is_legal(mv, screen) {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// True when the side to move has a legal move of a tile on the
    /// table: whether a side with an empty pile is checkmated or
    /// stalemated, without testing every move. Stops at the first.
    pub fn has_legal_step(&mut self) -> bool {
        let mut screen = self.sampling_screen();
        // Out of check nearly every position has a tile free of the
        // table (the ring test) with a step or capture next to it, which
        // is legal unless the tile shields the king: a test or two, where
        // the rounds below would list candidates first. In check such a
        // step rarely answers, and the rounds below try it too.
        if !self.in_check_by(&mut screen) && self.free_step_is_legal(&mut screen) {
            return true;
        }
        let mut list = MoveList::new();
        // Three rounds, each listed only if the one before found nothing:
        // the king's quiet steps, the captures, the rest. In check, where
        // most candidates are illegal, the king's steps are the usual
        // answer, and they need no map of the squares touching the table.
        let king = self.king_square(self.side_to_move());
        if let Some(from) = king {
            for &(dx, dy) in &KING {
                let to = from.offset(dx, dy);
                if screen.reach.contains(to) && !self.occupied(to) {
                    self.push_near(from, to, &mut list);
                }
            }
            if self.any_legal(&list, &mut screen) {
                return true;
            }
            list.clear();
        }
        self.generate_capture_candidates(screen.reach, &mut list);
        if self.any_legal(&list, &mut screen) {
            return true;
        }
        list.clear();
        self.generate_step_candidates(&screen, &mut list);
        list.retain(|mv| match *mv {
            Move::Step { from, to } => Some(from) != king && !self.occupied(to),
            Move::Place { .. } => false,
        });
        self.any_legal(&list, &mut screen)
    }

    /// True when a step or capture of a free tile (one whose neighbours
    /// hold together without it) other than the king, onto a square next
    /// to it, is legal: each tile's first such candidate is tested.
    fn free_step_is_legal(&mut self, screen: &mut Screen) -> bool {
        let us = self.side_to_move();
        for slot in self.present() & TileSet::colour(us) {
            let from = self.square_of(slot);
            let kind = self.kind_of(slot);
            let offsets: Offsets = match kind {
                Kind::King => continue,
                Kind::Knight => &KNIGHT,
                Kind::Pawn => &PAWN_NEAR[us.index()],
                Kind::Rook => &ORTHOGONAL,
                Kind::Bishop => &DIAGONAL,
                Kind::Queen => &KING,
            };
            if !ring_connected(self.ring(from)) {
                continue;
            }
            let pawn = kind == Kind::Pawn;
            let first = offsets.iter().find_map(|&(dx, dy)| {
                let to = from.offset(dx, dy);
                let candidate = screen.reach.contains(to)
                    && if self.occupied(to) {
                        self.is_enemy(to) && !(pawn && dx == 0)
                    } else {
                        !(pawn && dx != 0) && self.has_neighbour_besides(to, from)
                    };
                candidate.then_some(Move::Step { from, to })
            });
            if first.is_some_and(|mv| self.candidate_is_legal(mv, screen)) {
                return true;
            }
        }
        false
    }

    fn any_legal(&mut self, list: &MoveList, screen: &mut Screen) -> bool {
        list.iter().any(|&mv| self.candidate_is_legal(mv, screen))
    }

    /// Appends the legal captures of the side to move's tiles to `list`, in
    /// the order [`Position::generate_steps`] lists them: for a search
    /// that wants the captures alone, and need not test the other moves.
    pub fn generate_captures(&mut self, list: &mut MoveList) {
        // A few candidates are tested: flooding per mover is cheaper than
        // one search of the whole table.
        let mut screen = self.sampling_screen();
        let start = list.len();
        self.generate_capture_candidates(screen.reach, list);
        let mut kept = start;
        for i in start..list.len() {
            let mv = list[i];
            if self.candidate_is_legal(mv, &mut screen) {
                list[kept] = mv;
                kept += 1;
            }
        }
        list.truncate(kept);
    }

    /// Appends the captures among [`Position::generate_step_candidates`],
    /// in its order, without walking the empty squares: a slider's only
    /// capture along a line is the first tile there, found in one look.
    fn generate_capture_candidates(&self, reach: Reach, list: &mut MoveList) {
        let us = self.side_to_move();
        let capture = |list: &mut MoveList, from: Square, to: Square| {
            if self.occupied(to) && self.is_enemy(to) {
                list.push(Move::Step { from, to });
            }
        };
        // The first tile along each of four lines, found for all four at
        // once. Within the reach it is where it seems; past it the torus
        // may wrap.
        let lines = |list: &mut MoveList, from, dirs: &[(i32, i32); 4], distances, rooms| {
            for ((&(dx, dy), d), room) in dirs.iter().zip(distances).zip(rooms) {
                let d = d as i32;
                if d <= room {
                    capture(list, from, from.offset(d * dx, d * dy));
                }
            }
        };
        // Without holes, a tile that holds the table together may not
        // capture: after a capture the table is the old one less its
        // origin. Ring tests on a table with holes are settled later.
        let holes = !self.without_holes();
        for slot in self.present() & TileSet::colour(us) {
            let from = self.square_of(slot);
            if !holes && !ring_connected(self.ring(from)) {
                continue;
            }
            let orthogonal = |list: &mut MoveList| {
                let distances = self.orthogonal_blocker_distances(from);
                lines(
                    list,
                    from,
                    &ORTHOGONAL,
                    distances,
                    reach.orthogonal_rooms(from),
                );
            };
            let diagonal = |list: &mut MoveList| {
                let distances = self.diagonal_blocker_distances(from);
                lines(list, from, &DIAGONAL, distances, reach.diagonal_rooms(from));
            };
            match self.kind_of(slot) {
                Kind::Queen => {
                    orthogonal(list);
                    diagonal(list);
                }
                Kind::Rook => orthogonal(list),
                Kind::Bishop => diagonal(list),
                Kind::Knight => KNIGHT
                    .iter()
                    .for_each(|&(dx, dy)| capture(list, from, from.offset(dx, dy))),
                Kind::King => KING
                    .iter()
                    .for_each(|&(dx, dy)| capture(list, from, from.offset(dx, dy))),
                Kind::Pawn => [-1, 1]
                    .iter()
                    .for_each(|&dx| capture(list, from, from.offset(dx, us.forward()))),
            }
        }
    }

    /// Appends the candidate moves of the side to move's tiles to `list`:
    /// a superset of the legal ones that [`Position::candidate_is_legal`]
    /// settles one by one under `screen`, this position's
    /// [`Position::sampling_screen`]. Random playouts test only the move
    /// they pick.
    fn generate_step_candidates(&self, screen: &Screen, list: &mut MoveList) {
        let mut area = Area::nothing(screen.reach);
        self.fill_area(&mut area);
        for slot in self.present() & TileSet::colour(self.side_to_move()) {
            self.step_candidates_of(slot, &area, list);
        }
    }

    /// Appends the step candidates of the side to move's tile in `slot`.
    #[inline(always)]
    fn step_candidates_of(&self, slot: usize, area: &Area, list: &mut MoveList) {
        let from = self.square_of(slot);
        match self.kind_of(slot) {
            Kind::Queen => {
                self.slides(from, &ORTHOGONAL, area, list);
                self.slides(from, &DIAGONAL, area, list);
            }
            Kind::Rook => self.slides(from, &ORTHOGONAL, area, list),
            Kind::Bishop => self.slides(from, &DIAGONAL, area, list),
            Kind::Knight => self.jumps(from, &KNIGHT, false, area, list),
            Kind::King => self.jumps(from, &KING, true, area, list),
            Kind::Pawn => {
                let unmoved = !self.has_moved(slot);
                self.pawn(from, self.side_to_move(), unmoved, area, list)
            }
        }
    }

    /// The [`Area`] of `reach`, written into `area` (of no squares yet):
    /// in place, as a copy of its 512 bytes costs about what filling it
    /// does.
    fn fill_area(&self, area: &mut Area) {
        for y in area.reach.min_y..=area.reach.max_y {
            area.touch[(y & 63) as usize] = self.touch_row(y);
        }
    }

    /// Adds the quiet step `from → to` onto an empty square next to
    /// the origin if it touches another tile.
    #[inline(always)]
    fn push_near(&self, from: Square, to: Square, list: &mut MoveList) {
        if self.has_neighbour_besides(to, from) {
            list.push(Move::Step { from, to });
        }
    }

    /// Adds the quiet step `from → to` onto an empty square away from
    /// the origin if it touches a tile: any tile there is another tile.
    #[inline(always)]
    fn push_far(&self, from: Square, to: Square, area: &Area, list: &mut MoveList) {
        if area.touches(to) {
            list.push(Move::Step { from, to });
        }
    }

    /// Adds the capture `from → to`. Whether the mover may leave its
    /// square is settled when the candidate is tried: after a capture the
    /// occupied squares are the old ones less the mover's origin.
    #[inline(always)]
    fn push_capture(&self, from: Square, to: Square, list: &mut MoveList) {
        list.push(Move::Step { from, to });
    }

    #[inline(always)]
    fn slides(&self, from: Square, dirs: &[(i32, i32); 4], area: &Area, list: &mut MoveList) {
        for &(dx, dy) in dirs {
            // Past the reach no square touches a tile: nothing legal there.
            let steps = area.reach.room(from, dx, dy);
            if steps <= 0 {
                continue;
            }
            let mut to = from.offset(dx, dy);
            if self.occupied(to) {
                if self.is_enemy(to) {
                    self.push_capture(from, to, list);
                }
                continue;
            }
            self.push_near(from, to, list);
            for _ in 1..steps {
                to = to.offset(dx, dy);
                if self.occupied(to) {
                    if self.is_enemy(to) {
                        self.push_capture(from, to, list);
                    }
                    break;
                }
                self.push_far(from, to, area, list);
            }
        }
    }

    /// True when the tile on the occupied `square` is the opponent's.
    #[inline(always)]
    fn is_enemy(&self, square: Square) -> bool {
        Self::colour_of(self.cell_slot(square) as usize) != self.side_to_move()
    }

    /// The knight's and king's moves: to each of `offsets`. A king's
    /// squares touch its origin, a knight's never do.
    fn jumps(
        &self,
        from: Square,
        offsets: &[(i32, i32); 8],
        near: bool,
        area: &Area,
        list: &mut MoveList,
    ) {
        for &(dx, dy) in offsets {
            let to = from.offset(dx, dy);
            if !area.reach.contains(to) {
                continue;
            }
            if self.occupied(to) {
                if self.is_enemy(to) {
                    self.push_capture(from, to, list);
                }
            } else if near {
                self.push_near(from, to, list);
            } else {
                self.push_far(from, to, area, list);
            }
        }
    }

    fn pawn(&self, from: Square, us: Colour, unmoved: bool, area: &Area, list: &mut MoveList) {
        let f = us.forward();
        let steps = if unmoved { 3 } else { 1 };
        for n in 1..=steps {
            let to = from.offset(0, n * f);
            if !area.reach.contains(to) || self.occupied(to) {
                break;
            }
            if n == 1 {
                self.push_near(from, to, list);
            } else {
                self.push_far(from, to, area, list);
            }
        }
        for dx in [-1, 1] {
            let to = from.offset(dx, f);
            if area.reach.contains(to) && self.occupied(to) && self.is_enemy(to) {
                self.push_capture(from, to, list);
            }
        }
    }
}

/// Offsets from a square: a tile's jumps, or the unit steps of its lines.
type Offsets<'a> = &'a [(i32, i32)];

/// A pawn's squares next to it by its colour: its step ahead, then its
/// captures.
const PAWN_NEAR: [[(i32, i32); 3]; 2] = [[(0, 1), (-1, 1), (1, 1)], [(0, -1), (-1, -1), (1, -1)]];

/// Where the side to move's tiles may go, connection-wise.
struct Area {
    /// The box of all legal destinations.
    reach: Reach,
    /// For each torus row of the reach, the squares touching a tile.
    touch: [u64; 64],
}

impl Area {
    /// An area of `reach` with no square touching a tile, for
    /// [`Position::fill_area`].
    #[inline(always)]
    fn nothing(reach: Reach) -> Area {
        Area {
            reach,
            touch: [0; 64],
        }
    }

    #[inline(always)]
    fn touches(&self, s: Square) -> bool {
        self.touch[(s.y & 63) as usize] & (1 << (s.x & 63)) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random_games::each_position_of_random_games;

    /// `count_legal` counts what `generate_legal` lists, whether the
    /// placements are counted by squares (no enemy tile attacks the king)
    /// or each tested, in every position of many random games.
    #[test]
    fn count_legal_counts_the_listed_moves() {
        let (mut by_squares, mut tested) = (0, 0);
        each_position_of_random_games(53, 60, 150, |pos| {
            let mut list = MoveList::new();
            pos.generate_legal(&mut list);
            assert_eq!(pos.count_legal(), list.len() as u64, "{pos}");
            let us = pos.side_to_move();
            if !pos.pile(us).is_empty() {
                let king = pos.king_square(us);
                if king.is_some_and(|k| pos.attack_count(us.opposite(), k) > 0) {
                    tested += 1;
                } else {
                    by_squares += 1;
                }
            }
        });
        assert!(
            by_squares > 1000 && tested > 100,
            "{by_squares} by squares, {tested} tested"
        );
    }
}
