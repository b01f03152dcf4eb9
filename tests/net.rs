//! The learned evaluation across its two languages (docs/net.md): the
//! trainer (`tools/net`, Python with JAX, in a virtual environment under
//! the target directory that `tools/venv` makes once, about 630 MB)
//! learns, and the engine reads the net it writes and evaluates real
//! positions as the trainer does. Skipped, saying so, only when `python3`
//! is missing.

use chex::rules::{Colour, Position, Square};
use chex::search::eval::net::{inputs, Base, Net, Spec};
use chex::search::eval::rich::Rich;
use chex::search::eval::{Evaluator, HandMade};
use chex::search::playout::{random_turn, Turn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The trainer's venv, made once per target directory, and by one test
/// at a time: two making it at once on a fresh checkout would collide.
fn venv() -> Option<PathBuf> {
    static MADE: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    MADE.get_or_init(make_venv).clone()
}

fn make_venv() -> Option<PathBuf> {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 is missing, and the trainer needs it");
        return None;
    }
    let venv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("net-venv");
    let made = Command::new(Path::new(ROOT).join("tools/venv"))
        .arg(&venv)
        .arg(Path::new(ROOT).join("tools/net-requirements.txt"))
        .output()
        .expect("cannot run tools/venv");
    assert!(
        made.status.success(),
        "tools/venv failed:\n{}",
        String::from_utf8_lossy(&made.stderr)
    );
    Some(venv)
}

/// Runs the trainer's Python with `args`; its stdout.
fn python(venv: &Path, args: &[&str]) -> String {
    let out = Command::new(venv.join("bin/python"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("cannot run the venv's python");
    assert!(
        out.status.success(),
        "python {args:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Positions of random games, each a featurized line for the trainer
/// (the side to move's result of the game; no search value).
fn featurized(seed: u64, games: usize) -> (Vec<Position>, String) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut positions, mut lines) = (Vec::new(), String::new());
    for _ in 0..games {
        let mut pos = Position::startpos();
        let mut seen = Vec::new();
        let winner = loop {
            if seen.len() >= 80 {
                break None;
            }
            match random_turn(&mut pos, &mut rng) {
                Turn::Play(mv) => {
                    pos.make(mv);
                    if let Some(end) = pos.ending() {
                        break end.winner;
                    }
                    if !pos.in_check() {
                        seen.push(pos.clone());
                    }
                }
                Turn::Stuck(kind) => break pos.ending_when_stuck(kind).winner,
                Turn::NoMove => break None,
            }
        };
        for pos in seen.into_iter().step_by(7) {
            let us = pos.side_to_move();
            let result = match winner {
                Some(w) if w == us => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let list = |c: Colour| -> Vec<u16> { inputs::active(&pos, c).to_vec() };
            let _ = writeln!(
                lines,
                r#"{{"stm":{:?},"nstm":{:?},"result":{result},"value":null,"hand":{},"rich":{}}}"#,
                list(us),
                list(us.opposite()),
                HandMade.centipawns(&pos),
                Rich.centipawns(&pos)
            );
            positions.push(pos);
        }
    }
    (positions, lines)
}

#[test]
fn the_trainer_learns_and_the_engine_reads_its_net_as_it_does() {
    let Some(venv) = venv() else { return };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("net-test");
    std::fs::create_dir_all(&dir).unwrap();
    // The contract the trainer reads, as `featurize --spec` writes it.
    let spec_path = dir.join("spec.json");
    let spec = serde_json::to_string_pretty(&Spec::engine()).unwrap();
    std::fs::write(&spec_path, spec).unwrap();
    let s = |p: &PathBuf| p.to_string_lossy().into_owned();
    let spec = s(&spec_path);
    // The trainer learns: below the constant predictor on held-out data,
    // its integer logits those of its own float model.
    let check = python(&venv, &["tools/net/selfcheck.py", "--spec", &spec]);
    assert!(check.contains("selfcheck: OK"), "{check}");

    // A net trained on real positions, read by the engine.
    let (_, train) = featurized(1, 40);
    let (valid_positions, valid) = featurized(2, 10);
    let (train_path, valid_path, net_path) = (
        dir.join("train.jsonl"),
        dir.join("valid.jsonl"),
        dir.join("test.net"),
    );
    std::fs::write(&train_path, train).unwrap();
    std::fs::write(&valid_path, &valid).unwrap();
    // A whole net, and corrections to the hand-made (the bare flag) and
    // rich evaluations, the last trained with weight decay (AdamW) and
    // mirrored batches.
    let corrections: [(Base, &[&str]); 3] = [
        (Base::Nothing, &[]),
        (Base::HandMade, &["--correct"]),
        (
            Base::Rich,
            &["--correct", "rich", "--weight-decay", "0.1", "--mirror"],
        ),
    ];
    for (base, correct) in corrections {
        let net_path = net_path.with_extension(format!("{base:?}"));
        let mut args = vec![
            "tools/net/train.py".to_string(),
            "--spec".into(),
            spec.clone(),
            "--train".into(),
            s(&train_path),
            "--valid".into(),
            s(&valid_path),
            "--out".into(),
            s(&net_path),
            "--hidden".into(),
            "16".into(),
            "--epochs".into(),
            "2".into(),
            "--seed".into(),
            "1".into(),
        ];
        args.extend(correct.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        python(&venv, &args);
        let net =
            Net::from_bytes(&std::fs::read(&net_path).unwrap()).expect("the engine reads the net");
        assert_eq!(net.hidden(), 16);
        assert_eq!(net.base(), base);
        let predicted = python(
            &venv,
            &[
                "tools/net/train.py",
                "--spec",
                &spec,
                "--predict",
                &s(&net_path),
                "--data",
                &s(&valid_path),
                "--float",
            ],
        );
        let predicted: Vec<(f64, f64)> = predicted
            .lines()
            .map(|l| {
                let mut w = l.split_whitespace().map(|x| x.parse::<f64>().unwrap());
                (w.next().unwrap(), w.next().unwrap())
            })
            .collect();
        assert_eq!(predicted.len(), valid_positions.len());
        assert!(valid_positions.len() > 50, "{}", valid_positions.len());
        for (pos, (integer, float)) in valid_positions.iter().zip(&predicted) {
            let logit = net.logit(pos);
            // The same integer arithmetic, exactly (up to the float sum
            // of the corrected evaluation); and the float model's value within
            // what the quantisation can move it.
            assert!(
                (logit - integer).abs() < 1e-6,
                "{pos}: engine {logit}, trainer {integer}"
            );
            assert!(
                (logit - float).abs() < 0.25,
                "{pos}: engine {logit}, float {float}"
            );
        }
    }
}

/// `pos` mirrored left to right: every tile's file negated.
fn files_mirrored(pos: &Position) -> Position {
    let mut setup = pos.setup();
    for tile in &mut setup.tiles {
        tile.square = Square::new(-tile.square.x, tile.square.y);
    }
    setup
        .position()
        .unwrap_or_else(|e| panic!("{pos} mirrored: {e}"))
}

/// The trainer's `--mirror` trusts two things: CHEX is the same game
/// mirrored left to right (the evaluations a net corrects agree), and
/// its table of mirrored inputs is the engine's own inputs of the
/// mirrored position, wherever a king anchors them.
#[test]
fn the_trainers_mirror_is_the_engines() {
    let Some(venv) = venv() else { return };
    let (positions, _) = featurized(3, 30);
    let mut pairs = String::new();
    let mut count = 0;
    for pos in positions
        .iter()
        .filter(|p| Colour::ALL.iter().any(|&c| p.king_square(c).is_some()))
    {
        let mirror = files_mirrored(pos);
        assert_eq!(
            HandMade.centipawns(pos),
            HandMade.centipawns(&mirror),
            "{pos}"
        );
        assert_eq!(Rich.centipawns(pos), Rich.centipawns(&mirror), "{pos}");
        for c in Colour::ALL {
            let (a, b) = (inputs::active(pos, c), inputs::active(&mirror, c));
            let _ = writeln!(pairs, "[{:?}, {:?}]", a.to_vec(), b.to_vec());
        }
        count += 1;
    }
    assert!(count > 50, "{count}");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("net-mirror-test");
    std::fs::create_dir_all(&dir).unwrap();
    let (spec_path, pairs_path) = (dir.join("spec.json"), dir.join("pairs.txt"));
    std::fs::write(&spec_path, serde_json::to_string(&Spec::engine()).unwrap()).unwrap();
    std::fs::write(&pairs_path, pairs).unwrap();
    let check = r#"
import json, sys
sys.path.insert(0, "tools/net")
sys.dont_write_bytecode = True
from model import mirror_table
from spec import Spec
table = mirror_table(Spec(sys.argv[1]))
for line in open(sys.argv[2]):
    a, b = json.loads(line)
    assert sorted(table[a].tolist()) == sorted(b), (a, b)
print("mirror: OK")
"#;
    let s = |p: &PathBuf| p.to_string_lossy().into_owned();
    let out = python(&venv, &["-c", check, &s(&spec_path), &s(&pairs_path)]);
    assert!(out.contains("mirror: OK"), "{out}");
}
