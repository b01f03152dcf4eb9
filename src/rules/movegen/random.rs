//! Random turns: the one way a search samples the rules without listing
//! the legal moves. A [`Sampler`] picks a turn uniformly among the legal
//! moves of the tiles on the table plus one option "draw" (while the pile
//! is not empty); a draw takes a uniformly random tile of the pile and
//! places it on a uniformly random legal square.
//!
//! Only the picked move is tested: the candidates (numbered by
//! `sampling`, or listed) are a cheap superset of the legal moves, a pick
//! that fails its test is struck out and the pick repeated. The result is
//! uniform over the legal moves, at the cost of one test per pick instead
//! of one per candidate.
//!
//! The randomness is the caller's generator, drawn in a fixed order, so a
//! seed replays the same turns.

use super::legality::Screen;
use super::list::MoveList;
use super::sampling::{StepNumbering, STEP_LIMIT};
use crate::rules::moves::Move;
use crate::rules::piece::{Kind, Piece};
use crate::rules::position::Position;
use crate::rules::square::Square;
use arrayvec::ArrayVec;
use rand::Rng;

/// What a random turn came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A legal move: a piece move, or the placement of a drawn tile.
    Play(Move),
    /// The side drew a tile of this kind and cannot place it.
    Stuck(Kind),
    /// The pile is empty and no tile can move.
    NoMove,
}

/// Picks random turns. Keeps the numbering of the candidates from turn
/// to turn: a playout numbers all its turns over one, where a fresh one
/// a turn would clear its tables each time.
#[derive(Clone, Debug)]
pub struct Sampler {
    numbering: StepNumbering,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler::new()
    }
}

impl Sampler {
    /// A sampler that has numbered nothing yet.
    pub const fn new() -> Sampler {
        Sampler {
            numbering: StepNumbering::EMPTY,
        }
    }

    /// Picks a uniformly random turn for the side to move of `pos`:
    /// "draw" counts as one option beside each legal piece move.
    #[inline(always)]
    pub fn uniform_turn(&mut self, pos: &mut Position, rng: &mut impl Rng) -> Turn {
        // What the picks below learn about the position (which tiles hold
        // the table together, the king's attackers) serves them all.
        let mut screen = pos.sampling_screen();
        pos.number_steps(&mut self.numbering);
        if self.numbering.len() < STEP_LIMIT {
            return uniform_over_steps(pos, rng, &self.numbering, &mut screen);
        }
        // More steps than a real position has (see `STEP_LIMIT`): list the
        // candidates instead.
        listed_turn(pos, rng, screen, |_, _, _| None)
    }

    /// Picks a turn for the side to move of `pos` that tries some piece
    /// moves first: `first` is given the candidates (a superset of the
    /// legal piece moves) and returns indices into them; the first legal
    /// one is played. Failing that, the turn is uniformly random over the
    /// legal piece moves and "draw", as [`Sampler::uniform_turn`]'s is.
    pub fn turn_trying_first<R: Rng, I: IntoIterator<Item = usize>>(
        &mut self,
        pos: &mut Position,
        rng: &mut R,
        first: impl FnOnce(&Position, &[Move], &mut R) -> I,
    ) -> Turn {
        let screen = pos.sampling_screen();
        listed_turn(pos, rng, screen, first)
    }
}

/// A turn over the listed candidates: those `first` picks in its order,
/// then uniformly random over the rest and "draw".
fn listed_turn<R: Rng, I: IntoIterator<Item = usize>>(
    pos: &mut Position,
    rng: &mut R,
    mut screen: Screen,
    first: impl FnOnce(&Position, &[Move], &mut R) -> I,
) -> Turn {
    let pile = pos.pile(pos.side_to_move());
    let mut list = MoveList::new();
    pos.generate_step_candidates(&screen, &mut list);
    for i in first(pos, &list, rng) {
        if pos.candidate_is_legal_called(list[i], &mut screen) {
            return Turn::Play(list[i]);
        }
    }
    let draw = usize::from(!pile.is_empty());
    loop {
        if list.is_empty() && draw == 0 {
            return Turn::NoMove;
        }
        let pick = rng.gen_range(0..list.len() + draw);
        if pick == list.len() {
            break;
        }
        if pos.candidate_is_legal_called(list[pick], &mut screen) {
            return Turn::Play(list[pick]);
        }
        list.swap_remove(pick);
    }
    place(pos, rng, &mut screen)
}

/// The numbers a uniform turn has tested and found to hold no legal
/// move.
struct Struck {
    words: [u64; STEP_LIMIT as usize / 64],
    count: u32,
}

impl Struck {
    fn new() -> Struck {
        Struck {
            words: [0; STEP_LIMIT as usize / 64],
            count: 0,
        }
    }

    fn contains(&self, number: u32) -> bool {
        self.words[number as usize / 64] & (1 << (number % 64)) != 0
    }

    fn insert(&mut self, number: u32) {
        self.words[number as usize / 64] |= 1 << (number % 64);
        self.count += 1;
    }
}

/// A uniform turn over the steps of `numbering` (fewer than
/// [`STEP_LIMIT`]) and "draw": every legal move has one number, so
/// picking numbers until one holds a legal move picks uniformly. Listing
/// the candidates costs more than the few picks most turns need.
///
/// A number found to hold nothing is struck out and never tested again:
/// each pick is uniform over the numbers not yet struck out, which still
/// hold every legal move. Once most are struck out, the rest are listed
/// and picked without replacement, so that a turn with few legal moves
/// tests each number at most once.
fn uniform_over_steps(
    pos: &mut Position,
    rng: &mut impl Rng,
    numbering: &StepNumbering,
    screen: &mut Screen,
) -> Turn {
    let draw = numbering.len();
    let options = draw + u32::from(!pos.pile(pos.side_to_move()).is_empty());
    let mut struck = Struck::new();
    // With no options the loop never draws: `below` needs a bound above 0.
    while 2 * struck.count < options {
        let pick = below(rng, options);
        if pick == draw {
            return place(pos, rng, screen);
        }
        if struck.contains(pick) {
            continue;
        }
        match pos.numbered_move(numbering, screen, pick) {
            Some(mv) => return Turn::Play(mv),
            None => struck.insert(pick),
        }
    }
    // Listed with no branch on whether each number is struck out: the
    // answers follow no pattern, so a filter would be mispredicted.
    let mut open = [0u16; STEP_LIMIT as usize];
    let mut left = 0;
    for i in 0..options {
        open[left] = i as u16;
        left += usize::from(!struck.contains(i));
    }
    while left > 0 {
        let k = below(rng, left as u32) as usize;
        let pick = u32::from(open[k]);
        left -= 1;
        open[k] = open[left];
        if pick == draw {
            return place(pos, rng, screen);
        }
        if let Some(mv) = pos.numbered_move(numbering, screen, pick) {
            return Turn::Play(mv);
        }
    }
    Turn::NoMove
}

/// A uniformly random number below `n`, which is not 0, by Lemire's
/// nearly divisionless method: the high half of a random word times `n`,
/// redrawn in the rare case (below `n` in 2^32) that it would favour some
/// numbers. A turn sets up a range or two and mostly draws once from
/// each, so a method that divides once per range, or redraws often, would
/// cost more than the draws.
#[inline(always)]
fn below(rng: &mut impl Rng, n: u32) -> u32 {
    let mut product = u64::from(rng.next_u32()) * u64::from(n);
    if (product as u32) < n {
        // The low words below 2^32 mod n would give some numbers one
        // word more than others.
        let threshold = n.wrapping_neg() % n;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (product >> 32) as u32
}

/// Draws a uniformly random tile of the side to move's pile, which is not
/// empty, and places it on a uniformly random legal square.
fn place(pos: &mut Position, rng: &mut impl Rng, screen: &mut Screen) -> Turn {
    let us = pos.side_to_move();
    let pile = pos.pile(us);
    let kind = pile.nth(below(rng, pile.len()));
    let piece = Piece::new(us, kind);
    // The first pick from the squares counted, not listed: nearly always
    // legal.
    let frontier = pos.frontier_rows(screen);
    if frontier.is_empty() {
        return Turn::Stuck(kind);
    }
    let first = below(rng, frontier.len()) as usize;
    let mv = Move::Place {
        piece,
        to: frontier.square(first as u32),
    };
    if pos.candidate_is_legal_called(mv, screen) {
        return Turn::Play(mv);
    }
    // In check, only the squares that answer it can be legal: the rest
    // of the frontier would be tried and struck out one by one.
    let tried = frontier.square(first as u32);
    let mut squares: ArrayVec<Square, 256> = match pos.squares_answering_check(screen.reach) {
        Some(answers) => {
            let mut squares = ArrayVec::new();
            for square in answers {
                if square != tried && !squares.contains(&square) {
                    squares.push(square);
                }
            }
            squares
        }
        None => {
            let mut squares: ArrayVec<Square, 256> = frontier.squares().collect();
            squares.swap_remove(first);
            squares
        }
    };
    while !squares.is_empty() {
        let pick = below(rng, squares.len() as u32) as usize;
        let mv = Move::Place {
            piece,
            to: squares[pick],
        };
        if pos.candidate_is_legal_called(mv, screen) {
            return Turn::Play(mv);
        }
        squares.swap_remove(pick);
    }
    Turn::Stuck(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random_games::each_position_of_random_games;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The sampling path (candidates tried one by one, holding tiles found
    /// by a flood per mover) accepts exactly the legal piece moves, in
    /// every position of many random games.
    #[test]
    fn sampled_candidates_agree_with_legal_generation() {
        let positions = each_position_of_random_games(21, 120, 150, |pos| {
            let mut candidates = MoveList::new();
            let mut screen = pos.sampling_screen();
            pos.generate_step_candidates(&screen, &mut candidates);
            let mut accepted: Vec<Move> = candidates
                .iter()
                .copied()
                .filter(|&mv| pos.candidate_is_legal(mv, &mut screen))
                .collect();
            let mut legal = MoveList::new();
            pos.generate_steps(&mut legal);
            let mut legal: Vec<Move> = legal.to_vec();
            accepted.sort();
            legal.sort();
            assert_eq!(accepted, legal, "in {pos}");
        });
        assert!(positions > 10_000, "{positions}");
    }

    /// Every candidate has exactly one number and every other number
    /// holds nothing, and the numbers' legal moves are the legal piece
    /// moves, in every position of many random games: so a uniform pick
    /// of a number holding a legal move is a uniform pick of a legal move.
    #[test]
    fn steps_number_each_candidate_once() {
        let positions = each_position_of_random_games(41, 120, 150, |pos| {
            let mut candidates = MoveList::new();
            let screen = pos.sampling_screen();
            pos.generate_step_candidates(&screen, &mut candidates);
            let numbering = pos.numbered_steps();
            let mut numbered: Vec<Move> = (0..numbering.len())
                .filter_map(|i| pos.numbered_candidate(&numbering, &screen, i))
                .collect();
            let mut candidates = candidates.to_vec();
            numbered.sort();
            candidates.sort();
            assert_eq!(numbered, candidates, "in {pos}");
            // And the moves the numbers hold, each tested as a pick tests
            // it, are the legal ones.
            let mut screen = pos.sampling_screen();
            let mut picked: Vec<Move> = (0..numbering.len())
                .filter_map(|i| pos.numbered_move(&numbering, &mut screen, i))
                .collect();
            let mut legal = MoveList::new();
            pos.generate_steps(&mut legal);
            let mut legal = legal.to_vec();
            picked.sort();
            legal.sort();
            assert_eq!(picked, legal, "in {pos}");
        });
        assert!(positions > 10_000, "{positions}");
    }

    /// In check, a drawn tile's square is uniform over its legal squares,
    /// though only the squares answering the check are tried after the
    /// first: in positions of random games where a placement answers a
    /// check and some frontier squares do not.
    #[test]
    fn placements_in_check_are_uniform_over_legal_squares() {
        let mut checked = 0;
        each_position_of_random_games(13, 200, 150, |pos| {
            let us = pos.side_to_move();
            if checked >= 12 || !pos.in_check() || pos.pile(us).is_empty() {
                return;
            }
            let kinds: Vec<Kind> = pos.pile(us).kinds().collect();
            let legal: Vec<Vec<Move>> = kinds
                .iter()
                .map(|&k| pos.legal_placements(k).to_vec())
                .collect();
            let frontier = pos.frontier_within(pos.sampling_screen().reach).len() as usize;
            if legal.iter().all(|l| l.len() < 2) || legal.iter().any(|l| l.len() == frontier) {
                return;
            }
            checked += 1;
            let mut rng = ChaCha8Rng::seed_from_u64(checked);
            let mut counts: Vec<Vec<usize>> = legal.iter().map(|l| vec![0; l.len()]).collect();
            let trials = 3000;
            for _ in 0..trials {
                let mut copy = pos.clone();
                let mut screen = copy.sampling_screen();
                match place(&mut copy, &mut rng, &mut screen) {
                    Turn::Play(mv @ Move::Place { piece, .. }) => {
                        let k = kinds.iter().position(|&k| k == piece.kind).unwrap();
                        let i = legal[k].iter().position(|&m| m == mv);
                        counts[k][i.unwrap_or_else(|| panic!("{mv} in {pos}"))] += 1;
                    }
                    Turn::Stuck(kind) => assert!(pos.legal_placements(kind).is_empty()),
                    other => panic!("{other:?} in {pos}"),
                }
            }
            for counts in counts.iter().filter(|c| c.len() > 1) {
                let n: usize = counts.iter().sum();
                let p = 1.0 / counts.len() as f64;
                let sigma = (n as f64 * p * (1.0 - p)).sqrt();
                for &c in counts {
                    assert!(
                        (c as f64 - n as f64 * p).abs() < 5.0 * sigma,
                        "{counts:?} in {pos}"
                    );
                }
            }
        });
        assert!(checked >= 12, "{checked}");
    }

    /// `below` redraws a word that would favour some numbers: with
    /// n = 3, the word 0 is one of 2^32 mod 3 = 1 such words, and the next
    /// word, 2^31, gives 3 · 2^31 / 2^32 = 1. Every number is reached.
    #[test]
    fn below_is_uniform() {
        let mut words = rand::rngs::mock::StepRng::new(0, 1 << 31);
        assert_eq!(below(&mut words, 3), 1);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut counts = [0; 7];
        for _ in 0..7000 {
            counts[below(&mut rng, 7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
    }
}
