//! The written form of positions and moves (RULES.md section 7): every
//! malformed or inconsistent input is rejected with the error that names
//! what is wrong, and canonical strings round-trip.

use chex::rules::{
    Colour, Kind, Move, MoveToken, NotationError, Piece, Position, PositionError, Square, STARTPOS,
};

type Check = fn(&NotationError) -> bool;

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("test position '{text}' does not parse: {e}"))
}

/// Each entry: the input, what the error must be, and words its message
/// must contain (the offending tile, field or value).
fn check_position_errors(cases: &[(&str, Check, &[&str])]) {
    check_rejections(
        cases.iter().map(|&(text, expected, mentions)| {
            (text, expected, "the listed error".into(), mentions)
        }),
    );
}

/// Each entry: the input, a test of its error, what that test wants (for
/// the failure message), and words the error's message must contain.
fn check_rejections<'a, F: Fn(&NotationError) -> bool>(
    cases: impl IntoIterator<Item = (&'a str, F, String, &'a [&'a str])>,
) {
    let mut failures = Vec::new();
    for (text, expected, wanted, mentions) in cases {
        match text.parse::<Position>() {
            Ok(p) => failures.push(format!("'{text}' was accepted as {p}")),
            Err(e) => {
                if !expected(&e) {
                    failures.push(format!("'{text}': expected {wanted}, got {e:?}"));
                }
                let message = e.to_string();
                for m in mentions {
                    if !message.contains(m) {
                        failures.push(format!(
                            "'{text}': message '{message}' does not mention '{m}'"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

fn bad_tile(tile: &'static str) -> impl Fn(&NotationError) -> bool {
    move |e| matches!(e, NotationError::BadTile { tile: t, .. } if t == tile)
}

#[test]
fn wrong_field_count() {
    check_position_errors(&[
        ("", |e| matches!(e, NotationError::FieldCount(0)), &[]),
        (
            "N0,0/n1,0",
            |e| matches!(e, NotationError::FieldCount(1)),
            &["1"],
        ),
        (
            "N0,0/n1,0 w K/k 0",
            |e| matches!(e, NotationError::FieldCount(4)),
            &["4"],
        ),
        (
            "N0,0/n1,0 w K/k 0 1 1",
            |e| matches!(e, NotationError::FieldCount(6)),
            &["6"],
        ),
    ]);
}

#[test]
fn bad_tiles() {
    // Each string has exactly one fault; the rest is the valid position
    // N0,0/n1,0 w K/k 0 1.
    let cases: Vec<(&str, &'static str)> = vec![
        ("X0,0/n1,0 w K/k 0 1", "X0,0"),     // not a piece letter
        ("N0;0/n1,0 w K/k 0 1", "N0;0"),     // wrong separator
        ("N0,/n1,0 w K/k 0 1", "N0,"),       // missing y
        ("N,0/n1,0 w K/k 0 1", "N,0"),       // missing x
        ("Nx,1/n1,0 w K/k 0 1", "Nx,1"),     // x not a number
        ("N1,2,3/n1,0 w K/k 0 1", "N1,2,3"), // three coordinates
        ("N/n1,0 w K/k 0 1", "N"),           // no square
        ("N0,0/n1,0x w K/k 0 1", "n1,0x"),   // trailing junk
        ("N0,0/n1,0** w K/k 0 1", "n1,0**"), // two stars
        ("N0.5,0/n1,0 w K/k 0 1", "N0.5,0"), // not a whole number
        ("N0,0/n1,-0- w K/k 0 1", "n1,-0-"),
    ];
    let mut failures = Vec::new();
    for (text, tile) in cases {
        match text.parse::<Position>() {
            Ok(p) => failures.push(format!("'{text}' accepted as {p}")),
            Err(e) => {
                if !bad_tile(tile)(&e) {
                    failures.push(format!("'{text}': expected BadTile '{tile}', got {e:?}"));
                }
                if !e.to_string().contains(tile) {
                    failures.push(format!("'{text}': message '{e}' does not name '{tile}'"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// RULES.md does not say at which stage these are caught: while reading
/// the tile, or when checking the position. Either is right, as long as
/// the message names the tile.
#[test]
fn star_on_non_pawn_and_coordinates_out_of_range() {
    check_position_errors(&[
        (
            "N0,0*/n1,0 w K/k 0 1",
            |e| match e {
                NotationError::BadTile { tile, .. } => tile == "N0,0*",
                NotationError::Inconsistent(PositionError::MovedNonPawn(t)) => {
                    t.square == Square::new(0, 0)
                        && t.piece == Piece::new(Colour::White, Kind::Knight)
                }
                _ => false,
            },
            &["N0,0"],
        ),
        (
            "K0,0*/n1,0 w -/k 0 1",
            |e| match e {
                NotationError::BadTile { tile, .. } => tile == "K0,0*",
                NotationError::Inconsistent(PositionError::MovedNonPawn(t)) => {
                    t.square == Square::new(0, 0)
                }
                _ => false,
            },
            &["K0,0"],
        ),
        (
            "N1000000001,0/n1000000000,0 w K/k 0 1",
            |e| match e {
                NotationError::BadTile { tile, .. } => tile == "N1000000001,0",
                NotationError::Inconsistent(PositionError::OutOfRange(t)) => {
                    t.square.x == 1_000_000_001
                }
                _ => false,
            },
            &["1000000001"],
        ),
        (
            "N0,-1000000001/n0,-1000000000 w K/k 0 1",
            |e| match e {
                NotationError::BadTile { tile, .. } => tile == "N0,-1000000001",
                NotationError::Inconsistent(PositionError::OutOfRange(t)) => {
                    t.square.y == -1_000_000_001
                }
                _ => false,
            },
            &["-1000000001"],
        ),
        (
            // Does not even fit 32 bits.
            "N99999999999,0/n1,0 w K/k 0 1",
            |e| matches!(e, NotationError::BadTile { tile, .. } if tile == "N99999999999,0"),
            &["99999999999"],
        ),
    ]);
    // The limit itself is on the table.
    let p = pos("N999999999,0/n1000000000,0 w K/k 0 1");
    assert_eq!(p.to_string(), "N999999999,0/n1000000000,0 w K/k 0 1");
    let p = pos("n-1000000000,-1000000000/N-999999999,-999999999 b K/k 0 1");
    assert_eq!(
        p.to_string(),
        "N-999999999,-999999999/n-1000000000,-1000000000 b K/k 0 1"
    );
}

#[test]
fn bad_side() {
    check_position_errors(&[
        (
            "N0,0/n1,0 x K/k 0 1",
            |e| matches!(e, NotationError::BadSide(s) if s == "x"),
            &["'x'"],
        ),
        (
            "N0,0/n1,0 W K/k 0 1",
            |e| matches!(e, NotationError::BadSide(s) if s == "W"),
            &["'W'"],
        ),
        (
            "N0,0/n1,0 white K/k 0 1",
            |e| matches!(e, NotationError::BadSide(s) if s == "white"),
            &["white"],
        ),
        (
            "N0,0/n1,0 - K/k 0 1",
            |e| matches!(e, NotationError::BadSide(s) if s == "-"),
            &["'-'"],
        ),
    ]);
}

#[test]
fn bad_piles() {
    fn bad_piles(e: &NotationError) -> bool {
        matches!(e, NotationError::BadPiles { .. })
    }
    check_position_errors(&[
        // Letters of the wrong colour.
        ("N0,0/n1,0 w k/K 0 1", bad_piles, &["k/K"]),
        ("N0,0/n1,0 w K/kQ 0 1", bad_piles, &["K/kQ"]),
        ("N0,0/n1,0 w Kq/k 0 1", bad_piles, &["Kq/k"]),
        // Not a piece letter.
        ("N0,0/n1,0 w KX/k 0 1", bad_piles, &["KX/k"]),
        ("N0,0/n1,0 w K1/k 0 1", bad_piles, &["K1/k"]),
        // No '/' between the piles, or one too many.
        ("N0,0/n1,0 w Kk 0 1", bad_piles, &["Kk"]),
        ("N0,0/n1,0 w K/k/q 0 1", bad_piles, &["K/k/q"]),
        // An empty pile is written '-'.
        ("N0,0/n1,0 w /k 0 1", bad_piles, &["/k"]),
        ("N0,0/n1,0 w K/ 0 1", bad_piles, &["K/"]),
    ]);
    // More of a kind than a set holds, within one pile: either a bad
    // field or an inconsistent count of that piece, by the same letter.
    check_position_errors(&[
        (
            "N0,0/n1,0 w KQQ/k 0 1",
            |e| match e {
                NotationError::BadPiles { .. } => true,
                NotationError::Inconsistent(PositionError::TooMany { piece, .. }) => {
                    *piece == Piece::new(Colour::White, Kind::Queen)
                }
                _ => false,
            },
            &["Q"],
        ),
        (
            "N0,0/n1,0 w K/kppppppppp 0 1",
            |e| match e {
                NotationError::BadPiles { .. } => true,
                NotationError::Inconsistent(PositionError::TooMany { piece, count }) => {
                    *piece == Piece::new(Colour::Black, Kind::Pawn) && *count == 9
                }
                _ => false,
            },
            &["p"],
        ),
        (
            "N0,0/n1,0 w KK/k 0 1",
            |e| match e {
                NotationError::BadPiles { .. } => true,
                NotationError::Inconsistent(PositionError::KingCount { colour, count }) => {
                    *colour == Colour::White && *count == 2
                }
                NotationError::Inconsistent(PositionError::TooMany { piece, .. }) => {
                    *piece == Piece::new(Colour::White, Kind::King)
                }
                _ => false,
            },
            &["K"],
        ),
    ]);
}

#[test]
fn bad_counters() {
    check_position_errors(&[
        (
            "N0,0/n1,0 w K/k x 1",
            |e| matches!(e, NotationError::BadCounter { field, text } if *field == "halfmove" && text == "x"),
            &["halfmove", "'x'"],
        ),
        (
            "N0,0/n1,0 w K/k -1 1",
            |e| matches!(e, NotationError::BadCounter { field, text } if *field == "halfmove" && text == "-1"),
            &["halfmove", "-1"],
        ),
        (
            "N0,0/n1,0 w K/k 0 one",
            |e| matches!(e, NotationError::BadCounter { field, text } if *field == "fullmove" && text == "one"),
            &["fullmove", "one"],
        ),
        (
            "N0,0/n1,0 w K/k 0 1.5",
            |e| matches!(e, NotationError::BadCounter { field, text } if *field == "fullmove" && text == "1.5"),
            &["fullmove", "1.5"],
        ),
        (
            "N0,0/n1,0 w K/k 0 -3",
            |e| matches!(e, NotationError::BadCounter { field, .. } if *field == "fullmove"),
            &["fullmove", "-3"],
        ),
        (
            "N0,0/n1,0 w K/k 0 0",
            |e| matches!(e, NotationError::Inconsistent(PositionError::FullmoveZero)),
            &["fullmove"],
        ),
    ]);
}

/// The consistency rules of section 7, one broken at a time.
#[test]
fn inconsistent_positions() {
    fn is(expected: PositionError) -> impl Fn(&NotationError) -> bool {
        move |e| *e == NotationError::Inconsistent(expected.clone())
    }
    let white = |k| Piece::new(Colour::White, k);
    let black = |k| Piece::new(Colour::Black, k);
    let cases: Vec<(&str, PositionError, &[&str])> = vec![
        // Kings: exactly one per side, in pile or on table.
        (
            "K0,0/n1,0 w K/k 0 1",
            PositionError::KingCount {
                colour: Colour::White,
                count: 2,
            },
            &["White", "2"],
        ),
        (
            "K0,0/K1,0/n2,0 w -/k 0 1",
            PositionError::KingCount {
                colour: Colour::White,
                count: 2,
            },
            &["White"],
        ),
        (
            "N0,0/n1,0 w -/k 0 1",
            PositionError::KingCount {
                colour: Colour::White,
                count: 0,
            },
            &["White", "0"],
        ),
        (
            "N0,0/n1,0 w K/- 0 1",
            PositionError::KingCount {
                colour: Colour::Black,
                count: 0,
            },
            &["Black"],
        ),
        (
            "N0,0/k1,0 w K/k 0 1",
            PositionError::KingCount {
                colour: Colour::Black,
                count: 2,
            },
            &["Black"],
        ),
        // Too many of a kind in pile and table together.
        (
            "Q0,0/n1,0 w KQ/k 0 1",
            PositionError::TooMany {
                piece: white(Kind::Queen),
                count: 2,
            },
            &["'Q'", "2"],
        ),
        (
            "N0,0/N0,1/n1,0 w KN/k 0 1",
            PositionError::TooMany {
                piece: white(Kind::Knight),
                count: 3,
            },
            &["'N'", "3"],
        ),
        (
            "P0,0/n1,0 w KPPPPPPPP/k 0 1",
            PositionError::TooMany {
                piece: white(Kind::Pawn),
                count: 9,
            },
            &["'P'", "9"],
        ),
        (
            "N0,0/r1,0/r1,1 w K/kr 0 1",
            PositionError::TooMany {
                piece: black(Kind::Rook),
                count: 3,
            },
            &["'r'", "3"],
        ),
        (
            "N0,0/b1,0/b1,1/b1,-1 w K/k 0 1",
            PositionError::TooMany {
                piece: black(Kind::Bishop),
                count: 3,
            },
            &["'b'"],
        ),
        // Two tiles on one square (a third tile keeps them joined).
        (
            "N0,0/n0,0/n1,0 w K/k 0 1",
            PositionError::SquareTwice(sq(0, 0)),
            &["0,0"],
        ),
        (
            "N-3,7/n-3,7/n-2,7 w K/k 0 1",
            PositionError::SquareTwice(sq(-3, 7)),
            &["-3,7"],
        ),
        // Not one group.
        ("N0,0/n2,0 w K/k 0 1", PositionError::Disconnected, &[]),
        ("N0,0/n2,2 w K/k 0 1", PositionError::Disconnected, &[]),
        ("N0,0/n1,1/N5,5 w K/k 0 1", PositionError::Disconnected, &[]),
        // An empty table anywhere but at the start.
        (
            "- b KQRRBBNNPPPPPPPP/kqrrbbnnpppppppp 0 1",
            PositionError::EmptyTable,
            &[],
        ),
        (
            "- w KQRRBBNNPPPPPPP/kqrrbbnnpppppppp 0 1",
            PositionError::EmptyTable,
            &[],
        ),
        ("- w K/k 0 1", PositionError::EmptyTable, &[]),
        // The side not to move has no tile on the table.
        ("N0,0 w K/k 0 1", PositionError::NoTileOfLastMover, &[]),
        ("N0,0/P1,0 w K/k 0 1", PositionError::NoTileOfLastMover, &[]),
        ("n0,0 b K/k 0 1", PositionError::NoTileOfLastMover, &[]),
        // The side not to move is in check: Q0,0 takes k1,0 and one tile
        // is left, one group. Likewise r0,0 and K1,0.
        ("Q0,0/k1,0 w K/- 0 1", PositionError::OpponentInCheck, &[]),
        ("r0,0/K1,0 b -/k 0 1", PositionError::OpponentInCheck, &[]),
        // R1,0 takes k2,0 and leaves K0,0 joined through P1,1.
        (
            "P1,1/K0,0/R1,0/k2,0 w -/- 0 1",
            PositionError::OpponentInCheck,
            &[],
        ),
        // Adjacent kings: k0,1 takes K0,0 and one tile is left.
        ("k0,1/K0,0 b -/- 0 1", PositionError::OpponentInCheck, &[]),
    ];
    check_rejections(cases.into_iter().map(|(text, expected, mentions)| {
        let wanted = format!("{expected:?}");
        (text, is(expected), wanted, mentions)
    }));
}

/// Near misses of the cases above that are positions after all.
#[test]
fn consistent_positions_are_accepted() {
    for text in [
        STARTPOS,
        // R1,0 attacks k2,0, but the capture would leave K0,0 alone: no check.
        "K0,0/R1,0/k2,0 w -/- 0 1",
        // A lone tile of the side that just moved; both kings in the piles.
        "N0,0 b K/k 0 1",
        // Full sets split between pile and table.
        "Q0,0/n1,0 w KRRBBNNPPPPPPPP/kqrrbbnpppppppp 0 1",
        // Captured tiles are simply missing.
        "K0,0/R1,0/k2,0 b -/- 0 1",
        "K0,0/R1,0/k2,0 b Q/- 0 7",
    ] {
        if let Err(e) = text.parse::<Position>() {
            panic!("'{text}' rejected: {e}");
        }
    }
}

// ---------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------

/// The move-test position:
/// ```text
///   y=2:                    k2,2
///   y=1:  K-1,1 P0,1  p1,1  n2,1
///   y=0:                          R3,0      (White to move, pile QN / q)
/// ```
/// Row 0 is empty from -1,0 to 2,0, so R3,0 may slide to -2,0, which
/// touches K-1,1; the rest stays one chain; nothing black slides, so the
/// king stays safe. K-1,1-1,0 touches P0,1 and is attacked by nothing
/// (p1,1 attacks 0,0 and 2,0; n2,1 attacks 0,0, 0,2, 1,-1, ...).
const M: &str = "k2,2/K-1,1/P0,1/p1,1/n2,1/R3,0 w QN/q 0 12";

fn expect_move_error(p: &Position, token: &str, expected: Check) -> NotationError {
    match p.parse_move(token) {
        Ok(mv) => panic!("'{token}' was accepted as {mv} in {p}"),
        Err(e) => {
            assert!(expected(&e), "'{token}': unexpected error {e:?}");
            e
        }
    }
}

#[test]
fn malformed_move_tokens() {
    let p = pos(M);
    for token in [
        "",
        "hello",
        "3,0",
        "3,0-",
        "-3,0",
        "3,0-x,1",
        "3,0:2,0",
        "3,0 - 2,0",
        "3;0-2,0",
        "3,0-2,0-1,0",
        "X@0,0",
        "NN@0,0",
        "@0,0",
        "N@0",
        "N@0,0,0",
        "N@x,0",
        "N@0,0*",
        "3,0-2,0*",
    ] {
        let e = expect_move_error(&p, token, |e| matches!(e, NotationError::BadMove { .. }));
        match &e {
            NotationError::BadMove { token: t, .. } => assert_eq!(t, token),
            _ => unreachable!(),
        }
        if !token.is_empty() {
            assert!(
                e.to_string().contains(token),
                "'{e}' does not name '{token}'"
            );
        }
    }
}

/// `@` and `N@` are tokens of the protocol, but not complete moves.
#[test]
fn draw_tokens_are_not_complete_moves() {
    let p = pos(M);
    for token in ["@", "N@", "q@"] {
        expect_move_error(&p, token, |e| matches!(e, NotationError::BadMove { .. }));
    }
    assert_eq!("@".parse::<MoveToken>(), Ok(MoveToken::Draw));
    assert_eq!(
        "N@".parse::<MoveToken>(),
        Ok(MoveToken::Drawn(Kind::Knight))
    );
    assert_eq!(
        "n@".parse::<MoveToken>(),
        Ok(MoveToken::Drawn(Kind::Knight))
    );
    assert_eq!(
        "3,0--2,0".parse::<MoveToken>(),
        Ok(MoveToken::Step(sq(3, 0), sq(-2, 0)))
    );
    assert_eq!(
        "-1,-1--2,-2".parse::<MoveToken>(),
        Ok(MoveToken::Step(sq(-1, -1), sq(-2, -2)))
    );
    assert_eq!(
        "n@1,-1".parse::<MoveToken>(),
        Ok(MoveToken::Place(Kind::Knight, sq(1, -1)))
    );
}

#[test]
fn illegal_move_tokens() {
    let p = pos(M);
    let illegal = |e: &NotationError| matches!(e, NotationError::IllegalMove { .. });
    let cases: &[(&str, &[&str])] = &[
        // Kinds not in White's pile (QN): no bishop; the king is on the table.
        ("B@0,0", &["B@0,0"]),
        ("K@0,0", &["K@0,0"]),
        ("p@0,0", &["p@0,0"]),
        // From an empty square; from an enemy tile.
        ("0,0-0,-1", &["0,0"]),
        ("2,1-0,0", &["2,1"]),
        ("2,2-2,3", &["2,2"]),
        // Not the piece's movement, onto its own tile, or a landing square
        // that touches nothing (3,5) — the rook's column is empty.
        ("3,0-4,1", &["3,0-4,1"]),
        ("-1,1-0,1", &["-1,1-0,1"]),
        ("3,0-3,5", &["3,0-3,5"]),
        ("3,0--3,0", &["3,0--3,0"]),
        // The unmoved pawn's three-step: path empty, but 0,4 touches nothing.
        ("0,1-0,4", &["0,1-0,4"]),
        // Placement on a square touching no tile, or on a tile.
        ("Q@10,10", &["Q@10,10"]),
        ("Q@0,4", &["Q@0,4"]),
        ("Q@0,1", &["Q@0,1"]),
    ];
    for &(token, mentions) in cases {
        let e = expect_move_error(&p, token, illegal);
        for m in mentions {
            assert!(e.to_string().contains(m), "'{e}' does not mention '{m}'");
        }
    }
    // Out of range: rejected, whichever way, naming the token.
    for token in [
        "Q@1000000001,0",
        "3,0-1000000001,0",
        "3,0-99999999999,0",
        "Q@0,-1000000001",
    ] {
        let e = expect_move_error(&p, token, |e| {
            matches!(
                e,
                NotationError::BadMove { .. } | NotationError::IllegalMove { .. }
            )
        });
        assert!(
            e.to_string().contains(token),
            "'{e}' does not mention '{token}'"
        );
    }
}

#[test]
fn valid_move_tokens() {
    let p = pos(M);
    // The separator is the first '-' after a digit.
    let rook = Move::Step {
        from: sq(3, 0),
        to: sq(-2, 0),
    };
    assert_eq!(p.parse_move("3,0--2,0"), Ok(rook));
    assert_eq!(rook.to_string(), "3,0--2,0");
    let king = Move::Step {
        from: sq(-1, 1),
        to: sq(-1, 0),
    };
    assert_eq!(p.parse_move("-1,1--1,0"), Ok(king));
    assert_eq!(king.to_string(), "-1,1--1,0");
    // The placement letter may be in either case; the colour is the mover's.
    let queen = Move::Place {
        piece: Piece::new(Colour::White, Kind::Queen),
        to: sq(0, 0),
    };
    assert_eq!(p.parse_move("Q@0,0"), Ok(queen));
    assert_eq!(p.parse_move("q@0,0"), Ok(queen));
    assert_eq!(queen.to_string(), "Q@0,0");

    // n@1,-1 for White: 1,-1 touches Q0,0 and p1,0; White's king is in
    // its pile, so nothing else can make it illegal.
    let w = pos("Q0,0/p1,0 w KRN/k 0 2");
    let knight = Move::Place {
        piece: Piece::new(Colour::White, Kind::Knight),
        to: sq(1, -1),
    };
    assert_eq!(w.parse_move("n@1,-1"), Ok(knight));
    assert_eq!(w.parse_move("N@1,-1"), Ok(knight));
    assert_eq!(knight.to_string(), "N@1,-1");
    // The same for Black, whose letter the engine writes in lower case.
    let b = pos("Q0,0/p1,0 b K/kn 0 2");
    let black_knight = Move::Place {
        piece: Piece::new(Colour::Black, Kind::Knight),
        to: sq(1, -1),
    };
    assert_eq!(b.parse_move("N@1,-1"), Ok(black_knight));
    assert_eq!(b.parse_move("n@1,-1"), Ok(black_knight));
    assert_eq!(black_knight.to_string(), "n@1,-1");

    // Every legal move's written form reads back as itself.
    for p in [pos(M), w, b, Position::startpos()] {
        for mv in p.legal_moves() {
            assert_eq!(p.parse_move(&mv.to_string()), Ok(mv), "in {p}");
        }
    }
}

// ---------------------------------------------------------------------
// Canonical form
// ---------------------------------------------------------------------

#[test]
fn canonical_strings_round_trip() {
    for text in [
        STARTPOS,
        M,
        "N0,0/n1,0 w KQRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2",
        "k1,3/n1,2/N1,1/P0,0*/K1,0 w -/- 0 1",
        "P1,1/p0,0/k1,0/N1,-1/n1,-2/K1,-3 b -/- 0 1",
        "K1,2/R1,1/N2,1/k0,0 b -/- 0 40",
        "n-2,-3/K-3,-4/Q-1,-4 b RB/kqp 17 33",
        "k2,101/P0,100*/n1,100/K1,99 w -/- 57 1234",
        "N999999999,0/n1000000000,0 w K/k 0 1",
    ] {
        let p = pos(text);
        assert_eq!(p.to_string(), text);
        // tiles() lists the tiles in the same order: y high to low, then x.
        let keys: Vec<(i32, i32)> = p
            .tiles()
            .iter()
            .map(|t| (-t.square.y, t.square.x))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted, "tiles() of {text} not in canonical order");
    }
    assert_eq!(Position::startpos().to_string(), STARTPOS);
    assert_eq!(pos(STARTPOS), Position::startpos());
}

#[test]
fn non_canonical_input_reads_to_the_canonical_string() {
    for (input, canonical) in [
        ("R3,0/n2,1/p1,1/P0,1/K-1,1/k2,2 w NQ/q 0 12", M),
        (
            "Q-1,-4/n-2,-3/K-3,-4 b BR/pqk 17 33",
            "n-2,-3/K-3,-4/Q-1,-4 b RB/kqp 17 33",
        ),
        (
            "n1,0/N0,0 w PNPPBPRPQPRPKBP/ppppppppnbbrrqk 0 2",
            "N0,0/n1,0 w KQRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2",
        ),
        (
            "K1,0/P0,0*/N1,1/n1,2/k1,3 w -/- 0 1",
            "k1,3/n1,2/N1,1/P0,0*/K1,0 w -/- 0 1",
        ),
        (
            // Same rank: low x first, negative before positive.
            "n1,0/N-1,0/b0,0 w K/k 3 9",
            "N-1,0/b0,0/n1,0 w K/k 3 9",
        ),
    ] {
        let p = pos(input);
        assert_eq!(p.to_string(), canonical, "from '{input}'");
        assert_eq!(p, pos(canonical));
    }
}
