//! CHEX: chess played with tiles on an open table.
//!
//! [`rules`] is the game itself, free of I/O and search.

pub mod bench;
pub mod rules;
pub mod search;
