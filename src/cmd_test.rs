//! `forkcc test`: runs the cases recorded in each file (`fork_frontend::testspec`) on a
//! backend and compares their output; a mismatch shows a unified diff. A case that asks for
//! a check only the simulator makes (`--model erew|crew`, `--check races`) is skipped on the
//! GPU, which cannot make it, and counted apart.

use crate::cli::defines_options;
use crate::cmd_sim::{choose, execute, Backend, Execution, MachineFlags, RunOptions, NO_GPU_NOTE};
use crate::report::{self, Reporter};
use clap::Parser;
use fork_frontend::testspec::{self, Case, Expect};
use pram_runtime::gpu;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use transform::emit_cuda::Schedule;

/// The flags of one `//! run:` line.
#[derive(Parser, Debug)]
#[command(name = "//! run:", no_binary_name = true)]
struct CaseArgs {
    #[command(flatten)]
    machine: MachineFlags,
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
}

pub fn test(files: &[PathBuf], backend: Backend, schedule: Schedule) -> ExitCode {
    let gpu_present = matches!(backend, Backend::Auto | Backend::Gpu) && gpu::available();
    if backend == Backend::Gpu && !gpu_present {
        eprintln!("error: {}", gpu::GpuError::NoDriver);
        return ExitCode::FAILURE;
    }
    if backend == Backend::Auto && !gpu_present {
        eprintln!("{NO_GPU_NOTE}");
    }
    let options = RunOptions {
        schedule,
        ..RunOptions::default()
    };
    let mut tally = Tally::default();
    for file in files {
        let recorded = match cases(file) {
            Ok(cases) => cases,
            Err(why) => {
                if let Err(code) = tally.record(&file.display().to_string(), Err(why)) {
                    return code;
                }
                continue;
            }
        };
        for case in &recorded {
            let name = format!("{}:{}", file.display(), case.line);
            if let Err(code) =
                tally.record(&name, run_case(file, case, backend, &options, gpu_present))
            {
                return code;
            }
        }
    }
    let skipped = match tally.skipped {
        0 => String::new(),
        n => format!(", {n} skipped (simulator-only checks)"),
    };
    let summary = format!(
        "\n{} passed, {} failed{skipped}\n",
        tally.passed, tally.failed
    );
    if let Err(code) = report::stdout(summary.as_bytes()) {
        return code;
    }
    if tally.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    skipped: usize,
}

/// A case that ran and matched (`Ok(Ran)`), that the backend cannot run (`Ok(Skipped)`), or
/// why it failed.
type Verdict = Result<Outcome, String>;

enum Outcome {
    Ran,
    Skipped,
}

impl Tally {
    /// Counts a case and prints its line (and why it failed) as soon as it is known.
    fn record(&mut self, name: &str, result: Verdict) -> Result<(), ExitCode> {
        let line = match result {
            Ok(Outcome::Ran) => {
                self.passed += 1;
                format!("test {name} ... ok\n")
            }
            Ok(Outcome::Skipped) => {
                self.skipped += 1;
                format!("test {name} ... skipped: `--model erew|crew` and `--check races` are checked by the simulator only\n")
            }
            Err(why) => {
                self.failed += 1;
                format!("test {name} ... FAILED\n{why}")
            }
        };
        report::stdout(line.as_bytes())
    }
}

fn cases(file: &Path) -> Result<Vec<Case>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("  cannot read the file: {e}"))?;
    let cases = testspec::parse(&text)
        .map_err(|e| format!("  {}:{}: {}", file.display(), e.line, e.message))?;
    if cases.is_empty() {
        return Err("  no recorded cases: add `//! run: -p P` and `//! expect:` lines".into());
    }
    Ok(cases)
}

fn run_case(
    file: &Path,
    case: &Case,
    backend: Backend,
    options: &RunOptions,
    gpu_present: bool,
) -> Verdict {
    let args = CaseArgs::try_parse_from(&case.args)
        .map_err(|e| format!("  bad `//! run:` arguments:\n{}", indent(&e.to_string())))?;
    let (chosen, _) = choose(backend, &args.machine, gpu_present);
    if chosen == Backend::Gpu && args.machine.simulator_only_checks() {
        return Ok(Outcome::Skipped);
    }
    let reporter = Reporter::plain();
    let run = match fork_frontend::check_file(file, &defines_options(&args.define)) {
        Ok(checked) => {
            let backend = chosen;
            let mut run = execute(&checked, backend, &args.machine, options, reporter);
            let warnings = reporter.render(&checked.sources, &checked.warnings);
            run.diagnostics.insert_str(0, &warnings);
            run
        }
        Err(failed) => Execution::failed(reporter.render(&failed.sources, &failed.diagnostics)),
    };
    let stdout = String::from_utf8_lossy(&run.output);
    match &case.expect {
        Expect::Output(expected) if run.ok && stdout == *expected => Ok(Outcome::Ran),
        Expect::Output(expected) => {
            let mut why = String::new();
            if !run.ok {
                why.push_str("  the run failed:\n");
                why.push_str(&indent(&run.diagnostics));
            }
            if stdout != *expected {
                let diff = similar::TextDiff::from_lines(expected.as_str(), &stdout)
                    .unified_diff()
                    .header("expected", "actual")
                    .to_string();
                why.push_str(&indent(&diff));
            }
            Err(why)
        }
        Expect::Error(text) if !run.ok && run.diagnostics.contains(text.as_str()) => {
            Ok(Outcome::Ran)
        }
        Expect::Error(text) if !run.ok => Err(format!(
            "  the run failed, but its diagnostics do not contain `{text}`:\n{}",
            indent(&run.diagnostics)
        )),
        Expect::Error(text) => Err(format!(
            "  expected an error containing `{text}`, but the run succeeded with output:\n{}",
            indent(&stdout)
        )),
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
