//! A classical searcher: expectimax alpha-beta over the draws, with
//! iterative deepening, a transposition table, a capture quiescence and
//! move ordering. It is the sparring partner of the Monte Carlo search
//! and the judge of its leaves.
//!
//! # Chance
//!
//! Drawing is an action whose outcome is the kind on top of the pile,
//! each remaining tile equally likely. Below "draw" sits a chance node
//! whose value is the mean, weighted by the pile's counts, of the best
//! placement of each kind; a kind with no legal placement ends the game
//! (checkmate in check, else stalemate). A draw and its placement make one
//! ply. Chance nodes are cut with Star1 (Ballard 1983): the outcomes not
//! yet searched are bounded by a win and a loss, which lets an outcome
//! that is bad or good enough settle the node early.
//!
//! # Scores
//!
//! A score is an expected result for the side to move on a scale of
//! [`WIN`]: `+WIN` a won game, `−WIN` a lost one, 0 a draw. Mates count a
//! little less the further away they are, so that the shortest is
//! preferred. The static evaluation is turned into the same scale by a
//! logistic curve, so that the mean at a chance node is the mean of
//! expected results, as expectimax needs, and never reaches a mate's.

use super::eval;
use super::features::{self, FEATURES};
use super::time::Clock;
use super::{Action, ActionStats, Limits, Report, Request};
use crate::rules::{Colour, Kind, Move, MoveList, Position};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};

/// The score of a won game.
pub const WIN: i32 = 10_000;

/// Beyond every score: the bounds of a full window.
const INFINITY: i32 = 30_000;

/// The deepest the search goes, quiescence included.
const MAX_PLY: usize = 96;

/// Scores beyond this are mates, counted from the root.
const MATE_BOUND: i32 = WIN - MAX_PLY as i32;

/// The most the static evaluation may claim: less than any mate.
const EVAL_BOUND: i32 = MATE_BOUND - 1;

/// Nodes between two looks at the clock and the stop flag.
const CLOCK_EVERY: u64 = 1024;

/// Centipawns of the evaluation per unit of the logistic curve's
/// exponent: a lead of this many centipawns is a win probability of
/// `1 / (1 + e^-1)`, about 73%. The tree reads its values on the same
/// curve: with the weights kept, 300 scored −30 ± 37 Elo and 550 −12 ± 35
/// against 400 (200 games each at 1,500 playouts a move).
pub const LOGISTIC_SCALE: f64 = 400.0;

/// The weights of the evaluation's features ([`features::NAMES`]), in
/// centipawns, fitted to game results by `examples/fit_eval.rs`, all but
/// the queen on the table: the fit puts it near 250, below a queen in the
/// pile, and with that the search let free queens be. The last (open
/// squares past three) was fitted with the others held, on games at
/// 100 ms to 1 s a move.
pub const WEIGHTS: [i32; FEATURES] = [
    6, 300, 133, 115, 116, 22, 358, 195, 186, 150, 86, -4, 0, -14, 17, 130, 3, 79, -154, -50,
];

/// The static evaluation of `pos` for the side to move, in centipawns.
pub fn centipawns(pos: &Position) -> i32 {
    features::weighted(&features::features(pos), &WEIGHTS)
}

/// A centipawn evaluation on the scale of expected results.
pub fn score_of_centipawns(cp: i32) -> i32 {
    let p = 1.0 / (1.0 + (-(cp as f64) / LOGISTIC_SCALE).exp());
    ((2.0 * p - 1.0) * WIN as f64)
        .round()
        .clamp(-EVAL_BOUND as f64, EVAL_BOUND as f64) as i32
}

/// The static evaluation on the scale of expected results, for a search
/// in which a drawn game scores `draw` for the side to move.
pub fn evaluate(pos: &Position, draw: i32) -> i32 {
    let mut score = score_of_centipawns(centipawns(pos)) as f64;
    let stranded = features::stranded_kings(pos);
    for colour in Colour::ALL {
        if stranded[colour.index()] {
            let pile = pos.pile(colour).len() as f64;
            let kept = 1.0 - (STRANDED_KING_RISK / pile).min(1.0);
            score = f64::from(draw) + (score - f64::from(draw)) * kept;
        }
    }
    score.round() as i32
}

/// How a king that could not be placed if drawn now draws the game
/// nearer: the evaluation shrinks towards a draw's score (the search's,
/// contempt included, or a side that leads would take the stranding for
/// better than the draw it ends in) by this many times the
/// chance that the king comes next. More than once that chance, because
/// the side that strands it tends to go on doing so (a lone queen or king
/// that captures every tile placed beside it) until the king comes.
/// Twice as much made the side with a lone queen no likelier to avoid
/// the draw, and likelier to lose.
const STRANDED_KING_RISK: f64 = 8.0;

/// The chance of winning, 0 to 1 (a draw counting a half), that a score
/// stands for.
pub fn expected_result(score: i32) -> f64 {
    (0.5 + 0.5 * score as f64 / WIN as f64).clamp(0.0, 1.0)
}

/// The static evaluation of a position taken apart, for a person to read
/// (the protocol's `eval`), a drawn game counting even.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvaluationTrace {
    /// The features' counts for the side to move ([`features::NAMES`]),
    /// each weighed by [`WEIGHTS`].
    pub features: [i32; FEATURES],
    /// Their weighted sum, [`centipawns`].
    pub centipawns: i32,
    /// Whose king, White's first, could not be placed if drawn now
    /// ([`features::stranded_kings`]).
    pub stranded: [bool; 2],
    /// [`evaluate`]: the sum on the scale of results, shrunk towards a
    /// draw for a stranded king.
    pub score: i32,
    /// What the tree search's leaf judge makes of it: the capture and
    /// check quiescence from here.
    pub quiescence: i32,
}

impl EvaluationTrace {
    /// The trace of `pos`, for its side to move.
    pub fn of(pos: &Position) -> EvaluationTrace {
        let features = features::features(pos);
        EvaluationTrace {
            features,
            centipawns: features::weighted(&features, &WEIGHTS),
            stranded: features::stranded_kings(pos),
            score: evaluate(pos, 0),
            quiescence: LeafJudge::new(0).judge(pos, None),
        }
    }
}

/// How a stored score bounds the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

impl Bound {
    /// How a fail-soft result `best` of a search within `(alpha, beta)`
    /// bounds the true score.
    fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored result of the transposition table.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    best: Option<Move>,
    score: i32,
    depth: i8,
    bound: Bound,
}

impl Entry {
    /// The stored score, read at `ply`, when it settles a node searched
    /// to `depth` within `(alpha, beta)`.
    fn cutoff(&self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
        let s = from_table(self.score, ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        (i32::from(self.depth) >= depth && settles).then_some(s)
    }
}

/// The transposition table: one entry for each value of a key's low bits,
/// replaced when the new result is at least as deep or of another
/// position.
struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
    /// The size asked for, in MiB (0: a table of one entry).
    mib: usize,
}

impl Table {
    fn new(mib: usize) -> Table {
        let want = (mib << 20) / std::mem::size_of::<Option<Entry>>();
        let size = ((want + 1).next_power_of_two() / 2).max(1);
        Table {
            entries: vec![None; size],
            mask: size - 1,
            mib,
        }
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry) {
        let kept = &mut self.entries[entry.key as usize & self.mask];
        if kept.is_none_or(|old| old.key != entry.key || old.depth <= entry.depth) {
            *kept = Some(entry);
        }
    }
}

/// A mate score is stored relative to the node, read back relative to
/// the root.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Keys of placement nodes: the position's key mixed with the kind in
/// hand, so that they never meet the key of the same position before
/// the draw.
fn placement_key(key: u64, kind: Kind) -> u64 {
    key ^ (0x9E37_79B9_7F4A_7C15u64).wrapping_mul(kind.index() as u64 + 1)
}

/// An action at a decision node with its ordering score.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    action: Action,
    order: i32,
}

/// Why a search stopped early.
struct Aborted;

/// The limits of one search and its running counts.
struct Budget<'a> {
    clock: Clock,
    nodes_limit: u64,
    stop: &'a AtomicBool,
}

/// The searcher's state over one `go`.
struct Searcher<'a> {
    pos: Position,
    table: Table,
    /// Keys of the game before the root (oldest first), then of the
    /// current line, for repetitions.
    keys: Vec<u64>,
    /// How many of `keys` came before the root.
    game_keys: usize,
    killers: [[Option<Move>; 2]; MAX_PLY],
    nodes: u64,
    budget: Budget<'a>,
    aborted: bool,
    /// Buffers for generating moves, one list a node on the line.
    lists: Vec<Box<MoveList>>,
    /// The side to move at the root: the side the engine plays.
    engine: Colour,
    /// What a draw costs the engine, on the scale of scores.
    contempt: i32,
    /// Static evaluations by position key: the quiescences of sibling
    /// leaves meet the same positions again and again.
    evaluations: EvaluationCache,
}

/// A direct-mapped cache of [`evaluate`] by position key. The key covers
/// everything the evaluation reads (the table up to translation, the
/// piles, the side to move), so a hit is the evaluation itself.
struct EvaluationCache(Box<[(u64, i32)]>);

impl EvaluationCache {
    /// Entries, a power of two: 256 KiB, which stays in a core's L2
    /// cache.
    const SIZE: usize = 1 << 14;

    fn new() -> EvaluationCache {
        EvaluationCache(vec![(0, 0); Self::SIZE].into_boxed_slice())
    }

    /// The evaluation of `pos` with a draw scoring `draw`, from the cache
    /// when it holds it. A searcher's draw score depends on the side to
    /// move alone, which the key covers; its engine and contempt are set
    /// before its first evaluation.
    fn evaluate(&mut self, pos: &Position, draw: i32) -> i32 {
        let key = pos.hash();
        let mask = self.0.len() - 1;
        let entry = &mut self.0[key as usize & mask];
        if entry.0 != key {
            *entry = (key, evaluate(pos, draw));
        }
        entry.1
    }
}

impl<'a> Searcher<'a> {
    /// A searcher of `pos` with `table`.
    fn new(pos: &Position, history: &[u64], table: Table, budget: Budget<'a>) -> Searcher<'a> {
        let mut keys: Vec<u64> = history.to_vec();
        // The history ends with the root's own key: the line adds its own.
        if keys.last() == Some(&pos.hash()) {
            keys.pop();
        }
        let game_keys = keys.len();
        keys.push(pos.hash());
        Searcher {
            pos: pos.clone(),
            table,
            keys,
            game_keys,
            killers: [[None; 2]; MAX_PLY],
            nodes: 0,
            budget,
            aborted: false,
            lists: Vec::new(),
            engine: pos.side_to_move(),
            contempt: 0,
            evaluations: EvaluationCache::new(),
        }
    }

    /// The score of a drawn game for the side to move: below zero for
    /// the engine, by its contempt, above for its opponent.
    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.engine {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Counts a node and, now and then, looks at the clock.
    fn tick(&mut self) -> Result<(), Aborted> {
        self.nodes += 1;
        if self.aborted {
            return Err(Aborted);
        }
        if self.nodes >= self.budget.nodes_limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_EVERY) {
            let late = self.budget.clock.is_past_soft_limit();
            if late || self.budget.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        if self.aborted {
            Err(Aborted)
        } else {
            Ok(())
        }
    }

    fn take_list(&mut self) -> Box<MoveList> {
        let mut list = self
            .lists
            .pop()
            .unwrap_or_else(|| Box::new(MoveList::new()));
        list.clear();
        list
    }

    fn give_list(&mut self, list: Box<MoveList>) {
        self.lists.push(list);
    }

    /// True when the position just reached (its key last in `keys`) ends
    /// the game drawn: a repetition within the line, a third occurrence
    /// with the game's history, or the fifty-move rule.
    fn is_drawn(&self) -> bool {
        if self.pos.halfmove_clock() >= 100 {
            return true;
        }
        let Some((&now, before)) = self.keys.split_last() else {
            return false;
        };
        let in_line = before[self.game_keys.min(before.len())..].contains(&now);
        in_line
            || before[..self.game_keys.min(before.len())]
                .iter()
                .filter(|&&k| k == now)
                .count()
                >= 2
    }

    /// The value of a step, for ordering: captures by victim first, the
    /// cheapest attacker first among equal victims.
    fn capture_order(&self, mv: Move) -> Option<i32> {
        let Move::Step { from, to } = mv else {
            return None;
        };
        let victim = self.pos.tile_at(to)?;
        let attacker = self
            .pos
            .tile_at(from)
            .map_or(0, |t| eval::value(t.piece.kind));
        Some(100 * eval::value(victim.piece.kind) - attacker + 10_000)
    }

    /// True when capture `mv` puts a tile worth more than its victim on a
    /// square the opponent attacks: a capture the quiescence leaves out,
    /// as chess engines leave out captures that lose material by static
    /// exchange. The attack is counted without the connection rule, so a
    /// recapture that would split the table still counts.
    fn gives_up_material(&self, mv: Move) -> bool {
        let Move::Step { from, to } = mv else {
            return false;
        };
        let (Some(attacker), Some(victim)) = (self.pos.tile_at(from), self.pos.tile_at(to)) else {
            return false;
        };
        eval::value(attacker.piece.kind) > eval::value(victim.piece.kind)
            && self.pos.attack_count(victim.piece.colour, to) > 0
    }

    /// The decision node of the side to move, no tile in hand.
    fn negamax(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
        if ply > 0 && self.is_drawn() {
            return Ok(self.draw_score());
        }
        if depth <= 0 || ply >= MAX_PLY - 8 {
            return self.quiesce(ply, alpha, beta);
        }
        self.tick()?;
        let key = self.pos.hash();
        let remembered = self.table.probe(key);
        if let Some(s) = remembered.and_then(|e| e.cutoff(depth, ply, alpha, beta)) {
            if ply > 0 {
                return Ok(s);
            }
        }
        let in_check = self.pos.in_check();
        let mut list = self.take_list();
        self.pos.generate_steps(&mut list);
        let can_draw = !self.pos.pile(self.pos.side_to_move()).is_empty();
        if list.is_empty() && !can_draw {
            self.give_list(list);
            return Ok(if in_check {
                -(WIN - ply as i32)
            } else {
                self.draw_score()
            });
        }
        let remembered_move = remembered.and_then(|e| e.best);
        let killers = self.killers[ply];
        let mut candidates: Vec<Candidate> = Vec::with_capacity(list.len() + 1);
        for &mv in list.iter() {
            let order = if Some(mv) == remembered_move {
                1_000_000
            } else if let Some(c) = self.capture_order(mv) {
                c
            } else if Some(mv) == killers[0] {
                9_000
            } else if Some(mv) == killers[1] {
                8_000
            } else {
                0
            };
            candidates.push(Candidate {
                action: Action::Play(mv),
                order,
            });
        }
        self.give_list(list);
        if can_draw {
            let order = if remembered.is_some() && remembered_move.is_none() {
                1_000_000
            } else {
                5_000
            };
            candidates.push(Candidate {
                action: Action::Draw,
                order,
            });
        }
        candidates.sort_by_key(|c| std::cmp::Reverse(c.order));

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_action = None;
        // A side in check looks one ply further: the answers to a check
        // are few and decide the game.
        let child_depth = depth - 1 + i32::from(in_check);
        for (i, c) in candidates.iter().enumerate() {
            let score = if i == 0 {
                self.action(c.action, child_depth, ply, alpha, beta)?
            } else {
                // Late quiet moves are searched a ply shallower, and every
                // move after the first with a null window, first.
                let late = c.order == 0 && depth >= 3 && i >= 3 && !in_check;
                let r = if late {
                    1 + i32::from(i >= 12 && depth >= 5)
                } else {
                    0
                };
                let mut s = self.action(c.action, child_depth - r, ply, alpha, alpha + 1)?;
                if s > alpha && r > 0 {
                    s = self.action(c.action, child_depth, ply, alpha, alpha + 1)?;
                }
                if s > alpha && s < beta {
                    s = self.action(c.action, child_depth, ply, alpha, beta)?;
                }
                s
            };
            if score > best {
                best = score;
                best_action = Some(c.action);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if let Action::Play(mv) = c.action {
                    if self.capture_order(mv).is_none() && killers[0] != Some(mv) {
                        self.killers[ply] = [Some(mv), killers[0]];
                    }
                }
                break;
            }
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.table.store(Entry {
            key,
            best: match best_action {
                Some(Action::Play(mv)) => Some(mv),
                _ => None,
            },
            score: to_table(best, ply),
            depth: depth as i8,
            bound,
        });
        Ok(best)
    }

    /// A decision's value: a step searched to `child_depth`, or a draw,
    /// whose placements are searched to it.
    fn action(
        &mut self,
        action: Action,
        child_depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
        match action {
            Action::Play(mv) => self.step(mv, child_depth, ply, alpha, beta),
            Action::Draw => self.chance(child_depth + 1, ply, alpha, beta),
        }
    }

    /// Plays `mv` and searches the reply to `child_depth`.
    fn step(
        &mut self,
        mv: Move,
        child_depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
        let undo = self.pos.make(mv);
        self.keys.push(self.pos.hash());
        let score = self
            .negamax(child_depth, ply + 1, -beta, -alpha)
            .map(|s| -s);
        self.keys.pop();
        self.pos.unmake(mv, undo);
        score
    }

    /// The chance node below "draw": Star1 over the kinds in the pile,
    /// the most likely first.
    fn chance(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32) -> Result<i32, Aborted> {
        let pile = self.pos.pile(self.pos.side_to_move());
        let total = pile.len() as i64;
        let mut kinds: Vec<(Kind, i64)> = pile.kinds().map(|k| (k, pile.count(k) as i64)).collect();
        kinds.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
        let (lower, upper) = (-(WIN as i64), WIN as i64);
        let (alpha, beta) = (alpha as i64, beta as i64);
        let mut sum = 0i64;
        let mut left = total;
        for (kind, n) in kinds {
            left -= n;
            // The window in which this outcome still decides the node: at
            // or below `a` the node fails low whatever the rest bring, at
            // or above `b` it fails high.
            let a = (alpha * total - sum - left * upper).div_euclid(n);
            let b = -((-(beta * total - sum - left * lower)).div_euclid(n));
            let a = a.max(-INFINITY as i64) as i32;
            let b = b.min(INFINITY as i64) as i32;
            let v = self.placement(kind, depth, ply, a, b)? as i64;
            if v <= a as i64 && a > -INFINITY {
                return Ok(((sum + n * v + left * upper) / total) as i32);
            }
            if v >= b as i64 && b < INFINITY {
                return Ok(((sum + n * v + left * lower) / total) as i32);
            }
            sum += n * v;
        }
        Ok((sum / total) as i32)
    }

    /// The decision of where to place a drawn tile of `kind`.
    fn placement(
        &mut self,
        kind: Kind,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
        self.tick()?;
        let key = placement_key(self.pos.hash(), kind);
        let remembered = self.table.probe(key);
        if let Some(s) = remembered.and_then(|e| e.cutoff(depth, ply, alpha, beta)) {
            return Ok(s);
        }
        let mut list = self.take_list();
        self.pos.generate_placements(kind, &mut list);
        if list.is_empty() {
            self.give_list(list);
            return Ok(if self.pos.in_check() {
                -(WIN - ply as i32)
            } else {
                self.draw_score()
            });
        }
        // Near the enemy king first, where checks and attacks are; a king
        // far from it first.
        let us = self.pos.side_to_move();
        if let Some(king) = self.pos.king_square(us.opposite()) {
            let distance = |m: &Move| {
                let to = m.to();
                let d = (to.x - king.x).abs().max((to.y - king.y).abs());
                if kind == Kind::King {
                    -d
                } else {
                    d
                }
            };
            list.sort_by_key(distance);
        }
        if let Some(mv) = remembered.and_then(|e| e.best) {
            if let Some(i) = list.iter().position(|&m| m == mv) {
                list[..=i].rotate_right(1);
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in 0..list.len() {
            let mv = list[i];
            let searched = if i == 0 {
                self.step(mv, depth - 1, ply, alpha, beta)
            } else {
                let r = i32::from(depth >= 3 && i >= 4);
                self.step(mv, depth - 1 - r, ply, alpha, alpha + 1)
                    .and_then(|s| {
                        if s > alpha && r > 0 {
                            self.step(mv, depth - 1, ply, alpha, alpha + 1)
                        } else {
                            Ok(s)
                        }
                    })
                    .and_then(|s| {
                        if s > alpha && s < beta {
                            self.step(mv, depth - 1, ply, alpha, beta)
                        } else {
                            Ok(s)
                        }
                    })
            };
            // An abort ends the whole search: the list it drops on the
            // way out is not missed.
            let score = searched?;
            if score > best {
                best = score;
                best_move = Some(mv);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.give_list(list);
        let bound = Bound::of(best, original_alpha, beta);
        self.table.store(Entry {
            key,
            best: best_move,
            score: to_table(best, ply),
            depth: depth as i8,
            bound,
        });
        Ok(best)
    }

    /// Captures only, until the position is quiet; in check, every step
    /// and the draw are answers. The captures are all tested legal before
    /// they are ordered: testing each only when reached costs more, for
    /// few of these nodes cut off before their last capture. Delta
    /// pruning (leaving out a capture whose victim's weight and 200 cp
    /// fall short of alpha) changed no move in 60 game positions at
    /// 1,000 playouts and cost 1.6% more instructions: alpha is seldom
    /// that far above the static score.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, beta: i32) -> Result<i32, Aborted> {
        self.tick()?;
        let in_check = self.pos.in_check();
        let us = self.pos.side_to_move();
        let stand = if in_check {
            -INFINITY
        } else {
            self.evaluations.evaluate(&self.pos, self.draw_score())
        };
        if stand >= beta {
            return Ok(stand);
        }
        let mut list = self.take_list();
        let pile = self.pos.pile(us);
        if in_check {
            self.pos.generate_steps(&mut list);
        } else {
            self.pos.generate_captures(&mut list);
        }
        // With the pile empty, no move is the end of the game; a capture
        // is a move.
        if list.is_empty() && pile.is_empty() && (in_check || !self.pos.has_legal_step()) {
            self.give_list(list);
            return Ok(if in_check {
                -(WIN - ply as i32)
            } else {
                self.draw_score()
            });
        }
        let mut best = -INFINITY;
        if in_check {
            if !pile.is_empty() {
                best = self.draw_in_check(ply)?;
            }
        } else {
            best = stand;
        }
        if best >= beta || ply >= MAX_PLY - 1 {
            self.give_list(list);
            return Ok(best);
        }
        alpha = alpha.max(best);
        // Most valuable victim first: the list is reordered in place.
        let mut order: ArrayVec<(i32, u16), 256> = ArrayVec::new();
        for (i, &mv) in list.iter().enumerate().take(256) {
            match self.capture_order(mv) {
                Some(_) if !in_check && self.gives_up_material(mv) => {}
                Some(o) => order.push((o, i as u16)),
                None if in_check => order.push((0, i as u16)),
                None => {}
            }
        }
        order.sort_unstable_by_key(|&(o, i)| (std::cmp::Reverse(o), i));
        for &(_, i) in &order {
            let mv = list[i as usize];
            let undo = self.pos.make(mv);
            let score = self.quiesce(ply + 1, -beta, -alpha).map(|s| -s);
            self.pos.unmake(mv, undo);
            // As in `placement`, an abort ends the search.
            let score = score?;
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.give_list(list);
        Ok(best)
    }

    /// The value of drawing while in check, judged without searching the
    /// placements: each kind that can answer the check counts as the
    /// position's static value, each that cannot as checkmate.
    fn draw_in_check(&mut self, ply: usize) -> Result<i32, Aborted> {
        let total = self.pos.pile(self.pos.side_to_move()).len() as i64;
        let stand = self.evaluations.evaluate(&self.pos, self.draw_score()) as i64;
        let stuck = self.draws_that_cannot_be_placed() as i64;
        let mated = -(WIN - ply as i32) as i64;
        Ok((((total - stuck) * stand + stuck * mated) / total) as i32)
    }

    /// How many of the side to move's possible draws bring a tile with no
    /// legal square. Every kind but the king blocks and connects alike, so
    /// two kinds are asked.
    fn draws_that_cannot_be_placed(&mut self) -> u32 {
        let pile = self.pos.pile(self.pos.side_to_move());
        let mut answers: [Option<bool>; 2] = [None; 2];
        let mut stuck = 0;
        for kind in pile.kinds() {
            let asked = &mut answers[usize::from(kind == Kind::King)];
            if !*asked.get_or_insert_with(|| self.pos.can_place(kind)) {
                stuck += pile.count(kind) as u32;
            }
        }
        stuck
    }

    /// The chance that the side to move, drawing now, mates by placing
    /// the tile it draws: the pile's share of the kinds with a checking
    /// placement that no step answers, each counted by the share of the
    /// opponent's draws that could not answer it either.
    fn mate_by_placement_chance(&mut self) -> f64 {
        let pile = self.pos.pile(self.pos.side_to_move());
        if pile.is_empty() || self.pos.in_check() {
            return 0.0;
        }
        let mut list = self.take_list();
        self.pos.generate_checking_placements(pile, &mut list);
        // The best mating chance of each kind: the pile holds six at most.
        let mut chances: ArrayVec<(Kind, f64), 6> = ArrayVec::new();
        for &mv in list.iter() {
            let Move::Place { piece, .. } = mv else {
                continue;
            };
            let undo = self.pos.make(mv);
            let chance = self.unanswered_check_chance();
            self.pos.unmake(mv, undo);
            match chances.iter_mut().find(|(k, _)| *k == piece.kind) {
                Some((_, best)) => *best = best.max(chance),
                None => chances.push((piece.kind, chance)),
            }
        }
        self.give_list(list);
        let mating: f64 = chances
            .iter()
            .map(|&(kind, chance)| pile.count(kind) as f64 * chance)
            .sum();
        mating / pile.len() as f64
    }

    /// For a side to move in check: the chance it cannot answer, 0 when a
    /// step does, else the share of its draws that cannot be placed.
    fn unanswered_check_chance(&mut self) -> f64 {
        if self.pos.has_legal_step() {
            return 0.0;
        }
        match self.pos.pile(self.pos.side_to_move()).len() {
            0 => 1.0,
            total => f64::from(self.draws_that_cannot_be_placed()) / total as f64,
        }
    }

    /// The root's actions, with their scores from the last depth searched.
    fn root(&mut self, pending: Option<Kind>) -> Vec<Action> {
        let mut list = self.take_list();
        let mut actions: Vec<Action> = Vec::new();
        match pending {
            Some(kind) => self.pos.generate_placements(kind, &mut list),
            None => self.pos.generate_steps(&mut list),
        }
        actions.extend(list.iter().map(|&m| Action::Play(m)));
        self.give_list(list);
        if pending.is_none() && !self.pos.pile(self.pos.side_to_move()).is_empty() {
            actions.push(Action::Draw);
        }
        // Captures first, then the rest in the order generated.
        actions.sort_by_key(|a| match a {
            Action::Play(mv) => std::cmp::Reverse(self.capture_order(*mv).unwrap_or(0)),
            Action::Draw => std::cmp::Reverse(0),
        });
        actions
    }
}

/// Never set: the stop flag of leaf searches, which the tree search
/// bounds by their depth instead.
static NEVER: AtomicBool = AtomicBool::new(false);

/// The most nodes one judgement by the quiescence alone may search, past
/// which it is the static evaluation; ten times more for each ply of
/// search before it. A quiescence in check tries every evasion, and a
/// rare position of captures that check upon evasions can grow it
/// without end (an engine fell silent so); an ordinary judgement takes a
/// few hundred nodes, and none in the bench positions more than 5,000.
const JUDGE_NODES: u64 = 20_000;

/// Judges the leaves of the tree search by a shallow search: a searcher
/// kept from one leaf to the next, its table and buffers with it.
pub struct LeafJudge {
    searcher: Searcher<'static>,
    depth: i32,
    nodes_limit: u64,
}

impl LeafJudge {
    /// A judge searching `depth` plies before the quiescence (0: the
    /// quiescence alone), to which a draw is even.
    pub fn new(depth: i32) -> LeafJudge {
        LeafJudge::with_contempt(depth, Colour::White, 0)
    }

    /// A judge that scores a drawn game, and shrinks the evaluation of a
    /// stranded king towards it, as a search by `engine` with `contempt`
    /// centipawns does.
    pub fn with_contempt(depth: i32, engine: Colour, contempt: i32) -> LeafJudge {
        let budget = Budget {
            clock: Clock::new(&Limits::default(), Colour::White, 0),
            nodes_limit: u64::MAX,
            stop: &NEVER,
        };
        let mut searcher = Searcher::new(&Position::startpos(), &[], Table::new(1), budget);
        searcher.engine = engine;
        searcher.contempt = score_of_centipawns(contempt);
        LeafJudge {
            searcher,
            depth,
            nodes_limit: JUDGE_NODES * 10u64.pow(depth.clamp(0, 3) as u32),
        }
    }

    /// The score of `pos` for its side to move, holding a drawn tile of
    /// `pending` kind (if any). Repetitions before the leaf are not seen.
    pub fn judge(&mut self, pos: &Position, pending: Option<Kind>) -> i32 {
        self.set_position(pos);
        self.judge_here(pending)
    }

    /// The score of drawing in `pos`, for its side to move (see
    /// [`LeafJudge::judge_draw_here`]).
    pub fn judge_draw(&mut self, pos: &Position) -> i32 {
        self.set_position(pos);
        self.judge_draw_here()
    }

    /// Makes `pos` the judge's own position, which the `_here` judgements
    /// read. A caller judging many positions near one sets it once and
    /// steps through them by [`LeafJudge::position_mut`], with no copy of
    /// the position for each.
    pub fn set_position(&mut self, pos: &Position) {
        self.searcher.pos.clone_from(pos);
    }

    /// The judge's own position. A judgement leaves it as it found it.
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.searcher.pos
    }

    /// [`LeafJudge::judge`] of the judge's own position.
    pub fn judge_here(&mut self, pending: Option<Kind>) -> i32 {
        self.search(pending)
    }

    /// The score of drawing in the judge's own position, for its side to
    /// move. The drawer places a tile and the opponent moves next: the
    /// opponent's score with the turn passed to it, as if the tile added
    /// nothing, raised by the chance that the drawn tile mates by its
    /// placement (the threat the quiescence, which places nothing, misses
    /// most). In check, where drawing is a gamble on the kind, the
    /// position's own score, in which the quiescence weighs that gamble.
    pub fn judge_draw_here(&mut self) -> i32 {
        let s = &mut self.searcher;
        if !s.pos.pass() {
            return self.search(None);
        }
        let score = -self.search(None);
        let s = &mut self.searcher;
        s.pos.pass();
        let chance = s.mate_by_placement_chance();
        score + (chance * f64::from(WIN - 2 - score)).round() as i32
    }

    /// The score of the judge's position for its side to move.
    fn search(&mut self, pending: Option<Kind>) -> i32 {
        let s = &mut self.searcher;
        s.keys.clear();
        s.keys.push(s.pos.hash());
        s.game_keys = 0;
        s.aborted = false;
        s.budget.nodes_limit = s.nodes + self.nodes_limit;
        let result = match pending {
            Some(kind) => s.placement(kind, self.depth.max(1), 0, -INFINITY, INFINITY),
            None if self.depth == 0 => s.quiesce(0, -INFINITY, INFINITY),
            None => s.negamax(self.depth, 0, -INFINITY, INFINITY),
        };
        result.unwrap_or_else(|Aborted| evaluate(&s.pos, s.draw_score()))
    }

    /// Nodes searched by this judge so far.
    pub fn nodes(&self) -> u64 {
        self.searcher.nodes
    }
}

/// The nodes a forced move (a single action) is searched at most, for its
/// score: enough to see a mate of a turn or two after it, in a few
/// milliseconds.
const FORCED_NODES: u64 = 50_000;

/// Searches the side to move of the request's position by iterative
/// deepening until the limits end it, and returns the best action of the
/// deepest search finished (or of the deeper one under way, when it has
/// found better).
pub fn search(
    request: &Request,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> Option<Action> {
    let Request {
        position: pos,
        pending,
        history,
        limits,
        params,
    } = *request;
    let budget = Budget {
        clock: request.clock(),
        nodes_limit: limits.nodes.unwrap_or(u64::MAX),
        stop,
    };
    let table = kept_table(params.hash_mib.min(TABLE_MIB_LIMIT));
    let mut searcher = Searcher::new(pos, history, table, budget);
    searcher.contempt = score_of_centipawns(params.contempt);
    let mut actions = searcher.root(pending);
    if actions.is_empty() {
        return None;
    }
    if request.is_forced(actions.len()) {
        // A forced move is searched too, briefly, for its score.
        searcher.budget.clock = searcher.budget.clock.forced();
        searcher.budget.nodes_limit = searcher.budget.nodes_limit.min(FORCED_NODES);
    }
    let mut scores: Vec<i32> = vec![0; actions.len()];
    let mut best = (actions[0], 0);
    let mut depth = 1;
    let endless = request.is_endless();
    while depth < MAX_PLY as i32 - 8 {
        let mut alpha = -INFINITY;
        let mut iteration_best: Option<(Action, i32)> = None;
        let mut finished = true;
        for (i, &action) in actions.iter().enumerate() {
            match searcher.action(action, depth - 1, 0, alpha, INFINITY) {
                Ok(score) => {
                    scores[i] = score;
                    if score > alpha {
                        alpha = score;
                        iteration_best = Some((action, score));
                    }
                }
                Err(Aborted) => {
                    finished = false;
                    break;
                }
            }
        }
        if let Some(found) = iteration_best {
            best = found;
        }
        // Best first for the next depth and the report; a stable sort
        // keeps the earlier order among equals.
        let mut order: Vec<usize> = (0..actions.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
        actions = order.iter().map(|&i| actions[i]).collect();
        scores = order.iter().map(|&i| scores[i]).collect();
        if let Some(pos0) = actions.iter().position(|&a| a == best.0) {
            actions[..=pos0].rotate_right(1);
            scores[..=pos0].rotate_right(1);
        }
        report(&snapshot(
            &actions,
            &scores,
            searcher.nodes,
            &searcher.budget,
        ));
        if !finished || limits.depth.is_some_and(|d| depth as u64 >= d) {
            break;
        }
        // A forced mate found needs no deeper look.
        if best.1.abs() > MATE_BOUND && !endless {
            break;
        }
        // The next depth takes several times this one: do not start what
        // cannot finish.
        if searcher.budget.clock.is_too_late_to_deepen() {
            break;
        }
        depth += 1;
    }
    keep_table(std::mem::replace(&mut searcher.table, Table::new(0)));
    Some(best.0)
}

/// The most memory the table takes, in MiB: a larger one is slow to
/// allocate and gains little at the depths reached.
const TABLE_MIB_LIMIT: usize = 64;

/// The table of the last search, kept for the next one: most of what the
/// last move's search learned is about the positions of this one.
static KEPT_TABLE: std::sync::Mutex<Option<Table>> = std::sync::Mutex::new(None);

/// The kept table if it has the size asked for, else a new one.
fn kept_table(mib: usize) -> Table {
    let kept = KEPT_TABLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .take();
    match kept {
        Some(table) if table.mib == mib => table,
        _ => Table::new(mib),
    }
}

fn keep_table(table: Table) {
    *KEPT_TABLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(table);
}

/// The report of a search: every root action, best first, its score as an
/// expected result.
fn snapshot(actions: &[Action], scores: &[i32], nodes: u64, budget: &Budget) -> Report {
    Report {
        actions: actions
            .iter()
            .zip(scores)
            .enumerate()
            .map(|(i, (&action, &score))| {
                let p = expected_result(score);
                ActionStats {
                    action,
                    visits: 1,
                    wins: p,
                    draws: 0.0,
                    losses: 1.0 - p,
                    pv: Vec::new(),
                    proven: proven(score, i == 0),
                }
            })
            .collect(),
        nodes,
        plies: 0,
        elapsed: budget.clock.elapsed(),
    }
}

/// What a root score proves, `exact` for the best action's (the others
/// are bounds from above once they fail low).
///
/// A mate score is no proof in general: at a draw it is the pile's mean,
/// which can blend mates with a lead near [`EVAL_BOUND`], and lines of
/// different lengths. Only the two extremes are proofs, for a mean
/// reaches an extreme only when every term does (and the means round
/// towards zero): `WIN - 1`, the most a root action can score, is the
/// opponent lost on its next turn whatever it draws; `-WIN`, the least,
/// is a draw at the root that checkmates the drawer whatever kind comes.
fn proven(score: i32, exact: bool) -> Option<super::Proven> {
    use super::Proven;
    match score {
        s if s == WIN - 1 && exact => Some(Proven::Win { turns: 1 }),
        s if s == -WIN => Some(Proven::Loss { turns: 0 }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stranded_king_draws_the_evaluation_towards_a_draw() {
        // White's lone queen leaves Black's king no square. With eight
        // tiles or fewer in Black's pile the king comes too soon to play
        // on: the position is judged a draw; with more, half-way there.
        let few: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnp 0 1".parse().unwrap();
        assert_ne!(centipawns(&few), 0);
        assert_eq!(evaluate(&few, 0), 0);
        let full: Position = "Q0,0 b KRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1"
            .parse()
            .unwrap();
        let plain = score_of_centipawns(centipawns(&full));
        assert_eq!(evaluate(&full, 0), (plain as f64 * 0.5).round() as i32);
        // Towards the search's draw, contempt included, not towards 0.
        let draw = score_of_centipawns(100);
        assert_eq!(evaluate(&few, draw), draw);
        let halfway = draw as f64 + (plain - draw) as f64 * 0.5;
        assert_eq!(evaluate(&full, draw), halfway.round() as i32);
        // A leaf judge of the engine playing White, where a draw is
        // worth that much to Black, judges it so; by default, as even.
        let mut even = LeafJudge::new(0);
        assert_eq!(even.judge(&full, None), evaluate(&full, 0));
        let mut judge = LeafJudge::with_contempt(0, Colour::White, 100);
        assert_eq!(judge.judge(&full, None), evaluate(&full, draw));
        assert_ne!(evaluate(&full, draw), evaluate(&full, 0));
    }
    use crate::search::playout::{random_turn, Turn};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn searcher(pos: &Position) -> Searcher<'static> {
        let budget = Budget {
            clock: Clock::new(&Limits::default(), Colour::White, 0),
            nodes_limit: u64::MAX,
            stop: &NEVER,
        };
        Searcher::new(pos, &[], Table::new(1), budget)
    }

    #[test]
    fn a_chance_node_is_the_mean_of_its_kinds_by_count() {
        // White's pile holds two rooks and eight pawns.
        let pos: Position = "K0,0/n1,1 w RRPPPPPPPP/k 0 2".parse().unwrap();
        for depth in 1..=2 {
            let mean = searcher(&pos)
                .chance(depth, 0, -INFINITY, INFINITY)
                .ok()
                .unwrap();
            let rook = searcher(&pos)
                .placement(Kind::Rook, depth, 0, -INFINITY, INFINITY)
                .ok()
                .unwrap();
            let pawn = searcher(&pos)
                .placement(Kind::Pawn, depth, 0, -INFINITY, INFINITY)
                .ok()
                .unwrap();
            assert_eq!(
                mean,
                (2 * rook + 8 * pawn) / 10,
                "depth {depth}: {rook} {pawn}"
            );
        }
    }

    /// True when after `mv` the opponent is in check and loses whatever
    /// it does: no step answers, and no kind its draw can bring can be
    /// placed.
    fn mates_at_once(pos: &Position, mv: Move) -> bool {
        let mut after = pos.clone();
        after.make(mv);
        if !after.in_check() {
            return false;
        }
        let mut steps = MoveList::new();
        after.clone().generate_steps(&mut steps);
        let pile = after.pile(after.side_to_move());
        steps.is_empty() && pile.kinds().all(|k| after.legal_placements(k).is_empty())
    }

    #[test]
    fn every_mate_in_one_of_random_games_is_played() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut found = 0;
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(200_000),
            ..Limits::default()
        };
        let params = crate::search::Params {
            threads: 1,
            seed: 1,
            player: crate::search::Player::Alphabeta,
            hash_mib: 1,
            exploration: 1.4,
            playout_cap: 10,
            move_overhead: 0,
            multipv: 1,
            policy: crate::search::playout::Policy::Uniform,
            leaf_depth: 0,
            minimax_weight: 0.5,
            hybrid_exploration: 0.1,
            contempt: 0,
        };
        for _game in 0..300 {
            let mut pos = Position::startpos();
            for _ply in 0..200 {
                let steps = pos.legal_moves();
                let mating = steps
                    .iter()
                    .any(|&mv| matches!(mv, Move::Step { .. }) && mates_at_once(&pos, mv));
                if mating {
                    found += 1;
                    let request = Request::new(&pos, &limits, &params);
                    let choice = search(&request, &stop, &mut |_| {});
                    let Some(Action::Play(mv)) = choice else {
                        panic!("{pos}: no move chosen");
                    };
                    assert!(mates_at_once(&pos, mv), "{pos}: {mv} does not mate");
                }
                match random_turn(&mut pos, &mut rng) {
                    Turn::Play(mv) => {
                        pos.make(mv);
                    }
                    Turn::Stuck(_) | Turn::NoMove => break,
                }
                if pos.ending().is_some() {
                    break;
                }
            }
        }
        assert!(found >= 20, "only {found} positions with a mate in one");
    }

    #[test]
    fn the_evaluation_cache_gives_each_position_its_own_evaluation() {
        // Many positions of random games through a cache far smaller than
        // them, each asked twice: a hit must never be another position's.
        let mut cache = EvaluationCache(vec![(0, 0); 64].into_boxed_slice());
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut seen = 0;
        for _game in 0..20 {
            let mut pos = Position::startpos();
            while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
                pos.make(mv);
                for _ in 0..2 {
                    assert_eq!(cache.evaluate(&pos, 7), evaluate(&pos, 7), "{pos}");
                }
                seen += 1;
                if pos.ending().is_some() {
                    break;
                }
            }
        }
        assert!(seen > 64 * 8, "only {seen} positions");
    }
}
