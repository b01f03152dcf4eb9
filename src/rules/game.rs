//! A game in progress: the position with its history, and how games end
//! (RULES.md section 6).

use super::movegen::MoveList;
use super::moves::Move;
use super::notation::MAX_COUNTER;
use super::piece::{Colour, Kind};
use super::position::Position;
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// The side to move drew a tile that has no legal placement while in
    /// check: checkmate.
    DrawnTileCheckmate(Kind),
    /// The side to move drew a tile that has no legal placement while not
    /// in check: stalemate.
    DrawnTileStalemate(Kind),
    /// The same position occurred for the third time.
    Repetition,
    /// 100 turns without capture, pawn move or placement.
    FiftyMoves,
}

impl Ending {
    /// The one-word name `status` prints and game records keep, so that
    /// tools can count endings without parsing sentences.
    pub fn word(self) -> &'static str {
        match self {
            Ending::Checkmate => "checkmate",
            Ending::Stalemate => "stalemate",
            Ending::DrawnTileCheckmate(_) => "drawn-tile-checkmate",
            Ending::DrawnTileStalemate(_) => "drawn-tile-stalemate",
            Ending::Repetition => "repetition",
            Ending::FiftyMoves => "fifty-moves",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// The winner, or `None` for a draw.
    pub winner: Option<Colour>,
    /// Why it ended.
    pub ending: Ending,
}

impl GameEnd {
    /// The result as a score, White's first (see [`score_of`]).
    pub const fn score(self) -> &'static str {
        score_of(self.winner)
    }
}

/// The score of a game won by `winner`, or drawn (`None`), White's first:
/// `1-0`, `0-1` or `1/2-1/2`. Records, their tags and the `status` line
/// all write it from here, and [`white_points`] reads it back.
pub const fn score_of(winner: Option<Colour>) -> &'static str {
    match winner {
        Some(Colour::White) => "1-0",
        Some(Colour::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// The score of a game not finished.
pub const UNFINISHED_SCORE: &str = "*";

/// White's points from a score of [`score_of`]: 1, ½ or 0; `None` for a
/// game not finished or any other text.
pub fn white_points(score: &str) -> Option<f64> {
    [
        (Some(Colour::White), 1.0),
        (None, 0.5),
        (Some(Colour::Black), 0.0),
    ]
    .into_iter()
    .find(|&(winner, _)| score_of(winner) == score)
    .map(|(_, points)| points)
}

impl fmt::Display for GameEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ending {
            Ending::Checkmate => write!(f, "checkmate"),
            Ending::Stalemate => write!(f, "stalemate"),
            Ending::DrawnTileCheckmate(k) => {
                write!(f, "checkmate: the drawn {} cannot be placed", kind_name(k))
            }
            Ending::DrawnTileStalemate(k) => {
                write!(f, "stalemate: the drawn {} cannot be placed", kind_name(k))
            }
            Ending::Repetition => write!(f, "draw by threefold repetition"),
            Ending::FiftyMoves => write!(f, "draw by the fifty-move rule"),
        }?;
        match self.winner {
            Some(c) => write!(f, ", {c} wins"),
            None => write!(f, ", draw"),
        }
    }
}

/// The English name of a kind, for messages.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "king",
        Kind::Queen => "queen",
        Kind::Rook => "rook",
        Kind::Bishop => "bishop",
        Kind::Knight => "knight",
        Kind::Pawn => "pawn",
    }
}

impl Position {
    /// How the game ends here by the position alone, ignoring history:
    /// checkmate or stalemate when the pile is empty and no move is legal,
    /// then the fifty-move rule. Checkmate takes precedence over the
    /// fifty-move rule, as in chess.
    pub fn ending(&self) -> Option<GameEnd> {
        if self.pile(self.side_to_move()).is_empty() {
            return self.clone().ending_in_place();
        }
        self.fifty_moves()
    }

    /// [`Position::ending`] on the position itself, not a copy: the
    /// moves it tries are unmade. For a search, whose position is its
    /// own, and to which a copy of the whole table at every leaf costs.
    pub fn ending_in_place(&mut self) -> Option<GameEnd> {
        if self.pile(self.side_to_move()).is_empty() && !self.has_legal_step() {
            return Some(self.ending_without_moves());
        }
        self.fifty_moves()
    }

    /// The fifty-move rule's draw, when it has come.
    fn fifty_moves(&self) -> Option<GameEnd> {
        (self.halfmove_clock() >= 100).then_some(GameEnd {
            winner: None,
            ending: Ending::FiftyMoves,
        })
    }

    /// How the game ends when the side to move draws `kind` and cannot
    /// place it; `None` when it can.
    pub fn ending_after_draw(&self, kind: Kind) -> Option<GameEnd> {
        (!self.clone().can_place(kind)).then(|| self.ending_when_stuck(kind))
    }

    /// How the game ends when the side to move, its pile empty, has no
    /// legal move: checkmate in check, else stalemate. For callers that
    /// know there is no move (a playout that found none), which need not
    /// generate them again as [`Position::ending`] does.
    pub fn ending_without_moves(&self) -> GameEnd {
        self.loss_in_check(Ending::Checkmate, Ending::Stalemate)
    }

    /// How the game ends when the side to move has drawn `kind` and has
    /// no legal square for it, as a caller that tried them all knows:
    /// [`Position::ending_after_draw`] without the search.
    pub fn ending_when_stuck(&self, kind: Kind) -> GameEnd {
        self.loss_in_check(
            Ending::DrawnTileCheckmate(kind),
            Ending::DrawnTileStalemate(kind),
        )
    }

    /// True when `mv`, legal here, is a turn no later position can undo,
    /// so that no position before it can occur again: a placement (the
    /// pile shrinks), a capture (a tile leaves) or the first step of a
    /// pawn (it becomes a moved pawn for good). A moved pawn's step is not
    /// one: the whole group stepping the same way gives the same position
    /// up to translation (RULES.md section 6). The fifty-move count keeps
    /// its own rule, in which every pawn step resets it.
    pub fn cuts_repetition(&self, mv: Move) -> bool {
        match mv {
            Move::Place { .. } => true,
            Move::Step { from, to } => {
                self.tile_at(to).is_some()
                    || self
                        .tile_at(from)
                        .is_some_and(|t| t.piece.kind == Kind::Pawn && !t.moved)
            }
        }
    }

    /// A loss for the side to move by `mate` when it is in check, else a
    /// draw by `stalemate`.
    fn loss_in_check(&self, mate: Ending, stalemate: Ending) -> GameEnd {
        if self.in_check() {
            GameEnd {
                winner: Some(self.side_to_move().opposite()),
                ending: mate,
            }
        } else {
            GameEnd {
                winner: None,
                ending: stalemate,
            }
        }
    }
}

/// A game from some position on, with the keys of every position reached
/// so that repetitions are seen.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
    /// The index in `keys` of the position after the last turn that cut
    /// repetition (see [`Position::cuts_repetition`]), or of the start.
    since: usize,
}

impl Game {
    /// A game starting at `position`.
    pub fn new(position: Position) -> Game {
        let keys = vec![position.hash()];
        Game {
            position,
            moves: Vec::new(),
            keys,
            since: 0,
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played since the start of the game.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays `mv` after checking that it is legal; an illegal move changes
    /// nothing. A move that would take the fullmove number or the halfmove
    /// clock past [`MAX_COUNTER`] is refused too (see
    /// [`Game::counters_overflow`]): the position after it could not be
    /// written as a position string the notation accepts.
    pub fn play(&mut self, mv: Move) -> Result<(), Move> {
        if !self.position.is_legal(mv) || self.counters_overflow(mv) {
            return Err(mv);
        }
        let cut = self.position.cuts_repetition(mv);
        self.position.make(mv);
        self.moves.push(mv);
        if cut {
            self.since = self.keys.len();
        }
        self.keys.push(self.position.hash());
        Ok(())
    }

    /// True when `mv` would take the fullmove number or the halfmove
    /// clock past [`MAX_COUNTER`], the largest a position string holds.
    /// Only a game set up with counters near it gets there.
    pub fn counters_overflow(&self, mv: Move) -> bool {
        let pos = &self.position;
        let black = pos.side_to_move() == Colour::Black;
        let fullmove = pos.fullmove_number() as u64 + black as u64;
        // As `make` counts: a placement, a capture or a pawn step resets.
        let resets = match mv {
            Move::Place { .. } => true,
            Move::Step { from, to } => {
                pos.tile_at(to).is_some()
                    || pos
                        .tile_at(from)
                        .is_some_and(|t| t.piece.kind == Kind::Pawn)
            }
        };
        let halfmove = if resets {
            0
        } else {
            pos.halfmove_clock() as u64 + 1
        };
        fullmove > MAX_COUNTER as u64 || halfmove > MAX_COUNTER as u64
    }

    /// How many times the current position has occurred, this time
    /// included. Only positions since the last turn that cut repetition
    /// can match.
    pub fn occurrences(&self) -> usize {
        let now = self.position.hash();
        self.recent_keys().iter().filter(|&&k| k == now).count()
    }

    /// The keys of the positions a repetition can still match: those since
    /// the last irreversible turn, the current one last. A search needs
    /// them to see a repetition that began before its root.
    ///
    /// Irreversible here means a placement, a capture or an unmoved pawn's
    /// first step ([`Position::cuts_repetition`]), not the halfmove clock's
    /// reset: a moved pawn's step resets the clock but can be undone by
    /// the group stepping after it.
    pub fn recent_keys(&self) -> &[u64] {
        &self.keys[self.since..]
    }

    /// How the game has ended, if it has: threefold repetition, then the
    /// position's own endings.
    pub fn ending(&self) -> Option<GameEnd> {
        if self.occurrences() >= 3 {
            return Some(GameEnd {
                winner: None,
                ending: Ending::Repetition,
            });
        }
        self.position.ending()
    }

    /// The legal moves now (see [`Position::legal_moves`]).
    pub fn legal_moves(&self) -> MoveList {
        self.position.legal_moves()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::random_games::each_position_of_random_games;

    /// `ending_in_place` agrees with `ending` and leaves the position as
    /// it found it, along random games to their ends: piles empty,
    /// checkmates and stalemates among them.
    #[test]
    fn ending_in_place_is_ending_without_a_copy() {
        let (mut asked, mut ended) = (0, 0);
        each_position_of_random_games(61, 60, 300, |pos| {
            let mut copy = pos.clone();
            let end = copy.ending_in_place();
            assert_eq!(end, pos.ending(), "{pos}");
            assert!(copy == *pos && copy.hash() == pos.hash(), "{pos}");
            asked += usize::from(pos.pile(pos.side_to_move()).is_empty());
            ended += usize::from(end.is_some());
        });
        assert!(asked > 1000 && ended > 5, "{asked} {ended}");
    }

    /// Each score reads back as White's points; `*` and other text do not.
    #[test]
    fn scores_read_back_as_points() {
        assert_eq!(white_points(score_of(Some(Colour::White))), Some(1.0));
        assert_eq!(white_points(score_of(None)), Some(0.5));
        assert_eq!(white_points(score_of(Some(Colour::Black))), Some(0.0));
        assert_eq!(white_points(UNFINISHED_SCORE), None);
        assert_eq!(white_points("1-1"), None);
    }
}
