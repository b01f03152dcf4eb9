//! Connectivity, for the connection rule: locally around a square, and on
//! the tile graph.
//!
//! A tile can leave its square without splitting the table whenever the
//! occupied squares around it are connected to each other through that ring
//! of 8 squares alone: every path through the tile can then go around it.
//! This settles nearly every tile of a compact group with three row reads;
//! only the rest need the graph of touching tiles: floods, articulation
//! points (Hopcroft–Tarjan) and the parts a tile's removal leaves.

use super::piece::{Colour, Kind};
use super::position::{Position, NO_SLOT};
use super::ring::{ring_connected, ring_cut_row, ring_groups};
use super::square::Square;
use super::tile_set::TileSet;
use arrayvec::ArrayVec;

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
            let met = self.race(seed(groups[0]), seed(groups[1]), left);
            if let Some(part) = met {
                parts.push(part);
                left &= !part;
            }
            // With two groups around it, the rest is the other part, or,
            // when the floods met (around a hole), the one part: every
            // part holds a tile around it.
            if groups[2] == 0 {
                parts.push(left);
                return parts;
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

    /// The tiles that hold the table together when it has no holes: those
    /// whose ring falls apart without them (exact there). A ring and a
    /// table lookup a tile, with no branch on the answer.
    fn held_without_holes(&self) -> TileSet {
        let mut held = TileSet::EMPTY;
        for slot in self.present() {
            let cut = !ring_connected(self.ring(self.square_of(slot)));
            held |= TileSet(u32::from(cut) << slot);
        }
        held
    }

    /// The tiles that hold the table together, read off their rings
    /// ([`ring_cut_row`]) row by row, when every hole is one empty square;
    /// `None` when a hole is larger. `held_counts` asks it only of tables
    /// with holes.
    fn held_by_rings(&self) -> Option<TileSet> {
        // An empty square whose four sides are tiles: a hole of its own.
        let small_holes = |y: i32| {
            let row = self.row(y);
            !row & self.row(y - 1) & self.row(y + 1) & row.rotate_left(1) & row.rotate_right(1)
        };
        let mut held = TileSet::EMPTY;
        let mut found = 0;
        let mut rows = self.occupied_rows();
        while rows != 0 {
            let y = rows.trailing_zeros() as i32;
            rows &= rows - 1;
            let hole_row = small_holes(y);
            found += hole_row.count_ones();
            let mut xs = ring_cut_row(
                [self.row(y - 1), self.row(y), self.row(y + 1)],
                [small_holes(y - 1), hole_row, small_holes(y + 1)],
            );
            while xs != 0 {
                let x = xs.trailing_zeros() as i32;
                xs &= xs - 1;
                held.insert(usize::from(self.cell_slot(Square::new(x, y))));
            }
        }
        (found == self.holes()).then_some(held)
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

    /// How many tiles of each colour and kind (indexed by
    /// [`Colour::index`] and [`Kind::index`](super::Kind::index)) hold the
    /// table together: without any one of them the rest would fall apart,
    /// so it cannot step away, only capture onto a square that joins the
    /// parts again. For the evaluation, which wants it cheap: without
    /// holes each tile's ring says it, tile by tile; where every hole is
    /// one empty square the rings are read row by row; else the
    /// depth-first search, once for every tile.
    #[inline]
    pub fn held_counts(&self) -> [[u8; 6]; 2] {
        let held = self.held();
        Colour::ALL
            .map(|colour| Kind::ALL.map(|kind| (held & self.tiles_of(colour, kind)).len() as u8))
    }

    /// The tiles [`Position::held_counts`] counts. Out of line, while the
    /// counting is inlined into its caller, which reads the counts at
    /// once rather than from a packed array.
    #[inline(never)]
    fn held(&self) -> TileSet {
        if self.without_holes() {
            self.held_without_holes()
        } else {
            self.held_by_rings()
                .unwrap_or_else(|| self.articulation_points(TileSet::EMPTY))
        }
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
    use crate::rules::random_games::each_position_of_random_games;

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
        let (mut split, mut holed, mut tried) = (0, 0, 0);
        each_position_of_random_games(23, 30, 151, |pos| {
            for slot in pos.present() {
                let mut parts = pos.parts_without(slot).to_vec();
                parts.sort();
                assert_eq!(parts, groups_by_squares(pos, slot), "{pos} less {slot}");
                split += usize::from(parts.len() > 1);
                holed += usize::from(!pos.without_holes());
                tried += 1;
            }
        });
        assert!(
            split > 10_000 && holed > 5_000 && tried > 30_000,
            "{split} split and {holed} with holes of {tried}"
        );
    }

    /// `held_counts` counts, by colour and kind, the tiles whose removal
    /// a walk by squares finds splits the table, with holes and without.
    #[test]
    fn held_counts_are_the_tiles_whose_removal_splits_the_table() {
        let (mut held, mut holed, mut read_around_holes) = (0, 0, 0);
        each_position_of_random_games(29, 20, 151, |pos| {
            if let Some(by_rings) = pos.held_by_rings() {
                assert_eq!(by_rings, pos.articulation_points(TileSet::EMPTY), "{pos}");
                read_around_holes += usize::from(!pos.without_holes());
            }
            let mut expected = [[0u8; 6]; 2];
            for slot in pos.present() {
                if groups_by_squares(pos, slot).len() > 1 {
                    expected[slot >> 4][pos.kind_of(slot).index()] += 1;
                    held += 1;
                }
            }
            assert_eq!(pos.held_counts(), expected, "{pos}");
            // A king counts as held exactly when it is on the table and
            // not free: the rich evaluation reads one off the other.
            for colour in Colour::ALL {
                let frozen = pos.king_square(colour).is_some() && !pos.king_is_free(colour);
                assert_eq!(expected[colour.index()][0] > 0, frozen, "{pos}");
            }
            holed += usize::from(!pos.without_holes());
        });
        assert!(
            held > 1_000 && holed > 300 && read_around_holes > 100,
            "{held} held, {holed} with holes, {read_around_holes} read off the rings"
        );
    }
}
