//! Legal move generation.
//!
//! Candidates come first: every move by movement whose destination touches
//! some other tile (captures always). A [`Screen`], worked out once per
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
//!
//! Random playouts (`search::playout`) test only the candidate they pick.

use super::connectivity::{
    ring_bit_if_within, ring_connected, ring_squares_touching, touches_every_group, Ring, CENTRE,
};
use super::moves::Move;
use super::piece::{Colour, Kind, Piece};
use super::pile::Pile;
use super::position::{
    colour_mask, line_towards, Line, Position, Slots, DIAGONAL, KING, KNIGHT, NO_SLOT, ORTHOGONAL,
};
use super::square::{Square, COORD_LIMIT};
use arrayvec::ArrayVec;

/// An upper bound on the legal moves of any position: at most 6 kinds ×
/// 128 squares around 31 tiles, plus the piece moves of 16 tiles.
pub const MAX_MOVES: usize = 2048;

/// A list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// What a position's candidates need before they are known legal: which
/// movers hold the table together, and what threatens the king. Worked out
/// once per position, and each part only when a candidate first needs it,
/// it settles nearly every candidate without trying it on the table.
#[derive(Clone, Debug)]
pub struct Screen {
    reach: Reach,
    /// The slot of the side to move's king, or `NO_SLOT` while it is in
    /// the pile.
    king: u8,
    /// The tiles that hold the table together (articulation points): their
    /// captures are illegal and their other moves must join the table
    /// again. `None` until a candidate needs it.
    holding: Option<u32>,
    /// The side to move's tiles alone between its king and an enemy
    /// slider: moving one could open the line. `None` until needed.
    shields: Option<u32>,
    /// The enemy tiles that attack the king by movement now. `None` until
    /// a candidate needs it.
    attackers: Option<u32>,
    /// Their shapes, once a candidate has needed them.
    shapes: ArrayVec<Attacker, 16>,
    shapes_known: bool,
    /// For each of the side's tiles that a candidate has needed: the
    /// parts the table falls into without it. A tile holding the table
    /// together must join them all again. A list, not a table by slot: a
    /// turn needs few, and a table would be cleared every turn.
    parts: ArrayVec<[u32; 4], 16>,
    /// The slots whose parts are in the list, and where each is (meant
    /// only for those): one bit test finds a tile's parts, with no search
    /// of the list whose end the processor would mispredict.
    parts_known: u32,
    parts_at: [u8; 32],
    /// Candidates are tried a few at a time, not all of them.
    sampling: bool,
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
    parts: ArrayVec<u32, 4>,
    /// With one part: the tiles that hold that part together, or `None`
    /// when that part has no holes, so that the ring test tells them.
    holding: Option<u32>,
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
        neighbours: u32,
        capture: bool,
    ) -> Option<bool> {
        let touching = neighbours & !(1 << self.slot);
        let Some(m) = mover else {
            // A placement adds a tile: it must touch every part.
            return Some(self.parts.iter().all(|&p| p & touching != 0));
        };
        let bit = 1 << m;
        if capture {
            // The occupied squares become the old ones less the mover's.
            return Some(match self.parts[..] {
                [_] => !holds(m),
                [a, b] => a == bit || b == bit,
                _ => false,
            });
        }
        if self.parts.len() == 1 {
            return (!holds(m)).then_some(touching != 0);
        }
        let own = self
            .parts
            .iter()
            .copied()
            .find(|&p| p & bit != 0)
            .unwrap_or(0);
        if self.parts.iter().any(|&p| p != own && p & touching == 0) {
            return Some(false);
        }
        (own == bit).then_some(true)
    }
}

/// What a step's destination holds.
#[derive(Clone, Copy, Debug)]
enum Landing {
    /// An enemy tile: the step captures it.
    Capture,
    /// Nothing: the tiles around it but the mover's, when already read.
    Empty(Option<Ring>),
}

/// The box within which any legal destination lies: one square around
/// every tile, and never past the coordinate limit of RULES.md section 1.
#[derive(Clone, Copy, Debug)]
struct Reach {
    min_x: i32,
    min_y: i32,
    max_x: i32,
    max_y: i32,
}

impl Reach {
    #[inline(always)]
    fn contains(&self, s: Square) -> bool {
        s.x >= self.min_x && s.x <= self.max_x && s.y >= self.min_y && s.y <= self.max_y
    }

    /// How many squares from `from` along the unit step `dx, dy` lie
    /// within the reach: past it no square touches a tile.
    #[inline(always)]
    fn room(&self, from: Square, dx: i32, dy: i32) -> i32 {
        let room = |d: i32, at: i32, lo: i32, hi: i32| match d {
            1 => hi - at,
            -1 => at - lo,
            _ => i32::MAX,
        };
        room(dx, from.x, self.min_x, self.max_x)
            .min(room(dy, from.y, self.min_y, self.max_y))
            .max(0)
    }
}

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
        self.placements(&mut screen, self.pile(self.side_to_move()), list);
        self.legal_steps(&mut screen, list);
    }

    /// Appends the legal moves of the side to move's tiles on the table,
    /// without placements: with "draw" as one more option, these are the
    /// choices of a turn before the drawn tile is known.
    pub fn generate_steps(&mut self, list: &mut MoveList) {
        let mut screen = self.screen();
        self.legal_steps(&mut screen, list);
    }

    /// Appends the legal placements of a drawn `kind` to `list`.
    pub fn generate_placements(&mut self, kind: Kind, list: &mut MoveList) {
        let mut pile = Pile::EMPTY;
        pile.add(kind);
        let mut screen = self.screen();
        self.placements(&mut screen, pile, list);
    }

    /// The [`Screen`] for trying candidates a few at a time, as random
    /// playouts do: with [`Position::step_slots`] and
    /// [`Position::slot_candidate`], or after
    /// [`Position::generate_step_candidates`].
    pub fn sampling_screen(&self) -> Screen {
        let mut screen = self.screen();
        screen.sampling = true;
        screen
    }

    /// True when `mv`, a candidate of this position under `screen` (a step
    /// from [`Position::generate_step_candidates`], or a placement of a
    /// tile of the pile on a square touching the table), is legal.
    pub fn candidate_is_legal(&mut self, mv: Move, screen: &mut Screen) -> bool {
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
                    return self.survives(mv);
                }
                self.spares_the_king(mv, None, to, false, screen)
            }
        }
    }

    /// True when the step of the side to move's tile in `slot` from `from`
    /// to `to`, a candidate under `screen`, is legal.
    #[inline(always)]
    fn step_is_legal(
        &mut self,
        slot: usize,
        from: Square,
        to: Square,
        landing: Landing,
        screen: &mut Screen,
    ) -> bool {
        let bit = 1 << slot;
        // The ring test clears most movers, and on a table without holes
        // it settles the rest. Otherwise a playout, which tries a few
        // candidates, floods per mover; generating every move, one
        // search of the whole table is cheaper.
        let ring = self.ring(from);
        let holds = !ring_connected(ring)
            && if self.without_holes() {
                true
            } else if screen.sampling {
                self.parts_of(slot, screen)[1] != 0
            } else {
                *screen
                    .holding
                    .get_or_insert_with(|| self.articulation_points(0))
                    & bit
                    != 0
            };
        if holds {
            // The mover holds the table together: it may not capture,
            // and must join every part again.
            let around = match landing {
                Landing::Capture => return false,
                Landing::Empty(around) => around.unwrap_or_else(|| self.ring_besides(to, from)),
            };
            // There are two parts at least to touch, and tiles of
            // different parts never touch: the tiles around `to` must fall
            // into two groups at least. Asked here, not in the call, as
            // most holding movers' steps end at this test.
            if ring_connected(around) || !self.joins_parts(slot, ring, to, screen) {
                return false;
            }
        }
        let mv = Move::Step { from, to };
        if slot == screen.king as usize {
            return self.king_step_is_safe(from, to);
        }
        // Only a tile on a line through the king can shield it.
        let exposes = screen.king != NO_SLOT
            && on_a_line(from, self.square_of(screen.king as usize))
            && self.shields_of(screen) & bit != 0;
        if exposes {
            return self.survives(mv);
        }
        let capture = matches!(landing, Landing::Capture);
        self.spares_the_king(mv, Some(slot), to, capture, screen)
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
        if self.attackers_of_king(screen) == 0 {
            return true;
        }
        if !screen.shapes_known {
            self.shape_attackers(screen);
        }
        let mut neighbours = self.neighbour_slots(to);
        if let Some(m) = mover {
            neighbours &= !(1 << m);
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
                let (a, bit) = (attacker.square, 1 << attacker.slot);
                let alone = mover.is_some_and(|m| self.adjacent(m) & !bit == 0);
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
    pub fn screen(&self) -> Screen {
        Screen {
            reach: self.reach(),
            king: self.king_slot(self.side_to_move()),
            holding: None,
            shields: None,
            attackers: None,
            shapes: ArrayVec::new(),
            shapes_known: false,
            parts: ArrayVec::new(),
            parts_known: 0,
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
        let touching = self.neighbour_slots(to) & !(1 << slot);
        self.parts_of(slot, screen)
            .iter()
            .all(|&p| p == 0 || p & touching != 0)
    }

    /// The parts the table falls into without the side to move's tile in
    /// `slot` (one part when it holds nothing together), zero-padded.
    fn parts_of(&self, slot: usize, screen: &mut Screen) -> [u32; 4] {
        if screen.parts_known & (1 << slot) != 0 {
            return screen.parts[usize::from(screen.parts_at[slot])];
        }
        let mut parts = [0; 4];
        for (part, found) in parts.iter_mut().zip(self.parts_without(slot)) {
            *part = found;
        }
        screen.parts_known |= 1 << slot;
        screen.parts_at[slot] = screen.parts.len() as u8;
        screen.parts.push(parts);
        parts
    }

    /// The screen's attackers of the king, found when first needed.
    fn attackers_of_king(&self, screen: &mut Screen) -> u32 {
        *screen.attackers.get_or_insert_with(|| {
            if screen.king == NO_SLOT {
                0
            } else {
                self.attackers_of(screen.king as usize)
            }
        })
    }

    fn shields_of(&self, screen: &mut Screen) -> u32 {
        *screen
            .shields
            .get_or_insert_with(|| self.shields(self.square_of(screen.king as usize)))
    }

    /// Works out the shape of the table without each attacker.
    fn shape_attackers(&self, screen: &mut Screen) {
        let target = self.square_of(screen.king as usize);
        for slot in Slots(self.attackers_of_king(screen)) {
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
                ArrayVec::from_iter([self.present() & !(1 << slot)])
            } else if self.without_holes() {
                ArrayVec::new()
            } else {
                self.parts_without(slot)
            };
            let holding = if parts.len() != 1 {
                Some(0)
            } else if self.without_holes_less(square) {
                None
            } else {
                Some(self.articulation_points(1 << slot))
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
            Some(holding) => holding & (1 << slot) != 0,
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
    fn shields(&self, king: Square) -> u32 {
        let mut shields = 0;
        for slider in Slots(self.aligned_sliders(self.side_to_move().opposite(), king)) {
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
                shields |= 1 << shield;
            }
        }
        shields
    }

    /// One square around every tile, within the coordinate limit.
    fn reach(&self) -> Reach {
        let (min_x, min_y, max_x, max_y) = self.bounds();
        Reach {
            min_x: (min_x - 1).max(-COORD_LIMIT),
            min_y: (min_y - 1).max(-COORD_LIMIT),
            max_x: (max_x + 1).min(COORD_LIMIT),
            max_y: (max_y + 1).min(COORD_LIMIT),
        }
    }

    /// True when, after `mv` is played on the table, the mover's king is
    /// not capturable.
    fn survives(&mut self, mv: Move) -> bool {
        let us = self.side_to_move();
        let undo = self.apply_to_table(mv);
        let ok = !self.king_capturable(us);
        self.revert_on_table(mv, undo);
        ok
    }

    /// True when the side to move's king, stepping from `from` to the
    /// square `to` next to it (a step that keeps the table together),
    /// cannot be captured there. As trying the step on the table, but
    /// read off the table as it stands: cheaper, as most king steps land
    /// where nothing attacks, or where the table has no holes.
    fn king_step_is_safe(&mut self, from: Square, to: Square) -> bool {
        let attackers = self.attackers_after_king_step(from, to);
        if attackers == 0 {
            return true;
        }
        if !self.without_holes_after_step(from, to) {
            return self.survives(Move::Step { from, to });
        }
        // Without holes, an attacker's capture keeps the table together
        // exactly when the tiles around the attacker hold together.
        Slots(attackers).all(|a| {
            let s = self.square_of(a);
            let ring = self.ring(s) & !ring_bit_if_within(from.x - s.x, from.y - s.y)
                | ring_bit_if_within(to.x - s.x, to.y - s.y);
            !ring_connected(ring)
        })
    }

    /// Calls `visit` with each empty square touching the table (or `0,0`
    /// on an empty table): where a drawn tile may go, connection-wise.
    pub fn frontier(&mut self, mut visit: impl FnMut(&mut Self, Square)) {
        for square in self.frontier_within(self.reach()).squares() {
            visit(self, square);
        }
    }

    /// The squares of [`Position::frontier`] within `screen`'s reach,
    /// counted row by row but not listed: a playout that draws a tile
    /// picks one of them, and most of the time the first pick is legal.
    pub fn frontier_rows(&self, screen: &Screen) -> FrontierRows {
        self.frontier_within(screen.reach)
    }

    /// The squares of [`Position::frontier`], with `reach` the position's.
    fn frontier_within(&self, reach: Reach) -> FrontierRows {
        let mut frontier = FrontierRows {
            rows: [0; 64],
            height: 1,
            min_x: reach.min_x,
            min_y: reach.min_y,
            total: 0,
        };
        if self.present() == 0 {
            frontier.rows[0] = 1 << (Square::ORIGIN.x & 63);
            (frontier.min_x, frontier.min_y) = (Square::ORIGIN.x, Square::ORIGIN.y);
            frontier.total = 1;
            return frontier;
        }
        frontier.height = (reach.max_y - reach.min_y + 1) as usize;
        // The reach spans fewer than 64 files, from reach.min_x on.
        let within = (u64::MAX >> (63 - (reach.max_x - reach.min_x)) as u32)
            .rotate_left((reach.min_x & 63) as u32);
        for (i, y) in (reach.min_y..=reach.max_y).enumerate() {
            let row = |dy: i32| self.row(y + dy);
            let band = row(-1) | row(0) | row(1);
            let spread = band | band.rotate_left(1) | band.rotate_right(1);
            frontier.rows[i] = spread & !row(0) & within;
            frontier.total += frontier.rows[i].count_ones();
        }
        frontier
    }

    fn placements(&mut self, screen: &mut Screen, pile: Pile, list: &mut MoveList) {
        let us = self.side_to_move();
        let others: ArrayVec<Kind, 5> = pile.kinds().filter(|&k| k != Kind::King).collect();
        let king_left = pile.count(Kind::King) > 0;
        if others.is_empty() && !king_left {
            return;
        }
        self.frontier(|pos, to| {
            if let Some(&kind) = others.first() {
                // Every kind but the king blocks and connects alike.
                let mv = Move::Place {
                    piece: Piece::new(us, kind),
                    to,
                };
                if pos.candidate_is_legal(mv, screen) {
                    for &kind in &others {
                        list.push(Move::Place {
                            piece: Piece::new(us, kind),
                            to,
                        });
                    }
                }
            }
            if king_left {
                let mv = Move::Place {
                    piece: Piece::new(us, Kind::King),
                    to,
                };
                if pos.candidate_is_legal(mv, screen) {
                    list.push(mv);
                }
            }
        });
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

    /// Appends the candidate moves of the side to move's tiles to `list`:
    /// a superset of the legal ones that [`Position::candidate_is_legal`]
    /// settles one by one under `screen`, this position's
    /// [`Position::sampling_screen`]. Random playouts test only the move
    /// they pick.
    pub fn generate_step_candidates(&self, screen: &Screen, list: &mut MoveList) {
        let us = self.side_to_move();
        let area = Area {
            reach: screen.reach,
            touch: self.touch(screen.reach),
        };
        for slot in Slots(self.present() & colour_mask(us)) {
            let from = self.square_of(slot);
            match self.kind_of(slot) {
                Kind::Queen => {
                    self.slides(from, &ORTHOGONAL, &area, list);
                    self.slides(from, &DIAGONAL, &area, list);
                }
                Kind::Rook => self.slides(from, &ORTHOGONAL, &area, list),
                Kind::Bishop => self.slides(from, &DIAGONAL, &area, list),
                Kind::Knight => self.jumps(from, &KNIGHT, false, &area, list),
                Kind::King => self.jumps(from, &KING, true, &area, list),
                Kind::Pawn => self.pawn(from, us, !self.has_moved(slot), &area, list),
            }
        }
    }

    /// For each torus row of the reach, the squares touching a tile.
    fn touch(&self, reach: Reach) -> [u64; 64] {
        let mut touch = [0; 64];
        for y in reach.min_y..=reach.max_y {
            let row = |dy: i32| self.row(y + dy);
            let band = row(-1) | row(0) | row(1);
            touch[(y & 63) as usize] = band | band.rotate_left(1) | band.rotate_right(1);
        }
        touch
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

/// The moves by movement of the side to move's tiles as numbered slots:
/// every candidate of [`Position::generate_step_candidates`] has exactly
/// one slot, and every other slot holds nothing.
///
/// A slot is one square a tile might reach (see `steps` below). Counting
/// them takes a few bit operations per line, so a playout can pick a slot
/// uniformly, see whether it holds a candidate, and pick again if not: a
/// uniform pick over the candidates without listing them.
///
/// The side's tiles are numbered `0..16` in the order of their slots;
/// `tiles` and `steps` have an entry per slot, the other arrays one per
/// tile.
#[derive(Clone, Debug)]
pub struct StepSlots {
    /// The number of each tile's first slot; `i16::MAX` past the last
    /// tile (a side has fewer than [`SLOT_LIMIT`] slots).
    starts: [i16; 16],
    /// The tile of each slot: one load on the way from the random number
    /// to the move, with no comparison of the starts.
    /// Each tile writes its number 32 entries at a time from its start,
    /// one vector store each, and the next tile over the overhang; only
    /// the entries below the count of slots mean anything.
    tiles: [u8; TILE_TABLE],
    /// The step of each slot from its tile's square, written as `tiles`
    /// is: for a slider, line by line, each square up to the first tile
    /// or the last square beside a tile (one past the coordinate limit
    /// at most, a slot that holds nothing); a king's or knight's 8
    /// squares; a pawn's steps ahead onto empty squares up to the last
    /// beside a tile, then its captures. Read by the pick, it leaves no
    /// line to find and no kind to ask.
    steps: [[i8; 2]; TILE_TABLE],
    /// Each tile's slot in the position.
    slots: [u8; 16],
    total: u32,
}

impl StepSlots {
    /// No slots: the numbering before any tile is numbered.
    pub const EMPTY: StepSlots = StepSlots {
        starts: [i16::MAX; 16],
        tiles: [0; TILE_TABLE],
        steps: [[0; 2]; TILE_TABLE],
        slots: [0; 16],
        total: 0,
    };

    /// How many slots there are.
    pub fn len(&self) -> u32 {
        self.total
    }

    /// True when there are no slots: no tile of the side can move.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

impl Position {
    /// Numbers the slots of the side to move's tiles (see [`StepSlots`])
    /// within `screen`'s reach.
    #[inline]
    pub fn step_slots(&self, screen: &Screen) -> StepSlots {
        let mut numbering = StepSlots::EMPTY;
        self.number_step_slots(screen, &mut numbering);
        numbering
    }

    /// [`Position::step_slots`], written over `numbering` in place.
    ///
    /// For the playouts, which number every turn over one numbering: a
    /// fresh one would clear its table of tiles each turn, and one
    /// returned by value is copied by wide loads of fields just written
    /// narrow, which wait for the stores before the first pick.
    #[inline]
    pub fn number_step_slots(&self, screen: &Screen, numbering: &mut StepSlots) {
        let reach = screen.reach;
        numbering.starts = [i16::MAX; 16];
        numbering.total = 0;
        // Kind by kind, so that no branch asks each tile its kind.
        let mut tile = 0;
        // Numbers the slots of the tile in `slot`, line by line: each line
        // is its length and the steps along it.
        let mut number = |slot: usize, lines: &[(u32, &Steps)]| {
            let start = numbering.total as usize;
            let count: u32 = lines.iter().map(|&(length, _)| length).sum();
            let mut at = start;
            loop {
                let from = at.min(SLOT_LIMIT as usize);
                numbering.tiles[from..from + 32].fill(tile as u8);
                at += 32;
                if at >= start + count as usize {
                    break;
                }
            }
            // Each line writes 8 steps, and 24 more when it is longer;
            // the next line, or tile, writes over the rest.
            let mut at = start;
            for &(length, steps) in lines {
                let from = at.min(SLOT_LIMIT as usize);
                numbering.steps[from..from + 8].copy_from_slice(&steps[..8]);
                if length > 8 {
                    numbering.steps[from + 8..from + 32].copy_from_slice(&steps[8..]);
                }
                at += length as usize;
            }
            numbering.starts[tile] = start as i16;
            numbering.slots[tile] = slot as u8;
            numbering.total += count;
            tile += 1;
        };
        let us = self.side_to_move();
        for slot in Slots(self.tiles_of(us, Kind::King) | self.tiles_of(us, Kind::Knight)) {
            let jumps = &JUMP_STEPS[usize::from(self.kind_of(slot) == Kind::Knight)];
            number(slot, &[(8, jumps)]);
        }
        let f = us.forward();
        let them = us.opposite().index();
        let ahead = &LINE_STEPS[Line::ahead(us) as usize];
        let [west, east] = &PAWN_CAPTURES[us.index()];
        for slot in Slots(self.tiles_of(us, Kind::Pawn)) {
            // Its steps up to the first tile, the last square beside a
            // tile or the reach's edge, and the captures there are: pawns
            // have few moves and many void squares, which would waste
            // picks.
            let from = self.square_of(slot);
            let most = if self.has_moved(slot) { 1 } else { 3 };
            let room = if f > 0 {
                reach.max_y - from.y
            } else {
                from.y - reach.min_y
            };
            let free = self.column_blocker_distance(from, f > 0) - 1;
            let touched = self.column_touch_distance(from, f > 0);
            let forward = most.min(room as u32).min(free).min(touched);
            // The two squares diagonally ahead hold an enemy tile when
            // their cell's slot is of the enemy's sixteen: an empty cell's
            // `NO_SLOT` is of neither. No branch, as either is a coin toss.
            let enemy = |dx: i32| {
                let slot = self.cell_slot(from.offset(dx, f));
                u32::from(usize::from(slot >> 4) == them)
            };
            number(
                slot,
                &[(forward, ahead), (enemy(-1), west), (enemy(1), east)],
            );
        }
        // Each line of a slider runs up to the first tile or the last
        // square beside a tile: past it, nothing is a candidate. Every
        // square beside a tile lies within the reach, unless the
        // coordinate limit cuts it short; the pick tests the reach.
        let lines = |blockers: [u32; 4], touches: [u32; 4]| -> [u32; 4] {
            std::array::from_fn(|i| blockers[i].min(touches[i]))
        };
        let [e, w, n, s, ne, nw, se, sw] = &LINE_STEPS;
        for slot in Slots(self.tiles_of(us, Kind::Rook)) {
            let from = self.square_of(slot);
            let [le, lw, ln, ls] = lines(
                self.orthogonal_blocker_distances(from),
                self.orthogonal_touch_distances(from),
            );
            number(slot, &[(le, e), (lw, w), (ln, n), (ls, s)]);
        }
        for slot in Slots(self.tiles_of(us, Kind::Bishop)) {
            let from = self.square_of(slot);
            let [lne, lnw, lse, lsw] = lines(
                self.diagonal_blocker_distances(from),
                self.diagonal_touch_distances(from),
            );
            number(slot, &[(lne, ne), (lnw, nw), (lse, se), (lsw, sw)]);
        }
        for slot in Slots(self.tiles_of(us, Kind::Queen)) {
            let from = self.square_of(slot);
            let [le, lw, ln, ls] = lines(
                self.orthogonal_blocker_distances(from),
                self.orthogonal_touch_distances(from),
            );
            let [lne, lnw, lse, lsw] = lines(
                self.diagonal_blocker_distances(from),
                self.diagonal_touch_distances(from),
            );
            number(
                slot,
                &[
                    (le, e),
                    (lw, w),
                    (ln, n),
                    (ls, s),
                    (lne, ne),
                    (lnw, nw),
                    (lse, se),
                    (lsw, sw),
                ],
            );
        }
    }

    /// The candidate in slot `index` (below `slots.len()`) of the
    /// numbering `slots` made with `screen`, or `None` when the slot holds
    /// no candidate.
    pub fn slot_candidate(&self, slots: &StepSlots, screen: &Screen, index: u32) -> Option<Move> {
        self.slot_step(slots, screen, index)
            .map(|(_, from, to, _)| Move::Step { from, to })
    }

    /// The move in slot `index` (below `slots.len()`) of the numbering
    /// `slots` made with `screen`, when the slot holds a legal one: a
    /// playout's pick, decoded and tested without working out twice what
    /// both need.
    ///
    /// Always inlined into the pick loop, which it dominates: as a call,
    /// saving and restoring its many registers would cost more than it.
    #[inline(always)]
    pub fn slot_move(
        &mut self,
        slots: &StepSlots,
        screen: &mut Screen,
        index: u32,
    ) -> Option<Move> {
        let (slot, from, to, landing) = self.slot_step(slots, screen, index)?;
        self.step_is_legal(slot, from, to, landing, screen)
            .then_some(Move::Step { from, to })
    }

    /// The candidate in slot `index` as the mover's slot, its origin and
    /// destination, and what it lands on.
    #[inline(always)]
    fn slot_step(
        &self,
        slots: &StepSlots,
        screen: &Screen,
        index: u32,
    ) -> Option<(usize, Square, Square, Landing)> {
        let index = index as usize;
        let tile = usize::from(slots.tiles[index]);
        let [dx, dy] = slots.steps[index];
        let slot = usize::from(slots.slots[tile]);
        let from = self.square_of(slot);
        // A line ends at its first tile: the squares before `to` are
        // empty. A pawn's steps ahead end before a tile, and its captures
        // land on enemy tiles.
        let to = from.offset(i32::from(dx), i32::from(dy));
        // A quiet step is a candidate when a tile besides the mover
        // touches its destination.
        let quiet = |to: Square| {
            let around = self.ring_besides(to, from);
            (around != 0).then_some((slot, from, to, Landing::Empty(Some(around))))
        };
        // A jump may land past the reach; a slide only past the
        // coordinate limit.
        if !screen.reach.contains(to) {
            return None;
        }
        if self.occupied(to) {
            self.is_enemy(to)
                .then_some((slot, from, to, Landing::Capture))
        } else {
            quiet(to)
        }
    }
}

/// More slots than the side's tiles can have: each line of a slider ends
/// within 32 squares, so a queen has at most 256 slots, a rook or bishop
/// 128, a king or knight 8 and a pawn 5, and 16 tiles fewer than 900.
/// [`StepSlots`] keeps the tiles and steps of the slots below it only.
pub const SLOT_LIMIT: u32 = 1024;

/// The entries of [`StepSlots::tiles`]: a tile writes 32 from a start
/// at the limit at most.
const TILE_TABLE: usize = SLOT_LIMIT as usize + 32;

/// The steps of a line of slots: up to 32 from a tile, as a slide
/// along a line reaches no further (the group spans 32 squares at most).
type Steps = [[i8; 2]; 32];

/// The steps along each [`Line`], by its number: `k + 1` squares along
/// at entry `k`.
static LINE_STEPS: [Steps; 8] = {
    let mut t = [[[0; 2]; 32]; 8];
    let mut line = 0;
    while line < 8 {
        let (dx, dy) = if line < 4 {
            ORTHOGONAL[line]
        } else {
            DIAGONAL[line - 4]
        };
        let mut k = 0;
        while k < 32 {
            let n = k as i32 + 1;
            t[line][k] = [(dx * n) as i8, (dy * n) as i8];
            k += 1;
        }
        line += 1;
    }
    t
};

/// The squares of a king and of a knight, as steps.
static JUMP_STEPS: [Steps; 2] = {
    let mut t = [[[0; 2]; 32]; 2];
    let mut i = 0;
    while i < 8 {
        t[0][i] = [KING[i].0 as i8, KING[i].1 as i8];
        t[1][i] = [KNIGHT[i].0 as i8, KNIGHT[i].1 as i8];
        i += 1;
    }
    t
};

/// A pawn's captures by its colour, west then east: lines of one step.
/// Its steps ahead are the line north or south of [`LINE_STEPS`].
static PAWN_CAPTURES: [[Steps; 2]; 2] = {
    let mut t = [[[[0; 2]; 32]; 2]; 2];
    t[0][0][0] = [-1, 1];
    t[0][1][0] = [1, 1];
    t[1][0][0] = [-1, -1];
    t[1][1][0] = [1, -1];
    t
};

/// The squares of [`Position::frontier_rows`], in the order
/// [`Position::frontier`] visits them.
#[derive(Clone, Debug)]
pub struct FrontierRows {
    /// For each row of the reach from the lowest, its squares, by bit
    /// `x mod 64`.
    rows: [u64; 64],
    /// How many rows the reach has.
    height: usize,
    min_x: i32,
    min_y: i32,
    total: u32,
}

impl FrontierRows {
    /// How many squares there are.
    pub fn len(&self) -> u32 {
        self.total
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The square numbered `index`, below [`FrontierRows::len`].
    pub fn square(&self, index: u32) -> Square {
        let mut index = index;
        let mut i = 0;
        while index >= self.rows[i].count_ones() {
            index -= self.rows[i].count_ones();
            i += 1;
        }
        self.square_at(i, nth_bit(self.rows[i], index))
    }

    /// Every square, in the order of their numbers.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        let rows = self.rows[..self.height].iter().enumerate();
        rows.flat_map(move |(i, &row)| {
            let mut left = row;
            std::iter::from_fn(move || {
                let bit = (left != 0).then(|| left.trailing_zeros())?;
                left &= left - 1;
                Some(self.square_at(i, bit))
            })
        })
    }

    /// The square of bit `bit` of row `i`.
    fn square_at(&self, i: usize, bit: u32) -> Square {
        // The reach spans fewer than 64 files from `min_x` on.
        let x = self.min_x + ((bit as i32 - self.min_x) & 63);
        Square::new(x, self.min_y + i as i32)
    }
}

/// The position of the set bit of `word` that has `n` set bits below it:
/// one BMI2 instruction where the build has it, else a loop.
#[inline(always)]
fn nth_bit(word: u64, n: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    return nth_bit_bmi2(word, n);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    return nth_bit_scalar(word, n);
}

/// [`nth_bit`] by BMI2's bit deposit.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn nth_bit_bmi2(word: u64, n: u32) -> u32 {
    // SAFETY: BMI2 is enabled for this build (the cfg above, and `main`
    // stops on a processor without it).
    unsafe { std::arch::x86_64::_pdep_u64(1 << n, word).trailing_zeros() }
}

/// [`nth_bit`] by clearing the `n` lowest set bits: the plain version,
/// compiled in every build and tested against the BMI2 one.
#[cfg_attr(
    all(target_arch = "x86_64", target_feature = "bmi2"),
    allow(dead_code, reason = "the BMI2 build uses it in tests only")
)]
#[inline(always)]
fn nth_bit_scalar(word: u64, n: u32) -> u32 {
    let mut word = word;
    for _ in 0..n {
        word &= word - 1;
    }
    word.trailing_zeros()
}

/// Where the side to move's tiles may go, connection-wise.
struct Area {
    /// The box of all legal destinations.
    reach: Reach,
    /// For each torus row of the reach, the squares touching a tile.
    touch: [u64; 64],
}

impl Area {
    #[inline(always)]
    fn touches(&self, s: Square) -> bool {
        self.touch[(s.y & 63) as usize] & (1 << (s.x & 63)) != 0
    }
}

/// True when `a` and `b` share a rank, file or diagonal.
#[inline(always)]
fn on_a_line(a: Square, b: Square) -> bool {
    let (dx, dy) = (a.x - b.x, a.y - b.y);
    dx == 0 || dy == 0 || dx == dy || dx == -dy
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions on an empty table, across the torus's seam, at the
    /// coordinate limit, at negative coordinates, with a tile of many
    /// slots, and along games from the bench positions.
    fn positions_along_games() -> Vec<Position> {
        let mut positions: Vec<Position> = [
            "startpos",
            "K62,0/n63,0/N64,0 w QRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2",
            "K1000000000,0/n1000000000,1 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            "K-40,-70/n-41,-71 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            // A queen in the corner of two long lines: 34 slots.
            "Q0,0/p1,1/q2,1/r3,1/r4,1/b5,1/b6,1/n7,1/n8,1/p9,1/p10,1/p11,1/p12,1/p13,1/\
             p14,1/k15,1/P1,2/P1,3/P1,4/P1,5/P1,6/P1,7/P1,8/P1,9/N1,10/N1,11/B1,12/B1,13/\
             R1,14/R1,15/K1,16 w -/p 0 20",
        ]
        .iter()
        .map(|text| text.parse().unwrap())
        .collect();
        for line in crate::bench::POSITIONS.lines() {
            let mut pos: Position = line.parse().unwrap();
            for turn in 0..40 {
                positions.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[turn * 7 % moves.len()]);
            }
        }
        positions
    }

    /// The BMI2 and the scalar `nth_bit` agree on every bit of words
    /// dense and sparse.
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    #[test]
    fn scalar_nth_bit_equals_the_bmi2_one() {
        let mut word: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..1000 {
            word = word.rotate_left(7) ^ word.wrapping_mul(0x2545_F491_4F6C_DD1D);
            for sparse in [
                word,
                word & word.rotate_left(13) & word.rotate_left(29),
                u64::MAX,
            ] {
                for n in 0..sparse.count_ones() {
                    assert_eq!(
                        nth_bit_scalar(sparse, n),
                        nth_bit_bmi2(sparse, n),
                        "{sparse:x} {n}"
                    );
                }
            }
        }
    }

    /// A slider's line ends at the last square beside a tile, which may
    /// lie one past the coordinate limit: the slot there holds nothing,
    /// and the slots hold exactly the candidates.
    #[test]
    fn slots_stop_at_the_coordinate_limit() {
        for text in [
            "R999999999,0/n1000000000,1 w KQRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
            "q-999999999,-999999999/N-1000000000,-999999998 b KQRRBBNPPPPPPPP/krrbbnnpppppppp 0 2",
        ] {
            let pos: Position = text.parse().unwrap();
            let screen = pos.sampling_screen();
            let slots = pos.step_slots(&screen);
            let mut numbered: Vec<Move> = (0..slots.len())
                .filter_map(|i| pos.slot_candidate(&slots, &screen, i))
                .collect();
            let mut candidates = MoveList::new();
            pos.generate_step_candidates(&screen, &mut candidates);
            let mut candidates = candidates.to_vec();
            numbered.sort();
            candidates.sort();
            assert_eq!(numbered, candidates, "{text}");
            assert!(numbered.iter().all(|mv| mv.to().in_range()), "{text}");
            // One slot more than candidates: the square past the limit.
            assert_eq!(slots.len() as usize, numbered.len() + 1, "{text}");
        }
    }

    /// `frontier_rows` numbers the squares `frontier` visits, in its
    /// order.
    #[test]
    fn frontier_rows_number_the_frontier_in_order() {
        for mut pos in positions_along_games() {
            let rows = pos.frontier_rows(&pos.sampling_screen());
            let numbered: Vec<Square> = (0..rows.len()).map(|i| rows.square(i)).collect();
            let mut visited = Vec::new();
            pos.frontier(|_, s| visited.push(s));
            assert_eq!(numbered, visited, "{pos}");
        }
    }

    /// The slots are as few as the lines allow: each line ends at its
    /// first tile, or at the last square beside a tile besides the mover,
    /// or at the reach's edge. Counted here by walking the squares.
    #[test]
    fn lines_end_at_the_last_square_beside_a_tile() {
        let mut cut_short = 0;
        for pos in positions_along_games() {
            let screen = pos.sampling_screen();
            let us = pos.side_to_move();
            // The length of the line from `from` along `step` (its first
            // tile's square included when `to_tile`), and how many
            // squares past its end the walk went before the reach's edge
            // or a tile.
            let line = |from: Square, (dx, dy): (i32, i32), to_tile: bool| {
                let (mut length, mut walked) = (0, 0);
                for k in 1.. {
                    let to = from.offset(dx * k, dy * k);
                    if !screen.reach.contains(to) {
                        break;
                    }
                    walked = k;
                    if pos.occupied(to) {
                        if to_tile {
                            length = k;
                        } else {
                            walked = k - 1;
                        }
                        break;
                    }
                    if pos.ring_besides(to, from) != 0 {
                        length = k;
                    }
                }
                (length, walked - length)
            };
            let mut expected = 0;
            let queen = [ORTHOGONAL, DIAGONAL].concat();
            for slot in Slots(pos.present() & colour_mask(us)) {
                let from = pos.square_of(slot);
                let kind = pos.kind_of(slot);
                // A pawn's steps are its line's squares up to its step
                // limit.
                let (steps, most): (&[(i32, i32)], i32) = match kind {
                    Kind::King | Kind::Knight => {
                        expected += 8;
                        continue;
                    }
                    Kind::Pawn => {
                        let f = us.forward();
                        let enemy = |dx| {
                            pos.tile_at(from.offset(dx, f))
                                .is_some_and(|t| t.piece.colour != us)
                        };
                        expected += u32::from(enemy(-1)) + u32::from(enemy(1));
                        let most = if pos.has_moved(slot) { 1 } else { 3 };
                        (&[(0, f)], most)
                    }
                    Kind::Rook => (&ORTHOGONAL, i32::MAX),
                    Kind::Bishop => (&DIAGONAL, i32::MAX),
                    Kind::Queen => (&queen, i32::MAX),
                };
                for &step in steps {
                    let (length, past) = line(from, step, kind != Kind::Pawn);
                    expected += length.min(most) as u32;
                    cut_short += usize::from(past > 0);
                }
            }
            assert_eq!(pos.step_slots(&screen).len(), expected, "{pos}");
        }
        assert!(cut_short > 1000, "{cut_short}");
    }

    /// Every slot's entry names the tile whose slots hold it.
    #[test]
    fn every_slot_names_its_tile() {
        let mut sizes = 0;
        for pos in positions_along_games() {
            let slots = pos.step_slots(&pos.sampling_screen());
            let tiles = slots.starts.iter().filter(|&&s| s != i16::MAX).count();
            for tile in 0..tiles {
                let end = slots.starts.get(tile + 1).copied().unwrap_or(i16::MAX);
                let end = end.min(slots.total as i16);
                for index in slots.starts[tile]..end {
                    assert_eq!(usize::from(slots.tiles[index as usize]), tile, "{pos}");
                }
                sizes |= 1u128 << (end - slots.starts[tile]).min(127);
            }
        }
        // Tiles of more than 32 slots too, which write more than once.
        assert!(sizes >> 33 != 0, "{sizes:b}");
    }
}
