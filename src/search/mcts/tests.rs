//! The tree search's own tests: the node packing, threads on one tree,
//! repetitions, chance nodes, the solver and the hybrid's backups.
use super::leaf::{judge_outcomes, Actions};
use super::node::{Edge, Node, NodeData, Status, NONE, OPENING};
use super::outcome::DrawValue;
use super::proof::Proof;
use super::*;
use crate::rules::{Colour, Kind, Move, Piece, Position, Square};
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::Evaluation;
use crate::search::score::expected_result;
use crate::search::{Action, Limits, Params, Proven, Report, Request};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;

/// Plain ISMCTS (leaves played out, 30 turns at most), one thread, a
/// fixed seed.
fn params() -> Params {
    Params {
        threads: 1,
        seed: 1,
        playout_cap: 30,
        leaf_depth: -1,
        ..Params::default()
    }
}

/// A new tree going on from `kept` alone.
fn going_on(kept: Tree) -> Reuse<'static> {
    Reuse {
        tree: Some(kept),
        fallback: None,
    }
}

/// Runs `iterations` iterations of a walker seeded with `seed` on
/// `tree`.
fn run(tree: Tree, seed: u64, iterations: usize) -> Tree {
    let mut walker = Walker::new(&tree, &params(), seed);
    for _ in 0..iterations {
        walker.iterate(&tree);
    }
    tree
}

#[test]
fn a_full_tree_stops_growing_but_keeps_counting() {
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let capacity = 3000;
    let tree = run(
        Tree::new(&pos, None, &[], &[], &params(), capacity, Reuse::default()),
        7,
        5000,
    );
    assert!(
        tree.len() <= capacity && tree.len() > capacity - 200,
        "{}",
        tree.len()
    );
    let visits: u64 = tree.root_stats().iter().map(|s| s.visits).sum();
    assert_eq!(visits, 5000);
    assert_eq!(tree.nodes[0].load().visits, 5000);
}

#[test]
fn an_identity_survives_its_packing() {
    let far = Square::new(-1_000_000_000, 999_999_999);
    let edges = [
        Edge::Root,
        Edge::Draw,
        Edge::Drawn(Kind::Knight),
        Edge::Play(Move::Place {
            piece: Piece::new(Colour::Black, Kind::Queen),
            to: far,
        }),
        Edge::Play(Move::Step {
            from: far,
            to: Square::new(7, -3),
        }),
    ];
    for edge in edges {
        for (mover, weight) in [(Colour::White, 0), (Colour::Black, 255)] {
            let node: Node = bytemuck::Zeroable::zeroed();
            let data = NodeData {
                weight,
                visits: 9,
                value: 2.5,
                status: Status::Over(Some(Colour::Black)),
                proof: Proof::Draw,
                ..NodeData::new(edge, mover)
            };
            node.store(&data);
            assert_eq!(node.load(), data);
            assert_eq!(node.edge(), edge);
        }
    }
}

#[test]
fn threads_share_one_tree_without_losing_a_visit_or_a_node() {
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    for p in [params(), hybrid()] {
        let tree = Tree::new(&pos, None, &[], &[], &p, 20_000, Reuse::default());
        std::thread::scope(|scope| {
            for seed in 0..4 {
                let mut walker = Walker::new(&tree, &p, seed);
                let tree = &tree;
                scope.spawn(move || {
                    for _ in 0..3000 {
                        walker.iterate(tree);
                    }
                });
            }
        });
        let root = tree.nodes[0].load();
        assert_eq!(root.visits, 12_000);
        let children: u32 = tree.children(0).map(|c| tree.nodes[c].visits()).sum();
        assert_eq!(children, 12_000);
        // Every node in use hangs from the root, once; none is left
        // claimed.
        let mut reached = 1;
        let mut stack = vec![0];
        while let Some(n) = stack.pop() {
            let node = tree.nodes[n].load();
            assert!(node.first_child != OPENING, "node {n} left claimed");
            let below: u32 = tree.children(n).map(|c| tree.nodes[c].visits()).sum();
            assert!(below <= node.visits, "node {n}: {below} below {node:?}");
            reached += tree.children(n).len();
            stack.extend(tree.children(n));
        }
        assert_eq!(reached, tree.len());
        assert!(tree.len() > 1000, "{}", tree.len());
    }
}

#[test]
fn a_move_into_a_third_occurrence_is_a_draw() {
    // The fifty-move count says nothing of repetition: a moved pawn's
    // step resets it, yet the group can step back.
    for clock in [10, 0] {
        a_move_into_a_third_occurrence_is_a_draw_at(clock);
    }
}

fn a_move_into_a_third_occurrence_is_a_draw_at(clock: u32) {
    let pos: Position = format!("Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp {clock} 6")
        .parse()
        .unwrap();
    let mv = pos.parse_move("0,0-0,1").unwrap();
    let mut after = pos.clone();
    after.make(mv);
    // The position after the move has occurred twice already.
    let history = [after.hash(), 1, after.hash(), 2, pos.hash()];
    let tree = run(
        Tree::new(
            &pos,
            None,
            &history,
            &[],
            &params(),
            100_000,
            Reuse::default(),
        ),
        5,
        3000,
    );
    let stats = tree.root_stats();
    let repeat = stats
        .iter()
        .find(|s| s.action == Action::Play(mv))
        .expect("the move is searched");
    assert!(repeat.visits > 0);
    assert_eq!(repeat.draws, repeat.visits as f64, "{repeat:?}");
    // Without the history the same move is an ordinary one.
    let fresh = run(
        Tree::new(&pos, None, &[], &[], &params(), 100_000, Reuse::default()),
        5,
        3000,
    );
    let plain = fresh.root_stats();
    let plain = plain.iter().find(|s| s.action == Action::Play(mv)).unwrap();
    assert!(plain.draws < plain.visits as f64, "{plain:?}");
}

#[test]
fn chance_nodes_follow_the_public_pile() {
    // White's pile holds only rooks and pawns: those are the only
    // kinds a draw can bring, in proportion 2 : 8.
    let pos: Position = "K0,0/n1,1 w RRPPPPPPPP/k 0 2".parse().unwrap();
    let tree = run(
        Tree::new(&pos, None, &[], &[], &params(), 100_000, Reuse::default()),
        3,
        4000,
    );
    let draw = tree
        .children(0)
        .find(|&c| tree.nodes[c].load().edge == Edge::Draw)
        .expect("draw is an action");
    let kinds: Vec<(Edge, u32)> = tree
        .children(draw)
        .map(|c| (tree.nodes[c].load().edge, tree.nodes[c].load().visits))
        .collect();
    assert_eq!(kinds.len(), 2);
    let rooks = kinds[0].1 as f64;
    let total = tree.nodes[draw].load().visits as f64;
    assert_eq!(kinds[0].0, Edge::Drawn(Kind::Rook));
    assert_eq!(kinds[1].0, Edge::Drawn(Kind::Pawn));
    assert_eq!(kinds[0].1 + kinds[1].1, tree.nodes[draw].load().visits);
    // Within five standard deviations of a fifth.
    let sd = (total * 0.2 * 0.8).sqrt();
    assert!((rooks - 0.2 * total).abs() < 5.0 * sd, "{kinds:?}");
}
/// The engine as it ships (leaves judged), one thread, a fixed seed.
fn hybrid() -> Params {
    Params {
        threads: 1,
        seed: 1,
        ..Params::default()
    }
}

/// Searches `pos` with the hybrid's parameters, up to 100,000
/// iterations: the answer and the last report.
fn search_hybrid(pos: &Position) -> (Option<Action>, Report) {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(100_000),
        ..Limits::default()
    };
    let params = hybrid();
    let mut last = None;
    let request = Request::new(pos, &limits, &params);
    let (choice, _) = search(&request, Kept::default(), None, &stop, &mut |r| {
        last = Some(r.clone())
    });
    (choice, last.expect("a search reports at least once"))
}

/// Runs `iterations` hybrid iterations on a fresh tree of `pos`.
fn run_hybrid(pos: &Position, pending: Option<Kind>, iterations: usize) -> Tree {
    let p = hybrid();
    let tree = Tree::new(pos, pending, &[], &[], &p, 200_000, Reuse::default());
    let mut walker = Walker::new(&tree, &p, 1);
    for _ in 0..iterations {
        if walker.iterate(&tree) {
            break;
        }
    }
    tree
}

/// A middle-game position with a single mating move among many
/// (from tests/search.rs).
const MATE_IN_ONE: (&str, &str) = (
    "P-2,7/K-1,7/p-2,6/P-2,5/P-3,4/R-3,3/Q-2,3/k-4,2/p-2,2/B-1,2/p-4,1/P-1,1*/R-1,0/r-1,-1/B1,-1/p0,-2*/p2,-2* w -/- 0 56",
    "-2,3--4,1",
);

#[test]
fn the_solver_proves_a_mate_in_one_at_once() {
    let pos: Position = MATE_IN_ONE.0.parse().unwrap();
    let mv = pos.parse_move(MATE_IN_ONE.1).unwrap();
    // Opening the root judges every move: the mate is proven there,
    // and with it the root.
    let tree = run_hybrid(&pos, None, 0);
    let mate = tree
        .children(0)
        .find(|&c| tree.nodes[c].load().edge == Edge::Play(mv))
        .unwrap();
    assert_eq!(tree.nodes[mate].load().proof, Proof::Win);
    assert_eq!(tree.nodes[mate].load().minimax, 1.0);
    // The game is over there; from the root it is one turn away.
    assert_eq!(tree.nodes[mate].load().proof_turns, 0);
    assert_eq!(tree.turns_through(mate), 1);
    assert_eq!(tree.nodes[0].load().proof_turns, 1);
    // The report counts the same way: mate in one.
    let stats = tree.root_stats();
    let reported = stats.iter().find(|s| s.action == Action::Play(mv));
    assert_eq!(reported.unwrap().proven, Some(Proven::Win { turns: 1 }));
    // The root's mover is the side that does not move there.
    assert_eq!(tree.nodes[0].load().proof, Proof::Loss);
    assert_eq!(tree.nodes[0].load().minimax, 0.0);
    // The search stops at once and plays the mate.
    let (choice, last) = search_hybrid(&pos);
    assert_eq!(choice, Some(Action::Play(mv)));
    assert!(last.nodes <= 1, "{last:?}");
}

#[test]
fn minimax_values_back_up_by_max_and_by_the_piles_mean() {
    // White to move, with a pile: its moves and a draw.
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let tree = run_hybrid(&pos, None, 400);
    let mut checked = 0;
    for n in 0..tree.len() {
        let node = tree.nodes[n].load();
        let range = tree.children(n);
        if range.is_empty() || node.proof != Proof::Unknown {
            continue;
        }
        let kids = || range.clone().map(|c| tree.nodes[c].load());
        let expect = if node.edge == Edge::Draw {
            let total: f32 = kids().map(|k| k.weight as f32).sum();
            if tree.children(0).contains(&n) {
                assert_eq!(total as u32, pos.pile(node.mover).len());
            }
            kids().map(|k| k.weight as f32 * k.minimax).sum::<f32>() / total
        } else {
            let best = kids().map(|k| k.minimax).fold(f32::MIN, f32::max);
            let chooser = tree.nodes[range.start].load().mover;
            // After a draw the drawer places: the same side chooses.
            if let Edge::Drawn(_) = node.edge {
                assert_eq!(chooser, node.mover);
            }
            if chooser == node.mover {
                best
            } else {
                1.0 - best
            }
        };
        assert!((node.minimax - expect).abs() < 1e-5, "node {n}: {node:?}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
    // Some draws were opened, and some of their kinds.
    assert!((0..tree.len())
        .map(|n| tree.nodes[n].load())
        .any(|n| matches!(n.edge, Edge::Drawn(_)) && n.first_child != NONE));
}

#[test]
fn a_mate_by_drawing_is_proven_before_the_tree_search() {
    // mate2-001 of the tactics suite: drawing mates in two turns
    // whatever comes, and nothing else does. The tree alone needs
    // every kind's line opened to prove it; the prover hands it the
    // proof, and with a mate that quick known nothing is left to look
    // for.
    let pos: Position =
        "P-1,3/r-1,2/B0,2/K1,2/k-2,1/p0,1*/p2,1*/p-2,0/q-1,0/b-1,-1/N0,-1/n1,-2 b NP/bpp 3 52"
            .parse()
            .unwrap();
    let (choice, last) = search_hybrid(&pos);
    assert_eq!(choice, Some(Action::Draw));
    assert_eq!(
        (last.nodes, last.actions[0].action, last.actions[0].proven),
        (0, Action::Draw, Some(Proven::Win { turns: 3 }))
    );
}

#[test]
fn a_drawn_tile_checkmate_is_proven() {
    // Black, in check, holds only a knight in its pile, and no square
    // for it parries the check (tests/rules.rs): drawing loses.
    let pos: Position = "P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30".parse().unwrap();
    assert!(pos.ending_after_draw(Kind::Knight).is_some());
    let tree = run_hybrid(&pos, None, 50);
    let draw = tree
        .children(0)
        .find(|&c| tree.nodes[c].load().edge == Edge::Draw)
        .unwrap();
    assert_eq!(tree.nodes[draw].load().proof, Proof::Loss);
    let knight = tree.children(draw).next().unwrap();
    assert_eq!(tree.nodes[knight].load().edge, Edge::Drawn(Kind::Knight));
    assert_eq!(tree.nodes[knight].load().proof, Proof::Loss);
    // The game ends on the draw itself, before a turn is played.
    assert_eq!(tree.turns_through(draw), 0);
    let stats = tree.root_stats();
    let reported = stats.iter().find(|s| s.action == Action::Draw);
    assert_eq!(reported.unwrap().proven, Some(Proven::Loss { turns: 0 }));
    // The draw is never chosen again while a move is not lost.
    let others = tree.children(0).filter(|&c| c != draw).count();
    if others > 0 && tree.nodes[0].load().proof == Proof::Unknown {
        assert!(tree.nodes[draw].load().visits <= 1);
    }
}

#[test]
fn a_seeded_hybrid_search_is_reproducible() {
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let a = run_hybrid(&pos, None, 300);
    let b = run_hybrid(&pos, None, 300);
    assert_eq!(a.root_stats(), b.root_stats());
    assert_eq!(a.len(), b.len());
}

#[test]
fn judging_in_place_gives_each_action_its_own_value() {
    // A node's actions, and a draw's kinds, are judged in the judge's
    // own position, stepped through by make and unmake: each must get
    // the value a judge given a copy of the position after it finds, or
    // a ceiling over it no higher than the best move's value, which must
    // be exact.
    use crate::search::playout::{random_turn, Turn};
    let draw = DrawValue::new(Colour::White, 0);
    let mut judge = LeafJudge::with_evaluator(Evaluation::HandMade, 0, Colour::White, 0);
    let mut fresh = LeafJudge::new(0);
    let mut actions = Actions::new();
    let mut outcomes = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (mut moves, mut ceilings, mut kinds) = (0, 0, 0);
    for _game in 0..6 {
        let mut pos = Position::startpos();
        while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
            pos.make(mv);
            if pos.ending().is_some() {
                break;
            }
            actions.find(&mut pos, None);
            judge.judge(&Position::startpos(), None);
            actions.judge(&pos, &[], &mut judge, draw);
            let mut best = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            for (i, &mv) in actions.moves.iter().enumerate() {
                let mut after = pos.clone();
                after.make(mv);
                let mut exact = actions.values[i];
                if actions.statuses[i] == Status::Ongoing {
                    exact = 1.0 - expected_result(fresh.judge(&after, None)) as f32;
                    assert!(actions.values[i] >= exact, "{pos} {mv}");
                    moves += 1;
                    ceilings += usize::from(actions.values[i] > exact);
                }
                best = (best.0.max(actions.values[i]), best.1.max(exact));
            }
            assert_eq!(best.0, best.1, "{pos}");
            if actions.draw {
                let value = expected_result(fresh.judge_draw(&pos)) as f32;
                assert_eq!(actions.values.last(), Some(&value), "{pos}");
            }
            // Whatever the judge looked at last must not matter.
            judge.judge(&Position::startpos(), None);
            judge_outcomes(&pos, &mut judge, draw, &mut outcomes);
            for &(kind, _, value, status) in &outcomes {
                if status == Status::Ongoing {
                    let alone = expected_result(fresh.judge(&pos, Some(kind))) as f32;
                    assert_eq!(value, alone, "{pos} {kind:?}");
                    kinds += 1;
                }
            }
        }
    }
    assert!(
        moves > 1000 && ceilings > 100 && kinds > 100,
        "{moves} moves, {ceilings} ceilings, {kinds} kinds"
    );
}

/// After a ponder of a position the search of that position goes on
/// from the ponder's whole tree, in place; after any other search of it
/// the next starts afresh (a seeded search stays reproducible).
#[test]
fn a_pondered_tree_goes_on_whole_and_only_it() {
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let grown = |pondered: bool| {
        let mut tree = run(
            Tree::new(&pos, None, &[], &[], &params(), 50_000, Reuse::default()),
            3,
            2000,
        );
        tree.pondered = pondered;
        tree
    };
    let after = |at: &Position, kept: Tree| {
        Tree::new(at, None, &[], &[], &params(), 50_000, going_on(kept))
    };
    let pondered = grown(true);
    let len = pondered.len();
    let next = after(&pos, pondered);
    assert_eq!(next.len(), len);
    assert_eq!(next.nodes[0].load().visits, 2000);
    assert!(
        !next.pondered,
        "the tree goes on once, as the timed search's"
    );
    let plain = after(&pos, grown(false));
    assert_eq!(plain.nodes[0].load().visits, 0);
    // Another position is not this one, pondered or not.
    let other: Position = "Q0,0/n1,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let elsewhere = after(&other, grown(true));
    assert_eq!(elsewhere.nodes[0].load().visits, 0);
}

/// A search cut down to some actions (`go searchmoves`, a ponder of the
/// opponent's draw) starts from the last tree where the game went on
/// along it, with only those actions at its root, each with all it
/// learned; cut down to none, the root keeps every action.
#[test]
fn a_cut_down_root_keeps_only_the_actions_named_from_the_last_tree() {
    let pos: Position = "Q0,0/n1,1 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 2"
        .parse()
        .unwrap();
    let grown = || {
        run(
            Tree::new(&pos, None, &[], &[], &params(), 100_000, Reuse::default()),
            5,
            3000,
        )
    };
    let old = grown();
    let c = old
        .children(0)
        .max_by_key(|&c| old.nodes[c].visits())
        .unwrap();
    let Edge::Play(mv) = old.nodes[c].edge() else {
        panic!("the most visited action is a move")
    };
    let draw = old
        .children(c)
        .find(|&d| old.nodes[d].edge() == Edge::Draw)
        .unwrap();
    let (replies, draws) = (old.children(c).len(), old.nodes[draw].visits());
    assert!(draws > 0);
    let mut after = pos.clone();
    after.make(mv);
    // Black's turn searched for White, as a ponder of Black's draw is:
    // draws weigh as in White's own tree.
    let ours = Params {
        engine_side: Some(Colour::White),
        ..params()
    };
    let cut = Tree::new(
        &after,
        None,
        &[],
        &[Action::Draw],
        &ours,
        100_000,
        going_on(old),
    );
    let kept: Vec<usize> = cut.children(0).collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(cut.nodes[kept[0]].edge(), Edge::Draw);
    assert_eq!(cut.nodes[kept[0]].visits(), draws);
    assert!(
        !cut.children(kept[0]).is_empty(),
        "the kinds below the draw"
    );
    let whole = Tree::new(&after, None, &[], &[], &ours, 100_000, going_on(grown()));
    assert_eq!(whole.children(0).len(), replies);
    assert!(whole.children(0).any(|c| whole.nodes[c].visits() > 0));
}
