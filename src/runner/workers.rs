//! One worker thread of a match: its own two engine processes, playing
//! the games the main thread hands it and sending back their records.

use super::config::{pair_seed, Config};
use super::engine::EngineProcess;
use super::game::play_game;
use crate::referee::{Deal, GameRecord, Referee};
use std::sync::mpsc::{Receiver, Sender};

/// Plays the game numbers the main thread hands out on `jobs`, one at a
/// time, with this worker's own two engines, sending each record (or a
/// fatal error) to the main thread tagged with `id`; stops when `jobs`
/// is closed. The main thread hands out the next game only after it has
/// counted this worker's last one, so a match the SPRT has decided starts
/// no new game however the threads are scheduled.
pub(super) fn worker(
    config: &Config,
    id: usize,
    jobs: Receiver<u64>,
    tx: Sender<(usize, Result<GameRecord, String>)>,
) {
    let mut engines: [Option<EngineProcess>; 2] = [None, None];
    for game in jobs {
        for (slot, spec) in engines.iter_mut().zip(&config.engines) {
            if slot.is_none() {
                match EngineProcess::start(spec) {
                    Ok(e) => *slot = Some(e),
                    Err(e) => {
                        let _ = tx.send((id, Err(e)));
                        return;
                    }
                }
            }
        }
        let [Some(one), Some(two)] = &mut engines else {
            return;
        };
        let seed = pair_seed(config.seed, Config::pair_of(game));
        let deal = Deal::from_seed(&config.start, seed);
        let referee = match Referee::new(config.start.clone(), deal) {
            Ok(r) => r,
            Err(e) => {
                let _ = tx.send((id, Err(format!("cannot deal game {game}: {e}"))));
                return;
            }
        };
        let white_is_one = Config::engine1_white(game);
        let by_colour = if white_is_one { [one, two] } else { [two, one] };
        let [first, second] = config.engines.each_ref().map(|e| e.ponders());
        let ponder = if white_is_one {
            [first, second]
        } else {
            [second, first]
        };
        let outcome = play_game(
            referee,
            by_colour,
            config.sides(game),
            config.limit,
            config.judging,
            ponder,
        );
        let mut record = outcome.record;
        record.game = game;
        record.seed = Some(seed);
        // Colour index → engine index.
        let engine_of = |colour: usize| if white_is_one { colour } else { 1 - colour };
        for (colour, restart) in outcome.restart.into_iter().enumerate() {
            if restart {
                engines[engine_of(colour)] = None;
            }
        }
        if tx.send((id, Ok(record))).is_err() {
            return;
        }
    }
}
