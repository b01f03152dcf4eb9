//! Which evaluation a search uses, chosen by the `Evaluation` option: the
//! hand-made one, its richer variant, or a learned net (the shipped one, or another loaded
//! by `EvalFile`). The searchers
//! take it as any other [`Evaluator`]; the choice costs one predictable
//! branch an evaluation.

use super::net::{Accumulator, Net};
use super::rich::Rich;
use super::{Evaluator, HandMade};
use crate::rules::Position;
use std::fmt;
use std::sync::Arc;

/// The evaluation a search uses.
#[derive(Clone)]
pub enum Evaluation {
    /// The plain hand-made terms and weights.
    HandMade,
    /// The richer hand-made terms and their weights ([`super::rich`]),
    /// which the shipped net corrects.
    Rich,
    /// A learned net (docs/net.md), shared by every search and thread.
    Net(Arc<Net>),
}

impl Evaluator for Evaluation {
    type Memory = Accumulator;

    fn centipawns_with(&self, pos: &Position, memory: &mut Accumulator) -> i32 {
        match self {
            Evaluation::HandMade => HandMade.centipawns(pos),
            Evaluation::Rich => Rich.centipawns(pos),
            Evaluation::Net(net) => net.centipawns_with(pos, memory),
        }
    }
}

impl PartialEq for Evaluation {
    /// The same evaluation: both the same hand-made one, or the very same net (a net
    /// loaded again is another, as a file may have changed).
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::HandMade, Evaluation::HandMade) => true,
            (Evaluation::Rich, Evaluation::Rich) => true,
            (Evaluation::Net(a), Evaluation::Net(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evaluation::HandMade => f.write_str("HandMade"),
            Evaluation::Rich => f.write_str("Rich"),
            Evaluation::Net(net) => write!(f, "Net({} hidden)", net.hidden()),
        }
    }
}
