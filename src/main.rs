//! The `chex` command line.

use chex::rules::Position;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chex",
    version,
    about = "An engine for CHEX, chess played with tiles"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts move sequences: one line per root move, then the total.
    Perft {
        /// A position string (RULES.md section 7) or `startpos`. It may
        /// start with '-' (an empty table).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// How many turns deep to count (at least 1).
        #[arg(value_parser = clap::value_parser!(u32).range(1..))]
        depth: u32,
        /// Threads counting the subtrees (default: every core).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
    },
    /// Runs the fixed benchmark: perft and random playouts on one thread.
    Bench {
        /// Perft depth on each bench position.
        #[arg(long, default_value_t = chex::bench::PERFT_DEPTH)]
        depth: u32,
        /// Random playouts from each bench position.
        #[arg(long, default_value_t = chex::bench::PLAYOUTS_PER_POSITION)]
        playouts: u32,
        /// Search iterations from each of four bench positions, on one
        /// thread and on all cores (0 skips the search speed).
        #[arg(long, default_value_t = chex::bench::SEARCH_NODES)]
        search_nodes: u64,
    },
    /// Plays an engine-vs-engine match under the referee (tools/README.md).
    Match(Box<chex::runner::MatchArgs>),
    /// Serves a page on 127.0.0.1 to play or watch the engine in a browser.
    Gui(chex::gui::GuiOptions),
}

fn main() -> ExitCode {
    let missing = missing_cpu_features();
    if !missing.is_empty() {
        eprintln!(
            "error: this build of chex uses the instructions {} that this processor lacks; \
             rebuild without them: RUSTFLAGS= cargo build --release",
            missing.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft {
            position,
            depth,
            threads,
        }) => {
            let pos: Position = match position.parse() {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let threads = threads.map_or_else(chex::search::params::cores, |n| n as usize);
            let last =
                chex::protocol::bench::perft_lines(&pos, depth, threads, |line| println!("{line}"));
            println!("{last}");
            ExitCode::SUCCESS
        }
        Some(Command::Bench {
            depth,
            playouts,
            search_nodes,
        }) => {
            let last = chex::protocol::bench::bench_lines(depth, playouts, search_nodes, |line| {
                println!("{line}")
            });
            println!("{last}");
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => chex::runner::main(*args),
        Some(Command::Gui(options)) => chex::gui::main(options),
        None => {
            chex::protocol::Engine::new().run(std::io::stdin().lock());
            ExitCode::SUCCESS
        }
    }
}

/// The instruction set extensions this build was compiled to use (see
/// `.cargo/config.toml`) that the processor lacks: without this check the
/// engine would die on an illegal instruction with no word of why.
#[cfg(target_arch = "x86_64")]
fn missing_cpu_features() -> Vec<&'static str> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    let highest = __cpuid(0).eax;
    let highest_extended = __cpuid(0x8000_0000).eax;
    let basic = __cpuid(1).ecx;
    let structured = if highest >= 7 {
        __cpuid_count(7, 0).ebx
    } else {
        0
    };
    let extended = if highest_extended >= 0x8000_0001 {
        __cpuid(0x8000_0001).ecx
    } else {
        0
    };
    // AVX registers are usable only if the operating system saves them
    // (XCR0 bits 1 and 2), which XGETBV tells where OSXSAVE is set.
    let os_saves_avx = if basic >> 27 & 1 != 0 {
        // SAFETY: OSXSAVE set means the processor has XGETBV and the
        // operating system has enabled it; XCR0 may always be read.
        let xcr0 = unsafe { std::arch::x86_64::_xgetbv(0) };
        u32::from(xcr0 & 6 == 6)
    } else {
        0
    };
    [
        ("popcnt", cfg!(target_feature = "popcnt"), basic >> 23),
        ("lzcnt", cfg!(target_feature = "lzcnt"), extended >> 5),
        ("bmi1", cfg!(target_feature = "bmi1"), structured >> 3),
        ("bmi2", cfg!(target_feature = "bmi2"), structured >> 8),
        (
            "avx",
            cfg!(target_feature = "avx"),
            basic >> 28 & os_saves_avx,
        ),
        (
            "avx2",
            cfg!(target_feature = "avx2"),
            structured >> 5 & os_saves_avx,
        ),
    ]
    .into_iter()
    .filter(|&(_, used, bit)| used && bit & 1 == 0)
    .map(|(name, ..)| name)
    .collect()
}

#[cfg(not(target_arch = "x86_64"))]
fn missing_cpu_features() -> Vec<&'static str> {
    Vec::new()
}
