//! Threefold repetition: the one test of it that the game, the searches
//! and the mate prover share.

/// True when the position whose key is `key`, just reached, occurs for
/// the third time: `earlier` (the keys of the positions before it since
/// the last turn that cut repetition, as [`crate::rules::Game::recent_keys`]
/// gives them, then those of a line searched from there) holds it twice.
///
/// All of `earlier` is read, not only the positions since the halfmove
/// clock's reset: a moved pawn's step resets the clock but can be undone
/// by the whole group stepping the same way, and what cannot be undone (a
/// placement, a capture, an unmoved pawn's first step) changes the key.
pub fn is_third_occurrence(earlier: &[u64], key: u64) -> bool {
    earlier.iter().filter(|&&k| k == key).count() >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_third_occurrence_is_the_one_with_two_before_it() {
        assert!(!is_third_occurrence(&[], 7));
        assert!(!is_third_occurrence(&[7, 1, 2], 7));
        assert!(is_third_occurrence(&[7, 1, 7], 7));
        assert!(is_third_occurrence(&[7, 7, 7], 7));
    }
}
