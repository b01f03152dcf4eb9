//! Uniformly random games: the playouts of Monte Carlo search and the
//! engine's speed benchmark.
//!
//! A turn picks uniformly among the legal moves of the tiles on the table
//! plus one option "draw" (while the pile is not empty). A draw takes a
//! uniformly random tile of the pile and places it on a uniformly random
//! legal square; a drawn tile that cannot be placed ends the game as
//! RULES.md section 5 says.

use crate::rules::{Ending, GameEnd, Move, MoveList, Piece, Position, Square};
use arrayvec::ArrayVec;
use rand::Rng;

/// How a playout ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// The ending, or `None` when the ply cap was reached first.
    pub end: Option<GameEnd>,
    /// Turns played.
    pub plies: u32,
}

/// Plays random turns from `pos` until the game ends or `max_plies` turns
/// have been played; `pos` is left at the final position.
///
/// Repetitions are counted from the playout's start only: earlier history
/// is not known here.
pub fn random_playout(pos: &mut Position, rng: &mut impl Rng, max_plies: u32) -> Playout {
    // Keys of the positions since the last irreversible turn; the
    // fifty-move rule ends a game before more than 101 accumulate.
    let mut keys: ArrayVec<u64, 101> = ArrayVec::new();
    keys.push(pos.hash());
    let mut list = MoveList::new();
    let mut squares: ArrayVec<Square, 256> = ArrayVec::new();
    for plies in 0..max_plies {
        let us = pos.side_to_move();
        let pile = pos.pile(us);
        list.clear();
        let mut screen = pos.generate_step_candidates(&mut list);
        // Pick uniformly among the untested candidates and "draw"; a pick
        // that fails its test is dropped and the pick repeated, which is
        // uniform over the legal ones.
        let mut chosen = None;
        let draw = usize::from(!pile.is_empty());
        while !list.is_empty() || draw == 1 {
            let pick = rng.gen_range(0..list.len() + draw);
            if pick == list.len() {
                break;
            }
            if pos.candidate_is_legal(list[pick], &mut screen) {
                chosen = Some(list[pick]);
                break;
            }
            list.swap_remove(pick);
        }
        let mv = match chosen {
            Some(mv) => mv,
            None if draw == 0 => {
                let end = pos.ending();
                return Playout { end, plies };
            }
            None => {
                let kind = pile.nth(rng.gen_range(0..pile.len()));
                squares.clear();
                pos.frontier(|_, s| squares.push(s));
                let piece = Piece::new(us, kind);
                let mut placed = None;
                while !squares.is_empty() {
                    let pick = rng.gen_range(0..squares.len());
                    let mv = Move::Place {
                        piece,
                        to: squares[pick],
                    };
                    if pos.candidate_is_legal(mv, &mut screen) {
                        placed = Some(mv);
                        break;
                    }
                    squares.swap_remove(pick);
                }
                match placed {
                    Some(mv) => mv,
                    None => {
                        let end = pos.ending_after_draw(kind);
                        return Playout { end, plies };
                    }
                }
            }
        };
        pos.make(mv);
        if pos.halfmove_clock() == 0 {
            keys.clear();
        }
        if pos.halfmove_clock() >= 100 {
            let end = pos.ending();
            return Playout {
                end,
                plies: plies + 1,
            };
        }
        let key = pos.hash();
        if keys.iter().filter(|&&k| k == key).count() >= 2 {
            let end = Some(GameEnd {
                winner: None,
                ending: Ending::Repetition,
            });
            return Playout {
                end,
                plies: plies + 1,
            };
        }
        keys.push(key);
    }
    Playout {
        end: None,
        plies: max_plies,
    }
}
