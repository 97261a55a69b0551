//! `forkcc build --emit cuda|ptx`: the Plan as one self-contained CUDA source, or its kernels
//! compiled to PTX by NVRTC; `forkcc run --backend gpu`: the Plan on the GPU.

use crate::cli::load;
use crate::cmd_plan::plan;
use crate::cmd_sim::{CheckArg, CrcwArg, SimArgs};
use fork_frontend::{diag, Checked};
use pram_runtime::cuda::{self, nvrtc};
use pram_runtime::gpu;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use transform::emit_cuda::{self, EmitError, EmitOptions, Schedule};

fn report(checked: &Checked, err: &EmitError) {
    let color = std::io::stderr().is_terminal();
    eprint!(
        "{}",
        diag::render(&checked.sources, &[err.to_diagnostic()], color)
    );
}

/// The standalone `.cu`; None (diagnostics printed) when the program cannot be emitted.
pub fn cuda_text(checked: &Checked, schedule: Schedule) -> Option<String> {
    let plan = plan(checked)?;
    let options = EmitOptions {
        schedule,
        ..EmitOptions::default()
    };
    cuda::standalone_source_with(&plan, &checked.sources, options)
        .map_err(|e| report(checked, &e))
        .ok()
}

/// The PTX of the kernels; None (message printed) without NVRTC or when it fails.
pub fn ptx_text(checked: &Checked, schedule: Schedule) -> Option<String> {
    let plan = plan(checked)?;
    let options = EmitOptions {
        schedule,
        ..EmitOptions::default()
    };
    let emitted = emit_cuda::emit_with(&plan, &checked.sources, options)
        .map_err(|e| report(checked, &e))
        .ok()?;
    match nvrtc::compile_ptx(&cuda::device_source(&emitted)) {
        Ok((ptx, log)) => {
            if !log.is_empty() {
                eprintln!("{log}");
            }
            Some(ptx)
        }
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}

/// `forkcc run --backend gpu`: the output on stdout, `--stats` and errors on stderr. The GPU
/// has no step limit; `--crcw priority` is honoured, `common`/`arbitrary` let some writer win.
pub fn run(args: &SimArgs, schedule: Schedule) -> ExitCode {
    if args.machine.simulator_only_checks() {
        eprintln!(
            "error: the GPU does not check `--model erew|crew` or `--check races`; run with \
             `--backend sim`"
        );
        return ExitCode::FAILURE;
    }
    let Some(checked) = load(&args.source) else {
        return ExitCode::FAILURE;
    };
    let Some(plan) = plan(&checked) else {
        return ExitCode::FAILURE;
    };
    let options = emit_cuda::EmitOptions {
        check_bounds: args.machine.check.contains(&CheckArg::Bounds),
        schedule,
    };
    let emitted = match emit_cuda::emit_with(&plan, &checked.sources, options) {
        Ok(e) => e,
        Err(e) => {
            report(&checked, &e);
            return ExitCode::FAILURE;
        }
    };
    let config = gpu::Config {
        procs: args.machine.procs as u64,
        priority: matches!(args.machine.crcw, CrcwArg::Priority),
        timing: args.stats,
    };
    let run = match gpu::run(&plan, &emitted, config) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut stdout = std::io::stdout();
    let written = stdout.write_all(&run.stdout).and_then(|_| stdout.flush());
    if args.stats {
        eprintln!("{}", run.stats);
    }
    if let Some(e) = run.error {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: cannot write the output: {err}");
            ExitCode::FAILURE
        }
    }
}
