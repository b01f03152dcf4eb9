//! Playing a match: resuming from --out, handing games out to the
//! worker threads, writing and counting each record as it comes, and
//! stopping when the SPRT decides.

use super::config::Config;
use super::progress::{progress, show_progress};
use super::resume::read_records;
use super::sinks::Sinks;
use super::stats::{Tally, Verdict};
use super::workers::worker;
use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::sync::mpsc::{channel, Sender};

/// What a match came to.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The counts.
    pub tally: Tally,
    /// The SPRT's last verdict and LLR, when one ran.
    pub sprt: Option<(Verdict, f64)>,
}

/// Runs the match: resumes from --out if asked, plays the games left on
/// `concurrency` threads, writes records and the progress line, and
/// stops early when the SPRT decides.
pub fn run(config: &Config) -> Result<Summary, String> {
    let mut tally = Tally::default();
    let mut done = BTreeSet::new();
    if config.resume {
        if let Some(path) = &config.out {
            let counter = read_records(config, path)?;
            done = counter.games().clone();
            tally = counter.tally;
        }
    }
    let mut sinks = Sinks::open(config, &done)?;
    let verdict = |tally: &Tally| config.sprt.map(|s| (s.verdict(tally), s.llr(tally)));
    let decided = |v: Option<(Verdict, f64)>| matches!(v, Some((Verdict::H0 | Verdict::H1, _)));
    if decided(verdict(&tally)) {
        return Ok(Summary {
            sprt: verdict(&tally),
            tally,
        });
    }
    let playing = |g: &u64| config.pair.is_none_or(|p| Config::pair_of(*g) == p);
    let mut todo = (1..=config.games).filter(|g| !done.contains(g) && playing(g));
    let terminal = std::io::stderr().is_terminal();
    let mut failure = None;
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        // Per worker, the sender of its next game; `None` once it has been
        // told to stop (or has stopped). Games are handed out here, after
        // the records before them are counted, never taken by the workers
        // themselves: a worker that took its next game while this thread
        // had not yet counted its last one could play on, unseen, past the
        // SPRT's decision (under load, to the end of the match).
        let mut jobs: Vec<Option<Sender<u64>>> = Vec::new();
        for id in 0..config.concurrency {
            let Some(game) = todo.next() else { break };
            let (job_tx, job_rx) = channel();
            // The worker's receiver is alive: this cannot fail.
            let _ = job_tx.send(game);
            jobs.push(Some(job_tx));
            let tx = tx.clone();
            scope.spawn(move || worker(config, id, job_rx, tx));
        }
        drop(tx);
        let mut stopped = false;
        for (id, message) in rx {
            let handled = message.and_then(|record| {
                sinks.write(config, &record)?;
                let score = Config::engine1_score(&record)?;
                tally.add(Config::pair_of(record.game), score, &record.ending);
                show_progress(terminal, &progress(config, &tally, &record));
                Ok(())
            });
            if let Err(e) = handled {
                failure.get_or_insert(e);
                stopped = true;
            }
            if decided(verdict(&tally)) {
                stopped = true;
            }
            // This worker is idle now: its next game, or the end. Games
            // other workers are playing are finished and counted.
            let next = if stopped { None } else { todo.next() };
            let sent = match (&jobs[id], next) {
                (Some(job_tx), Some(game)) => job_tx.send(game).is_ok(),
                _ => false,
            };
            if !sent {
                jobs[id] = None;
            }
        }
    });
    if terminal && tally.games() > done.len() as u64 {
        eprintln!();
    }
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(Summary {
        sprt: verdict(&tally),
        tally,
    })
}
