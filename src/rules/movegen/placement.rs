//! Placements: where a drawn tile may go. Every square touching the
//! table takes every kind but the king unless the side is in check; the
//! king's squares are those no enemy capture reaches (RULES.md section 5).

use super::legality::{CaptureShape, Screen};
use super::reach::{touching, Reach};
use super::sampling::FrontierRows;
use super::{MoveList, Offsets};
use crate::rules::moves::Move;
use crate::rules::piece::{Kind, Piece};
use crate::rules::pile::Pile;
use crate::rules::position::geometry::{line_towards, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use crate::rules::position::{Position, NO_SLOT};
use crate::rules::ring::CENTRE;
use crate::rules::square::Square;
use crate::rules::tile_set::TileSet;
use arrayvec::ArrayVec;

impl Position {
    /// Appends the legal placements of a drawn `kind` to `list`.
    pub fn generate_placements(&mut self, kind: Kind, list: &mut MoveList) {
        let mut pile = Pile::EMPTY;
        pile.add(kind);
        let mut screen = self.screen();
        self.placements(&mut screen, pile, |mv| list.push(mv));
    }

    /// Appends the legal placements that give check of each kind in
    /// `pile`: where to look for a mate by placement. A placed tile checks
    /// by its own attack, or by joining the table so that a capture of
    /// the king by a tile already attacking it would keep the table one
    /// group. Without such a tile, only the squares from which the kind
    /// attacks the king are tried.
    pub fn generate_checking_placements(&mut self, pile: Pile, list: &mut MoveList) {
        let us = self.side_to_move();
        let Some(king) = self.king_square(us.opposite()) else {
            return;
        };
        let mut screen = self.screen();
        let mut squares = self.frontier_within(screen.reach);
        // With no tile attacking the king, a placement checks only by its
        // own attack. With one, a placement that joins the table checks
        // exactly when the king's side could not place a tile there, its
        // king left capturable: a tile joins and blocks alike whatever its
        // colour, and a placement opens no line.
        let joining = if self.attack_count(us, king) > 0 {
            self.hand_over_turn();
            let mut theirs = self.screen();
            let piece = Piece::new(us.opposite(), Kind::Pawn);
            let mut joining = squares.cleared();
            for to in squares.squares() {
                if !self.candidate_is_legal(Move::Place { piece, to }, &mut theirs) {
                    joining.insert(to);
                }
            }
            self.hand_over_turn();
            joining
        } else {
            let mut reaching = squares.cleared();
            self.squares_reaching(king, pile, screen.reach, |s| reaching.insert(s));
            squares.intersect(&reaching);
            squares.cleared()
        };
        for to in squares.squares() {
            // Every kind but the king is placed alike: its legality is
            // asked once a square.
            let mut legal = None;
            for kind in pile.kinds() {
                let piece = Piece::new(us, kind);
                // A placed tile that reaches the king checks: its capture
                // leaves the squares of the table as they were, one group.
                if !self.reaches(piece, to, king) && !joining.contains(to) {
                    continue;
                }
                let mv = Move::Place { piece, to };
                let is_legal = if kind == Kind::King {
                    self.candidate_is_legal(mv, &mut screen)
                } else {
                    *legal.get_or_insert_with(|| self.candidate_is_legal(mv, &mut screen))
                };
                if is_legal {
                    list.push(mv);
                }
            }
        }
    }

    /// Calls `visit` with each square within `reach` from which a tile of
    /// the side to move of a kind in `pile` would attack `target` by its
    /// movement (some more than once): those where [`Position::reaches`]
    /// can hold.
    fn squares_reaching(
        &self,
        target: Square,
        pile: Pile,
        reach: Reach,
        mut visit: impl FnMut(Square),
    ) {
        let has = |kind| pile.count(kind) > 0;
        let f = self.side_to_move().forward();
        let jumps: [(bool, &[(i32, i32)]); 3] = [
            (has(Kind::Knight), &KNIGHT),
            (has(Kind::King), &KING),
            (has(Kind::Pawn), &[(-1, -f), (1, -f)]),
        ];
        for (wanted, offsets) in jumps {
            for &(dx, dy) in offsets.iter().filter(|_| wanted) {
                let from = target.offset(dx, dy);
                if reach.contains(from) {
                    visit(from);
                }
            }
        }
        let straight = has(Kind::Rook) || has(Kind::Queen);
        let diagonal = has(Kind::Bishop) || has(Kind::Queen);
        for (wanted, dirs) in [(straight, &ORTHOGONAL), (diagonal, &DIAGONAL)] {
            for &(dx, dy) in dirs.iter().filter(|_| wanted) {
                for d in 1..=self.empty_run(target, dx, dy, reach) {
                    visit(target.offset(d * dx, d * dy));
                }
            }
        }
    }

    /// Whether `piece`, standing on `from`, would attack `target` by its
    /// movement, the squares between empty. Whether the capture keeps the
    /// table one group is left to [`Position::in_check`].
    fn reaches(&self, piece: Piece, from: Square, target: Square) -> bool {
        let (dx, dy) = (target.x - from.x, target.y - from.y);
        let (straight, diagonal) = (dx == 0 || dy == 0, dx.abs() == dy.abs());
        let line = match piece.kind {
            Kind::Knight => return KNIGHT.contains(&(dx, dy)),
            Kind::King => return KING.contains(&(dx, dy)),
            Kind::Pawn => return dx.abs() == 1 && dy == piece.colour.forward(),
            Kind::Rook => straight,
            Kind::Bishop => diagonal,
            Kind::Queen => straight || diagonal,
        };
        // On a line, and the first tile along it is the target's.
        line && (dx, dy) != (0, 0)
            && self.blocker_distance(from, line_towards(from, target))
                == dx.unsigned_abs().max(dy.unsigned_abs())
    }

    /// True when a drawn `kind` has a legal square: whether a draw can
    /// end the game, without listing every square. Stops at the first.
    /// False for a kind the pile does not hold, which no draw brings.
    pub fn can_place(&mut self, kind: Kind) -> bool {
        if self.pile(self.side_to_move()).count(kind) == 0 {
            return false;
        }
        let mut screen = self.screen();
        let reach = screen.reach;
        let piece = Piece::new(self.side_to_move(), kind);
        let mut legal =
            |pos: &mut Self, to| pos.candidate_is_legal(Move::Place { piece, to }, &mut screen);
        match self.squares_answering_check(reach) {
            Some(answers) => answers.into_iter().any(|to| legal(self, to)),
            None => self
                .frontier_within(reach)
                .squares()
                .any(|to| legal(self, to)),
        }
    }

    /// In check, the squares beside the table within `reach` where a
    /// placement could answer it; `None` when not in check. A legal
    /// placement answers every checker: it stands between one checker
    /// and the king, or touches that checker alone, so that the capture
    /// would leave the placed tile cut off (the table less a checker is
    /// one group, or its capture would not check). One checker's squares
    /// are a superset of the answers.
    pub(super) fn squares_answering_check(&self, reach: Reach) -> Option<ArrayVec<Square, 72>> {
        let king = self.king_slot(self.side_to_move());
        if king == NO_SLOT {
            return None;
        }
        let checker = self
            .attackers_of(king as usize)
            .into_iter()
            .find(|&a| self.removable(a))?;
        let (from, target) = (self.square_of(checker), self.square_of(king as usize));
        let mut squares = ArrayVec::new();
        for to in from.neighbours() {
            if reach.contains(to) && !self.occupied(to) && self.ring_besides(to, from) == 0 {
                squares.push(to);
            }
        }
        // A slider's squares between it and the king, the path clear.
        let (dx, dy) = (target.x - from.x, target.y - from.y);
        let distance = dx.abs().max(dy.abs());
        if matches!(
            self.kind_of(checker),
            Kind::Queen | Kind::Rook | Kind::Bishop
        ) {
            for d in 1..distance {
                let to = from.offset(d * dx.signum(), d * dy.signum());
                if self.ring(to) & !CENTRE != 0 {
                    squares.push(to);
                }
            }
        }
        Some(squares)
    }

    /// Calls `visit` with each empty square touching the table (or `0,0`
    /// on an empty table): where a drawn tile may go, connection-wise.
    pub fn frontier(&mut self, mut visit: impl FnMut(&mut Self, Square)) {
        for square in self.frontier_within(self.reach()).squares() {
            visit(self, square);
        }
    }

    /// Calls `emit` with each legal placement of each kind in `pile`.
    pub(super) fn placements(
        &mut self,
        screen: &mut Screen,
        pile: Pile,
        mut emit: impl FnMut(Move),
    ) {
        let us = self.side_to_move();
        let others: ArrayVec<Kind, 5> = pile.kinds().filter(|&k| k != Kind::King).collect();
        let king_left = pile.count(Kind::King) > 0;
        if others.is_empty() && !king_left {
            return;
        }
        let frontier = self.frontier_within(screen.reach);
        // Where the king may go: copied only while it is in the pile.
        let king_squares = king_left.then(|| {
            let mut safe = frontier.clone();
            self.remove_king_danger(screen.reach, &mut safe);
            safe
        });
        for to in frontier.squares() {
            if let Some(&kind) = others.first() {
                // Every kind but the king blocks and connects alike.
                let mv = Move::Place {
                    piece: Piece::new(us, kind),
                    to,
                };
                if self.candidate_is_legal(mv, screen) {
                    for &kind in &others {
                        emit(Move::Place {
                            piece: Piece::new(us, kind),
                            to,
                        });
                    }
                }
            }
            if king_squares.as_ref().is_some_and(|safe| safe.contains(to)) {
                emit(Move::Place {
                    piece: Piece::new(us, Kind::King),
                    to,
                });
            }
        }
    }

    /// How many moves [`Position::placements`] would emit for the side to
    /// move's pile, counted by squares where it can be. A placement opens
    /// no line, so while no enemy tile attacks the king every square
    /// touching the table takes every kind but the king, and the king
    /// every square [`Position::remove_king_danger`] leaves.
    /// `touch` holds the squares touching a tile, by torus row.
    pub(super) fn count_placements(&mut self, screen: &mut Screen, touch: &[u64; 64]) -> u64 {
        let pile = self.pile(self.side_to_move());
        if !self.attackers_of_king(screen).is_empty() {
            let mut count = 0;
            self.placements(screen, pile, |_| count += 1);
            return count;
        }
        let others = pile.kinds().filter(|&k| k != Kind::King).count() as u64;
        let king_left = pile.count(Kind::King) > 0;
        if others == 0 && !king_left {
            return 0;
        }
        let mut squares = self.frontier_touching(screen.reach, touch);
        let mut count = u64::from(squares.len()) * others;
        if king_left {
            self.remove_king_danger(screen.reach, &mut squares);
            count += u64::from(squares.len());
        }
        count
    }

    /// Removes from `squares`, squares touching the table, those where
    /// the side to move may not place its king: those an enemy tile
    /// attacks by a capture that keeps the table one group. Each enemy
    /// tile's few squares are struck, with what its capture leaves worked
    /// out once, where asking each square for its attackers would look at
    /// all sixteen tiles. In place: the squares are 512 bytes, and a
    /// second set to return cost as much as the marking.
    fn remove_king_danger(&self, reach: Reach, squares: &mut FrontierRows) {
        for slot in self.present() & TileSet::colour(self.side_to_move().opposite()) {
            match self.capture_shape(slot) {
                shape @ CaptureShape::Parts(_) => {
                    self.strike_each_attacked(slot, &shape, reach, squares)
                }
                shape => {
                    let alone = matches!(shape, CaptureShape::Alone);
                    self.strike_attacked_rows(slot, alone, reach, squares)
                }
            }
        }
    }

    /// Strikes the squares the enemy tile in `slot` attacks, whose capture
    /// leaves the rest of the table one group (`alone` when there is no
    /// rest), a row at a time. Each square touches a tile, so a capture
    /// onto it keeps the table unless the captor is all it touches: only
    /// the squares next to the captor are asked that.
    fn strike_attacked_rows(
        &self,
        slot: usize,
        alone: bool,
        reach: Reach,
        squares: &mut FrontierRows,
    ) {
        let from = self.square_of(slot);
        let (x, y) = (from.x, from.y);
        let bit = |dx: i32| 1u64 << ((x + dx) & 63);
        let near: [u64; 3] = if alone {
            [u64::MAX; 3]
        } else {
            // For the rows next to the captor, the squares touching a tile
            // besides it: the five rows around it, less the captor.
            let mut rows = [-2, -1, 0, 1, 2].map(|dy| self.row(y + dy));
            rows[2] &= !bit(0);
            [0, 1, 2].map(|i| touching(rows[i] | rows[i + 1] | rows[i + 2]))
        };
        match self.kind_of(slot) {
            Kind::Pawn => {
                let f = self.side_to_move().opposite().forward();
                squares.discard_row(y + f, (bit(-1) | bit(1)) & near[(f + 1) as usize]);
            }
            Kind::Knight => {
                for dy in [-2, 2] {
                    squares.discard_row(y + dy, bit(-1) | bit(1));
                }
                for dy in [-1, 1] {
                    squares.discard_row(y + dy, bit(-2) | bit(2));
                }
            }
            Kind::King => {
                let next_to = bit(-1) | bit(0) | bit(1);
                squares.discard_row(y - 1, next_to & near[0]);
                squares.discard_row(y, (bit(-1) | bit(1)) & near[1]);
                squares.discard_row(y + 1, next_to & near[2]);
            }
            kind => {
                // A queen rides both line kinds; four lines at a time,
                // their first tiles and the reach's room read together.
                if kind != Kind::Bishop {
                    let blockers = self.orthogonal_blocker_distances(from);
                    let rooms = reach.orthogonal_rooms(from);
                    strike_rays(from, &ORTHOGONAL, blockers, rooms, &near, squares);
                }
                if kind != Kind::Rook {
                    let blockers = self.diagonal_blocker_distances(from);
                    let rooms = reach.diagonal_rooms(from);
                    strike_rays(from, &DIAGONAL, blockers, rooms, &near, squares);
                }
            }
        }
    }

    /// Strikes the squares the enemy tile in `slot` attacks whose capture
    /// keeps the table one group, the capture splitting the rest into
    /// `shape`'s parts: each is tested.
    fn strike_each_attacked(
        &self,
        slot: usize,
        shape: &CaptureShape,
        reach: Reach,
        squares: &mut FrontierRows,
    ) {
        let from = self.square_of(slot);
        let f = self.side_to_move().opposite().forward();
        // `to` lies within the reach.
        let mut strike = |to: Square| {
            if squares.contains(to) && self.capture_keeps_table(slot, shape, to) {
                squares.remove(to);
            }
        };
        let (jumps, lines): (Offsets, Offsets) = match self.kind_of(slot) {
            Kind::Pawn => (&[(-1, f), (1, f)], &[]),
            Kind::Knight => (&KNIGHT, &[]),
            Kind::King => (&KING, &[]),
            Kind::Rook => (&[], &ORTHOGONAL),
            Kind::Bishop => (&[], &DIAGONAL),
            Kind::Queen => (&[], &KING),
        };
        for &(dx, dy) in jumps {
            let to = from.offset(dx, dy);
            if reach.contains(to) {
                strike(to);
            }
        }
        for &(dx, dy) in lines {
            for d in 1..=self.empty_run(from, dx, dy, reach) {
                strike(from.offset(d * dx, d * dy));
            }
        }
    }
}

/// Strikes from `squares` the squares a slider on `from` attacks along
/// `lines`, the first tile of each `blockers` away and the reach's
/// `rooms` squares: past the captor's neighbours every one, and next to
/// it those of `near`, by the rows above, on and below `from`.
#[inline(always)]
fn strike_rays(
    from: Square,
    lines: &[(i32, i32); 4],
    blockers: [u32; 4],
    rooms: [i32; 4],
    near: &[u64; 3],
    squares: &mut FrontierRows,
) {
    let (x, y) = (from.x, from.y);
    let bit = |dx: i32| 1u64 << ((x + dx) & 63);
    for ((&(dx, dy), blocker), room) in lines.iter().zip(blockers).zip(rooms) {
        let last = (blocker as i32 - 1).min(room);
        if last <= 0 {
            continue;
        }
        squares.discard_row(y + dy, bit(dx) & near[(dy + 1) as usize]);
        if dy == 0 {
            // The rest of the ray in one word: bits x + 2dx to x + last·dx.
            let run = (1u64 << (last - 1)) - 1;
            let start = if dx > 0 { x + 2 } else { x - last };
            squares.discard_row(y, run.rotate_left((start & 63) as u32));
            continue;
        }
        for d in 2..=last {
            squares.discard_row(y + d * dy, bit(d * dx));
        }
    }
}
