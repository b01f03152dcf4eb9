//! One node of the tree as the threads share it: the edge into it, its
//! counts, values and proof, each an atomic, so that no lock guards the
//! tree (as in Lc0 and Fuego). [`NodeData`] is the same node as plain
//! values, for a thread to read or a new node to be written from.

use super::outcome::{DrawValue, Outcome};
use super::proof::{proof_code, Proof};
use crate::rules::{Colour, Kind, Move, Piece, Square};
use crate::search::Action;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8};

/// The edge into a node: what was chosen, or drawn, to reach it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edge {
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
    pub(super) fn turns(self) -> u8 {
        u8::from(matches!(self, Edge::Play(_)))
    }

    /// The decision this edge records; `None` for the root and for chance
    /// outcomes.
    pub(super) fn action(self) -> Option<Action> {
        match self {
            Edge::Play(mv) => Some(Action::Play(mv)),
            Edge::Draw => Some(Action::Draw),
            Edge::Root | Edge::Drawn(_) => None,
        }
    }
}

/// "No node": children not created yet.
pub(super) const NONE: u32 = u32::MAX;

/// Children being created by one thread: to the others the node is still
/// a leaf.
pub(super) const OPENING: u32 = u32::MAX - 1;

/// One node of a tree, as the threads share it: every field atomic, so
/// that no lock guards the tree. Children are contiguous in the tree's
/// array, created by the one thread that claimed their parent and
/// published by its `first_child` (release, read by acquire); the counts
/// and values are updated in place, relaxed, as in Lc0 and Fuego. All
/// zeros is a valid (unused) node, so the array is allocated zeroed and
/// its memory faulted in only as the tree grows.
#[derive(bytemuck::Zeroable)]
pub(super) struct Node {
    /// The edge into the node, its mover and weight ([`Identity`]),
    /// written once, before the node is published.
    pub(super) identity: AtomicU32,
    /// The square the edge's move ends on, packed by [`pack_square`].
    pub(super) to: AtomicU64,
    /// The square a step starts from, packed by [`pack_square`].
    pub(super) from: AtomicU64,
    /// The first child, [`NONE`] or [`OPENING`].
    pub(super) first_child: AtomicU32,
    pub(super) children: AtomicU16,
    /// Iterations through this node.
    pub(super) visits: AtomicU32,
    /// How many times a child of this node was chosen: the availability
    /// count of each child, for siblings are created together and all
    /// counted at each choice.
    pub(super) selections: AtomicU32,
    /// The sum of the results for the mover, an `f64`'s bits.
    pub(super) value: AtomicU64,
    /// The part of `value` that came from draws, an `f64`'s bits.
    pub(super) draws: AtomicU64,
    /// A [`Status`], encoded by [`Status::code`].
    pub(super) status: AtomicU8,
    /// A [`Proof`], encoded by its discriminant, and above it (times 4)
    /// the proof's length in turns.
    pub(super) proof: AtomicU8,
    /// The minimax value, an `f32`'s bits.
    pub(super) minimax: AtomicU32,
}

/// A node's fields as plain values: what a thread reads of a node, and
/// what a new or copied node is written from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct NodeData {
    pub(super) edge: Edge,
    /// The side that chose the edge into this node (for a chance outcome,
    /// the side that drew).
    pub(super) mover: Colour,
    pub(super) first_child: u32,
    pub(super) children: u16,
    /// Iterations through this node.
    pub(super) visits: u32,
    /// Choices of a child of this node: each child's availability count
    /// (the parent's visits while the child existed, in the paper).
    pub(super) selections: u32,
    /// The sum of the results for `mover`: 1 a win, ½ a draw, 0 a loss, a
    /// material judgement in between.
    pub(super) value: f64,
    /// The part of `value` that came from draws, counted whole, for the
    /// win/draw/loss report.
    pub(super) draws: f64,
    /// Whether the game is over here, worked out once.
    pub(super) status: Status,
    /// The heuristic minimax value for `mover`, 0 (lost) to 1 (won): at
    /// first the leaf judge's value of the node, then, once the node is
    /// opened, the best of its children for the side that chooses there
    /// (the pile-weighted mean at a chance node), backed up on every
    /// iteration (implicit minimax backups). Unused with playouts.
    pub(super) minimax: f32,
    /// What is proven of the game here, for `mover` (MCTS-Solver).
    pub(super) proof: Proof,
    /// How many turns the proven result takes to come at most, when the
    /// winner hurries and the loser delays (0 where the game is over).
    pub(super) proof_turns: u8,
    /// For a chance outcome, how many tiles of its kind the pile held.
    pub(super) weight: u8,
}

/// A square as one word: each coordinate fits in 32 bits
/// (`COORD_LIMIT`).
pub(super) fn pack_square(sq: Square) -> u64 {
    u64::from(sq.x as u32) | u64::from(sq.y as u32) << 32
}

pub(super) fn unpack_square(word: u64) -> Square {
    Square::new(word as u32 as i32, (word >> 32) as u32 as i32)
}

/// The edge into a node, its mover and its weight in one word (bits 0–2
/// the edge's sort, 3–6 a kind or piece, 8 the mover, 16–23 the weight);
/// a move's squares go in the node's `to` and `from`.
pub(super) struct Identity;

impl Identity {
    pub(super) const ROOT: u32 = 0;
    pub(super) const PLACE: u32 = 1;
    pub(super) const STEP: u32 = 2;
    pub(super) const DRAW: u32 = 3;
    pub(super) const DRAWN: u32 = 4;

    pub(super) fn pack(edge: Edge, mover: Colour, weight: u8) -> (u32, u64, u64) {
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

    pub(super) fn unpack(word: u32, to: u64, from: u64) -> (Edge, Colour, u8) {
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

/// What is known of the game at a node. A node stands for one public
/// history from the root, so whether the game has ended there (by the
/// position, a third occurrence, or a drawn tile that cannot be placed) is
/// the same on every visit: it is worked out by the first iteration that
/// reaches the node and read by the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// No iteration has reached the node yet.
    Unknown,
    /// The game goes on.
    Ongoing,
    /// The game is over: won by this side, or drawn (`None`).
    Over(Option<Colour>),
}

impl Status {
    pub(super) fn code(self) -> u8 {
        match self {
            Status::Unknown => 0,
            Status::Ongoing => 1,
            Status::Over(None) => 2,
            Status::Over(Some(Colour::White)) => 3,
            Status::Over(Some(Colour::Black)) => 4,
        }
    }

    pub(super) fn from_code(code: u8) -> Status {
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
    pub(super) fn new(edge: Edge, mover: Colour) -> NodeData {
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
pub(super) fn add_f64(cell: &AtomicU64, x: f64) {
    let _ = cell.fetch_update(Relaxed, Relaxed, |bits| {
        Some((f64::from_bits(bits) + x).to_bits())
    });
}

impl Node {
    pub(super) fn load(&self) -> NodeData {
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
    pub(super) fn store(&self, data: &NodeData) {
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

    pub(super) fn edge(&self) -> Edge {
        let word = self.identity.load(Relaxed);
        let (to, from) = match word & 7 {
            Identity::PLACE => (self.to.load(Relaxed), 0),
            Identity::STEP => (self.to.load(Relaxed), self.from.load(Relaxed)),
            _ => (0, 0),
        };
        Identity::unpack(word, to, from).0
    }

    pub(super) fn mover(&self) -> Colour {
        Colour::ALL[(self.identity.load(Relaxed) >> 8 & 1) as usize]
    }

    pub(super) fn weight(&self) -> u8 {
        (self.identity.load(Relaxed) >> 16) as u8
    }

    pub(super) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    pub(super) fn status(&self) -> Status {
        Status::from_code(self.status.load(Relaxed))
    }

    pub(super) fn proof(&self) -> Proof {
        Proof::from_code(self.proof.load(Relaxed))
    }

    pub(super) fn proof_turns(&self) -> u8 {
        self.proof.load(Relaxed) >> 2
    }

    pub(super) fn minimax(&self) -> f32 {
        f32::from_bits(self.minimax.load(Relaxed))
    }

    pub(super) fn set_minimax(&self, value: f32) {
        self.minimax.store(value.to_bits(), Relaxed);
    }

    pub(super) fn mean(&self) -> f64 {
        f64::from_bits(self.value.load(Relaxed)) / self.visits().max(1) as f64
    }

    /// Counts a visit (until its result comes back, a virtual loss) and
    /// returns the visits before it.
    pub(super) fn enter(&self) -> u32 {
        self.visits.fetch_add(1, Relaxed)
    }

    /// Records the node's status; a finished game is proven, its
    /// minimax value exact.
    pub(super) fn settle(&self, status: Status, draw: DrawValue) {
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
    pub(super) fn outcome(&self, draw: DrawValue) -> Outcome {
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
    pub(super) fn add(&self, outcome: Outcome) {
        add_f64(&self.value, outcome.for_side(self.mover()));
        if outcome.draw != 0.0 {
            add_f64(&self.draws, outcome.draw);
        }
    }
}

/// The size of one node in the tree's array, for the `Hash` option.
pub const NODE_BYTES: usize = std::mem::size_of::<Node>();
