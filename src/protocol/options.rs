//! The engine's options: each declared once, with its type, range and
//! setter, as Lc0's `params.cc` does, its default the search's own
//! ([`Params::default`]); `uci` lists them from here and `setoption`
//! checks and sets through here.

use crate::search::eval::net::Net;
use crate::search::eval::Evaluation;
use crate::search::playout::Policy;
use crate::search::{skill, Params, Player};
use std::sync::Arc;

/// Writes a value, already checked against the option's type and range,
/// into the options, or says why it cannot.
pub type Setter<T> = fn(&mut Options, T) -> Result<(), String>;

/// What values an option takes, and where each goes.
#[derive(Clone, Debug)]
pub enum OptionKind {
    /// A whole number in a range.
    Spin {
        /// The value at start-up.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
        /// Where the value goes.
        set: Setter<i64>,
    },
    /// `true` or `false`.
    Check {
        /// The value at start-up.
        default: bool,
        /// Where the value goes.
        set: Setter<bool>,
    },
    /// A decimal number in a range. UCI has no such type, so `uci` lists
    /// it as `type string`, as Lc0 does for its constants.
    Real {
        /// The value at start-up.
        default: f64,
        /// The smallest value.
        min: f64,
        /// The largest value.
        max: f64,
        /// Where the value goes.
        set: Setter<f64>,
    },
    /// One of a list of words.
    Combo {
        /// The value at start-up.
        default: &'static str,
        /// The words allowed.
        values: Vec<&'static str>,
        /// Parses the word and puts it where it goes.
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
    /// Free text, such as a file's path; [`EMPTY`] stands for none.
    Text {
        /// The value at start-up.
        default: &'static str,
        /// Reads the text and puts it where it goes.
        set: fn(&mut Options, &str) -> Result<(), String>,
    },
}

/// The value of a text option that holds nothing, as UCI GUIs write it.
pub const EMPTY: &str = "<empty>";

/// One option as `uci` lists it.
#[derive(Clone, Debug)]
pub struct OptionSpec {
    /// The option's name, as `setoption` must spell it (any case).
    pub name: &'static str,
    /// Its values.
    pub kind: OptionKind,
}

impl OptionSpec {
    /// The default, written as `setoption` takes it.
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Check { default, .. } => default.to_string(),
            OptionKind::Real { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.to_string(),
            OptionKind::Text { default, .. } => default.to_string(),
        }
    }

    /// The `option name …` line of the `uci` answer.
    pub fn uci_line(&self) -> String {
        match &self.kind {
            OptionKind::Spin {
                default, min, max, ..
            } => format!(
                "option name {} type spin default {default} min {min} max {max}",
                self.name
            ),
            OptionKind::Check { default, .. } => {
                format!("option name {} type check default {default}", self.name)
            }
            OptionKind::Real { default, .. } => {
                format!("option name {} type string default {default}", self.name)
            }
            OptionKind::Combo {
                default, values, ..
            } => {
                let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
                format!(
                    "option name {} type combo default {default}{vars}",
                    self.name
                )
            }
            OptionKind::Text { default, .. } => {
                format!("option name {} type string default {default}", self.name)
            }
        }
    }
}

/// The values of the `Evaluation` option: the hand-made evaluation, its
/// richer variant, or the net (the shipped one, or the one `EvalFile`
/// loaded).
const EVALUATIONS: [&str; 3] = ["hand", "net", "rich"];

/// `EvalFile`: loads the net at `path` (docs/net.md) for `Evaluation
/// net`, and puts it to use at once if that is the evaluation chosen;
/// [`EMPTY`] goes back to the shipped net.
fn load_net(o: &mut Options, path: &str) -> Result<(), String> {
    o.net = if path.is_empty() || path == EMPTY {
        Net::shipped()
    } else {
        let bytes = std::fs::read(path)
            .map_err(|e| format!("option EvalFile: cannot read '{path}': {e}"))?;
        let net = Net::from_bytes(&bytes).map_err(|e| format!("option EvalFile: '{path}': {e}"))?;
        Arc::new(net)
    };
    if matches!(o.params.evaluation, Evaluation::Net(_)) {
        o.params.evaluation = Evaluation::Net(o.net.clone());
    }
    Ok(())
}

/// `Evaluation`: `hand`, `net` or `rich`.
fn choose_evaluation(o: &mut Options, value: &str) -> Result<(), String> {
    o.params.evaluation = match value.to_ascii_lowercase().as_str() {
        "hand" => Evaluation::HandMade,
        "net" => Evaluation::Net(o.net.clone()),
        "rich" => Evaluation::Rich,
        _ => {
            return Err(format!(
                "option Evaluation takes hand, net or rich, not '{value}'"
            ))
        }
    };
    Ok(())
}

/// The largest seed: 2^53 − 1, exact in every GUI's number type.
const MAX_SEED: i64 = (1 << 53) - 1;

/// Every option the engine has.
pub fn specs() -> Vec<OptionSpec> {
    let d = Params::default();
    let spin = |name, default, min, max, set: Setter<i64>| OptionSpec {
        name,
        kind: OptionKind::Spin {
            default,
            min,
            max,
            set,
        },
    };
    let real = |name, default, min, max, set: Setter<f64>| OptionSpec {
        name,
        kind: OptionKind::Real {
            default,
            min,
            max,
            set,
        },
    };
    let check = |name, default, set: Setter<bool>| OptionSpec {
        name,
        kind: OptionKind::Check { default, set },
    };
    vec![
        spin("Threads", d.threads as i64, 1, 256, |o, v| {
            o.params.threads = v as usize;
            Ok(())
        }),
        spin("Seed", d.seed as i64, 0, MAX_SEED, |o, v| {
            o.params.seed = v as u64;
            Ok(())
        }),
        spin("MultiPV", d.multipv as i64, 1, 256, |o, v| {
            o.params.multipv = v as usize;
            Ok(())
        }),
        spin("MoveOverhead", d.move_overhead as i64, 0, 10_000, |o, v| {
            o.params.move_overhead = v as u64;
            Ok(())
        }),
        spin("PlayoutCap", i64::from(d.playout_cap), 1, 10_000, |o, v| {
            o.params.playout_cap = v as u32;
            Ok(())
        }),
        spin("Hash", d.hash_mib as i64, 1, 1 << 16, |o, v| {
            hash_fits(v as u64, available_memory_mib())?;
            o.params.hash_mib = v as usize;
            Ok(())
        }),
        spin("LeafDepth", i64::from(d.leaf_depth), -1, 3, |o, v| {
            o.params.leaf_depth = v as i32;
            Ok(())
        }),
        spin("Contempt", i64::from(d.contempt), -1000, 1000, |o, v| {
            o.params.contempt = v as i32;
            Ok(())
        }),
        spin(
            "Skill",
            i64::from(d.skill),
            1,
            i64::from(skill::FULL_STRENGTH),
            |o, v| {
                o.params.skill = v as u8;
                Ok(())
            },
        ),
        check("UCI_LimitStrength", d.limit_strength, |o, v| {
            o.params.limit_strength = v;
            Ok(())
        }),
        spin(
            "UCI_Elo",
            i64::from(d.elo),
            i64::from(skill::LADDER_ELO[0]),
            i64::from(skill::LADDER_ELO[skill::LADDER_ELO.len() - 1]),
            |o, v| {
                o.params.elo = v as u32;
                Ok(())
            },
        ),
        real("Exploration", d.exploration, 0.0, 100.0, |o, v| {
            o.params.exploration = v;
            Ok(())
        }),
        real("MinimaxWeight", d.minimax_weight, 0.0, 1.0, |o, v| {
            o.params.minimax_weight = v;
            Ok(())
        }),
        real(
            "HybridExploration",
            d.hybrid_exploration,
            0.0,
            100.0,
            |o, v| {
                o.params.hybrid_exploration = v;
                Ok(())
            },
        ),
        check("UCI_ShowWDL", false, |o, v| {
            o.show_wdl = v;
            Ok(())
        }),
        check("VerboseMoveStats", false, |o, v| {
            o.verbose_stats = v;
            Ok(())
        }),
        check("Ponder", false, |o, v| {
            o.ponder = v;
            Ok(())
        }),
        OptionSpec {
            name: "PlayoutPolicy",
            kind: OptionKind::Combo {
                default: d.policy.name(),
                values: Policy::ALL.iter().map(|p| p.name()).collect(),
                set: |o, v| {
                    o.params.policy = v.parse()?;
                    Ok(())
                },
            },
        },
        OptionSpec {
            name: "Player",
            kind: OptionKind::Combo {
                default: d.player.name(),
                values: Player::ALL.iter().map(|p| p.name()).collect(),
                set: |o, v| {
                    o.params.player = v.parse()?;
                    Ok(())
                },
            },
        },
        OptionSpec {
            name: "EvalFile",
            kind: OptionKind::Text {
                default: EMPTY,
                set: load_net,
            },
        },
        OptionSpec {
            name: "Evaluation",
            kind: OptionKind::Combo {
                default: EVALUATIONS[1],
                values: EVALUATIONS.to_vec(),
                set: choose_evaluation,
            },
        },
    ]
}

/// The options' current values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// What the search reads.
    pub params: Params,
    /// Print `wdl` in `info` lines.
    pub show_wdl: bool,
    /// Print every root action's statistics after a search.
    pub verbose_stats: bool,
    /// `Ponder`: the caller may ponder, so `bestmove` names the reply the
    /// search expects (`ponder Y`) when it has one.
    pub ponder: bool,
    /// The net `Evaluation net` uses and `eval` shows: the shipped one
    /// ([`Net::shipped`]) unless `EvalFile` loaded another.
    pub net: Arc<Net>,
}

impl Default for Options {
    /// Every option at its default: the search's own ([`Params::default`])
    /// and the protocol's.
    fn default() -> Options {
        Options {
            params: Params::default(),
            show_wdl: false,
            verbose_stats: false,
            ponder: false,
            net: Net::shipped(),
        }
    }
}

impl Options {
    /// Sets option `name` (any case) to `value`, or says why not; on an
    /// error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let spec = specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option '{name}'"))?;
        let value = value.ok_or_else(|| format!("option {} needs a value", spec.name))?;
        match spec.kind {
            OptionKind::Spin { min, max, set, .. } => {
                let v: i64 = value.parse().map_err(|_| {
                    format!("option {} takes a whole number, not '{value}'", spec.name)
                })?;
                if !(min..=max).contains(&v) {
                    return Err(format!(
                        "option {} must lie within {min}..{max}, not {v}",
                        spec.name
                    ));
                }
                set(self, v)?;
            }
            OptionKind::Real { min, max, set, .. } => {
                let v: f64 = value
                    .parse()
                    .map_err(|_| format!("option {} takes a number, not '{value}'", spec.name))?;
                if !(min..=max).contains(&v) {
                    return Err(format!(
                        "option {} must lie within {min}..{max}, not {value}",
                        spec.name
                    ));
                }
                set(self, v)?;
            }
            OptionKind::Check { set, .. } => {
                let v = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option {} takes true or false, not '{value}'",
                            spec.name
                        ))
                    }
                };
                set(self, v)?;
            }
            OptionKind::Combo { set, .. } | OptionKind::Text { set, .. } => set(self, value)?,
        }
        Ok(())
    }
}

/// Checks a `Hash` request against the memory the machine has for it: a
/// tree allowed to grow past it would grow until the system killed the
/// engine. `None` (memory not known, not Linux) accepts any size.
fn hash_fits(mib: u64, available_mib: Option<u64>) -> Result<(), String> {
    match available_mib {
        Some(free) if mib > free => Err(format!(
            "option Hash: {mib} MiB is more than the {free} MiB of memory available"
        )),
        _ => Ok(()),
    }
}

/// The memory a new allocation can have, in MiB: `MemAvailable` in
/// /proc/meminfo, and no more than what the cgroup's `memory.max` leaves
/// over its `memory.current` (a container's limit).
fn available_memory_mib() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    let mut mib = kib / 1024;
    let read = |name: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    if let (Some(max), Some(current)) = (read("memory.max"), read("memory.current")) {
        mib = mib.min(max.saturating_sub(current) / (1024 * 1024));
    }
    Some(mib)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 24, item 9: a `Hash` beyond the memory there is is refused
    /// with the sizes in the message, and changes nothing.
    #[test]
    fn hash_beyond_the_memory_there_is_is_refused() {
        assert_eq!(hash_fits(256, Some(1024)), Ok(()));
        assert_eq!(hash_fits(1024, Some(1024)), Ok(()));
        assert_eq!(hash_fits(65536, None), Ok(()));
        let e = hash_fits(65536, Some(1000)).unwrap_err();
        assert!(e.contains("65536 MiB") && e.contains("1000 MiB"), "{e}");
        let free = available_memory_mib().expect("Linux tells the memory available");
        assert!(free > 0);
        let mut o = Options::default();
        o.set("Hash", Some("16")).unwrap();
        if free < 65536 {
            let e = o.set("Hash", Some("65536")).unwrap_err();
            assert!(e.contains("memory available"), "{e}");
            assert_eq!(o.params.hash_mib, 16);
        }
    }

    #[test]
    fn set_checks_names_and_ranges() {
        let mut o = Options::default();
        o.set("threads", Some("2")).unwrap();
        assert_eq!(o.params.threads, 2);
        o.set("Seed", Some("42")).unwrap();
        assert_eq!(o.params.seed, 42);
        o.set("uci_showwdl", Some("true")).unwrap();
        assert!(o.show_wdl);
        o.set("Exploration", Some("0.7")).unwrap();
        assert_eq!(o.params.exploration, 0.7);
        o.set("Hash", Some("16")).unwrap();
        assert_eq!(o.params.hash_mib, 16);
        o.set("VerboseMoveStats", Some("true")).unwrap();
        assert!(o.verbose_stats);
        o.set("PlayoutPolicy", Some("captures")).unwrap();
        assert_eq!(o.params.policy, Policy::Captures);
        o.set("Player", Some("random")).unwrap();
        assert_eq!(o.params.player, Player::Random);
        let before = o.clone();
        for (name, value) in [
            ("Threads", Some("0")),
            ("Threads", Some("two")),
            ("MultiPV", Some("-1")),
            ("UCI_ShowWDL", Some("yes")),
            ("Player", Some("deep")),
            ("PlayoutPolicy", Some("heavy")),
            ("Exploration", Some("-1")),
            ("Exploration", Some("NaN")),
            ("Exploration", Some("lots")),
            ("Hash", Some("0")),
            ("VerboseMoveStats", Some("1")),
            ("Seed", None),
        ] {
            assert!(o.set(name, value).is_err(), "{name} {value:?}");
        }
        assert_eq!(o, before, "a refused setoption changes nothing");
    }

    #[test]
    fn evaluation_is_chosen_and_kept_when_a_net_loads() {
        let mut o = Options::default();
        assert_eq!(
            o.params.evaluation,
            Evaluation::Net(Net::shipped()),
            "the default"
        );
        o.set("Evaluation", Some("hand")).unwrap();
        assert_eq!(o.params.evaluation, Evaluation::HandMade);
        o.set("Evaluation", Some("rich")).unwrap();
        assert_eq!(o.params.evaluation, Evaluation::Rich);
        // Loading a net puts it to use only under `Evaluation net`.
        o.set("EvalFile", Some(EMPTY)).unwrap();
        assert_eq!(o.params.evaluation, Evaluation::Rich);
        o.set("Evaluation", Some("net")).unwrap();
        assert!(matches!(o.params.evaluation, Evaluation::Net(_)));
        o.set("Evaluation", Some("HAND")).unwrap();
        assert_eq!(o.params.evaluation, Evaluation::HandMade);
        assert!(o.set("Evaluation", Some("fitted")).is_err());
    }

    #[test]
    fn every_spec_is_settable_to_its_default() {
        let mut o = Options::default();
        for spec in specs() {
            o.set(spec.name, Some(&spec.default_value())).unwrap();
        }
        assert_eq!(o, Options::default());
        assert_eq!(o.params.threads, crate::search::params::cores());
        assert_eq!(o.params.playout_cap, 10);
        assert_eq!(o.params.exploration, 1.4);
        assert_eq!(o.params.player, Player::Ismcts);
        assert_eq!(o.params.hash_mib, 256);
    }
}
