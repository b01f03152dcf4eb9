//! Connectivity, for the connection rule: locally around a square, and on
//! the tile graph.
//!
//! A tile can leave its square without splitting the table whenever the
//! occupied squares around it are connected to each other through that ring
//! of 8 squares alone: every path through the tile can then go around it.
//! This settles nearly every tile of a compact group with three row reads;
//! only the rest need the graph of touching tiles: floods, articulation
//! points (Hopcroft–Tarjan) and the parts a tile's removal leaves.

use super::piece::Colour;
use super::position::{Position, NO_SLOT};
use super::tile_set::TileSet;
use arrayvec::ArrayVec;

/// A 3 × 3 neighbourhood as 9 bits: bit `3·(dy+1) + (dx+1)`, centre bit 4.
pub(crate) type Ring = u32;

/// The centre bit of a [`Ring`].
pub(crate) const CENTRE: Ring = 1 << 4;

/// The bit of the square at `dx, dy` in a [`Ring`] when it lies in the
/// 3 × 3 block, else none: without a branch, as the answer is a coin toss
/// where it is asked.
#[inline(always)]
pub(crate) fn ring_bit_if_within(dx: i32, dy: i32) -> Ring {
    let (column, row) = (dx.wrapping_add(1) as u32, dy.wrapping_add(1) as u32);
    let within = u32::from(column < 3) & u32::from(row < 3);
    within << (row.wrapping_mul(3).wrapping_add(column) & 31)
}

/// For each cell of the 3 × 3 block, the ring cells (not the centre) that
/// touch it.
const NEIGHBOURS: [Ring; 9] = {
    let mut t = [0; 9];
    let mut i = 0;
    while i < 9 {
        let (xi, yi) = ((i % 3) as i32, (i / 3) as i32);
        let mut j = 0;
        while j < 9 {
            let (xj, yj) = ((j % 3) as i32, (j / 3) as i32);
            let (dx, dy) = (xi - xj, yi - yj);
            if j != 4 && i != j && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 {
                t[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The ring squares of `occupied` reached from those of `seed` through
/// touching squares of `occupied`, within the 3 × 3 block.
const fn group_within(seed: u32, occupied: u32) -> u32 {
    let mut group = seed;
    loop {
        let mut grown = group;
        let mut i = 0;
        while i < 9 {
            if group & (1 << i) != 0 {
                grown |= NEIGHBOURS[i] & occupied;
            }
            i += 1;
        }
        if grown == group {
            return group;
        }
        group = grown;
    }
}

/// For each ring pattern: are the occupied ring squares (centre ignored)
/// one group among themselves?
static RING_CONNECTED: [bool; 512] = {
    let mut t = [false; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let occupied = pattern & !CENTRE;
        t[pattern as usize] =
            group_within(occupied & occupied.wrapping_neg(), occupied) == occupied;
        pattern += 1;
    }
    t
};

/// For each ring pattern: its groups of occupied squares (centre
/// ignored), zero-padded; 8 squares around a centre fall into 4 at most.
static RING_GROUPS: [[u16; 4]; 512] = {
    let mut t = [[0; 4]; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut left = pattern & !CENTRE;
        let mut n = 0;
        while left != 0 {
            let group = group_within(left & left.wrapping_neg(), left);
            t[pattern as usize][n] = group as u16;
            n += 1;
            left &= !group;
        }
        pattern += 1;
    }
    t
};

/// The groups of the occupied ring squares of `ring` (centre ignored),
/// zero-padded.
#[inline(always)]
fn ring_groups(ring: Ring) -> [u16; 4] {
    RING_GROUPS[(ring & 511) as usize]
}

/// True when every group of the occupied ring squares of `ring` (centre
/// ignored) has a square in `near`.
#[inline(always)]
pub(crate) fn touches_every_group(ring: Ring, near: Ring) -> bool {
    RING_GROUPS[(ring & 511) as usize]
        .iter()
        .all(|&group| group == 0 || u32::from(group) & near != 0)
}

/// The squares of the 3 × 3 block around a centre (not the centre) that
/// touch the square `dx, dy` from the centre: none beyond 2 away.
#[inline(always)]
pub(crate) fn ring_squares_touching(dx: i32, dy: i32) -> Ring {
    static TOUCHING: [Ring; 25] = {
        let mut t = [0; 25];
        let mut i = 0;
        while i < 25 {
            let (dx, dy) = ((i % 5) as i32 - 2, (i / 5) as i32 - 2);
            let mut cell = 0;
            while cell < 9 {
                let (x, y) = (cell % 3 - 1, cell / 3 - 1);
                let (ex, ey) = ((x - dx).abs(), (y - dy).abs());
                if cell != 4 && ex <= 1 && ey <= 1 && ex + ey > 0 {
                    t[i] |= 1 << cell;
                }
                cell += 1;
            }
            i += 1;
        }
        t
    };
    let (column, row) = (dx.wrapping_add(2) as u32, dy.wrapping_add(2) as u32);
    if column < 5 && row < 5 {
        TOUCHING[(row * 5 + column) as usize]
    } else {
        0
    }
}

/// For each ring pattern (centre ignored): how much filling the centre
/// adds to four times the Euler number of the tiles (groups less holes,
/// with tiles touching at corners and holes only at sides).
///
/// The Euler number is a sum over all 2 × 2 windows of the squares (Gray's
/// formula for 8-connected groups): a window holding one tile counts 1,
/// three tiles −1, two tiles at opposite corners −2, others 0, all over
/// 4. Only the four windows around a square change when it is filled.
static EULER_GAIN: [i8; 512] = {
    // The value of a window by its occupied cells, bits 0–3 for
    // (0,0), (1,0), (0,1), (1,1).
    const fn window(cells: u32) -> i32 {
        match cells.count_ones() {
            1 => 1,
            3 => -1,
            2 if cells == 0b1001 || cells == 0b0110 => -2,
            _ => 0,
        }
    }
    let mut t = [0; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let ring = pattern & !CENTRE;
        let mut gain = 0;
        let mut corner = 0;
        while corner < 4 {
            // The window whose cell (0,0) is at (x, y) of the block.
            let (x, y) = (corner % 2, corner / 2);
            let mut cells = 0;
            let mut i = 0;
            while i < 4 {
                if ring & (1 << (3 * (y + i / 2) + x + i % 2)) != 0 {
                    cells |= 1 << i;
                }
                i += 1;
            }
            // The centre is cell 3 − corner of this window.
            gain += window(cells | 1 << (3 - corner)) - window(cells);
            corner += 1;
        }
        t[pattern as usize] = gain as i8;
        pattern += 1;
    }
    t
};

/// How much filling the centre of `ring` adds to four times the Euler
/// number of the tiles (see `EULER_GAIN`).
#[inline(always)]
pub(crate) fn euler_gain(ring: Ring) -> i32 {
    i32::from(EULER_GAIN[(ring & 511) as usize])
}

/// True when the occupied ring squares of `ring` are one group without the
/// centre, so the centre tile is not needed to hold them together.
#[inline(always)]
pub(crate) fn ring_connected(ring: Ring) -> bool {
    RING_CONNECTED[(ring & 511) as usize]
}

/// The tile graph: tiles are its vertices, and two touching tiles share an
/// edge (the adjacency masks). These answer the connection rule where the
/// ring test alone cannot.
impl Position {
    /// The tiles of `within` reached from `seed` through touching tiles
    /// of `within`.
    #[inline]
    fn flood(&self, seed: TileSet, within: TileSet) -> TileSet {
        self.flood_until(seed, within, within)
    }

    /// True when the tiles on the table, less the slots in `skip`, are one
    /// group (or none).
    #[inline]
    fn connected_without(&self, skip: TileSet) -> bool {
        let all = self.present() & !skip;
        self.flood(all.lowest_alone(), all) == all
    }

    /// The tiles that hold the table together: without any one of them the
    /// rest falls apart. Hopcroft and Tarjan's depth-first search, on the
    /// adjacency masks.
    pub(super) fn articulation_points(&self, skip: TileSet) -> TileSet {
        let all = self.present() & !skip;
        if all.len() < 3 {
            return TileSet::EMPTY;
        }
        let mut order = [0u8; 32];
        let mut low = [0u8; 32];
        let mut parent = [NO_SLOT; 32];
        let mut stack = [(0u8, TileSet::EMPTY); 32];
        let root = all.lowest();
        let mut depth = 1;
        let mut time = 1;
        let mut root_children = 0;
        let mut points = TileSet::EMPTY;
        order[root] = 1;
        low[root] = 1;
        stack[0] = (root as u8, self.adjacent(root) & all);
        while depth > 0 {
            let (v, mut rest) = stack[depth - 1];
            let v = v as usize;
            if !rest.is_empty() {
                let w = rest.pop_lowest();
                stack[depth - 1].1 = rest;
                if order[w] == 0 {
                    time += 1;
                    order[w] = time;
                    low[w] = time;
                    parent[w] = v as u8;
                    stack[depth] = (w as u8, self.adjacent(w) & all);
                    depth += 1;
                } else if w != parent[v] as usize {
                    low[v] = low[v].min(order[w]);
                }
            } else {
                depth -= 1;
                let p = parent[v];
                if p != NO_SLOT {
                    let p = p as usize;
                    low[p] = low[p].min(low[v]);
                    if p == root {
                        root_children += 1;
                    } else if low[v] >= order[p] {
                        points.insert(p);
                    }
                }
            }
        }
        if root_children > 1 {
            points.insert(root);
        }
        points
    }

    /// The groups the table falls into without the tile in `slot`.
    pub(super) fn parts_without(&self, slot: usize) -> ArrayVec<TileSet, 4> {
        let mut parts = ArrayVec::new();
        let neighbours = self.adjacent(slot);
        let mut left = self.present().without(slot);
        // Tiles around it in different groups of its ring lie in different
        // parts, unless the table has holes. Flooded from one tile of each
        // of two groups by turns, the smaller part is complete first:
        // nearly always the few tiles a holding tile hangs on to, while a
        // single flood may first cross the rest of the table.
        let from = self.square_of(slot);
        let groups = ring_groups(self.ring(from));
        if groups[1] != 0 {
            let seed = |group: u16| {
                let cell = group.trailing_zeros() as i32;
                TileSet::one(usize::from(
                    self.cell_slot(from.offset(cell % 3 - 1, cell / 3 - 1)),
                ))
            };
            if let Some(part) = self.race(seed(groups[0]), seed(groups[1]), left) {
                parts.push(part);
                left &= !part;
                // With two groups around it, the rest is the other part.
                if groups[2] == 0 {
                    parts.push(left);
                    return parts;
                }
            }
        }
        while !left.is_empty() {
            // Each part holds a neighbour of the tile (the table was one
            // group with it), so once a flood from one neighbour has met
            // all those left, what is left is one part: on a compact
            // table the flood stops after a few tiles.
            let targets = neighbours & left;
            let seen = self.flood_until(targets.lowest_alone(), left, targets);
            if seen & targets == targets {
                parts.push(left);
                break;
            }
            // The tile's 8 neighbours fall into at most 4 groups around it.
            parts.push(seen);
            left &= !seen;
        }
        parts
    }

    /// Floods `within` from the tiles `a` and from the tiles `b`, a tile
    /// of each in turn: the group of whichever is complete first, or
    /// `None` when the two meet, being one group.
    #[inline]
    fn race(&self, a: TileSet, b: TileSet, within: TileSet) -> Option<TileSet> {
        let (mut seen_a, mut todo_a, mut seen_b, mut todo_b) = (a, a, b, b);
        // One test a round, with no branch on which flood ends it: that
        // is a coin toss.
        while !todo_a.is_empty() & !todo_b.is_empty() & (seen_a & seen_b).is_empty() {
            for (seen, todo) in [(&mut seen_a, &mut todo_a), (&mut seen_b, &mut todo_b)] {
                let slot = todo.pop_lowest();
                let new = self.adjacent(slot) & within & !*seen;
                *seen |= new;
                *todo |= new;
            }
        }
        let part = std::hint::select_unpredictable(todo_a.is_empty(), seen_a, seen_b);
        // A flood that has run out is a whole group, met or not.
        (todo_a.is_empty() || todo_b.is_empty()).then_some(part)
    }

    /// The tiles of `within` reached from `seed` through touching tiles of
    /// `within`, or some of them: the flood may stop once it has met every
    /// tile of `targets`.
    #[inline]
    fn flood_until(&self, seed: TileSet, within: TileSet, targets: TileSet) -> TileSet {
        let mut seen = seed;
        let mut todo = seed;
        while !todo.is_empty() && seen & targets != targets {
            let slot = todo.pop_lowest();
            let new = self.adjacent(slot) & within & !seen;
            seen |= new;
            todo |= new;
        }
        seen
    }

    /// True when `colour`'s king is on the table and can leave its square
    /// with the rest staying one group: a king that cannot steps only
    /// where it joins the parts again, and rarely can.
    pub fn king_is_free(&self, colour: Colour) -> bool {
        let king = self.king_slot(colour);
        king != NO_SLOT && self.removable(king as usize)
    }

    /// True when the tile in `slot` can leave the table (be captured, or
    /// move off to capture) and the rest stays one group.
    #[inline]
    pub(super) fn removable(&self, slot: usize) -> bool {
        // Without holes the ring test is exact: no flood.
        ring_connected(self.ring(self.square_of(slot)))
            || (!self.without_holes() && self.connected_without(TileSet::one(slot)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Sampler, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The bit of the square at `dx, dy` (each in −1..=1) in a [`Ring`].
    const fn ring_bit(dx: i32, dy: i32) -> Ring {
        1 << (3 * (dy + 1) + (dx + 1))
    }

    /// A king between two parts of the table holds them together and
    /// cannot leave; one at an end can; one in the pile is not free.
    #[test]
    fn a_king_that_holds_the_table_together_is_not_free() {
        let pos: Position = "p-2,0/P-1,0/K0,0/P1,0/k2,0 w QRRBBNNPPPPPP/qrrbbnnppppppp 0 3"
            .parse()
            .unwrap();
        assert!(!pos.king_is_free(Colour::White));
        assert!(pos.king_is_free(Colour::Black));
        let pile: Position = "P0,0/p1,0 w KQRRBBNNPPPPPPP/kqrrbbnnppppppp 0 2"
            .parse()
            .unwrap();
        assert!(!pile.king_is_free(Colour::White));
    }

    #[test]
    fn ring_bits_only_within_the_block() {
        for dx in -3i32..=3 {
            for dy in -3i32..=3 {
                let within = dx.abs() <= 1 && dy.abs() <= 1;
                let expected = if within { ring_bit(dx, dy) } else { 0 };
                assert_eq!(ring_bit_if_within(dx, dy), expected, "{dx},{dy}");
            }
        }
        for far in [i32::MIN, -2_000_000_000, 64, 1 << 30, i32::MAX] {
            assert_eq!(ring_bit_if_within(far, 0), 0, "{far}");
            assert_eq!(ring_bit_if_within(0, far), 0, "{far}");
            assert_eq!(ring_bit_if_within(far, far), 0, "{far}");
        }
    }

    #[test]
    fn ring_squares_touching_a_square_nearby() {
        // Two squares east: the east column of the block.
        let east = ring_bit(1, -1) | ring_bit(1, 0) | ring_bit(1, 1);
        assert_eq!(ring_squares_touching(2, 0), east);
        // Two squares north-east: the north-east corner only.
        assert_eq!(ring_squares_touching(2, 2), ring_bit(1, 1));
        // A ring square itself: its ring neighbours, not itself.
        assert_eq!(
            ring_squares_touching(1, 0),
            ring_bit(0, -1) | ring_bit(1, -1) | ring_bit(0, 1) | ring_bit(1, 1)
        );
        for (dx, dy) in [(3, 0), (0, -3), (3, 3), (-64, 0), (i32::MIN, i32::MAX)] {
            assert_eq!(ring_squares_touching(dx, dy), 0, "{dx},{dy}");
        }
    }

    #[test]
    fn every_group_touched() {
        // West and east: two groups.
        let ring = ring_bit(-1, 0) | ring_bit(1, 0);
        assert!(!touches_every_group(ring, ring_bit(-1, 0)));
        assert!(touches_every_group(
            ring,
            ring_bit(-1, 0) | ring_bit(1, 1) | ring_bit(1, 0)
        ));
        // North and east touch at a corner: one group.
        let ring = ring_bit(0, 1) | ring_bit(1, 0);
        assert!(touches_every_group(ring, ring_bit(1, 0)));
        // An empty ring has no group to touch.
        assert!(touches_every_group(CENTRE, 0));
    }

    #[test]
    fn ring_patterns() {
        // Nothing or one neighbour: trivially one group.
        assert!(ring_connected(0));
        assert!(ring_connected(ring_bit(1, 1)));
        // North and east touch at a corner.
        assert!(ring_connected(ring_bit(0, 1) | ring_bit(1, 0)));
        // North and south do not.
        assert!(!ring_connected(ring_bit(0, 1) | ring_bit(0, -1)));
        // ... unless the east column joins them.
        assert!(ring_connected(
            ring_bit(0, 1) | ring_bit(1, 0) | ring_bit(0, -1)
        ));
        // Opposite corners never touch.
        assert!(!ring_connected(ring_bit(-1, -1) | ring_bit(1, 1)));
        // The centre bit is ignored.
        assert!(!ring_connected(ring_bit(-1, 0) | CENTRE | ring_bit(1, 0)));
    }

    /// The groups of the tiles but the one in `skip`, by squares alone:
    /// a walk from each tile not yet reached to the tiles next to it.
    fn groups_by_squares(pos: &Position, skip: usize) -> Vec<TileSet> {
        let tiles: Vec<usize> = pos.present().without(skip).into_iter().collect();
        let mut groups = Vec::new();
        let mut reached = TileSet::EMPTY;
        for &start in &tiles {
            if reached.contains(start) {
                continue;
            }
            let mut group = TileSet::one(start);
            let mut stack = vec![start];
            while let Some(s) = stack.pop() {
                for &t in &tiles {
                    let near = pos.square_of(s).is_adjacent(pos.square_of(t));
                    if near && !group.contains(t) {
                        group.insert(t);
                        stack.push(t);
                    }
                }
            }
            reached |= group;
            groups.push(group);
        }
        groups.sort();
        groups
    }

    /// `parts_without` finds the groups a walk by squares finds, for
    /// every tile of positions with and without holes.
    #[test]
    fn parts_without_each_tile_are_the_groups_left() {
        let mut rng = ChaCha8Rng::seed_from_u64(23);
        let (mut split, mut holed, mut tried) = (0, 0, 0);
        for _ in 0..30 {
            let mut pos = Position::startpos();
            for _ in 0..150 {
                let Turn::Play(mv) = Sampler::new().uniform_turn(&mut pos, &mut rng) else {
                    break;
                };
                pos.make(mv);
                for slot in pos.present() {
                    let mut parts = pos.parts_without(slot).to_vec();
                    parts.sort();
                    assert_eq!(parts, groups_by_squares(&pos, slot), "{pos} less {slot}");
                    split += usize::from(parts.len() > 1);
                    holed += usize::from(!pos.without_holes());
                    tried += 1;
                }
            }
        }
        assert!(
            split > 10_000 && holed > 5_000 && tried > 30_000,
            "{split} split and {holed} with holes of {tried}"
        );
    }
}
