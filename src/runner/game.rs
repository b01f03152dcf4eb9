//! One game between two running engines under the referee, with clocks.
//!
//! The runner owns the deal: an engine that answers `bestmove @` is shown
//! the drawn tile as `N@` at the end of the move list and asked again.
//! Both answers of such a turn are timed on the mover's clock; the
//! increment is added once per turn, after the placement. Before each
//! request the engine must answer `isready`, so that a stale line (a
//! second `bestmove`) is never taken for the answer.
//!
//! An engine that ponders, answering `bestmove X ponder Y`, is shown the
//! game with Y played and told `go ponder` with the limits of its next
//! move, and searches while the opponent thinks. If the opponent's turn
//! is Y, it is told `ponderhit`, and its clock starts then; otherwise
//! `stop`, its `bestmove` dropped, and it is asked as usual. A reply Y of
//! `@` is never hit: the opponent's turn is the draw and a placement, so
//! the engine is stopped and asked, and starts from what its ponder
//! searched below the draw. The time a ponder takes is on no clock.

use super::engine::{EngineFailure, EngineProcess};
use crate::protocol::client::{bestmove, ponder_reply, Info, PONDERHIT, STOP};
use crate::referee::{GameRecord, Played, Referee, Side};
use crate::rules::Colour;
use std::time::{Duration, Instant};

/// How long an engine that overran its time gets to answer `stop` before
/// it is judged silent and restarted.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// How each answer is limited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// Clocks: a base per game and an increment per turn, in ms.
    Clock {
        /// Each side's time for the game.
        base_ms: u64,
        /// Added to the mover's clock after each of its turns.
        inc_ms: u64,
    },
    /// A fixed time per answer, in ms.
    MoveTime(u64),
    /// A fixed number of playouts per answer; time is not judged.
    Nodes(u64),
}

impl Limit {
    /// The form records and tables show: `tc 10+0.1`, `movetime 100`,
    /// `nodes 1000`.
    pub fn describe(&self) -> String {
        match *self {
            Limit::Clock { base_ms, inc_ms } => {
                format!("tc {}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            Limit::MoveTime(ms) => format!("movetime {ms}"),
            Limit::Nodes(n) => format!("nodes {n}"),
        }
    }
}

/// How strictly time is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judging {
    /// How far past its time an answer may come and still count.
    pub margin_ms: u64,
    /// Under `Limit::Nodes`, how long an engine may think per answer
    /// before it is judged silent.
    pub silence_ms: u64,
}

/// A game lost off the table.
struct Forfeit {
    ending: &'static str,
    reason: String,
    /// The engine must be restarted before it plays again.
    restart: bool,
}

/// A finished game and which engines (by colour index) must be
/// restarted because they crashed or fell silent.
pub struct GameOutcome {
    /// The record, result and reason filled in.
    pub record: GameRecord,
    /// Per colour: restart this engine before its next game.
    pub restart: [bool; 2],
}

/// Plays `referee`'s game to its end between `engines` (White's first)
/// and records it; the engines `ponder` names (by colour) ponder. Never
/// fails: whatever an engine does, the game ends with a result and a
/// reason.
pub fn play_game(
    mut referee: Referee,
    engines: [&mut EngineProcess; 2],
    sides: [Side; 2],
    limit: Limit,
    judging: Judging,
    ponder: [bool; 2],
) -> GameOutcome {
    let mut restart = [false; 2];
    let mut clock: [i64; 2] = match limit {
        Limit::Clock { base_ms, .. } => [base_ms as i64; 2],
        _ => [0; 2],
    };
    let mut times = Vec::new();
    let mut answers: Vec<Vec<u64>> = Vec::new();
    let mut values: Vec<Option<f64>> = Vec::new();
    let mut forfeit: Option<(Colour, Forfeit)> = None;
    // Per colour, the reply an engine is pondering on.
    let mut pondering: [Option<String>; 2] = [None, None];
    // The answers of the last turn, which a ponder hits or misses.
    let mut last_turn: Vec<String> = Vec::new();
    let go_line = |clock: &[i64; 2], ponder: bool| {
        let go = if ponder { "go ponder" } else { "go" };
        match limit {
            Limit::Clock { inc_ms, .. } => format!(
                "{go} wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                clock[0].max(0),
                clock[1].max(0)
            ),
            Limit::MoveTime(ms) => format!("{go} movetime {ms}"),
            Limit::Nodes(n) => format!("{go} nodes {n}"),
        }
    };

    for colour in Colour::ALL {
        if let Err(e) = engines[colour.index()].new_game() {
            forfeit = Some((colour, failure(e, "at the start of the game")));
            break;
        }
    }

    'game: while forfeit.is_none() && referee.ending().is_none() {
        let mover = referee.position().side_to_move();
        let engine = &mut *engines[mover.index()];
        let mut turn: Vec<u64> = Vec::new();
        // What the mover's search expected where the turn began.
        let mut turn_value = None;
        // A ponder on the opponent's turn just played: hit, or stopped.
        let mut hit = false;
        if let Some(reply) = pondering[mover.index()].take() {
            hit = last_turn == [reply];
            if !hit {
                if let Err(e) = stop_ponder(engine) {
                    forfeit = Some((mover, failure(e, "to stop after its ponder")));
                    break 'game;
                }
            }
        }
        let mut answer_tokens = Vec::new();
        loop {
            let go = go_line(&clock, false);
            let allowed = match limit {
                Limit::Clock { .. } => Some(clock[mover.index()].max(0) as u64),
                Limit::MoveTime(ms) => Some(ms),
                Limit::Nodes(_) => None,
            };
            let request = if std::mem::take(&mut hit) {
                Request::PonderHit
            } else {
                Request::Go {
                    position: referee.position_command(),
                    go,
                }
            };
            let answer = ask(engine, request, allowed, judging);
            let Answer {
                token,
                ms,
                expected,
                reply,
            } = match answer {
                Ok(a) => a,
                Err(f) => {
                    if referee.pending().is_some() {
                        times.push(turn.iter().sum());
                        values.push(turn_value);
                        answers.push(turn);
                    }
                    forfeit = Some((mover, f));
                    break 'game;
                }
            };
            if turn.is_empty() {
                turn_value = expected;
            }
            turn.push(ms);
            answer_tokens.push(token.clone());
            if let Limit::Clock { .. } = limit {
                clock[mover.index()] = (clock[mover.index()] - ms as i64).max(0);
            }
            match referee.play(&token) {
                Ok(Played::Drew(_)) if referee.ending().is_some() => {
                    times.push(turn.iter().sum());
                    values.push(turn_value);
                    answers.push(turn);
                    break 'game;
                }
                Ok(Played::Drew(_)) => continue,
                Ok(Played::Moved) => {
                    if ponder[mover.index()] {
                        pondering[mover.index()] = reply;
                    }
                    break;
                }
                Err(refusal) => {
                    if referee.pending().is_some() {
                        times.push(turn.iter().sum());
                        values.push(turn_value);
                        answers.push(turn);
                    }
                    let shown = if token.is_empty() {
                        "an empty bestmove".to_string()
                    } else {
                        format!("{refusal}")
                    };
                    forfeit = Some((
                        mover,
                        Forfeit {
                            ending: "illegal",
                            reason: format!("illegal answer: {shown}"),
                            restart: false,
                        },
                    ));
                    break 'game;
                }
            }
        }
        times.push(turn.iter().sum());
        values.push(turn_value);
        answers.push(turn);
        if let Limit::Clock { inc_ms, .. } = limit {
            clock[mover.index()] += inc_ms as i64;
        }
        last_turn = answer_tokens;
        if let Some(reply) = pondering[mover.index()].take() {
            // Only a reply the opponent may play, after which the game
            // goes on, is worth a search.
            let mut after = referee.clone();
            let goes_on = referee.ending().is_none()
                && referee.legal_tokens().contains(&reply)
                && after.play(&reply).is_ok()
                && (reply == "@" || after.ending().is_none());
            if goes_on {
                let position = position_with(&referee.position_command(), &reply);
                let sent = engine
                    .send(&position)
                    .and_then(|()| engine.send(&go_line(&clock, true)));
                if let Err(e) = sent {
                    forfeit = Some((mover, failure(e, "when asked to ponder")));
                    break 'game;
                }
                pondering[mover.index()] = Some(reply);
            }
        }
    }

    // A ponder still running when the game ends is stopped, so that the
    // engine is idle for the next game; one that will not stop is
    // restarted.
    for colour in Colour::ALL {
        if pondering[colour.index()].take().is_some()
            && stop_ponder(engines[colour.index()]).is_err()
        {
            restart[colour.index()] = true;
        }
    }

    let [white_side, black_side] = sides;
    let mut record = GameRecord::from_referee(&referee, white_side, black_side);
    record.tc = limit.describe();
    record.times_ms = times;
    record.answers_ms = answers;
    record.values = values;
    if let Some((loser, f)) = forfeit {
        restart[loser.index()] = f.restart;
        let reason = format!("{loser} forfeits: {}", f.reason);
        record.forfeit_for(loser, f.ending, reason);
    }
    GameOutcome { record, restart }
}

/// The game with `reply` played after it: the ponder's position.
fn position_with(position: &str, reply: &str) -> String {
    if position.contains(" moves ") {
        format!("{position} {reply}")
    } else {
        format!("{position} moves {reply}")
    }
}

/// Stops a ponder and waits for its `bestmove`, which is dropped: the
/// engine is then idle, ready to be asked for its move.
fn stop_ponder(engine: &mut EngineProcess) -> Result<(), EngineFailure> {
    engine.send(STOP)?;
    engine
        .wait_for(Instant::now() + STOP_GRACE, |l| bestmove(l).is_some())
        .map(|_| ())
}

/// What an engine is asked for its answer.
enum Request {
    /// The game and the limits.
    Go {
        /// The `position` line.
        position: String,
        /// The `go` line.
        go: String,
    },
    /// `ponderhit`: its ponder search, on the game as it now stands,
    /// becomes the timed search.
    PonderHit,
}

/// An engine's answer to one `go`.
struct Answer {
    /// The action it chose.
    token: String,
    /// The opponent's reply it expects (`bestmove X ponder Y`).
    reply: Option<String>,
    /// Milliseconds it took.
    ms: u64,
    /// What its last `info` line before the answer expected for the side
    /// to move ([`Info::expected_result`]), if it said.
    expected: Option<f64>,
}

/// Shows the engine the game and asks for its answer (or tells it its
/// ponder was hit), or says why the engine loses.
fn ask(
    engine: &mut EngineProcess,
    request: Request,
    allowed_ms: Option<u64>,
    judging: Judging,
) -> Result<Answer, Forfeit> {
    let sent = match request {
        Request::Go { position, go } => {
            // Idle first: whatever it printed since its last answer is
            // dropped, a second `bestmove` included. The clock starts
            // after `readyok`.
            engine
                .ready()
                .map_err(|e| failure(e, "to isready before its turn"))?;
            engine.send(&position).and_then(|()| engine.send(&go))
        }
        // Pondering, it has printed no `bestmove` to drop, and its clock
        // starts with `ponderhit`.
        Request::PonderHit => engine.send(PONDERHIT),
    };
    sent.map_err(|e| failure(e, "when asked to move"))?;
    let start = Instant::now();
    let limit_ms = match allowed_ms {
        Some(a) => a + judging.margin_ms,
        None => judging.silence_ms,
    };
    let had = match allowed_ms {
        Some(a) => format!("{a} ms + {} ms margin", judging.margin_ms),
        None => format!("{limit_ms} ms"),
    };
    let deadline = start + Duration::from_millis(limit_ms);
    let is_bestmove = |l: &str| bestmove(l).is_some();
    let mut expected = None;
    let answered = engine.wait_for(deadline, |l| {
        if let Some(e) = Info::parse(l).and_then(|info| info.expected_result()) {
            // Four decimals: finer than any search's estimate means.
            expected = Some((e * 1e4).round() / 1e4);
        }
        is_bestmove(l)
    });
    match answered {
        Ok(line) => {
            let ms = start.elapsed().as_millis() as u64;
            if allowed_ms.is_some() && ms > limit_ms {
                return Err(Forfeit {
                    ending: "time",
                    reason: format!("lost on time: answered after {ms} ms, had {had}"),
                    restart: false,
                });
            }
            let token = bestmove(&line).unwrap_or("").to_string();
            Ok(Answer {
                token,
                reply: ponder_reply(&line).map(str::to_string),
                ms,
                expected,
            })
        }
        Err(EngineFailure::Silent) if allowed_ms.is_some() => {
            // Over time: the game is lost either way. An engine that
            // still answers `stop` is kept; one that does not is restarted.
            let answered = engine
                .send(STOP)
                .and_then(|()| engine.wait_for(Instant::now() + STOP_GRACE, is_bestmove));
            match answered {
                Ok(_) => Err(Forfeit {
                    ending: "time",
                    reason: format!("lost on time: no bestmove within {had}"),
                    restart: false,
                }),
                Err(e) => Err(failure(e, &format!("within {had}, nor after stop"))),
            }
        }
        Err(e) => Err(failure(e, &format!("within {had}"))),
    }
}

/// The forfeit for an engine that crashed or fell silent.
fn failure(e: EngineFailure, when: &str) -> Forfeit {
    match e {
        EngineFailure::Crashed(how) => Forfeit {
            ending: "crash",
            reason: format!("crashed: {how}"),
            restart: true,
        },
        EngineFailure::Silent => Forfeit {
            ending: "silent",
            reason: format!("silent: no answer {when}"),
            restart: true,
        },
    }
}
