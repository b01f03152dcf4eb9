//! The ring: the 3 × 3 block of squares around a square, as 9 bits, and
//! what tables precomputed over all 512 rings answer about it (whether its
//! tiles hold together without the centre, its groups, the Euler number's
//! change). Both the position (which keeps the Euler number) and the
//! connection rule (`connectivity`) read these, so they live apart from
//! both.

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
pub(crate) fn ring_groups(ring: Ring) -> [u16; 4] {
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

/// For every square of a torus row at once (bit `x mod 64`), given the
/// occupancy of the rows below, of it and above: whether the tile there
/// holds the table together, read off its ring. `holes` are the same
/// three rows' holes of one empty square (see below), and the answer is
/// exact when every hole of the table is one of them; with no holes, it
/// is the negation of [`ring_connected`].
///
/// Going round the ring, the occupied squares fall into groups with
/// gaps of empty squares between them. Two groups either side of a gap
/// that belongs to a hole meet around the hole without the tile; any two
/// groups that meet without it enclose every gap on one side, so those
/// gaps are holes. The tile holds the table together when two gaps or
/// more lie outside every hole. Row by row, so that the evaluation
/// classifies every tile without a table lookup and a mispredicted
/// branch each.
#[inline(always)]
pub(crate) fn ring_cut_row(rows: [u64; 3], holes: [u64; 3]) -> u64 {
    let [below, row, above] = rows;
    // Bit x of `west(r)` is bit x − 1 of r.
    let west = |r: u64| r.rotate_left(1);
    let east = |r: u64| r.rotate_right(1);
    let (nw, n, ne) = (west(above), above, east(above));
    let (w, e) = (west(row), east(row));
    let (sw, s, se) = (west(below), below, east(below));
    // A group starts at each occupied square whose square before is
    // empty, with two exceptions. An edge square (N, E, S, W) touches
    // the edge square before it across an empty corner, so it starts one
    // only when that one is empty too. A gap that is a hole of one square
    // is an edge square alone, whose four sides are all tiles; the
    // corner after it starts no group that counts.
    let [hole_below, hole_row, hole_above] = holes;
    let starts = [
        nw & !w & !west(hole_row),
        n & !nw & !w,
        ne & !n & !hole_above,
        e & !ne & !n,
        se & !e & !east(hole_row),
        s & !se & !e,
        sw & !s & !hole_below,
        w & !sw & !s,
    ];
    let (mut one, mut two) = (0, 0);
    for start in starts {
        two |= one & start;
        one |= start;
    }
    two & row
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ring_cut_row` says of every ring what `ring_connected` does,
    /// whether the centre stands by the torus's seam or not.
    #[test]
    fn ring_cut_row_agrees_with_ring_connected() {
        for ring in 0..512u32 {
            let ring = ring | CENTRE;
            for x in [0u32, 5, 63] {
                // Row `dy` of the ring, placed with its middle at x.
                let row = |dy: u32| {
                    u64::from(ring >> (3 * dy) & 7)
                        .rotate_left(x)
                        .rotate_right(1)
                };
                let cut = ring_cut_row([row(0), row(1), row(2)], [0; 3]);
                assert_eq!(
                    cut >> x & 1 == 1,
                    !ring_connected(ring),
                    "{ring:09b} at {x}"
                );
            }
        }
    }

    /// The bit of the square at `dx, dy` (each in −1..=1) in a [`Ring`].
    const fn ring_bit(dx: i32, dy: i32) -> Ring {
        1 << (3 * (dy + 1) + (dx + 1))
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
}
