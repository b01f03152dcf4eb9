//! Cross-checks the crate's fast move generator against the slow reference
//! twin in `tests/reference` (STYLE.md item 11) on thousands of positions.
//!
//! Random games are played with the crate's own API; at every position the
//! crate's sorted move tokens must equal the reference's, computed from the
//! position string alone, and after every move the crate's position string
//! must equal the one the reference computes by applying the same token to
//! its own copy. Several move-choice policies steer the games into different
//! corners (checks, captures, long lines, empty piles), and counters assert
//! that those corners were really reached, so the test cannot quietly
//! degrade into checking only easy positions.
//!
//! The big runs are for optimised builds (the README's `cargo test
//! --profile quick`, as in CI); debug builds run small versions of the
//! same checks.

mod reference;

use chex::rules::{perft, Colour, Kind, Move, Position};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reference::{RefPos, LIMIT};

/// The crate's legal moves as sorted tokens.
fn crate_moves(pos: &Position) -> Vec<String> {
    let mut tokens: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    tokens.sort();
    tokens
}

/// What the checks met, so that tests can assert they met enough of it.
#[derive(Default, Debug)]
struct Coverage {
    positions: usize,
    /// Positions whose side to move is in check.
    in_check: usize,
    /// Positions with no legal move at all (mate or stalemate).
    no_moves: usize,
    /// Positions where the side to move has a king on the table, tiles on
    /// the table and an empty pile: pure chess-like play.
    empty_pile: usize,
    /// Positions where an attack on the king exists by movement but is no
    /// check because the capture would split the table (RULES.md section 5).
    split_attack: usize,
    captures: usize,
    longest_line: usize,
    most_moves: usize,
}

/// Compares everything the crate says about `pos` with the reference.
/// Panics with the position string and the difference on any mismatch.
fn check_position(pos: &Position, cov: &mut Coverage) {
    let text = pos.to_string();
    let rpos = reference::parse(&text);
    // The crate only ever builds consistent positions (RULES.md section 7).
    if let Err(why) = reference::validate(&rpos) {
        panic!("crate produced an inconsistent position ({why}): {text}");
    }
    // Its Display is canonical: tiles by rank high to low, then file.
    assert_eq!(rpos.to_string(), text, "position string not canonical");

    let ours = crate_moves(pos);
    let theirs = reference::legal_moves(&rpos);
    assert!(
        ours == theirs,
        "move lists differ for {text}\n{}",
        reference::diff(&ours, &theirs)
    );
    let check = reference::in_check(&rpos);
    assert_eq!(pos.in_check(), check, "in_check differs for {text}");

    cov.positions += 1;
    cov.in_check += check as usize;
    cov.no_moves += ours.is_empty() as usize;
    cov.most_moves = cov.most_moves.max(ours.len());
    cov.longest_line = cov.longest_line.max(reference::longest_line(&rpos.tiles));
    let side = if rpos.white_to_move { 0 } else { 1 };
    if rpos.piles[side] == [0; 6] && pos.king_square(pos.side_to_move()).is_some() {
        cov.empty_pile += 1;
    }
    if !check && attacked_by_movement(&rpos) {
        cov.split_attack += 1;
    }
}

/// True when an enemy tile reaches the side to move's king by movement,
/// whether or not the capture would keep the table connected.
fn attacked_by_movement(rpos: &RefPos) -> bool {
    let me = rpos.white_to_move;
    let Some((&king, _)) = rpos
        .tiles
        .iter()
        .find(|(_, t)| t.kind == 'K' && t.white == me)
    else {
        return false;
    };
    let table = rpos.table();
    rpos.tiles
        .iter()
        .any(|(&sq, &t)| t.white != me && reference::reaches(&table, sq, t, king))
}

/// How a random game picks its next move.
#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Uniform over `legal_moves()`: placements dominate while piles last.
    Uniform,
    /// As a real game: choose "draw" or one of the tile moves uniformly; a
    /// draw takes a uniformly random tile of the pile and places it
    /// uniformly. Reaches tile moves and checks much earlier.
    DrawLikeAGame,
    /// Prefers captures and moves that give check: thins the table, reaches
    /// near-mates and few-tile endings.
    Aggressive,
    /// Prefers moves that stretch the bounding box: long lines and wide
    /// groups, where slides and the connection rule are tested hardest.
    Stretch,
}

/// The area-plus-perimeter score of the tiles' bounding box after `mv`.
fn stretch_score(pos: &mut Position, mv: Move) -> i64 {
    let undo = pos.make(mv);
    let tiles = pos.tiles();
    pos.unmake(mv, undo);
    let xs = tiles.iter().map(|t| t.square.x as i64);
    let ys = tiles.iter().map(|t| t.square.y as i64);
    let w = xs.clone().max().unwrap() - xs.min().unwrap() + 1;
    let h = ys.clone().max().unwrap() - ys.min().unwrap() + 1;
    // Width and height matter more than area: a line beats a blob.
    w.max(h) * 4 + w + h
}

/// Picks the next move under `policy`, or `None` when the game ends.
fn choose(pos: &mut Position, policy: Policy, rng: &mut ChaCha8Rng) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    match policy {
        Policy::Uniform => moves.choose(rng).copied(),
        Policy::DrawLikeAGame => {
            let steps: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Step { .. }))
                .collect();
            let pile = pos.pile(pos.side_to_move());
            let options = steps.len() + usize::from(!pile.is_empty());
            let pick = rng.gen_range(0..options);
            if pick < steps.len() {
                return Some(steps[pick]);
            }
            let kind = pile.nth(rng.gen_range(0..pile.len()));
            // A drawn tile with no legal placement ends the game (RULES.md
            // section 5); the caller treats `None` as the end.
            pos.legal_placements(kind).choose(rng).copied()
        }
        Policy::Aggressive => {
            let mut sharp = Vec::new();
            for &mv in &moves {
                let capture = matches!(mv, Move::Step { to, .. } if pos.tile_at(to).is_some());
                let undo = pos.make(mv);
                let check = pos.in_check();
                pos.unmake(mv, undo);
                if capture || check {
                    sharp.push(mv);
                }
            }
            if !sharp.is_empty() && rng.gen_bool(0.8) {
                sharp.choose(rng).copied()
            } else {
                moves.choose(rng).copied()
            }
        }
        Policy::Stretch => {
            if rng.gen_bool(0.25) {
                return moves.choose(rng).copied();
            }
            // The best of a few random candidates: mostly stretching, still
            // varied.
            (0..6)
                .map(|_| *moves.choose(rng).unwrap())
                .max_by_key(|&mv| stretch_score(pos, mv))
        }
    }
}

/// Plays `games` random games of at most `max_plies` plies under `policy`,
/// checking every position against the reference and every move's result
/// against the reference's own application of the move. Every
/// `perft_every`-th position (0: none) also gets a perft comparison.
fn play_games(
    seed: u64,
    games: usize,
    max_plies: usize,
    policy: Policy,
    perft_every: usize,
) -> Coverage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cov = Coverage::default();
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut rpos = reference::parse("startpos");
        for _ in 0..max_plies {
            check_position(&pos, &mut cov);
            if perft_every > 0 && cov.positions % perft_every == 0 {
                compare_perft(&mut pos, &rpos);
            }
            let Some(mv) = choose(&mut pos, policy, &mut rng) else {
                break;
            };
            let token = mv.to_string();
            let before = pos.to_string();
            cov.captures +=
                matches!(mv, Move::Step { to, .. } if pos.tile_at(to).is_some()) as usize;
            pos.make(mv);
            rpos = reference::play(&rpos, &token);
            assert_eq!(
                pos.to_string(),
                rpos.to_string(),
                "make({token}) from {before} disagrees with the reference"
            );
        }
    }
    cov
}

/// Crate perft against reference perft: depth 2 always, depth 3 where the
/// reference can afford it. Checks make/unmake inside the crate's perft,
/// which the move-list comparison alone does not exercise.
fn compare_perft(pos: &mut Position, rpos: &RefPos) {
    let text = pos.to_string();
    let width = reference::legal_move_list(rpos).len();
    let depth = if width <= 30 { 3 } else { 2 };
    let expected = reference::perft(rpos, depth);
    let got = perft(pos, depth);
    assert_eq!(got, expected, "perft {depth} differs for {text}");
    assert_eq!(pos.to_string(), text, "perft did not restore the position");
}

/// Checks the counters that prove the games reached the interesting cases.
fn assert_reached(cov: &Coverage, min_checks: usize, min_line: usize) {
    println!("{cov:?}");
    assert!(cov.in_check >= min_checks, "too few checks: {cov:?}");
    assert!(cov.longest_line >= min_line, "no long line: {cov:?}");
}

/// Debug-sized run of [`uniform_games`].
#[test]
fn uniform_games_small() {
    let cov = play_games(1, 6, 80, Policy::Uniform, 40);
    assert!(cov.positions > 300, "{cov:?}");
}

/// Uniformly random games: mostly placements until the piles run out, then
/// pure tile play; must reach many captures.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug; CI runs --release")]
fn uniform_games() {
    let cov = play_games(11, 250, 120, Policy::Uniform, 500);
    assert_reached(&cov, 20, 7);
    assert!(cov.captures > 500, "{cov:?}");
}

/// Debug-sized run of [`game_like_games`].
#[test]
fn game_like_games_small() {
    let cov = play_games(2, 8, 80, Policy::DrawLikeAGame, 40);
    assert!(cov.positions > 300, "{cov:?}");
}

/// Games that draw like a real game: tile moves start early; must reach
/// mates or stalemates and attacks that are no check (split captures).
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug; CI runs --release")]
fn game_like_games() {
    let cov = play_games(12, 300, 120, Policy::DrawLikeAGame, 500);
    assert_reached(&cov, 200, 6);
    assert!(
        cov.no_moves > 5,
        "no game ended in mate or stalemate: {cov:?}"
    );
    assert!(
        cov.split_attack > 0,
        "no attack cut by the connection rule: {cov:?}"
    );
}

/// Debug-sized run of [`aggressive_games`].
#[test]
fn aggressive_games_small() {
    let cov = play_games(3, 8, 80, Policy::Aggressive, 40);
    assert!(cov.in_check > 0, "{cov:?}");
}

/// Capture- and check-happy games: many checks, mates and empty piles.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug; CI runs --release")]
fn aggressive_games() {
    let cov = play_games(13, 600, 120, Policy::Aggressive, 400);
    assert_reached(&cov, 500, 5);
    assert!(cov.no_moves > 20, "{cov:?}");
    assert!(cov.empty_pile > 1000, "{cov:?}");
}

/// Debug-sized run of [`stretched_games`].
#[test]
fn stretched_games_small() {
    let cov = play_games(4, 6, 80, Policy::Stretch, 40);
    assert!(cov.longest_line >= 6, "{cov:?}");
}

/// Games that stretch the table into long lines (at least 10 in a row).
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug; CI runs --release")]
fn stretched_games() {
    let cov = play_games(14, 150, 120, Policy::Stretch, 400);
    assert_reached(&cov, 20, 10);
}

// ---------------------------------------------------------------------------
// Positions built directly, not played: shapes random games rarely reach.
// ---------------------------------------------------------------------------

/// A random position string, not necessarily consistent: random subsets of
/// both sets on a random connected shape grown with a bias towards straight
/// lines (up to a 32-tile line), around a random origin that may be far from
/// `0,0` (but at least 40 squares from the coordinate limit, which has its
/// own test).
fn random_layout(rng: &mut ChaCha8Rng) -> String {
    const SET: &str = "KQRRBBNNPPPPPPPP";
    let mut on_table: Vec<char> = Vec::new();
    let mut piles = [String::new(), String::new()];
    for (side, pile) in piles.iter_mut().enumerate() {
        let keep = rng.gen_range(1..=16);
        let mut letters: Vec<char> = SET.chars().collect();
        letters.shuffle(rng);
        for (i, &c) in letters.iter().enumerate() {
            let c = if side == 0 { c } else { c.to_ascii_lowercase() };
            if i < keep {
                on_table.push(c);
            } else if c.eq_ignore_ascii_case(&'K') || rng.gen_bool(0.5) {
                pile.push(c); // a king is never captured
            }
        }
    }
    on_table.shuffle(rng);
    let origin: (i64, i64) = match rng.gen_range(0..4) {
        0 => (0, 0),
        1 => (rng.gen_range(-20..20), rng.gen_range(-20..20)),
        2 => (rng.gen_range(-600..600), rng.gen_range(-600..600)),
        _ => (
            -(LIMIT - 40 - rng.gen_range(0..10)),
            LIMIT - 40 - rng.gen_range(0..10),
        ),
    };
    let straight = [0.0, 0.5, 0.85, 1.0][rng.gen_range(0..4)];
    let mut squares = vec![origin];
    let mut dir = reference::EIGHT[rng.gen_range(0..8)];
    while squares.len() < on_table.len() {
        let last = *squares.last().unwrap();
        let next = if rng.gen_bool(straight) {
            (last.0 + dir.0, last.1 + dir.1)
        } else {
            let base = squares[rng.gen_range(0..squares.len())];
            dir = reference::EIGHT[rng.gen_range(0..8)];
            (base.0 + dir.0, base.1 + dir.1)
        };
        if !squares.contains(&next) {
            squares.push(next);
        } else if straight == 1.0 {
            dir = reference::EIGHT[rng.gen_range(0..8)];
        }
    }
    let tiles: Vec<String> = on_table
        .iter()
        .zip(&squares)
        .map(|(&c, &(x, y))| {
            let star = if c.eq_ignore_ascii_case(&'P') && rng.gen_bool(0.5) {
                "*"
            } else {
                ""
            };
            format!("{c}{x},{y}{star}")
        })
        .collect();
    let pile = |p: &String| {
        if p.is_empty() {
            "-".to_string()
        } else {
            p.clone()
        }
    };
    format!(
        "{} {} {}/{} {} {}",
        tiles.join("/"),
        if rng.gen_bool(0.5) { "w" } else { "b" },
        pile(&piles[0]),
        pile(&piles[1]),
        rng.gen_range(0..60),
        rng.gen_range(1..90)
    )
}

/// Builds positions directly. The crate must accept exactly the consistent
/// ones (RULES.md section 7) and, for those, agree with the reference on the
/// move list; a few random moves are then played from each to check `make`
/// on shapes games rarely produce.
fn random_layouts(seed: u64, wanted: usize) -> Coverage {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut cov = Coverage::default();
    let mut valid = 0;
    let mut rejected = 0;
    while valid < wanted {
        let text = random_layout(&mut rng);
        let rpos = reference::parse(&text);
        let parsed = text.parse::<Position>();
        match (reference::validate(&rpos), parsed) {
            (Err(why), Ok(_)) => panic!("crate accepted an inconsistent position ({why}): {text}"),
            (Ok(()), Err(e)) => panic!("crate rejected a consistent position ({e}): {text}"),
            (Err(_), Err(_)) => rejected += 1,
            (Ok(()), Ok(mut pos)) => {
                valid += 1;
                // Any order of tiles is accepted; the output is canonical.
                assert_eq!(pos.to_string(), rpos.to_string(), "parse/display of {text}");
                let mut rpos = rpos;
                for _ in 0..6 {
                    check_position(&pos, &mut cov);
                    let Some(mv) = pos.legal_moves().choose(&mut rng).copied() else {
                        break;
                    };
                    pos.make(mv);
                    rpos = reference::play(&rpos, &mv.to_string());
                    assert_eq!(
                        pos.to_string(),
                        rpos.to_string(),
                        "make({mv}) in a line from {text}"
                    );
                }
                if valid % 25 == 0 {
                    compare_perft(&mut pos, &rpos);
                }
            }
        }
    }
    assert!(
        rejected > 0,
        "the generator never produced an inconsistent position"
    );
    cov
}

/// Debug-sized run of [`built_positions`].
#[test]
fn built_positions_small() {
    let cov = random_layouts(5, 40);
    assert!(cov.positions > 100, "{cov:?}");
}

/// Built positions: the crate accepts exactly the consistent ones and agrees
/// with the reference on them, up to 32-tile lines far from 0,0.
#[test]
#[cfg_attr(debug_assertions, ignore = "slow in debug; CI runs --release")]
fn built_positions() {
    let cov = random_layouts(15, 1000);
    assert_reached(&cov, 200, 20);
}

// ---------------------------------------------------------------------------
// Hand-picked edge cases.
// ---------------------------------------------------------------------------

/// Compares the crate and the reference on one position string.
fn same_moves(text: &str) -> Vec<String> {
    let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let ours = crate_moves(&pos);
    let theirs = reference::legal_moves_of(text);
    assert!(
        ours == theirs,
        "move lists differ for {text}\n{}",
        reference::diff(&ours, &theirs)
    );
    ours
}

/// A full-length line of all 32 tiles (along x, y and both diagonals, near
/// 0,0 and far out): the widest shape the table can take, where every inner
/// tile holds the table together and slides run along the whole line.
#[test]
fn thirty_two_tile_lines() {
    let white = "QRRBBNNPPPPPPPPK";
    let black = "qrrbbnnppppppppk";
    let letters: Vec<char> = white.chars().chain(black.chars()).collect();
    let mut valid = 0;
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for origin in [(0, 0), (-31, 7), (500, -500), (-999_999_990, 999_999_950)] {
            let tiles: Vec<String> = letters
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        "{c}{},{}",
                        origin.0 + dx * i as i64,
                        origin.1 + dy * i as i64
                    )
                })
                .collect();
            for side in ["w", "b"] {
                let text = format!("{} {side} -/- 0 40", tiles.join("/"));
                if reference::validate(&reference::parse(&text)).is_ok() {
                    let moves = same_moves(&text);
                    assert!(!moves.is_empty(), "{text}");
                    valid += 1;
                }
            }
        }
    }
    assert!(
        valid >= 16,
        "only {valid} of the lines were consistent positions"
    );
}

/// A pawn's two- and three-square steps: allowed only unmoved and only
/// through empty squares; a moved pawn (`*`) has only its single step;
/// captures only diagonally forward. Black's pawns walk towards −y.
#[test]
fn pawn_first_steps() {
    let pawn_moves = |text: &str, from: &str| -> Vec<String> {
        let mut moves: Vec<String> = same_moves(text)
            .into_iter()
            .filter(|m| m.starts_with(&format!("{from}-")))
            .collect();
        moves.sort();
        moves
    };
    // The unmoved pawn on 0,0 beside a column of tiles may step 1, 2 or 3
    // squares (each landing square touches the column) and take the pawn on
    // 1,1; it may not take the knight on 1,2 straight ahead of nothing.
    let column = "k1,4/p1,3/n1,2/p1,1/K1,0";
    assert_eq!(
        pawn_moves(&format!("{column}/P0,0 w -/- 0 5"), "0,0"),
        ["0,0-0,1", "0,0-0,2", "0,0-0,3", "0,0-1,1"]
    );
    // Moved: only the single step and the capture.
    assert_eq!(
        pawn_moves(&format!("{column}/P0,0* w -/- 0 5"), "0,0"),
        ["0,0-0,1", "0,0-1,1"]
    );
    // Blocked on 0,2: neither the 2- nor the 3-square step.
    assert_eq!(
        pawn_moves(&format!("{column}/P0,0/r0,2 w -/- 0 5"), "0,0"),
        ["0,0-0,1", "0,0-1,1"]
    );
    // Black, mirrored in y.
    let column = "K1,-4/P1,-3/N1,-2/P1,-1/k1,0";
    assert_eq!(
        pawn_moves(&format!("{column}/p0,0 b -/- 0 5"), "0,0"),
        ["0,0-0,-1", "0,0-0,-2", "0,0-0,-3", "0,0-1,-1"]
    );
    assert_eq!(
        pawn_moves(&format!("{column}/p0,0* b -/- 0 5"), "0,0"),
        ["0,0-0,-1", "0,0-1,-1"]
    );
}

/// Near the coordinate limit (RULES.md section 1: "a position string or move
/// outside that range is rejected"), no legal move may leave the range: a
/// generator that ignored the limit would list moves like `Q@1000000001,-1`
/// that `parse_move` cannot read back (an earlier version of the crate did).
#[test]
fn moves_stay_inside_the_coordinate_limit() {
    for text in [
        "K1000000000,0/n1000000000,1 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
        "K-1000000000,-1000000000/n-999999999,-999999999 w QRRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
        "R1000000000,0/n999999999,0 w KQRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
        "n999999999,1000000000/R999999999,999999999 b KQRBBNNPPPPPPPP/kqrrbbnppppppp 0 2",
    ] {
        let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        for mv in pos.legal_moves() {
            let to = mv.to();
            assert!(
                (to.x as i64).abs() <= LIMIT && (to.y as i64).abs() <= LIMIT,
                "{text}: move {mv} leaves the coordinate range"
            );
            assert_eq!(
                pos.parse_move(&mv.to_string()).ok(),
                Some(mv),
                "{text}: {mv} does not read back"
            );
        }
        same_moves(text);
    }
}

/// `legal_placements(kind)` (the moves after a draw) holds only that kind,
/// written in the mover's case (RULES.md section 7: `N@` for White, `n@` for
/// Black), on 0,0 first and then around the first tile.
#[test]
fn placement_letters_follow_the_mover() {
    let pos = Position::startpos();
    let knight = pos.legal_placements(Kind::Knight);
    assert_eq!(
        knight.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["N@0,0"]
    );
    let mut pos = pos;
    pos.make(knight[0]);
    assert_eq!(pos.side_to_move(), Colour::Black);
    let tokens: Vec<String> = pos
        .legal_placements(Kind::Knight)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(tokens.len(), 8);
    assert!(tokens.iter().all(|t| t.starts_with("n@")), "{tokens:?}");
}
