//! The game the GUI runs, held by the server so that every tab and every
//! reload sees the same one. All rules go through the [`Referee`]; the page
//! only shows what this state says (built by `view`) and sends tokens back.
//! `study` holds the requests of study that change the game's state.

pub mod study;

use crate::gui::clock::{self, Clock};
use crate::gui::refused::{in_range, Refused};
use crate::protocol::client::Info;
use crate::referee::{Deal, GameRecord, Referee, Side};
use crate::rules::{Colour, Position};
use crate::search::skill::FULL_STRENGTH;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Who plays which side of the game on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The person plays White against the engine.
    White,
    /// The person plays Black against the engine.
    Black,
    /// The engine plays both sides; the person watches.
    Watch,
    /// Two people share the page; the engine stays idle.
    Two,
}

impl Mode {
    /// True when the engine plays `colour` in this mode.
    pub fn engine_plays(self, colour: Colour) -> bool {
        match self {
            Mode::White => colour == Colour::Black,
            Mode::Black => colour == Colour::White,
            Mode::Watch => true,
            Mode::Two => false,
        }
    }
}

/// The slowest and fastest time per move the page may ask for, in ms: a
/// typo must not freeze the game for hours.
pub const MOVETIME_RANGE: std::ops::RangeInclusive<u64> = 10..=600_000;

/// The engine's levels, its `Skill` option: 1 a beginner's, 6 full
/// strength (see protocol.md).
pub const LEVEL_RANGE: std::ops::RangeInclusive<u8> = 1..=FULL_STRENGTH;

/// A level the page may ask for, or why not.
pub fn check_level(level: u8) -> Result<u8, Refused> {
    in_range("level", level, &LEVEL_RANGE, "")
}

/// What the engine is doing. The page reads it as a word: `starting`,
/// `ready`, `thinking`, `restarting` or `paused`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineStatus {
    /// Its process is starting, before its handshake ends.
    #[default]
    Starting,
    /// It is waiting for its turn.
    Ready,
    /// It is searching for a move.
    Thinking,
    /// It failed and is being started again.
    Restarting,
    /// It failed too often in a row: the driver waits for a person.
    Paused,
}

/// What the engine is doing, as the driver last said.
#[derive(Clone, Debug, Default)]
pub struct Engine {
    /// The command that runs it.
    pub command: String,
    /// What it is doing.
    pub status: EngineStatus,
    /// The last failure, in words (empty when none).
    pub message: String,
    /// How many times it was restarted after a failure.
    pub restarts: u32,
    /// The colour it is thinking for.
    pub side: Option<Colour>,
    /// The live search line while it thinks, or the last one.
    pub info: Option<Info>,
    /// The colour `info` speaks for: its score and WDL are that side's.
    pub info_side: Option<Colour>,
    /// Its last move, as it answered it.
    pub last_move: Option<String>,
    /// The person's reply it expects after that move, for a ponder.
    pub expects: Option<Expected>,
}

/// The person's reply the engine expects after its move (`bestmove X
/// ponder Y`): in a clock game with pondering on, the engine searches
/// the game with it played on the person's time.
#[derive(Clone, Debug)]
pub struct Expected {
    /// The game's generation when the engine moved.
    pub generation: u64,
    /// The answers played then, its move the last.
    pub moves: usize,
    /// The reply, as the engine wrote it.
    pub reply: String,
}

/// The game and everything around it that the server keeps.
pub struct GuiState {
    /// The game under the referee.
    pub referee: Referee,
    /// Who plays what.
    pub mode: Mode,
    /// The engine's time per move, in ms.
    pub movetime: u64,
    /// The seed of this game's deal.
    pub seed: u64,
    /// Bumped when the game is replaced or taken back, so that an engine
    /// answer for an older game is dropped.
    pub generation: u64,
    /// Bumped on every change the page should see.
    pub version: u64,
    /// The engine as shown.
    pub engine: Engine,
    /// Set after repeated engine failures: the engine is not asked again
    /// until the person acts, so a broken engine does not loop for ever.
    pub paused: bool,
    /// Which moves of the game the engine played, by index in the moves.
    engine_moves: Vec<bool>,
    /// Each move's answer times in ms (two for a draw and its placement),
    /// by index in the moves, for the clocks and the saved record.
    answers_ms: Vec<Vec<u64>>,
    /// The answers of the turn in progress: the draw's, while its tile
    /// waits to be placed.
    turn_answers_ms: Vec<u64>,
    /// When the side to move was last given the turn (or an answer).
    turn_start: Instant,
    /// The clocks, in a game with a base and an increment; `None` for a
    /// fixed time per move.
    pub clock: Option<Clock>,
    /// The engine's level, sent as `Skill` before each of its searches.
    pub level: u8,
    /// In a clock game: the engine thinks on the person's time about the
    /// reply it expects (`go ponder`), as the new game asked.
    pub ponder: bool,
    /// Hint, analysis, review and the cursor.
    pub study: crate::gui::study::Study,
    /// The side that made no first move in time, once the game was
    /// aborted for it.
    aborted: Option<Colour>,
}

impl GuiState {
    /// A new game dealt from `seed`.
    pub fn new(mode: Mode, movetime: u64, seed: u64, engine_command: String) -> GuiState {
        GuiState {
            referee: dealt(seed),
            mode,
            movetime,
            seed,
            generation: 0,
            version: 0,
            engine: Engine {
                command: engine_command,
                status: EngineStatus::Starting,
                ..Engine::default()
            },
            paused: false,
            engine_moves: Vec::new(),
            answers_ms: Vec::new(),
            turn_answers_ms: Vec::new(),
            turn_start: Instant::now(),
            clock: None,
            level: FULL_STRENGTH,
            ponder: false,
            study: Default::default(),
            aborted: None,
        }
    }

    /// Marks a change for the page.
    pub fn touch(&mut self) {
        self.version += 1;
    }

    /// True when a person is to move now.
    pub fn human_turn(&self) -> bool {
        let us = self.referee.position().side_to_move();
        !self.is_over() && !self.time_is_up() && !self.mode.engine_plays(us)
    }

    /// Which moves of the game the engine played, by index in the moves.
    pub fn engine_played(&self) -> &[bool] {
        &self.engine_moves
    }

    /// True when the engine should play the side to move now.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over()
            && !self.time_is_up()
            && self
                .mode
                .engine_plays(self.referee.position().side_to_move())
    }

    /// A person's answer: `@`, a placement or a piece move.
    pub fn human_play(&mut self, token: &str) -> Result<(), Refused> {
        if let Some(end) = self.referee.ending() {
            return Err(format!("the game is over ({end})"));
        }
        if let Some(loser) = self.flagged() {
            return Err(format!("the game is over ({})", clock::lost_on_time(loser)));
        }
        if let Some(side) = self.aborted {
            return Err(format!("the game was aborted ({})", no_first_move(side)));
        }
        if self.time_is_up() {
            let us = self.referee.position().side_to_move();
            return Err(format!("{us}'s time is up"));
        }
        if self.engine_to_move() {
            return Err(format!(
                "it is the engine's turn ({} to move)",
                self.referee.position().side_to_move()
            ));
        }
        self.referee.play(token).map_err(|e| e.to_string())?;
        self.played(false);
        self.paused = false;
        self.touch();
        Ok(())
    }

    /// Notes an answer just played: how long it took, and, when it
    /// completed a move (a draw does not), who played the move.
    pub fn played(&mut self, engine: bool) {
        let now = Instant::now();
        // A drawn tile waiting to be placed: the draw was half a turn,
        // unless it ended the game.
        let drew = self.referee.pending().is_some();
        let us = self.referee.position().side_to_move();
        let mover = if drew { us } else { us.opposite() };
        // The mover's first turn is untimed: it costs nothing and earns no
        // increment, and its answers are recorded as taking no time.
        let turns = self.turns_of(mover);
        let untimed = if drew { turns == 0 } else { turns <= 1 };
        let ms = if untimed {
            0
        } else {
            now.duration_since(self.turn_start).as_millis() as u64
        };
        self.turn_start = now;
        self.turn_answers_ms.push(ms);
        if let Some(clock) = self.clock.as_mut().filter(|_| !untimed) {
            clock.answered(mover, ms, !drew || self.referee.ending().is_some());
        }
        let played = self.referee.game().moves().len();
        self.engine_moves.truncate(played);
        self.answers_ms.truncate(played);
        while self.engine_moves.len() < played {
            self.engine_moves.push(engine);
            self.answers_ms
                .push(std::mem::take(&mut self.turn_answers_ms));
        }
        if self.referee.ending().is_some() && self.referee.pending().is_some() {
            // The drawn tile could not be placed: the draw was the turn.
            self.answers_ms
                .push(std::mem::take(&mut self.turn_answers_ms));
        }
    }

    /// Starts a new game from a set-up position, its piles dealt from
    /// `seed` (`None`: the next seed) as a new game's are, on `clock`
    /// (`None`: a fixed time per move). A refused position changes
    /// nothing.
    pub fn new_game_from(
        &mut self,
        start: Position,
        mode: Mode,
        seed: Option<u64>,
        clock: Option<Clock>,
    ) -> Result<(), Refused> {
        let seed = seed.unwrap_or(self.seed.wrapping_add(1));
        let deal = Deal::from_seed(&start, seed);
        let referee = Referee::new(start, deal).map_err(|e| e.to_string())?;
        self.clock = clock;
        self.new_game(mode, None, Some(seed));
        self.referee = referee;
        Ok(())
    }

    /// Starts a new game; `seed` `None` takes the next seed.
    pub fn new_game(&mut self, mode: Mode, movetime: Option<u64>, seed: Option<u64>) {
        if let Some(ms) = movetime {
            self.movetime = ms;
        }
        self.seed = seed.unwrap_or(self.seed.wrapping_add(1));
        self.referee = dealt(self.seed);
        self.mode = mode;
        self.engine.message.clear();
        self.restart_clock();
        self.replaced();
    }

    /// After the game was replaced or taken back.
    fn replaced(&mut self) {
        self.generation += 1;
        self.paused = false;
        self.aborted = None;
        self.engine.last_move = None;
        self.engine.expects = None;
        self.engine.info = None;
        let played = self.referee.game().moves().len();
        self.engine_moves.truncate(played);
        self.answers_ms.resize(played, Vec::new());
        self.turn_answers_ms.clear();
        self.turn_start = Instant::now();
        self.study.replaced();
        self.touch();
    }

    /// Takes back to the start of the person's previous turn (two people:
    /// the previous turn). A tile drawn on this turn goes back too: the
    /// deal is fixed, so undoing only the draw would give the same tile.
    pub fn take_back(&mut self) -> Result<(), Refused> {
        if self.mode == Mode::Watch {
            return Err("take back is for a person's game, not a watched one".into());
        }
        if let Some(loser) = self.flagged() {
            return Err(format!(
                "{}: the clocks cannot go back; start a new game",
                clock::lost_on_time(loser)
            ));
        }
        if let Some(side) = self.aborted {
            return Err(format!(
                "the game was aborted ({}); start a new game",
                no_first_move(side)
            ));
        }
        let mut r = self.referee.clone();
        let played = r.game().moves().len();
        let person = |r: &Referee| !self.mode.engine_plays(r.position().side_to_move());
        loop {
            if !r.take_back() {
                return Err("there is no earlier turn of a person to go back to".into());
            }
            if r.pending().is_none() && person(&r) && r.game().moves().len() < played {
                break;
            }
        }
        self.referee = r;
        self.replaced();
        Ok(())
    }

    /// Replaces the game with a recorded one (one JSON line).
    pub fn load(&mut self, line: &str) -> Result<(), Refused> {
        let record = GameRecord::from_json_line(line.trim()).map_err(|e| e.to_string())?;
        let referee = record.referee().map_err(|e| e.to_string())?;
        self.referee = referee;
        if let Some(seed) = record.seed {
            self.seed = seed;
        }
        self.engine_moves.clear();
        let played = self.referee.game().moves().len();
        self.answers_ms = if record.answers_ms.len() == played {
            record.answers_ms.clone()
        } else if record.times_ms.len() == played {
            record.times_ms.iter().map(|&t| vec![t]).collect()
        } else {
            Vec::new()
        };
        self.engine.message.clear();
        let names = [&record.white.name, &record.black.name];
        for i in 0..self.referee.game().moves().len() {
            // Moves alternate, from the start's side.
            let start_black = self.referee.start().side_to_move() == Colour::Black;
            let colour = (i + usize::from(start_black)) % 2;
            self.engine_moves.push(names[colour] != "human");
        }
        self.restart_clock();
        self.replaced();
        Ok(())
    }

    /// The game as a match record, one JSON line. While the game is
    /// played the record leaves out the deal, the order of the tiles to
    /// come, which no player may see; loading it deals from its seed
    /// again. A deal that is not its seed's (a loaded record's) is kept,
    /// or the game could not be loaded back.
    pub fn record(&self) -> String {
        let side = |colour: Colour| {
            if self.mode.engine_plays(colour) {
                Side {
                    name: "chex".into(),
                    command: self.engine.command.clone(),
                    options: [
                        ("UCI_ShowWDL".to_string(), "true".to_string()),
                        ("Skill".to_string(), self.level.to_string()),
                    ]
                    .into(),
                }
            } else {
                Side {
                    name: "human".into(),
                    ..Side::default()
                }
            }
        };
        let mut record = self.game_record(side(Colour::White), side(Colour::Black));
        record.tc = match &self.clock {
            Some(clock) => clock.describe(),
            None => format!("movetime {}", self.movetime),
        };
        record.seed = Some(self.seed);
        let seeded = Deal::from_seed(self.referee.start(), self.seed) == *self.referee.deal();
        if !self.is_over() && seeded {
            record.deal.clear();
        }
        let mut answers = self.answers_ms.clone();
        if self.referee.pending().is_some() && answers.len() < record.moves.len() {
            answers.push(self.turn_answers_ms.clone());
        }
        if answers.len() == record.moves.len() {
            record.times_ms = answers.iter().map(|a| a.iter().sum()).collect();
            record.answers_ms = answers;
        }
        record.to_json_line()
    }

    /// The time each side has spent on its finished answers, in ms,
    /// White's first.
    pub fn clocks_ms(&self) -> [u64; 2] {
        let mut clocks = [0; 2];
        let first = self.referee.start().side_to_move();
        for (i, answers) in self.answers_ms.iter().enumerate() {
            let colour = if i % 2 == 0 { first } else { first.opposite() };
            clocks[colour.index()] += answers.iter().sum::<u64>();
        }
        let us = self.referee.position().side_to_move();
        clocks[us.index()] += self.turn_answers_ms.iter().sum::<u64>();
        clocks
    }

    /// True once the game has ended, on the table or on time, or was
    /// aborted.
    pub fn is_over(&self) -> bool {
        self.referee.ending().is_some() || self.flagged().is_some() || self.aborted.is_some()
    }

    /// The record of the game so far, a flag or an abort included. An
    /// aborted game stays unfinished (`*`), its `ending` `aborted`.
    pub fn game_record(&self, white: Side, black: Side) -> GameRecord {
        let mut record = GameRecord::from_referee(&self.referee, white, black);
        if let Some(loser) = self.flagged() {
            record.forfeit_for(loser, "time", clock::lost_on_time(loser));
        }
        if let Some(side) = self.aborted {
            record.ending = "aborted".into();
            record.reason = no_first_move(side);
        }
        record
    }

    /// True when the game was aborted: a side made no first move in time.
    pub fn is_aborted(&self) -> bool {
        self.aborted.is_some()
    }

    /// How many turns `colour` has completed in this game.
    fn turns_of(&self, colour: Colour) -> usize {
        let moves = self.referee.game().moves().len();
        if colour == self.referee.start().side_to_move() {
            moves.div_ceil(2)
        } else {
            moves / 2
        }
    }

    /// True when the side to move's turn is timed: it has moved before.
    fn timed(&self) -> bool {
        self.turns_of(self.referee.position().side_to_move()) > 0
    }

    /// True while the side to move's time runs.
    pub fn clock_runs(&self) -> bool {
        !self.is_over() && self.timed()
    }

    /// How long the answer now running has taken, in ms, as its clock
    /// counts it: nothing on a side's first turn, which is untimed.
    pub fn running_ms(&self) -> u64 {
        if self.timed() {
            self.turn_start.elapsed().as_millis() as u64
        } else {
            0
        }
    }

    /// The side that lost on time, if one did.
    pub fn flagged(&self) -> Option<Colour> {
        self.clock.as_ref().and_then(Clock::flagged)
    }

    /// True when the side to move has run out of time and is not yet
    /// flagged for it.
    pub fn time_is_up(&self) -> bool {
        match &self.clock {
            Some(c) if !self.is_over() && self.timed() => {
                c.is_out(self.referee.position().side_to_move(), self.running_ms())
            }
            _ => false,
        }
    }

    /// The instant the side to move's clock reaches zero, while a clock
    /// runs, or a person's first move falls due.
    pub fn flag_instant(&self) -> Option<Instant> {
        let clock = self.clock.as_ref().filter(|_| !self.is_over())?;
        let us = self.referee.position().side_to_move();
        let ms = if self.timed() {
            clock.left_ms(us)
        } else {
            clock.first_move_ms()
        };
        Some(self.turn_start + std::time::Duration::from_millis(ms))
    }

    /// True when the side to move in a clock game, a person or the
    /// engine, has had its first turn for longer than the clock allows
    /// it: lichess aborts such a game.
    pub fn first_move_overdue(&self) -> bool {
        match &self.clock {
            Some(c) if !self.is_over() && !self.timed() => {
                self.turn_start.elapsed().as_millis() as u64 >= c.first_move_ms()
            }
            _ => false,
        }
    }

    /// Aborts the game: the side to move made no first move in time. A
    /// search running for it is stopped, and its answer dropped.
    pub fn abort_now(&mut self) {
        self.aborted = Some(self.referee.position().side_to_move());
        self.generation += 1;
        self.touch();
    }

    /// Ends the game on the side to move's time. A search running for
    /// it is stopped, and its answer dropped, as after a new game.
    pub fn flag_now(&mut self) {
        let us = self.referee.position().side_to_move();
        if let Some(clock) = &mut self.clock {
            clock.flag(us);
            self.generation += 1;
            self.touch();
        }
    }

    /// The same time control with full clocks, for a new or loaded game.
    fn restart_clock(&mut self) {
        self.clock = self.clock.as_ref().map(Clock::restarted);
    }
}

/// Why a game was aborted, in words.
fn no_first_move(side: Colour) -> String {
    format!("{side} made no first move")
}

/// The game dealt from `seed` on the start position.
fn dealt(seed: u64) -> Referee {
    let start = Position::startpos();
    let deal = Deal::from_seed(&start, seed);
    Referee::new(start, deal).expect("a deal from a position's own piles matches them")
}

/// Games for the unit tests of the game and of what is built on it.
#[cfg(test)]
pub mod fixtures {
    use super::{GuiState, Mode};

    /// A game where the person plays `mode`, on seed 17.
    pub fn game(mode: Mode) -> GuiState {
        GuiState::new(mode, 100, 17, "chex".into())
    }

    /// Three turns of a two-person game, a draw and a placement each.
    pub fn three_turns() -> GuiState {
        let mut state = game(Mode::Two);
        for _ in 0..3 {
            state.referee.play("@").unwrap();
            let token = state.referee.legal_tokens()[0].clone();
            state.referee.play(&token).unwrap();
        }
        state
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::game;
    use super::*;

    /// Plays a draw and the first legal placement, as whoever is to move.
    fn place(state: &mut GuiState) {
        state.referee.play("@").unwrap();
        let token = state.referee.legal_tokens()[0].clone();
        state.referee.play(&token).unwrap();
        state.played(state.engine_to_move());
    }

    #[test]
    fn take_back_returns_to_the_persons_previous_turn() {
        // The person plays Black: White's first turn is the engine's.
        let mut state = game(Mode::Black);
        place(&mut state);
        assert!(state.take_back().is_err(), "no turn of Black's yet");
        assert_eq!(state.referee.game().moves().len(), 1);
        place(&mut state);
        place(&mut state);
        state.referee.play("@").unwrap();
        // Black to move with a drawn tile: back to Black's previous turn.
        state.take_back().unwrap();
        assert_eq!(state.referee.game().moves().len(), 1);
        assert_eq!(state.referee.pending(), None);
        assert_eq!(state.referee.position().side_to_move(), Colour::Black);
        assert!(state.human_turn());
    }
}
