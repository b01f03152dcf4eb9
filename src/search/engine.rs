//! The engine's search state, owned by whoever runs its searches (the
//! protocol's session, a match, a test) rather than kept in statics: the
//! last search's tree, which the next one starts from, the alpha-beta
//! searcher's transposition table, and the worker pool. A new game
//! clears what the last game left.

use super::{alphabeta, baseline, flat, mcts, Action, ActionStats, Player};
use super::{Report, Request};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Searches, and what one search leaves for the next.
#[derive(Default)]
pub struct Engine {
    /// The trees of the last tree searches (tree reuse, as in Lc0).
    tree: Mutex<Option<mcts::Kept>>,
    /// The workers beside the searching thread, kept for the next search
    /// of as many threads: starting threads for every `go` is time taken
    /// from the move.
    pool: Mutex<Option<Arc<rayon::ThreadPool>>>,
    /// The transposition table of the last alpha-beta search.
    table: Mutex<Option<alphabeta::Table>>,
    /// How many new games there have been: a search that began before
    /// the last keeps nothing for the new game.
    games: AtomicU64,
}

/// Locks `mutex`, whose data a panicking search cannot leave half
/// written: the tree is replaced whole, the pool made whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl Engine {
    /// An engine with nothing kept.
    pub fn new() -> Engine {
        Engine::default()
    }

    /// Forgets what the last game's searches left: the next search starts
    /// afresh.
    pub fn new_game(&self) {
        self.games.fetch_add(1, Ordering::Relaxed);
        *lock(&self.tree) = None;
        *lock(&self.table) = None;
    }

    /// Runs `search` with what `slot` kept from the last search, and
    /// keeps what it leaves for the next unless a new game began
    /// meanwhile. The slot is not held during the search, so that
    /// `new_game` never waits for one.
    fn with_kept<T, R>(
        &self,
        slot: &Mutex<Option<T>>,
        search: impl FnOnce(Option<T>) -> (R, Option<T>),
    ) -> R {
        let game = self.games.load(Ordering::Relaxed);
        let kept = lock(slot).take();
        let (result, left) = search(kept);
        let mut slot = lock(slot);
        if self.games.load(Ordering::Relaxed) == game {
            *slot = left;
        }
        result
    }

    /// An engine with nothing kept but this one's pool: a search on it
    /// leaves this one's tree and table as they are.
    fn apart(&self) -> Engine {
        Engine {
            pool: Mutex::new(lock(&self.pool).clone()),
            ..Engine::default()
        }
    }

    /// A pool of `workers` threads, or `None` for none (or if none could
    /// be made: the calling thread then searches alone).
    fn pool(&self, workers: usize) -> Option<Arc<rayon::ThreadPool>> {
        if workers == 0 {
            return None;
        }
        let mut kept = lock(&self.pool);
        if let Some(pool) = kept.as_ref().filter(|p| p.current_num_threads() == workers) {
            return Some(Arc::clone(pool));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers)
            .build()
            .ok()?;
        let pool = Arc::new(pool);
        *kept = Some(Arc::clone(&pool));
        Some(pool)
    }

    /// Chooses an action for the side to move of the request's position
    /// within its limits, calling `report` at least once a second and once
    /// at the end. Returns `None` when there is nothing to choose from.
    /// `stop` ends the search at once; a search that no limit ends
    /// (`infinite`, or no limit for the side to move) answers only then,
    /// as UCI asks, even when its mind is made up. Below full strength
    /// ([`Skill`](super::skill::Skill), from `Skill` or `UCI_Elo`) the
    /// search is cut short and its choice is the skill's.
    pub fn search(
        &self,
        request: &Request,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<Action> {
        let choice = match request.params.weakening() {
            None => self.dispatch(request, stop, report)?,
            Some(skill) => {
                let limits = skill.cap(request.limits);
                let capped = Request {
                    limits: &limits,
                    ..*request
                };
                // A level is its node cap. A ponder's tree would be kept
                // for the search after `ponderhit`, which would then add
                // its own cap's worth: the level would get stronger by
                // pondering. So a weak level ponders apart, from nothing
                // kept and keeping nothing, and after `ponderhit` searches
                // as `go` would have without the ponder.
                let apart;
                let engine = if request.limits.ponder {
                    apart = self.apart();
                    &apart
                } else {
                    self
                };
                let mut last = None;
                let choice = engine.dispatch(&capped, stop, &mut |r: &Report| {
                    last = Some(r.clone());
                    report(r)
                })?;
                let seed = request.seed() ^ request.position.hash();
                last.and_then(|last| skill.choose(&last, seed))
                    .unwrap_or(choice)
            }
        };
        if request.is_endless() {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        Some(choice)
    }

    /// Runs the search of the player `Player` names.
    fn dispatch(
        &self,
        request: &Request,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Report),
    ) -> Option<Action> {
        let (pos, params) = (request.position, request.params);
        let actions = request.actions();
        if actions.is_empty() {
            return None;
        }
        let start = Instant::now();
        let pool = self.pool(params.threads.max(1) - 1);
        Some(match params.player {
            Player::Ismcts => self.with_kept(&self.tree, |kept| {
                let kept = kept.unwrap_or_default();
                let (choice, mut kept) = mcts::search(request, kept, pool.as_deref(), stop, report);
                // A root cut down to `searchmoves` is no tree to go on from,
                // but for a ponder of the opponent's draw: the turn after
                // it, once the tile is placed, lies below its root.
                if !request.searchmoves.is_empty() && !request.limits.ponder {
                    kept.last = None;
                }
                (choice, Some(kept))
            })?,
            Player::Alphabeta => self.with_kept(&self.table, |mut table| {
                (alphabeta::search(request, &mut table, stop, report), table)
            })?,
            Player::Ucb | Player::Flat => {
                flat::search(request, &actions, pool.as_deref(), stop, report)
            }
            Player::Greedy | Player::Random => {
                let seed = request.seed();
                let choice = match params.player {
                    Player::Greedy => baseline::greedy(pos, &actions, seed),
                    _ => baseline::random(&actions, seed),
                };
                report(&Report {
                    actions: vec![ActionStats {
                        action: choice,
                        visits: 0,
                        wins: 0.0,
                        draws: 0.0,
                        losses: 0.0,
                        pv: Vec::new(),
                        proven: None,
                    }],
                    nodes: 0,
                    plies: 0,
                    elapsed: start.elapsed(),
                });
                choice
            }
        })
    }
}
