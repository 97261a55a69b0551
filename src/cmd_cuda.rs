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
    // The .cu checks `--crcw common` (its default) unless compiled with -DFK_CHECKS=0.
    let options = EmitOptions {
        check_common: true,
        ..options
    };
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

/// The `gpu` backend, with the limits of `--max-steps` and `--timeout` (docs/gpu-limits.md);
/// `--crcw priority` is honoured (under the host schedule), `common`/`arbitrary` let some
/// writer win. A fault is rendered as the simulator renders one. `--stats` and a trace title
/// (`--trace`) timestamp the group instances.
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
        check_common: !run.unchecked && matches!(flags.crcw, CrcwArg::Common),
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
        timestamps: run.stats || run.trace.is_some(),
        region_groups: run.trace.is_some(),
        limits: flags.gpu_limits(),
        memory: run.memory,
        no_cache: run.no_cache,
    };
    match gpu::run(&plan, &emitted, config) {
        Ok(out) => {
            let fault = match &out.error {
                Some(gpu::GpuError::Fault(fault)) => {
                    Some((fault.message(), fault.who.map_or(0, |w| w.proc)))
                }
                _ => None,
            };
            let trace = run.trace.zip(out.timeline.as_ref()).map(|(title, t)| {
                t.trace(
                    &plan,
                    &checked.sources,
                    title,
                    run.trace_limit,
                    fault.as_ref().map(|(m, p)| (m.as_str(), *p)),
                )
            });
            Execution {
                output: out.stdout,
                diagnostics: match &out.error {
                    Some(gpu::GpuError::Fault(fault)) => {
                        reporter.render(&checked.sources, &[fault.to_diagnostic()])
                    }
                    Some(e) => error_line(e),
                    None => String::new(),
                },
                stats: Some(format!("{}\n", out.stats)),
                ok: out.error.is_none(),
                trace,
            }
        }
        Err(e) => Execution::failed(error_line(&e)),
    }
}

/// `error[R0006]: ...` for an error with the simulator's fault code, else `error: ...`.
fn error_line(e: &gpu::GpuError) -> String {
    match e.code() {
        Some(code) => format!("error[{code}]: {e}\n"),
        None => format!("error: {e}\n"),
    }
}
