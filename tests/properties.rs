//! Property tests (proptest) on positions reached by random legal play.
//!
//! A position is generated as a seed and a number of plies: the game is
//! replayed from the start choosing uniformly among `legal_moves()`, so every
//! position is reachable and shrinking moves towards shorter games. On it:
//! - the position string round-trips through `FromStr` (in any tile order);
//! - `make` then `unmake` restores the position, its string and its hash,
//!   the incremental `hash()` equals `hash_from_scratch()` after every
//!   `make`, and every piece of state kept beside the tiles agrees with
//!   them after each `make` and `unmake` (`Position::consistency`; a debug
//!   build also checks it inside `make` and `unmake` on every move of
//!   every test);
//! - every generated move leaves the table one group and the mover's king
//!   out of check, as judged by the reference in `tests/reference`, and
//!   `parse_move` accepts exactly the reference's legal moves among its
//!   candidates;
//! - translating the whole table gives the same hash and the same moves,
//!   translated (RULES.md section 6: repetition is "up to translation");
//! - in random games, also ones where only kings and moved pawns walk,
//!   `Game::ending` calls a threefold repetition exactly when the position
//!   string, moved to the origin, has come three times in the whole game.

mod reference;

use chex::rules::{Colour, Ending, Game, GameEnd, Kind, Move, MoveList, Position};
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// The position after `plies` uniformly random legal moves from the start
/// (fewer if the game ends), checking the incremental hash on the way.
fn walk(seed: u64, plies: usize) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::startpos();
    for _ in 0..plies {
        let Some(&mv) = pos.legal_moves().choose(&mut rng) else {
            break;
        };
        pos.make(mv);
        assert_eq!(
            pos.hash(),
            pos.hash_from_scratch(),
            "hash drifted after {mv}: {pos}"
        );
        pos.assert_consistent();
    }
    pos
}

/// A reachable position: seed and game length.
fn position() -> impl Strategy<Value = Position> {
    (any::<u64>(), 0usize..120).prop_map(|(seed, plies)| walk(seed, plies))
}

/// Fewer cases in debug builds, where the crate is many times slower.
fn config() -> ProptestConfig {
    ProptestConfig::with_cases(if cfg!(debug_assertions) { 48 } else { 512 })
}

/// The sorted move tokens of the crate.
fn tokens(pos: &Position) -> Vec<String> {
    let mut t: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
    t.sort();
    t
}

proptest! {
    #![proptest_config(config())]

    /// `Display` then `FromStr` gives back an equal position and the same
    /// string, also when the tiles are listed in another order (RULES.md
    /// section 7: "Any order is accepted").
    #[test]
    fn position_string_round_trips(pos in position(), shuffle_seed in any::<u64>()) {
        let text = pos.to_string();
        let back: Position = text.parse().unwrap();
        prop_assert_eq!(&back, &pos);
        prop_assert_eq!(back.to_string(), text.clone());
        prop_assert_eq!(back.hash(), pos.hash());

        let (tiles, rest) = text.split_once(' ').unwrap();
        let mut items: Vec<&str> = tiles.split('/').collect();
        items.shuffle(&mut ChaCha8Rng::seed_from_u64(shuffle_seed));
        let shuffled: Position = format!("{} {rest}", items.join("/")).parse().unwrap();
        prop_assert_eq!(shuffled.to_string(), text);
    }

    /// `generate_captures` lists exactly the legal steps that take an
    /// enemy tile, in the order `generate_steps` lists them (the search's
    /// move ordering breaks ties by it), and `has_legal_step` says
    /// whether there is any legal step.
    #[test]
    fn captures_are_the_legal_steps_that_take(pos in position()) {
        let mut pos = pos;
        let us = pos.side_to_move();
        let mut steps = MoveList::new();
        pos.generate_steps(&mut steps);
        let takes = |mv: &Move| match *mv {
            Move::Step { to, .. } => pos.tile_at(to).is_some_and(|t| t.piece.colour != us),
            _ => false,
        };
        let expected: Vec<Move> = steps.iter().copied().filter(takes).collect();
        let mut captures = MoveList::new();
        pos.generate_captures(&mut captures);
        prop_assert_eq!(captures.to_vec(), expected);
        prop_assert_eq!(pos.has_legal_step(), !steps.is_empty());
    }

    /// For every legal move: `make` keeps the incremental hash equal to the
    /// one computed from scratch, the result obeys the connection and check
    /// rules (judged by the reference, not the crate), and `unmake` restores
    /// everything.
    #[test]
    fn make_unmake_and_legality(pos in position()) {
        let before = pos.clone();
        let text = pos.to_string();
        let hash = pos.hash();
        let mover_is_white = pos.side_to_move() == Colour::White;
        let mut pos = pos;
        for mv in before.legal_moves() {
            let undo = pos.make(mv);
            prop_assert_eq!(pos.consistency(), Ok(()), "after {} from {}", mv, text);
            prop_assert_eq!(pos.hash(), pos.hash_from_scratch(), "after {} from {}", mv, text);
            let after = reference::parse(&pos.to_string());
            let table = after.table();
            prop_assert!(reference::is_one_group(&table), "{} from {} splits the table", mv, text);
            prop_assert!(
                !reference::king_in_check(&table, mover_is_white),
                "{} from {} leaves the mover in check", mv, text
            );
            pos.unmake(mv, undo);
            prop_assert_eq!(pos.consistency(), Ok(()), "unmake({}) from {}", mv, text);
            prop_assert_eq!(&pos, &before, "unmake({}) from {}", mv, text);
            prop_assert_eq!(pos.to_string(), text.clone());
            prop_assert_eq!(pos.hash(), hash);
        }
    }

    /// Among the reference's candidate moves (before its connection and
    /// check tests), `parse_move` accepts exactly the legal ones, giving
    /// back the same token, and `is_legal` agrees.
    #[test]
    fn parse_move_accepts_exactly_the_legal_candidates(pos in position()) {
        let rpos = reference::parse(&pos.to_string());
        for candidate in reference::pseudo_moves(&rpos) {
            let token = candidate.token(rpos.white_to_move);
            let legal = reference::is_legal(&rpos, candidate);
            match pos.parse_move(&token) {
                Ok(mv) => {
                    prop_assert!(legal, "crate accepts illegal {} in {}", token, pos);
                    prop_assert_eq!(mv.to_string(), token.clone());
                    prop_assert!(pos.is_legal(mv));
                }
                Err(e) => prop_assert!(!legal, "crate rejects legal {} in {}: {}", token, pos, e),
            }
        }
    }

    /// `can_place`, which stops at the first legal square, answers as the
    /// list of placements does for each kind in the pile, and no for the
    /// others.
    #[test]
    fn can_place_agrees_with_the_placements(pos in position()) {
        let mut pos = pos;
        let pile = pos.pile(pos.side_to_move());
        for kind in Kind::ALL {
            let listed = pile.count(kind) > 0 && !pos.legal_placements(kind).is_empty();
            prop_assert_eq!(pos.can_place(kind), listed, "{:?} in {}", kind, pos);
        }
    }

    /// `generate_checking_placements`, which tries only the squares from
    /// which a kind could attack the enemy king, lists exactly the legal
    /// placements of the pile's kinds after which the opponent is in check.
    #[test]
    fn checking_placements_are_the_placements_that_check(pos in position()) {
        let mut pos = pos;
        let pile = pos.pile(pos.side_to_move());
        let mut expected: Vec<Move> = pile
            .kinds()
            .flat_map(|kind| pos.legal_placements(kind))
            .filter(|&mv| {
                let mut after = pos.clone();
                after.make(mv);
                after.in_check()
            })
            .collect();
        let mut listed = MoveList::new();
        pos.generate_checking_placements(pile, &mut listed);
        let mut listed = listed.to_vec();
        expected.sort_by_key(|m| m.to_string());
        listed.sort_by_key(|m| m.to_string());
        prop_assert_eq!(listed, expected, "in {}", pos);
    }

    /// Moving every tile by the same offset changes neither the hash nor
    /// the moves (up to the same offset).
    #[test]
    fn translation_invariance(
        pos in position(),
        dx in prop_oneof![-50i64..50, -999_999_000i64..999_999_000],
        dy in prop_oneof![-50i64..50, -999_999_000i64..999_999_000],
    ) {
        prop_assume!(!pos.tiles().is_empty()); // the first tile must go on 0,0
        let text = pos.to_string();
        let moved_text = reference::translate(&text, dx, dy);
        let moved: Position = moved_text.parse().unwrap();
        prop_assert_eq!(moved.to_string(), moved_text.clone());
        prop_assert_eq!(moved.hash(), pos.hash(), "{} vs {}", text, moved_text);
        prop_assert_eq!(moved.in_check(), pos.in_check());
        let white = pos.side_to_move() == Colour::White;
        let mut expected: Vec<String> = tokens(&pos)
            .iter()
            .map(|t| reference::translate_move(t, dx, dy, white))
            .collect();
        expected.sort();
        let got = tokens(&moved);
        prop_assert!(got == expected, "{}\n{}", moved_text, reference::diff(&got, &expected));
    }
}

/// Starts for the repetition property: the start position, where
/// placements and captures cut the history often, and small tables where
/// kings and moved pawns walk, so that the group steps as a whole and
/// repeats across pawn steps (issue 24, item 1).
const REPETITION_STARTS: [&str; 4] = [
    "startpos",
    "K0,0/P1,0*/k2,0/r1,-1 w -/- 0 10",
    "K0,0/P1,0*/k2,0/p2,-1* w -/- 0 10",
    "K-1,1/P0,1*/p1,2*/k2,2 w -/- 0 10",
];

/// Plays a random game of at most `plies` turns from `start` through
/// [`Game`], checking after every turn that it ends by repetition exactly
/// when the position has occurred three times in the whole game, found by
/// comparing position strings moved to the origin (no hash, no window).
/// Returns whether it ended so, and whether a moved pawn stepped between
/// the first and third occurrence.
fn check_repetition(start: &str, seed: u64, plies: usize) -> (bool, bool) {
    let pos = if start == "startpos" {
        Position::startpos()
    } else {
        start.parse().unwrap()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(pos);
    let mut seen = vec![translation_key(game.position())];
    let mut moved_pawn_steps = vec![0usize];
    for _ in 0..plies {
        let key = seen.last().unwrap();
        let count = seen.iter().filter(|k| *k == key).count();
        let repetition = game.ending().map(|e| e.ending) == Some(Ending::Repetition);
        assert_eq!(
            repetition,
            count >= 3,
            "{count} occurrences after {start} moves {:?}",
            game.moves().iter().map(Move::to_string).collect::<Vec<_>>()
        );
        if repetition {
            let first = seen.iter().position(|k| k == key).unwrap();
            let across = moved_pawn_steps[first] < *moved_pawn_steps.last().unwrap();
            return (true, across);
        }
        if game.ending().is_some() {
            break;
        }
        let Some(&mv) = game.legal_moves().choose(&mut rng) else {
            break;
        };
        let moved_pawn = match mv {
            Move::Step { from, .. } => game.position().tile_at(from).is_some_and(|t| t.moved),
            Move::Place { .. } => false,
        };
        game.play(mv).unwrap();
        seen.push(translation_key(game.position()));
        moved_pawn_steps.push(moved_pawn_steps.last().unwrap() + moved_pawn as usize);
    }
    (false, false)
}

proptest! {
    #![proptest_config(config())]

    /// Threefold repetition is called exactly when the whole game's
    /// history holds the position three times.
    #[test]
    fn repetition_agrees_with_the_whole_history(
        start in 0..REPETITION_STARTS.len(),
        seed in any::<u64>(),
        plies in 0usize..300,
    ) {
        check_repetition(REPETITION_STARTS[start], seed, plies);
    }
}

/// The repetition property is not empty: from the small starts (where
/// most random games soon end in checkmate or stalemate), many random
/// games end by repetition, and some of them only because the history
/// reaches back past a moved pawn's step (which resets the fifty-move
/// clock).
#[test]
fn random_games_repeat_across_moved_pawn_steps() {
    let (mut repeated, mut across) = (0, 0);
    for start in &REPETITION_STARTS[1..] {
        for seed in 0..2000 {
            let (r, a) = check_repetition(start, seed, 300);
            repeated += r as usize;
            across += a as usize;
        }
    }
    assert!(repeated >= 1000, "{repeated} of 6000 games repeated");
    assert!(across >= 50, "{across} repetitions across pawn steps");
}

/// The position string with the table moved so that its lowest `x` and `y`
/// are 0 and without the clocks: equal exactly for positions that are the
/// same up to translation, which is what `hash()` must tell apart.
fn translation_key(pos: &Position) -> String {
    let text = pos.to_string();
    let rpos = reference::parse(&text);
    let min_x = rpos.tiles.keys().map(|s| s.0).min().unwrap_or(0);
    let min_y = rpos.tiles.keys().map(|s| s.1).min().unwrap_or(0);
    let moved = reference::translate(&text, -min_x, -min_y);
    moved.rsplitn(3, ' ').nth(2).unwrap().to_string()
}

/// Across thousands of positions from random games, `hash()` is equal for
/// positions equal up to translation and different otherwise: a collision
/// here would make the engine call a repetition draw that is none.
#[test]
fn hash_tells_positions_apart() {
    let games = if cfg!(debug_assertions) { 30 } else { 300 };
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut by_hash: HashMap<u64, String> = HashMap::new();
    let mut by_key: HashMap<String, u64> = HashMap::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let key = translation_key(&pos);
            let hash = pos.hash();
            if let Some(other) = by_hash.insert(hash, key.clone()) {
                assert_eq!(other, key, "hash collision {hash:#x}");
            }
            if let Some(h) = by_key.insert(key.clone(), hash) {
                assert_eq!(
                    h, hash,
                    "same position up to translation, two hashes: {key}"
                );
            }
            let Some(&mv) = pos.legal_moves().choose(&mut rng) else {
                break;
            };
            pos.make(mv);
        }
    }
    assert!(
        by_key.len() > games * 50,
        "too few distinct positions: {}",
        by_key.len()
    );
}

/// A king checked by the king placed beside it, no step to answer: no
/// tile the pile can bring has a square, and the draw is checkmate.
#[test]
fn no_kind_can_be_placed_against_a_check_no_tile_blocks() {
    let mut pos: Position =
        "P-2,3/p-1,3/k-1,2/b0,2/p1,2/P2,2/K-1,1/B0,0/b0,-1 w QRRBNNPPPPPP/qrrnnpppppp 0 6"
            .parse()
            .unwrap();
    assert!(pos.in_check());
    for kind in pos.pile(Colour::White).kinds() {
        assert!(!pos.can_place(kind), "{kind:?}");
        assert_eq!(
            pos.ending_after_draw(kind),
            Some(GameEnd {
                ending: Ending::DrawnTileCheckmate(kind),
                winner: Some(Colour::Black),
            })
        );
    }
}
