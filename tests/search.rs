//! The search (`Player ismcts`, the engine's default): reproducible under
//! a seed, always legal, finds a mate in one, avoids a move that allows
//! one, and stops on time.

use chex::rules::{Ending, Game, GameEnd, Kind, Move, Position};
use chex::search::playout::{random_turn, Turn};
use chex::search::{root_actions, Action, Engine, Limits, Params, Player, Report, Request};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The engine as it ships, on `threads` threads seeded with `seed`, with
/// a smaller tree (64 MiB) for tests that run side by side.
fn params(threads: usize, seed: u64) -> Params {
    Params {
        threads,
        seed,
        move_overhead: 0,
        hash_mib: 64,
        ..Params::default()
    }
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

/// The search's answer and every report it made, times left out.
fn run(
    pos: &Position,
    pending: Option<Kind>,
    limits: &Limits,
    p: &Params,
) -> (Option<Action>, Vec<Report>) {
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let request = Request {
        pending,
        ..Request::new(pos, limits, p)
    };
    let choice = Engine::new().search(&request, &stop, &mut |r: &Report| {
        reports.push(Report {
            elapsed: Duration::ZERO,
            ..r.clone()
        })
    });
    (choice, reports)
}

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

/// A middle game without piles: every action is a step.
const STEPS_ONLY: &str = "P-1,6*/P0,5*/p1,4/P-1,3*/K1,3/k0,2/r2,2/N1,1/n-2,0/N0,0/B-3,-1/n-2,-1/Q0,-1/B-3,-2/p-1,-2*/p1,-2*/p2,-3* b -/- 5 59";

/// The last report of a search on `engine`, which keeps what the search
/// leaves for the next.
fn last_report(
    engine: &Engine,
    pos: &Position,
    limits: &Limits,
    params: &Params,
    stop: &AtomicBool,
) -> Report {
    let mut last = None;
    let request = Request::new(pos, limits, params);
    engine.search(&request, stop, &mut |r| last = Some(r.clone()));
    last.expect("a report")
}

fn mates(pos: &Position, mv: Move) -> bool {
    let mut after = pos.clone();
    after.make(mv);
    matches!(
        after.ending(),
        Some(GameEnd {
            ending: Ending::Checkmate,
            ..
        })
    )
}

/// Middle-game positions with a single mating move among many.
const MATE_IN_ONE: [(&str, &str); 3] = [
    (
        "P-2,7/K-1,7/p-2,6/P-2,5/P-3,4/R-3,3/Q-2,3/k-4,2/p-2,2/B-1,2/p-4,1/P-1,1*/R-1,0/r-1,-1/B1,-1/p0,-2*/p2,-2* w -/- 0 56",
        "-2,3--4,1",
    ),
    (
        "P0,3/k1,2/Q2,2/b3,2/N-1,1/r0,1/p-2,0/P1,0*/P2,-1*/P-1,-2/K1,-2/p0,-3*/P0,-4*/R2,-4/P4,-4/p-1,-5*/q1,-5/p3,-5/R3,-6/B2,-7/P1,-8*/p2,-9*/n1,-10/B2,-10 w -/- 1 56",
        "-1,-2--1,0",
    ),
    (
        "P-1,6*/P0,5*/K0,4/p1,4/r2,4/P-1,3*/k0,2/N1,1/n-2,0/N0,0/B-3,-1/n-2,-1/Q0,-1/B-3,-2/p-1,-2*/p1,-2*/p2,-3* w -/- 0 57",
        "-3,-1--2,0",
    ),
];

/// Positions where at least half the moves let the opponent mate at once.
const BLUNDERS: [&str; 3] = [
    "b-2,6/P-2,5/N-2,4/P-2,3*/B0,3/n-2,2/B-1,2/p1,2*/R-3,1/K1,1/b0,0/Q-1,-1/P-1,-2/N0,-3/p1,-4*/k0,-5/p2,-5*/p1,-6/p2,-6* w -/- 0 56",
    "P2,2*/P3,1/P3,0/K1,-1/r3,-1/p0,-2*/p3,-2*/p-1,-3/p1,-3*/k2,-3/n0,-4/B0,-5/b0,-6/p-1,-7*/n0,-7/Q1,-7/P-2,-8/p-1,-8* b -/- 0 60",
    STEPS_ONLY,
];

#[test]
fn finds_a_mate_in_one() {
    for (text, mate) in MATE_IN_ONE {
        let p = pos(text);
        let mv = p.parse_move(mate).unwrap();
        assert!(mates(&p, mv), "{mate} should mate in {text}");
        let others = p.legal_moves().iter().filter(|&&m| mates(&p, m)).count();
        assert_eq!(others, 1, "one mate only in {text}");
        let (choice, _) = run(&p, None, &nodes(3000), &params(1, 5));
        assert_eq!(choice, Some(Action::Play(mv)), "in {text}");
    }
}

#[test]
fn avoids_a_move_that_allows_mate_in_one() {
    for text in BLUNDERS {
        let p = pos(text);
        let allows_mate = |mv: Move| {
            let mut after = p.clone();
            after.make(mv);
            after.ending().is_none() && after.legal_moves().iter().any(|&r| mates(&after, r))
        };
        let bad = p.legal_moves().iter().filter(|&&m| allows_mate(m)).count();
        assert!(bad * 2 >= p.legal_moves().len(), "a trap in {text}");
        for seed in [1, 2] {
            let (choice, _) = run(&p, None, &nodes(6000), &params(1, seed));
            let Some(Action::Play(mv)) = choice else {
                panic!("no move in {text}")
            };
            assert!(!allows_mate(mv), "{mv} allows mate in one in {text}");
        }
    }
}

#[test]
fn seeded_single_thread_search_is_reproducible() {
    let mut p = Position::startpos();
    for token in ["Q@0,0", "n@1,1", "K@-1,-1", "p@2,2"] {
        let mv = p.parse_move(token).unwrap();
        p.make(mv);
    }
    for pending in [None, Some(Kind::Rook)] {
        let a = run(&p, pending, &nodes(1500), &params(1, 11));
        let b = run(&p, pending, &nodes(1500), &params(1, 11));
        assert!(a.0.is_some());
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1, "the reports differ");
        assert_eq!(a.1.last().unwrap().nodes, 1500);
        let c = run(&p, pending, &nodes(1500), &params(1, 12));
        assert_ne!(a.1, c.1, "another seed should search differently");
    }
}

/// Positions from random games: some in check, some with a drawn tile to
/// place, some with one legal action.
fn sample_positions(count: usize) -> Vec<(Position, Option<Kind>)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let (mut checks, mut singles) = (0, 0);
    while out.len() < count {
        let mut p = Position::startpos();
        let plies = rng.gen_range(0..120);
        for _ in 0..plies {
            match random_turn(&mut p, &mut rng) {
                Turn::Play(mv) => {
                    p.make(mv);
                }
                _ => break,
            }
        }
        if p.ending().is_some() {
            continue;
        }
        let pile = p.pile(p.side_to_move());
        let pending = (!pile.is_empty() && rng.gen_bool(0.3))
            .then(|| pile.nth(rng.gen_range(0..pile.len())))
            .filter(|&k| p.ending_after_draw(k).is_none());
        let actions = root_actions(&p, pending).len();
        checks += usize::from(p.in_check());
        singles += usize::from(actions == 1);
        out.push((p, pending));
    }
    assert!(
        checks > 0 && singles > 0,
        "checks {checks}, single actions {singles}"
    );
    out
}

#[test]
fn never_answers_an_illegal_action() {
    for (i, (p, pending)) in sample_positions(150).into_iter().enumerate() {
        let mut par = params(1 + i % 2, i as u64 + 1);
        par.playout_cap = 40;
        par.hash_mib = 1;
        let (choice, reports) = run(&p, pending, &nodes(150), &par);
        let choice = choice.expect("an action while the game goes on");
        assert!(
            root_actions(&p, pending).contains(&choice),
            "{choice} is not legal in {p} (drawn {pending:?})"
        );
        match (choice, pending) {
            (Action::Play(mv), Some(kind)) => {
                assert!(p.legal_placements(kind).contains(&mv), "{mv} in {p}")
            }
            (Action::Play(mv), None) => assert!(p.is_legal(mv), "{mv} in {p}"),
            (Action::Draw, pending) => {
                assert!(pending.is_none() && !p.pile(p.side_to_move()).is_empty())
            }
        }
        let last = reports.last().expect("a final report");
        assert_eq!(
            last.actions[0].action, choice,
            "the report leads with the answer"
        );
    }
}

#[test]
fn stops_on_time_and_on_stop() {
    let p = pos(BLUNDERS[0]);
    for threads in [1, 2] {
        let limits = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        let start = Instant::now();
        let (choice, _) = run(&p, None, &limits, &params(threads, 3));
        let took = start.elapsed();
        assert!(choice.is_some());
        assert!(
            took >= Duration::from_millis(190) && took < Duration::from_millis(400),
            "movetime 200 took {took:?} on {threads} threads"
        );
    }
    // `go infinite` ends at `stop`, within a few milliseconds.
    let stop = AtomicBool::new(false);
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let stopped_at = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(150));
            *stopped_at.lock().unwrap() = Some(Instant::now());
            stop.store(true, Ordering::Relaxed);
        });
        let params = params(2, 4);
        let request = Request::new(&p, &infinite, &params);
        let choice = Engine::new().search(&request, &stop, &mut |_| {});
        let lag = stopped_at.lock().unwrap().expect("stopped").elapsed();
        assert!(choice.is_some());
        assert!(
            lag < Duration::from_millis(100),
            "answered {lag:?} after stop"
        );
    });
}

#[test]
fn a_clock_is_spent_within_its_share() {
    // 10 s on the clock: a share is 10000/30 ms, at most three shares when
    // the best moves are close; smart pruning may stop sooner.
    let p = pos(BLUNDERS[1]);
    let limits = Limits {
        wtime: Some(10_000),
        btime: Some(10_000),
        ..Limits::default()
    };
    let start = Instant::now();
    let (choice, _) = run(&p, None, &limits, &params(2, 8));
    assert!(choice.is_some());
    assert!(
        start.elapsed() < Duration::from_millis(1_100),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn the_clock_runs_from_when_go_was_read() {
    // A `go movetime 100` read 150 ms ago, the search only starting now
    // (a busy machine): every player answers after little more than the
    // work it cannot skip, never 100 ms of its own.
    let p = pos(BLUNDERS[0]);
    for player in [Player::Ismcts, Player::Alphabeta, Player::Ucb] {
        let limits = Limits {
            movetime: Some(100),
            started: Some(Instant::now() - Duration::from_millis(150)),
            ..Limits::default()
        };
        let params = Params {
            player,
            ..params(1, 5)
        };
        let (choice, reports) = run(&p, None, &limits, &params);
        let last = reports.last().expect("a report");
        assert!(choice.is_some());
        assert!(
            last.nodes <= 1024,
            "{player:?} went on for {} nodes past its deadline",
            last.nodes
        );
    }
}

#[test]
fn contempt_steers_away_from_a_repetition_or_into_it() {
    // Two bishops leapfrog across the table; Black's next step makes the
    // position occur for the third time (up to translation): a draw.
    let mut game = Game::new(Position::startpos());
    for token in [
        "B@0,0",
        "b@0,1",
        "0,0--1,1",
        "0,1--1,2",
        "-1,1--2,2",
        "-1,2--2,1",
        "-2,2--1,1",
    ] {
        let mv = game.position().parse_move(token).unwrap();
        game.play(mv).unwrap();
    }
    let repeat = game.position().parse_move("-2,1--1,2").unwrap();
    let mut after = game.clone();
    after.play(repeat).unwrap();
    assert!(matches!(after.ending(), Some(GameEnd { winner: None, .. })));
    let limits = nodes(3000);
    for player in [Player::Ismcts, Player::Alphabeta] {
        // Contempt makes the draw worth 27% to the engine; a negative one
        // makes it worth 73%, more than anything else on offer.
        for (contempt, repeats) in [(400, false), (-400, true)] {
            let p = Params {
                player,
                contempt,
                ..params(1, 7)
            };
            let stop = AtomicBool::new(false);
            let request = Request {
                history: game.recent_keys(),
                ..Request::new(game.position(), &limits, &p)
            };
            let choice = Engine::new().search(&request, &stop, &mut |_| {});
            assert_eq!(
                choice == Some(Action::Play(repeat)),
                repeats,
                "{player:?} with contempt {contempt} chose {choice:?}"
            );
        }
    }
}

#[test]
fn go_depth_stops_alphabeta_after_that_depth() {
    // A quiet early table: no mate ends the deepening before the limit.
    let p = pos("Q0,0/n1,1/P-1,-1/b0,1/R1,0 b KRBBNNPPPPPPP/kqrrbnpppppppp 0 3");
    let params = Params {
        player: Player::Alphabeta,
        ..params(1, 5)
    };
    let mut nodes = Vec::new();
    for depth in 1..=3 {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        assert!(!limits.is_endless(p.side_to_move(), 0));
        let (choice, reports) = run(&p, None, &limits, &params);
        assert!(choice.is_some());
        // One report for each depth finished.
        assert_eq!(reports.len() as u64, depth, "depth {depth}");
        nodes.push(reports.last().unwrap().nodes);
    }
    assert!(nodes[0] < nodes[1] && nodes[1] < nodes[2], "{nodes:?}");
}

/// Tree reuse: a search that starts where the last one's line of play
/// went on keeps what the last one learned of it.
#[test]
fn the_next_search_starts_from_the_subtree_of_the_line_played() {
    let start = pos(STEPS_ONLY);
    let params = params(1, 9);
    let engine = Engine::new();
    let search = |pos: &Position, nodes: u64| {
        let limits = self::nodes(nodes);
        last_report(&engine, pos, &limits, &params, &AtomicBool::new(false))
    };
    let first = search(&start, 3000);
    let best = &first.actions[0];
    let (Action::Play(ours), [Action::Play(theirs), ..]) = (best.action, &best.pv[..]) else {
        panic!("a step and a reply: {:?} {:?}", best.action, best.pv);
    };
    let mut next = start.clone();
    next.make(ours);
    next.make(*theirs);
    // One new iteration; the rest of the root's visits come from the
    // last search's subtree below the two steps.
    let again = search(&next, 1);
    assert!(
        again.nodes > 10,
        "the root's children have {} visits after one iteration",
        again.nodes
    );
    // A position the last search never reached starts afresh.
    let fresh = search(&start, 1);
    assert!(fresh.nodes <= 1, "{} visits", fresh.nodes);
    // Nor does a new game keep anything of the last.
    search(&start, 3000);
    engine.new_game();
    let after_new_game = search(&next, 1);
    assert!(after_new_game.nodes <= 1, "{} visits", after_new_game.nodes);
}

/// A ponder keeps the tree before it: when the opponent plays another
/// reply than the one pondered, the next search still starts from what
/// the search before the ponder learned of the reply played.
#[test]
fn after_a_wrong_guess_the_search_goes_on_from_the_tree_before_the_ponder() {
    let start = pos(STEPS_ONLY);
    let params = params(1, 9);
    let engine = Engine::new();
    let search = |pos: &Position, limits: &Limits, stop: &AtomicBool| {
        last_report(&engine, pos, limits, &params, stop)
    };
    let first = search(&start, &nodes(3000), &AtomicBool::new(false));
    let best = &first.actions[0];
    let (Action::Play(ours), [Action::Play(theirs), ..]) = (best.action, &best.pv[..]) else {
        panic!("a step and a reply: {:?} {:?}", best.action, best.pv);
    };
    let mut after = start.clone();
    after.make(ours);
    let guess = after
        .legal_moves()
        .into_iter()
        .find(|&m| m != *theirs)
        .expect("another reply");
    let mut pondered = after.clone();
    pondered.make(guess);
    // A ponder searches until `stop`: set at once, it still searches a
    // little and keeps its tree.
    let ponder = Limits {
        ponder: true,
        ..Limits::default()
    };
    search(&pondered, &ponder, &AtomicBool::new(true));
    let mut played = after;
    played.make(*theirs);
    let again = search(&played, &nodes(1), &AtomicBool::new(false));
    assert!(
        again.nodes > 10,
        "the root's children have {} visits after one iteration",
        again.nodes
    );
}

/// Below full strength the engine searches less and errs on purpose:
/// at the lowest level its choice varies with the seed, stays among the
/// legal actions, and comes after no more iterations than the level
/// allows, whatever `go` asks.
#[test]
fn a_lower_skill_searches_less_and_varies_its_choice() {
    let start = pos(STEPS_ONLY);
    let legal = root_actions(&start, None);
    let mut chosen = std::collections::HashSet::new();
    for seed in 1..=20 {
        let p = Params {
            skill: 1,
            ..params(1, seed)
        };
        let (choice, reports) = run(&start, None, &nodes(5000), &p);
        let choice = choice.expect("an action");
        assert!(legal.contains(&choice), "{choice}");
        let searched = reports.last().expect("a report").nodes;
        assert!(searched <= 8, "{searched} iterations at level 1");
        chosen.insert(choice);
    }
    assert!(chosen.len() > 1, "always {chosen:?}");
    // At full strength the limit is the one `go` gives.
    let (_, reports) = run(&start, None, &nodes(5000), &params(1, 1));
    assert!(reports.last().unwrap().nodes > 1000);
}
