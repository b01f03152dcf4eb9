//! Single-observer Information-Set Monte Carlo Tree Search (Cowling,
//! Powley and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE
//! TCIAIG 2012) over the hidden order of the draw piles.
//!
//! # The model
//!
//! In CHEX the only hidden information is the order of the two piles, and
//! it is hidden from both players alike: everything either player has seen
//! (the moves, the tiles drawn and placed) is public. An information set is
//! therefore a public history, and one tree of public histories serves
//! both sides. Its nodes are of two sorts:
//!
//! - **Decision nodes**, where the side to move chooses: a piece move or
//!   "draw" (`@`) on an ordinary turn, or, after a draw, the square for the
//!   drawn tile. The placement is its own decision, made knowing the kind.
//! - **Chance nodes**, below each "draw": one child per kind still in the
//!   pile. Which child an iteration enters is the top tile of that
//!   iteration's determinization.
//!
//! Each iteration samples a determinization: an order of each remaining
//! pile, uniform over the orders of the public multisets (the engine never
//! looks at anything it could not know). Reading such an order top down
//! draws each remaining tile with equal probability, so the iteration
//! samples the kind at each chance node as it reaches it, and the playout
//! after the tree draws the same way; this is the same distribution as
//! shuffling up front.
//!
//! A determinization fixes which actions are available at a decision node
//! only through the kinds drawn on the way, and those are branches of the
//! tree: every child of a decision node is available whenever the node is
//! reached. The availability counts of the paper (UCB's `ln n` counts the
//! visits of the parent during which the child was available) are kept all
//! the same; here they count the parent's visits since the child was
//! created, and UCB reads them as the paper does.
//!
//! An iteration descends by UCB1 (`mean + c·sqrt(ln avail / visits)`, `c`
//! the `Exploration` option) until it enters a node never visited, plays a
//! random game from there ([`super::playout`]) up to `PlayoutCap` turns,
//! judges an unfinished game by material ([`super::eval`]), and adds the
//! result to every node on its path, each from the side of the player who
//! chose the edge into it. A node is opened (its children created, all
//! unvisited) the first time an iteration passes through it; unvisited
//! children are tried first, in random order.
//!
//! # The hybrid (`LeafDepth` 0 and above)
//!
//! With a leaf judge (a quiescence, or a shallow alpha-beta, of
//! [`super::alphabeta`]) the tree is an MCTS–minimax hybrid: implicit
//! minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014) and
//! MCTS-Solver (Winands, Björnsson and Saito 2008).
//!
//! - A node is opened on its first visit, and each child is judged at
//!   once: a move by the judge's score of the position after it (or
//!   exactly, when the game ends there), "draw" by the opponent's score
//!   with the turn passed to it, the drawn tile counted as adding
//!   nothing, raised by the chance that it mates by its placement
//!   ([`LeafJudge::judge_draw`](crate::search::alphabeta::LeafJudge::judge_draw)), until the draw is first entered; then
//!   each kind the pile can bring is judged by the best placement of it.
//!   The iteration backs up the opened node's value.
//! - Every node keeps a minimax value for its mover: the best of its
//!   children for the side choosing there (after a draw the drawer
//!   places, so the same side), at a chance node the mean of the kinds
//!   weighted by their counts in the pile. Each back-up recomputes it
//!   along the path.
//! - Selection maximises `(1 − α)·mean + α·minimax + c·sqrt(ln avail / n)`
//!   (`α` the `MinimaxWeight` option, `c` `HybridExploration`: judged
//!   values see tactics that the means of a few visits blur, so they
//!   steer most, and explore far less than random playouts need; the
//!   matches that set them are in `docs/experiments.md`); an unvisited child
//!   counts as one visit at its judged value, so children are tried in
//!   the order of their values rather than all first.
//! - A finished game is proven; a decision node with a won child is won,
//!   one whose children are all proven takes the best of them, a chance
//!   node is proven only when each kind is proven the same. A descent
//!   that reaches a proven node backs up its result, a child proven lost
//!   is never chosen while another is not. A proof keeps its length in
//!   turns (the winner hurrying, the loser and chance delaying): the root
//!   plays the quickest proven win, and once it has one goes on among
//!   the actions not proven for a quicker, until the answer cannot
//!   improve (a win this turn, or every action proven).
//! - Before the first iteration, the mate prover ([`super::mate`]) looks
//!   for a forced mate within `MATE_TURNS` of the mover's turns; the root
//!   action it proves is held as won, as the solver would have proven
//!   it, and the search ends there unless only `stop` ends it: the
//!   prover deepens a turn at a time, so no quicker mate is left to find.
//!
//! # Threads
//!
//! Tree parallelisation with virtual loss (Chaslot, Winands and van den
//! Herik 2008) on a tree without a lock, as in Lc0 and Fuego: the counts,
//! values and proofs of a node are atomics updated in place, and the one
//! thread that claims an unopened node (a compare-and-swap on its first
//! child) takes nodes for its children from the array (another
//! compare-and-swap), writes them, then publishes them; to the other
//! threads the node is a leaf until then. The visit a thread adds on the way down counts as a loss until
//! its result comes back, which steers the other threads to other lines.
//! One tree for all threads, not one each: trees of their own are each
//! no deeper than one thread's. With one thread the search is exactly
//! reproducible under a seed.
//!
//! # Memory
//!
//! The nodes live in one array, its capacity set by the `Hash` option
//! (MiB), allocated zeroed so that only the part in use is ever faulted
//! in. When a tree is full it stops opening nodes: the iterations go on,
//! descending the tree as it stands and playing out from its leaves, so a
//! long `go infinite` keeps refining the statistics it has without
//! growing.
//!
//! # Tree reuse
//!
//! The tree of the last search is kept. When the game has gone on from
//! its root by a turn or two (a move, or a draw and its placement) along
//! nodes it visited, the next search starts from a copy of the subtree
//! there, with all it learned of it. Anything else starts afresh; so does
//! a second search of the same position, which keeps a seeded search
//! reproducible, unless the last search was a ponder of that position
//! (`go ponder`, then `ponderhit`): the timed search goes on from the
//! ponder's whole tree.
//!
//! # Repetition
//!
//! The search is given the keys of the game's positions since the last
//! irreversible turn, and a move in the tree that makes a position occur
//! for the third time ends the iteration as a draw, so that a winning side
//! does not wander into a repetition. Playouts count repetitions from
//! their own start only.
//!
//! A drawn game, by repetition or stalemate, is worth half a point less
//! the `Contempt` option's share to the side the engine plays, and as
//! much more to its opponent: the engine plays on against a side it
//! leads rather than take a draw it cannot tell from an even game.
//!
//! # Where each part lives
//!
//! - `node.rs`: one node as the threads share it, packed into atomics.
//! - `proof.rs` and `outcome.rs`: what is proven of a node, what an
//!   iteration's result and a drawn game are worth.
//! - `tree.rs`: the node array; claiming and opening nodes.
//! - `reuse.rs`: the subtree of the last search that the next starts from.
//! - `select.rs`: which child an iteration enters.
//! - `backup.rs`: minimax values and proofs carried up the path.
//! - `leaf.rs`: how a new leaf is valued, chosen once per search.
//! - `worker.rs`: one thread's iterations, in named phases.
//! - `report.rs`: the root's statistics as the search reports them.

mod backup;
mod leaf;
mod node;
mod outcome;
mod proof;
mod report;
mod reuse;
mod select;
mod tree;
mod worker;

#[cfg(test)]
mod tests;

pub use node::NODE_BYTES;
pub use reuse::{Kept, Reuse};
pub use tree::Tree;
pub use worker::Walker;

use super::mate;
use super::time::Clock;
use super::{Action, Report, Request, FORCED_PLAYOUTS};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the threads share: the tree, the claim counter and the flags.
struct Shared<'a> {
    tree: Tree,
    next: AtomicU64,
    /// The iterations to run at most.
    limit: u64,
    /// The node limit the caller asked for (`u64::MAX`: none), which
    /// sets when to report: a forced move's shorter search reports as
    /// the longer would have.
    asked: u64,
    done: AtomicBool,
    stop: &'a AtomicBool,
    plies: AtomicU64,
}

impl Shared<'_> {
    fn should_stop(&self) -> bool {
        self.done.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }
}

/// The longest mate, in the mating side's turns, the prover looks for
/// before the tree search.
const MATE_TURNS: u32 = 3;

/// The moves the mate prover may make: enough for every mate in three
/// turns of a sample of real games, and a position with none costs a
/// few milliseconds on average.
const MATE_NODES: u64 = 100_000;

/// The prover takes at most this share of a move's time: a position with
/// many checks can cost it more than the nodes suggest.
const MATE_SHARE: u32 = 10;

/// Under a node limit the prover may make this many moves for each
/// iteration asked (and at most [`MATE_NODES`]). A prover move costs
/// about a sixtieth of an iteration, so this keeps the prover near the
/// tenth of a search that [`MATE_SHARE`] gives it under a clock.
const MATE_NODES_PER_ITERATION: u64 = 8;

/// How often, in iterations, worker 0 asks whether the best action can
/// still change.
const CHECK_EVERY: u64 = 16;

/// Runs iterations on the shared tree until the search ends. Worker 0
/// keeps the clock and reports.
fn work(
    walker: &mut Walker,
    worker: usize,
    shared: &Shared,
    clock: &Clock,
    mut report: Option<&mut dyn FnMut(&Report)>,
) {
    let mut cadence = super::Cadence::new(shared.asked);
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= shared.limit || shared.should_stop() {
            shared.done.store(true, Ordering::Relaxed);
            break;
        }
        if walker.iterate(&shared.tree) {
            // The root's result is proven: nothing more to learn.
            shared.done.store(true, Ordering::Relaxed);
        }
        if worker != 0 {
            continue;
        }
        if clock.is_past_hard_limit()
            || ((i + 1).is_multiple_of(CHECK_EVERY) && {
                let (best, second) = shared.tree.top_two();
                clock.is_up(best, second, i + 1)
            })
        {
            shared.done.store(true, Ordering::Relaxed);
        }
        if let Some(report) = report.as_mut() {
            if cadence.is_due(i + 1) {
                shared
                    .plies
                    .fetch_add(walker.take_plies(), Ordering::Relaxed);
                report(&shared.tree.snapshot(&shared.plies, clock));
            }
        }
    }
    shared
        .plies
        .fetch_add(walker.take_plies(), Ordering::Relaxed);
}

/// Searches the side to move of the request's position (the caller has
/// checked that it has at least one action) and returns the most visited
/// root action, with the trees for the next search to start from.
///
/// `kept` holds the last search's tree, whose subtree is reused where
/// the game has gone on along it (`reuse.rs`) and whose node array is
/// taken, and the tree before the last ponder, from which a search after
/// a wrong guess goes on.
/// `pool` holds the workers beside the calling thread (`None`: the
/// calling thread searches alone).
pub fn search(
    request: &Request,
    kept: Kept,
    pool: Option<&rayon::ThreadPool>,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&Report),
) -> (Option<Action>, Kept) {
    let Request {
        position: pos,
        pending,
        history,
        limits,
        params,
        searchmoves,
    } = *request;
    let clock = request.clock();
    let seed = request.seed();
    let capacity = params.hash_mib.saturating_mul(1 << 20) / NODE_BYTES;
    // A ponder starts from the last tree in the node array of the tree
    // before the last ponder, and keeps the last tree for a wrong guess;
    // the search after it goes on from the ponder's tree, else from the
    // one it kept.
    let Kept {
        last,
        before_ponder,
    } = kept;
    let (taken, before_ponder) = if limits.ponder {
        (before_ponder, last)
    } else {
        (last, before_ponder)
    };
    let reuse = Reuse {
        tree: taken,
        fallback: before_ponder.as_ref(),
    };
    let mut tree = Tree::new(pos, pending, history, searchmoves, params, capacity, reuse);
    // A ponder of the opponent's draw has its root cut down to the draw:
    // what lies below it goes on, the root itself does not.
    tree.pondered = limits.ponder && searchmoves.is_empty();
    let workers = pool.map_or(1, |p| p.current_num_threads() + 1);
    let mut walkers: Vec<Walker> = (0..workers)
        .map(|w| Walker::new(&tree, params, seed.wrapping_add(w as u64)))
        .collect();
    let asked = limits.nodes.unwrap_or(u64::MAX);
    // A forced move is searched too, briefly, for its score.
    let (clock, mut limit) = if request.is_forced(tree.children(0).len()) {
        (clock.forced(), asked.min(FORCED_PLAYOUTS))
    } else {
        (clock, asked)
    };
    // A quick forced mate is proven outright; the prover deepens a turn
    // at a time, so there is no quicker one to look for.
    let deadline = clock.share_ends(MATE_SHARE);
    let mate_nodes = asked
        .saturating_mul(MATE_NODES_PER_ITERATION)
        .min(MATE_NODES);
    let mate = mate::quickest_mate_until(
        pos, pending, history, MATE_TURNS, mate_nodes, deadline, stop,
    );
    if let Some(mate) = mate.filter(|m| request.allows(m.action)) {
        tree.hold_mate(mate);
        if !request.is_endless() {
            limit = 0;
        }
    }
    let shared = Shared {
        tree,
        next: AtomicU64::new(0),
        limit,
        asked,
        done: AtomicBool::new(false),
        stop,
        plies: AtomicU64::new(0),
    };
    let (first, rest) = walkers.split_at_mut(1);
    // The calling thread walks and reports; the pool's threads walk
    // beside it.
    match pool {
        Some(pool) => pool.in_place_scope(|scope| {
            for (w, walker) in rest.iter_mut().enumerate() {
                let (shared, clock) = (&shared, &clock);
                scope.spawn(move |_| work(walker, w + 1, shared, clock, None));
            }
            work(&mut first[0], 0, &shared, &clock, Some(report));
        }),
        None => work(&mut first[0], 0, &shared, &clock, Some(report)),
    }
    let last = shared.tree.snapshot(&shared.plies, &clock);
    report(&last);
    let kept = Kept {
        last: Some(shared.tree),
        before_ponder,
    };
    (last.actions.first().map(|s| s.action), kept)
}
