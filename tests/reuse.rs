//! Tree reuse: a search that starts where the last one's line of play
//! went on keeps what the last one learned of it. In a file of its own,
//! as the kept tree is one for the whole process and tests run side by
//! side in threads.

use chex::protocol::options::Options;
use chex::rules::Position;
use chex::search::{self, Action, Limits, Params, Report, Request};
use std::sync::atomic::AtomicBool;

fn search(pos: &Position, nodes: u64, params: &Params) -> Report {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut last = None;
    search::search(&Request::new(pos, &limits, params), &stop, &mut |r| {
        last = Some(r.clone())
    });
    last.expect("a report")
}

#[test]
fn the_next_search_starts_from_the_subtree_of_the_line_played() {
    // A middle game without piles: every action is a step.
    let start: Position = "P-1,6*/P0,5*/p1,4/P-1,3*/K1,3/k0,2/r2,2/N1,1/n-2,0/N0,0/B-3,-1/n-2,-1/Q0,-1/B-3,-2/p-1,-2*/p1,-2*/p2,-3* b -/- 5 59"
        .parse()
        .unwrap();
    let params = Params {
        threads: 1,
        seed: 9,
        ..Options::default().params
    };
    let first = search(&start, 3000, &params);
    let best = &first.actions[0];
    let (Action::Play(ours), [Action::Play(theirs), ..]) = (best.action, &best.pv[..]) else {
        panic!("a step and a reply: {:?} {:?}", best.action, best.pv);
    };
    let mut next = start.clone();
    next.make(ours);
    next.make(*theirs);
    // One new iteration; the rest of the root's visits come from the
    // last search's subtree below the two steps.
    let again = search(&next, 1, &params);
    assert!(
        again.nodes > 10,
        "the root's children have {} visits after one iteration",
        again.nodes
    );
    // A position the last search never reached starts afresh.
    let fresh = search(&start, 1, &params);
    assert!(fresh.nodes <= 1, "{} visits", fresh.nodes);
}
