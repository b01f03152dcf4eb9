//! The searcher: expectimax alpha-beta over one position, with a
//! negamax at decision nodes, Star1 at the chance node below each draw,
//! the placement of the drawn tile, and a capture quiescence at the
//! leaves.

use super::ordering::{self, Candidate, QUIET};
use super::tt::{placement_key, quiescence_key, to_table, Bound, Entry, QuiescenceTable, Table};
use crate::rules::{Colour, Kind, Move, MoveList, Position};
use crate::search::eval::Evaluator;
use crate::search::score::{self, mated_in, MAX_PLY, WIN};
use crate::search::time::Clock;
use crate::search::Action;
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};

/// Beyond every score: the bounds of a full window.
pub(super) const INFINITY: i32 = 30_000;

/// Nodes between two looks at the clock and the stop flag.
const CLOCK_EVERY: u64 = 1024;

/// Why a search stopped early.
pub(super) struct Aborted;

/// What may end a search besides its nodes: the clock and the stop flag,
/// looked at every [`CLOCK_EVERY`] nodes.
#[derive(Clone, Copy)]
pub(super) struct Deadline<'a> {
    pub(super) clock: Clock,
    pub(super) stop: &'a AtomicBool,
}

/// The limits of one search.
pub(super) struct Budget<'a> {
    /// The node count at which the search stops.
    pub(super) nodes: u64,
    /// The clock and stop flag of a search under way for the protocol;
    /// none for a search bounded by its nodes alone.
    pub(super) deadline: Option<Deadline<'a>>,
}

impl Budget<'_> {
    /// A budget of `nodes` nodes and nothing else.
    pub(super) fn nodes(nodes: u64) -> Budget<'static> {
        Budget {
            nodes,
            deadline: None,
        }
    }
}

/// The searcher's state over one `go`, or over a leaf judge's life.
pub(super) struct Searcher<'a, E: Evaluator> {
    pos: Position,
    table: Table,
    /// Keys of the game before the root (oldest first), then of the
    /// current line, for repetitions.
    keys: Vec<u64>,
    /// How many of `keys` came before the root.
    game_keys: usize,
    killers: [[Option<Move>; 2]; MAX_PLY],
    nodes: u64,
    pub(super) budget: Budget<'a>,
    aborted: bool,
    /// Set when the search found the root's side to move, its pile
    /// empty, without a legal move: checkmated or stalemated (see
    /// `LeafJudge::judge_unless_no_move_here`).
    pub(super) root_without_moves: bool,
    /// Buffers for generating moves, one list a node on the line.
    lists: Vec<Box<MoveList>>,
    /// The side to move at the root: the side the engine plays.
    engine: Colour,
    /// What a draw costs the engine, on the scale of scores.
    contempt: i32,
    /// Static evaluations by position key: the quiescences of sibling
    /// leaves meet the same positions again and again.
    evaluations: EvaluationCache<E>,
    /// The quiescence's results, for the same reason.
    quiescence: QuiescenceTable,
}

/// An evaluator with a two-way cache of its scores by position key. The
/// key covers everything the evaluation reads (the table up to
/// translation, the piles, the side to move), so a hit is the evaluation
/// itself.
pub(super) struct EvaluationCache<E: Evaluator> {
    evaluator: E,
    /// Each entry is a score in its low half and, in its high half, the
    /// key's high half with its lowest bit set, so that no key matches an
    /// empty entry. The key's low bits choose a pair of entries, the one
    /// used last first: a hit matches 31 + 15 of the key's bits, and eight
    /// bytes an entry hold twice the entries a whole key would in the same
    /// memory.
    entries: Box<[u64]>,
    /// What the evaluator keeps between the positions it misses.
    memory: E::Memory,
}

impl<E: Evaluator> EvaluationCache<E> {
    /// Entries, a power of two: 512 KiB, half a core's L2 cache. A
    /// larger table's extra hits save the learned evaluation, which costs
    /// twice the hand-made one, more than its slower reads cost.
    const SIZE: usize = 1 << 16;

    fn new(evaluator: E) -> EvaluationCache<E> {
        EvaluationCache::with_entries(evaluator, Self::SIZE)
    }

    fn with_entries(evaluator: E, size: usize) -> EvaluationCache<E> {
        EvaluationCache {
            evaluator,
            entries: vec![0; size].into_boxed_slice(),
            memory: E::Memory::default(),
        }
    }

    /// The evaluation of `pos` with a draw scoring `draw`, from the cache
    /// when either entry of its pair holds it. A searcher's draw score
    /// depends on the side to move alone, which the key covers; its
    /// engine and contempt are set before its first evaluation.
    fn evaluate(&mut self, pos: &Position, draw: i32) -> i32 {
        let key = pos.hash();
        let tag = (key >> 32) as u32 | 1;
        let mask = self.entries.len() - 1;
        let pair = key as usize & mask & !1;
        let ways = &mut self.entries[pair..pair + 2];
        let hit = |entry: u64| (entry >> 32) as u32 == tag;
        if !hit(ways[0]) {
            if hit(ways[1]) {
                ways.swap(0, 1);
            } else {
                let score = self.evaluator.score_with(pos, draw, &mut self.memory);
                ways[1] = ways[0];
                ways[0] = u64::from(tag) << 32 | u64::from(score as u32);
            }
        }
        ways[0] as u32 as i32
    }
}

impl<'a, E: Evaluator> Searcher<'a, E> {
    /// A searcher of `pos` with `table`, to which a draw is even.
    pub(super) fn new(
        evaluator: E,
        pos: &Position,
        history: &[u64],
        table: Table,
        budget: Budget<'a>,
    ) -> Searcher<'a, E> {
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
            root_without_moves: false,
            lists: Vec::new(),
            engine: pos.side_to_move(),
            contempt: 0,
            evaluations: EvaluationCache::new(evaluator),
            quiescence: QuiescenceTable::new(),
        }
    }

    /// The searcher with a drawn game scored as a search by `engine`
    /// with `contempt` centipawns scores it. Set before the first
    /// evaluation, which the cache keeps.
    pub(super) fn with_contempt(mut self, engine: Colour, contempt: i32) -> Searcher<'a, E> {
        self.engine = engine;
        self.contempt = score::from_centipawns(contempt);
        self
    }

    /// Nodes searched so far.
    pub(super) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The searcher's own position, which a search leaves as it found it.
    pub(super) fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// The transposition table, for the next search.
    pub(super) fn into_table(self) -> Table {
        self.table
    }

    /// The static evaluation of the searcher's own position, through
    /// the cache its quiescence reads.
    pub(super) fn static_score(&mut self) -> i32 {
        let draw = self.draw_score();
        self.evaluations.evaluate(&self.pos, draw)
    }

    /// The score of a drawn game for the side to move: below zero for
    /// the engine, by its contempt, above for its opponent.
    pub(super) fn draw_score(&self) -> i32 {
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
        if self.nodes >= self.budget.nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_EVERY) {
            if let Some(deadline) = &self.budget.deadline {
                let late = deadline.clock.is_past_soft_limit();
                if late || deadline.stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
            }
        }
        if self.aborted {
            Err(Aborted)
        } else {
            Ok(())
        }
    }

    /// The score of the searcher's own position for its side to move,
    /// holding a drawn tile of `pending` kind (if any), searched as a
    /// new root with no history: `depth` plies, then the quiescence, in
    /// at most `nodes` more nodes, past which it is the static score.
    pub(super) fn judge(&mut self, pending: Option<Kind>, depth: i32, nodes: u64) -> i32 {
        self.judge_below(pending, depth, nodes, INFINITY)
    }

    /// [`Searcher::judge`], or, where the score is `beta` or more, a
    /// score between `beta` and it (fail-soft).
    pub(super) fn judge_below(
        &mut self,
        pending: Option<Kind>,
        depth: i32,
        nodes: u64,
        beta: i32,
    ) -> i32 {
        self.root_without_moves = false;
        self.keys.clear();
        self.keys.push(self.pos.hash());
        self.game_keys = 0;
        self.aborted = false;
        self.budget.nodes = self.nodes + nodes;
        let result = match pending {
            Some(kind) => self.placement(kind, depth.max(1), 0, -INFINITY, beta),
            None if depth == 0 => self.quiesce(0, -INFINITY, beta),
            None => self.negamax(depth, 0, -INFINITY, beta),
        };
        result.unwrap_or_else(|Aborted| {
            let draw = self.draw_score();
            let evaluations = &mut self.evaluations;
            evaluations
                .evaluator
                .score_with(&self.pos, draw, &mut evaluations.memory)
        })
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

    pub(super) fn negamax(
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
            self.root_without_moves |= ply == 0;
            self.give_list(list);
            return Ok(if in_check {
                mated_in(ply)
            } else {
                self.draw_score()
            });
        }
        let remembered_move = remembered.and_then(|e| e.best);
        let killers = self.killers[ply];
        let mut candidates: Vec<Candidate> = Vec::with_capacity(list.len() + 1);
        for &mv in list.iter() {
            candidates.push(Candidate {
                action: Action::Play(mv),
                order: ordering::step_order(&self.pos, mv, remembered_move, killers),
            });
        }
        self.give_list(list);
        if can_draw {
            candidates.push(Candidate {
                action: Action::Draw,
                order: ordering::draw_order(remembered.is_some(), remembered_move),
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
                let late = c.order == QUIET && depth >= 3 && i >= 3 && !in_check;
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
                    if ordering::capture_order(&self.pos, mv).is_none() && killers[0] != Some(mv) {
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
    pub(super) fn action(
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
    pub(super) fn chance(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
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
    pub(super) fn placement(
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
                mated_in(ply)
            } else {
                self.draw_score()
            });
        }
        ordering::order_placements(&self.pos, kind, &mut list, remembered.and_then(|e| e.best));
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
    /// they are ordered, for few of these nodes cut off before their last
    /// capture. No delta
    /// pruning: alpha is seldom far enough above the static score to pay
    /// for the test.
    pub(super) fn quiesce(
        &mut self,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Aborted> {
        self.tick()?;
        let key = quiescence_key(self.pos.hash(), ply);
        if let Some(score) = self.quiescence.probe(key, alpha, beta) {
            return Ok(score);
        }
        let window = (alpha, beta);
        let in_check = self.pos.in_check();
        let us = self.pos.side_to_move();
        let stand = if in_check {
            -INFINITY
        } else {
            self.evaluations.evaluate(&self.pos, self.draw_score())
        };
        let pile = self.pos.pile(us);
        // A root asked within a window still says whether it has no move
        // (`root_without_moves`): with the pile empty, standing is a move
        // only where a step is.
        if stand >= beta && (ply > 0 || !pile.is_empty() || self.pos.has_legal_step()) {
            self.quiescence.store(key, stand, alpha, beta);
            return Ok(stand);
        }
        let mut list = self.take_list();
        if in_check {
            self.pos.generate_steps(&mut list);
        } else {
            self.pos.generate_captures(&mut list);
        }
        // With the pile empty, no move is the end of the game; a capture
        // is a move.
        if list.is_empty() && pile.is_empty() && (in_check || !self.pos.has_legal_step()) {
            self.give_list(list);
            let score = if in_check {
                mated_in(ply)
            } else {
                self.draw_score()
            };
            // Kept for the nodes below the root only: a root found in
            // the table then had a move, as `root_without_moves` says.
            if ply == 0 {
                self.root_without_moves = true;
            } else {
                self.quiescence.store(key, score, alpha, beta);
            }
            return Ok(score);
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
            self.quiescence.store(key, best, window.0, window.1);
            return Ok(best);
        }
        alpha = alpha.max(best);
        // Most valuable victim first: the list is reordered in place.
        let mut order: ArrayVec<(i32, u16), 256> = ArrayVec::new();
        ordering::order_quiescence(&self.pos, &list, in_check, &mut order);
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
        self.quiescence.store(key, best, window.0, window.1);
        Ok(best)
    }

    /// The value of drawing while in check, judged without searching the
    /// placements: each kind that can answer the check counts as the
    /// position's static value, each that cannot as checkmate.
    fn draw_in_check(&mut self, ply: usize) -> Result<i32, Aborted> {
        let total = self.pos.pile(self.pos.side_to_move()).len() as i64;
        let stand = self.evaluations.evaluate(&self.pos, self.draw_score()) as i64;
        let stuck = draws_that_cannot_be_placed(&mut self.pos) as i64;
        let mated = i64::from(mated_in(ply));
        Ok((((total - stuck) * stand + stuck * mated) / total) as i32)
    }

    /// The root's actions, with their scores from the last depth searched.
    pub(super) fn root(&mut self, pending: Option<Kind>) -> Vec<Action> {
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
        ordering::order_root(&self.pos, &mut actions);
        actions
    }
}

/// How many of the side to move's possible draws bring a tile with no
/// legal square. Every kind but the king blocks and connects alike, so
/// two kinds are asked.
pub(super) fn draws_that_cannot_be_placed(pos: &mut Position) -> u32 {
    let pile = pos.pile(pos.side_to_move());
    let mut answers: [Option<bool>; 2] = [None; 2];
    let mut stuck = 0;
    for kind in pile.kinds() {
        let asked = &mut answers[usize::from(kind == Kind::King)];
        if !*asked.get_or_insert_with(|| pos.can_place(kind)) {
            stuck += pile.count(kind) as u32;
        }
    }
    stuck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::HandMade;
    use crate::search::playout::{random_turn, Turn};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn searcher(pos: &Position) -> Searcher<'static, HandMade> {
        Searcher::new(HandMade, pos, &[], Table::new(1), Budget::nodes(u64::MAX))
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

    #[test]
    fn the_evaluation_cache_gives_each_position_its_own_evaluation() {
        // Many positions of random games through a cache far smaller than
        // them, each asked twice: a hit must never be another position's.
        let mut cache = EvaluationCache::with_entries(HandMade, 64);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut seen = 0;
        for _game in 0..20 {
            let mut pos = Position::startpos();
            while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
                pos.make(mv);
                for _ in 0..2 {
                    assert_eq!(cache.evaluate(&pos, 7), HandMade.score(&pos, 7), "{pos}");
                }
                seen += 1;
                if pos.ending().is_some() {
                    break;
                }
            }
        }
        assert!(seen > 64 * 8, "only {seen} positions");
    }

    /// The hand-made evaluation, counting its calls in its memory.
    struct Counting;

    impl Evaluator for Counting {
        type Memory = u32;

        fn centipawns_with(&self, pos: &Position, calls: &mut u32) -> i32 {
            *calls += 1;
            HandMade.centipawns(pos)
        }
    }

    #[test]
    fn the_evaluation_cache_keeps_the_two_positions_used_last() {
        // One pair of entries: every position shares it.
        let mut cache = EvaluationCache::with_entries(Counting, 2);
        let a = Position::startpos();
        let mut b = a.clone();
        b.make(b.legal_placements(Kind::King)[0]);
        let mut c = a.clone();
        c.make(c.legal_placements(Kind::Pawn)[0]);
        for pos in [&a, &b, &a] {
            cache.evaluate(pos, 0);
        }
        assert_eq!(cache.memory, 2, "a and b both kept");
        // C evicts the one used longer ago, b; a stays.
        cache.evaluate(&c, 0);
        cache.evaluate(&a, 0);
        assert_eq!(cache.memory, 3);
        cache.evaluate(&b, 0);
        assert_eq!(cache.memory, 4);
    }

    /// The quiescence's table changes no score: a searcher that has
    /// quiesced every position of random games before (its table full of
    /// their nodes, at every ply) scores each position as a fresh one
    /// does, exactly with a full window and as a correct bound with a
    /// narrow one.
    #[test]
    fn the_quiescence_table_changes_no_score() {
        let mut warm = searcher(&Position::startpos());
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut seen, mut narrow) = (0, 0);
        for _game in 0..12 {
            let mut pos = Position::startpos();
            while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
                pos.make(mv);
                if pos.ending().is_some() {
                    break;
                }
                let exact = searcher(&pos).quiesce(0, -INFINITY, INFINITY).ok().unwrap();
                // The narrow window first, so that the full one meets
                // its bounds in the table.
                *warm.position_mut() = pos.clone();
                let alpha = exact + rng.gen_range(-300..300);
                let beta = alpha + rng.gen_range(1..200);
                let bounded = warm.quiesce(0, alpha, beta).ok().unwrap();
                let full = warm.quiesce(0, -INFINITY, INFINITY).ok().unwrap();
                assert_eq!(full, exact, "{pos}");
                if exact <= alpha {
                    assert!(
                        bounded <= alpha,
                        "{pos}: {bounded} for {exact} in {alpha}..{beta}"
                    );
                } else if exact >= beta {
                    assert!(
                        bounded >= beta,
                        "{pos}: {bounded} for {exact} in {alpha}..{beta}"
                    );
                } else {
                    assert_eq!(bounded, exact, "{pos}: within {alpha}..{beta}");
                    narrow += 1;
                }
                seen += 1;
            }
        }
        assert!(
            seen > 500 && narrow > 50,
            "{seen} positions, {narrow} within"
        );
    }
}
