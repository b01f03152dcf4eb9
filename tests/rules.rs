//! One test per rule of RULES.md, each on a small hand-made position.
//!
//! Every expectation here was worked out by hand from RULES.md (the
//! reasoning is in the comments), not read off the engine. Squares are
//! written `x,y`; White's pawns walk towards +y, Black's towards −y.
//!
//! Two facts are used over and over:
//! - after a move the tiles must be one 8-connected group (section 4);
//! - a king is in check only when an enemy tile could capture it *and* the
//!   table would still be one group after that capture (section 5).

use chex::rules::{
    Colour, Ending, Game, GameEnd, Kind, Move, Piece, Position, Square, COORD_LIMIT,
};
use std::collections::BTreeSet;

fn pos(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("test position '{text}' does not parse: {e}"))
}

fn sq(x: i32, y: i32) -> Square {
    Square::new(x, y)
}

fn step(fx: i32, fy: i32, tx: i32, ty: i32) -> Move {
    Move::Step {
        from: sq(fx, fy),
        to: sq(tx, ty),
    }
}

fn place(colour: Colour, kind: Kind, x: i32, y: i32) -> Move {
    Move::Place {
        piece: Piece::new(colour, kind),
        to: sq(x, y),
    }
}

/// True when `mv` is legal, asking both `legal_moves` and `is_legal` and
/// insisting that they agree.
fn legal(p: &Position, mv: Move) -> bool {
    let listed = p.legal_moves().contains(&mv);
    assert_eq!(
        listed,
        p.is_legal(mv),
        "legal_moves and is_legal disagree on {mv} in {p}"
    );
    listed
}

fn assert_legal(p: &Position, mv: Move) {
    assert!(legal(p, mv), "{mv} should be legal in {p}");
}

fn assert_illegal(p: &Position, mv: Move) {
    assert!(!legal(p, mv), "{mv} should be illegal in {p}");
}

/// The legal moves of the tile on `from`.
fn moves_from(p: &Position, from: Square) -> BTreeSet<Move> {
    p.legal_moves()
        .into_iter()
        .filter(|m| matches!(m, Move::Step { from: f, .. } if *f == from))
        .collect()
}

fn all_moves(p: &Position) -> BTreeSet<Move> {
    p.legal_moves().into_iter().collect()
}

fn set(moves: &[Move]) -> BTreeSet<Move> {
    moves.iter().copied().collect()
}

fn show(moves: &BTreeSet<Move>) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------
// Section 4: the connection rule
// ---------------------------------------------------------------------

/// A move that splits the table is illegal (CHEX rule 6).
///
/// ```text
///   y=0:  K0,0  N1,0  r2,0  k3,0      (a single row, White to move)
/// ```
/// The white king's only neighbour is the knight. Wherever the knight
/// jumps, the king is cut off from r/k unless the knight lands on a square
/// touching both 0,0 and 2,0 — that is 1,1 or 1,-1 — and neither is a
/// knight jump from 1,0. So the knight has no legal move at all, e.g.
/// `1,0-3,1` (lands next to r and k, leaving K alone) and `1,0--1,1` (lands
/// next to K, leaving r and k alone).
///
/// King moves: to 0,1 / 0,-1 / 1,1 / 1,-1 it still touches the knight; the
/// rook attacks only row 0 (up to the knight) and column 2, the black king
/// only column 2..4; none of these squares. To -1,* the king touches
/// nothing. Both piles are empty, so there are exactly 4 legal moves.
#[test]
fn connection_rule_forbids_a_split() {
    let p = pos("K0,0/N1,0/r2,0/k3,0 w -/- 0 1");
    assert!(!p.in_check());
    assert!(
        moves_from(&p, sq(1, 0)).is_empty(),
        "knight moves: {}",
        show(&moves_from(&p, sq(1, 0)))
    );
    assert_illegal(&p, step(1, 0, 3, 1));
    assert_illegal(&p, step(1, 0, -1, 1));
    assert_illegal(&p, step(1, 0, 2, 2));
    assert_eq!(
        all_moves(&p),
        set(&[
            step(0, 0, 0, 1),
            step(0, 0, 0, -1),
            step(0, 0, 1, 1),
            step(0, 0, 1, -1)
        ]),
        "got {}",
        show(&all_moves(&p))
    );
}

/// Only the square a slider lands on counts: it must touch a remaining tile.
///
/// ```text
///   y=1:  R0,1
///   y=0:  K0,0  p1,0  n2,0  k3,0      (White to move)
/// ```
/// Row 1 is empty, so the rook may slide right as far as it likes, but only
/// 1,1 .. 4,1 touch a remaining tile (4,1 touches k3,0); 5,1 and beyond
/// touch nothing. To the left only -1,1 touches K0,0. Upwards 0,2 touches
/// nothing (0,1 itself is vacated). Down is blocked by the own king.
/// Nothing black slides, so no rook move exposes K0,0 (p attacks 0,-1 and
/// 2,-1, n attacks 0,1 and 0,-1). The rook has exactly 5 legal moves.
#[test]
fn long_slide_must_land_touching_the_group() {
    let p = pos("R0,1/K0,0/p1,0/n2,0/k3,0 w -/- 0 1");
    assert_legal(&p, step(0, 1, 4, 1));
    assert_illegal(&p, step(0, 1, 5, 1));
    assert_illegal(&p, step(0, 1, 1000, 1));
    assert_legal(&p, step(0, 1, -1, 1));
    assert_illegal(&p, step(0, 1, -2, 1));
    assert_illegal(&p, step(0, 1, 0, 2));
    assert_eq!(
        moves_from(&p, sq(0, 1)),
        set(&[
            step(0, 1, 1, 1),
            step(0, 1, 2, 1),
            step(0, 1, 3, 1),
            step(0, 1, 4, 1),
            step(0, 1, -1, 1),
        ])
    );
}

/// Taking the last enemy tile so that one tile remains is legal: one tile
/// is one group (RULES.md section 4, from the rule sheet).
///
/// ```text
///   y=1:        n1,1
///   y=0:  Q0,0              (White to move, both kings still in the piles)
/// ```
/// Queen moves: the capture 0,0-1,1, plus the quiet squares touching n1,1
/// once the queen has left 0,0: 1,0 2,0 (row) and 0,1 0,2 (column). 3,0 and
/// 0,3 are two away from n1,1; -1,0 0,-1 and the other diagonals touch
/// nothing. 5 queen moves.
#[test]
fn capture_leaving_a_single_tile_is_legal() {
    let p = pos("n1,1/Q0,0 w K/k 0 2");
    assert_legal(&p, step(0, 0, 1, 1));
    assert_eq!(
        moves_from(&p, sq(0, 0)),
        set(&[
            step(0, 0, 1, 1),
            step(0, 0, 1, 0),
            step(0, 0, 2, 0),
            step(0, 0, 0, 1),
            step(0, 0, 0, 2),
        ])
    );
    let mut after = p.clone();
    after.make(step(0, 0, 1, 1));
    // A capture resets the halfmove clock; White's turn leaves fullmove.
    assert_eq!(after.to_string(), "Q1,1 b K/k 0 2");
    // Black's only tile left is the king in its pile; all eight squares
    // round the queen are attacked by a capture that leaves one tile:
    // drawing it is stalemate (the rule sheet's "STRATEGY AND NOTES").
    assert_eq!(
        after.ending_after_draw(Kind::King),
        Some(GameEnd {
            winner: None,
            ending: Ending::DrawnTileStalemate(Kind::King)
        })
    );
}

// ---------------------------------------------------------------------
// Section 5: check
// ---------------------------------------------------------------------

/// An attack whose capture would split the table is no check (CHEX rule 7).
///
/// ```text
///   y=0:  K0,0  R1,0  k2,0      (Black to move)
/// ```
/// R1,0 attacks k2,0, but after R takes it only K0,0 and R2,0 are left,
/// two squares apart: two groups. So Black is not in check.
///
/// Black's moves (piles empty): k takes R on 1,0 → next to K0,0, which
/// could take it leaving one tile: check, illegal. 1,1 and 1,-1 are next to
/// K0,0 (and R attacks them): illegal. 3,* touch nothing once k has left
/// 2,0 (R is two away): illegal. 2,1 and 2,-1 touch R1,0 and are attacked
/// by nothing (R covers row 0 and column 1; K reaches x ≤ 1): legal.
///
/// With a white pawn on 1,1 the same capture leaves K0,0, P1,1, R2,0 — one
/// group — so then Black *is* in check.
#[test]
fn attack_whose_capture_splits_is_not_check() {
    let p = pos("K0,0/R1,0/k2,0 b -/- 0 1");
    assert!(!p.in_check());
    assert_eq!(
        all_moves(&p),
        set(&[step(2, 0, 2, 1), step(2, 0, 2, -1)]),
        "got {}",
        show(&all_moves(&p))
    );
    assert_eq!(p.ending(), None);

    let q = pos("P1,1/K0,0/R1,0/k2,0 b -/- 0 1");
    assert!(q.in_check());
}

/// A pinned attacker still gives check.
///
/// ```text
///   y=2:              q2,2
///   y=1:        B1,1  p2,1
///   y=0:  K0,0  P1,0  k2,0      (Black to move)
/// ```
/// B1,1 is pinned against K0,0 by q2,2 (same diagonal, nothing between).
/// It still attacks k2,0 (diagonally adjacent), and after Bx2,0 the rest
/// K0,0-P1,0-B2,0-p2,1-q2,2 is one chain: check. White is not in check now
/// (q's diagonal is blocked by B; p2,1 attacks 1,0 and 3,0; k reaches x ≥ 1).
///
/// Black may take the checker: q2,2x1,1 leaves k2,0 attacked by nothing
/// (K reaches x ≤ 1, P1,0 attacks 0,1 and 2,1). A queen move that ignores
/// the check, 2,2-3,2, leaves Bx2,0 connected through p2,1-q3,2: illegal.
#[test]
fn pinned_piece_still_gives_check() {
    let p = pos("q2,2/B1,1/p2,1/K0,0/P1,0/k2,0 b -/- 0 1");
    assert!(p.in_check());
    assert_legal(&p, step(2, 2, 1, 1));
    assert_illegal(&p, step(2, 2, 3, 2));
}

/// A placement may not join the table so that an enemy capture of the own
/// king becomes connected.
///
/// ```text
///   y=0:  K0,0  r1,0  k2,0      (White to move, White has a knight to place)
/// ```
/// r1,0 attacks K0,0, but rx0,0 leaves r0,0 and k2,0 apart: no check now.
/// A knight placed on a square touching both 0,0 and 2,0 — 1,1 or 1,-1 —
/// would keep r0,0 and k2,0 joined after that capture: illegal. The other
/// 10 empty squares touching the group (x -1..3, y -1..1, less the three
/// tiles and those two) leave the capture split: legal.
#[test]
fn placement_that_connects_a_king_capture_is_illegal() {
    let p = pos("K0,0/r1,0/k2,0 w N/- 0 5");
    assert!(!p.in_check());
    let n = |x, y| place(Colour::White, Kind::Knight, x, y);
    assert_illegal(&p, n(1, 1));
    assert_illegal(&p, n(1, -1));
    let expected = set(&[
        n(-1, -1),
        n(-1, 0),
        n(-1, 1),
        n(0, -1),
        n(0, 1),
        n(2, -1),
        n(2, 1),
        n(3, -1),
        n(3, 0),
        n(3, 1),
    ]);
    let got: BTreeSet<Move> = p.legal_placements(Kind::Knight).into_iter().collect();
    assert_eq!(got, expected, "got {}", show(&got));
}

/// A drawn king that has no legal placement: stalemate (tile rule 12).
///
/// ```text
///   y=0:  Q0,0      (Black to move, Black's pile: k and p)
/// ```
/// Each of the eight squares round Q0,0 is attacked by the queen, and the
/// capture leaves one tile: check. So a drawn king cannot be placed; Black
/// is not in check (its king is not on the table): stalemate, a draw. A
/// drawn pawn can go on any of the eight squares.
#[test]
fn drawn_king_that_cannot_be_placed_is_stalemate() {
    let p = pos("Q0,0 b K/kp 0 1");
    assert!(!p.in_check());
    assert!(p.legal_placements(Kind::King).is_empty());
    assert_eq!(
        p.ending_after_draw(Kind::King),
        Some(GameEnd {
            winner: None,
            ending: Ending::DrawnTileStalemate(Kind::King)
        })
    );
    assert_eq!(p.legal_placements(Kind::Pawn).len(), 8);
    assert_eq!(p.ending_after_draw(Kind::Pawn), None);
}

/// A drawn tile that can neither block nor otherwise end the check:
/// checkmate (section 5, "drawing while in check is a gamble").
///
/// ```text
///   y=1:        P0,1
///   y=0:  K-1,0 Q0,0  k1,0      (Black to move, Black's pile: n)
/// ```
/// Q0,0 attacks k1,0; after Qx1,0 the rest K-1,0, P0,1, Q1,0 is one group
/// (P0,1 touches both): check. The queen is adjacent, so nothing can block.
/// A placement could only break the check by making that capture split,
/// i.e. by touching nothing but 0,0 (which the queen leaves); but every
/// square round 0,0 also touches -1,0 or 1,0 (where the queen lands). So a
/// drawn knight has no legal placement: checkmate, White wins.
///
/// Contrast, where the check comes from a distance:
/// ```text
///   y=1:  K0,1  P1,1
///   y=0:  R0,0        k2,0      (Black to move, Black's pile: n)
/// ```
/// R0,0 checks along row 0 through the empty 1,0 (after Rx2,0, K0,1-P1,1-
/// R2,0 is one group). Of the 15 empty squares touching the group, n@1,0
/// blocks; n@-1,-1 and n@0,-1 touch only 0,0, so after Rx2,0 the knight
/// would be alone: the capture would split, no check. Every other square
/// touches K0,1, P1,1 or 2,0, so the check stays. Exactly 3 placements.
#[test]
fn drawn_tile_that_cannot_block_is_checkmate() {
    let p = pos("P0,1/K-1,0/Q0,0/k1,0 b -/n 0 30");
    assert!(p.in_check());
    assert!(p.legal_placements(Kind::Knight).is_empty());
    assert_eq!(
        p.ending_after_draw(Kind::Knight),
        Some(GameEnd {
            winner: Some(Colour::White),
            ending: Ending::DrawnTileCheckmate(Kind::Knight)
        })
    );

    let q = pos("K0,1/P1,1/R0,0/k2,0 b -/n 0 30");
    assert!(q.in_check());
    let n = |x, y| place(Colour::Black, Kind::Knight, x, y);
    let got: BTreeSet<Move> = q.legal_placements(Kind::Knight).into_iter().collect();
    assert_eq!(
        got,
        set(&[n(1, 0), n(-1, -1), n(0, -1)]),
        "got {}",
        show(&got)
    );
    assert_eq!(q.ending_after_draw(Kind::Knight), None);
}

// ---------------------------------------------------------------------
// Section 3: pawns, and what chess has that CHEX has not
// ---------------------------------------------------------------------

/// An unmoved pawn may step 1, 2 or 3 squares through empty squares; a
/// moved one (`*`) only 1.
///
/// ```text
///   y=3:        k1,3
///   y=2:        n1,2
///   y=1:        N1,1
///   y=0:  P0,0  K1,0      (White to move)
/// ```
/// Column 1 keeps every square 0,1 .. 0,3 touching the group. The pawn's
/// captures would be 1,1 (own knight) and -1,1 (empty): none. Nothing black
/// slides, so no pawn move exposes K1,0 (n1,2 attacks 0,0 and 2,0).
/// Unmoved: 0,1 0,2 0,3, never 0,4. With a black pawn on 0,2: only 0,1
/// (0,2 is taken, 0,3 would pass through it). With one on 0,3: 0,1 and 0,2.
/// Moved: only 0,1. After a first step the pawn is marked moved.
#[test]
fn pawn_steps_one_two_three_only_unmoved_and_through_empty_squares() {
    let p = pos("k1,3/n1,2/N1,1/P0,0/K1,0 w -/- 0 1");
    assert_eq!(
        moves_from(&p, sq(0, 0)),
        set(&[step(0, 0, 0, 1), step(0, 0, 0, 2), step(0, 0, 0, 3)])
    );
    assert_illegal(&p, step(0, 0, 0, 4));

    let blocked_at_2 = pos("k1,3/p0,2/n1,2/N1,1/P0,0/K1,0 w -/- 0 1");
    assert_eq!(
        moves_from(&blocked_at_2, sq(0, 0)),
        set(&[step(0, 0, 0, 1)])
    );
    assert_illegal(&blocked_at_2, step(0, 0, 0, 3));

    let blocked_at_3 = pos("p0,3/k1,3/n1,2/N1,1/P0,0/K1,0 w -/- 0 1");
    assert_eq!(
        moves_from(&blocked_at_3, sq(0, 0)),
        set(&[step(0, 0, 0, 1), step(0, 0, 0, 2)])
    );

    let moved = pos("k1,3/n1,2/N1,1/P0,0*/K1,0 w -/- 0 1");
    assert_eq!(moves_from(&moved, sq(0, 0)), set(&[step(0, 0, 0, 1)]));
    assert_illegal(&moved, step(0, 0, 0, 2));
    assert_illegal(&moved, step(0, 0, 0, 3));

    let mut after = p.clone();
    after.make(step(0, 0, 0, 1));
    let t = after.tile_at(sq(0, 1)).expect("the pawn is on 0,1");
    assert_eq!(t.piece, Piece::new(Colour::White, Kind::Pawn));
    assert!(t.moved, "a pawn that has stepped is marked moved");
}

/// Black's pawns walk towards −y and capture diagonally towards −y.
///
/// ```text
///   y=1:        P1,1
///   y=0:  p0,0  k1,0
///   y=-1:       N1,-1
///   y=-2:       n1,-2
///   y=-3:       K1,-3      (Black to move)
/// ```
/// The unmoved black pawn steps to 0,-1 0,-2 0,-3 (all empty, all touching
/// column 1) and takes N1,-1 (diagonally forward for Black; afterwards the
/// column is whole again). It may not step to 0,1 (backwards for Black),
/// take P1,1 (diagonally backwards), or move to the empty -1,-1. No white
/// piece attacks k1,0 before or after (P1,1 attacks 0,2 and 2,2; N1,-1
/// attacks -1,0 3,0 0,1 2,1 ...; K1,-3 is far). Exactly 4 pawn moves.
#[test]
fn black_pawns_move_and_capture_towards_negative_y() {
    let p = pos("P1,1/p0,0/k1,0/N1,-1/n1,-2/K1,-3 b -/- 0 1");
    assert!(!p.in_check());
    assert_eq!(
        moves_from(&p, sq(0, 0)),
        set(&[
            step(0, 0, 0, -1),
            step(0, 0, 0, -2),
            step(0, 0, 0, -3),
            step(0, 0, 1, -1),
        ]),
        "got {}",
        show(&moves_from(&p, sq(0, 0)))
    );
    assert_illegal(&p, step(0, 0, 0, 1));
    assert_illegal(&p, step(0, 0, 1, 1));
    assert_illegal(&p, step(0, 0, -1, -1));
    assert_illegal(&p, step(0, 0, 0, -4));
}

/// No promotion: a pawn far up the table keeps walking as a pawn.
///
/// ```text
///   y=101:              k2,101
///   y=100:  P0,100*  n1,100
///   y=99:            K1,99        (White to move)
/// ```
/// The moved pawn's only move is 0,101 (it touches n1,100; 1,101 and
/// -1,101 are empty so there is nothing to take). It stays a pawn.
#[test]
fn no_promotion() {
    let p = pos("k2,101/P0,100*/n1,100/K1,99 w -/- 0 1");
    assert_eq!(moves_from(&p, sq(0, 100)), set(&[step(0, 100, 0, 101)]));
    let mut after = p.clone();
    after.make(step(0, 100, 0, 101));
    let t = after.tile_at(sq(0, 101)).expect("the pawn is on 0,101");
    assert_eq!(t.piece, Piece::new(Colour::White, Kind::Pawn));
    assert!(t.moved);
    assert_eq!(after.pile(Colour::White).len(), 0);
}

/// No castling: a king next to its rook's row has no two-square move.
///
/// ```text
///   y=2:              k2,2
///   y=1:        N1,1  b2,1
///   y=0:  K0,0              R3,0      (White to move)
/// ```
/// 1,0 and 2,0 between king and rook are empty, as for castling, but the
/// king moves one square only. Its legal moves: 0,1 (touches N1,1; b2,1's
/// diagonals and k2,2 miss it) and 1,0 — b2,1 attacks 1,0, but after bx1,0
/// R3,0 touches nothing (its only neighbour was b2,1): no check. Every
/// other square (-1,*, 0,-1, 1,-1) touches no tile once the king leaves.
#[test]
fn no_castling() {
    let p = pos("k2,2/N1,1/b2,1/K0,0/R3,0 w -/- 0 1");
    assert_illegal(&p, step(0, 0, 2, 0));
    assert_illegal(&p, step(0, 0, -2, 0));
    assert_eq!(
        moves_from(&p, sq(0, 0)),
        set(&[step(0, 0, 0, 1), step(0, 0, 1, 0)]),
        "got {}",
        show(&moves_from(&p, sq(0, 0)))
    );
}

/// No en passant: after a black pawn's three-square step past a white
/// pawn's capture square, that square is empty and nothing may take there.
///
/// ```text
///   y=3:        k0,3  p1,3
///   y=2:        b0,2
///   y=1:        N0,1
///   y=0:  K-1,0 P0,0*         (Black to move)
/// ```
/// p1,3 steps through the empty 1,2 and 1,1 to 1,0 (it touches P0,0 and
/// N0,1; the rest stays one chain). Then P0,0 has no move at all: 0,1 is
/// taken by its own knight, -1,1 and 1,1 are empty — in particular no
/// capture on 1,1, the square the black pawn passed.
#[test]
fn no_en_passant() {
    let p = pos("k0,3/p1,3/b0,2/N0,1/K-1,0/P0,0* b -/- 0 1");
    let mut game = Game::new(p);
    assert_eq!(game.play(step(1, 3, 1, 0)), Ok(()));
    let after = game.position();
    assert_eq!(after.side_to_move(), Colour::White);
    assert!(
        moves_from(after, sq(0, 0)).is_empty(),
        "pawn moves: {}",
        show(&moves_from(after, sq(0, 0)))
    );
    assert_illegal(after, step(0, 0, 1, 1));
    assert_illegal(after, step(0, 0, 1, 0));
}

// ---------------------------------------------------------------------
// Section 2: placements
// ---------------------------------------------------------------------

/// The first tile goes on 0,0; the second on any of the 8 squares round it.
///
/// At the start White's only moves are the six kinds on 0,0. After N@0,0,
/// a black pawn may go on any of the 8 neighbours; the black king too (a
/// knight attacks no adjacent square), so Black has 6 × 8 = 48 moves.
/// After Q@0,0 instead, every neighbour is attacked by the queen with a
/// capture leaving one tile: no king placement, 5 × 8 = 40 moves.
#[test]
fn first_tile_on_origin_second_adjacent() {
    let start = Position::startpos();
    let moves = all_moves(&start);
    let expected: BTreeSet<Move> = Kind::ALL
        .iter()
        .map(|&k| place(Colour::White, k, 0, 0))
        .collect();
    assert_eq!(moves, expected);
    assert_illegal(&start, place(Colour::White, Kind::Knight, 1, 0));
    assert_eq!(
        start.legal_placements(Kind::Knight).to_vec(),
        vec![place(Colour::White, Kind::Knight, 0, 0)]
    );

    let mut p = start.clone();
    p.make(place(Colour::White, Kind::Knight, 0, 0));
    let pawns: BTreeSet<Move> = p.legal_placements(Kind::Pawn).into_iter().collect();
    let mut ring = BTreeSet::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            if (dx, dy) != (0, 0) {
                ring.insert(place(Colour::Black, Kind::Pawn, dx, dy));
            }
        }
    }
    assert_eq!(pawns, ring);
    assert_illegal(&p, place(Colour::Black, Kind::Pawn, 0, 2));
    assert_illegal(&p, place(Colour::Black, Kind::Pawn, 0, 0));
    assert_eq!(p.legal_moves().len(), 48);

    let mut q = start.clone();
    q.make(place(Colour::White, Kind::Queen, 0, 0));
    assert!(q.legal_placements(Kind::King).is_empty());
    assert_eq!(q.legal_moves().len(), 40);
}

// ---------------------------------------------------------------------
// Section 5/6: checkmate and stalemate with an empty pile
// ---------------------------------------------------------------------

/// Checkmate and stalemate of a side with an empty pile.
///
/// ```text
///   y=2:        K1,2
///   y=1:        R1,1  N2,1
///   y=0:  k0,0                (Black to move, both piles empty)
/// ```
/// Check: N2,1 attacks 0,0; after Nx0,0 the rest R1,1-K1,2 touches it. The
/// king's moves: x1,1 — K1,2 then takes it, K1,1 beside N2,1: check.
/// 0,1 — R takes along row 1, R0,1-K1,2-N2,1 one group: check. 1,0 — R
/// takes down column 1, R1,0-N2,1-K1,2 one group: check. -1,* 0,-1 1,-1 —
/// no tile touches these once the king has left 0,0. No legal move, in
/// check, nothing to draw: checkmate, White wins.
///
/// With a bishop on 2,1 instead of the knight nothing attacks 0,0 (the
/// rook is diagonal to it, the bishop a knight's jump away), and the same
/// three king moves fail the same way (the bishop stands where the knight
/// stood and also hits 1,0): stalemate, a draw.
#[test]
fn checkmate_and_stalemate_with_empty_pile() {
    let mate = pos("K1,2/R1,1/N2,1/k0,0 b -/- 0 40");
    assert!(mate.in_check());
    assert!(
        mate.legal_moves().is_empty(),
        "got {}",
        show(&all_moves(&mate))
    );
    assert_eq!(
        mate.ending(),
        Some(GameEnd {
            winner: Some(Colour::White),
            ending: Ending::Checkmate
        })
    );

    let stale = pos("K1,2/R1,1/B2,1/k0,0 b -/- 0 40");
    assert!(!stale.in_check());
    assert!(
        stale.legal_moves().is_empty(),
        "got {}",
        show(&all_moves(&stale))
    );
    assert_eq!(
        stale.ending(),
        Some(GameEnd {
            winner: None,
            ending: Ending::Stalemate
        })
    );
}

// ---------------------------------------------------------------------
// Section 6: repetition, fifty moves, clocks
// ---------------------------------------------------------------------

/// Threefold repetition counts positions up to translation, and only
/// positions that really are translates.
///
/// Two knights (kings in the piles) walk across the table; write d for
/// n − N. Start N0,0 n1,0, d = (1,0), White to move.
/// ```text
///  ply  move        N      n      d       to move  occurrences
///   0   -           0,0    1,0    (1,0)   W        1
///   1   0,0-2,1     2,1    1,0    (-1,-1) B        1
///   2   1,0-3,1     2,1    3,1    (1,0)   W        2  (start moved by 2,1)
///   3   2,1-4,0     4,0    3,1    (-1,1)  B        1
///   4   3,1-4,-1    4,0    4,-1   (0,-1)  W        1  (a rotation: no match)
///   5   4,0-5,-2    5,-2   4,-1   (-1,1)  B        2  (ply 3 moved by 1,-2)
///   6   4,-1-6,-2   5,-2   6,-2   (1,0)   W        3  → drawn
/// ```
/// Every move is a knight jump landing next to the other knight, the only
/// other tile, so all are legal. At ply 4 the same two tiles stand side by
/// side with White to move, but turned: not the same position, so it must
/// not count as the third occurrence of d = (1,0).
#[test]
fn threefold_repetition_up_to_translation() {
    let mut game = Game::new(pos("N0,0/n1,0 w K/k 0 1"));
    assert_eq!(game.occurrences(), 1);
    let plies = [
        (step(0, 0, 2, 1), 1),
        (step(1, 0, 3, 1), 2),
        (step(2, 1, 4, 0), 1),
        (step(3, 1, 4, -1), 1),
        (step(4, 0, 5, -2), 2),
        (step(4, -1, 6, -2), 3),
    ];
    for (i, (mv, occ)) in plies.into_iter().enumerate() {
        assert_eq!(game.ending(), None, "ended before ply {}", i + 1);
        assert_eq!(game.play(mv), Ok(()), "ply {} {mv}", i + 1);
        assert_eq!(
            game.occurrences(),
            occ,
            "occurrences after ply {} {mv}",
            i + 1
        );
    }
    assert_eq!(game.position().to_string(), "N5,-2/n6,-2 w K/k 6 4");
    assert_eq!(
        game.ending(),
        Some(GameEnd {
            winner: None,
            ending: Ending::Repetition
        })
    );
}

/// A moved pawn's step does not end the window of repetition: the group
/// stepping after it gives the same position up to translation (issue 24,
/// item 1). Each side steps its two tiles north in turn; after every four
/// turns the table is the start, moved up by one.
/// ```text
///   y=0:  K0,0  P1,0*  k2,0
///   y=-1:       r1,-1          (White to move, piles empty)
/// ```
/// Every pawn step resets the fifty-move clock, yet the position comes
/// back: the 8th turn is its third occurrence.
#[test]
fn threefold_repetition_across_moved_pawn_steps() {
    let mut game = Game::new(pos("K0,0/P1,0*/k2,0/r1,-1 w -/- 0 10"));
    let cycle = |y: i32| {
        [
            step(1, y, 1, y + 1),
            step(1, y - 1, 1, y),
            step(0, y, 0, y + 1),
            step(2, y, 2, y + 1),
        ]
    };
    let plies: Vec<Move> = cycle(0).into_iter().chain(cycle(1)).collect();
    let expected = [1, 1, 1, 2, 2, 2, 2, 3];
    for (i, (mv, occ)) in plies.into_iter().zip(expected).enumerate() {
        assert_eq!(game.ending(), None, "ended before ply {}", i + 1);
        assert_eq!(game.play(mv), Ok(()), "ply {} {mv}", i + 1);
        assert_eq!(game.occurrences(), occ, "after ply {} {mv}", i + 1);
    }
    assert_eq!(game.position().halfmove_clock(), 3);
    assert_eq!(game.recent_keys().len(), 9, "the whole game is the window");
    assert_eq!(
        game.ending(),
        Some(GameEnd {
            winner: None,
            ending: Ending::Repetition
        })
    );
}

/// What ends the window of repetition: a placement, a capture and an
/// unmoved pawn's first step (none can be undone), but not a moved pawn's
/// step nor a quiet move.
#[test]
fn turns_that_cut_repetition() {
    let p = pos("n0,1/b2,1/N0,0/P1,0 w K/k 5 80");
    let moved = pos("n0,1/b2,1/N0,0/P1,0* w K/k 5 80");
    let cases = [
        (&p, step(1, 0, 1, 1), true),
        (&p, step(0, 0, 2, 1), true),
        (&p, place(Colour::White, Kind::King, -1, 0), true),
        (&p, step(0, 0, 1, 2), false),
        (&moved, step(1, 0, 1, 1), false),
    ];
    for (p, mv, cuts) in cases {
        assert_legal(p, mv);
        assert_eq!(p.cuts_repetition(mv), cuts, "{mv} in {p}");
        let mut game = Game::new(p.clone());
        game.play(mv).unwrap();
        let window = if cuts { 1 } else { 2 };
        assert_eq!(game.recent_keys().len(), window, "{mv} in {p}");
    }
}

/// The fifty-move rule, and what resets its clock.
///
/// ```text
///   y=1:  n0,1        b2,1
///   y=0:  N0,0  P1,0          (White to move, kings in the piles)
/// ```
/// 0,0-1,2 is a quiet knight move (1,2 touches n0,1 and b2,1; n0,1-P1,0-b2,1
/// stays one chain; no white king is on the table). From halfmove 99 it is
/// the 100th turn without capture, pawn move or placement: drawn. From 98
/// it is only the 99th. The pawn step 1,0-1,1, the capture 0,0-2,1 and the
/// placement K@-1,0 (touches N0,0; nothing black attacks -1,0) reset the
/// clock to 0.
#[test]
fn fifty_move_rule_and_clock_resets() {
    let fifty = Some(GameEnd {
        winner: None,
        ending: Ending::FiftyMoves,
    });
    let p = pos("n0,1/b2,1/N0,0/P1,0 w K/k 99 80");
    assert_eq!(p.ending(), None);
    let quiet = step(0, 0, 1, 2);
    assert_legal(&p, quiet);
    let mut a = p.clone();
    a.make(quiet);
    assert_eq!(a.halfmove_clock(), 100);
    assert_eq!(a.ending(), fifty);
    let mut game = Game::new(p.clone());
    game.play(quiet).unwrap();
    assert_eq!(game.ending(), fifty);

    let mut b = pos("n0,1/b2,1/N0,0/P1,0 w K/k 98 80");
    b.make(quiet);
    assert_eq!(b.halfmove_clock(), 99);
    assert_eq!(b.ending(), None);

    for mv in [
        step(1, 0, 1, 1),
        step(0, 0, 2, 1),
        place(Colour::White, Kind::King, -1, 0),
    ] {
        assert_legal(&p, mv);
        let mut c = p.clone();
        c.make(mv);
        assert_eq!(c.halfmove_clock(), 0, "after {mv}");
        assert_eq!(c.ending(), None, "after {mv}");
    }
}

/// A game never goes past the counters a position string holds (issue
/// 24, item 8): Black's move at fullmove 1000000000, or a quiet move at
/// halfmove 1000000000, is refused and changes nothing; a move that
/// resets the clock is not.
#[test]
fn game_counters_stay_within_the_notation() {
    let mut game = Game::new(pos("K0,0/k1,2/q1,1 b -/- 0 1000000000"));
    let mv = step(1, 2, 2, 2);
    assert_legal(game.position(), mv);
    assert!(game.counters_overflow(mv));
    assert_eq!(game.play(mv), Err(mv));
    assert_eq!(game.moves().len(), 0);
    assert_eq!(
        game.position().to_string(),
        "k1,2/q1,1/K0,0 b -/- 0 1000000000"
    );
    let mut game = Game::new(pos("n0,1/b2,1/N0,0/P1,0 w K/k 1000000000 80"));
    assert_eq!(game.play(step(0, 0, 1, 2)), Err(step(0, 0, 1, 2)));
    assert_eq!(game.play(step(1, 0, 1, 1)), Ok(()));
    assert_eq!(game.position().halfmove_clock(), 0);
}

/// The fullmove number starts at 1 and grows after each Black turn.
#[test]
fn fullmove_grows_after_black() {
    let mut p = Position::startpos();
    assert_eq!(p.fullmove_number(), 1);
    let w = place(Colour::White, Kind::Knight, 0, 0);
    let uw = p.make(w);
    assert_eq!(p.fullmove_number(), 1);
    assert_eq!(p.side_to_move(), Colour::Black);
    let b = place(Colour::Black, Kind::Knight, 1, 0);
    let ub = p.make(b);
    assert_eq!(p.fullmove_number(), 2);
    assert_eq!(p.side_to_move(), Colour::White);
    assert_eq!(
        p.to_string(),
        "N0,0/n1,0 w KQRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2"
    );
    let w2 = step(0, 0, 2, 1);
    let uw2 = p.make(w2);
    assert_eq!(p.fullmove_number(), 2);
    assert_eq!(p.halfmove_clock(), 1);
    p.unmake(w2, uw2);
    p.unmake(b, ub);
    p.unmake(w, uw);
    assert_eq!(p, Position::startpos());
}

/// `Game::play` refuses an illegal move and changes nothing.
#[test]
fn game_rejects_illegal_move_unchanged() {
    let mut game = Game::new(Position::startpos());
    for bad in [
        place(Colour::White, Kind::Knight, 1, 0), // the first tile goes on 0,0
        place(Colour::Black, Kind::Knight, 0, 0), // not Black's turn
        step(0, 0, 0, 1),                         // no tile to move
    ] {
        assert_eq!(game.play(bad), Err(bad));
        assert_eq!(*game.position(), Position::startpos());
        assert!(game.moves().is_empty());
        assert_eq!(game.occurrences(), 1);
        assert_eq!(game.ending(), None);
    }
    let good = place(Colour::White, Kind::Knight, 0, 0);
    assert_eq!(game.play(good), Ok(()));
    // A knight already used up: White has two, so take both and try a third.
    let mut game = Game::new(pos("N0,0/n1,0 w KQRRBBNPPPPPPPP/kqrrbbnpppppppp 0 2"));
    game.play(place(Colour::White, Kind::Knight, -1, 0))
        .unwrap();
    game.play(place(Colour::Black, Kind::Pawn, 2, 0)).unwrap();
    let before = game.position().clone();
    let third = place(Colour::White, Kind::Knight, -2, 0);
    assert_eq!(game.play(third), Err(third));
    assert_eq!(*game.position(), before);
    assert_eq!(game.moves().len(), 2);
}

// ---------------------------------------------------------------------
// Section 1: the coordinate range
// ---------------------------------------------------------------------

/// No move may leave the range ±1,000,000,000 (section 1: "a position
/// string or move outside that range is rejected").
///
/// ```text
///   y=0:  N999999999,0  n1000000000,0      (White to move, White: K to place)
/// ```
/// The knight's only jumps that land next to n are to 1000000001,±1: out
/// of range, so none. The king may be placed on an in-range empty square
/// touching the group (x 999999998..1000000000, y -1..1, less the two
/// tiles: 7 squares) unless n1000000000,0 attacks it — it jumps to
/// 999999998,±1, and Nx there leaves two adjacent tiles: check. That leaves
/// 999999998,0, 999999999,±1 and 1000000000,±1; the three squares with
/// x = 1000000001 are off the table. So exactly 5 legal moves.
#[test]
fn coordinates_stay_within_range() {
    let p = pos("N999999999,0/n1000000000,0 w K/k 0 1");
    let moves = all_moves(&p);
    assert_eq!(moves.len(), 5, "got {}", show(&moves));
    for mv in &moves {
        assert!(mv.to().in_range(), "{mv} leaves the table's range");
        assert!(mv.to().x.abs() <= COORD_LIMIT);
    }
    assert_illegal(&p, step(999_999_999, 0, 1_000_000_001, 1));
    assert_illegal(&p, place(Colour::White, Kind::King, 1_000_000_001, 0));
}
