//! Tests of the net's file, arithmetic and perspective order, and of the
//! accumulator against the listed inputs.

use super::inputs::INPUTS;
use super::*;
use crate::rules::{Colour, Piece, Pile, Setup, Square, Tile};
use crate::search::alphabeta::LeafJudge;
use crate::search::eval::rich::Rich;
use crate::search::playout::{random_turn, Turn};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The bench positions and the positions of a few random games.
pub(super) fn sample_positions() -> Vec<Position> {
    let mut all = crate::bench::positions();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _game in 0..12 {
        let mut pos = Position::startpos();
        all.push(pos.clone());
        while let Turn::Play(mv) = random_turn(&mut pos, &mut rng) {
            pos.make(mv);
            all.push(pos.clone());
            if pos.ending().is_some() {
                break;
            }
        }
    }
    all
}

/// `pos` rebuilt from `tiles`, `side` and `piles`, its clocks kept.
fn rebuilt(pos: &Position, tiles: &[Tile], side: Colour, piles: [Pile; 2]) -> Position {
    let setup = Setup {
        tiles: tiles.to_vec(),
        side,
        piles,
        ..pos.setup()
    };
    setup.position().unwrap_or_else(|e| panic!("{pos}: {e}"))
}

/// `pos` moved `dx` files and `dy` ranks along the table.
pub(super) fn shifted(pos: &Position, dx: i32, dy: i32) -> Position {
    let tiles: Vec<Tile> = pos
        .tiles()
        .into_iter()
        .map(|t| Tile {
            square: t.square.offset(dx, dy),
            ..t
        })
        .collect();
    let piles = [pos.pile(Colour::White), pos.pile(Colour::Black)];
    rebuilt(pos, &tiles, pos.side_to_move(), piles)
}

/// `pos` with the colours swapped and the ranks reflected: White's game
/// played by Black. The start stays itself, for only White may begin.
pub(super) fn mirrored(pos: &Position) -> Position {
    if pos.tile_count() == 0 {
        return pos.clone();
    }
    let tiles: Vec<Tile> = pos
        .tiles()
        .into_iter()
        .map(|t| Tile {
            square: Square::new(t.square.x, -t.square.y),
            piece: Piece::new(t.piece.colour.opposite(), t.piece.kind),
            moved: t.moved,
        })
        .collect();
    let piles = [pos.pile(Colour::Black), pos.pile(Colour::White)];
    rebuilt(pos, &tiles, pos.side_to_move().opposite(), piles)
}

/// A net of `hidden` units with weights drawn within `reach` of 0.
fn random_net(hidden: usize, reach: i16, seed: u64) -> Net {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |n: usize, reach: i16| -> Vec<i16> {
        (0..n).map(|_| rng.gen_range(-reach..=reach)).collect()
    };
    let w1 = draw(INPUTS * hidden, reach);
    let b1 = draw(hidden, reach);
    let w2 = draw(2 * hidden, 127);
    Net::from_weights(hidden, w1, b1, w2, 12_345).expect("shapes fit")
}

/// The hidden size 1 net of the hand-checked test: one weight, on the
/// input 'own queen at dx 0, dy +1'.
fn one_queen_net() -> Net {
    let mut w1 = vec![0; INPUTS];
    w1[(15 + 7) * 15 + 8] = 200;
    Net::from_weights(1, w1, vec![10], vec![32, -16], 1000).expect("shapes fit")
}

#[test]
fn the_arithmetic_and_perspective_order_check_by_hand() {
    let net = one_queen_net();
    // White's queen stands just ahead of White's king, so only White's
    // side sees the weight: White's unit is 10 + 200, Black's 10.
    // White to move: 210 · 32 + 10 · (−16) + 1000 = 7560.
    let white: Position = "k0,3/p0,2/Q0,1/K0,0 w RRBBNNPPPPPPPP/qrrbbnnppppppp 0 3"
        .parse()
        .expect("valid");
    assert_eq!(net.output(&white), 7560);
    assert_eq!(net.logit(&white), 7560.0 / 16320.0);
    assert_eq!(net.centipawns(&white), 185);
    // Black to move: 10 · 32 + 210 · (−16) + 1000 = −2040, logit −1/8.
    let black: Position = "k0,2/Q0,1/K0,0 b RRBBNNPPPPPPPP/qrrbbnnpppppppp 0 3"
        .parse()
        .expect("valid");
    assert_eq!(net.output(&black), -2040);
    assert_eq!(net.logit(&black), -0.125);
    assert_eq!(Evaluator::centipawns(&net, &black), -50);
}

#[test]
fn a_net_reads_back_what_it_writes() {
    let net = random_net(32, 500, 1);
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), 16 + 2 * (INPUTS * 32 + 32 + 64) + 4);
    assert_eq!(&bytes[..8], b"CHEXNET1");
    assert_eq!(Net::from_bytes(&bytes), Ok(net.clone()));
    assert_eq!(net.hidden(), 32);
    let tiny = one_queen_net();
    assert_eq!(Net::from_bytes(&tiny.to_bytes()), Ok(tiny));
}

#[test]
fn a_correcting_net_adds_its_output_to_its_base_logit() {
    let plain = random_net(32, 500, 3);
    assert_eq!(plain.base(), Base::Nothing);
    let centipawns = |base, pos: &Position| match base {
        Base::Nothing => 0,
        Base::HandMade => HandMade.centipawns(pos),
        Base::Rich => Rich.centipawns(pos),
    };
    for (base, magic) in [(Base::HandMade, b"CHEXNET2"), (Base::Rich, b"CHEXNET3")] {
        let correcting = plain.clone().with_base(base);
        let bytes = correcting.to_bytes();
        assert_eq!(&bytes[..8], magic);
        assert_eq!(Net::from_bytes(&bytes), Ok(correcting.clone()));
        assert_eq!(correcting.base(), base);
        for pos in sample_positions() {
            let added = f64::from(centipawns(base, &pos)) / LOGISTIC_SCALE;
            let (with, without) = (correcting.logit(&pos), plain.logit(&pos));
            assert!((with - without - added).abs() < 1e-12, "{base:?} {pos}");
        }
        // All zero, it is the base evaluation itself.
        let zero = Net::from_weights(4, vec![0; INPUTS * 4], vec![0; 4], vec![0; 8], 0)
            .unwrap()
            .with_base(base);
        for pos in sample_positions() {
            assert_eq!(
                zero.centipawns(&pos),
                centipawns(base, &pos),
                "{base:?} {pos}"
            );
        }
    }
}

#[test]
fn a_bad_file_is_refused_with_the_reason() {
    let bytes = random_net(32, 500, 2).to_bytes();
    let expected = bytes.len() as u64;
    let short = &bytes[..bytes.len() - 1];
    assert_eq!(
        Net::from_bytes(short),
        Err(NetError::WrongSize {
            expected,
            got: bytes.len() - 1
        })
    );
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Net::from_bytes(&long),
        Err(NetError::WrongSize { .. })
    ));
    assert_eq!(
        Net::from_bytes(&bytes[..10]),
        Err(NetError::Truncated { got: 10 })
    );
    assert_eq!(Net::from_bytes(&[]), Err(NetError::Truncated { got: 0 }));
    let mut magic = bytes.clone();
    magic[7] = b'4';
    assert_eq!(Net::from_bytes(&magic), Err(NetError::BadMagic));
    let mut inputs = bytes.clone();
    inputs[8..12].copy_from_slice(&2810u32.to_le_bytes());
    assert_eq!(
        Net::from_bytes(&inputs),
        Err(NetError::WrongInputs { got: 2810 })
    );
    // A huge hidden size is a wrong size, not an allocation.
    let mut huge = bytes.clone();
    huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        Net::from_bytes(&huge),
        Err(NetError::WrongSize { .. })
    ));
    for error in [
        NetError::Truncated { got: 3 },
        NetError::BadMagic,
        NetError::WrongInputs { got: 1 },
        NetError::WrongSize {
            expected: 9,
            got: 8,
        },
        NetError::WrongShape { hidden: 4 },
    ] {
        let line = error.to_string();
        assert!(!line.is_empty() && !line.contains('\n'), "{line}");
    }
    assert_eq!(
        NetError::WrongSize {
            expected: 100,
            got: 99
        }
        .to_string(),
        "wrong net file size: expected 100 bytes, got 99"
    );
}

#[test]
fn a_searcher_takes_a_net() {
    // A net that says a quarter logit (100 cp) for whoever is to move:
    // the leaf judge's quiescence (depth 0) stands pat on it, whatever
    // it could capture.
    let zero = |n: usize| vec![0; n];
    let net = Net::from_weights(16, zero(INPUTS * 16), zero(16), zero(32), QA * QB / 4)
        .expect("shapes fit");
    let pos: Position = "K0,0/p0,1 w QRRBBNNPPPPPPPP/kqrrbbnnppppppp 0 2"
        .parse()
        .expect("valid");
    assert_eq!(net.centipawns(&pos), 100);
    let mut judge = LeafJudge::with_evaluator(&net, 0, Colour::White, 0);
    assert_eq!(judge.judge(&pos, None), net.score(&pos, 0));
    let mut owned = LeafJudge::with_evaluator(net.clone(), 0, Colour::White, 0);
    assert_eq!(owned.judge(&pos, None), net.score(&pos, 0));
}

#[test]
fn a_mirrored_or_shifted_position_has_the_same_evaluation() {
    let net = random_net(32, 300, 3);
    for pos in sample_positions() {
        let out = net.output(&pos);
        assert_eq!(net.output(&mirrored(&pos)), out, "{pos}");
        assert_eq!(net.output(&shifted(&pos, -5, 77)), out, "{pos}");
        assert_eq!(out, forward::listed(&net, &pos), "{pos}");
    }
}

/// Two lines of far tiles, clipped onto one window edge square beside a
/// tile seen there already: an input two tiles share counts once.
fn far_tile_lines() -> Vec<Position> {
    [
        "K0,0/N1,0/N2,0/B3,0/B4,0/Q5,0/R6,0/P7,0/P8,0/P9,0/k10,0 w RPPPPP/qrrbbnnpppppppp 0 11",
        "K0,0/P0,1/P0,2/P0,3/P0,4/P0,5/P0,6/P0,7/P0,8/N0,9/k0,10 b QRRBBN/qrrbbnnpppppppp 0 11",
    ]
    .iter()
    .map(|text| text.parse().unwrap_or_else(|e| panic!("{text}: {e}")))
    .collect()
}

#[test]
fn the_accumulator_and_the_listed_inputs_agree_to_the_bit() {
    let mut positions = sample_positions();
    positions.extend(far_tile_lines());
    // Full-range weights make the sums wrap, which both must do alike.
    for (hidden, reach, seed) in [(16, 500, 4), (32, 500, 5), (64, 500, 6), (64, i16::MAX, 7)] {
        let net = random_net(hidden, reach, seed);
        for pos in &positions {
            assert_eq!(
                net.output(pos),
                forward::listed(&net, pos),
                "H {hidden}, {pos}"
            );
        }
    }
}

#[test]
fn an_accumulator_carried_from_position_to_position_sums_each_as_afresh() {
    // The sample's games move by one turn at a time; the bench positions
    // and the walk back jump across whole tables; the children of a
    // position, one after another, hold tiles of several kinds in the
    // slot a placement takes, and those of the two lines of far tiles
    // step onto, off and along window edges other tiles share.
    let mut positions = sample_positions();
    for pos in far_tile_lines() {
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.make(mv);
            positions.push(child);
        }
        positions.push(pos);
    }
    let mut walk: Vec<Position> = positions
        .iter()
        .chain(positions.iter().rev())
        .cloned()
        .collect();
    for pos in positions.iter().step_by(7) {
        for mv in pos.legal_moves() {
            let mut child = pos.clone();
            child.make(mv);
            walk.push(child);
        }
        walk.push(pos.clone());
    }
    for (hidden, reach, seed) in [(16, 500, 8), (32, 500, 9), (64, i16::MAX, 10)] {
        let net = random_net(hidden, reach, seed);
        let mut accumulator = Accumulator::default();
        for pos in &walk {
            let carried = net.output_with(pos, &mut accumulator);
            assert_eq!(carried, forward::listed(&net, pos), "H {hidden}, {pos}");
        }
    }
}

#[test]
fn the_shipped_net_is_the_one_its_provenance_describes() {
    use sha2::{Digest, Sha256};
    let provenance: serde_json::Value =
        serde_json::from_str(include_str!("../../../../nets/chex.net.json"))
            .expect("nets/chex.net.json is JSON");
    let digest = Sha256::digest(SHIPPED);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(provenance["net"]["sha256"].as_str(), Some(hex.as_str()));
    let net = Net::shipped();
    let format = String::from_utf8_lossy(&net.base().magic()).into_owned();
    assert_eq!(provenance["net"]["format"].as_str(), Some(format.as_str()));
    assert_eq!(
        provenance["hyperparameters"]["correct"].as_bool(),
        Some(net.base() != Base::Nothing)
    );
    assert_eq!(
        provenance["hyperparameters"]["hidden"].as_u64(),
        Some(net.hidden() as u64)
    );
    assert!(provenance["generation"].as_u64().is_some_and(|g| g >= 1));
    assert!(provenance["games"].as_u64().is_some_and(|g| g > 0));
    // It judges: not one value for every position.
    let logits: Vec<f64> = sample_positions().iter().map(|p| net.logit(p)).collect();
    assert!(logits.iter().any(|&l| (l - logits[0]).abs() > 0.05));
}
