//! How a new leaf is valued, chosen once for a search by the
//! `LeafDepth` option: by a random game played out from it (plain
//! ISMCTS), or by the leaf judge, a quiescence or a shallow alpha-beta
//! search (the MCTS–minimax hybrid). The judge values every action of a
//! node when the node is opened, and every kind a draw can bring when the
//! draw is first entered.

use super::node::Status;
use super::outcome::DrawValue;
use super::proof::Proof;
use crate::rules::{is_third_occurrence, Colour, Kind, Move, MoveList, Piece, Position};
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::playout::win_probability;
use crate::search::eval::Evaluation;
use crate::search::playout::{playout, Policy};
use crate::search::score::{expected_result, WIN};
use crate::search::{Action, Params};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Whether a search with `params` values its leaves by the judge (the
/// hybrid) rather than by random playouts: decided here alone.
pub(super) fn judges_leaves(params: &Params) -> bool {
    params.leaf_depth >= 0
}

/// The leaf judge of a search by `engine`: its draws, and the stranded
/// kings it shrinks towards them, weigh what the tree's draws do.
pub(super) fn judge_for(params: &Params, engine: Colour) -> LeafJudge<Evaluation> {
    let evaluation = params.evaluation.clone();
    LeafJudge::with_evaluator(evaluation, params.leaf_depth, engine, params.contempt)
}

/// How a random game from a leaf ended.
pub(super) struct PlayedOut {
    /// Turns played, the drawn tile's placement included.
    pub(super) plies: u64,
    /// `Ok` with the winner (`None`: drawn) of a finished game; `Err`
    /// with White's chance of winning, judged by material, of a game cut
    /// by the cap.
    pub(super) result: Result<Option<Colour>, f64>,
}

/// Plays a random game from `pos`, the drawn tile of `pending` kind placed
/// first at random, for at most `cap` turns by `policy`.
pub(super) fn play_out(
    pos: &mut Position,
    pending: Option<Kind>,
    rng: &mut ChaCha8Rng,
    cap: u32,
    policy: Policy,
) -> PlayedOut {
    let mut plies = 0;
    if let Some(kind) = pending {
        let placements = pos.legal_placements(kind);
        if placements.is_empty() {
            return PlayedOut {
                plies,
                result: Ok(pos.ending_when_stuck(kind).winner),
            };
        }
        let to = placements[rng.gen_range(0..placements.len())].to();
        pos.make(Move::Place {
            piece: Piece::new(pos.side_to_move(), kind),
            to,
        });
        plies += 1;
    }
    let playout = playout(pos, rng, cap, policy);
    PlayedOut {
        plies: plies + playout.plies as u64,
        result: match playout.end {
            Some(end) => Ok(end.winner),
            None => Err(win_probability(pos, Colour::White)),
        },
    }
}

/// The choices at a decision node.
pub(super) struct Actions {
    pub(super) side: Colour,
    pub(super) moves: MoveList,
    pub(super) draw: bool,
    /// In the hybrid search, each action's value for `side` (the moves',
    /// then the draw's) and whether the game ends with it.
    pub(super) values: Vec<f32>,
    pub(super) statuses: Vec<Status>,
    /// The moves whose value the judge bounds from above cheaply, with
    /// that ceiling, and those it cannot bound (they give check): buffers
    /// of [`Actions::judge`].
    ceilings: Vec<(f32, usize)>,
    unbounded: Vec<usize>,
}

impl Actions {
    pub(super) fn new() -> Actions {
        Actions {
            side: Colour::White,
            moves: MoveList::new(),
            draw: false,
            values: Vec::new(),
            statuses: Vec::new(),
            ceilings: Vec::new(),
            unbounded: Vec::new(),
        }
    }

    /// Judges each action found by [`Actions::find`] in `pos` (reached
    /// after the positions of `keys`) for the side choosing it: a move by
    /// the leaf judge's score of the position after it, or exactly when
    /// the game ends with it; "draw", until its kinds are judged, by the
    /// judge's score of drawing as the position stands.
    ///
    /// A move need only be valued exactly where it beats the best value
    /// judged before it. Where the opponent could stand on its static
    /// evaluation after a move ([`LeafJudge::floor_here`]), that
    /// evaluation is a ceiling on the move's value. The move with the
    /// best ceiling is judged first, then the moves without one (they
    /// give check), then the other ceilings' best first; once a ceiling
    /// is no higher than the best value, it is the move's value. A move
    /// judged after a better one may get the judge's fail-soft bound,
    /// again a ceiling no higher than the best. So the node's best, its
    /// minimax value, is the one every move judged in full would give,
    /// and a move valued too high is judged in full when its node is
    /// opened.
    pub(super) fn judge(
        &mut self,
        pos: &Position,
        keys: &[u64],
        judge: &mut LeafJudge<Evaluation>,
        draw: DrawValue,
    ) {
        self.values.clear();
        self.statuses.clear();
        self.ceilings.clear();
        self.unbounded.clear();
        let us = self.side;
        judge.set_position(pos);
        let over = |winner| {
            let value = Proof::of(winner, us)
                .value(draw.for_side(us))
                .unwrap_or(0.5);
            (Status::Over(winner), value)
        };
        // The move's value, or a ceiling on it no higher than `best`
        // where that is all the node needs: the opponent's score at
        // `beta` or more leaves the move there.
        let judged = |judge: &mut LeafJudge<Evaluation>, best: f32| {
            let beta = ((1.0 - 2.0 * f64::from(best)) * f64::from(WIN)).ceil() + 1.0;
            match judge.judge_unless_no_move_below(beta.min(f64::from(WIN + 1)) as i32) {
                Some(score) => (Status::Ongoing, 1.0 - expected_result(score) as f32),
                None => over(judge.position_mut().ending_without_moves().winner),
            }
        };
        let mut best = f32::NEG_INFINITY;
        for (i, &mv) in self.moves.iter().enumerate() {
            let after = judge.position_mut();
            let undo = after.make(mv);
            let ended = if is_third_occurrence(keys, after.hash()) {
                Some(None)
            } else if after.halfmove_clock() >= 100 {
                // The fifty-move draw, unless the side to move is mated.
                after.ending_in_place().map(|end| end.winner)
            } else {
                None
            };
            let (status, value) = match ended {
                Some(winner) => over(winner),
                None => match judge.floor_here() {
                    Some(floor) => {
                        let ceiling = 1.0 - expected_result(floor) as f32;
                        self.ceilings.push((ceiling, i));
                        (Status::Ongoing, ceiling)
                    }
                    None => {
                        self.unbounded.push(i);
                        (Status::Ongoing, f32::NEG_INFINITY)
                    }
                },
            };
            judge.position_mut().unmake(mv, undo);
            self.values.push(value);
            self.statuses.push(status);
            if matches!(status, Status::Over(_)) {
                best = best.max(value);
            }
        }
        self.ceilings
            .sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        // A check judged after the best ceiling's move is judged within
        // a window closed at that move's value, most often the best.
        let first = self.ceilings.len().min(1);
        let (top, rest) = self.ceilings.split_at(first);
        let unbounded = self.unbounded.iter().map(|&i| (f32::INFINITY, i));
        for (ceiling, i) in top
            .iter()
            .copied()
            .chain(unbounded)
            .chain(rest.iter().copied())
        {
            if ceiling <= best {
                continue;
            }
            let mv = self.moves[i];
            let undo = judge.position_mut().make(mv);
            let (status, value) = judged(judge, best);
            judge.position_mut().unmake(mv, undo);
            self.values[i] = value;
            self.statuses[i] = status;
            best = best.max(value);
        }
        if self.draw {
            self.values
                .push(expected_result(judge.judge_draw_here()) as f32);
            self.statuses.push(Status::Unknown);
        }
    }

    /// Keeps only the actions `only` names, or all when it is empty.
    pub(super) fn keep(&mut self, only: &[Action]) {
        if !only.is_empty() {
            self.moves.retain(|mv| only.contains(&Action::Play(*mv)));
            self.draw &= only.contains(&Action::Draw);
        }
    }

    /// Becomes the actions of the side to move of `pos`, with a drawn
    /// tile of `pending` kind (if any): its placements, or its piece moves
    /// and "draw" while its pile is not empty.
    pub(super) fn find(&mut self, pos: &mut Position, pending: Option<Kind>) {
        self.moves.clear();
        match pending {
            Some(kind) => pos.generate_placements(kind, &mut self.moves),
            None => pos.generate_steps(&mut self.moves),
        }
        self.side = pos.side_to_move();
        self.draw = pending.is_none() && !pos.pile(self.side).is_empty();
        self.values.clear();
        self.statuses.clear();
    }
}

/// A kind a draw can bring, as judged when the draw is opened: how many
/// of the pile's tiles are of the kind, the drawer's value of holding it,
/// and whether the game ends there (no square for it).
pub(super) type Outcomes = (Kind, u8, f32, Status);

/// Judges each kind the side to move of `pos` can draw, into `out`: its
/// count in the pile, the drawer's value of holding it (the best
/// placement, searched by `judge`), and whether the game ends there.
pub(super) fn judge_outcomes(
    pos: &Position,
    judge: &mut LeafJudge<Evaluation>,
    draw: DrawValue,
    out: &mut Vec<Outcomes>,
) {
    out.clear();
    let us = pos.side_to_move();
    let pile = pos.pile(us);
    judge.set_position(pos);
    for kind in pile.kinds() {
        let (status, value) = match pos.ending_after_draw(kind) {
            Some(end) => {
                let status = Status::Over(end.winner);
                let value = Proof::of(end.winner, us).value(draw.for_side(us));
                (status, value.unwrap_or(0.5))
            }
            None => (
                Status::Ongoing,
                expected_result(judge.judge_here(Some(kind))) as f32,
            ),
        };
        out.push((kind, pile.count(kind), value, status));
    }
}
