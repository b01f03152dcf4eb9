//! Search: random playouts now; Information-Set MCTS to come. Depends on
//! the rules, never the other way round.

pub mod playout;
