//! The simulator through the command line: `forkcc test` over every classroom example and
//! every semantic-corpus program, and the behaviour of `sim`, `run`, `test` and `explain`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn forkcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("forkcc runs")
}

fn fork_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fork"))
        .collect();
    files.sort();
    files
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run_recorded_cases(dir: &str) {
    let files = fork_files(dir);
    assert!(!files.is_empty(), "no .fork files in {dir}");
    let mut args = vec!["test".to_string()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = forkcc(&args);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success(),
        "forkcc test {dir} failed:\n{stdout}\n{}",
        text(&out.stderr)
    );
    assert!(stdout.contains(" passed, 0 failed"), "{stdout}");
}

#[test]
fn every_classroom_example_passes() {
    run_recorded_cases("classroom-examples");
}

#[test]
fn every_semantic_corpus_program_passes() {
    run_recorded_cases("tests/semantics");
}

#[test]
fn every_random_program_regression_passes() {
    run_recorded_cases("tests/random");
}

fn temp_program(text: &str) -> tempfile::TempPath {
    let file = tempfile::Builder::new()
        .suffix(".fork")
        .tempfile()
        .expect("temp file");
    std::fs::write(file.path(), text).expect("write");
    file.into_temp_path()
}

#[test]
fn test_reports_a_mismatch_with_a_diff_and_fails() {
    let program = temp_program(
        "//! run: -p 2\n//! expect:\n//! 0\n//! 2\n//! run: -p 1\n//! expect:\n//! 0\nsync void main(void)\n{\n    printf(\"%d\\n\", $$);\n}\n",
    );
    let out = forkcc(&["test", program.to_str().unwrap_or_default()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("-2\n") && stdout.contains("+1\n"),
        "{stdout}"
    );
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
}

#[test]
fn test_expect_error_needs_a_failure_with_the_text() {
    let program = temp_program(
        "//! run: -p 4\n//! expect-error: division by zero\n//! run: -p 2\n//! expect-error: division by zero\nsync void main(void)\n{\n    pr int x;\n    x = 6 / (3 - $$);\n}\n",
    );
    let out = forkcc(&["test", program.to_str().unwrap_or_default()]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("1 passed, 1 failed"), "{stdout}");
    assert!(stdout.contains("the run succeeded"), "{stdout}");
}

#[test]
fn sim_prints_only_program_output_on_stdout() {
    let program = temp_program(
        "sh int a[4];\nsync void main(void)\n{\n    a[$$] = 10 * $$;\n    if ($$ % 2)\n        printf(\"odd %d\\n\", a[$$]);\n    else\n        printf(\"even %d\\n\", a[$$]);\n}\n",
    );
    let out = forkcc(&[
        "sim",
        program.to_str().unwrap_or_default(),
        "-p",
        "4",
        "--stats",
    ]);
    assert!(out.status.success());
    // Then-group first; inside each subgroup `$$` is renumbered from 0.
    assert_eq!(text(&out.stdout), "odd 0\nodd 10\neven 0\neven 10\n");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("PRAM time") && stderr.contains("group splits:               1"),
        "{stderr}"
    );
}

#[test]
fn sim_fault_exits_1_and_keeps_earlier_output() {
    let program = temp_program("sh int a[2];\nsync void main(void)\n{\n    seq printf(\"before\\n\");\n    a[$$] = 1;\n}\n");
    let out = forkcc(&["sim", program.to_str().unwrap_or_default(), "-p", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "before\n");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error[R0001]") && stderr.contains(":5:5"),
        "{stderr}"
    );
    assert!(
        stderr.contains("by processor 2 ($$ = 2, @ = 0)"),
        "{stderr}"
    );
}

#[test]
fn run_auto_says_it_uses_the_simulator() {
    let program = temp_program("sync void main(void)\n{\n    seq printf(\"hi\\n\");\n}\n");
    let out = forkcc(&["run", program.to_str().unwrap_or_default(), "-p", "2"]);
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "hi\n");
    assert!(text(&out.stderr).contains("reference simulator"));
    let out = forkcc(&[
        "run",
        program.to_str().unwrap_or_default(),
        "-p",
        "2",
        "--backend",
        "sim",
    ]);
    assert!(out.status.success() && out.stderr.is_empty());
}

#[test]
fn explain_knows_runtime_codes() {
    let out = forkcc(&["explain", "R0004"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("CRCW common"));
}

/// The GPU checks memory and arithmetic faults (docs/gpu-faults.md): the access-model and race
/// checks stay on the simulator, and asking the GPU for them is an error naming the flags.
#[test]
fn gpu_backend_refuses_simulator_only_checks() {
    let out = forkcc(&[
        "run",
        "classroom-examples/groups.fork",
        "-p",
        "4",
        "--backend",
        "gpu",
        "--check",
        "races",
    ]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the GPU does not check `--model erew|crew` or `--check races`"),
        "{stderr}"
    );
}

/// `--timeout` limits GPU runs (docs/gpu-limits.md): the CPU backends refuse it with the way
/// out instead of ignoring it, and a value that is not seconds says what it may be.
#[test]
fn timeout_is_a_limit_of_gpu_runs() {
    for backend in ["sim", "cpu-plan"] {
        let out = forkcc(&[
            "run",
            "classroom-examples/groups.fork",
            "-p",
            "4",
            "--backend",
            backend,
            "--timeout",
            "5",
        ]);
        assert!(!out.status.success());
        assert!(out.stdout.is_empty());
        insta::assert_snapshot!(format!("timeout_on_{backend}"), text(&out.stderr));
    }
    let out = forkcc(&[
        "run",
        "classroom-examples/groups.fork",
        "-p",
        "4",
        "--timeout",
        "soon",
    ]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("give the time limit in seconds, e.g. `--timeout 10` (0: none)"),
        "{stderr}"
    );
}

/// `test --backend` runs the cases where it says: a race only the simulator detects passes on
/// `sim` and fails on `cpu-plan`, whose Plan executor has no race check.
#[test]
fn test_runs_the_cases_on_the_chosen_backend() {
    let program = temp_program(
        "//! run: -p 2 --check races\n//! expect-error: race\nsh int x;\nsync void main(void)\n{\n    if ($$ == 0)\n        x = 1;\n    else\n        x = 2;\n}\n",
    );
    let file = program.to_str().unwrap_or_default();
    let out = forkcc(&["test", file, "--backend", "sim"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    let out = forkcc(&["test", file, "--backend", "cpu-plan"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("but the run succeeded") && stdout.contains("0 passed, 1 failed"),
        "{stdout}"
    );
    assert!(
        text(&out.stderr).is_empty(),
        "cpu-plan is no fallback: {}",
        text(&out.stderr)
    );
}

/// `test --backend gpu` grades on the GPU when there is one, skipping the cases only the
/// simulator can check; without one it is an error, not passes from the simulator.
#[test]
fn test_on_the_gpu_needs_a_gpu() {
    let out = forkcc(&["test", "classroom-examples/groups.fork", "--backend", "gpu"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    if pram_runtime::gpu::available() {
        assert!(out.status.success(), "{stdout}{stderr}");
        // Its `--model erew` case is the simulator's to check.
        assert!(
            stdout.contains(" passed, 0 failed, 1 skipped (simulator-only checks)"),
            "{stdout}"
        );
    } else {
        assert_eq!(out.status.code(), Some(1));
        assert!(stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("error: no CUDA driver (libcuda.so) or no GPU"),
            "{stderr}"
        );
    }
}
