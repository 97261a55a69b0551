//! `forkcc build --emit plan` and `forkcc run --backend cpu-plan`: the transform's Plan, as
//! text or executed by the CPU Plan executor.

use crate::cli::{load, SourceArgs};
use fork_frontend::{diag, Checked};
use pram_runtime::cpu::{self, Order};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    /// Number of PRAM processors.
    #[arg(short = 'p', long = "procs", default_value_t = 1)]
    pub procs: usize,
    /// Which executor runs the program.
    #[arg(long, value_enum, default_value_t = Backend::CpuPlan)]
    pub backend: Backend,
    /// Thread order of every kernel (cpu-plan): forward, reverse or shuffle:SEED.
    #[arg(long, default_value = "forward")]
    pub order: Order,
    /// Print kernel launches and host read-backs to stderr after the run.
    #[arg(long)]
    pub stats: bool,
    /// Concurrent writes of one cell (gpu): `priority` makes the highest __PROC_NR__ win;
    /// cpu-plan ignores it (its `--order` decides which writer comes last).
    #[arg(long, value_enum, default_value_t = Crcw::Common)]
    pub crcw: Crcw,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Crcw {
    Common,
    Arbitrary,
    Priority,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Backend {
    /// The Plan executed on the CPU, kernel threads in `--order`.
    CpuPlan,
    /// The Plan on GPU 0: kernels compiled by NVRTC, run through the CUDA driver.
    Gpu,
    /// The GPU when a GPU and NVRTC are found, else the CPU Plan executor.
    Auto,
}

/// Runs the transform; prints its diagnostics. None on errors.
pub fn plan(checked: &Checked) -> Option<transform::plan::Plan> {
    match transform::transform(&checked.program) {
        Ok(plan) => Some(plan),
        Err(diagnostics) => {
            let color = std::io::stderr().is_terminal();
            eprint!("{}", diag::render(&checked.sources, &diagnostics, color));
            None
        }
    }
}

/// The Plan text for `build --emit plan`.
pub fn plan_text(checked: &Checked) -> Option<String> {
    plan(checked).map(|plan| transform::print::print_plan(&plan))
}

pub fn run(args: &RunArgs) -> ExitCode {
    if args.procs == 0 {
        eprintln!("error: `-p 0`: a program needs at least one processor");
        return ExitCode::FAILURE;
    }
    let Some(checked) = load(&args.source) else {
        return ExitCode::FAILURE;
    };
    let Some(plan) = plan(&checked) else {
        return ExitCode::FAILURE;
    };
    let gpu = match args.backend {
        Backend::Gpu => true,
        Backend::Auto => pram_runtime::gpu::available(),
        Backend::CpuPlan => false,
    };
    if gpu {
        let config = pram_runtime::gpu::Config {
            procs: args.procs as u64,
            priority: args.crcw == Crcw::Priority,
            timing: args.stats,
        };
        return crate::cmd_cuda::run_gpu(&checked, &plan, config);
    }
    match cpu::run(&plan, args.procs, args.order) {
        Ok(out) => {
            let mut stdout = std::io::stdout();
            let written = stdout.write_all(&out.stdout).and_then(|_| stdout.flush());
            if args.stats {
                eprintln!(
                    "kernels {}, launches {}, host read-backs {}, spilled bytes per processor {}",
                    plan.kernels.len(),
                    out.launches,
                    out.read_backs,
                    transform::print::summary(&plan).1
                );
            }
            match written {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("error: cannot write the output: {err}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(fault) => {
            let color = std::io::stderr().is_terminal();
            eprint!(
                "{}",
                diag::render(&checked.sources, &[fault.to_diagnostic()], color)
            );
            ExitCode::FAILURE
        }
    }
}
