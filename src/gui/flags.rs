//! The flag timer: ends a clock game when the running side's time is out,
//! or aborts it when a first move is overdue, even if nobody asks the
//! server anything. The clock's arithmetic is `clock`'s; this is only
//! when to look.

use super::game::GuiState;
use super::shared::Shared;
use std::sync::Arc;

/// Ends games on time while the server runs: sleeps until the running
/// clock would reach zero, or until the game changes, and then flags the
/// side to move if its time is out. The flag needs no request: a person
/// who never moves still loses, and the page learns it from the event
/// stream.
pub async fn watch_flags(shared: Arc<Shared>) {
    let mut changed = shared.changed.subscribe();
    loop {
        let due = {
            let mut state = shared.lock();
            if flag_if_out(&mut state) {
                shared.publish(&mut state);
            }
            state.flag_instant()
        };
        let woke = match due {
            Some(at) => tokio::select! {
                _ = tokio::time::sleep_until(at.into()) => true,
                woke = changed.changed() => woke.is_ok(),
            },
            None => changed.changed().await.is_ok(),
        };
        if !woke {
            // The server is gone: nothing is left to flag.
            return;
        }
    }
}

/// [`flag_if_out`] under the lock, published: a person's move that comes
/// after the flag instant is refused as after the flag.
pub fn flag_due(shared: &Shared) {
    let mut state = shared.lock();
    if flag_if_out(&mut state) {
        shared.publish(&mut state);
    }
}

/// Flags the side to move if its clock is out, or aborts the game if its
/// first move is overdue; true if it did (the caller publishes).
/// The driver calls it before it plays an engine's answer, and the move
/// handler before a person's, so that an answer that came after the flag
/// instant loses even if it beat the timer task to the lock.
pub fn flag_if_out(state: &mut GuiState) -> bool {
    if state.time_is_up() {
        state.flag_now();
        true
    } else if state.first_move_overdue() {
        state.abort_now();
        true
    } else {
        false
    }
}
