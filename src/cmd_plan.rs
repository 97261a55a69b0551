//! `forkcc build --emit plan` and `forkcc run --backend cpu-plan`: the transform's Plan, as
//! text or executed by the CPU Plan executor.

use crate::cli::load;
use crate::cmd_sim::{CrcwArg, ModelArg, SimArgs};
use fork_frontend::{diag, Checked};
use pram_runtime::cpu::{self, Crcw, Order};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

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

/// `forkcc run --backend cpu-plan`: the program's output on stdout, diagnostics and (with
/// `--stats`) launches and read-backs on stderr.
pub fn run(args: &SimArgs, order: Order) -> ExitCode {
    if !matches!(args.machine.model, ModelArg::Crcw) || !args.machine.check.is_empty() {
        eprintln!(
            "note: `--model` and `--check` are checked by the simulator only (`forkcc sim`); \
             the CPU Plan executor does not check them"
        );
    }
    let Some(checked) = load(&args.source) else {
        return ExitCode::FAILURE;
    };
    let Some(plan) = plan(&checked) else {
        return ExitCode::FAILURE;
    };
    match cpu::run(
        &plan,
        cpu::Config {
            procs: args.machine.procs as usize,
            order,
            max_steps: args.machine.max_steps,
            crcw: match args.machine.crcw {
                CrcwArg::Common => Crcw::Common,
                CrcwArg::Arbitrary => Crcw::Arbitrary,
                CrcwArg::Priority => Crcw::Priority,
            },
        },
    ) {
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
