//! The learned evaluation (docs/net.md, versions 1 to 3): the network,
//! its file and its judgement of a position, behind the searchers'
//! [`Evaluator`].
//!
//! - [`inputs`]: what the network sees of a position from each side;
//! - `accumulator`: the first layer's sums of both sides in one pass
//!   over the table, for the hidden sizes nets are trained with;
//! - `forward`: the same arithmetic on listed inputs, for any size;
//! - [`Spec`]: the contract the trainer reads (`featurize --spec`).
//!
//! A searcher keeps the sums from one evaluation to the next
//! ([`Accumulator`]); a call without one sums them afresh.

mod accumulator;
mod forward;
pub mod inputs;
mod spec;
#[cfg(test)]
mod tests;

use super::rich::Rich;
use super::{Evaluator, HandMade};
use crate::rules::Position;
use crate::search::score::LOGISTIC_SCALE;
pub use accumulator::Accumulator;
use inputs::INPUTS;
pub use spec::Spec;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// The net built into the binary (`nets/chex.net`, its provenance in
/// `nets/chex.net.json`), so that `Evaluation net` needs no file.
const SHIPPED: &[u8] = include_bytes!("../../../../nets/chex.net");

/// The scale of the first layer's weights and of the hidden activations:
/// an activation of 1 is `QA`.
pub const QA: i32 = 255;
/// The scale of the output layer's weights.
pub const QB: i32 = 64;
/// The first eight bytes of a net file whose output is the whole logit.
pub const MAGIC: [u8; 8] = *b"CHEXNET1";
/// The first eight bytes of a net file whose output corrects the
/// hand-made evaluation's logit (docs/net.md, "Version 2"); the layout
/// is the same.
pub const MAGIC_CORRECTION: [u8; 8] = *b"CHEXNET2";
/// The first eight bytes of a net file whose output corrects the rich
/// evaluation's logit (docs/net.md, "Version 3"); the layout is the same.
pub const MAGIC_RICH_CORRECTION: [u8; 8] = *b"CHEXNET3";
/// The bytes before the weights: magic, input count and hidden size.
/// Public so that the trainer's [`Spec`] states it.
pub const HEADER: usize = 16;

/// Why a net file, or a set of weights, was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Fewer bytes than the header takes.
    Truncated {
        /// The file's length.
        got: usize,
    },
    /// The first eight bytes are none of [`MAGIC`], [`MAGIC_CORRECTION`]
    /// and [`MAGIC_RICH_CORRECTION`].
    BadMagic,
    /// The file's networks see another number of inputs than [`INPUTS`].
    WrongInputs {
        /// The input count the file gives.
        got: u32,
    },
    /// The file's length is not what its hidden size makes it.
    WrongSize {
        /// The length the header implies.
        expected: u64,
        /// The file's length.
        got: usize,
    },
    /// Weights handed to [`Net::from_weights`] whose lengths do not fit
    /// one hidden size.
    WrongShape {
        /// The hidden size they were given with.
        hidden: usize,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Truncated { got } => {
                write!(
                    f,
                    "net file too short: {got} bytes, the header alone takes {HEADER}"
                )
            }
            NetError::BadMagic => write!(
                f,
                "not a CHEX net file: bad magic (expected CHEXNET1, CHEXNET2 or CHEXNET3)"
            ),
            NetError::WrongInputs { got } => {
                write!(
                    f,
                    "wrong input count in net file: expected {INPUTS}, got {got}"
                )
            }
            NetError::WrongSize { expected, got } => {
                write!(
                    f,
                    "wrong net file size: expected {expected} bytes, got {got}"
                )
            }
            NetError::WrongShape { hidden } => {
                write!(f, "weights do not fit a hidden layer of {hidden}")
            }
        }
    }
}

impl std::error::Error for NetError {}

/// What a net's output is added to, as its file's magic says: a net
/// trained on little data then starts from that evaluation's knowledge
/// rather than from nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The output is the whole logit ([`MAGIC`]).
    Nothing,
    /// The hand-made evaluation's logit ([`MAGIC_CORRECTION`]).
    HandMade,
    /// The rich evaluation's logit ([`MAGIC_RICH_CORRECTION`]).
    Rich,
}

impl Base {
    /// Every base, in the order of their versions.
    pub const ALL: [Base; 3] = [Base::Nothing, Base::HandMade, Base::Rich];

    /// The magic of a net file with this base.
    pub fn magic(self) -> [u8; 8] {
        match self {
            Base::Nothing => MAGIC,
            Base::HandMade => MAGIC_CORRECTION,
            Base::Rich => MAGIC_RICH_CORRECTION,
        }
    }
}

/// A learned evaluation: one hidden layer of `H` clipped-ReLU units fed by
/// each side's inputs ([`inputs::active`]), the side to move's half of
/// the output layer first, all in the file's integers.
///
/// Invariants: `w1` holds `INPUTS · H` weights, input-major; `b1` holds
/// `H`; `w2` holds `2H`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    base: Base,
    hidden: usize,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i16>,
    b2: i32,
}

impl Net {
    /// The net of these quantised weights (docs/net.md's scales): `w1`
    /// input-major, `w2` the side to move's half first.
    pub fn from_weights(
        hidden: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        w2: Vec<i16>,
        b2: i32,
    ) -> Result<Net, NetError> {
        let fits = Some(w1.len()) == INPUTS.checked_mul(hidden)
            && b1.len() == hidden
            && Some(w2.len()) == hidden.checked_mul(2);
        if !fits {
            return Err(NetError::WrongShape { hidden });
        }
        Ok(Net {
            base: Base::Nothing,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// Reads a net file (docs/net.md, "Quantisation and file").
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let got = bytes.len();
        let (Some(magic), Some(inputs), Some(hidden)) =
            (bytes.get(..8), read_u32(bytes, 8), read_u32(bytes, 12))
        else {
            return Err(NetError::Truncated { got });
        };
        let Some(base) = Base::ALL.into_iter().find(|b| b.magic() == magic) else {
            return Err(NetError::BadMagic);
        };
        if inputs as usize != INPUTS {
            return Err(NetError::WrongInputs { got: inputs });
        }
        let h = u64::from(hidden);
        let expected = HEADER as u64 + 2 * (INPUTS as u64 * h + h + 2 * h) + 4;
        if expected != got as u64 {
            return Err(NetError::WrongSize { expected, got });
        }
        // The length matched, so every count below fits in memory.
        let hidden = hidden as usize;
        let mut rest = &bytes[HEADER..];
        let mut take = |count: usize| -> Vec<i16> {
            let (these, after) = rest.split_at(2 * count);
            rest = after;
            these
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect()
        };
        let w1 = take(INPUTS * hidden);
        let b1 = take(hidden);
        let w2 = take(2 * hidden);
        let b2 = i32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        Ok(Net::from_weights(hidden, w1, b1, w2, b2)?.with_base(base))
    }

    /// The same weights, their output added to `base`'s logit.
    pub fn with_base(self, base: Base) -> Net {
        Net { base, ..self }
    }

    /// What the output is added to.
    pub fn base(&self) -> Base {
        self.base
    }

    /// The net as a file [`Net::from_bytes`] reads back.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER + 2 * (self.w1.len() + 3 * self.hidden) + 4);
        bytes.extend_from_slice(&self.base.magic());
        bytes.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        bytes.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for weights in [&self.w1, &self.b1, &self.w2] {
            for w in weights.iter() {
                bytes.extend_from_slice(&w.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&self.b2.to_le_bytes());
        bytes
    }

    /// The net built into the binary, read once and shared.
    pub fn shipped() -> Arc<Net> {
        static READ: OnceLock<Arc<Net>> = OnceLock::new();
        READ.get_or_init(|| {
            // Built in, not input: its test reads it on every run.
            Arc::new(Net::from_bytes(SHIPPED).expect("nets/chex.net is a net file"))
        })
        .clone()
    }

    /// How many hidden units each side has.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The network's integer output for `pos`, `QA · QB` times the logit.
    pub fn output(&self, pos: &Position) -> i32 {
        self.output_with(pos, &mut Accumulator::default())
    }

    /// [`Net::output`], the sums brought from the last position
    /// `accumulator` saw (see [`Accumulator`]). The nets trained today
    /// have 16, 32 or 64 hidden units; another size is summed from the
    /// listed inputs.
    pub fn output_with(&self, pos: &Position, accumulator: &mut Accumulator) -> i32 {
        match self.hidden {
            16 => accumulator.output::<16>(self, pos),
            32 => accumulator.output::<32>(self, pos),
            64 => accumulator.output::<64>(self, pos),
            _ => forward::listed(self, pos),
        }
    }

    /// The side to move's expected result as a logit: `sigmoid` of it is
    /// the expected result.
    pub fn logit(&self, pos: &Position) -> f64 {
        self.logit_with(pos, &mut Accumulator::default())
    }

    /// [`Net::logit`] by way of `accumulator` (see [`Net::output_with`]).
    pub fn logit_with(&self, pos: &Position, accumulator: &mut Accumulator) -> f64 {
        let own = f64::from(self.output_with(pos, accumulator)) / f64::from(QA * QB);
        let base = match self.base {
            Base::Nothing => return own,
            Base::HandMade => HandMade.centipawns(pos),
            Base::Rich => Rich.centipawns(pos),
        };
        own + f64::from(base) / LOGISTIC_SCALE
    }
}

impl Evaluator for Net {
    type Memory = Accumulator;

    /// 400 times the logit, rounded.
    fn centipawns_with(&self, pos: &Position, accumulator: &mut Accumulator) -> i32 {
        (LOGISTIC_SCALE * self.logit_with(pos, accumulator)).round() as i32
    }
}

/// A borrowed net evaluates too, so that several searchers share one set
/// of weights rather than each holding a copy.
impl Evaluator for &Net {
    type Memory = Accumulator;

    fn centipawns_with(&self, pos: &Position, accumulator: &mut Accumulator) -> i32 {
        Net::centipawns_with(self, pos, accumulator)
    }
}

/// The little-endian `u32` at `at`, if the bytes reach that far.
fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 4)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}
