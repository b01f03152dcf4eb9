//! Flat Monte Carlo: random playouts from the root actions, the best mean
//! wins. No tree: the baseline the tree search ([`super::mcts`]) must
//! beat.
//!
//! Two ways to share the playouts: equally (`Player flat`: iteration `i`
//! belongs to action `i mod n`), or by UCB1 (`Player ucb`: each iteration
//! goes to the action with the highest mean plus `Exploration ·
//! sqrt(ln N / n_a)`, Auer, Cesa-Bianchi and Fischer 2002), which spends
//! the playouts on the actions that might be best. With one thread and a
//! seed either is reproducible. "Draw" is played out by drawing a
//! uniformly random tile of the public pile: the engine never looks at the
//! hidden order.

use super::eval::playout::win_probability;
use super::playout::{playout, Policy};
use super::time::Clock;
use super::{Action, ActionStats, Cadence, Player, Report, Request, FORCED_PLAYOUTS};
use crate::rules::{Colour, Move, Piece, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Results are summed in units of a quarter-thousandth of a game, so that
/// threads can add them with one atomic instruction.
const UNIT: f64 = 4000.0;

/// The running totals of one root action, shared by the threads.
#[derive(Default)]
struct Tally {
    visits: AtomicU64,
    wins: AtomicU64,
    draws: AtomicU64,
    losses: AtomicU64,
}

/// One playout's result for the side to move: how much of it was a win, a
/// draw and a loss.
#[derive(Clone, Copy)]
struct Outcome {
    win: f64,
    draw: f64,
    loss: f64,
}

impl Outcome {
    fn for_side(winner: Option<Colour>, us: Colour) -> Outcome {
        match winner {
            Some(c) if c == us => Outcome::WIN,
            Some(_) => Outcome::LOSS,
            None => Outcome::DRAW,
        }
    }

    const WIN: Outcome = Outcome {
        win: 1.0,
        draw: 0.0,
        loss: 0.0,
    };
    const DRAW: Outcome = Outcome {
        win: 0.0,
        draw: 1.0,
        loss: 0.0,
    };
    const LOSS: Outcome = Outcome {
        win: 0.0,
        draw: 0.0,
        loss: 1.0,
    };
}

/// Plays `action` and a random game after it.
fn simulate(
    pos: &Position,
    action: Action,
    cap: u32,
    policy: Policy,
    rng: &mut ChaCha8Rng,
) -> (Outcome, u32) {
    let us = pos.side_to_move();
    let mut game = pos.clone();
    let mv = match action {
        Action::Play(mv) => mv,
        Action::Draw => {
            let pile = game.pile(us);
            let kind = pile.nth(rng.gen_range(0..pile.len()));
            let placements = game.legal_placements(kind);
            if placements.is_empty() {
                let end = game.ending_after_draw(kind);
                return (Outcome::for_side(end.and_then(|e| e.winner), us), 1);
            }
            let to = placements[rng.gen_range(0..placements.len())].to();
            Move::Place {
                piece: Piece::new(us, kind),
                to,
            }
        }
    };
    game.make(mv);
    let playout = playout(&mut game, rng, cap, policy);
    let outcome = match playout.end {
        Some(end) => Outcome::for_side(end.winner, us),
        None => {
            let p = win_probability(&game, us);
            Outcome {
                win: p,
                draw: 0.0,
                loss: 1.0 - p,
            }
        }
    };
    (outcome, playout.plies + 1)
}

/// The shared state of one search.
struct Shared<'a> {
    pos: &'a Position,
    actions: &'a [Action],
    tallies: Vec<Tally>,
    /// The next iteration to claim.
    next: AtomicU64,
    plies: AtomicU64,
    done: AtomicBool,
    stop: &'a AtomicBool,
    clock: Clock,
    /// The playouts to run at most.
    limit: u64,
    /// The node limit the caller asked for (`u64::MAX`: none), which
    /// sets when to report: a forced move's shorter search reports as
    /// the longer would have.
    asked: u64,
    cap: u32,
    policy: Policy,
    /// The UCB1 constant, or `None` to share playouts equally.
    exploration: Option<f64>,
}

impl Shared<'_> {
    fn report(&self) -> Report {
        let mut actions: Vec<ActionStats> = self
            .actions
            .iter()
            .zip(&self.tallies)
            .map(|(&action, t)| ActionStats {
                action,
                visits: t.visits.load(Ordering::Relaxed),
                wins: t.wins.load(Ordering::Relaxed) as f64 / UNIT,
                draws: t.draws.load(Ordering::Relaxed) as f64 / UNIT,
                losses: t.losses.load(Ordering::Relaxed) as f64 / UNIT,
                pv: Vec::new(),
                proven: None,
            })
            .collect();
        // Best first, ties in the actions' order, so the answer is
        // reproducible. Under UCB1 the most visited action is the best: a
        // lucky mean over a few playouts is not to be trusted. Shared
        // equally, the visits say nothing and the mean decides.
        if self.exploration.is_some() {
            actions.sort_by_key(|a| std::cmp::Reverse(a.visits));
        } else {
            actions.sort_by(|a, b| b.value().total_cmp(&a.value()));
        }
        Report {
            nodes: actions_visits(&self.tallies),
            plies: self.plies.load(Ordering::Relaxed),
            elapsed: self.clock.elapsed(),
            actions,
        }
    }

    /// The action UCB1 picks: an unvisited one first, else the highest
    /// mean plus `c · sqrt(ln N / n)`.
    fn most_promising(&self, c: f64) -> usize {
        let visits = |t: &Tally| t.visits.load(Ordering::Relaxed);
        if let Some(a) = self.tallies.iter().position(|t| visits(t) == 0) {
            return a;
        }
        let ln_total = (actions_visits(&self.tallies) as f64).ln();
        let score = |t: &Tally| {
            let v = visits(t) as f64;
            let wins = t.wins.load(Ordering::Relaxed) as f64 / UNIT;
            let draws = t.draws.load(Ordering::Relaxed) as f64 / UNIT;
            (wins + 0.5 * draws) / v + c * (ln_total / v).sqrt()
        };
        let mut best = (0, f64::NEG_INFINITY);
        for (a, t) in self.tallies.iter().enumerate() {
            let s = score(t);
            if s > best.1 {
                best = (a, s);
            }
        }
        best.0
    }

    fn should_stop(&self) -> bool {
        self.done.load(Ordering::Relaxed)
            || self.stop.load(Ordering::Relaxed)
            || self.clock.is_past_soft_limit()
    }

    /// Runs iterations until the search ends. The first worker also
    /// reports, at the search's [`Cadence`].
    fn work(&self, worker: usize, seed: u64, mut report: Option<&mut dyn FnMut(&Report)>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(worker as u64));
        let n = self.actions.len() as u64;
        let mut cadence = Cadence::new(self.asked);
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.limit || self.should_stop() {
                self.done.store(true, Ordering::Relaxed);
                return;
            }
            let a = match self.exploration {
                Some(c) => self.most_promising(c),
                None => (i % n) as usize,
            };
            let (outcome, plies) =
                simulate(self.pos, self.actions[a], self.cap, self.policy, &mut rng);
            let t = &self.tallies[a];
            t.wins
                .fetch_add((outcome.win * UNIT) as u64, Ordering::Relaxed);
            t.draws
                .fetch_add((outcome.draw * UNIT) as u64, Ordering::Relaxed);
            t.losses
                .fetch_add((outcome.loss * UNIT) as u64, Ordering::Relaxed);
            t.visits.fetch_add(1, Ordering::Relaxed);
            self.plies.fetch_add(plies as u64, Ordering::Relaxed);
            if let Some(report) = report.as_mut() {
                if cadence.is_due(i + 1) {
                    report(&self.report());
                }
            }
        }
    }
}

fn actions_visits(tallies: &[Tally]) -> u64 {
    tallies
        .iter()
        .map(|t| t.visits.load(Ordering::Relaxed))
        .sum()
}

/// Runs a flat Monte Carlo search over `actions` (not empty), the root
/// actions of the request's position, and returns the best.
pub fn search(
    request: &Request,
    actions: &[Action],
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> Action {
    let (pos, limits, params) = (request.position, request.limits, request.params);
    let asked = limits.nodes.unwrap_or(u64::MAX);
    // A forced move is searched too, briefly, for its score.
    let (clock, limit) = if request.is_forced(actions.len()) {
        (request.clock().forced(), asked.min(FORCED_PLAYOUTS))
    } else {
        (request.clock(), asked)
    };
    let shared = Shared {
        pos,
        actions,
        tallies: actions.iter().map(|_| Tally::default()).collect(),
        next: AtomicU64::new(0),
        plies: AtomicU64::new(0),
        done: AtomicBool::new(false),
        stop,
        clock,
        limit,
        asked,
        cap: params.playout_cap,
        policy: params.policy,
        exploration: (params.player == Player::Ucb).then_some(params.exploration),
    };
    let seed = request.seed();
    // The calling thread plays and reports; the pool's threads play
    // beside it.
    match pool {
        Some(pool) => pool.in_place_scope(|scope| {
            for worker in 1..=pool.current_num_threads() {
                let shared = &shared;
                scope.spawn(move |_| shared.work(worker, seed, None));
            }
            shared.work(0, seed, Some(report));
        }),
        None => shared.work(0, seed, Some(report)),
    }
    let last = shared.report();
    report(&last);
    last.actions.first().map_or(actions[0], |s| s.action)
}
