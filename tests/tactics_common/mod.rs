//! The tactics suite (`tests/data/tactics.txt`): its categories, its line
//! format, and the brute-force definitions that decide each position's
//! answers. Shared by `tests/tactics.rs` (which re-verifies every line),
//! `examples/tactics_gen.rs` (which finds the positions) and
//! `examples/tactics_run.rs` (which measures a player's solve rate).
//!
//! Nothing here asks the engine's search: every answer set is worked out
//! by trying every move, every reply and every kind a draw can bring.
//!
//! # "Lost this turn"
//!
//! The side to move is *lost this turn* when it is in check, no step of
//! its tiles is legal, and no kind left in its pile has a legal placement.
//! Then whatever it does the game ends with its loss now: with an empty
//! pile it is checkmated; with tiles left it must draw (it has no step),
//! and whatever kind comes cannot be placed, which in check is checkmate
//! (RULES.md section 5). An action *mates* when the opponent is lost this
//! turn after it. A check that some kind of the pile could answer is no
//! mate: the opponent may draw that kind.

#![allow(dead_code)]

use chex::rules::{Kind, Move, MoveList, Position};
use chex::search::playout::{turn, Policy, Turn};
use rand::Rng;
use std::fmt;
use std::str::FromStr;

/// The kinds of position in the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Mate in one by a step: the answers are every mating step (and `@`
    /// when drawing mates too, whatever kind comes).
    Mate1Step,
    /// Mate in one by drawing: no step mates, but every kind left in the
    /// pile has a placement that mates. The answer is `@`.
    Mate1Draw,
    /// Win the queen: see [`win_queen_answers`].
    WinQueen,
    /// A drawn king to place: the answers are the placements after which
    /// the opponent has no way to mate this turn, while some other
    /// placement lets it mate for certain. See [`king_safe_answers`].
    KingSafe,
    /// In check with a step that answers it, where a draw may bring a kind
    /// that cannot be placed: the answers are the steps after which the
    /// opponent cannot mate this turn. See [`check_step_answers`].
    CheckStep,
    /// Mate in two: no action mates in one, and these actions mate in two
    /// whatever the opponent does and whatever either side draws.
    Mate2,
    /// Mate in three: no forced mate within two turns, and these actions
    /// mate within three whatever the opponent does and whatever either
    /// side draws.
    Mate3,
}

impl Category {
    /// Every category, in the order of the data file.
    pub const ALL: [Category; 7] = [
        Category::Mate1Step,
        Category::Mate1Draw,
        Category::WinQueen,
        Category::KingSafe,
        Category::CheckStep,
        Category::Mate2,
        Category::Mate3,
    ];

    /// The name the data file uses.
    pub const fn name(self) -> &'static str {
        match self {
            Category::Mate1Step => "mate1-step",
            Category::Mate1Draw => "mate1-draw",
            Category::WinQueen => "win-queen",
            Category::KingSafe => "king-safe",
            Category::CheckStep => "check-step",
            Category::Mate2 => "mate2",
            Category::Mate3 => "mate3",
        }
    }

    /// The easy part, which the test holds every player to: mate in one
    /// and win the queen.
    pub const fn is_easy(self) -> bool {
        matches!(
            self,
            Category::Mate1Step | Category::Mate1Draw | Category::WinQueen
        )
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Category {
    type Err = String;

    fn from_str(s: &str) -> Result<Category, String> {
        Category::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("unknown category '{s}'"))
    }
}

/// One line of the suite.
#[derive(Clone, Debug)]
pub struct Entry {
    /// A name for reports, unique in the file.
    pub id: String,
    /// The position.
    pub pos: Position,
    /// The drawn tile the side to move must place, if any.
    pub pending: Option<Kind>,
    /// What kind of tactic it is.
    pub category: Category,
    /// The accepted answers, as the protocol writes them (`@` for draw),
    /// sorted.
    pub answers: Vec<String>,
}

impl Entry {
    /// Reads a line `id ; position ; pending ; category ; answers`.
    pub fn parse(line: &str) -> Result<Entry, String> {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [id, pos, pending, category, answers] = fields[..] else {
            return Err(format!("want 5 ';'-separated fields: {line}"));
        };
        let pos: Position = pos.parse().map_err(|e| format!("{e}: {line}"))?;
        let pending = match pending {
            "-" => None,
            text => {
                let mut chars = text.chars();
                let kind = chars.next().and_then(Kind::from_letter);
                match (kind, chars.next()) {
                    (Some(kind), None) => Some(kind),
                    _ => return Err(format!("bad pending kind '{text}': {line}")),
                }
            }
        };
        let category = category.parse()?;
        let answers: Vec<String> = answers.split_whitespace().map(String::from).collect();
        if answers.is_empty() {
            return Err(format!("no answers: {line}"));
        }
        Ok(Entry {
            id: id.to_string(),
            pos,
            pending,
            category,
            answers,
        })
    }

    /// Every entry of a suite file, skipping comments and blank lines.
    pub fn parse_file(text: &str) -> Result<Vec<Entry>, String> {
        text.lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(Entry::parse)
            .collect()
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pending = self
            .pending
            .map_or("-".to_string(), |k| k.letter().to_string());
        write!(
            f,
            "{} ; {} ; {} ; {} ; {}",
            self.id,
            self.pos,
            pending,
            self.category,
            self.answers.join(" ")
        )
    }
}

/// The answer that stands for "draw".
pub const DRAW: &str = "@";

/// Material values for the two-ply count of [`win_queen_answers`].
pub fn value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Queen => 9,
        Kind::Rook => 5,
        Kind::Bishop | Kind::Knight => 3,
        Kind::Pawn => 1,
    }
}

/// The legal steps of the side to move.
pub fn steps(pos: &mut Position) -> MoveList {
    let mut list = MoveList::new();
    pos.generate_steps(&mut list);
    list
}

/// The legal placements of a drawn `kind`.
pub fn placements(pos: &mut Position, kind: Kind) -> MoveList {
    let mut list = MoveList::new();
    pos.generate_placements(kind, &mut list);
    list
}

/// The side to move is lost this turn (see the module comment): in check,
/// no legal step, and no kind left in its pile has a legal placement.
pub fn is_lost(pos: &mut Position) -> bool {
    if !pos.in_check() || !steps(pos).is_empty() {
        return false;
    }
    let pile = pos.pile(pos.side_to_move());
    let lost = pile.kinds().all(|k| placements(pos, k).is_empty());
    lost
}

/// `mv` is legal here and leaves the opponent lost this turn.
pub fn mates(pos: &mut Position, mv: Move) -> bool {
    let undo = pos.make(mv);
    let lost = is_lost(pos);
    pos.unmake(mv, undo);
    lost
}

/// The steps that mate.
pub fn mating_steps(pos: &mut Position) -> Vec<Move> {
    steps(pos).into_iter().filter(|&m| mates(pos, m)).collect()
}

/// True when a placement of `kind` mates.
pub fn kind_mates(pos: &mut Position, kind: Kind) -> bool {
    placements(pos, kind).into_iter().any(|m| mates(pos, m))
}

/// Drawing mates for certain: the pile is not empty and every kind left
/// in it has a placement that mates.
pub fn draw_mates(pos: &mut Position) -> bool {
    let pile = pos.pile(pos.side_to_move());
    !pile.is_empty() && pile.kinds().all(|k| kind_mates(pos, k))
}

/// The side to move can mate this turn for certain: a step mates, or
/// drawing does whatever comes.
pub fn mate_in_one(pos: &mut Position) -> bool {
    steps(pos).into_iter().any(|m| mates(pos, m)) || draw_mates(pos)
}

/// The side to move may mate this turn: a step mates, or some kind left
/// in its pile has a mating placement (a draw that brings it mates).
pub fn mate_threat(pos: &mut Position) -> bool {
    let pile = pos.pile(pos.side_to_move());
    steps(pos).into_iter().any(|m| mates(pos, m)) || pile.kinds().any(|k| kind_mates(pos, k))
}

/// The answers that mate in one: every mating step, and `@` when drawing
/// mates whatever comes. Sorted.
pub fn mate1_answers(pos: &mut Position) -> Vec<String> {
    let mut answers: Vec<String> = mating_steps(pos).iter().map(|m| m.to_string()).collect();
    if draw_mates(pos) {
        answers.push(DRAW.to_string());
    }
    answers.sort();
    answers
}

/// With the opponent to move (after our action): every reply it has, every
/// kind it may draw and every placement of it, leaves us a mate within
/// `turns` of our turns ([`forces_mate`]), or ends the game in our favour
/// at once. A draw that brings a kind with no placement ends the game: a
/// loss for the opponent in check, a stalemate (not a win) otherwise.
fn every_reply_allows_mate(pos: &mut Position, turns: u32) -> bool {
    if is_lost(pos) {
        return true;
    }
    let replies = steps(pos);
    let pile = pos.pile(pos.side_to_move());
    if replies.is_empty() && pile.is_empty() {
        return false; // stalemate
    }
    for r in replies {
        let undo = pos.make(r);
        let ok = forces_mate(pos, turns);
        pos.unmake(r, undo);
        if !ok {
            return false;
        }
    }
    for kind in pile.kinds() {
        let list = placements(pos, kind);
        if list.is_empty() {
            if !pos.in_check() {
                return false;
            }
            continue;
        }
        for p in list {
            let undo = pos.make(p);
            let ok = forces_mate(pos, turns);
            pos.unmake(p, undo);
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Our `mv` forces mate within `turns` of our turns, this one included.
fn action_forces_mate(pos: &mut Position, mv: Move, turns: u32) -> bool {
    let undo = pos.make(mv);
    let ok = turns > 1 && every_reply_allows_mate(pos, turns - 1) || is_lost(pos);
    pos.unmake(mv, undo);
    ok
}

/// Drawing forces mate within `turns` of our turns, this one included:
/// every kind left in the pile has a placement that does.
fn draw_forces_mate(pos: &mut Position, turns: u32) -> bool {
    let pile = pos.pile(pos.side_to_move());
    !pile.is_empty()
        && pile.kinds().all(|k| {
            placements(pos, k)
                .into_iter()
                .any(|p| action_forces_mate(pos, p, turns))
        })
}

/// The side to move can force mate within `turns` of its turns, whatever
/// the opponent does and whatever either side draws.
pub fn forces_mate(pos: &mut Position, turns: u32) -> bool {
    if turns <= 1 {
        return mate_in_one(pos);
    }
    steps(pos)
        .into_iter()
        .any(|m| action_forces_mate(pos, m, turns))
        || draw_forces_mate(pos, turns)
}

/// The side to move cannot go on: no legal step, and every kind left in
/// its pile (none when it is empty) has no legal placement. The game ends
/// on this turn: checkmate in check, else stalemate.
pub fn cannot_go_on(pos: &mut Position) -> bool {
    if !steps(pos).is_empty() {
        return false;
    }
    let pile = pos.pile(pos.side_to_move());
    let stuck = pile.kinds().all(|k| placements(pos, k).is_empty());
    stuck
}

/// The side to move can make sure that within `turns` of its turns the
/// game ends and not in its loss (a stalemate of either side, or its
/// mating the other), whatever the opponent does and whatever either side
/// draws. Repetition and the fifty-move rule are not counted.
pub fn forces_no_loss_end(pos: &mut Position, turns: u32) -> bool {
    if turns == 0 {
        return false;
    }
    let in_check = pos.in_check();
    // An action of ours is good when the opponent then cannot go on (mated
    // or stalemated), or, with turns to spare, when each of its replies
    // leaves us a good action again.
    let good_after = |pos: &mut Position| -> bool {
        if cannot_go_on(pos) {
            return true;
        }
        if turns == 1 {
            return false;
        }
        for r in steps(pos) {
            let undo = pos.make(r);
            let ok = forces_no_loss_end(pos, turns - 1);
            pos.unmake(r, undo);
            if !ok {
                return false;
            }
        }
        let pile = pos.pile(pos.side_to_move());
        for kind in pile.kinds() {
            // A kind with no placement ends the game: mate or stalemate,
            // both good for us.
            for p in placements(pos, kind) {
                let undo = pos.make(p);
                let ok = forces_no_loss_end(pos, turns - 1);
                pos.unmake(p, undo);
                if !ok {
                    return false;
                }
            }
        }
        true
    };
    let list = steps(pos);
    let pile = pos.pile(pos.side_to_move());
    if list.is_empty() && pile.is_empty() {
        return !in_check; // stalemate, or checkmate
    }
    for m in list {
        let undo = pos.make(m);
        let ok = good_after(pos);
        pos.unmake(m, undo);
        if ok {
            return true;
        }
    }
    !pile.is_empty()
        && pile.kinds().all(|k| {
            let list = placements(pos, k);
            if list.is_empty() {
                return !in_check; // a drawn-tile stalemate, or mate
            }
            list.into_iter().any(|p| {
                let undo = pos.make(p);
                let ok = good_after(pos);
                pos.unmake(p, undo);
                ok
            })
        })
}

/// The answers that mate within `turns` of our turns whatever the
/// opponent does and whatever either side draws: the steps, and `@` when
/// every kind left in our pile has a placement that does. Sorted.
pub fn forced_mate_answers(pos: &mut Position, turns: u32) -> Vec<String> {
    let mut answers: Vec<String> = steps(pos)
        .into_iter()
        .filter(|&m| action_forces_mate(pos, m, turns))
        .map(|m| m.to_string())
        .collect();
    if draw_forces_mate(pos, turns) {
        answers.push(DRAW.to_string());
    }
    answers.sort();
    answers
}

/// What `mv` captures, by [`value`].
fn captured(pos: &Position, mv: Move) -> i32 {
    match mv {
        Move::Step { to, .. } => pos.tile_at(to).map_or(0, |t| value(t.piece.kind)),
        Move::Place { .. } => 0,
    }
}

/// The two-ply material count of our `mv`: what it captures less the most
/// the opponent can capture in reply; `None` when the opponent may mate
/// this turn after it.
pub fn two_ply(pos: &mut Position, mv: Move) -> Option<i32> {
    let gain = captured(pos, mv);
    let undo = pos.make(mv);
    let count = if mate_threat(pos) {
        None
    } else {
        let worst = steps(pos)
            .into_iter()
            .map(|r| captured(pos, r))
            .max()
            .unwrap_or(0);
        Some(gain - worst)
    };
    pos.unmake(mv, undo);
    count
}

/// The least two-ply count of a queen capture that wins the queen: the
/// opponent can take back at most a bishop or a knight.
pub const QUEEN_WIN: i32 = 6;

/// The most two-ply count any other step may have: at least 3 below any
/// answer.
pub const QUEEN_OTHERS: i32 = 3;

/// After our action, with the opponent to move: it has no way at all to
/// mate this turn (no mating step, no kind in its pile with a mating
/// placement), nor can it force mate within `turns` of its turns.
pub fn holds(pos: &mut Position, turns: u32) -> bool {
    !mate_threat(pos) && !forces_mate(pos, turns)
}

/// How many of its turns the opponent may not force mate in after a
/// queen capture of the answers.
pub const QUEEN_HOLD: u32 = 3;

/// How many of its turns the opponent may not force mate in after a
/// safe king placement or a safe step out of check.
pub const SAFE_HOLD: u32 = 3;

/// The moves of `list` after which the opponent [`holds`] for `turns`.
fn holding(pos: &mut Position, list: &[Move], turns: u32) -> Vec<Move> {
    list.iter()
        .copied()
        .filter(|&mv| {
            let undo = pos.make(mv);
            let ok = holds(pos, turns);
            pos.unmake(mv, undo);
            ok
        })
        .collect()
}

/// Sorted tokens of `moves`; `None` when there are none.
fn tokens(moves: &[Move]) -> Option<Vec<String>> {
    let mut t: Vec<String> = moves.iter().map(Move::to_string).collect();
    t.sort();
    (!t.is_empty()).then_some(t)
}

/// Win the queen. The position qualifies when no action of ours can mate
/// this turn, some step captures the enemy queen with a two-ply count
/// ([`two_ply`]) of at least [`QUEEN_WIN`] (the opponent can then take
/// back at most a minor piece and cannot mate this turn) after which the
/// opponent can force neither mate nor a stalemate
/// ([`forces_no_loss_end`]) within [`QUEEN_HOLD`] turns, and
/// every other step counts at most [`QUEEN_OTHERS`]. (A draw counts at
/// most 0: a placement captures nothing, and no kind of ours mates.) And
/// the queen must be taken now: after every other step, and after every
/// placement of every kind a draw may bring, the opponent has a step that
/// saves its queen. The answers are those queen captures; `None` when the
/// position does not qualify.
pub fn win_queen_answers(pos: &mut Position) -> Option<Vec<String>> {
    if mate_threat(pos) {
        return None;
    }
    let mut captures = Vec::new();
    for mv in steps(pos) {
        let count = two_ply(pos, mv);
        if takes_queen(pos, mv) && count.is_some_and(|c| c >= QUEEN_WIN) {
            captures.push(mv);
        } else if count.is_some_and(|c| c > QUEEN_OTHERS) {
            return None;
        }
    }
    // After the capture the opponent can neither mate nor force a draw
    // (a stalemate) within QUEEN_HOLD of its turns.
    let kept: Vec<Move> = holding(pos, &captures, QUEEN_HOLD)
        .into_iter()
        .filter(|&mv| {
            let undo = pos.make(mv);
            let draw = forces_no_loss_end(pos, QUEEN_HOLD);
            pos.unmake(mv, undo);
            !draw
        })
        .collect();
    let answers = tokens(&kept)?;
    // Not a trapped queen that could be taken later just as well: after
    // every other step, and every placement of every kind a draw brings,
    // the opponent has a step that saves its queen.
    for mv in steps(pos) {
        if captures.contains(&mv) {
            continue;
        }
        let undo = pos.make(mv);
        let saved = queen_escapes(pos);
        pos.unmake(mv, undo);
        if !saved {
            return None;
        }
    }
    let pile = pos.pile(pos.side_to_move());
    for kind in pile.kinds() {
        for p in placements(pos, kind) {
            let undo = pos.make(p);
            let saved = queen_escapes(pos);
            pos.unmake(p, undo);
            if !saved {
                return None;
            }
        }
    }
    Some(answers)
}

/// `mv` takes the enemy queen.
fn takes_queen(pos: &Position, mv: Move) -> bool {
    matches!(mv, Move::Step { to, .. }
        if pos.tile_at(to).is_some_and(|t| t.piece.kind == Kind::Queen))
}

/// The side to move wins the enemy queen by the plain count: a step takes
/// it and the opponent can then take back at most a minor piece. (No
/// mate is looked for: a cheap test.)
fn can_win_queen(pos: &mut Position) -> bool {
    steps(pos).into_iter().any(|mv| {
        if !takes_queen(pos, mv) {
            return false;
        }
        let undo = pos.make(mv);
        let worst = steps(pos)
            .into_iter()
            .map(|r| captured(pos, r))
            .max()
            .unwrap_or(0);
        pos.unmake(mv, undo);
        value(Kind::Queen) - worst >= QUEEN_WIN
    })
}

/// With the opponent to move: it has a step after which its queen can no
/// longer be won ([`can_win_queen`]).
fn queen_escapes(pos: &mut Position) -> bool {
    steps(pos).into_iter().any(|r| {
        let undo = pos.make(r);
        let saved = !can_win_queen(pos);
        pos.unmake(r, undo);
        saved
    })
}

/// A drawn king to place. A placement is *safe* when afterwards the
/// opponent [`holds`] for [`SAFE_HOLD`] turns (no way at all to mate this
/// turn, no forced mate within three turns), and *losing* when the
/// opponent then mates for certain this turn (a mating step, or a draw
/// that mates whatever comes). The position qualifies when both kinds of placement
/// exist; the answers are the safe ones. `pos` must have a king in the
/// pile of the side to move.
pub fn king_safe_answers(pos: &mut Position) -> Option<Vec<String>> {
    let mut candidates = Vec::new();
    let mut losing = 0;
    for p in placements(pos, Kind::King) {
        let undo = pos.make(p);
        if !mate_threat(pos) {
            candidates.push(p);
        } else if mate_in_one(pos) {
            losing += 1;
        }
        pos.unmake(p, undo);
    }
    if losing == 0 {
        return None;
    }
    tokens(&holding(pos, &candidates, SAFE_HOLD))
}

/// The kinds of our pile that have no legal placement now, counted by
/// tiles: the chance of drawing one is this over the pile's size.
pub fn stuck_tiles(pos: &mut Position) -> u32 {
    let pile = pos.pile(pos.side_to_move());
    pile.kinds()
        .filter(|&k| placements(pos, k).is_empty())
        .map(|k| pile.count(k) as u32)
        .sum()
}

/// In check, do not draw. The position qualifies when we are in check,
/// our pile holds a kind that cannot be placed (so a draw may lose at
/// once), no action of ours can mate this turn (no step mates, no kind
/// has a mating placement), and some step leaves the opponent no way to
/// mate this turn nor a forced mate within [`SAFE_HOLD`] turns ([`holds`]).
/// The answers are those steps.
pub fn check_step_answers(pos: &mut Position) -> Option<Vec<String>> {
    if !pos.in_check() || stuck_tiles(pos) == 0 || mate_threat(pos) {
        return None;
    }
    let list = steps(pos);
    tokens(&holding(pos, &list, SAFE_HOLD))
}

/// The positions the suite takes: the game is on, far from the fifty-move
/// rule.
pub fn playable(pos: &Position, pending: Option<Kind>) -> bool {
    pos.halfmove_clock() < 90
        && match pending {
            Some(kind) => pos.pile(pos.side_to_move()).count(kind) > 0,
            None => pos.ending().is_none(),
        }
}

/// The answers of `category` in this position by the definitions above, or
/// `None` when the position does not qualify for it. A win-queen position
/// also has no forced mate within three turns, and a check-step position
/// none within two, so that their answers are the best there are.
pub fn answers(pos: &Position, pending: Option<Kind>, category: Category) -> Option<Vec<String>> {
    let mut pos = pos.clone();
    let pos = &mut pos;
    if !playable(pos, pending) {
        return None;
    }
    let nonempty = |v: Vec<String>| (!v.is_empty()).then_some(v);
    match (category, pending) {
        (Category::KingSafe, Some(Kind::King)) => king_safe_answers(pos),
        (_, Some(_)) | (Category::KingSafe, None) => None,
        (Category::Mate1Step, None) => {
            let a = mate1_answers(pos);
            a.iter().any(|t| t != DRAW).then_some(a)
        }
        (Category::Mate1Draw, None) => {
            let a = mate1_answers(pos);
            (a == [DRAW]).then_some(a)
        }
        (Category::Mate2, None) => {
            if mate_in_one(pos) {
                return None;
            }
            nonempty(forced_mate_answers(pos, 2))
        }
        (Category::Mate3, None) => {
            if forces_mate(pos, 2) {
                return None;
            }
            nonempty(forced_mate_answers(pos, 3))
        }
        (Category::WinQueen, None) => {
            let a = win_queen_answers(pos)?;
            // No mate in one (no mate threat at all), and none within
            // three turns: winning the queen is then the best there is.
            (!forces_mate(pos, QUEEN_HOLD)).then_some(a)
        }
        (Category::CheckStep, None) => {
            let a = check_step_answers(pos)?;
            (!forces_mate(pos, 2)).then_some(a)
        }
    }
}

/// Plays one turn of a random game that takes the most valuable capture
/// with chance `captures` and otherwise moves uniformly at random: the
/// games the suite's positions are found in. False once the game is over.
pub fn play_random_turn(pos: &mut Position, rng: &mut impl Rng, captures: f64) -> bool {
    let policy = if rng.gen_bool(captures) {
        Policy::Captures
    } else {
        Policy::Uniform
    };
    match turn(pos, rng, policy) {
        Turn::Play(mv) => {
            pos.make(mv);
        }
        _ => return false,
    }
    pos.ending().is_none()
}
