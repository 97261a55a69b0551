//! `forkcc build --emit plan` and the `cpu-plan` backend: the transform's Plan, as text or
//! executed by the CPU Plan executor.

use crate::cmd_sim::{Execution, MachineFlags, ModelArg};
use crate::report::Reporter;
use fork_frontend::Checked;
use pram_runtime::cpu::{self, Order};

/// Runs the transform; its diagnostics rendered when it rejects the program.
pub fn plan(checked: &Checked, reporter: Reporter) -> Result<transform::plan::Plan, String> {
    transform::transform(&checked.program)
        .map_err(|diagnostics| reporter.render(&checked.sources, &diagnostics))
}

/// The Plan text for `build --emit plan`.
pub fn plan_text(checked: &Checked, reporter: Reporter) -> Result<String, String> {
    plan(checked, reporter).map(|plan| transform::print::print_plan(&plan))
}

/// The `cpu-plan` backend; `--stats` gives launches and read-backs.
pub fn execute(
    checked: &Checked,
    flags: &MachineFlags,
    order: Order,
    reporter: Reporter,
) -> Execution {
    let mut notes = String::new();
    if !matches!(flags.model, ModelArg::Crcw) || !flags.check.is_empty() {
        notes.push_str(
            "note: `--model` and `--check` are checked by the simulator only (`forkcc sim`); \
             the CPU Plan executor does not check them\n",
        );
    }
    let plan = match plan(checked, reporter) {
        Ok(plan) => plan,
        Err(diagnostics) => return Execution::failed(notes + &diagnostics),
    };
    let config = cpu::Config {
        procs: flags.procs as usize,
        order,
        max_steps: flags.max_steps,
        crcw: flags.crcw.into(),
    };
    match cpu::run(&plan, config) {
        Ok(out) => Execution {
            output: out.stdout,
            diagnostics: notes,
            stats: Some(format!(
                "kernels {}, launches {}, host read-backs {}, spilled bytes per processor {}\n",
                plan.kernels.len(),
                out.launches,
                out.read_backs,
                transform::print::summary(&plan).1
            )),
            ok: true,
            trace: None,
        },
        Err(fault) => Execution {
            output: fault.stdout.clone(),
            ..Execution::failed(
                notes + &reporter.render(&checked.sources, &[fault.to_diagnostic()]),
            )
        },
    }
}
