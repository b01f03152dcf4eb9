//! Legality of candidates. A [`Screen`], worked out once per
//! position and each part only when a candidate first needs it, then
//! settles each candidate, nearly always without trying it on the table:
//!
//! - Connection rule. A tile whose 8 neighbours hold together without it
//!   (the ring test of `connectivity`) may go anywhere a candidate goes.
//!   Otherwise it holds the table together, if the table encloses no hole
//!   (kept by its Euler number); with holes, the articulation points
//!   decide. A holding tile may not capture (after a capture the occupied
//!   squares are the old ones less the mover's origin), and a quiet move
//!   must touch every part the table falls into without it: touching
//!   every group of its neighbours is enough, else the parts are flooded.
//! - Check. With no enemy tile attacking the king by movement, only king
//!   moves and moves of a tile alone between the king and an enemy slider
//!   (a shield) can expose it: those are tried on the table. With
//!   attackers, the shape of the table without each attacker says whether
//!   the move makes its capture of the king connected (see
//!   `Attacker::connects_after`); the rare undecided case is tried.

use super::reach::{Landing, Reach};
use crate::rules::moves::Move;
use crate::rules::piece::Kind;
use crate::rules::position::geometry::line_towards;
use crate::rules::position::{Position, NO_SLOT};
use crate::rules::ring::{
    ring_bit_if_within, ring_connected, ring_squares_touching, touches_every_group, Ring, CENTRE,
};
use crate::rules::square::Square;
use crate::rules::tile_set::TileSet;
use arrayvec::ArrayVec;

/// What a position's candidates need before they are known legal: which
/// movers hold the table together, and what threatens the king. Worked out
/// once per position, and each part only when a candidate first needs it,
/// it settles nearly every candidate without trying it on the table.
#[derive(Clone, Debug)]
pub(super) struct Screen {
    pub(super) reach: Reach,
    /// The slot of the side to move's king, or `NO_SLOT` while it is in
    /// the pile.
    king: u8,
    /// The tiles that hold the table together (articulation points): their
    /// captures are illegal and their other moves must join the table
    /// again. `None` until a candidate needs it.
    holding: Option<TileSet>,
    /// The side to move's tiles alone between its king and an enemy
    /// slider: moving one could open the line. `None` until needed.
    shields: Option<TileSet>,
    /// The enemy tiles that attack the king by movement now. `None` until
    /// a candidate needs it.
    attackers: Option<TileSet>,
    /// Their shapes, once a candidate has needed them.
    shapes: ArrayVec<Attacker, 16>,
    shapes_known: bool,
    /// For each of the side's tiles that a candidate has needed: the
    /// parts the table falls into without it. A tile holding the table
    /// together must join them all again. A list, not a table by slot: a
    /// turn needs few, and a table would be cleared every turn.
    parts: ArrayVec<[TileSet; 4], 16>,
    /// The slots whose parts are in the list, and where each is (meant
    /// only for those): one bit test finds a tile's parts, with no search
    /// of the list whose end the processor would mispredict.
    parts_known: TileSet,
    parts_at: [u8; 32],
    /// Candidates are tried a few at a time, not all of them.
    sampling: bool,
}

/// The table less one tile: what a capture by that tile leaves behind.
pub(super) enum CaptureShape {
    /// Nothing: the captor is the one tile left.
    Alone,
    /// One group.
    OnePart,
    /// The groups it falls into, two at least.
    Parts(ArrayVec<TileSet, 4>),
}

/// An enemy tile that attacks the king by movement, and the shape of the
/// table without it: a move gives check through it exactly when the table
/// less the attacker is one group after the move (RULES.md section 5).
#[derive(Clone, Debug)]
struct Attacker {
    slot: usize,
    square: Square,
    /// For a slider: the unit step towards the king and the distance.
    step: (i32, i32),
    distance: i32,
    /// The groups the table falls into without the attacker; none yet
    /// when, on a table without holes, it holds the table together (its
    /// parts are the groups of the tiles around it, two at least): they
    /// are flooded only if a candidate's destination might join them.
    parts: ArrayVec<TileSet, 4>,
    /// With one part: the tiles that hold that part together, or `None`
    /// when that part has no holes, so that the ring test tells them.
    holding: Option<TileSet>,
}

impl Attacker {
    /// True when a tile on `square` would stand between the attacker and
    /// the king.
    fn blocked_by(&self, square: Square) -> bool {
        let (dx, dy) = (square.x - self.square.x, square.y - self.square.y);
        let t = if self.step.0 != 0 {
            dx * self.step.0
        } else {
            dy * self.step.1
        };
        self.distance > 0
            && t > 0
            && t < self.distance
            && dx == t * self.step.0
            && dy == t * self.step.1
    }

    /// Could the attacker capture the king after a move, connection-wise?
    /// `mover` is the moving tile (none for a placement), `holds(mover)`
    /// whether it holds the table without the attacker together (asked
    /// only with one part), `neighbours` the tiles touching the
    /// destination once the mover has left. `None` when only a flood fill
    /// can tell.
    fn connects_after(
        &self,
        mover: Option<usize>,
        holds: impl Fn(usize) -> bool,
        neighbours: TileSet,
        capture: bool,
    ) -> Option<bool> {
        let touching = neighbours.without(self.slot);
        let Some(m) = mover else {
            // A placement adds a tile: it must touch every part.
            return Some(self.parts.iter().all(|&p| !(p & touching).is_empty()));
        };
        let bit = TileSet::one(m);
        if capture {
            // The occupied squares become the old ones less the mover's.
            return Some(match self.parts[..] {
                [_] => !holds(m),
                [a, b] => a == bit || b == bit,
                _ => false,
            });
        }
        if self.parts.len() == 1 {
            return (!holds(m)).then_some(!touching.is_empty());
        }
        let own = self
            .parts
            .iter()
            .copied()
            .find(|&p| p.contains(m))
            .unwrap_or(TileSet::EMPTY);
        if self
            .parts
            .iter()
            .any(|&p| p != own && (p & touching).is_empty())
        {
            return Some(false);
        }
        (own == bit).then_some(true)
    }
}

impl Position {
    /// The [`Screen`] for trying candidates a few at a time, as random
    /// playouts do: with [`Position::number_steps`] and
    /// [`Position::numbered_move`], or after
    /// [`Position::generate_step_candidates`].
    pub(super) fn sampling_screen(&self) -> Screen {
        let mut screen = self.screen();
        screen.sampling = true;
        screen
    }

    /// True when `mv`, a candidate of this position under `screen` (a step
    /// from [`Position::generate_step_candidates`], or a placement of a
    /// tile of the pile on a square touching the table), is legal.
    #[inline(always)]
    pub(super) fn candidate_is_legal(&mut self, mv: Move, screen: &mut Screen) -> bool {
        match mv {
            Move::Step { from, to } => {
                let slot = self.cell_slot(from) as usize;
                // The tiles around an empty destination are read only if
                // the mover turns out to hold the table together.
                let landing = if self.occupied(to) {
                    Landing::Capture
                } else {
                    Landing::Empty(None)
                };
                self.step_is_legal(slot, from, to, landing, screen)
            }
            Move::Place { piece, to } => {
                if piece.kind == Kind::King {
                    return self.king_placement_is_safe(to);
                }
                self.spares_the_king(mv, None, to, false, screen)
            }
        }
    }

    /// [`Position::candidate_is_legal`] as a call, for the playout's loop.
    #[inline(never)]
    pub(super) fn candidate_is_legal_called(&mut self, mv: Move, screen: &mut Screen) -> bool {
        self.candidate_is_legal(mv, screen)
    }

    /// True when the step of the side to move's tile in `slot` from `from`
    /// to `to`, a candidate under `screen`, is legal.
    #[inline(always)]
    pub(super) fn step_is_legal(
        &mut self,
        slot: usize,
        from: Square,
        to: Square,
        landing: Landing,
        screen: &mut Screen,
    ) -> bool {
        let ring = self.ring(from);
        if self.holds_table(slot, ring, screen) {
            // The mover holds the table together: it may not capture,
            // and must join every part again.
            let around = match landing {
                Landing::Capture => return false,
                Landing::Empty(around) => around.unwrap_or_else(|| self.ring_besides(to, from)),
            };
            if !self.joins_again(slot, ring, to, around, screen) {
                return false;
            }
        }
        let mv = Move::Step { from, to };
        if slot == screen.king as usize {
            return self.king_step_is_safe(from, to);
        }
        if self.shields_king(slot, from, screen) {
            return self.survives(mv);
        }
        let capture = matches!(landing, Landing::Capture);
        self.spares_the_king(mv, Some(slot), to, capture, screen)
    }

    /// True when the side to move's tile in `slot`, with `ring` around
    /// it, holds the table together. The ring test clears most tiles,
    /// and on a table without holes it settles the rest. Otherwise a
    /// playout, which tries a few candidates, floods per mover;
    /// generating every move, one search of the whole table is cheaper.
    #[inline(always)]
    fn holds_table(&self, slot: usize, ring: Ring, screen: &mut Screen) -> bool {
        !ring_connected(ring)
            && if self.without_holes() {
                true
            } else if screen.sampling {
                !self.parts_of(slot, screen)[1].is_empty()
            } else {
                screen
                    .holding
                    .get_or_insert_with(|| self.articulation_points(TileSet::EMPTY))
                    .contains(slot)
            }
    }

    /// How many of `candidates`, the step candidates of the side to
    /// move's tile in `slot`, are legal, when only the table's connection
    /// can forbid them: the tile is not the king and shields nothing,
    /// while no enemy tile attacks the king. `None` otherwise, when each
    /// must be tried. Whether the tile holds the table together is
    /// settled once for all its candidates, not once for each as
    /// [`Position::step_is_legal`] would: perft's last ply.
    pub(super) fn count_connecting(
        &self,
        slot: usize,
        candidates: &[Move],
        screen: &mut Screen,
    ) -> Option<u64> {
        let from = self.square_of(slot);
        if slot == screen.king as usize
            || !self.attackers_of_king(screen).is_empty()
            || self.shields_king(slot, from, screen)
        {
            return None;
        }
        let ring = self.ring(from);
        if !self.holds_table(slot, ring, screen) {
            return Some(candidates.len() as u64);
        }
        // As in `step_is_legal`: no capture, and a step must join every
        // part again.
        let mut count = 0;
        for &mv in candidates {
            if let Move::Step { to, .. } = mv {
                count += u64::from(
                    !self.occupied(to)
                        && self.joins_again(slot, ring, to, self.ring_besides(to, from), screen),
                );
            }
        }
        Some(count)
    }

    /// True when the holding tile in `slot`, with `ring` around it, moved
    /// to the empty `to` with the tiles `around` it besides the mover,
    /// touches every part of the table it left. There are two parts at
    /// least, and tiles of different parts never touch, so the tiles
    /// around `to` must fall into two groups: asked here, before the
    /// call, as most holding movers' steps end at that test.
    #[inline(always)]
    fn joins_again(
        &self,
        slot: usize,
        ring: Ring,
        to: Square,
        around: Ring,
        screen: &mut Screen,
    ) -> bool {
        !ring_connected(around) && self.joins_parts(slot, ring, to, screen)
    }

    /// True when the side to move's tile in `slot`, on `from`, stands
    /// alone between its king and an enemy slider, so that moving it
    /// could open the line.
    #[inline(always)]
    fn shields_king(&self, slot: usize, from: Square, screen: &mut Screen) -> bool {
        // Only a tile on a line through the king can shield it.
        screen.king != NO_SLOT
            && on_a_line(from, self.square_of(screen.king as usize))
            && self.shields_of(screen).contains(slot)
    }

    /// True when `mv`, which keeps the table together and neither moves
    /// the king nor opens a line to it, leaves no enemy tile able to
    /// capture the king. `mover` is the moving tile (none for a
    /// placement).
    ///
    /// Always inlined: most calls end at "no attacker", and as a call
    /// that answer cost more than the work.
    #[inline(always)]
    fn spares_the_king(
        &mut self,
        mv: Move,
        mover: Option<usize>,
        to: Square,
        capture: bool,
        screen: &mut Screen,
    ) -> bool {
        if self.attackers_of_king(screen).is_empty() {
            return true;
        }
        if !screen.shapes_known {
            self.shape_attackers(screen);
        }
        let mut neighbours = self.neighbour_slots(to);
        if let Some(m) = mover {
            neighbours.remove(m);
        }
        let captured = if capture {
            self.cell_slot(to) as usize
        } else {
            NO_SLOT as usize
        };
        for attacker in &mut screen.shapes {
            if attacker.slot == captured || attacker.blocked_by(to) {
                continue;
            }
            if attacker.parts.is_empty() {
                // Two parts at least, and tiles of different parts never
                // touch: tiles around the destination that hold together
                // lie in one part, and every other part must be the mover
                // alone, as only it leaves. A capture removes the mover
                // too.
                let a = attacker.square;
                let alone =
                    mover.is_some_and(|m| self.adjacent(m).without(attacker.slot).is_empty());
                let around = match mover {
                    Some(m) => self.ring_besides(to, self.square_of(m)),
                    None => self.ring(to) & !CENTRE,
                };
                let near = around & !ring_bit_if_within(a.x - to.x, a.y - to.y);
                if !capture && !alone && ring_connected(near) {
                    continue;
                }
                attacker.parts = self.parts_without(attacker.slot);
            }
            let attacker = &*attacker;
            let holds = |m| self.holds_without(attacker, m);
            match attacker.connects_after(mover, holds, neighbours, capture) {
                Some(false) => {}
                Some(true) => return false,
                None => return self.survives(mv),
            }
        }
        true
    }

    /// Computes the [`Screen`] of the side to move: the cheap parts now,
    /// the rest when a candidate needs them.
    pub(super) fn screen(&self) -> Screen {
        Screen {
            reach: self.reach(),
            king: self.king_slot(self.side_to_move()),
            holding: None,
            shields: None,
            attackers: None,
            shapes: ArrayVec::new(),
            shapes_known: false,
            parts: ArrayVec::new(),
            parts_known: TileSet::EMPTY,
            parts_at: [0; 32],
            sampling: false,
        }
    }

    /// True when the holding tile in `slot`, with the tiles `ring` around
    /// it, moved to the empty `to`, touches every part of the table it
    /// left.
    fn joins_parts(&self, slot: usize, ring: Ring, to: Square, screen: &mut Screen) -> bool {
        // Each part holds a group of the tiles around `from`: touching
        // every group touches every part, with no flood to find them.
        let from = self.square_of(slot);
        let near = ring_squares_touching(to.x - from.x, to.y - from.y);
        if touches_every_group(ring, near) {
            return true;
        }
        let touching = self.neighbour_slots(to).without(slot);
        self.parts_of(slot, screen)
            .iter()
            .all(|&p| p.is_empty() || !(p & touching).is_empty())
    }

    /// The parts the table falls into without the side to move's tile in
    /// `slot` (one part when it holds nothing together), zero-padded.
    fn parts_of(&self, slot: usize, screen: &mut Screen) -> [TileSet; 4] {
        if screen.parts_known.contains(slot) {
            return screen.parts[usize::from(screen.parts_at[slot])];
        }
        let mut parts = [TileSet::EMPTY; 4];
        for (part, found) in parts.iter_mut().zip(self.parts_without(slot)) {
            *part = found;
        }
        screen.parts_known.insert(slot);
        screen.parts_at[slot] = screen.parts.len() as u8;
        screen.parts.push(parts);
        parts
    }

    /// True when the side to move is in check, read off `screen`: an
    /// attacker of the king leaves the table one group. For a caller
    /// whose candidates need the attackers' shapes anyway.
    pub(super) fn in_check_by(&self, screen: &mut Screen) -> bool {
        if self.attackers_of_king(screen).is_empty() {
            return false;
        }
        if !screen.shapes_known {
            self.shape_attackers(screen);
        }
        screen.shapes.iter().any(|a| a.parts.len() == 1)
    }

    /// The screen's attackers of the king, found when first needed: most
    /// calls find them known, which is read inline.
    #[inline(always)]
    pub(super) fn attackers_of_king(&self, screen: &mut Screen) -> TileSet {
        match screen.attackers {
            Some(attackers) => attackers,
            None => self.find_attackers_of_king(screen),
        }
    }

    #[inline(never)]
    fn find_attackers_of_king(&self, screen: &mut Screen) -> TileSet {
        let attackers = if screen.king == NO_SLOT {
            TileSet::EMPTY
        } else {
            self.attackers_of(screen.king as usize)
        };
        screen.attackers = Some(attackers);
        attackers
    }

    fn shields_of(&self, screen: &mut Screen) -> TileSet {
        *screen
            .shields
            .get_or_insert_with(|| self.shields(self.square_of(screen.king as usize)))
    }

    /// Works out the shape of the table without each attacker.
    fn shape_attackers(&self, screen: &mut Screen) {
        let target = self.square_of(screen.king as usize);
        for slot in self.attackers_of_king(screen) {
            let square = self.square_of(slot);
            let (dx, dy) = (target.x - square.x, target.y - square.y);
            let slider = matches!(self.kind_of(slot), Kind::Queen | Kind::Rook | Kind::Bishop);
            // Tiles around the attacker that hold together leave one
            // part. Without holes, tiles around it that fall apart hold
            // the table together, each group in a part of its own: the
            // parts are flooded when a candidate first needs them. With
            // holes, only a flood tells.
            let ring = self.ring(square);
            let parts = if ring_connected(ring) {
                ArrayVec::from_iter([self.present().without(slot)])
            } else if self.without_holes() {
                ArrayVec::new()
            } else {
                self.parts_without(slot)
            };
            let holding = if parts.len() != 1 {
                Some(TileSet::EMPTY)
            } else if self.without_holes_less(square) {
                None
            } else {
                Some(self.articulation_points(TileSet::one(slot)))
            };
            screen.shapes.push(Attacker {
                slot,
                square,
                step: if slider {
                    (dx.signum(), dy.signum())
                } else {
                    (0, 0)
                },
                distance: if slider { dx.abs().max(dy.abs()) } else { 0 },
                parts,
                holding,
            });
        }
        screen.shapes_known = true;
    }

    /// True when the side to move's tile in `slot` holds the table less
    /// `attacker`, which is one part, together.
    fn holds_without(&self, attacker: &Attacker, slot: usize) -> bool {
        match attacker.holding {
            Some(holding) => holding.contains(slot),
            None => {
                let from = self.square_of(slot);
                let (dx, dy) = (attacker.square.x - from.x, attacker.square.y - from.y);
                !ring_connected(self.ring(from) & !ring_bit_if_within(dx, dy))
            }
        }
    }

    /// The side to move's tiles that stand alone between its king on
    /// `king` and an enemy slider: moving one could open the line. Only
    /// the lines an enemy slider rides towards the king are read.
    fn shields(&self, king: Square) -> TileSet {
        let mut shields = TileSet::EMPTY;
        for slider in self.aligned_sliders(self.side_to_move().opposite(), king) {
            let square = self.square_of(slider);
            let (dx, dy) = (square.x - king.x, square.y - king.y);
            let line = line_towards(king, square);
            let distance = dx.abs().max(dy.abs()) as u32;
            // The first tile from the king, if short of the slider, is a
            // shield when it is ours and the next tile is the slider.
            let d = self.blocker_distance(king, line);
            if d >= distance {
                continue;
            }
            let between = king.offset(dx.signum() * d as i32, dy.signum() * d as i32);
            let Some(shield) = self.slot_on(between) else {
                continue;
            };
            if Self::colour_of(shield) == self.side_to_move()
                && d + self.blocker_distance(between, line) == distance
            {
                shields.insert(shield);
            }
        }
        shields
    }

    /// True when, after `mv` is played on the table, the mover's king is
    /// not capturable.
    fn survives(&mut self, mv: Move) -> bool {
        let us = self.side_to_move();
        let undo = self.apply_to_table(mv);
        let ok = !self.king_capturable(us);
        self.revert_on_table(mv, undo);
        #[cfg(debug_assertions)]
        self.assert_consistent();
        ok
    }

    /// True when the side to move may place its king on `to`, an empty
    /// square touching the table: no enemy tile could capture it there
    /// keeping the table one group. Read off the table as it stands, not
    /// tried on it: the king blocks no line to its own square, so its
    /// attackers are those of the empty square.
    fn king_placement_is_safe(&self, to: Square) -> bool {
        let attackers = self.attackers(self.side_to_move().opposite(), to);
        attackers
            .into_iter()
            .all(|a| !self.capture_keeps_table(a, &self.capture_shape(a), to))
    }

    /// What the table less the tile in `slot` is, for
    /// [`Position::capture_keeps_table`]: worked out once per tile where
    /// many squares are asked about.
    pub(super) fn capture_shape(&self, slot: usize) -> CaptureShape {
        if self.present().without(slot).is_empty() {
            CaptureShape::Alone
        } else if self.removable(slot) {
            CaptureShape::OnePart
        } else {
            CaptureShape::Parts(self.parts_without(slot))
        }
    }

    /// True when the tile in `slot`, of shape `shape`, capturing a tile
    /// placed on the empty `to` leaves the table one group: the table
    /// less its square, plus `to`, is one group when the rest is empty or
    /// when `to` touches every part the rest falls into.
    pub(super) fn capture_keeps_table(
        &self,
        slot: usize,
        shape: &CaptureShape,
        to: Square,
    ) -> bool {
        match shape {
            CaptureShape::Alone => true,
            CaptureShape::OnePart => self.ring_besides(to, self.square_of(slot)) != 0,
            CaptureShape::Parts(parts) => {
                let touching = self.neighbour_slots(to).without(slot);
                parts.iter().all(|&part| !(part & touching).is_empty())
            }
        }
    }

    /// True when the side to move's king, stepping from `from` to the
    /// square `to` next to it (a step that keeps the table together),
    /// cannot be captured there. As trying the step on the table, but
    /// read off the table as it stands: cheaper, as most king steps land
    /// where nothing attacks, or where the table has no holes.
    fn king_step_is_safe(&mut self, from: Square, to: Square) -> bool {
        let attackers = self.attackers_after_king_step(from, to);
        if attackers.is_empty() {
            return true;
        }
        if !self.without_holes_after_step(from, to) {
            return self.survives(Move::Step { from, to });
        }
        // Without holes, an attacker's capture keeps the table together
        // exactly when the tiles around the attacker hold together.
        attackers.into_iter().all(|a| {
            let s = self.square_of(a);
            let ring = self.ring(s) & !ring_bit_if_within(from.x - s.x, from.y - s.y)
                | ring_bit_if_within(to.x - s.x, to.y - s.y);
            !ring_connected(ring)
        })
    }
}

/// True when `a` and `b` share a rank, file or diagonal.
#[inline(always)]
fn on_a_line(a: Square, b: Square) -> bool {
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    dx == 0 || dy == 0 || dx == dy || dx == -dy
}
