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
//!   ([`LeafJudge::judge_draw`]), until the draw is first entered; then
//!   each kind the pile can bring is judged by the best placement of it.
//!   The iteration backs up the opened node's value.
//! - Every node keeps a minimax value for its mover: the best of its
//!   children for the side choosing there (after a draw the drawer
//!   places, so the same side), at a chance node the mean of the kinds
//!   weighted by their counts in the pile. Each back-up recomputes it
//!   along the path.
//! - Selection maximises `(1 − α)·mean + α·minimax + c·sqrt(ln avail / n)`
//!   (`α` the `MinimaxWeight` option, 0.9: steering mostly by the
//!   minimax value beat 0.5, 0.65 and 0.8; `c` `HybridExploration`,
//!   0.1: the 1.4 of playouts scored 37.5% against `Player alphabeta`
//!   where 0.1 scored 65%, 20 pairs at 100 ms); an unvisited child
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
//! Tried and not kept (the matches are in the commit messages):
//! `MinimaxWeight` 0.35, 0.95 and 1, `LeafDepth` 1, `HybridExploration`
//! 0.03, 0.07, 0.15, 0.2 and 0.3, PUCT priors from the children's
//! values, judging a draw's kinds when its parent is opened, choosing
//! the root action by value rather than visits, ranking children by
//! the static evaluation to judge them only when visited, entering at
//! a chance node the kind furthest behind its share of the visits
//! rather than a sampled one, judging a node's moves in an alpha-beta
//! window below the best so far (14% fewer judge nodes in game
//! positions, no Elo), and adding to every judgement, not only the
//! draw's, the chance of a mate by placement (an iteration cost 1.6 to
//! 4 times as much), or only to the judgements of the king's moves and
//! placements, and judging each kind a draw can bring only when an
//! iteration first draws it (by opening it), the others standing at the
//! draw's value meanwhile (15% fewer instructions an iteration, no Elo),
//! and the mate prover run after the search for the opponent, after the
//! action chosen, a tenth of the time kept back for it (a refuted action
//! held as lost, the next looked at): it kept most of the mates the tree
//! let through, but not the Elo the tenth of the time costs.
//!
//! # Threads
//!
//! Tree parallelisation with virtual loss (Chaslot, Winands and van den
//! Herik 2008) on a tree without a lock, as in Lc0 and Fuego: the counts,
//! values and proofs of a node are atomics updated in place, and the one
//! thread that claims an unopened node (a compare-and-swap on its first
//! child) takes nodes for its children from the array (another
//! compare-and-swap), writes them, then publishes them; to the other threads the node is a leaf until
//! then. The visit a thread adds on the way down counts as a loss until
//! its result comes back, which steers the other threads to other lines.
//! Root parallelisation (one tree per thread, root statistics summed) was
//! built first and measured: with 1.9 times the iterations, 2 threads
//! scored 48% against 1 thread (100 games at 100 ms), because each tree
//! was no deeper than one thread's. With one thread the search is exactly
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
//! reproducible.
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

use super::alphabeta::LeafJudge;
use super::eval::playout::win_probability;
use super::mate::{self, Mate};
use super::playout::{playout, Policy};
use super::score::{expected_result, from_centipawns as score_of_centipawns};
use super::time::Clock;
use super::{Action, ActionStats, Cadence, Params, Proven, Report, Request, FORCED_PLAYOUTS};
use crate::rules::{Colour, Kind, Move, MoveList, Piece, Position, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::Ordering::{self, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize};
use std::sync::{Arc, Mutex};

/// The edge into a node: what was chosen, or drawn, to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edge {
    /// The root of the search.
    Root,
    /// A decision: a piece move or a placement.
    Play(Move),
    /// A decision to draw; the node below is a chance node.
    Draw,
    /// The chance outcome of a draw: a tile of this kind came up.
    Drawn(Kind),
}

impl Edge {
    /// The turns this edge ends: one for a step or a placement; none for
    /// a draw, whose turn ends with the placement below it, nor for the
    /// kind that comes.
    fn turns(self) -> u8 {
        u8::from(matches!(self, Edge::Play(_)))
    }

    /// The decision this edge records; `None` for the root and for chance
    /// outcomes.
    fn action(self) -> Option<Action> {
        match self {
            Edge::Play(mv) => Some(Action::Play(mv)),
            Edge::Draw => Some(Action::Draw),
            Edge::Root | Edge::Drawn(_) => None,
        }
    }
}

/// "No node": children not created yet.
const NONE: u32 = u32::MAX;

/// Children being created by one thread: to the others the node is still
/// a leaf.
const OPENING: u32 = u32::MAX - 1;

/// One node of a tree, as the threads share it: every field atomic, so
/// that no lock guards the tree. Children are contiguous in the tree's
/// array, created by the one thread that claimed their parent and
/// published by its `first_child` (release, read by acquire); the counts
/// and values are updated in place, relaxed, as in Lc0 and Fuego. All
/// zeros is a valid (unused) node, so the array is allocated zeroed and
/// its memory faulted in only as the tree grows.
#[derive(bytemuck::Zeroable)]
struct Node {
    /// The edge into the node, its mover and weight ([`Identity`]),
    /// written once, before the node is published.
    identity: AtomicU32,
    /// The square the edge's move ends on, packed by [`pack_square`].
    to: AtomicU64,
    /// The square a step starts from, packed by [`pack_square`].
    from: AtomicU64,
    /// The first child, [`NONE`] or [`OPENING`].
    first_child: AtomicU32,
    children: AtomicU16,
    /// Iterations through this node.
    visits: AtomicU32,
    /// How many times a child of this node was chosen: the availability
    /// count of each child, for siblings are created together and all
    /// counted at each choice.
    selections: AtomicU32,
    /// The sum of the results for the mover, an `f64`'s bits.
    value: AtomicU64,
    /// The part of `value` that came from draws, an `f64`'s bits.
    draws: AtomicU64,
    /// A [`Status`], encoded by [`Status::code`].
    status: AtomicU8,
    /// A [`Proof`], encoded by its discriminant, and above it (times 4)
    /// the proof's length in turns.
    proof: AtomicU8,
    /// The minimax value, an `f32`'s bits.
    minimax: AtomicU32,
}

/// A node's fields as plain values: what a thread reads of a node, and
/// what a new or copied node is written from.
#[derive(Clone, Copy, Debug, PartialEq)]
struct NodeData {
    edge: Edge,
    /// The side that chose the edge into this node (for a chance outcome,
    /// the side that drew).
    mover: Colour,
    first_child: u32,
    children: u16,
    /// Iterations through this node.
    visits: u32,
    /// Choices of a child of this node: each child's availability count
    /// (the parent's visits while the child existed, in the paper).
    selections: u32,
    /// The sum of the results for `mover`: 1 a win, ½ a draw, 0 a loss, a
    /// material judgement in between.
    value: f64,
    /// The part of `value` that came from draws, counted whole, for the
    /// win/draw/loss report.
    draws: f64,
    /// Whether the game is over here, worked out once.
    status: Status,
    /// The heuristic minimax value for `mover`, 0 (lost) to 1 (won): at
    /// first the leaf judge's value of the node, then, once the node is
    /// opened, the best of its children for the side that chooses there
    /// (the pile-weighted mean at a chance node), backed up on every
    /// iteration (implicit minimax backups). Unused with playouts.
    minimax: f32,
    /// What is proven of the game here, for `mover` (MCTS-Solver).
    proof: Proof,
    /// How many turns the proven result takes to come at most, when the
    /// winner hurries and the loser delays (0 where the game is over).
    proof_turns: u8,
    /// For a chance outcome, how many tiles of its kind the pile held.
    weight: u8,
}

/// A square as one word: each coordinate fits in 32 bits
/// (`COORD_LIMIT`).
fn pack_square(sq: Square) -> u64 {
    u64::from(sq.x as u32) | u64::from(sq.y as u32) << 32
}

fn unpack_square(word: u64) -> Square {
    Square::new(word as u32 as i32, (word >> 32) as u32 as i32)
}

/// The edge into a node, its mover and its weight in one word (bits 0–2
/// the edge's sort, 3–6 a kind or piece, 8 the mover, 16–23 the weight);
/// a move's squares go in the node's `to` and `from`.
struct Identity;

impl Identity {
    const ROOT: u32 = 0;
    const PLACE: u32 = 1;
    const STEP: u32 = 2;
    const DRAW: u32 = 3;
    const DRAWN: u32 = 4;

    fn pack(edge: Edge, mover: Colour, weight: u8) -> (u32, u64, u64) {
        let kind = |k: Kind| (k.index() as u32) << 3;
        let (sort, piece, to, from) = match edge {
            Edge::Root => (Identity::ROOT, 0, 0, 0),
            Edge::Play(Move::Place { piece, to }) => (
                Identity::PLACE,
                kind(piece.kind) | (piece.colour.index() as u32) << 6,
                pack_square(to),
                0,
            ),
            Edge::Play(Move::Step { from, to }) => {
                (Identity::STEP, 0, pack_square(to), pack_square(from))
            }
            Edge::Draw => (Identity::DRAW, 0, 0, 0),
            Edge::Drawn(k) => (Identity::DRAWN, kind(k), 0, 0),
        };
        let word = sort | piece | (mover.index() as u32) << 8 | u32::from(weight) << 16;
        (word, to, from)
    }

    fn unpack(word: u32, to: u64, from: u64) -> (Edge, Colour, u8) {
        let kind = Kind::ALL[(word >> 3 & 7) as usize % Kind::ALL.len()];
        let edge = match word & 7 {
            Identity::PLACE => Edge::Play(Move::Place {
                piece: Piece::new(Colour::ALL[(word >> 6 & 1) as usize], kind),
                to: unpack_square(to),
            }),
            Identity::STEP => Edge::Play(Move::Step {
                from: unpack_square(from),
                to: unpack_square(to),
            }),
            Identity::DRAW => Edge::Draw,
            Identity::DRAWN => Edge::Drawn(kind),
            _ => Edge::Root,
        };
        let mover = Colour::ALL[(word >> 8 & 1) as usize];
        (edge, mover, (word >> 16) as u8)
    }
}

/// A result proven by the search (MCTS-Solver), for a node's `mover`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Proof {
    Unknown,
    Loss,
    Draw,
    Win,
}

impl Proof {
    const ALL: [Proof; 4] = [Proof::Unknown, Proof::Loss, Proof::Draw, Proof::Win];

    fn from_code(code: u8) -> Proof {
        Proof::ALL[code as usize & 3]
    }

    /// The longest proof length [`proof_code`] keeps: longer ones are
    /// counted as this long.
    const MAX_TURNS: u8 = 63;

    /// The proof for the other side.
    fn flip(self) -> Proof {
        match self {
            Proof::Win => Proof::Loss,
            Proof::Loss => Proof::Win,
            other => other,
        }
    }

    /// The proven result, 0 to 1, a draw worth `draw` to the side.
    fn value(self, draw: f32) -> Option<f32> {
        match self {
            Proof::Unknown => None,
            Proof::Loss => Some(0.0),
            Proof::Draw => Some(draw),
            Proof::Win => Some(1.0),
        }
    }

    /// What a report says of a root action with this proof, `turns`
    /// long from the root ([`Proven`] counts as [`Tree::turns_through`]).
    fn proven(self, turns: u8) -> Option<Proven> {
        match self {
            Proof::Unknown => None,
            Proof::Loss => Some(Proven::Loss { turns }),
            Proof::Draw => Some(Proven::Draw),
            Proof::Win => Some(Proven::Win { turns }),
        }
    }

    /// The proof of a finished game for `side`.
    fn of(winner: Option<Colour>, side: Colour) -> Proof {
        match winner {
            None => Proof::Draw,
            Some(w) if w == side => Proof::Win,
            Some(_) => Proof::Loss,
        }
    }
}

/// A proof and its length in turns as one byte, the length capped at
/// [`Proof::MAX_TURNS`].
fn proof_code(proof: Proof, turns: u8) -> u8 {
    proof as u8 | turns.min(Proof::MAX_TURNS) << 2
}

/// What a drawn game is worth to White: half a point, less the engine's
/// contempt when the engine plays White (more when it plays Black), so
/// that every draw the search meets, in the tree or among the judged
/// leaves, weighs the same.
#[derive(Clone, Copy, Debug, PartialEq)]
struct DrawValue(f32);

impl DrawValue {
    /// The value of a draw for a search by `engine` with `contempt`
    /// centipawns.
    fn new(engine: Colour, contempt: i32) -> DrawValue {
        let ours = expected_result(score_of_centipawns(-contempt)) as f32;
        DrawValue(match engine {
            Colour::White => ours,
            Colour::Black => 1.0 - ours,
        })
    }

    /// What a draw is worth to `side`.
    fn for_side(self, side: Colour) -> f32 {
        match side {
            Colour::White => self.0,
            Colour::Black => 1.0 - self.0,
        }
    }
}

/// What is known of the game at a node. A node stands for one public
/// history from the root, so whether the game has ended there (by the
/// position, a third occurrence, or a drawn tile that cannot be placed) is
/// the same on every visit: it is worked out by the first iteration that
/// reaches the node and read by the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// No iteration has reached the node yet.
    Unknown,
    /// The game goes on.
    Ongoing,
    /// The game is over: won by this side, or drawn (`None`).
    Over(Option<Colour>),
}

impl Status {
    fn code(self) -> u8 {
        match self {
            Status::Unknown => 0,
            Status::Ongoing => 1,
            Status::Over(None) => 2,
            Status::Over(Some(Colour::White)) => 3,
            Status::Over(Some(Colour::Black)) => 4,
        }
    }

    fn from_code(code: u8) -> Status {
        match code {
            1 => Status::Ongoing,
            2 => Status::Over(None),
            3 => Status::Over(Some(Colour::White)),
            4 => Status::Over(Some(Colour::Black)),
            _ => Status::Unknown,
        }
    }
}

impl NodeData {
    fn new(edge: Edge, mover: Colour) -> NodeData {
        NodeData {
            edge,
            mover,
            first_child: NONE,
            children: 0,
            visits: 0,
            selections: 0,
            value: 0.0,
            draws: 0.0,
            status: Status::Unknown,
            minimax: 0.5,
            proof: Proof::Unknown,
            proof_turns: 0,
            weight: 0,
        }
    }
}

/// Adds `x` to the `f64` whose bits `cell` holds.
fn add_f64(cell: &AtomicU64, x: f64) {
    let _ = cell.fetch_update(Relaxed, Relaxed, |bits| {
        Some((f64::from_bits(bits) + x).to_bits())
    });
}

impl Node {
    fn load(&self) -> NodeData {
        let (edge, mover, weight) = Identity::unpack(
            self.identity.load(Relaxed),
            self.to.load(Relaxed),
            self.from.load(Relaxed),
        );
        NodeData {
            edge,
            mover,
            first_child: self.first_child.load(Acquire),
            children: self.children.load(Relaxed),
            visits: self.visits(),
            selections: self.selections.load(Relaxed),
            value: f64::from_bits(self.value.load(Relaxed)),
            draws: f64::from_bits(self.draws.load(Relaxed)),
            status: self.status(),
            minimax: self.minimax(),
            proof: self.proof(),
            proof_turns: self.proof_turns(),
            weight,
        }
    }

    /// Writes `data` over the node: only while no other thread can reach
    /// it (a new node before its parent publishes it, or a tree not being
    /// searched).
    fn store(&self, data: &NodeData) {
        let (word, to, from) = Identity::pack(data.edge, data.mover, data.weight);
        self.identity.store(word, Relaxed);
        self.to.store(to, Relaxed);
        self.from.store(from, Relaxed);
        self.children.store(data.children, Relaxed);
        self.visits.store(data.visits, Relaxed);
        self.selections.store(data.selections, Relaxed);
        self.value.store(data.value.to_bits(), Relaxed);
        self.draws.store(data.draws.to_bits(), Relaxed);
        self.status.store(data.status.code(), Relaxed);
        self.minimax.store(data.minimax.to_bits(), Relaxed);
        self.proof
            .store(proof_code(data.proof, data.proof_turns), Relaxed);
        self.first_child.store(data.first_child, Release);
    }

    fn edge(&self) -> Edge {
        let word = self.identity.load(Relaxed);
        let (to, from) = match word & 7 {
            Identity::PLACE => (self.to.load(Relaxed), 0),
            Identity::STEP => (self.to.load(Relaxed), self.from.load(Relaxed)),
            _ => (0, 0),
        };
        Identity::unpack(word, to, from).0
    }

    fn mover(&self) -> Colour {
        Colour::ALL[(self.identity.load(Relaxed) >> 8 & 1) as usize]
    }

    fn weight(&self) -> u8 {
        (self.identity.load(Relaxed) >> 16) as u8
    }

    fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    fn status(&self) -> Status {
        Status::from_code(self.status.load(Relaxed))
    }

    fn proof(&self) -> Proof {
        Proof::from_code(self.proof.load(Relaxed))
    }

    fn proof_turns(&self) -> u8 {
        self.proof.load(Relaxed) >> 2
    }

    fn minimax(&self) -> f32 {
        f32::from_bits(self.minimax.load(Relaxed))
    }

    fn set_minimax(&self, value: f32) {
        self.minimax.store(value.to_bits(), Relaxed);
    }

    fn mean(&self) -> f64 {
        f64::from_bits(self.value.load(Relaxed)) / self.visits().max(1) as f64
    }

    /// Counts a visit (until its result comes back, a virtual loss) and
    /// returns the visits before it.
    fn enter(&self) -> u32 {
        self.visits.fetch_add(1, Relaxed)
    }

    /// Records the node's status; a finished game is proven, its
    /// minimax value exact.
    fn settle(&self, status: Status, draw: DrawValue) {
        self.status.store(status.code(), Relaxed);
        if let Status::Over(winner) = status {
            let mover = self.mover();
            let proof = Proof::of(winner, mover);
            self.proof.store(proof_code(proof, 0), Relaxed);
            self.set_minimax(proof.value(draw.for_side(mover)).unwrap_or(0.5));
        }
    }

    /// The result to back up from this node when the descent ends here:
    /// the proven one, else its minimax value.
    fn outcome(&self, draw: DrawValue) -> Outcome {
        let mover = self.mover();
        match self.proof() {
            Proof::Win => Outcome::of(Some(mover), draw),
            Proof::Loss => Outcome::of(Some(mover.opposite()), draw),
            Proof::Draw => Outcome::of(None, draw),
            Proof::Unknown => {
                let v = self.minimax() as f64;
                Outcome {
                    white: match mover {
                        Colour::White => v,
                        Colour::Black => 1.0 - v,
                    },
                    draw: 0.0,
                }
            }
        }
    }

    /// Adds the result of an iteration through the node.
    fn add(&self, outcome: Outcome) {
        add_f64(&self.value, outcome.for_side(self.mover()));
        if outcome.draw != 0.0 {
            add_f64(&self.draws, outcome.draw);
        }
    }
}

/// The result of one iteration, from White's side.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    /// 1 White won, 0 Black won, a draw's [`DrawValue`], or a judgement.
    white: f64,
    /// 1 when the game was drawn.
    draw: f64,
}

impl Outcome {
    fn of(winner: Option<Colour>, draw: DrawValue) -> Outcome {
        match winner {
            Some(Colour::White) => Outcome {
                white: 1.0,
                draw: 0.0,
            },
            Some(Colour::Black) => Outcome {
                white: 0.0,
                draw: 0.0,
            },
            None => Outcome {
                white: draw.0 as f64,
                draw: 1.0,
            },
        }
    }

    fn for_side(self, side: Colour) -> f64 {
        match side {
            Colour::White => self.white,
            Colour::Black => 1.0 - self.white,
        }
    }
}

/// The size of one node in the tree's array, for the `Hash` option.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// The search tree, shared by the threads without a lock.
pub struct Tree {
    /// Room for the tree's nodes, allocated zeroed at the start.
    nodes: Box<[Node]>,
    /// Nodes in use: the first `len` of `nodes`.
    len: AtomicUsize,
    /// The nodes the `Hash` option asked room for (`nodes` may be smaller
    /// if the memory could not be had).
    capacity: usize,
    /// What a draw is worth.
    draw: DrawValue,
    root: Position,
    pending: Option<Kind>,
    exploration: f64,
    /// The weight of the minimax value against the mean in selection
    /// (hybrid search).
    mix: f64,
    /// Leaves are judged by the leaf judge and values backed up by
    /// minimax as well as by mean (the MCTS–minimax hybrid), rather than
    /// played out at random.
    hybrid: bool,
    /// The keys of the game's positions since its last irreversible turn,
    /// the root's last.
    history: Vec<u64>,
}

/// One thread's working state: its randomness and the iteration it is
/// walking.
pub struct Walker {
    rng: ChaCha8Rng,
    cap: u32,
    policy: Policy,
    /// The root, its drawn tile and its history, copied so that a
    /// descent starts without reading the tree's.
    root: Position,
    pending: Option<Kind>,
    history: Vec<u64>,
    /// The position of the current iteration.
    pos: Position,
    /// The nodes of the current descent, root first.
    path: Vec<usize>,
    /// The actions of the node being opened: a buffer kept from one
    /// iteration to the next, large as a move list is.
    actions: Box<Actions>,
    /// The tree's history and then the keys of the current descent.
    keys: Vec<u64>,
    /// Turns played in playouts not yet counted in the search's total.
    plies: u64,
    /// The judge of new leaves, when they are searched, not played out.
    judge: Option<LeafJudge>,
    /// The outcomes of a draw being opened, judged: a buffer.
    outcomes: Vec<Outcomes>,
    /// What a draw is worth, as the tree counts it.
    draw: DrawValue,
}

/// A kind a draw can bring, as judged when the draw is opened: how many
/// of the pile's tiles are of the kind, the drawer's value of holding it,
/// and whether the game ends there (no square for it).
type Outcomes = (Kind, u8, f32, Status);

impl Walker {
    /// A walker for `tree` drawing its randomness from `seed`.
    pub fn new(tree: &Tree, params: &Params, seed: u64) -> Walker {
        Walker {
            rng: ChaCha8Rng::seed_from_u64(seed),
            cap: params.playout_cap,
            policy: params.policy,
            root: tree.root.clone(),
            pending: tree.pending,
            history: tree.history.clone(),
            pos: tree.root.clone(),
            path: Vec::with_capacity(64),
            actions: Box::new(Actions::new()),
            keys: Vec::new(),
            plies: 0,
            judge: (params.leaf_depth >= 0).then(|| leaf_judge(params, tree.root.side_to_move())),
            outcomes: Vec::new(),
            draw: tree.draw,
        }
    }

    /// Puts the walker back at the root for the next descent.
    fn reset(&mut self) {
        self.pos.clone_from(&self.root);
        self.keys.clone_from(&self.history);
    }

    /// One iteration: descend, expand, play out, back up. Returns true
    /// when the root's result is proven.
    pub fn iterate(&mut self, tree: &Tree) -> bool {
        self.reset();
        let outcome = match self.descend(tree) {
            Leaf::Ended(outcome) => outcome,
            Leaf::PlayOut(pending) => self.play_out(pending),
        };
        tree.back_up(&self.path, outcome)
    }

    /// The leaf where a descent ends without opening node `n`: in the
    /// hybrid search, the node's value; otherwise a playout from it.
    fn leaf(&self, tree: &Tree, n: usize, pending: Option<Kind>) -> Leaf {
        if tree.hybrid {
            Leaf::Ended(tree.nodes[n].outcome(tree.draw))
        } else {
            Leaf::PlayOut(pending)
        }
    }

    /// Walks from the root (where the walker must stand) to a node never
    /// visited (or the end of the game, or a leaf of a full tree), leaving
    /// the walker's position there.
    ///
    /// Each node is counted as visited when it is entered: until the
    /// result is backed up that visit is a virtual loss, which steers the
    /// other threads to other lines. A node is opened by the one thread
    /// that claims it; to the others it is a leaf until its children are
    /// published.
    fn descend(&mut self, tree: &Tree) -> Leaf {
        self.path.clear();
        self.path.push(0);
        let hybrid = tree.hybrid;
        let mut pending = self.pending;
        let mut n = 0;
        let mut first_visit = false;
        tree.nodes[0].enter();
        loop {
            let node = &tree.nodes[n];
            // A proven node needs no search: its result is backed up. The
            // root goes on while a quicker win may be found.
            if n != 0 && node.proof() != Proof::Unknown {
                return Leaf::Ended(node.outcome(tree.draw));
            }
            // A node reached for the first time: with playouts, play out
            // from here; it is opened when it is passed through. The
            // hybrid search opens it at once, its value the best of its
            // children's.
            if first_visit && !hybrid {
                return Leaf::PlayOut(pending);
            }
            if node.first_child.load(Acquire) >= OPENING {
                // Not opened yet, being opened by another thread, or the
                // tree is full.
                if tree.is_full() || !tree.claim(n) {
                    return self.leaf(tree, n, pending);
                }
                self.actions.find(&mut self.pos, pending);
                if let Some(judge) = self.judge.as_mut() {
                    self.actions.judge(&self.pos, &self.keys, judge, self.draw);
                }
                let opened = tree.open(n, &self.actions);
                if hybrid {
                    tree.update(n);
                    return Leaf::Ended(node.outcome(tree.draw));
                }
                if !opened {
                    return Leaf::PlayOut(pending);
                }
            }
            let child = if hybrid {
                tree.select_by_value(n)
            } else {
                tree.select(n, &mut self.rng)
            };
            let entered = &tree.nodes[child];
            let visits = entered.enter();
            self.path.push(child);
            let status = match entered.edge() {
                Edge::Play(mv) => {
                    pending = None;
                    let known = entered.status();
                    self.pos.make(mv);
                    let repeats = self.repeats_for_the_third_time();
                    let status = match known {
                        Status::Unknown if repeats => Status::Over(None),
                        Status::Unknown => match self.pos.ending() {
                            Some(end) => Status::Over(end.winner),
                            None => Status::Ongoing,
                        },
                        known => known,
                    };
                    entered.settle(status, tree.draw);
                    n = child;
                    first_visit = visits == 0;
                    status
                }
                Edge::Draw => {
                    if entered.first_child.load(Acquire) >= OPENING {
                        if !hybrid {
                            tree.open_chance(child, &self.pos);
                        } else if tree.claim(child) {
                            // The draw's first visit: judge each kind it
                            // can bring, and back up their mean.
                            self.judge_outcomes();
                            tree.open_judged_chance(child, &self.outcomes);
                            tree.update(child);
                            return Leaf::Ended(entered.outcome(tree.draw));
                        } else {
                            // Another thread is judging it.
                            return Leaf::Ended(entered.outcome(tree.draw));
                        }
                    }
                    let pile = self.pos.pile(self.pos.side_to_move());
                    let kind = pile.nth(self.rng.gen_range(0..pile.len()));
                    pending = Some(kind);
                    let Some(drawn) = tree
                        .children(child)
                        .find(|&c| tree.nodes[c].edge() == Edge::Drawn(kind))
                    else {
                        // The tree is full, or another thread is opening
                        // the draw: judge it as it stands.
                        return self.leaf(tree, child, pending);
                    };
                    let outcome = &tree.nodes[drawn];
                    let visits = outcome.enter();
                    self.path.push(drawn);
                    n = drawn;
                    first_visit = visits == 0;
                    if outcome.status() == Status::Unknown {
                        let status = match self.pos.ending_after_draw(kind) {
                            Some(end) => Status::Over(end.winner),
                            None => Status::Ongoing,
                        };
                        outcome.settle(status, tree.draw);
                    }
                    outcome.status()
                }
                // The children of a decision node are all decisions.
                Edge::Root | Edge::Drawn(_) => return self.leaf(tree, n, pending),
            };
            if let Status::Over(winner) = status {
                return Leaf::Ended(Outcome::of(winner, self.draw));
            }
        }
    }

    /// Judges each kind the side to move can draw, into `outcomes`.
    fn judge_outcomes(&mut self) {
        self.outcomes.clear();
        if let Some(judge) = self.judge.as_mut() {
            judge_outcomes(&self.pos, judge, self.draw, &mut self.outcomes);
        }
    }

    /// A random game from the walker's position, the drawn tile of
    /// `pending` kind placed first at random.
    fn play_out(&mut self, pending: Option<Kind>) -> Outcome {
        if let Some(judge) = self.judge.as_mut() {
            let score = judge.judge(&self.pos, pending);
            let us = expected_result(score);
            return Outcome {
                white: match self.pos.side_to_move() {
                    Colour::White => us,
                    Colour::Black => 1.0 - us,
                },
                draw: 0.0,
            };
        }
        let pos = &mut self.pos;
        if let Some(kind) = pending {
            let placements = pos.legal_placements(kind);
            if placements.is_empty() {
                return Outcome::of(pos.ending_when_stuck(kind).winner, self.draw);
            }
            let to = placements[self.rng.gen_range(0..placements.len())].to();
            pos.make(Move::Place {
                piece: Piece::new(pos.side_to_move(), kind),
                to,
            });
            self.plies += 1;
        }
        let playout = playout(pos, &mut self.rng, self.cap, self.policy);
        self.plies += playout.plies as u64;
        match playout.end {
            Some(end) => Outcome::of(end.winner, self.draw),
            None => Outcome {
                white: win_probability(pos, Colour::White),
                draw: 0.0,
            },
        }
    }

    /// Records the walker's position, just reached in the descent, and
    /// tells whether it has now occurred three times. Only positions since
    /// the last irreversible turn can match.
    fn repeats_for_the_third_time(&mut self) -> bool {
        let third = occurs_for_the_third_time(&self.keys, &self.pos);
        self.keys.push(self.pos.hash());
        third
    }
}

/// Judges each kind the side to move of `pos` can draw, into `out`: its
/// count in the pile, the drawer's value of holding it (the best
/// placement, searched by `judge`), and whether the game ends there.
fn judge_outcomes(pos: &Position, judge: &mut LeafJudge, draw: DrawValue, out: &mut Vec<Outcomes>) {
    out.clear();
    let us = pos.side_to_move();
    let pile = pos.pile(us);
    judge.set_position(pos);
    for kind in pile.kinds() {
        let (status, value) = match pos.ending_after_draw(kind) {
            Some(end) => {
                let status = Status::Over(end.winner);
                let value = Proof::of(end.winner, us).value(draw.for_side(us));
                (status, value.unwrap_or(0.5))
            }
            None => (
                Status::Ongoing,
                expected_result(judge.judge_here(Some(kind))) as f32,
            ),
        };
        out.push((kind, pile.count(kind), value, status));
    }
}

/// True when `pos`, just reached after the positions of `keys`, has
/// occurred twice before. All of `keys` is read: a step of a moved pawn
/// resets the fifty-move count but can be undone by the whole group
/// stepping the same way, and what cannot be undone (a placement, a
/// capture, an unmoved pawn's first step) changes the key.
fn occurs_for_the_third_time(keys: &[u64], pos: &Position) -> bool {
    let key = pos.hash();
    keys.iter().filter(|&&k| k == key).count() >= 2
}

/// Where a descent ended.
enum Leaf {
    /// At a node to play out from, with a drawn tile of this kind waiting
    /// (if any).
    PlayOut(Option<Kind>),
    /// At the end of the game.
    Ended(Outcome),
}

impl Tree {
    /// An empty tree for the side to move of `root` (with a drawn tile of
    /// `pending` kind, if any), holding at most `capacity` nodes.
    pub fn new(
        root: &Position,
        pending: Option<Kind>,
        history: &[u64],
        params: &Params,
        capacity: usize,
    ) -> Tree {
        let capacity = capacity.max(1 + super::MAX_ROOT_ACTIONS);
        let mover = root.side_to_move().opposite();
        let mut tree = Tree {
            nodes: Box::new([]),
            len: AtomicUsize::new(0),
            capacity,
            root: root.clone(),
            pending,
            exploration: if params.leaf_depth >= 0 {
                params.hybrid_exploration
            } else {
                params.exploration
            },
            mix: params.minimax_weight,
            draw: DrawValue::new(root.side_to_move(), params.contempt),
            hybrid: params.leaf_depth >= 0,
            history: history.to_vec(),
        };
        let kept = KEPT_TREE.lock().unwrap_or_else(|p| p.into_inner()).take();
        let mut start = Vec::new();
        if let Some(old) = kept {
            if old.searches_as(&tree) {
                if let Some(n) = old.find(root, pending) {
                    start = old.subtree(n, mover);
                }
            }
            // One array is kept from search to search, never freed before
            // an answer nor faulted in afresh.
            if old.capacity == capacity {
                tree.nodes = old.nodes;
            }
        }
        if tree.nodes.is_empty() {
            tree.nodes = allocate(capacity);
        }
        if start.len() > tree.nodes.len() || start.is_empty() {
            start = vec![NodeData::new(Edge::Root, mover)];
        }
        for (node, data) in tree.nodes.iter().zip(&start) {
            node.store(data);
        }
        tree.len.store(start.len(), Relaxed);
        if tree.nodes[0].first_child.load(Relaxed) == NONE && tree.claim(0) {
            let mut actions = Actions::new();
            let mut pos = root.clone();
            actions.find(&mut pos, pending);
            if tree.hybrid {
                let mut judge = leaf_judge(params, root.side_to_move());
                actions.judge(&pos, history, &mut judge, tree.draw);
            }
            tree.open(0, &actions);
        }
        tree.update(0);
        tree
    }

    /// True when this tree's values mean what `other`'s would: the same
    /// search, draws worth the same, room for the same nodes.
    fn searches_as(&self, other: &Tree) -> bool {
        self.hybrid == other.hybrid
            && self.exploration == other.exploration
            && self.mix == other.mix
            && self.draw == other.draw
            && self.capacity == other.capacity
    }

    /// The node whose position is `target` (with a drawn tile of
    /// `pending` kind, if any), one or two turns below the root along
    /// visited nodes: where the game now stands, if this tree searched
    /// the position the game stood at a move ago.
    fn find(&self, target: &Position, pending: Option<Kind>) -> Option<usize> {
        let mut pos = self.root.clone();
        self.find_below(0, &mut pos, self.pending, 0, target, pending)
    }

    fn find_below(
        &self,
        n: usize,
        pos: &mut Position,
        drawn: Option<Kind>,
        turns: u32,
        target: &Position,
        pending: Option<Kind>,
    ) -> Option<usize> {
        let decision = !matches!(self.nodes[n].edge(), Edge::Draw);
        if turns > 0 && decision && drawn == pending && pos.hash() == target.hash() && pos == target
        {
            return Some(n);
        }
        for c in self.children(n) {
            let child = &self.nodes[c];
            if child.visits() == 0 {
                continue;
            }
            let found = match child.edge() {
                Edge::Play(mv) if turns < 2 => {
                    let undo = pos.make(mv);
                    let found = self.find_below(c, pos, None, turns + 1, target, pending);
                    pos.unmake(mv, undo);
                    found
                }
                Edge::Draw => self.find_below(c, pos, None, turns, target, pending),
                Edge::Drawn(kind) => self.find_below(c, pos, Some(kind), turns, target, pending),
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// A copy of the subtree under node `n`, `n` first as the root (the
    /// edge into it chosen by `mover`), each node's children together.
    fn subtree(&self, n: usize, mover: Colour) -> Vec<NodeData> {
        let mut nodes = vec![NodeData {
            edge: Edge::Root,
            mover,
            ..self.nodes[n].load()
        }];
        let mut queue = std::collections::VecDeque::from([(0, n)]);
        while let Some((new, old)) = queue.pop_front() {
            let range = self.children(old);
            nodes[new].first_child = if range.is_empty() {
                NONE
            } else {
                nodes.len() as u32
            };
            for c in range {
                queue.push_back((nodes.len(), c));
                nodes.push(self.nodes[c].load());
            }
        }
        nodes
    }

    /// Claims node `n`, not yet opened, for the calling thread to open:
    /// false if another thread has claimed or opened it.
    fn claim(&self, n: usize) -> bool {
        self.nodes[n]
            .first_child
            .compare_exchange(NONE, OPENING, Acquire, Relaxed)
            .is_ok()
    }

    /// Takes `count` unused nodes together: the index of the first, or
    /// `None` when the tree has no room.
    fn allocate(&self, count: usize) -> Option<usize> {
        let mut len = self.len.load(Relaxed);
        loop {
            if count == 0 || len + count > self.nodes.len() {
                return None;
            }
            match self
                .len
                .compare_exchange_weak(len, len + count, Relaxed, Relaxed)
            {
                Ok(_) => return Some(len),
                Err(now) => len = now,
            }
        }
    }

    /// Makes the `count` nodes from `first`, written by the thread that
    /// claimed node `n`, its children, for every thread to see.
    fn publish(&self, n: usize, first: usize, count: usize) {
        let node = &self.nodes[n];
        node.children.store(count as u16, Relaxed);
        node.first_child.store(first as u32, Release);
    }

    /// Creates the children of decision node `n`, claimed by the caller,
    /// the actions of a position found by [`Actions::find`]. Without room
    /// for them (or without actions) the node is left unopened. Returns
    /// true when the children were created.
    fn open(&self, n: usize, actions: &Actions) -> bool {
        let count = actions.moves.len() + usize::from(actions.draw);
        let Some(first) = self.allocate(count) else {
            self.nodes[n].first_child.store(NONE, Release);
            return false;
        };
        let us = actions.side;
        let edges = actions
            .moves
            .iter()
            .map(|&mv| Edge::Play(mv))
            .chain(actions.draw.then_some(Edge::Draw));
        for (i, edge) in edges.enumerate() {
            self.nodes[first + i].store(&NodeData::new(edge, us));
        }
        if actions.values.len() == count {
            for (i, (&value, &status)) in actions.values.iter().zip(&actions.statuses).enumerate() {
                let child = &self.nodes[first + i];
                child.set_minimax(value);
                child.settle(status, self.draw);
            }
        }
        self.publish(n, first, count);
        true
    }

    /// True when no node can be added.
    fn is_full(&self) -> bool {
        self.len.load(Relaxed) >= self.nodes.len()
    }

    /// Creates the chance children of draw node `n`: one per kind in the
    /// pile of the side to move, unless the tree is full or another thread
    /// is opening the node.
    fn open_chance(&self, n: usize, pos: &Position) {
        let us = pos.side_to_move();
        let pile = pos.pile(us);
        if !self.claim(n) {
            return;
        }
        let count = pile.kinds().count();
        let Some(first) = self.allocate(count) else {
            self.nodes[n].first_child.store(NONE, Release);
            return;
        };
        for (i, kind) in pile.kinds().enumerate() {
            self.nodes[first + i].store(&NodeData {
                weight: pile.count(kind),
                ..NodeData::new(Edge::Drawn(kind), us)
            });
        }
        self.publish(n, first, count);
    }

    /// Creates the chance children of draw node `n`, claimed by the
    /// caller, from the judged `outcomes` of the draw, unless the tree is
    /// full.
    fn open_judged_chance(&self, n: usize, outcomes: &[Outcomes]) {
        let Some(first) = self.allocate(outcomes.len()) else {
            self.nodes[n].first_child.store(NONE, Release);
            return;
        };
        let us = self.nodes[n].mover();
        for (i, &(kind, weight, value, status)) in outcomes.iter().enumerate() {
            let node = &self.nodes[first + i];
            node.store(&NodeData {
                weight,
                minimax: value,
                ..NodeData::new(Edge::Drawn(kind), us)
            });
            node.settle(status, self.draw);
        }
        self.publish(n, first, outcomes.len());
    }

    /// Recomputes the minimax value and the proof of node `n` from its
    /// children, if it has any: at a chance node their mean weighted by
    /// the pile, proven only when every kind is proven the same; at a
    /// decision node the best for the side choosing there (the mover of
    /// the children: after a draw the drawer places, so the same side),
    /// won when one child is won, otherwise proven only when every child
    /// is. Returns true when the value or the proof changed.
    ///
    /// Threads may update a node at once, and one may write a value
    /// computed from children another has since changed; the next
    /// iteration through the node mends it.
    fn update(&self, n: usize) -> bool {
        let range = self.children(n);
        if range.is_empty() {
            return false;
        }
        let node = &self.nodes[n];
        let before = (node.minimax(), node.proof.load(Relaxed));
        let mover = node.mover();
        let turns = |c: usize| self.turns_through(c);
        // The longest line is the one the loser, or chance, can force.
        let longest = || self.children(n).map(turns).max().unwrap_or(0);
        let (value, proof, proof_turns) = if node.edge() == Edge::Draw {
            let (mut sum, mut total) = (0.0f32, 0.0f32);
            let mut proof = Some(self.nodes[range.start].proof());
            for c in range {
                let child = &self.nodes[c];
                let w = child.weight().max(1) as f32;
                sum += w * child.minimax();
                total += w;
                if proof != Some(child.proof()) {
                    proof = None;
                }
            }
            match proof {
                Some(proof) if proof != Proof::Unknown => (sum / total, proof, longest()),
                _ => (sum / total, Proof::Unknown, 0),
            }
        } else {
            let chooser = self.nodes[range.start].mover();
            let mut best = f32::NEG_INFINITY;
            let mut quickest_win = None;
            let mut all_proven = true;
            let mut best_proof = Proof::Loss;
            for c in range {
                let child = &self.nodes[c];
                best = best.max(child.minimax());
                match child.proof() {
                    Proof::Win => {
                        let t = turns(c);
                        quickest_win = Some(quickest_win.map_or(t, |q: u8| q.min(t)));
                    }
                    Proof::Unknown => all_proven = false,
                    p => best_proof = best_proof.max(p),
                }
            }
            let (proof, proof_turns) = match quickest_win {
                Some(t) => (Proof::Win, t),
                None if all_proven => (best_proof, longest()),
                None => (Proof::Unknown, 0),
            };
            if chooser != mover {
                (1.0 - best, proof.flip(), proof_turns)
            } else {
                (best, proof, proof_turns)
            }
        };
        node.set_minimax(value);
        let code = proof_code(proof, proof_turns);
        node.proof.store(code, Relaxed);
        (value, code) != before
    }

    /// The child of decision node `n` to descend into in the hybrid
    /// search: the best by `(1 − α)·mean + α·minimax` plus UCB1's
    /// exploration term with availability counts. An unvisited child
    /// counts as visited once, with its judged value as its mean, so that
    /// the children are tried in the order of their values (first-play
    /// urgency); a child proven lost is never chosen while another is
    /// not, nor, at a root already proven, any proven child.
    fn select_by_value(&self, n: usize) -> usize {
        let range = self.children(n);
        let avail = self.nodes[n].selections.fetch_add(1, Relaxed) + 1;
        let log_avail = (avail as f64).ln();
        let (c, mix) = (self.exploration, self.mix);
        // A root already proven won looks for a quicker win among the
        // actions not proven yet.
        let proven_root = n == 0 && self.nodes[0].proof() != Proof::Unknown;
        let mut best = (range.start, f64::NEG_INFINITY);
        for i in range {
            let node = &self.nodes[i];
            let proof = node.proof();
            let score = if proof == Proof::Loss || (proven_root && proof != Proof::Unknown) {
                -1.0
            } else {
                let minimax = node.minimax() as f64;
                let visits = node.visits();
                let (mean, visits) = if visits == 0 {
                    (minimax, 1.0)
                } else {
                    (node.mean(), visits as f64)
                };
                (1.0 - mix) * mean + mix * minimax + c * (log_avail / visits).sqrt()
            };
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// The children of node `n`: none while it is not opened.
    fn children(&self, n: usize) -> std::ops::Range<usize> {
        let node = &self.nodes[n];
        let first = node.first_child.load(Acquire);
        if first >= OPENING {
            return 0..0;
        }
        let first = first as usize;
        first..first + node.children.load(Relaxed) as usize
    }

    /// The child of decision node `n` to descend into: an unvisited one
    /// at random, else the best by UCB1 with availability counts.
    fn select(&self, n: usize, rng: &mut ChaCha8Rng) -> usize {
        let range = self.children(n);
        let avail = self.nodes[n].selections.fetch_add(1, Relaxed) + 1;
        let unvisited = range
            .clone()
            .filter(|&c| self.nodes[c].visits() == 0)
            .count();
        if unvisited > 0 {
            let mut k = rng.gen_range(0..unvisited);
            for c in range.clone() {
                if self.nodes[c].visits() == 0 {
                    if k == 0 {
                        return c;
                    }
                    k -= 1;
                }
            }
        }
        let log_avail = (avail as f64).ln();
        let c = self.exploration;
        let mut best = (range.start, f64::NEG_INFINITY);
        for i in range {
            let node = &self.nodes[i];
            let score = node.mean() + c * (log_avail / node.visits() as f64).sqrt();
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// Adds `outcome` to the nodes of `path`, whose visits the descent
    /// has already counted, and in the hybrid search backs their minimax
    /// values and proofs up from the leaf. Returns true when the search
    /// has nothing left to learn ([`Tree::is_solved`]).
    fn back_up(&self, path: &[usize], outcome: Outcome) -> bool {
        // The root's own sum is never read, and every thread would write
        // it: it is left out.
        for &i in &path[1..] {
            self.nodes[i].add(outcome);
        }
        if self.hybrid {
            // A node's value and proof follow from its children's alone:
            // once one stays as it was, so do all above it. The leaf was
            // brought up to date when the descent ended there.
            for &i in path.iter().rev().skip(1) {
                if !self.update(i) {
                    break;
                }
            }
        }
        self.is_solved()
    }

    /// The length of child `c`'s proof from its parent: a turn more when
    /// its edge ends one (a step or a placement, not a draw or the kind
    /// that came).
    fn turns_through(&self, c: usize) -> u8 {
        let child = &self.nodes[c];
        child.proof_turns().saturating_add(child.edge().turns())
    }

    /// Takes the mate prover's proof of root action `mate.action` as the
    /// solver's own: the child is won, `mate.turns` from the root, and the
    /// root with it. The search never descends into a proven child, so
    /// the proof stands until the tree is dropped.
    fn hold_mate(&self, mate: Mate) {
        let Some(c) = self
            .children(0)
            .find(|&c| self.nodes[c].edge().action() == Some(mate.action))
        else {
            return;
        };
        let child = &self.nodes[c];
        let turns = mate.turns.saturating_sub(child.edge().turns());
        child.proof.store(proof_code(Proof::Win, turns), Relaxed);
        child.set_minimax(1.0);
        self.update(0);
    }

    /// Whether no search can improve the answer: the side to move wins
    /// this turn, or every root action is proven. A slower win goes on
    /// searching for a quicker one.
    fn is_solved(&self) -> bool {
        // Either way the root is proven; most iterations stop here.
        if self.nodes[0].proof() == Proof::Unknown {
            return false;
        }
        let mut all_proven = true;
        for c in self.children(0) {
            match self.nodes[c].proof() {
                Proof::Win if self.turns_through(c) <= 1 => return true,
                Proof::Unknown => all_proven = false,
                _ => {}
            }
        }
        all_proven && !self.children(0).is_empty()
    }

    /// How a root child ranks before its visits count: a proven win for
    /// the side to move first, the quickest first; a proven loss last,
    /// the slowest first.
    fn rank(&self, c: usize) -> u8 {
        let turns = self.turns_through(c).min(Proof::MAX_TURNS);
        match self.nodes[c].proof() {
            Proof::Win => 2 * (Proof::MAX_TURNS + 1) + (Proof::MAX_TURNS - turns),
            Proof::Loss => turns,
            _ => Proof::MAX_TURNS + 1,
        }
    }

    /// The most and second most visits among the root's children.
    fn top_two(&self) -> (u64, u64) {
        let mut top = (0, 0);
        for c in self.children(0) {
            let v = self.nodes[c].visits() as u64;
            if v > top.0 {
                top = (v, top.0);
            } else if v > top.1 {
                top.1 = v;
            }
        }
        top
    }

    /// The statistics of the root's children.
    fn root_stats(&self) -> Vec<ActionStats> {
        self.children(0)
            .filter_map(|c| {
                let node = self.nodes[c].load();
                let visits = node.visits as f64;
                let draw = self.draw.for_side(node.mover) as f64;
                let wins = node.value - draw * node.draws;
                // The proof and its length from the one load, so that a
                // thread proving the child meanwhile cannot pair one
                // proof with another's length. Counted from the root,
                // the root action's own turn included (a step that mates
                // is 1): what `Proven` asks.
                let turns = node.proof_turns.saturating_add(node.edge.turns());
                Some(ActionStats {
                    action: node.edge.action()?,
                    visits: node.visits as u64,
                    wins,
                    draws: node.draws,
                    losses: (visits - wins - node.draws).max(0.0),
                    pv: self.principal_variation(c),
                    proven: node.proof.proven(turns),
                })
            })
            .collect()
    }

    /// The most visited line below node `n`: after a draw, the most
    /// visited kind's most visited placement.
    fn principal_variation(&self, n: usize) -> Vec<Action> {
        let mut pv = Vec::new();
        let mut n = n;
        loop {
            let best = self
                .children(n)
                .filter(|&c| self.nodes[c].visits() > 0)
                .max_by_key(|&c| self.nodes[c].visits());
            let Some(c) = best else { break };
            pv.extend(self.nodes[c].edge().action());
            n = c;
            if pv.len() >= 16 {
                break;
            }
        }
        pv
    }

    /// Nodes in use.
    pub fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// True for a tree of the root alone.
    pub fn is_empty(&self) -> bool {
        self.len() <= 1
    }
}

/// Room for `capacity` nodes, zeroed so that the memory is faulted in
/// only as the tree grows; half as much, and so on, when the system will
/// not give that much.
fn allocate(capacity: usize) -> Box<[Node]> {
    let mut size = capacity;
    loop {
        match bytemuck::allocation::try_zeroed_slice_box(size) {
            Ok(nodes) => return nodes,
            Err(()) if size > 1 + super::MAX_ROOT_ACTIONS => size /= 2,
            // Out of memory for even the root's children.
            Err(()) => return bytemuck::allocation::zeroed_slice_box(size),
        }
    }
}

/// The choices at a decision node.
struct Actions {
    side: Colour,
    moves: MoveList,
    draw: bool,
    /// In the hybrid search, each action's value for `side` (the moves',
    /// then the draw's) and whether the game ends with it.
    values: Vec<f32>,
    statuses: Vec<Status>,
}

impl Actions {
    fn new() -> Actions {
        Actions {
            side: Colour::White,
            moves: MoveList::new(),
            draw: false,
            values: Vec::new(),
            statuses: Vec::new(),
        }
    }

    /// Judges each action found by [`Actions::find`] in `pos` (reached
    /// after the positions of `keys`) for the side choosing it: a move by
    /// the leaf judge's score of the position after it, or exactly when
    /// the game ends with it; "draw", until its kinds are judged, by the
    /// judge's score of drawing as the position stands.
    fn judge(&mut self, pos: &Position, keys: &[u64], judge: &mut LeafJudge, draw: DrawValue) {
        self.values.clear();
        self.statuses.clear();
        let us = self.side;
        judge.set_position(pos);
        for &mv in self.moves.iter() {
            let after = judge.position_mut();
            let undo = after.make(mv);
            let status = if occurs_for_the_third_time(keys, after) {
                Status::Over(None)
            } else {
                match after.ending() {
                    Some(end) => Status::Over(end.winner),
                    None => Status::Ongoing,
                }
            };
            let value = match status {
                Status::Over(winner) => Proof::of(winner, us)
                    .value(draw.for_side(us))
                    .unwrap_or(0.5),
                _ => 1.0 - expected_result(judge.judge_here(None)) as f32,
            };
            judge.position_mut().unmake(mv, undo);
            self.values.push(value);
            self.statuses.push(status);
        }
        if self.draw {
            self.values
                .push(expected_result(judge.judge_draw_here()) as f32);
            self.statuses.push(Status::Unknown);
        }
    }

    /// Becomes the actions of the side to move of `pos`, with a drawn
    /// tile of `pending` kind (if any): its placements, or its piece moves
    /// and "draw" while its pile is not empty.
    fn find(&mut self, pos: &mut Position, pending: Option<Kind>) {
        self.moves.clear();
        match pending {
            Some(kind) => pos.generate_placements(kind, &mut self.moves),
            None => pos.generate_steps(&mut self.moves),
        }
        self.side = pos.side_to_move();
        self.draw = pending.is_none() && !pos.pile(self.side).is_empty();
        self.values.clear();
        self.statuses.clear();
    }
}

/// The leaf judge of a search by `engine`: its draws, and the stranded
/// kings it shrinks towards them, weigh what the tree's draws do.
fn leaf_judge(params: &Params, engine: Colour) -> LeafJudge {
    LeafJudge::with_contempt(params.leaf_depth, engine, params.contempt)
}

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

/// The tree of the last search, kept for the next (tree reuse, as in
/// Lc0): when the game has gone on by a turn or two along visited nodes,
/// the next search starts from that subtree. Its node array is the next
/// tree's in any case: a search that frees its tree before answering, or
/// faults in a new one, spends that time past its deadline when the
/// machine is busy.
static KEPT_TREE: Mutex<Option<Tree>> = Mutex::new(None);

/// The worker pool of the last search, kept for the next one of as many
/// threads: starting threads for every `go` is time taken from the move.
static POOL: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// A pool of `threads` workers, or `None` if none could be made.
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    let mut kept = POOL.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((n, pool)) = kept.as_ref() {
        if *n == threads {
            return Some(Arc::clone(pool));
        }
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?,
    );
    *kept = Some((threads, Arc::clone(&pool)));
    Some(pool)
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
    let mut cadence = Cadence::new(shared.asked);
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
                shared.plies.fetch_add(walker.plies, Ordering::Relaxed);
                walker.plies = 0;
                report(&snapshot(shared, clock));
            }
        }
    }
    shared.plies.fetch_add(walker.plies, Ordering::Relaxed);
    walker.plies = 0;
}

/// The report of the tree: the most visited actions first, ties in the
/// order of the root's actions so that the answer is reproducible.
fn snapshot(shared: &Shared, clock: &Clock) -> Report {
    let (mut actions, ranks) = {
        let tree = &shared.tree;
        let ranks: Vec<u8> = tree.children(0).map(|c| tree.rank(c)).collect();
        (tree.root_stats(), ranks)
    };
    let nodes = actions.iter().map(|a| a.visits).sum();
    // A proven win first, a proven loss last, else by visits.
    let mut ranked: Vec<(u8, ActionStats)> = ranks.into_iter().zip(actions.drain(..)).collect();
    ranked.sort_by_key(|(rank, a)| std::cmp::Reverse((*rank, a.visits)));
    let actions: Vec<ActionStats> = ranked.into_iter().map(|(_, a)| a).collect();
    Report {
        actions,
        nodes,
        plies: shared.plies.load(Ordering::Relaxed),
        elapsed: clock.elapsed(),
    }
}

/// Searches the side to move of the request's position (the caller has
/// checked that it has at least one action) and returns the most visited
/// root action.
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
    let threads = params.threads.max(1);
    let clock = request.clock();
    let seed = if params.seed == 0 {
        rand::random()
    } else {
        params.seed
    };
    let capacity = params.hash_mib.saturating_mul(1 << 20) / NODE_BYTES;
    let tree = Tree::new(pos, pending, history, params, capacity);
    let mut walkers: Vec<Walker> = (0..threads)
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
    if let Some(mate) = mate::quickest_mate(pos, pending, history, MATE_TURNS, MATE_NODES, deadline)
    {
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
    // The calling thread walks and reports; a pool of the other threads
    // walks beside it. Without a pool (one thread, or none could be made)
    // the calling thread walks alone.
    let pool = (threads > 1).then(|| pool(threads - 1)).flatten();
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
    let last = snapshot(&shared, &clock);
    report(&last);
    *KEPT_TREE.lock().unwrap_or_else(|p| p.into_inner()) = Some(shared.tree);
    last.actions.first().map(|s| s.action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    fn params() -> Params {
        Params {
            threads: 1,
            seed: 1,
            multipv: 1,
            exploration: 1.4,
            playout_cap: 30,
            move_overhead: 0,
            player: super::super::Player::Ismcts,
            hash_mib: 1,
            policy: Policy::Uniform,
            leaf_depth: -1,
            minimax_weight: 0.5,
            hybrid_exploration: 0.1,
            contempt: 0,
        }
    }

    /// Runs `iterations` iterations of a walker seeded with `seed` on
    /// `tree`.
    fn run(tree: Tree, seed: u64, iterations: usize) -> Tree {
        let mut walker = Walker::new(&tree, &params(), seed);
        for _ in 0..iterations {
            walker.iterate(&tree);
        }
        tree
    }

    #[test]
    fn a_full_tree_stops_growing_but_keeps_counting() {
        let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
            .parse()
            .unwrap();
        let capacity = 3000;
        let tree = run(Tree::new(&pos, None, &[], &params(), capacity), 7, 5000);
        assert!(
            tree.len() <= capacity && tree.len() > capacity - 200,
            "{}",
            tree.len()
        );
        let visits: u64 = tree.root_stats().iter().map(|s| s.visits).sum();
        assert_eq!(visits, 5000);
        assert_eq!(tree.nodes[0].load().visits, 5000);
    }

    #[test]
    fn an_identity_survives_its_packing() {
        let far = Square::new(-1_000_000_000, 999_999_999);
        let edges = [
            Edge::Root,
            Edge::Draw,
            Edge::Drawn(Kind::Knight),
            Edge::Play(Move::Place {
                piece: Piece::new(Colour::Black, Kind::Queen),
                to: far,
            }),
            Edge::Play(Move::Step {
                from: far,
                to: Square::new(7, -3),
            }),
        ];
        for edge in edges {
            for (mover, weight) in [(Colour::White, 0), (Colour::Black, 255)] {
                let node: Node = bytemuck::Zeroable::zeroed();
                let data = NodeData {
                    weight,
                    visits: 9,
                    value: 2.5,
                    status: Status::Over(Some(Colour::Black)),
                    proof: Proof::Draw,
                    ..NodeData::new(edge, mover)
                };
                node.store(&data);
                assert_eq!(node.load(), data);
                assert_eq!(node.edge(), edge);
            }
        }
    }

    #[test]
    fn threads_share_one_tree_without_losing_a_visit_or_a_node() {
        let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
            .parse()
            .unwrap();
        for p in [params(), hybrid()] {
            let tree = Tree::new(&pos, None, &[], &p, 20_000);
            std::thread::scope(|scope| {
                for seed in 0..4 {
                    let mut walker = Walker::new(&tree, &p, seed);
                    let tree = &tree;
                    scope.spawn(move || {
                        for _ in 0..3000 {
                            walker.iterate(tree);
                        }
                    });
                }
            });
            let root = tree.nodes[0].load();
            assert_eq!(root.visits, 12_000);
            let children: u32 = tree.children(0).map(|c| tree.nodes[c].visits()).sum();
            assert_eq!(children, 12_000);
            // Every node in use hangs from the root, once; none is left
            // claimed.
            let mut reached = 1;
            let mut stack = vec![0];
            while let Some(n) = stack.pop() {
                let node = tree.nodes[n].load();
                assert!(node.first_child != OPENING, "node {n} left claimed");
                let below: u32 = tree.children(n).map(|c| tree.nodes[c].visits()).sum();
                assert!(below <= node.visits, "node {n}: {below} below {node:?}");
                reached += tree.children(n).len();
                stack.extend(tree.children(n));
            }
            assert_eq!(reached, tree.len());
            assert!(tree.len() > 1000, "{}", tree.len());
        }
    }

    #[test]
    fn a_move_into_a_third_occurrence_is_a_draw() {
        // The fifty-move count says nothing of repetition: a moved pawn's
        // step resets it, yet the group can step back.
        for clock in [10, 0] {
            a_move_into_a_third_occurrence_is_a_draw_at(clock);
        }
    }

    fn a_move_into_a_third_occurrence_is_a_draw_at(clock: u32) {
        let pos: Position = format!("Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp {clock} 6")
            .parse()
            .unwrap();
        let mv = pos.parse_move("0,0-0,1").unwrap();
        let mut after = pos.clone();
        after.make(mv);
        // The position after the move has occurred twice already.
        let history = [after.hash(), 1, after.hash(), 2, pos.hash()];
        let tree = run(Tree::new(&pos, None, &history, &params(), 100_000), 5, 3000);
        let stats = tree.root_stats();
        let repeat = stats
            .iter()
            .find(|s| s.action == Action::Play(mv))
            .expect("the move is searched");
        assert!(repeat.visits > 0);
        assert_eq!(repeat.draws, repeat.visits as f64, "{repeat:?}");
        // Without the history the same move is an ordinary one.
        let fresh = run(Tree::new(&pos, None, &[], &params(), 100_000), 5, 3000);
        let plain = fresh.root_stats();
        let plain = plain.iter().find(|s| s.action == Action::Play(mv)).unwrap();
        assert!(plain.draws < plain.visits as f64, "{plain:?}");
    }

    #[test]
    fn chance_nodes_follow_the_public_pile() {
        // White's pile holds only rooks and pawns: those are the only
        // kinds a draw can bring, in proportion 2 : 8.
        let pos: Position = "K0,0/n1,1 w RRPPPPPPPP/k 0 2".parse().unwrap();
        let tree = run(Tree::new(&pos, None, &[], &params(), 100_000), 3, 4000);
        let draw = tree
            .children(0)
            .find(|&c| tree.nodes[c].load().edge == Edge::Draw)
            .expect("draw is an action");
        let kinds: Vec<(Edge, u32)> = tree
            .children(draw)
            .map(|c| (tree.nodes[c].load().edge, tree.nodes[c].load().visits))
            .collect();
        assert_eq!(kinds.len(), 2);
        let rooks = kinds[0].1 as f64;
        let total = tree.nodes[draw].load().visits as f64;
        assert_eq!(kinds[0].0, Edge::Drawn(Kind::Rook));
        assert_eq!(kinds[1].0, Edge::Drawn(Kind::Pawn));
        assert_eq!(kinds[0].1 + kinds[1].1, tree.nodes[draw].load().visits);
        // Within five standard deviations of a fifth.
        let sd = (total * 0.2 * 0.8).sqrt();
        assert!((rooks - 0.2 * total).abs() < 5.0 * sd, "{kinds:?}");
    }
    fn hybrid() -> Params {
        Params {
            leaf_depth: 0,
            hybrid_exploration: 0.1,
            contempt: 0,
            ..params()
        }
    }

    /// Searches `pos` with the hybrid's parameters, up to 100,000
    /// iterations: the answer and the last report.
    fn search_hybrid(pos: &Position) -> (Option<Action>, Report) {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: Some(100_000),
            ..Limits::default()
        };
        let params = hybrid();
        let mut last = None;
        let choice = search(&Request::new(pos, &limits, &params), &stop, &mut |r| {
            last = Some(r.clone())
        });
        (choice, last.expect("a search reports at least once"))
    }

    /// Runs `iterations` hybrid iterations on a fresh tree of `pos`.
    fn run_hybrid(pos: &Position, pending: Option<Kind>, iterations: usize) -> Tree {
        let p = hybrid();
        let tree = Tree::new(pos, pending, &[], &p, 200_000);
        let mut walker = Walker::new(&tree, &p, 1);
        for _ in 0..iterations {
            if walker.iterate(&tree) {
                break;
            }
        }
        tree
    }

    /// A middle-game position with a single mating move among many
    /// (from tests/search.rs).
    const MATE_IN_ONE: (&str, &str) = (
        "P-2,7/K-1,7/p-2,6/P-2,5/P-3,4/R-3,3/Q-2,3/k-4,2/p-2,2/B-1,2/p-4,1/P-1,1*/R-1,0/r-1,-1/B1,-1/p0,-2*/p2,-2* w -/- 0 56",
        "-2,3--4,1",
    );

    #[test]
    fn the_solver_proves_a_mate_in_one_at_once() {
        let pos: Position = MATE_IN_ONE.0.parse().unwrap();
        let mv = pos.parse_move(MATE_IN_ONE.1).unwrap();
        // Opening the root judges every move: the mate is proven there,
        // and with it the root.
        let tree = run_hybrid(&pos, None, 0);
        let mate = tree
            .children(0)
            .find(|&c| tree.nodes[c].load().edge == Edge::Play(mv))
            .unwrap();
        assert_eq!(tree.nodes[mate].load().proof, Proof::Win);
        assert_eq!(tree.nodes[mate].load().minimax, 1.0);
        // The game is over there; from the root it is one turn away.
        assert_eq!(tree.nodes[mate].load().proof_turns, 0);
        assert_eq!(tree.turns_through(mate), 1);
        assert_eq!(tree.nodes[0].load().proof_turns, 1);
        // The report counts the same way: mate in one.
        let stats = tree.root_stats();
        let reported = stats.iter().find(|s| s.action == Action::Play(mv));
        assert_eq!(reported.unwrap().proven, Some(Proven::Win { turns: 1 }));
        // The root's mover is the side that does not move there.
        assert_eq!(tree.nodes[0].load().proof, Proof::Loss);
        assert_eq!(tree.nodes[0].load().minimax, 0.0);
        // The search stops at once and plays the mate.
        let (choice, last) = search_hybrid(&pos);
        assert_eq!(choice, Some(Action::Play(mv)));
        assert!(last.nodes <= 1, "{last:?}");
    }

    #[test]
    fn minimax_values_back_up_by_max_and_by_the_piles_mean() {
        // White to move, with a pile: its moves and a draw.
        let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
            .parse()
            .unwrap();
        let tree = run_hybrid(&pos, None, 400);
        let mut checked = 0;
        for n in 0..tree.len() {
            let node = tree.nodes[n].load();
            let range = tree.children(n);
            if range.is_empty() || node.proof != Proof::Unknown {
                continue;
            }
            let kids = || range.clone().map(|c| tree.nodes[c].load());
            let expect = if node.edge == Edge::Draw {
                let total: f32 = kids().map(|k| k.weight as f32).sum();
                if tree.children(0).contains(&n) {
                    assert_eq!(total as u32, pos.pile(node.mover).len());
                }
                kids().map(|k| k.weight as f32 * k.minimax).sum::<f32>() / total
            } else {
                let best = kids().map(|k| k.minimax).fold(f32::MIN, f32::max);
                let chooser = tree.nodes[range.start].load().mover;
                // After a draw the drawer places: the same side chooses.
                if let Edge::Drawn(_) = node.edge {
                    assert_eq!(chooser, node.mover);
                }
                if chooser == node.mover {
                    best
                } else {
                    1.0 - best
                }
            };
            assert!((node.minimax - expect).abs() < 1e-5, "node {n}: {node:?}");
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
        // Some draws were opened, and some of their kinds.
        assert!((0..tree.len())
            .map(|n| tree.nodes[n].load())
            .any(|n| matches!(n.edge, Edge::Drawn(_)) && n.first_child != NONE));
    }

    #[test]
    fn a_mate_by_drawing_is_proven_before_the_tree_search() {
        // mate2-001 of the tactics suite: drawing mates in two turns
        // whatever comes, and nothing else does. The tree alone needs
        // every kind's line opened to prove it; the prover hands it the
        // proof, and with a mate that quick known nothing is left to look
        // for.
        let pos: Position =
            "P-1,3/r-1,2/B0,2/K1,2/k-2,1/p0,1*/p2,1*/p-2,0/q-1,0/b-1,-1/N0,-1/n1,-2 b NP/bpp 3 52"
                .parse()
                .unwrap();
        let (choice, last) = search_hybrid(&pos);
        assert_eq!(choice, Some(Action::Draw));
        assert_eq!(
            (last.nodes, last.actions[0].action, last.actions[0].proven),
            (0, Action::Draw, Some(Proven::Win { turns: 3 }))
        );
    }

    #[test]
    fn a_drawn_tile_checkmate_is_proven() {
        // Black, in check, holds only a knight in its pile, and no square
        // for it parries the check (tests/rules.rs): drawing loses.
        let pos: Position = "P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30".parse().unwrap();
        assert!(pos.ending_after_draw(Kind::Knight).is_some());
        let tree = run_hybrid(&pos, None, 50);
        let draw = tree
            .children(0)
            .find(|&c| tree.nodes[c].load().edge == Edge::Draw)
            .unwrap();
        assert_eq!(tree.nodes[draw].load().proof, Proof::Loss);
        let knight = tree.children(draw).next().unwrap();
        assert_eq!(tree.nodes[knight].load().edge, Edge::Drawn(Kind::Knight));
        assert_eq!(tree.nodes[knight].load().proof, Proof::Loss);
        // The game ends on the draw itself, before a turn is played.
        assert_eq!(tree.turns_through(draw), 0);
        let stats = tree.root_stats();
        let reported = stats.iter().find(|s| s.action == Action::Draw);
        assert_eq!(reported.unwrap().proven, Some(Proven::Loss { turns: 0 }));
        // The draw is never chosen again while a move is not lost.
        let others = tree.children(0).filter(|&c| c != draw).count();
        if others > 0 && tree.nodes[0].load().proof == Proof::Unknown {
            assert!(tree.nodes[draw].load().visits <= 1);
        }
    }

    #[test]
    fn a_seeded_hybrid_search_is_reproducible() {
        let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
            .parse()
            .unwrap();
        let a = run_hybrid(&pos, None, 300);
        let b = run_hybrid(&pos, None, 300);
        assert_eq!(a.root_stats(), b.root_stats());
        assert_eq!(a.len(), b.len());
    }

    #[test]
    fn judging_in_place_gives_each_action_its_own_value() {
        // A node's actions, and a draw's kinds, are judged in the judge's
        // own position, stepped through by make and unmake: each must get
        // the value a judge given a copy of the position after it finds.
        use crate::search::playout::{random_turn, Turn};
        let draw = DrawValue::new(Colour::White, 0);
        let mut judge = LeafJudge::new(0);
        let mut fresh = LeafJudge::new(0);
        let mut actions = Actions::new();
        let mut outcomes = Vec::new();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut moves, mut kinds) = (0, 0);
        for _game in 0..6 {
            let mut pos = Position::startpos();
            while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
                pos.make(mv);
                if pos.ending().is_some() {
                    break;
                }
                actions.find(&mut pos, None);
                judge.judge(&Position::startpos(), None);
                actions.judge(&pos, &[], &mut judge, draw);
                for (i, &mv) in actions.moves.iter().enumerate() {
                    let mut after = pos.clone();
                    after.make(mv);
                    if actions.statuses[i] == Status::Ongoing {
                        let value = 1.0 - expected_result(fresh.judge(&after, None)) as f32;
                        assert_eq!(actions.values[i], value, "{pos} {mv}");
                        moves += 1;
                    }
                }
                if actions.draw {
                    let value = expected_result(fresh.judge_draw(&pos)) as f32;
                    assert_eq!(actions.values.last(), Some(&value), "{pos}");
                }
                // Whatever the judge looked at last must not matter.
                judge.judge(&Position::startpos(), None);
                judge_outcomes(&pos, &mut judge, draw, &mut outcomes);
                for &(kind, _, value, status) in &outcomes {
                    if status == Status::Ongoing {
                        let alone = expected_result(fresh.judge(&pos, Some(kind))) as f32;
                        assert_eq!(value, alone, "{pos} {kind:?}");
                        kinds += 1;
                    }
                }
            }
        }
        assert!(moves > 1000 && kinds > 100, "{moves} moves, {kinds} kinds");
    }
}
