//! The mate prover (`chex::search::mate`) against the brute-force
//! definitions of the tactics suite (`tests/tactics_common`): the same
//! mates, of the same length, on the suite and on positions of random
//! games, and none where a repetition or the fifty-move count draws the
//! line first.

mod tactics_common;

use chex::rules::{Kind, Move, MoveList, Position};
use chex::search::mate::quickest_mate;
use chex::search::Action;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tactics_common::{
    forced_mate_answers, forces_mate, mate1_answers, mate_in_one, play_random_turn, Category, Entry,
};

const SUITE: &str = include_str!("data/tactics.txt");

/// Enough nodes for any mate of the suite, in two turns or three.
const NODES: u64 = 10_000_000;

/// What the brute force says of `pos`: the length in turns of its
/// quickest forced mate within two of the side to move's turns (1 or 3),
/// and the actions that force one that quick.
fn brute_force(pos: &Position) -> Option<(u8, Vec<String>)> {
    let mut pos = pos.clone();
    if mate_in_one(&mut pos) {
        return Some((1, mate1_answers(&mut pos)));
    }
    forces_mate(&mut pos, 2).then(|| (3, forced_mate_answers(&mut pos, 2)))
}

/// The prover's answer on `pos`, within `turns` of the mover's turns, as
/// the brute force gives it.
fn prover(pos: &Position, turns: u32) -> Option<(u8, String)> {
    quickest_mate(pos, None, &[], turns, NODES, None).map(|m| (m.turns, m.action.to_string()))
}

fn agree(pos: &Position, what: &str) -> bool {
    let expected = brute_force(pos);
    let found = prover(pos, 2);
    match (&expected, &found) {
        (None, None) => {}
        (Some((turns, answers)), Some((t, action))) => {
            assert_eq!(t, turns, "{what} {pos}: mate length");
            assert!(
                answers.contains(action),
                "{what} {pos}: {action} is not among {answers:?}"
            );
        }
        _ => panic!("{what} {pos}: brute force {expected:?}, prover {found:?}"),
    }
    expected.is_some()
}

#[test]
fn the_prover_finds_the_mates_of_the_suite_and_no_others() {
    let mut mates = 0;
    for e in Entry::parse_file(SUITE).unwrap() {
        if e.pending.is_some() {
            continue;
        }
        let mate = agree(&e.pos, &e.id);
        let mating = matches!(
            e.category,
            Category::Mate1Step | Category::Mate1Draw | Category::Mate2
        );
        assert!(!mating || mate, "{}: no mate found", e.id);
        mates += usize::from(mate);
        if e.category == Category::Mate3 {
            // Within two turns there is none (above); within three the
            // prover's first action is among the suite's proven answers.
            let (turns, action) =
                prover(&e.pos, 3).unwrap_or_else(|| panic!("{}: no mate in three found", e.id));
            assert_eq!(turns, 5, "{}: mate length", e.id);
            assert!(e.answers.contains(&action), "{}: {action}", e.id);
            mates += 1;
        }
    }
    assert!(mates >= 80, "{mates} mates");
}

#[test]
fn the_prover_agrees_with_brute_force_on_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    let (mut looked, mut mates) = (0, 0);
    for _ in 0..60 {
        let mut pos = Position::startpos();
        let captures = rng.gen_range(0.0..0.7);
        for ply in 0..120 {
            if ply >= 10 && ply % 4 == 0 {
                looked += 1;
                mates += usize::from(agree(&pos, "game position"));
            }
            if !play_random_turn(&mut pos, &mut rng, captures) {
                break;
            }
        }
    }
    assert!(looked >= 500 && mates >= 10, "{mates} mates in {looked}");
}

/// mate2-008 of the suite: the king's step mates in two, its only
/// answer, and a quiet step.
const KING_STEP_MATE: (&str, &str) = (
    "P-2,2*/n-3,1/N-5,0/P-3,0*/k-4,-1/P-4,-2*/K-2,-2/r-3,-3/b-3,-4/q-4,-5/B-3,-5/p-2,-5 w RNPPPP/rbppppp 3 35",
    "-2,-2--3,-2",
);

#[test]
fn a_reply_that_repeats_a_position_a_third_time_escapes() {
    let pos: Position = KING_STEP_MATE.0.parse().unwrap();
    let step = pos.parse_move(KING_STEP_MATE.1).unwrap();
    assert_eq!(
        prover(&pos, 2),
        Some((3, KING_STEP_MATE.1.to_string())),
        "the mate as it stands"
    );
    // Every position Black's replies reach, seen twice before: each
    // reply is then a draw by repetition.
    let mut after = pos.clone();
    after.make(step);
    let mut replies = MoveList::new();
    after.generate_steps(&mut replies);
    let mut keys = Vec::new();
    let mut reach = |mv: Move| {
        let mut p = after.clone();
        p.make(mv);
        keys.extend([p.hash(), p.hash()]);
    };
    for &mv in replies.iter() {
        reach(mv);
    }
    for kind in after.pile(after.side_to_move()).kinds() {
        let mut list = MoveList::new();
        after.clone().generate_placements(kind, &mut list);
        for &mv in list.iter() {
            reach(mv);
        }
    }
    keys.push(pos.hash());
    let found = quickest_mate(&pos, None, &keys, 2, NODES, None);
    assert_ne!(found.map(|m| m.action), Some(Action::Play(step)));
}

#[test]
fn a_line_past_the_fifty_move_count_is_no_mate() {
    let fen = KING_STEP_MATE.0.replace(" 3 35", " 99 35");
    let pos: Position = fen.parse().unwrap();
    // The quiet step runs the count out: the game is drawn before Black
    // replies.
    let found = quickest_mate(&pos, None, &[], 2, NODES, None);
    assert_ne!(
        found.map(|m| m.action.to_string()),
        Some(KING_STEP_MATE.1.to_string())
    );
}

#[test]
fn the_fifty_move_count_ends_the_game_before_a_drawn_tile_mate_not_a_mate() {
    // The suite's mates in one by a single quiet step, the count at 99:
    // the step runs it out. A defender with an empty pile is mated at
    // once, which comes first; one with tiles left is mated only on the
    // draw it must still make, and the count ends the game before that.
    let (mut empty, mut tiles) = (0, 0);
    for e in Entry::parse_file(SUITE).unwrap() {
        let [answer] = e.answers.as_slice() else {
            continue;
        };
        if e.category != Category::Mate1Step {
            continue;
        }
        let text = e.pos.to_string();
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields[3] = "99";
        let pos: Position = fields.join(" ").parse().unwrap();
        let Ok(Move::Step { from, to }) = pos.parse_move(answer) else {
            continue;
        };
        let quiet = pos.tile_at(to).is_none()
            && pos
                .tile_at(from)
                .is_some_and(|t| t.piece.kind != Kind::Pawn);
        if !quiet {
            continue;
        }
        let found = quickest_mate(&pos, None, &[], 1, NODES, None).map(|m| m.action.to_string());
        if pos.pile(pos.side_to_move().opposite()).is_empty() {
            empty += 1;
            assert_eq!(found.as_ref(), Some(answer), "{}", e.id);
        } else {
            tiles += 1;
            assert_eq!(found, None, "{}", e.id);
        }
    }
    assert!(empty + tiles >= 3 && tiles >= 1, "{empty} and {tiles}");
}
