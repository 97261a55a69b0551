//! `forkcc test`: runs the cases recorded in each file (`fork_frontend::testspec`) and compares
//! their output; a mismatch shows a unified diff.

use crate::cmd_sim::{simulate, Backend, MachineFlags};
use clap::Parser;
use fork_frontend::testspec::{self, Case, Expect};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The flags of one `//! run:` line.
#[derive(Parser, Debug)]
#[command(name = "//! run:", no_binary_name = true)]
struct CaseArgs {
    #[command(flatten)]
    machine: MachineFlags,
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    define: Vec<String>,
}

pub fn test(files: &[PathBuf], _backend: Backend) -> ExitCode {
    let (mut passed, mut failed) = (0usize, 0usize);
    for file in files {
        match cases(file) {
            Ok(cases) => {
                for case in cases {
                    let name = format!("{}:{}", file.display(), case.line);
                    match run_case(file, &case) {
                        Ok(()) => {
                            println!("test {name} ... ok");
                            passed += 1;
                        }
                        Err(why) => {
                            println!("test {name} ... FAILED\n{why}");
                            failed += 1;
                        }
                    }
                }
            }
            Err(why) => {
                println!("test {} ... FAILED\n{why}", file.display());
                failed += 1;
            }
        }
    }
    println!("\n{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
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

fn run_case(file: &Path, case: &Case) -> Result<(), String> {
    let args = CaseArgs::try_parse_from(&case.args)
        .map_err(|e| format!("  bad `//! run:` arguments:\n{}", indent(&e.to_string())))?;
    let run = simulate(file, &args.define, &args.machine, false);
    let stdout = String::from_utf8_lossy(&run.output);
    match &case.expect {
        Expect::Output(expected) if run.ok && stdout == *expected => Ok(()),
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
        Expect::Error(text) if !run.ok && run.diagnostics.contains(text.as_str()) => Ok(()),
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
