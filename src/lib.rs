//! CHEX: chess played with tiles on an open table.
//!
//! Three layers, one direction: [`rules`] is the game itself, free of I/O
//! and search; [`search`] chooses moves on top of the rules; [`protocol`]
//! parses, dispatches and prints. [`referee`] holds dealt games for the
//! match runner ([`runner`], `chex match`) and the GUI ([`gui`], `chex gui`).
//! [`bench`](mod@bench) measures the first two.

pub mod bench;
pub mod gui;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod runner;
pub mod search;
