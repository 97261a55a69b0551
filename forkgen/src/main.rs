//! `forkgen`: generate random Fork programs and run each on the simulator and the CPU Plan
//! executor; reduce and keep what differs.
//!
//!   cargo run --release -p forkgen -- --seconds 600 [--seed S] [--out DIR]
//!   cargo run --release -p forkgen -- --emit 100 --out DIR   (programs for scripts/gpu-verify.sh)

use clap::Parser;
use forkgen::diff::{run_program, RunConfig, Verdict};
use forkgen::gen::{generate, Options, FEATURES};
use forkgen::{finding_procs, program_file, reduce};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(about = "Random Fork programs: simulator vs CPU Plan executor, with a reducer")]
struct Args {
    /// Run for this many seconds.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// The first seed (program i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where reduced findings (and with --emit, the programs) are written.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Write this many programs with their `//! run:` cases to --out and run nothing.
    #[arg(long, value_name = "N", requires = "out")]
    emit: Option<u64>,
    /// Processor counts, at most 8.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 3, 8],
          value_parser = clap::value_parser!(u32).range(1..=forkgen::gen::MAXP as i64))]
    procs: Vec<u32>,
    /// Statements per function body, roughly.
    #[arg(long, default_value_t = 14)]
    stmts: usize,
    /// Leave a construct out (repeatable).
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(FEATURES))]
    without: Vec<String>,
    /// Reduce at most this many findings (the rest are counted).
    #[arg(long, default_value_t = 40)]
    max_findings: usize,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let opts = Options {
        stmts: args.stmts,
        procs: args.procs.clone(),
        without: args.without.clone(),
    };
    if let (Some(n), Some(out)) = (args.emit, &args.out) {
        return emit(n, out, &args, &opts);
    }
    // The transform and executor panics are findings; their messages go to the report.
    std::panic::set_hook(Box::new(|_| {}));
    let config = RunConfig::new(args.procs.clone());
    let deadline = Instant::now() + Duration::from_secs(args.seconds);
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    let mut reduced = 0;
    let mut seed = args.seed;
    let mut progress = Instant::now();
    while Instant::now() < deadline {
        if progress.elapsed() >= Duration::from_secs(60) {
            progress = Instant::now();
            println!("... {} programs", seed - args.seed);
        }
        let program = generate(seed, &opts);
        let verdict = run_program(&program.render(), &config);
        let kind = match &verdict {
            Verdict::Agree => "agree",
            Verdict::TooLong => "step limit (skipped)",
            Verdict::Invalid(_) => "invalid (generator bug)",
            Verdict::SimFault { .. } => "simulator fault",
            Verdict::Refused(_) => "transform refused",
            Verdict::Mismatch { .. } => "cpu-plan differs",
        };
        *counts.entry(kind).or_default() += 1;
        if !matches!(verdict, Verdict::Agree | Verdict::TooLong) {
            println!("seed {seed}: {}", verdict.summary());
            if reduced < args.max_findings {
                reduced += 1;
                let small = reduce::reduce(&program, &verdict, &config, Duration::from_secs(60));
                println!(
                    "  reduced from {} to {} nodes",
                    program.size(),
                    small.size()
                );
                if let Some(out) = &args.out {
                    let procs = finding_procs(&verdict, &args.procs);
                    let file = program_file(&small, &verdict.summary(), &procs);
                    let path = out.join(format!("seed{seed}.fork"));
                    if let Err(err) =
                        std::fs::create_dir_all(out).and_then(|()| std::fs::write(&path, file))
                    {
                        eprintln!("error: cannot write {}: {err}", path.display());
                        return ExitCode::FAILURE;
                    }
                    println!("  written to {}", path.display());
                } else {
                    print!("{}", small.render());
                }
            }
        }
        seed += 1;
    }
    let total: u64 = counts.values().sum();
    println!("programs: {total} (seeds {}..{})", args.seed, seed);
    for (kind, n) in &counts {
        println!("  {kind}: {n}");
    }
    if counts
        .keys()
        .all(|k| *k == "agree" || k.starts_with("step limit"))
    {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `--emit N`: N programs with `//! run:` cases from the simulator, for the GPU script.
fn emit(n: u64, out: &std::path::Path, args: &Args, opts: &Options) -> ExitCode {
    if let Err(err) = std::fs::create_dir_all(out) {
        eprintln!("error: cannot create {}: {err}", out.display());
        return ExitCode::FAILURE;
    }
    for seed in args.seed..args.seed + n {
        let program = generate(seed, opts);
        let file = program_file(&program, "generated", &args.procs);
        let path = out.join(format!("gen{seed}.fork"));
        if let Err(err) = std::fs::write(&path, file) {
            eprintln!("error: cannot write {}: {err}", path.display());
            return ExitCode::FAILURE;
        }
    }
    println!("{n} programs written to {}", out.display());
    ExitCode::SUCCESS
}
