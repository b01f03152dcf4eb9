//! Attacks by movement: which tiles could capture on a square, path
//! clear, before the connection rule is asked. Check is an attack whose
//! capture keeps the table one group ([`Position::king_capturable`]).
//!
//! The per-tile tests run for all sixteen tiles of a side at once
//! ([`Bearings`], [`BlockReach`]): with AVX2 eight lanes at a time,
//! else tile by tile; both versions are compiled and tested against each
//! other.

use super::piece::{Colour, Kind};
use super::position::geometry::{
    line_back, line_towards, Line, DIAGONAL, KING, KNIGHT, ORTHOGONAL,
};
use super::position::{Position, NO_SLOT};
use super::square::Square;
use super::tile_set::TileSet;

/// How the tiles of one colour lie from a target square, as sets of
/// slots: which share its rank or file, which its diagonal, which stand a
/// knight's jump away and which next to it. Slots off the table are in
/// any of them: intersect with the tiles wanted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bearings {
    straight: TileSet,
    diagonal: TileSet,
    knight: TileSet,
    adjacent: TileSet,
}

/// Which of one colour's slots stand near enough to a 3 × 3 block to
/// attack one of its squares, by each way of attacking: the few tiles
/// [`Position::attacked_block`] then looks at one by one. Slots off the
/// table are in any of them: intersect with the tiles wanted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct BlockReach {
    /// Within 2 of the centre on both axes: a pawn or a king attacks the
    /// block only from there.
    near: TileSet,
    /// Within 3 of the centre on both axes: a knight's jumps reach no
    /// further.
    jump: TileSet,
    /// Within 1 of the centre's file or rank: a rank or a file crosses
    /// the block only there.
    straight: TileSet,
    /// Within 2 of one of the centre's diagonals (`|x − y|` or `|x + y|`
    /// at most 2, seen from the centre): a diagonal crosses the block
    /// only there.
    diagonal: TileSet,
}

/// For a tile jumping by `offsets` that stands `x, y` from a block's
/// centre (both within 3), at `7 (y + 3) + x + 3`: the block's squares it
/// attacks, numbered as [`Position::attacked_block`] numbers them.
const fn jump_blocks(offsets: [(i32, i32); 8]) -> [u16; 49] {
    let mut masks = [0; 49];
    let mut i = 0;
    while i < 49 {
        let (x, y) = (i as i32 % 7 - 3, i as i32 / 7 - 3);
        let mut k = 0;
        while k < 8 {
            let (sx, sy) = (x + offsets[k].0, y + offsets[k].1);
            if sx.abs() <= 1 && sy.abs() <= 1 {
                masks[i] |= 1 << (3 * (sy + 1) + sx + 1);
            }
            k += 1;
        }
        i += 1;
    }
    masks
}

const KNIGHT_BLOCKS: [u16; 49] = jump_blocks(KNIGHT);
const KING_BLOCKS: [u16; 49] = jump_blocks(KING);

impl Bearings {
    /// Of `(rooks, bishops)`, the sliders (queens are in both) on a line
    /// they ride through the target.
    #[inline(always)]
    fn aligned(&self, (rooks, bishops): (TileSet, TileSet)) -> TileSet {
        self.straight & rooks | self.diagonal & bishops
    }
}

impl Position {
    /// How many of `colour`'s tiles attack `square` by their movement,
    /// path clear. Whether a capture there would keep the table one group
    /// is not considered: this is a cheap measure of control, not a
    /// legality test. `square` lies near the group (within a square of
    /// the tiles' box), as the table is read on a torus.
    pub fn attack_count(&self, colour: Colour, square: Square) -> u32 {
        self.attackers(colour, square).len()
    }

    /// Which squares of the 3 × 3 block centred on `centre` `colour`
    /// attacks, as [`Position::attack_count`] judges attacks: bit
    /// `3 (dy + 1) + dx + 1` stands for the square `dx, dy` from the
    /// centre. One look at `colour`'s tiles near the block instead of
    /// nine searches for attackers: an evaluation asks this of each
    /// king's block.
    pub fn attacked_block(&self, colour: Colour, centre: Square) -> u16 {
        // On a big table most tiles stand too far to reach the block:
        // which could is worked out for all sixteen slots at once, and
        // only those are looked at, kind by kind.
        let reach = self.block_reach(colour, centre);
        let of = |kind: Kind| self.tiles_of(colour, kind);
        let (rooks, bishops) = self.sliders(colour);
        // The tile in `slot`, seen from the centre.
        let offset = |slot: usize| {
            let at = self.square_of(slot);
            (at.x - centre.x, at.y - centre.y)
        };
        // A jumper's squares, read off its table: it stands within 3.
        let jump = |masks: &[u16; 49], slot: usize| {
            let (x, y) = offset(slot);
            masks[(7 * (y + 3) + x + 3) as usize]
        };
        let mut block = 0;
        for slot in reach.near & of(Kind::Pawn) {
            let (x, y) = offset(slot);
            let y = y + colour.forward();
            for x in [x - 1, x + 1] {
                if x.abs() <= 1 && y.abs() <= 1 {
                    block |= 1 << (3 * (y + 1) + x + 1);
                }
            }
        }
        for slot in reach.jump & of(Kind::Knight) {
            block |= jump(&KNIGHT_BLOCKS, slot);
        }
        for slot in reach.near & of(Kind::King) {
            block |= jump(&KING_BLOCKS, slot);
        }
        // A queen is in both sets, and rides both kinds of line.
        for slot in reach.straight & rooks {
            block |= self.orthogonal_rays_block(self.square_of(slot), offset(slot));
        }
        for slot in reach.diagonal & bishops {
            block |= self.diagonal_rays_block(self.square_of(slot), offset(slot));
        }
        block
    }

    /// [`Position::rays_block`] along the orthogonal lines of a slider
    /// on `at`, `x, y` from the block's centre, within one square of one
    /// of the block's rows or columns. Outside the block only the line
    /// towards it can reach it: a line away from the block, or along a
    /// row or column the block does not cross, never does.
    #[inline(always)]
    fn orthogonal_rays_block(&self, at: Square, (x, y): (i32, i32)) -> u16 {
        let offset = (x, y);
        if x.abs() >= 2 {
            if x > 0 {
                self.ray_block(at, offset, (-1, 0))
            } else {
                self.ray_block(at, offset, (1, 0))
            }
        } else if y.abs() >= 2 {
            if y > 0 {
                self.ray_block(at, offset, (0, -1))
            } else {
                self.ray_block(at, offset, (0, 1))
            }
        } else {
            self.rays_block(at, offset, ORTHOGONAL)
        }
    }

    /// [`Position::rays_block`] along the diagonal lines of a slider on
    /// `at`, `x, y` from the block's centre. Outside the block a line
    /// that moves away from it in a coordinate never reaches it; with
    /// the slider level with the centre in one coordinate, both lines
    /// towards it in the other may.
    #[inline(always)]
    fn diagonal_rays_block(&self, at: Square, (x, y): (i32, i32)) -> u16 {
        let offset = (x, y);
        if x.abs() <= 1 && y.abs() <= 1 {
            return self.rays_block(at, offset, DIAGONAL);
        }
        match (x.signum(), y.signum()) {
            (1, 1) => self.ray_block(at, offset, (-1, -1)),
            (1, -1) => self.ray_block(at, offset, (-1, 1)),
            (-1, 1) => self.ray_block(at, offset, (1, -1)),
            (-1, -1) => self.ray_block(at, offset, (1, 1)),
            (0, 1) => self.ray_block(at, offset, (-1, -1)) | self.ray_block(at, offset, (1, -1)),
            (0, _) => self.ray_block(at, offset, (-1, 1)) | self.ray_block(at, offset, (1, 1)),
            (1, _) => self.ray_block(at, offset, (-1, -1)) | self.ray_block(at, offset, (-1, 1)),
            _ => self.ray_block(at, offset, (1, -1)) | self.ray_block(at, offset, (1, 1)),
        }
    }

    /// [`Position::ray_block`] along each of `steps`, together. The four
    /// are asked one by one, not in a loop: the compiler left the loop
    /// rolled, branching on each step, where a step known when compiling
    /// folds its ray's arithmetic and line to a few instructions.
    #[inline(always)]
    fn rays_block(&self, at: Square, offset: (i32, i32), steps: [(i32, i32); 4]) -> u16 {
        let [a, b, c, d] = steps;
        self.ray_block(at, offset, a)
            | self.ray_block(at, offset, b)
            | self.ray_block(at, offset, c)
            | self.ray_block(at, offset, d)
    }

    /// The squares of a 3 × 3 block (numbered as in
    /// [`Position::attacked_block`]) that a slider on `at`, standing
    /// `x, y` from the block's centre, attacks along its ray of unit
    /// step `(dx, dy)`: those the ray crosses up to its first tile. One
    /// look along the line answers for all its squares in the block.
    #[inline(always)]
    fn ray_block(&self, at: Square, (x, y): (i32, i32), (dx, dy): (i32, i32)) -> u16 {
        // The steps `k` for which `c + k d` lies within 1 of the centre.
        let steps = |c: i32, d: i32| match d {
            1 => (-1 - c, 1 - c),
            -1 => (c - 1, c + 1),
            _ if c.abs() <= 1 => (1, i32::MAX),
            _ => (1, 0),
        };
        let ((lo_x, hi_x), (lo_y, hi_y)) = (steps(x, dx), steps(y, dy));
        let (first, last) = (lo_x.max(lo_y).max(1), hi_x.min(hi_y));
        if first > last {
            return 0;
        }
        let last = last.min(self.blocker_distance(at, line_back(-dx, -dy)) as i32);
        let mut block = 0;
        for k in first..=last {
            block |= 1 << (3 * (y + k * dy + 1) + x + k * dx + 1);
        }
        block
    }

    /// True when `colour`'s king is on the table and some enemy tile
    /// attacks it by a capture that keeps the table one group.
    pub(super) fn king_capturable(&self, colour: Colour) -> bool {
        let king = self.king_slot(colour);
        if king == NO_SLOT {
            return false;
        }
        self.attackers_of(king as usize)
            .into_iter()
            .any(|s| self.removable(s))
    }

    /// The enemy tiles that could capture the tile in `slot` by their
    /// movement, path clear; whether the capture keeps the table together
    /// is not considered.
    #[inline]
    pub(super) fn attackers_of(&self, slot: usize) -> TileSet {
        self.attackers(Self::colour_of(slot).opposite(), self.square_of(slot))
    }

    /// `enemy`'s tiles that attack `target` (a square near the group) by
    /// their movement, path clear, as a set of slots.
    ///
    /// Every test is arithmetic with no branch: a jump on every tile's
    /// kind, or on whether it attacks, follows no pattern a predictor
    /// could learn. How all of `enemy`'s tiles lie from the target is
    /// worked out at once ([`Position::bearings`]) and kept for the kinds
    /// that attack so; pawns are read off the two squares they would
    /// attack from, and a slider's line only once the slider is known to
    /// stand on it.
    #[inline]
    pub(super) fn attackers(&self, enemy: Colour, target: Square) -> TileSet {
        self.attackers_through(enemy, target, |line| self.blocker_distance(target, line))
    }

    /// The enemy tiles that attack `to` once the side to move's king has
    /// stepped there from `from`, the square next to it: as
    /// [`Position::attackers`], with the king's origin empty. Whether a
    /// capture keeps the table together is not considered.
    pub(super) fn attackers_after_king_step(&self, from: Square, to: Square) -> TileSet {
        // Only the line from `to` through `from` changes: its first tile
        // stands beyond `from`.
        let through = line_towards(to, from);
        self.attackers_through(self.side_to_move().opposite(), to, |line| {
            if line == through {
                1 + self.blocker_distance(from, line)
            } else {
                self.blocker_distance(to, line)
            }
        })
    }

    /// The attackers of `target` when the first tile along each line from
    /// it stands at `blocker(line)` (see [`Position::blocker_distance`]):
    /// read only for the lines an enemy slider stands on.
    #[inline(always)]
    fn attackers_through(
        &self,
        enemy: Colour,
        target: Square,
        blocker: impl Fn(Line) -> u32,
    ) -> TileSet {
        let of = |kind: Kind| self.tiles_of(enemy, kind);
        // Two squares hold every pawn that attacks the target: cheaper to
        // read than to ask each of up to 8 pawns. Near the group no far
        // tile shares their cells, and an empty cell's `NO_SLOT` lands on
        // bit 63, which the end drops: no branch.
        let f = enemy.forward();
        let mut pawns: u64 = 0;
        for dx in [-1, 1] {
            pawns |= 1 << (self.cell_slot(target.offset(dx, -f)) & 63);
        }
        let mut attackers = TileSet(pawns as u32) & of(Kind::Pawn);
        let bearings = self.bearings(enemy, target);
        attackers |= bearings.knight & of(Kind::Knight);
        attackers |= bearings.adjacent & of(Kind::King);
        // A slider attacks along the line from the target towards it when
        // it is the first tile on that line: only the lines of the sliders
        // on one are read.
        let clear = |dx: i32, dy: i32| blocker(line_back(dx, dy)) == dx.abs().max(dy.abs()) as u32;
        attackers |= self.attacks_by(bearings.aligned(self.sliders(enemy)), target, clear);
        attackers
    }

    /// `colour`'s sliders standing on a line they ride through `target`.
    #[inline(always)]
    pub(super) fn aligned_sliders(&self, colour: Colour, target: Square) -> TileSet {
        self.bearings(colour, target).aligned(self.sliders(colour))
    }

    /// How each of `colour`'s 16 slots lies from `target` (see
    /// [`Bearings`]): all 16 at once with AVX2 where the build has it,
    /// else tile by tile. Every search for a king's attackers asks this,
    /// so it has no loop whose exit depends on the tiles.
    #[inline(always)]
    fn bearings(&self, colour: Colour, target: Square) -> Bearings {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        return self.bearings_avx2(colour, target);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        return self.bearings_scalar(colour, target);
    }

    /// [`Position::bearings`], eight AVX2 lanes at a time.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn bearings_avx2(&self, colour: Colour, target: Square) -> Bearings {
        use std::arch::x86_64::{
            __m256i, _mm256_abs_epi32, _mm256_and_si256, _mm256_cmpeq_epi32, _mm256_max_epi32,
            _mm256_or_si256, _mm256_set1_epi32,
        };
        // SAFETY: AVX2 is enabled for this build (the cfg above, and
        // `main` stops on a processor without it).
        let [straight, diagonal, knight, adjacent] =
            self.slot_sets_avx2(colour, target, |x, y| unsafe {
                let (dx, dy) = (_mm256_abs_epi32(x), _mm256_abs_epi32(y));
                let is = |v: __m256i, n: i32| _mm256_cmpeq_epi32(v, _mm256_set1_epi32(n));
                [
                    _mm256_or_si256(is(dx, 0), is(dy, 0)),
                    _mm256_cmpeq_epi32(dx, dy),
                    _mm256_or_si256(
                        _mm256_and_si256(is(dx, 1), is(dy, 2)),
                        _mm256_and_si256(is(dx, 2), is(dy, 1)),
                    ),
                    is(_mm256_max_epi32(dx, dy), 1),
                ]
            });
        Bearings {
            straight,
            diagonal,
            knight,
            adjacent,
        }
    }

    /// [`Position::bearings`] tile by tile: the plain version, compiled
    /// in every build and tested against the AVX2 one.
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "avx2"),
        allow(dead_code, reason = "the AVX2 build uses it in tests only")
    )]
    #[inline(always)]
    fn bearings_scalar(&self, colour: Colour, target: Square) -> Bearings {
        let [straight, diagonal, knight, adjacent] =
            self.slot_sets_scalar(colour, target, |x, y| {
                let (dx, dy) = (x.abs(), y.abs());
                [
                    (dx == 0) | (dy == 0),
                    dx == dy,
                    (dx == 1) & (dy == 2) | (dx == 2) & (dy == 1),
                    dx.max(dy) == 1,
                ]
            });
        Bearings {
            straight,
            diagonal,
            knight,
            adjacent,
        }
    }

    /// Which of `colour`'s 16 slots could attack the 3 × 3 block centred
    /// on `centre` (see [`BlockReach`]): all 16 at once with AVX2 where
    /// the build has it, else tile by tile.
    #[inline(always)]
    fn block_reach(&self, colour: Colour, centre: Square) -> BlockReach {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        return self.block_reach_avx2(colour, centre);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        return self.block_reach_scalar(colour, centre);
    }

    /// [`Position::block_reach`], eight AVX2 lanes at a time.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn block_reach_avx2(&self, colour: Colour, centre: Square) -> BlockReach {
        use std::arch::x86_64::{
            __m256i, _mm256_abs_epi32, _mm256_add_epi32, _mm256_cmpgt_epi32, _mm256_max_epi32,
            _mm256_min_epi32, _mm256_set1_epi32, _mm256_sub_epi32,
        };
        // SAFETY: as in `bearings_avx2`.
        let [near, jump, straight, diagonal] = self.slot_sets_avx2(colour, centre, |x, y| unsafe {
            let (ax, ay) = (_mm256_abs_epi32(x), _mm256_abs_epi32(y));
            let far = _mm256_max_epi32(ax, ay);
            let off_diagonals = _mm256_min_epi32(
                _mm256_abs_epi32(_mm256_sub_epi32(x, y)),
                _mm256_abs_epi32(_mm256_add_epi32(x, y)),
            );
            let at_most = |v: __m256i, n: i32| _mm256_cmpgt_epi32(_mm256_set1_epi32(n + 1), v);
            [
                at_most(far, 2),
                at_most(far, 3),
                at_most(_mm256_min_epi32(ax, ay), 1),
                at_most(off_diagonals, 2),
            ]
        });
        BlockReach {
            near,
            jump,
            straight,
            diagonal,
        }
    }

    /// [`Position::block_reach`] tile by tile: the plain version, compiled
    /// in every build and tested against the AVX2 one.
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "avx2"),
        allow(dead_code, reason = "the AVX2 build uses it in tests only")
    )]
    #[inline(always)]
    fn block_reach_scalar(&self, colour: Colour, centre: Square) -> BlockReach {
        let [near, jump, straight, diagonal] = self.slot_sets_scalar(colour, centre, |x, y| {
            let far = x.abs().max(y.abs());
            [
                far <= 2,
                far <= 3,
                x.abs().min(y.abs()) <= 1,
                (x - y).abs().min((x + y).abs()) <= 2,
            ]
        });
        BlockReach {
            near,
            jump,
            straight,
            diagonal,
        }
    }

    /// Four sets of `colour`'s slots, eight AVX2 lanes at a time: `tests`
    /// takes the slots' coordinates seen from `origin` (`x`, `y`, eight
    /// lanes each) and returns four lane masks, all ones where a slot
    /// belongs to the set.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline(always)]
    fn slot_sets_avx2(
        &self,
        colour: Colour,
        origin: Square,
        tests: impl Fn(
            std::arch::x86_64::__m256i,
            std::arch::x86_64::__m256i,
        ) -> [std::arch::x86_64::__m256i; 4],
    ) -> [TileSet; 4] {
        use std::arch::x86_64::{
            __m256i, _mm256_castsi256_ps, _mm256_loadu_si256, _mm256_movemask_ps,
            _mm256_set1_epi32, _mm256_sub_epi32,
        };
        let base = 16 * colour.index();
        let (xs, ys) = self.coordinates(colour);
        let mut sets = [TileSet::default(); 4];
        for half in 0..2 {
            let lanes = 8 * half..8 * half + 8;
            // SAFETY: AVX2 is enabled for this build (the cfg above, and
            // `main` stops on a processor without it); each load reads the
            // eight `i32`s of a slice of that length, unaligned.
            unsafe {
                let load = |lanes: &[i32]| _mm256_loadu_si256(lanes.as_ptr().cast::<__m256i>());
                let x = _mm256_sub_epi32(load(&xs[lanes.clone()]), _mm256_set1_epi32(origin.x));
                let y = _mm256_sub_epi32(load(&ys[lanes]), _mm256_set1_epi32(origin.y));
                for (set, mask) in sets.iter_mut().zip(tests(x, y)) {
                    let bits = _mm256_movemask_ps(_mm256_castsi256_ps(mask)) as u32;
                    *set |= TileSet(bits << (base + 8 * half));
                }
            }
        }
        sets
    }

    /// [`Position::slot_sets_avx2`] tile by tile, `tests` taking one
    /// slot's coordinates seen from `origin`. It runs over the
    /// coordinates rather than the slot set, which lets the compiler
    /// vectorise it, if less tightly than the AVX2 version.
    #[cfg_attr(
        all(target_arch = "x86_64", target_feature = "avx2"),
        allow(dead_code, reason = "the AVX2 build uses it in tests only")
    )]
    #[inline(always)]
    fn slot_sets_scalar(
        &self,
        colour: Colour,
        origin: Square,
        tests: impl Fn(i32, i32) -> [bool; 4],
    ) -> [TileSet; 4] {
        let (xs, ys) = self.coordinates(colour);
        let mut bits = [0u32; 4];
        for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
            for (set, holds) in bits.iter_mut().zip(tests(x - origin.x, y - origin.y)) {
                *set |= u32::from(holds) << i;
            }
        }
        let base = 16 * colour.index();
        bits.map(|set| TileSet(set << base))
    }

    /// `colour`'s tiles on the table that slide along ranks and files,
    /// and those that slide along diagonals: its queens are in both.
    #[inline(always)]
    fn sliders(&self, colour: Colour) -> (TileSet, TileSet) {
        let queens = self.tiles_of(colour, Kind::Queen);
        (
            self.tiles_of(colour, Kind::Rook) | queens,
            self.tiles_of(colour, Kind::Bishop) | queens,
        )
    }

    /// The tiles of `tiles` for which `attacks` holds of the step from
    /// the tile to `target`.
    #[inline(always)]
    fn attacks_by(
        &self,
        tiles: TileSet,
        target: Square,
        attacks: impl Fn(i32, i32) -> bool,
    ) -> TileSet {
        let mut set = TileSet::EMPTY;
        for s in tiles {
            let square = self.square_of(s);
            let (dx, dy) = (target.x - square.x, target.y - square.y);
            set |= TileSet(u32::from(attacks(dx, dy)) << s);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The scalar bearings equal the AVX2 ones for both sides, from every
    /// square around the tiles of random games.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[test]
    fn scalar_bearings_equal_the_avx2_ones() {
        let mut compared = 0;
        for_each_square_of_random_games(31, 1, |pos, target| {
            for colour in Colour::ALL {
                assert_eq!(
                    pos.bearings_scalar(colour, target),
                    pos.bearings_avx2(colour, target),
                    "{pos} {colour} {target}"
                );
                compared += 1;
            }
        });
        assert!(compared > 100_000, "{compared}");
    }

    /// The scalar block reach equals the AVX2 one for both sides, around
    /// every square within 4 of the tiles of random games: out beyond a
    /// knight's reach from every tile.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[test]
    fn scalar_block_reach_equals_the_avx2_one() {
        let mut compared = 0;
        for_each_square_of_random_games(41, 4, |pos, centre| {
            for colour in Colour::ALL {
                assert_eq!(
                    pos.block_reach_scalar(colour, centre),
                    pos.block_reach_avx2(colour, centre),
                    "{pos} {colour} {centre}"
                );
                compared += 1;
            }
        });
        assert!(compared > 100_000, "{compared}");
    }

    /// Calls `visit` with each position of 20 random games of up to 120
    /// turns and each square within `margin` of its tiles' box.
    fn for_each_square_of_random_games(
        seed: u64,
        margin: i32,
        mut visit: impl FnMut(&Position, Square),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..20 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                    break;
                };
                pos.make(mv);
                let (min_x, min_y, max_x, max_y) = pos.bounds();
                for x in min_x - margin..=max_x + margin {
                    for y in min_y - margin..=max_y + margin {
                        visit(&pos, Square::new(x, y));
                    }
                }
            }
        }
    }

    /// The squares of a 3 × 3 block, from its centre.
    const BLOCK: [(i32, i32); 9] = [
        (-1, -1),
        (0, -1),
        (1, -1),
        (-1, 0),
        (0, 0),
        (1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
    ];

    /// The attacked block agrees with `attack_count` on every square of
    /// the block, for both sides, around every square near the tiles of
    /// random games.
    #[test]
    fn attacked_block_agrees_with_attack_count() {
        let mut attacked = 0;
        for_each_square_of_random_games(37, 0, |pos, centre| {
            for colour in Colour::ALL {
                let block = pos.attacked_block(colour, centre);
                for (i, (dx, dy)) in BLOCK.into_iter().enumerate() {
                    let square = centre.offset(dx, dy);
                    let count = pos.attack_count(colour, square);
                    assert_eq!(block >> i & 1 == 1, count > 0, "{pos} {colour} {square}");
                    attacked += usize::from(count > 0);
                }
            }
        });
        assert!(attacked > 100_000, "{attacked}");
    }

    #[test]
    fn attackers_follow_movement_and_blocking() {
        let pos: Position = "R0,0/N1,0/P1,1/P1,2/k0,3/p1,3 b K/- 0 1".parse().unwrap();
        // The rook past the empty 0,1, the knight, the pawn on 1,1; not
        // the pawn on 1,2 beside the square.
        assert_eq!(pos.attack_count(Colour::White, Square::new(0, 2)), 3);
        // The king, and the pawn capturing towards -y.
        assert_eq!(pos.attack_count(Colour::Black, Square::new(0, 2)), 2);
        // The rook's file is blocked by the black king.
        assert_eq!(pos.attack_count(Colour::White, Square::new(0, 4)), 0);
        assert_eq!(pos.attack_count(Colour::White, Square::new(2, 2)), 2);
    }
}
