//! `forkcc build --emit cuda|ptx`: the Plan as one self-contained CUDA source, or its kernels
//! compiled to PTX by NVRTC; the `gpu` backend: the Plan on the GPU.

use crate::cmd_plan::plan;
use crate::cmd_sim::{CrcwArg, Execution, MachineFlags, RunOptions};
use crate::report::Reporter;
use fork_frontend::Checked;
use pram_runtime::cuda::{self, nvrtc};
use pram_runtime::gpu;
use transform::emit_cuda::{self, EmitError, EmitOptions};

fn render(checked: &Checked, err: &EmitError, reporter: Reporter) -> String {
    reporter.render(&checked.sources, &[err.to_diagnostic()])
}

/// The standalone `.cu`; Err holds the diagnostics when the program cannot be emitted.
pub fn cuda_text(
    checked: &Checked,
    options: EmitOptions,
    reporter: Reporter,
) -> Result<String, String> {
    let plan = plan(checked, reporter)?;
    cuda::standalone_source_with(&plan, &checked.sources, options)
        .map_err(|e| render(checked, &e, reporter))
}

/// The PTX of the kernels (NVRTC's warnings printed); Err without NVRTC or when it fails.
pub fn ptx_text(
    checked: &Checked,
    options: EmitOptions,
    reporter: Reporter,
) -> Result<String, String> {
    let plan = plan(checked, reporter)?;
    let emitted = emit_cuda::emit_with(&plan, &checked.sources, options)
        .map_err(|e| render(checked, &e, reporter))?;
    let (ptx, log) =
        nvrtc::compile_ptx(&cuda::device_source(&emitted)).map_err(|e| format!("error: {e}\n"))?;
    if !log.is_empty() {
        eprintln!("{log}");
    }
    Ok(ptx)
}

/// The `gpu` backend. The GPU has no step limit; `--crcw priority` is honoured (under the
/// host schedule), `common`/`arbitrary` let some writer win. A fault is rendered as the
/// simulator renders one.
pub fn execute(
    checked: &Checked,
    flags: &MachineFlags,
    run: &RunOptions,
    reporter: Reporter,
) -> Execution {
    if flags.simulator_only_checks() {
        return Execution::failed(
            "error: the GPU does not check `--model erew|crew` or `--check races`; run with \
             `--backend sim`\n"
                .into(),
        );
    }
    let plan = match plan(checked, reporter) {
        Ok(plan) => plan,
        Err(diagnostics) => return Execution::failed(diagnostics),
    };
    let options = EmitOptions {
        checks: !run.unchecked,
        schedule: run.schedule,
    };
    let emitted = match emit_cuda::emit_with(&plan, &checked.sources, options) {
        Ok(e) => e,
        Err(e) => return Execution::failed(render(checked, &e, reporter)),
    };
    let config = gpu::Config {
        procs: flags.procs as u64,
        priority: matches!(flags.crcw, CrcwArg::Priority),
        timing: run.stats,
    };
    match gpu::run(&plan, &emitted, config) {
        Ok(run) => Execution {
            output: run.stdout,
            diagnostics: match &run.error {
                Some(gpu::GpuError::Fault(fault)) => {
                    reporter.render(&checked.sources, &[fault.to_diagnostic()])
                }
                Some(e) => format!("error: {e}\n"),
                None => String::new(),
            },
            stats: Some(format!("{}\n", run.stats)),
            ok: run.error.is_none(),
            trace: None,
        },
        Err(e) => Execution::failed(format!("error: {e}\n")),
    }
}
