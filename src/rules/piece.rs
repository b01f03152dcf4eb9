//! Colours, piece kinds and pieces.

use std::fmt;

/// A side of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Moves first; its pawns walk towards +y.
    White,
    /// Moves second; its pawns walk towards −y.
    Black,
}

impl Colour {
    /// Both colours, White first.
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// The direction of this side's pawns along y.
    #[inline(always)]
    pub const fn forward(self) -> i32 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }

    /// The letter of the position string: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Colour::White => 'w',
            Colour::Black => 'b',
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "White",
            Colour::Black => "Black",
        })
    }
}

/// What a tile is, regardless of colour. One byte, its
/// [`Kind::index`], so that a reader of many slots' kinds (the rich
/// evaluation) can load eight at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// Moves one square; never captured.
    King,
    /// Slides along lines and diagonals.
    Queen,
    /// Slides along lines.
    Rook,
    /// Slides along diagonals.
    Bishop,
    /// Jumps in an L.
    Knight,
    /// Steps forward, captures diagonally forward.
    Pawn,
}

impl Kind {
    /// All kinds in the order of the position string's piles (`KQRBNP`).
    pub const ALL: [Kind; 6] = [
        Kind::King,
        Kind::Queen,
        Kind::Rook,
        Kind::Bishop,
        Kind::Knight,
        Kind::Pawn,
    ];

    /// 0 to 5 in the order of [`Kind::ALL`].
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many tiles of this kind a side owns at the start.
    pub const fn set_count(self) -> u8 {
        match self {
            Kind::King | Kind::Queen => 1,
            Kind::Rook | Kind::Bishop | Kind::Knight => 2,
            Kind::Pawn => 8,
        }
    }

    /// The upper-case letter of this kind.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        }
    }

    /// The kind of a letter in either case.
    pub fn from_letter(c: char) -> Option<Kind> {
        Some(match c.to_ascii_uppercase() {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'P' => Kind::Pawn,
            _ => return None,
        })
    }
}

/// A tile's face: its colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose tile it is.
    pub colour: Colour,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// The piece of this colour and kind.
    pub const fn new(colour: Colour, kind: Kind) -> Piece {
        Piece { colour, kind }
    }

    /// The letter of the notation: upper case for White, lower for Black.
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.colour {
            Colour::White => c,
            Colour::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece of a letter, whose case gives the colour.
    pub fn from_letter(c: char) -> Option<Piece> {
        let kind = Kind::from_letter(c)?;
        let colour = if c.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        Some(Piece { colour, kind })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}
