//! The engine, spoken to only through protocol.md: `process` is the child
//! process and its lines, `search` the one loop that sends a search and
//! reads it to its `bestmove` (play, ponder and study all use it),
//! `play`, `ponder` (on the person's time, in a clock game that asks for
//! it) and `study` the jobs, and `driver` the task that chooses the next
//! job and restarts the engine when it fails.

mod driver;
mod play;
mod ponder;
mod process;
mod search;
mod study;

pub use driver::{drive_engine, FAILURES_BEFORE_PAUSE};
pub use process::EngineProcess;
pub use search::ANSWER_MARGIN;
