//! Differential test: every classroom example, every tests/semantics program, every rule
//! program of the transform, the programs in tests/cpu_plan and the reduced random-program
//! findings in tests/random run on the reference simulator (`forkcc sim`) and on the CPU Plan
//! executor (`forkcc run --backend cpu-plan`) in forward, reverse and shuffled thread order;
//! stdout and success must be identical, byte for byte.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Run lines that ask for checks only the simulator makes (docs/language.md §5: the GPU is not
/// required to check EREW/CREW accesses; the step limit counts PRAM steps).
const SIM_ONLY_FLAGS: &[&str] = &["--model", "--max-steps", "--check"];

const ORDERS: &[&str] = &["forward", "reverse", "shuffle:1"];

fn forkcc(args: &[&str], file: &Path) -> (Vec<u8>, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .arg(file)
        .output()
        .expect("forkcc runs");
    (out.stdout, out.status.success())
}

/// The `//! run:` argument lines of a file; `-p 8` when it has none.
fn run_lines(file: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(file).expect("readable corpus file");
    let lines: Vec<Vec<String>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("//! run:"))
        .map(|args| args.split_whitespace().map(str::to_string).collect())
        .collect();
    if lines.is_empty() {
        vec![vec!["-p".into(), "8".into()]]
    } else {
        lines
    }
}

fn corpus(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "fork"))
        .collect();
    files.sort();
    files
}

fn compare(dir: &str) {
    let mut failures = Vec::new();
    let mut compared = 0;
    for file in corpus(dir) {
        for args in run_lines(&file) {
            if args.iter().any(|a| SIM_ONLY_FLAGS.contains(&a.as_str())) {
                continue;
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let sim = forkcc(&[&["sim"], args.as_slice()].concat(), &file);
            for order in ORDERS {
                let run_args = [
                    &["run", "--backend", "cpu-plan", "--order", order],
                    args.as_slice(),
                ]
                .concat();
                let plan = forkcc(&run_args, &file);
                compared += 1;
                if plan != sim {
                    failures.push(format!(
                        "{} {} --order {order}:\n  sim (ok={}):\n{}\n  cpu-plan (ok={}):\n{}",
                        file.display(),
                        args.join(" "),
                        sim.1,
                        String::from_utf8_lossy(&sim.0),
                        plan.1,
                        String::from_utf8_lossy(&plan.0)
                    ));
                }
            }
        }
    }
    assert!(compared > 0, "no programs in {dir}");
    assert!(
        failures.is_empty(),
        "{} of {compared} runs differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn classroom_examples() {
    compare("classroom-examples");
}

#[test]
fn semantics_corpus() {
    compare("tests/semantics");
}

#[test]
fn transform_rule_corpus() {
    compare("transform/tests/rules");
}

#[test]
fn cpu_plan_corpus() {
    compare("tests/cpu_plan");
}

#[test]
fn random_program_regressions() {
    compare("tests/random");
}
