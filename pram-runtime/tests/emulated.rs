//! The standalone `.cu` of every example and corpus case (the random-program regressions of
//! tests/random included), under both schedules, compiled for the CPU with g++ and the CUDA
//! stand-in `tests/emu/fk_emu.h`, prints what the CPU Plan executor prints; a case that faults
//! on a check the GPU makes (docs/gpu-faults.md) prints the simulator's output up to the
//! fault and reports the simulator's fault: code, location, message and processor. This runs the
//! generated kernels, the runtime library's split / loop / call / multiprefix kernels, the
//! generated host program and the device schedule's persistent kernel without a GPU (the
//! logic, not CUDA's memory model). Reported as ignored without g++.

mod common;

use pram_runtime::cpu;
use std::path::Path;
use std::process::Command;
use transform::emit_cuda::{EmitOptions, Schedule};

/// `K<<<grid, block>>>(args)` becomes `fk_emu_launch(grid, block, K, args)`.
fn emulated_launches(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(open) = rest.find("<<<") {
        let before = &rest[..open];
        let name_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let Some(close) = rest[open..].find(">>>(") else {
            break;
        };
        let config = &rest[open + 3..open + close];
        out.push_str(&before[..name_start]);
        out.push_str(&format!(
            "fk_emu_launch({config}, {}",
            &before[name_start..]
        ));
        rest = &rest[open + close + 4..];
        // A kernel without arguments: `K<<<g, b>>>()`.
        if !rest.starts_with(')') {
            out.push_str(", ");
        }
    }
    out.push_str(rest);
    out
}

fn main() {
    let gxx = Command::new("g++").arg("--version").output().is_ok();
    common::run(vec![
        libtest_mimic::Trial::test("launch_syntax_is_rewritten", || {
            launch_syntax_is_rewritten();
            Ok(())
        }),
        common::needing(
            "g++",
            gxx,
            "the_standalone_cu_runs_like_the_cpu_plan_executor",
            the_standalone_cu_runs_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_device_schedule_cu_runs_like_the_cpu_plan_executor",
            the_device_schedule_cu_runs_like_the_cpu_plan_executor,
        ),
    ]);
}

fn launch_syntax_is_rewritten() {
    assert_eq!(
        emulated_launches("x; k<<<FK_BLOCKS(l->n)>>>(a, b);"),
        "x; fk_emu_launch(FK_BLOCKS(l->n), k, a, b);"
    );
    assert_eq!(
        emulated_launches("k<<<1, 64>>>();"),
        "fk_emu_launch(1, 64, k);"
    );
}

/// What a case must do.
enum Expected {
    /// Succeed and print what the CPU Plan executor printed.
    Output(Vec<u8>),
    /// Fail with exit status 1 after printing `stdout` (the simulator's output up to the
    /// fault), stderr starting with `report` (the simulator's fault in the short form).
    Fault { stdout: Vec<u8>, report: String },
}

/// One emulated program and the cases that run it: cases of one file that differ only in `-p`
/// or `--crcw` have the same source and share the build.
struct Build {
    source: String,
    /// Name, `-p`, `--crcw priority`, and what the case must do.
    runs: Vec<(String, usize, bool, Expected)>,
}

/// The simulator's fault of a case the CPU Plan executor stopped, when the GPU checks it: its
/// output up to the fault and its short report without the step (which the GPU does not
/// count) and without `$$`/`@` (a private `if` that needs no split keeps the enclosing `$$` in
/// a kernel).
fn simulator_fault(case: &common::Case, checked: &fork_frontend::Checked) -> Option<Expected> {
    let (stdout, fault) = case.simulator_fault(checked)?;
    let location = checked.sources.location(fault.span)?;
    let who = fault
        .who
        .map_or(String::new(), |w| format!(", by processor {}", w.proc));
    Some(Expected::Fault {
        stdout,
        report: format!("{location}: error[{}]: {}{who}", fault.code.id, fault.what),
    })
}

/// Compiles `build` in `dir` as program `index` and runs its cases; the differing ones.
fn build_and_run(dir: &Path, emu: &Path, index: usize, build: &Build) -> Vec<String> {
    let cpp = dir.join(format!("p{index}.cpp"));
    let bin = dir.join(format!("p{index}"));
    std::fs::write(&cpp, &build.source).expect("write the source");
    let built = Command::new("g++")
        .args(["-std=c++20", "-O1", "-pthread", "-w"])
        .arg(format!("-I{}", emu.display()))
        .arg(&cpp)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("g++ runs");
    let name = &build.runs[0].0;
    assert!(
        built.status.success(),
        "{name}: g++ failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut differing = Vec::new();
    for (name, procs, priority, expected) in &build.runs {
        // A hang (a barrier that never completes) is a failure, not a stuck test. Generous:
        // both schedules' builds and runs share a small machine.
        let mut run = Command::new("timeout");
        run.arg("600").arg(&bin);
        run.args(["-p", &procs.to_string()]);
        if *priority {
            run.args(["--crcw", "priority"]);
        }
        let out = run.output().expect("the program runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let agrees = match expected {
            Expected::Output(stdout) => out.stdout == *stdout && out.status.success(),
            Expected::Fault { stdout, report } => {
                out.stdout == *stdout && out.status.code() == Some(1) && stderr.starts_with(report)
            }
        };
        if !agrees {
            let wanted = match expected {
                Expected::Output(_) => String::new(),
                Expected::Fault { report, .. } => format!(" (expected {report})"),
            };
            differing.push(format!("{name} -p {procs}: {stderr}{wanted}"));
        }
    }
    differing
}

fn the_standalone_cu_runs_like_the_cpu_plan_executor() {
    emulated_runs_agree(Schedule::Host);
}

/// The device schedule's persistent kernel runs on one emulated block of 64 real threads,
/// processors virtualised over them when P > 64.
fn the_device_schedule_cu_runs_like_the_cpu_plan_executor() {
    emulated_runs_agree(Schedule::Device);
}

/// Every distinct program compiled once, the builds spread over the cores: g++ takes most of
/// this test's time.
fn emulated_runs_agree(schedule: Schedule) {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut builds: Vec<Build> = Vec::new();
    let mut by_source: std::collections::HashMap<String, usize> = Default::default();
    for case in common::cases(&[
        "classroom-examples",
        "tests/semantics",
        "tests/cpu_plan",
        "tests/random",
    ]) {
        if schedule == Schedule::Device && !case.device_schedule_agrees() {
            continue;
        }
        let name = case.file.display().to_string();
        let Some((checked, plan)) = case.plan() else {
            continue;
        };
        let crcw = case.cpu_crcw();
        let config = cpu::Config {
            procs: case.procs,
            order: cpu::Order::Forward,
            crcw,
            max_steps: 10_000_000,
        };
        // Faults the GPU does not check and access-model checks are the simulator's and
        // gpu-verify's.
        let expected = match cpu::run(&plan, config) {
            Ok(out) => Expected::Output(out.stdout),
            Err(_) => match simulator_fault(&case, &checked) {
                Some(fault) => fault,
                None => continue,
            },
        };
        let options = EmitOptions {
            schedule,
            ..EmitOptions::default()
        };
        let source = pram_runtime::cuda::standalone_source_with(&plan, &checked.sources, options)
            .unwrap_or_else(|e| panic!("{name}: {}", e.message));
        let source = format!("#include \"fk_emu.h\"\n{}", emulated_launches(&source));
        let run = (name, case.procs, case.crcw == "priority", expected);
        match by_source.get(&source) {
            Some(&index) => builds[index].runs.push(run),
            None => {
                by_source.insert(source.clone(), builds.len());
                builds.push(Build {
                    source,
                    runs: vec![run],
                });
            }
        }
    }
    let compared: usize = builds.iter().map(|b| b.runs.len()).sum();
    assert!(compared >= 40, "only {compared} cases ran");
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut differing: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut differing = Vec::new();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(build) = builds.get(index) else {
                            return differing;
                        };
                        differing.extend(build_and_run(dir.path(), &emu, index, build));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    differing.sort();
    assert!(differing.is_empty(), "differs: {differing:#?}");
}
