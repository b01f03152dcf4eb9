//! A slow, obviously-right twin of the CHEX rules (RULES.md), written without
//! looking at the crate's move generator, to cross-check it (STYLE.md item 11).
//!
//! Everything here is done the plain way on purpose: the table is a
//! `BTreeMap` from true `(x, y)` coordinates to tiles, every candidate move is
//! tried on a fresh copy of the table, connectivity is a breadth-first flood
//! over the 8 neighbours, and check is tested by literally performing each
//! enemy capture of the king and flooding again. Nothing is shared with the
//! crate: this module has its own parser and writer of position strings and
//! its own move tokens, so a bug in the crate's notation cannot hide a bug in
//! its move generator (or the other way round).
//!
//! The input is assumed to be well formed (it comes from the crate's `Display`
//! or from these tests); [`validate`] checks the consistency rules of
//! RULES.md section 7 separately.

// Each test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// A square of the table: `(x, y)`, in the frame of the position string.
pub type Sq = (i64, i64);

/// Piece letters in the order of the pile field (RULES.md section 7).
pub const KINDS: [char; 6] = ['K', 'Q', 'R', 'B', 'N', 'P'];
/// How many tiles of each kind of [`KINDS`] a side's set holds.
pub const SET: [u32; 6] = [1, 1, 2, 2, 2, 8];
/// The largest absolute value of a coordinate (RULES.md section 1).
pub const LIMIT: i64 = 1_000_000_000;

/// The 8 neighbours: the king's steps, the queen's directions, adjacency.
pub const EIGHT: [Sq; 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHOGONAL: [Sq; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAGONAL: [Sq; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The index of a piece letter (either case) in [`KINDS`].
pub fn kind_index(letter: char) -> usize {
    let upper = letter.to_ascii_uppercase();
    KINDS
        .iter()
        .position(|&k| k == upper)
        .unwrap_or_else(|| panic!("not a piece letter: {letter:?}"))
}

/// A tile on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefTile {
    /// True for White's tiles.
    pub white: bool,
    /// The upper-case letter of its kind: one of [`KINDS`].
    pub kind: char,
    /// A pawn that has moved since it was placed (the `*`).
    pub moved: bool,
}

impl RefTile {
    /// The letter in the notation: upper case for White, lower for Black.
    pub fn letter(&self) -> char {
        if self.white {
            self.kind
        } else {
            self.kind.to_ascii_lowercase()
        }
    }
}

/// A position, exactly the five fields of the position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefPos {
    pub tiles: BTreeMap<Sq, RefTile>,
    pub white_to_move: bool,
    /// `piles[0]` is White's, `piles[1]` Black's; counts in [`KINDS`] order.
    pub piles: [[u32; 6]; 2],
    pub halfmove: u64,
    pub fullmove: u64,
}

impl RefPos {
    /// The tiles as a plain list.
    pub fn table(&self) -> Table {
        self.tiles.iter().map(|(&s, &t)| (s, t)).collect()
    }
}

/// A turn: a placement of a kind drawn from the mover's pile, or a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum RefMove {
    /// `kind` is an upper-case letter of [`KINDS`]; the colour is the mover's.
    Place {
        kind: char,
        to: Sq,
    },
    Step {
        from: Sq,
        to: Sq,
    },
}

impl RefMove {
    /// The RULES.md token, with the placement letter in the mover's case.
    pub fn token(&self, white: bool) -> String {
        match *self {
            RefMove::Place { kind, to } => {
                let letter = if white {
                    kind
                } else {
                    kind.to_ascii_lowercase()
                };
                format!("{letter}@{},{}", to.0, to.1)
            }
            RefMove::Step { from, to } => format!("{},{}-{},{}", from.0, from.1, to.0, to.1),
        }
    }
}

// ---------------------------------------------------------------------------
// Notation: this module's own reader and writer.
// ---------------------------------------------------------------------------

/// Reads `x,y`.
pub fn parse_square(s: &str) -> Sq {
    let (x, y) = s
        .split_once(',')
        .unwrap_or_else(|| panic!("not a square: {s:?}"));
    (
        x.parse().unwrap_or_else(|_| panic!("bad x in {s:?}")),
        y.parse().unwrap_or_else(|_| panic!("bad y in {s:?}")),
    )
}

/// Reads a position string (RULES.md section 7), or `startpos`.
///
/// Panics on malformed input and on two tiles on one square; consistency is
/// [`validate`]'s job.
pub fn parse(s: &str) -> RefPos {
    let s = if s.trim() == "startpos" {
        "- w KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
    } else {
        s
    };
    let fields: Vec<&str> = s.split_whitespace().collect();
    assert_eq!(fields.len(), 5, "a position string has five fields: {s:?}");
    let mut tiles = BTreeMap::new();
    if fields[0] != "-" {
        for item in fields[0].split('/') {
            let mut chars = item.chars();
            let letter = chars.next().expect("empty tile");
            let rest = chars.as_str();
            let (coords, moved) = match rest.strip_suffix('*') {
                Some(c) => (c, true),
                None => (rest, false),
            };
            let tile = RefTile {
                white: letter.is_ascii_uppercase(),
                kind: KINDS[kind_index(letter)],
                moved,
            };
            let previous = tiles.insert(parse_square(coords), tile);
            assert!(previous.is_none(), "two tiles on {coords} in {s:?}");
        }
    }
    let white_to_move = match fields[1] {
        "w" => true,
        "b" => false,
        other => panic!("bad side {other:?}"),
    };
    let (white_pile, black_pile) = fields[2].split_once('/').expect("piles need a '/'");
    let mut piles = [[0u32; 6]; 2];
    for (side, text) in [white_pile, black_pile].into_iter().enumerate() {
        if text != "-" {
            for letter in text.chars() {
                piles[side][kind_index(letter)] += 1;
            }
        }
    }
    RefPos {
        tiles,
        white_to_move,
        piles,
        halfmove: fields[3].parse().expect("bad halfmove clock"),
        fullmove: fields[4].parse().expect("bad fullmove number"),
    }
}

impl fmt::Display for RefPos {
    /// The canonical position string: tiles by rank from high `y` to low,
    /// then by file from low `x` to high; piles in `KQRBNP` order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut squares: Vec<Sq> = self.tiles.keys().copied().collect();
        squares.sort_by_key(|&(x, y)| (-y, x));
        let tiles: Vec<String> = squares
            .iter()
            .map(|sq| {
                let t = self.tiles[sq];
                let star = if t.moved { "*" } else { "" };
                format!("{}{},{}{}", t.letter(), sq.0, sq.1, star)
            })
            .collect();
        let tiles = if tiles.is_empty() {
            "-".to_string()
        } else {
            tiles.join("/")
        };
        let mut piles = Vec::new();
        for (side, counts) in self.piles.iter().enumerate() {
            let mut text = String::new();
            for (i, &n) in counts.iter().enumerate() {
                let letter = if side == 0 {
                    KINDS[i]
                } else {
                    KINDS[i].to_ascii_lowercase()
                };
                for _ in 0..n {
                    text.push(letter);
                }
            }
            if text.is_empty() {
                text.push('-');
            }
            piles.push(text);
        }
        let side = if self.white_to_move { "w" } else { "b" };
        write!(
            f,
            "{tiles} {side} {}/{} {} {}",
            piles[0], piles[1], self.halfmove, self.fullmove
        )
    }
}

/// Reads a move token of RULES.md section 7 (`N@1,-1` or `3,0--2,0`).
pub fn parse_move(token: &str) -> RefMove {
    if let Some((letter, square)) = token.split_once('@') {
        let letter = letter.chars().next().expect("placement without a letter");
        return RefMove::Place {
            kind: KINDS[kind_index(letter)],
            to: parse_square(square),
        };
    }
    // The separator is the first '-' that follows a digit.
    let bytes = token.as_bytes();
    let split = (1..bytes.len())
        .find(|&i| bytes[i] == b'-' && bytes[i - 1].is_ascii_digit())
        .unwrap_or_else(|| panic!("not a move token: {token:?}"));
    RefMove::Step {
        from: parse_square(&token[..split]),
        to: parse_square(&token[split + 1..]),
    }
}

// ---------------------------------------------------------------------------
// The rules.
// ---------------------------------------------------------------------------

/// A table as a plain list of tiles with their squares. The legality tests
/// work on these lists by linear scans: at most 32 tiles, and nothing to get
/// wrong.
pub type Table = Vec<(Sq, RefTile)>;

/// The tile on `sq`, if any.
pub fn tile_on(table: &[(Sq, RefTile)], sq: Sq) -> Option<RefTile> {
    table.iter().find(|(s, _)| *s == sq).map(|&(_, t)| t)
}

/// True when two squares touch by an edge or a corner (section 1).
pub fn adjacent(a: Sq, b: Sq) -> bool {
    a != b && (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1
}

/// Section 4: true when the tiles form one 8-connected group (an empty table
/// counts as one group). A plain flood from the first tile: every tile not
/// reached yet that is adjacent to a reached one is reached; the table is
/// one group when none is left unreached.
pub fn is_one_group(table: &[(Sq, RefTile)]) -> bool {
    let mut unreached: Vec<Sq> = table.iter().map(|&(s, _)| s).collect();
    let Some(first) = unreached.pop() else {
        return true;
    };
    let mut frontier = Vec::with_capacity(unreached.len() + 1);
    frontier.push(first);
    while let Some(sq) = frontier.pop() {
        let mut i = 0;
        while i < unreached.len() {
            if adjacent(sq, unreached[i]) {
                frontier.push(unreached.swap_remove(i));
            } else {
                i += 1;
            }
        }
    }
    unreached.is_empty()
}

/// The squares strictly between `from` and `to`, which must share a line.
fn between(from: Sq, to: Sq) -> Vec<Sq> {
    let step = ((to.0 - from.0).signum(), (to.1 - from.1).signum());
    let mut squares = Vec::new();
    let mut sq = (from.0 + step.0, from.1 + step.1);
    while sq != to {
        squares.push(sq);
        sq = (sq.0 + step.0, sq.1 + step.1);
    }
    squares
}

/// Section 3 read as an attack: true when `tile`, standing on `from`, could
/// move onto `to` by its movement (path clear; a pawn only diagonally
/// forward). Says nothing about the connection rule.
pub fn reaches(table: &[(Sq, RefTile)], from: Sq, tile: RefTile, to: Sq) -> bool {
    let dx = to.0 - from.0;
    let dy = to.1 - from.1;
    let orthogonal = (dx == 0) != (dy == 0);
    let diagonal = dx != 0 && dx.abs() == dy.abs();
    let path_clear = || {
        between(from, to)
            .iter()
            .all(|&s| tile_on(table, s).is_none())
    };
    match tile.kind {
        'K' => dx.abs().max(dy.abs()) == 1,
        'N' => (dx.abs() == 1 && dy.abs() == 2) || (dx.abs() == 2 && dy.abs() == 1),
        'R' => orthogonal && path_clear(),
        'B' => diagonal && path_clear(),
        'Q' => (orthogonal || diagonal) && path_clear(),
        'P' => dx.abs() == 1 && dy == if tile.white { 1 } else { -1 },
        other => panic!("bad kind {other}"),
    }
}

/// Section 5: true when `white`'s king is on the table and some enemy tile
/// could capture it by its movement, the table after that capture (attacker
/// on the king's square, king gone, attacker's old square empty) being one
/// group. Done literally: each capture is performed on a copy and flooded.
pub fn king_in_check(table: &[(Sq, RefTile)], white: bool) -> bool {
    let Some(&(king, _)) = table
        .iter()
        .find(|(_, t)| t.kind == 'K' && t.white == white)
    else {
        return false;
    };
    table.iter().any(|&(from, attacker)| {
        if attacker.white == white || !reaches(table, from, attacker, king) {
            return false;
        }
        let after = table_after(table, RefMove::Step { from, to: king }, attacker.white);
        is_one_group(&after)
    })
}

/// True when the side to move is in check.
pub fn in_check(pos: &RefPos) -> bool {
    king_in_check(&pos.table(), pos.white_to_move)
}

/// The bounding box of the tiles grown by one square on every side: every
/// legal destination of a move touches some other tile, so it lies inside.
fn reach_box(tiles: &BTreeMap<Sq, RefTile>) -> (i64, i64, i64, i64) {
    let xs = tiles.keys().map(|s| s.0);
    let ys = tiles.keys().map(|s| s.1);
    (
        xs.clone().min().unwrap() - 1,
        xs.max().unwrap() + 1,
        ys.clone().min().unwrap() - 1,
        ys.max().unwrap() + 1,
    )
}

/// Every candidate turn of the side to move, before the connection and
/// check tests: placements on every empty square next to a tile (only `0,0`
/// on an empty table) and every chess-like move of its tiles.
pub fn pseudo_moves(pos: &RefPos) -> Vec<RefMove> {
    let me = pos.white_to_move;
    let tiles = &pos.tiles;
    let mut moves = Vec::new();

    // Placements: one per kind left in the pile and per empty square next
    // to at least one tile.
    let mut targets = BTreeSet::new();
    if tiles.is_empty() {
        targets.insert((0, 0));
    } else {
        for &(x, y) in tiles.keys() {
            for (dx, dy) in EIGHT {
                let n = (x + dx, y + dy);
                if !tiles.contains_key(&n) {
                    targets.insert(n);
                }
            }
        }
    }
    let pile = pos.piles[if me { 0 } else { 1 }];
    for (i, &kind) in KINDS.iter().enumerate() {
        if pile[i] > 0 {
            for &to in &targets {
                moves.push(RefMove::Place { kind, to });
            }
        }
    }

    if tiles.is_empty() {
        return moves;
    }
    let (min_x, max_x, min_y, max_y) = reach_box(tiles);
    let inside = |s: Sq| s.0 >= min_x && s.0 <= max_x && s.1 >= min_y && s.1 <= max_y;
    // Empty, or an enemy tile to capture.
    let may_land = |s: Sq| tiles.get(&s).is_none_or(|t| t.white != me);

    for (&from, &tile) in tiles.iter().filter(|(_, t)| t.white == me) {
        let mut add = |to: Sq| moves.push(RefMove::Step { from, to });
        let slide = |dirs: &[Sq], add: &mut dyn FnMut(Sq)| {
            for &(dx, dy) in dirs {
                let mut to = (from.0 + dx, from.1 + dy);
                // Beyond the box nothing can be connected; stop there, and
                // stop at the first tile whatever its colour.
                while inside(to) {
                    match tiles.get(&to) {
                        None => add(to),
                        Some(t) => {
                            if t.white != me {
                                add(to);
                            }
                            break;
                        }
                    }
                    to = (to.0 + dx, to.1 + dy);
                }
            }
        };
        match tile.kind {
            'K' | 'N' => {
                let jumps = if tile.kind == 'K' {
                    &EIGHT[..]
                } else {
                    &KNIGHT[..]
                };
                for &(dx, dy) in jumps {
                    let to = (from.0 + dx, from.1 + dy);
                    if may_land(to) {
                        add(to);
                    }
                }
            }
            'R' => slide(&ORTHOGONAL, &mut add),
            'B' => slide(&DIAGONAL, &mut add),
            'Q' => {
                slide(&ORTHOGONAL, &mut add);
                slide(&DIAGONAL, &mut add);
            }
            'P' => {
                let fwd = if me { 1 } else { -1 };
                let max_steps = if tile.moved { 1 } else { 3 };
                for n in 1..=max_steps {
                    let to = (from.0, from.1 + n * fwd);
                    if tiles.contains_key(&to) {
                        break; // every square passed and landed on is empty
                    }
                    add(to);
                }
                for dx in [-1, 1] {
                    let to = (from.0 + dx, from.1 + fwd);
                    if tiles.get(&to).is_some_and(|t| t.white != me) {
                        add(to);
                    }
                }
            }
            other => panic!("bad kind {other}"),
        }
    }
    moves
}

/// The table after `mv` by the side `white`, the captured tile gone.
pub fn table_after(table: &[(Sq, RefTile)], mv: RefMove, white: bool) -> Table {
    match mv {
        RefMove::Place { kind, to } => {
            assert!(
                tile_on(table, to).is_none(),
                "placement on an occupied square"
            );
            let mut after = Vec::with_capacity(table.len() + 1);
            after.extend_from_slice(table);
            after.push((
                to,
                RefTile {
                    white,
                    kind,
                    moved: false,
                },
            ));
            after
        }
        RefMove::Step { from, to } => {
            let mut tile = tile_on(table, from).expect("no tile to move");
            assert_eq!(tile.white, white, "moving an enemy tile");
            if tile.kind == 'P' {
                tile.moved = true;
            }
            let mut after = Vec::with_capacity(table.len());
            after.extend(table.iter().filter(|&&(s, _)| s != from && s != to));
            after.push((to, tile));
            after
        }
    }
}

/// Section 5, "Legal move": the move keeps the table one group and leaves
/// the mover's king (if on the table) out of check. Destinations outside
/// the coordinate range of section 1 are not moves at all.
pub fn is_legal(pos: &RefPos, mv: RefMove) -> bool {
    is_legal_on(&pos.table(), pos.white_to_move, mv)
}

/// [`is_legal`] on the table `table` with `white` to move.
fn is_legal_on(table: &[(Sq, RefTile)], white: bool, mv: RefMove) -> bool {
    let to = match mv {
        RefMove::Place { to, .. } | RefMove::Step { to, .. } => to,
    };
    if to.0.abs() > LIMIT || to.1.abs() > LIMIT {
        return false;
    }
    let after = table_after(table, mv, white);
    is_one_group(&after) && !king_in_check(&after, white)
}

/// The legal moves of the side to move.
pub fn legal_move_list(pos: &RefPos) -> Vec<RefMove> {
    let table = pos.table();
    pseudo_moves(pos)
        .into_iter()
        .filter(|&mv| is_legal_on(&table, pos.white_to_move, mv))
        .collect()
}

/// The legal moves as sorted RULES.md tokens.
pub fn legal_moves(pos: &RefPos) -> Vec<String> {
    let mut tokens: Vec<String> = legal_move_list(pos)
        .iter()
        .map(|mv| mv.token(pos.white_to_move))
        .collect();
    tokens.sort();
    tokens
}

/// The sorted legal move tokens of a position string.
pub fn legal_moves_of(position: &str) -> Vec<String> {
    legal_moves(&parse(position))
}

/// The position after `mv` (assumed legal), clocks included: the halfmove
/// clock restarts on a capture, a pawn move or a placement (section 6), the
/// fullmove number grows after Black's turn.
pub fn apply(pos: &RefPos, mv: RefMove) -> RefPos {
    let me = pos.white_to_move;
    let side = if me { 0 } else { 1 };
    let mut next = pos.clone();
    next.tiles = table_after(&pos.table(), mv, me).into_iter().collect();
    let resets = match mv {
        RefMove::Place { kind, .. } => {
            let i = kind_index(kind);
            assert!(next.piles[side][i] > 0, "placing a kind not in the pile");
            next.piles[side][i] -= 1;
            true
        }
        RefMove::Step { from, to } => pos.tiles.contains_key(&to) || pos.tiles[&from].kind == 'P',
    };
    next.halfmove = if resets { 0 } else { pos.halfmove + 1 };
    if !me {
        next.fullmove += 1;
    }
    next.white_to_move = !me;
    next
}

/// The position after the move written `token`.
pub fn play(pos: &RefPos, token: &str) -> RefPos {
    apply(pos, parse_move(token))
}

/// Section 8: the number of legal move sequences of length `depth`.
pub fn perft(pos: &RefPos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_move_list(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| perft(&apply(pos, mv), depth - 1))
        .sum()
}

/// Section 7's consistency rules for a parsed position; `Err` names the
/// first one broken.
pub fn validate(pos: &RefPos) -> Result<(), String> {
    for side in 0..2 {
        let white = side == 0;
        for (i, &kind) in KINDS.iter().enumerate() {
            let on_table = pos
                .tiles
                .values()
                .filter(|t| t.white == white && t.kind == kind)
                .count() as u32;
            let total = on_table + pos.piles[side][i];
            if total > SET[i] {
                return Err(format!("side {side} has {total} of {kind}"));
            }
            if kind == 'K' && total != 1 {
                return Err(format!("side {side} has {total} kings"));
            }
        }
    }
    for &(x, y) in pos.tiles.keys() {
        if x.abs() > LIMIT || y.abs() > LIMIT {
            return Err(format!("square {x},{y} out of range"));
        }
    }
    if !is_one_group(&pos.table()) {
        return Err("the table is not one group".into());
    }
    if king_in_check(&pos.table(), !pos.white_to_move) {
        return Err("the side not to move is in check".into());
    }
    if pos.tiles.is_empty() {
        let start = pos.white_to_move && pos.piles == [SET, SET];
        if !start {
            return Err("an empty table outside the start position".into());
        }
    } else if !pos.tiles.values().any(|t| t.white != pos.white_to_move) {
        return Err("the side not to move has no tile on the table".into());
    }
    if pos.fullmove == 0 {
        return Err("the fullmove number starts at 1".into());
    }
    Ok(())
}

/// The position string with every tile moved by `(dx, dy)`.
pub fn translate(position: &str, dx: i64, dy: i64) -> String {
    let mut pos = parse(position);
    pos.tiles = pos
        .tiles
        .into_iter()
        .map(|((x, y), t)| ((x + dx, y + dy), t))
        .collect();
    pos.to_string()
}

/// A move token with its squares moved by `(dx, dy)`.
pub fn translate_move(token: &str, dx: i64, dy: i64, white: bool) -> String {
    let mv = match parse_move(token) {
        RefMove::Place { kind, to } => RefMove::Place {
            kind,
            to: (to.0 + dx, to.1 + dy),
        },
        RefMove::Step { from, to } => RefMove::Step {
            from: (from.0 + dx, from.1 + dy),
            to: (to.0 + dx, to.1 + dy),
        },
    };
    mv.token(white)
}

/// The length of the longest straight run (any of the 4 line directions) of
/// adjacent tiles: a measure of how "stretched" a position is, used to make
/// sure the random tests reach long lines.
pub fn longest_line(tiles: &BTreeMap<Sq, RefTile>) -> usize {
    let mut best = 0;
    for &(x, y) in tiles.keys() {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            // Count only from the start of a run.
            if tiles.contains_key(&(x - dx, y - dy)) {
                continue;
            }
            let mut n = 0;
            while tiles.contains_key(&(x + n * dx, y + n * dy)) {
                n += 1;
            }
            best = best.max(n as usize);
        }
    }
    best
}

/// The symmetric difference of two sorted move lists, for failure messages.
pub fn diff(crate_moves: &[String], reference: &[String]) -> String {
    let a: BTreeSet<&String> = crate_moves.iter().collect();
    let b: BTreeSet<&String> = reference.iter().collect();
    let only_crate: Vec<&&String> = a.difference(&b).collect();
    let only_ref: Vec<&&String> = b.difference(&a).collect();
    let mut dups = String::new();
    if crate_moves.len() != a.len() {
        dups = format!(
            " (crate list has {} duplicates)",
            crate_moves.len() - a.len()
        );
    }
    format!("only in crate: {only_crate:?}; only in reference: {only_ref:?}{dups}")
}
