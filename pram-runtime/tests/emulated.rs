//! The standalone `.cu` of every example and corpus case (the random-program regressions of
//! tests/random included), under both schedules, compiled for the CPU with g++ and the CUDA
//! stand-in `tests/emu/fk_emu.h`, prints what the CPU Plan executor prints; a case that faults
//! on a check the GPU makes (docs/gpu-faults.md) prints the simulator's output up to the
//! fault and reports the simulator's fault: code, location, message and processor. This runs the
//! generated kernels, the runtime library's split / loop / call / multiprefix kernels, the
//! generated host program and the device schedule's persistent kernel without a GPU (the
//! logic, not CUDA's memory model). Reported as ignored without g++.
//!
//! `FORKCC_EMU_CORPUS=DIR` adds the `.fork` files of DIR, each with its `//! run:` lines, as
//! `forkgen --emit N --out DIR` writes them: random programs through the emitted CUDA, which
//! forkgen's own runs (the simulator against the CPU executor) do not reach.

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

/// Compiles the emulated source `cpp` into `bin` with g++ (`flags`: extra `-D` flags, or
/// `-x c++-header` for a precompiled header). `-O0`: g++ spends twice as long at `-O1`, and
/// the corpus programs run in milliseconds either way.
fn gxx(emu: &Path, cpp: &Path, bin: &Path, flags: &[&str]) -> std::process::Output {
    Command::new("g++")
        .args(["-std=c++20", "-O0", "-pthread", "-w"])
        .args(flags)
        .arg(format!("-I{}", emu.display()))
        .arg(cpp)
        .arg("-o")
        .arg(bin)
        .output()
        .expect("g++ runs")
}

/// A run of the emulated program `bin` with `args`, ended by `timeout` after `limit` seconds
/// (a hang is a failure, not a stuck test). The program's own time limit is off: it is meant
/// for a GPU (30 s by default), and an emulated run is many times slower, more so on a small
/// machine that builds other programs at the same time (CI's quicksort_balanced at P = 200
/// passed it alone and ran into it there).
fn emulated_run(bin: &Path, limit: u32, args: &[&str]) -> std::process::Output {
    Command::new("timeout")
        .arg(limit.to_string())
        .arg(bin)
        .args(args)
        .args(["--timeout", "0"])
        .output()
        .expect("the program runs")
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
        common::needing(
            "g++",
            gxx,
            "the_device_schedule_cu_runs_grid_regions_on_every_block_like_the_cpu_plan_executor",
            the_device_schedule_cu_runs_grid_regions_on_every_block_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_device_schedule_cu_runs_on_two_blocks_like_the_cpu_plan_executor",
            the_device_schedule_cu_runs_on_two_blocks_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_device_schedule_cu_runs_owned_loops_on_gangs_like_the_cpu_plan_executor",
            the_device_schedule_cu_runs_owned_loops_on_gangs_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_device_schedule_runs_long_kernels_on_the_kernel_warp_like_the_cpu_plan_executor",
            the_device_schedule_runs_long_kernels_on_the_kernel_warp_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_unchecked_cu_of_the_classroom_examples_runs_like_the_cpu_plan_executor",
            the_unchecked_cu_of_the_classroom_examples_runs_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "device_schedule_timestamps_count_the_simulators_calls_and_forks",
            device_schedule_timestamps_count_the_simulators_calls_and_forks,
        ),
        common::needing(
            "g++",
            gxx,
            "device_schedule_timestamps_give_the_simulators_group_tree",
            device_schedule_timestamps_give_the_simulators_group_tree,
        ),
        common::needing(
            "g++",
            gxx,
            "device_schedule_timestamps_give_the_simulators_asynchronous_regions_and_barriers",
            device_schedule_timestamps_give_the_simulators_asynchronous_regions_and_barriers,
        ),
        common::needing(
            "g++",
            gxx,
            "device_schedule_regions_with_more_members_than_threads_run_like_the_cpu_plan_executor",
            device_schedule_regions_with_more_members_than_threads_run_like_the_cpu_plan_executor,
        ),
        common::needing(
            "g++",
            gxx,
            "the_cu_stops_hangs_conflicts_and_deep_recursion_where_the_simulator_does",
            the_cu_stops_hangs_conflicts_and_deep_recursion_where_the_simulator_does,
        ),
        common::needing(
            "g++",
            gxx,
            "the_cu_says_its_output_overflowed_before_reporting_a_fault",
            the_cu_says_its_output_overflowed_before_reporting_a_fault,
        ),
        common::needing(
            "g++",
            gxx,
            "the_cu_allocates_the_arrays_of_the_drivers_arena",
            the_cu_allocates_the_arrays_of_the_drivers_arena,
        ),
        common::needing(
            "g++",
            gxx,
            "the_cus_heap_is_as_large_as_fk_heap_bytes_says",
            the_cus_heap_is_as_large_as_fk_heap_bytes_says,
        ),
    ]);
}

/// `-DFK_HEAP_BYTES` sizes the `.cu`'s heap: quicksort's `shmalloc`s (about 12 KB at P = 8)
/// stop with R0012 at the first that does not fit in 8 KiB, and run in the default 64 MiB.
fn the_cus_heap_is_as_large_as_fk_heap_bytes_says() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = "classroom-examples/quicksort.fork";
    let (checked, plan) = checked_plan(file, &[]);
    let cpp = dir.path().join("t.cpp");
    std::fs::write(
        &cpp,
        emulated_source(&checked, &plan, Schedule::Device, file),
    )
    .expect("write the source");
    for (flags, code, expected) in [
        (
            &["-DFK_HEAP_BYTES=8192"][..],
            1,
            "error[R0012]: cannot allocate",
        ),
        (&[][..], 0, "sorted: yes"),
    ] {
        let bin = dir.path().join(format!("t{code}"));
        assert!(gxx(&emu, &cpp, &bin, flags).status.success(), "g++ failed");
        let out = emulated_run(&bin, 300, &["-p", "8"]);
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.code() == Some(code) && text.contains(expected),
            "{flags:?}: {text}"
        );
        if code == 1 {
            assert!(text.contains("the GPU's heap is full"), "{text}");
        }
    }
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
#[derive(Clone)]
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
    /// Name, `-p`, `--crcw MODE`, and what the case must do.
    runs: Vec<(String, usize, String, Expected)>,
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

/// What `case` must do: the CPU Plan executor's output, or where the executor stops, the
/// simulator's fault ([`simulator_fault`]; None: a fault the GPU does not check). Computed
/// once per case for all the tests of this binary: most of them run the same cases, and the
/// executor (a debug build in CI) kept a test from its first g++ build for over 6 minutes.
fn reference(
    case: &common::Case,
    checked: &fork_frontend::Checked,
    plan: &transform::plan::Plan,
) -> Option<Expected> {
    use std::sync::{Arc, Mutex, OnceLock};
    type Key = (std::path::PathBuf, usize, Vec<(String, String)>, String);
    type Memo = Mutex<std::collections::HashMap<Key, Arc<OnceLock<Option<Expected>>>>>;
    static REFERENCES: OnceLock<Memo> = OnceLock::new();
    let key = (
        case.file.clone(),
        case.procs,
        case.defines.clone(),
        case.crcw.clone(),
    );
    // The map's lock is held only to find the case's cell: a second test asking for a case
    // being computed waits on the cell, not on every other case.
    let cell = REFERENCES
        .get_or_init(Default::default)
        .lock()
        .expect("no test panicked holding the lock")
        .entry(key)
        .or_default()
        .clone();
    cell.get_or_init(|| {
        let config = cpu::Config {
            procs: case.procs,
            order: cpu::Order::Forward,
            crcw: case.crcw_mode(),
            max_steps: 10_000_000,
        };
        match cpu::run(plan, config) {
            Ok(out) => Some(Expected::Output(out.stdout)),
            Err(_) => simulator_fault(case, checked),
        }
    })
    .clone()
}

/// The line the device schedule prints on stderr for each grid region it runs on every block,
/// where the source defines `FK_EMU_GRID_TASKS` (fk_schedule.cuh, fk_run_grid_task): `fk-grid-task
/// PC: block B of K, team T: members F to E of N, S threads`, one a block.
const GRID_TASK_LINE: &str = "fk-grid-task";

/// What is wrong with the shape a `GRID_TASK_LINE` reports (fk_g_shape), if anything: every
/// block takes members, no more than its team has threads, in range; and where the teams hold
/// a thread for every member, every member has its own (a second member of a thread doubles
/// the time of every barrier of the region).
fn grid_shape_fault(line: &str) -> Option<String> {
    let numbers: Vec<i64> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().expect("a number"))
        .collect();
    let &[_pc, _block, blocks, team, first, end, members, threads] = numbers.as_slice() else {
        return Some("not a shape".to_string());
    };
    let width = end - first;
    if width < 1 || width > team || end > members {
        return Some(format!("{width} members from {first}"));
    }
    (members <= blocks * team && threads < members)
        .then(|| format!("{threads} threads take {members} members"))
}

/// The line the device schedule prints on stderr for each long kernel its kernel warp runs,
/// where the source defines `FK_EMU_HANDED` (fk_schedule.cuh, fk_run_kernel_warp).
const HANDED_LINE: &str = "fk-handed";

/// The line the device schedule prints on stderr for each gang it tries to form, where the
/// source defines `FK_EMU_GANGS` (fk_schedule.cuh, fk_r_gang_form): `fk-gang LOOP of N
/// members: T teams`, T 0 where none formed.
const GANG_LINE: &str = "fk-gang";

/// What `build_and_run` found: the differing cases, and how many runs printed each line of
/// evidence.
struct Ran {
    differing: Vec<String>,
    grid_runs: usize,
    handed_runs: usize,
    /// Runs that tried to form a gang: the same on every machine, since it depends only on
    /// the sizes of the program's loop groups.
    gang_tries: usize,
    /// Runs that formed a gang of two or more teams: fewer on a loaded machine, where the
    /// blocks a leader claims are not all idle, or do not all join in time.
    gang_runs: usize,
}

/// Compiles `build` in `dir` as program `index` and runs its cases (`Ran`).
fn build_and_run(dir: &Path, emu: &Path, index: usize, build: &Build) -> Ran {
    let cpp = dir.join(format!("p{index}.cpp"));
    let bin = dir.join(format!("p{index}"));
    let (prelude, rest) = build.source.split_at(prelude_len(&build.source));
    // precompile_preludes made the header of every prelude.
    let text = if prelude.is_empty() {
        build.source.clone()
    } else {
        format!("#include \"{}\"\n{rest}", prelude_name(prelude))
    };
    std::fs::write(&cpp, text).expect("write the source");
    let built = gxx(emu, &cpp, &bin, &[]);
    let name = &build.runs[0].0;
    assert!(
        built.status.success(),
        "{name}: g++ failed:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut differing = Vec::new();
    let (mut grid_runs, mut handed_runs, mut gang_tries, mut gang_runs) = (0, 0, 0, 0);
    for (name, procs, crcw, expected) in &build.runs {
        // Generous: both schedules' builds and runs share a small machine.
        let out = emulated_run(&bin, 600, &["-p", &procs.to_string(), "--crcw", crcw]);
        let all_stderr = String::from_utf8_lossy(&out.stderr);
        let stderr: String = all_stderr
            .lines()
            .filter(|l| {
                ![GRID_TASK_LINE, HANDED_LINE, GANG_LINE]
                    .iter()
                    .any(|e| l.starts_with(e))
            })
            .map(|l| format!("{l}\n"))
            .collect();
        grid_runs += usize::from(all_stderr.lines().any(|l| l.starts_with(GRID_TASK_LINE)));
        for line in all_stderr.lines().filter(|l| l.starts_with(GRID_TASK_LINE)) {
            if let Some(fault) = grid_shape_fault(line) {
                differing.push(format!("{name} -p {procs}: {fault}: {line}"));
            }
        }
        handed_runs += usize::from(all_stderr.lines().any(|l| l.starts_with(HANDED_LINE)));
        gang_tries += usize::from(all_stderr.lines().any(|l| l.starts_with(GANG_LINE)));
        gang_runs += usize::from(
            all_stderr
                .lines()
                .any(|l| l.starts_with(GANG_LINE) && !l.ends_with(": 0 teams")),
        );
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
            // Say how it ended: an empty stderr alone did not tell a timeout (exit 124, on a
            // machine loaded by other builds) from a crash or a wrong output.
            let ended = match out.status.code() {
                Some(124) => "timed out after 600 s".to_string(),
                Some(code) => format!("exit {code}"),
                None => "killed by a signal".to_string(),
            };
            let stdout: String = String::from_utf8_lossy(&out.stdout)
                .lines()
                .take(40)
                .map(|l| format!("{l}\n"))
                .collect();
            differing.push(format!(
                "{name} -p {procs} ({ended}): {stderr}{wanted}\nstdout (first 40 lines):\n{stdout}"
            ));
        }
    }
    Ran {
        differing,
        grid_runs,
        handed_runs,
        gang_tries,
        gang_runs,
    }
}

/// The `.cu` of `forkcc build --emit cuda` (with the `--crcw common` write logs, which a
/// program without conflicts must pass) for g++ and the CUDA stand-in.
fn emulated_source(
    checked: &fork_frontend::Checked,
    plan: &transform::plan::Plan,
    schedule: Schedule,
    name: &str,
) -> String {
    let source =
        pram_runtime::cuda::standalone_source_with(plan, &checked.sources, emulated(schedule))
            .unwrap_or_else(|e| panic!("{name}: {}", e.message));
    format!("#include \"fk_emu.h\"\n{}", emulated_launches(&source))
}

/// The emitter's options for [`emulated_source`].
fn emulated(schedule: Schedule) -> EmitOptions {
    EmitOptions {
        schedule,
        check_common: true,
        ..EmitOptions::default()
    }
}

/// The C variable of each ABI struct that points to arrays: the descriptor the `.cu` fills
/// (None: a struct of pointers into arrays, not to allocations of their own), and whether
/// only the device schedule has it.
const DESCRIPTORS: &[(&str, Option<&str>, bool)] = &[
    ("FkMachine", Some("fk_m"), false),
    ("FkLimits", Some("fk_limits"), false),
    ("FkCommon", Some("fk_common"), false),
    ("FkDevice", Some("fk_d"), true),
    ("FkSlotStacks", Some("fk_slot_stacks"), true),
    ("FkTrace", Some("fk_t"), false),
    ("FkRange", None, false),
];

/// C++ that prints, at exit, `fk-array Struct.field BYTES` for every array field of the ABI's
/// descriptors that points to an allocation (fk_emu.h records them; null: not allocated).
fn array_report() -> String {
    use transform::emit_cuda::abi::STRUCTS;
    let mut report = String::from(
        "static void fk_emu_report(const char *field, const void *p) {\n\
         \x20   if (!p) return;\n\
         \x20   auto a = fk_emu_allocations().find(p);\n\
         \x20   fprintf(stderr, \"fk-array %s %llu\\n\", field,\n\
         \x20           a == fk_emu_allocations().end() ? ~0ull : a->second);\n\
         }\n\
         static void fk_emu_arrays() {\n",
    );
    for s in STRUCTS {
        let pointers: Vec<&str> = s
            .fields
            .iter()
            .filter(|f| f.pointer)
            .map(|f| f.name)
            .collect();
        if pointers.is_empty() {
            continue;
        }
        let &(_, var, device_only) = DESCRIPTORS
            .iter()
            .find(|(name, ..)| *name == s.name)
            .unwrap_or_else(|| panic!("{} points to arrays: add it to DESCRIPTORS", s.name));
        let Some(var) = var else { continue };
        if device_only {
            report.push_str("#ifdef FK_SCHEDULE_DEVICE\n");
        }
        for field in pointers {
            report.push_str(&format!(
                "    fk_emu_report(\"{}.{field}\", {var}.{field});\n",
                s.name
            ));
        }
        if device_only {
            report.push_str("#endif\n");
        }
    }
    report.push_str("}\nstatic int fk_emu_arrays_at_exit = atexit(fk_emu_arrays);\n");
    report
}

/// The standalone `.cu` allocates each array of its descriptors (FkMachine, FkCommon,
/// FkDevice, ...) with the bytes the GPU driver's arena gives it, under both schedules and
/// for several P: both take the element sizes from `transform::emit_cuda::abi` (and the
/// counts from its constants), and this fails when one side is changed alone.
fn the_cu_allocates_the_arrays_of_the_drivers_arena() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = "classroom-examples/groups.fork";
    let checked = fork_frontend::check_file(&common::root().join(file), &Default::default())
        .unwrap_or_else(|_| panic!("{file} checks"));
    let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
    for schedule in [Schedule::Host, Schedule::Device] {
        let source = emulated_source(&checked, &plan, schedule, file) + &array_report();
        let cpp = dir.path().join(format!("arrays{schedule:?}.cpp"));
        let bin = cpp.with_extension("");
        std::fs::write(&cpp, source).expect("write the source");
        let built = gxx(&emu, &cpp, &bin, &[]);
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
        let emitted = transform::emit_cuda::emit_with(&plan, &checked.sources, emulated(schedule))
            .unwrap_or_else(|e| panic!("{file}: {}", e.message));
        for procs in [1u64, 5, 300] {
            let out = emulated_run(&bin, 300, &["-p", &procs.to_string(), "--crcw", "common"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{file} -p {procs}: {stderr}");
            let cu: Vec<(String, u64)> = stderr
                .lines()
                .filter_map(|l| l.strip_prefix("fk-array "))
                .map(|l| {
                    let (field, bytes) = l.split_once(' ').expect("a field and its bytes");
                    (field.to_string(), bytes.parse().expect("bytes"))
                })
                .collect();
            let arena: Vec<(String, u64)> = pram_runtime::gpu::arena_arrays(&plan, &emitted, procs)
                .into_iter()
                // `fk_device_alloc` allocates 8 bytes for an empty array.
                .map(|(field, bytes)| (field.to_string(), if bytes == 0 { 8 } else { bytes }))
                .collect();
            assert!(cu.len() > 20, "{schedule:?} -p {procs}: only {cu:?}");
            let only = |a: &[(String, u64)], b: &[(String, u64)]| -> Vec<(String, u64)> {
                a.iter().filter(|x| !b.contains(x)).cloned().collect()
            };
            let (cu_only, arena_only) = (only(&cu, &arena), only(&arena, &cu));
            assert!(
                cu_only.is_empty() && arena_only.is_empty(),
                "{schedule:?} -p {procs}: the .cu allocates {cu_only:?}, the arena {arena_only:?}"
            );
        }
    }
}

/// The device schedule's block regions with more members than the block has threads, as the
/// GPU's sieve at P = 1024 runs on a block of 512: FK_REGION_TASK_MAX 256 over the 64
/// emulated threads, so thread t runs members t, t + 64, ... The sieve runs all of its
/// groups in block regions (its whole run after the root group's call, but main's last
/// `seq`, which follows main's grid region): the timestamps of every group instance but the
/// root's, the call's and that `seq`'s say so.
fn device_schedule_regions_with_more_members_than_threads_run_like_the_cpu_plan_executor() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let root = common::root();
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut wrong = Vec::new();
    for (file, procs, n) in [
        ("classroom-examples/sieve.fork", 200usize, 1000),
        ("classroom-examples/prefix_hillis_steele.fork", 150, 300),
        ("classroom-examples/odd_even_sort.fork", 100, 100),
        // Its partition loop runs in chunks of the team in its groups above 32 members.
        ("classroom-examples/quicksort_balanced.fork", 200, 3000),
    ] {
        let options = fork_frontend::Options {
            defines: vec![("N".to_string(), n.to_string())],
        };
        let checked = fork_frontend::check_file(&root.join(file), &options)
            .unwrap_or_else(|_| panic!("{file} checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let expected = cpu::run(
            &plan,
            cpu::Config {
                procs,
                order: cpu::Order::Forward,
                crcw: Default::default(),
                max_steps: 10_000_000,
            },
        )
        .unwrap_or_else(|_| panic!("{file} runs on the CPU executor"))
        .stdout;
        let source = emulated_source(&checked, &plan, Schedule::Device, file);
        let cpp = dir.path().join("t.cpp");
        let bin = dir.path().join("t");
        std::fs::write(&cpp, source).expect("write the source");
        let built = gxx(
            &emu,
            &cpp,
            &bin,
            &["-DFK_REGION_TASK_MAX=256", "-DFK_TIMESTAMPS=4096"],
        );
        assert!(built.status.success(), "{file}: g++ failed");
        let out = emulated_run(&bin, 300, &["-p", &procs.to_string()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() || out.stdout != expected {
            wrong.push(format!(
                "{file} -p {procs}: {}{stderr}",
                String::from_utf8_lossy(&out.stdout)
            ));
        }
        if file.ends_with("sieve.fork") {
            let outside = timestamp_records(&stderr)
                .iter()
                .filter(|r| r.launch == 0)
                .count();
            if outside != 3 {
                wrong.push(format!(
                    "{file}: {outside} group instances formed outside block regions: {stderr:.60}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Runs of tests/semantics programs that the simulator stops (`forkcc sim` with the same
/// flags): the program, the run's flags, and what the `.cu` must report on stderr: the
/// simulator's code and location, and more of the message.
const STOPPED: &[(&str, &[&str], &[&str])] = &[
    // A loop of group steps: in a block region (P = 2), of launches (P = 100 > 64 members).
    (
        "fault_step_limit.fork",
        &["-p", "2", "--max-steps", "1000"],
        &[
            "error[R0006]",
            "fault_step_limit.fork:11:5",
            "more than 1000 iterations",
        ],
    ),
    (
        "fault_step_limit.fork",
        &["-p", "100", "--max-steps", "300"],
        &[
            "error[R0006]",
            "fault_step_limit.fork:11:5",
            "on processor 0",
        ],
    ),
    (
        "fault_step_limit.fork",
        &["-p", "2", "--timeout", "1"],
        &[
            "error[R0006]",
            "fault_step_limit.fork:11:5",
            "time limit of 1 s",
        ],
    ),
    // In a grid region of 70 processors, which the device schedule runs on every block's team
    // (its group holds every processor, fk_runs_grid): the limits stop it as any other.
    (
        "grid_region_step_limit.fork",
        &["-p", "70", "--max-steps", "2006"],
        &["error[R0006]", "grid_region_step_limit.fork:17:5"],
    ),
    (
        "grid_region_step_limit.fork",
        &["-p", "70", "--timeout", "1"],
        &[
            "error[R0006]",
            "grid_region_step_limit.fork:17:5",
            "time limit of 1 s",
        ],
    ),
    (
        "fault_step_limit_in_kernel.fork",
        &["-p", "4", "--max-steps", "5000"],
        &["error[R0006]", "fault_step_limit_in_kernel.fork:12:5"],
    ),
    (
        "fault_crcw_common_conflict.fork",
        &["-p", "3"],
        &[
            "error[R0004]",
            "fault_crcw_common_conflict.fork:16:5",
            "processors 0 and 1 wrote 0 and 1 into one cell in one step, by processor 0",
        ],
    ),
    (
        "fault_crcw_common_conflict.fork",
        &["-p", "100"],
        &["error[R0004]", "processors 0 and 1 wrote 0 and 1"],
    ),
    (
        "fault_recursion_depth.fork",
        &["-p", "2"],
        &[
            "error[R0008]",
            "fault_recursion_depth.fork:11:12",
            "on processor 0",
        ],
    ),
];

/// The `.cu` of both schedules stops each `STOPPED` run with an error: exit status 1, the
/// simulator's code and location on stderr; stdout is what the simulator prints before (here:
/// the lines of earlier steps; none after the fault). It refuses a `-p` outside 1 to
/// `FK_PROC_MAX` (the CLI's range) with exit status 2.
fn the_cu_stops_hangs_conflicts_and_deep_recursion_where_the_simulator_does() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut wrong = Vec::new();
    for schedule in [Schedule::Host, Schedule::Device] {
        let mut built: std::collections::HashMap<&str, std::path::PathBuf> = Default::default();
        for (file, args, expected) in STOPPED {
            let bin = match built.get(file) {
                Some(bin) => bin.clone(),
                None => {
                    let path = common::root().join("tests/semantics").join(file);
                    let checked = fork_frontend::check_file(&path, &Default::default())
                        .unwrap_or_else(|_| panic!("{file} checks"));
                    let plan = transform::transform(&checked.program)
                        .unwrap_or_else(|_| panic!("{file} transforms"));
                    let source = emulated_source(&checked, &plan, schedule, file);
                    let bin = dir.path().join(format!("{file}.{schedule:?}"));
                    let cpp = bin.with_extension("cpp");
                    std::fs::write(&cpp, source).expect("write the source");
                    let out = gxx(&emu, &cpp, &bin, &[]);
                    assert!(out.status.success(), "{file}: g++ failed");
                    built.insert(file, bin.clone());
                    bin
                }
            };
            let out = Command::new("timeout")
                .arg("300")
                .arg(&bin)
                .args(*args)
                .output()
                .expect("the program runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            let stdout: String = String::from_utf8_lossy(&out.stdout)
                .lines()
                .take(40)
                .map(|l| format!("{l}\n"))
                .collect();
            if out.status.code() != Some(1)
                || !expected.iter().all(|e| stderr.contains(e))
                || stdout.contains("never printed")
            {
                wrong.push(format!("{schedule:?} {file} {args:?}: {stdout}{stderr}"));
            }
        }
        let max = transform::emit_cuda::abi::FK_PROC_MAX as i64;
        let bin = built.values().next().expect("a program was built");
        for p in [0, max + 1] {
            let out = Command::new(bin)
                .args(["-p", &p.to_string()])
                .output()
                .expect("the program runs");
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() != Some(2)
                || !stderr.contains(&format!("P must be a number from 1 to {max}"))
            {
                wrong.push(format!("{schedule:?} -p {p}: {stderr}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A run whose printf records outgrow their buffer and that then faults: the output misses
/// lines, so the `.cu` of both schedules says so first (exit status 1) and not the fault,
/// whose output before it would not be whole. grid_region_fault.fork at P = 70 prints 280
/// lines before its fault: with `FK_OUT_BYTES` at 2 KiB they overflow, with the default
/// the fault is reported. (An H200 run at P = 2^20 printed a quarter of the lines and
/// reported the fault alone, session 46.)
fn the_cu_says_its_output_overflowed_before_reporting_a_fault() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let file = "grid_region_fault.fork";
    let path = common::root().join("tests/semantics").join(file);
    let checked = fork_frontend::check_file(&path, &Default::default())
        .unwrap_or_else(|_| panic!("{file} checks"));
    let plan =
        transform::transform(&checked.program).unwrap_or_else(|_| panic!("{file} transforms"));
    let mut wrong = Vec::new();
    for schedule in [Schedule::Host, Schedule::Device] {
        let cpp = dir.path().join(format!("{schedule:?}.cpp"));
        std::fs::write(&cpp, emulated_source(&checked, &plan, schedule, file))
            .expect("write the source");
        for (flags, overflows) in [(&["-DFK_OUT_BYTES=2048"][..], true), (&[][..], false)] {
            let bin = dir.path().join(format!("{schedule:?}{}", flags.len()));
            let built = gxx(&emu, &cpp, &bin, flags);
            assert!(built.status.success(), "{file}: g++ failed");
            let out = emulated_run(&bin, 300, &["-p", "70"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let said = if overflows {
                stderr.contains("overflowed the 2048-byte buffer, so the output misses lines")
                    && stderr.contains("also stopped at a fault or a limit")
                    && !stderr.contains("R0001")
            } else {
                !stderr.contains("overflowed") && stderr.contains("error[R0001]")
            };
            if out.status.code() != Some(1) || !said {
                wrong.push(format!("{schedule:?} {flags:?}: {stderr}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

fn the_standalone_cu_runs_like_the_cpu_plan_executor() {
    emulated_runs_agree(Schedule::Host, Variant::Checked);
}

/// The device schedule's persistent kernel runs on one emulated block of 96 fibers (a runner
/// warp, the kernel warp and a team of 32), processors virtualised over the runner warp when
/// P > 32 (the block then has no kernel warp, and a team of 64, on whose first warp a group
/// of at most 32 members runs narrow: the cases at P = 64 of reduce_fork.fork and
/// quicksort_balanced.fork, whose partition loops and multiprefixes run there).
fn the_device_schedule_cu_runs_like_the_cpu_plan_executor() {
    emulated_runs_agree(Schedule::Device, Variant::Checked);
}

/// The device schedule's grid regions on every block's team (`fk_run_grid_task`), which the
/// GPU runs for a group of every processor with a member for each block: the corpus's cases
/// of more than 4 processors whose programs have a grid region (`-DFK_EMU_GRID_TASKS` says on
/// stderr where one ran; at least 10 cases must), with block regions up to 4 members
/// (`FK_REGION_TASK_MAX`) and every decision of a grid region taken over its group
/// (`FK_GRID_GROUP_DECISIONS`: the path of a group with a member that is not active at the
/// region's start, which no program reaches).
fn the_device_schedule_cu_runs_grid_regions_on_every_block_like_the_cpu_plan_executor() {
    let ran = emulated_runs_agree(Schedule::Device, Variant::GridTasksPast(4)).grid_runs;
    assert!(
        ran >= 10,
        "only {ran} runs ran a grid region on every block"
    );
}

/// The persistent kernel on two blocks, each an OS thread with its own fibers and `__shared__`
/// variables (`FK_EMU_BLOCKS`): region tasks posted to the other block, the grid barrier of a
/// grid region run by both blocks' teams (at least 3 runs must, `-DFK_EMU_GRID_TASKS`), a
/// kernel warp in each block. The classroom examples' cases (their runs above 32 processors
/// have members in both blocks); the whole corpus on two blocks took 11 minutes here.
fn the_device_schedule_cu_runs_on_two_blocks_like_the_cpu_plan_executor() {
    let ran = emulated_runs_agree(Schedule::Device, Variant::Blocks(2)).grid_runs;
    assert!(ran >= 3, "only {ran} runs ran a grid region on both blocks");
}

/// Owned loops of groups larger than a team on gangs of teams of several blocks
/// (fk_device.cuh, "gangs"): every case of a program with an owned loop, on 4 blocks, a team
/// owning at most 2 members (`FK_OWN_TEAM_MAX`), so that a loop group of 3 to 8 members runs
/// on 2 to 4 teams where enough blocks are idle, and on one team otherwise. At least 20 runs
/// must try to form one (`-DFK_EMU_GANGS`); 38 do. Whether a try forms a gang depends on
/// which blocks are idle, and join in time, when the leader claims them, so on the machine's
/// load: 28 of the 38 did on a 2-core machine running this test alone, 19 in a CI run beside
/// the other tests. At least 8 must; a run that forms none still must print what the
/// simulator prints.
fn the_device_schedule_cu_runs_owned_loops_on_gangs_like_the_cpu_plan_executor() {
    let ran = emulated_runs_agree(Schedule::Device, Variant::Gangs(2));
    assert!(
        ran.gang_tries >= 20,
        "only {} runs tried to form a gang",
        ran.gang_tries
    );
    assert!(
        ran.gang_runs >= 8,
        "only {} runs formed a gang",
        ran.gang_runs
    );
}

/// Long kernels (a loop or a call in them) run on the block's kernel warp, not on their
/// processor's runner lane (fk_schedule.cuh, `fk_s_hand_over`): quicksort's leaves, copy
/// loops and input loop print what the CPU Plan executor prints, and a loop that reads past
/// an object or a freed block stops where the simulator does. `-DFK_EMU_HANDED` says on
/// stderr where the kernel warp ran one, and every case of at most 32 processors must (one
/// processor a runner lane; above 32 the block has no kernel warp).
fn the_device_schedule_runs_long_kernels_on_the_kernel_warp_like_the_cpu_plan_executor() {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let files = [
        "quicksort_balanced.fork",
        "quicksort.fork",
        "fault_in_loop_after_hits.fork",
    ];
    let mut builds = Vec::new();
    for case in common::cases(&["classroom-examples", "tests/semantics"]) {
        // Above 32 processors the stand-in's block has no kernel warp (quicksort_balanced's
        // case at P = 64).
        if !files.iter().any(|f| case.file.ends_with(f)) || case.procs > 32 {
            continue;
        }
        let name = case.file.display().to_string();
        let (checked, plan) = case.plan().expect("the case's program plans");
        let expected = reference(&case, &checked, &plan).expect("the simulator's fault");
        let source = emulated_source(&checked, &plan, Schedule::Device, &name);
        builds.push(Build {
            source: format!("#define FK_EMU_HANDED\n{source}"),
            runs: vec![(name, case.procs, case.crcw.clone(), expected)],
        });
    }
    assert!(builds.len() >= 8, "only {} cases", builds.len());
    precompile_preludes(dir.path(), &emu, &builds);
    let results = common::parallel_map(&builds, |index, build| {
        build_and_run(dir.path(), &emu, index, build)
    });
    let differing: Vec<String> = results.iter().flat_map(|r| r.differing.clone()).collect();
    assert!(differing.is_empty(), "differs: {differing:#?}");
    let handed: usize = results.iter().map(|r| r.handed_runs).sum();
    assert_eq!(
        handed,
        builds.len(),
        "runs that handed a kernel to the kernel warp"
    );
}

/// The `.cu` built without the checks (`-DFK_CHECKS=0`, as the sanitizer pass of
/// `scripts/gpu-verify.sh` builds it), under both schedules: the classroom examples' cases
/// that do not fault. (Session 21's first version of the regions' own-log check read a null
/// log there: its threads' `logged` was never set.)
fn the_unchecked_cu_of_the_classroom_examples_runs_like_the_cpu_plan_executor() {
    for schedule in [Schedule::Host, Schedule::Device] {
        emulated_runs_agree(schedule, Variant::Unchecked);
    }
}

/// Which builds `emulated_runs_agree` compares.
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    /// Every case of the corpus, with every check.
    Checked,
    /// Only the cases of more processors than this, of programs with a grid region, with
    /// `FK_REGION_TASK_MAX` at it and every grid region's decisions the group's.
    GridTasksPast(usize),
    /// The classroom examples' cases that do not fault, built with `FK_CHECKS` 0.
    Unchecked,
    /// The classroom examples' cases with the persistent kernel on this many blocks
    /// (`FK_EMU_BLOCKS`, an OS thread each).
    Blocks(usize),
    /// The cases of programs with an owned loop, on 4 blocks, with a team owning at most
    /// this many members (`FK_OWN_TEAM_MAX`), so that larger loop groups form gangs.
    Gangs(usize),
}

/// How many runs showed each line of evidence (`Ran`'s counts, summed over the builds).
struct Evidence {
    grid_runs: usize,
    gang_tries: usize,
    gang_runs: usize,
}

/// Every distinct program compiled once, the builds spread over the cores: g++ takes most of
/// this test's time. Returns how many runs ran a grid region on every block
/// (`Variant::GridTasksPast`, `Variant::Blocks`), tried to form a gang and formed one
/// (`Variant::Gangs`).
fn emulated_runs_agree(schedule: Schedule, variant: Variant) -> Evidence {
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut builds: Vec<Build> = Vec::new();
    let mut by_source: std::collections::HashMap<String, usize> = Default::default();
    let more = std::env::var("FORKCC_EMU_CORPUS").unwrap_or_default();
    let mut dirs = vec!["classroom-examples"];
    match variant {
        Variant::Unchecked | Variant::Blocks(_) => {}
        Variant::Gangs(_) => dirs.extend(["tests/semantics", "tests/cpu_plan"]),
        Variant::Checked | Variant::GridTasksPast(_) => {
            dirs.extend(["tests/semantics", "tests/cpu_plan", "tests/random"]);
            if !more.is_empty() {
                dirs.push(&more);
            }
        }
    }
    let grid_tasks_past = match variant {
        Variant::GridTasksPast(past) => Some(past),
        _ => None,
    };
    // The cases this variant runs, each with its emulated source; then what each must do,
    // computed over the cores.
    let mut candidates = Vec::new();
    for case in common::cases(&dirs) {
        if schedule == Schedule::Device && !case.device_schedule_agrees() {
            continue;
        }
        let name = case.file.display().to_string();
        let Some((checked, plan)) = case.plan() else {
            continue;
        };
        let has_grid = plan.host.code.iter().any(|i| {
            matches!(
                i,
                transform::host_program::Instr::Region {
                    kind: transform::plan::RegionKind::Grid,
                    ..
                }
            )
        });
        if grid_tasks_past.is_some_and(|past| case.procs <= past || !has_grid) {
            continue;
        }
        let mut source = emulated_source(&checked, &plan, schedule, &name);
        if variant == Variant::Unchecked {
            source = format!("#define FK_CHECKS 0\n{source}");
        }
        if let Some(past) = grid_tasks_past {
            source =
                format!("#define FK_REGION_TASK_MAX {past}\n#define FK_GRID_GROUP_DECISIONS 1\n#define FK_EMU_GRID_TASKS\n{source}");
        }
        if let Variant::Blocks(blocks) = variant {
            source = format!("#define FK_EMU_BLOCKS {blocks}\n#define FK_EMU_GRID_TASKS\n{source}");
        }
        if let Variant::Gangs(own) = variant {
            if !source.contains("FK_R_GANG(") {
                continue;
            }
            source = format!(
                "#define FK_EMU_BLOCKS 4\n#define FK_OWN_TEAM_MAX {own}\n#define FK_EMU_GANGS\n{source}"
            );
        }
        candidates.push((case, checked, plan, source));
    }
    let references = common::parallel_map(&candidates, |_, (case, checked, plan, _)| {
        reference(case, checked, plan)
    });
    for ((case, _, _, source), expected) in candidates.into_iter().zip(references) {
        // Faults the GPU does not check and access-model checks are the simulator's and
        // gpu-verify's; the unchecked build checks nothing.
        let expected = match expected {
            Some(Expected::Fault { .. }) if variant == Variant::Unchecked => continue,
            Some(expected) => expected,
            None => continue,
        };
        let run = (
            case.file.display().to_string(),
            case.procs,
            case.crcw.clone(),
            expected,
        );
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
    let least = match variant {
        Variant::Checked | Variant::Blocks(_) | Variant::Gangs(_) => 40,
        Variant::GridTasksPast(_) | Variant::Unchecked => 10,
    };
    assert!(compared >= least, "only {compared} cases ran");
    precompile_preludes(dir.path(), &emu, &builds);
    let results = common::parallel_map(&builds, |index, build| {
        build_and_run(dir.path(), &emu, index, build)
    });
    let evidence = Evidence {
        grid_runs: results.iter().map(|r| r.grid_runs).sum(),
        gang_tries: results.iter().map(|r| r.gang_tries).sum(),
        gang_runs: results.iter().map(|r| r.gang_runs).sum(),
    };
    let mut differing: Vec<String> = results.into_iter().flat_map(|r| r.differing).collect();
    differing.sort();
    assert!(differing.is_empty(), "differs: {differing:#?}");
    evidence
}

/// Bytes of `source` before the program's own code: the stand-in and the runtime library's
/// device part, the same text for every program of one schedule.
fn prelude_len(source: &str) -> usize {
    source.find("// ---- program:").unwrap_or(0)
}

/// The header file of a prelude, named by its text's hash (a build whose prelude differs gets
/// its own, or none).
fn prelude_name(prelude: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    prelude.hash(&mut h);
    format!("prelude-{:016x}.h", h.finish())
}

/// g++ parses the stand-in and the library's device part once per distinct prelude, into a
/// precompiled header that each build includes first: a third of each build's time.
fn precompile_preludes(dir: &Path, emu: &Path, builds: &[Build]) {
    let preludes: std::collections::BTreeSet<&str> = builds
        .iter()
        .map(|b| &b.source[..prelude_len(&b.source)])
        .filter(|p| !p.is_empty())
        .collect();
    for prelude in preludes {
        let header = dir.join(prelude_name(prelude));
        std::fs::write(&header, prelude).expect("write the prelude");
        let mut gch = header.clone().into_os_string();
        gch.push(".gch");
        let built = gxx(emu, &header, Path::new(&gch), &["-x", "c++-header"]);
        assert!(
            built.status.success(),
            "the prelude does not compile:\n{}",
            String::from_utf8_lossy(&built.stderr)
        );
    }
}

/// A program of the repository checked with `-D` `defines`, and its Plan.
fn checked_plan(
    file: &str,
    defines: &[(&str, u32)],
) -> (fork_frontend::Checked, transform::plan::Plan) {
    let options = fork_frontend::Options {
        defines: defines
            .iter()
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect(),
    };
    let checked = fork_frontend::check_file(&common::root().join(file), &options)
        .unwrap_or_else(|_| panic!("{file} checks"));
    let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
    (checked, plan)
}

/// The device schedule's timestamps of a run of `plan` on `procs` processors
/// (`-DFK_TIMESTAMPS`, the `%globaltimer` stand-in of fk_emu.h; a group of `task_min` to
/// FK_REGION_MAX members runs a block region on a block), decoded as the GPU driver decodes
/// them; every group instance lies inside its parent's time.
fn device_timeline(
    dir: &Path,
    file: &str,
    (checked, plan): &(fork_frontend::Checked, transform::plan::Plan),
    procs: u32,
    task_min: u32,
) -> pram_runtime::gpu::timeline::Timeline {
    use pram_runtime::gpu::timeline::decode_device;
    let emu = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/emu");
    let options = EmitOptions {
        schedule: Schedule::Device,
        ..EmitOptions::default()
    };
    let source = pram_runtime::cuda::standalone_source_with(plan, &checked.sources, options)
        .unwrap_or_else(|e| panic!("{file}: {}", e.message));
    let source = format!("#include \"fk_emu.h\"\n{}", emulated_launches(&source));
    let cpp = dir.join("t.cpp");
    let bin = dir.join("t");
    std::fs::write(&cpp, source).expect("write the source");
    let task_min = format!("-DFK_REGION_TASK_MIN={task_min}");
    let built = gxx(&emu, &cpp, &bin, &["-DFK_TIMESTAMPS=65536", &task_min]);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = emulated_run(&bin, 600, &["-p", &procs.to_string()]);
    assert!(
        out.status.success(),
        "{file}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (formed, bytes) = timestamps(&stderr);
    let timeline = decode_device(&bytes, formed);
    assert_eq!(timeline.dropped, 0);
    let instances = &timeline.instances;
    assert_eq!(instances[0].size, procs, "{file}: the root group");
    for (id, i) in instances.iter().enumerate().skip(1) {
        let p = &instances[i
            .parent
            .unwrap_or_else(|| panic!("{file}: {id} has no parent"))];
        assert!(
            p.begin <= i.begin && i.begin <= i.end && i.end <= p.end,
            "{file}: instance {id} {i:?} is not inside its parent {p:?}"
        );
    }
    timeline
}

/// The `fk-timestamps FORMED HEX` line of a run's stderr (`-DFK_TIMESTAMPS`): the number of
/// group instances formed and the bytes of their records.
fn timestamps(stderr: &str) -> (u64, Vec<u8>) {
    let line = stderr
        .lines()
        .find_map(|l| l.strip_prefix("fk-timestamps "))
        .unwrap_or_else(|| panic!("no timestamps in {stderr:.200}"));
    let (formed, hex) = line.split_once(' ').expect("count and bytes");
    let bytes = (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    (formed.parse().expect("a count"), bytes)
}

/// The records of [`timestamps`].
fn timestamp_records(stderr: &str) -> Vec<transform::emit_cuda::abi::FkTraceRec> {
    use transform::emit_cuda::abi::FkTraceRec;
    let (formed, bytes) = timestamps(stderr);
    let size = FkTraceRec::BYTES as usize;
    assert_eq!(
        bytes.len() as u64,
        formed * size as u64,
        "every record kept"
    );
    bytes.chunks(size).map(FkTraceRec::from_bytes).collect()
}

/// The simulator's trace of a run of `checked` on `procs` processors.
fn simulator_trace(checked: &fork_frontend::Checked, procs: u32, title: &str) -> pram_trace::Trace {
    pram_sim::run_traced(
        &checked.program,
        &pram_sim::Config {
            procs,
            ..pram_sim::Config::default()
        },
        &pram_sim::TraceOptions {
            title,
            limit: 20_000,
            sources: &checked.sources,
        },
    )
    .trace
    .expect("a trace")
}

/// `-DFK_REGION_TASK_MIN` above every group: no group runs a block region on a block, the
/// regions' instructions run one by one.
const NO_REGION_TASKS: u32 = 1 << 30;

/// The timestamp tests run each program with block regions on a block (the GPU's
/// FK_REGION_TASK_MIN) and without.
const TASK_MINS: [u32; 2] = [
    transform::emit_cuda::abi::FK_REGION_TASK_MIN,
    NO_REGION_TASKS,
];

/// The device schedule's trace of `file` on `procs` processors (regions on a block from
/// `task_min` members) and the simulator's, with the program and its Plan.
fn gpu_and_simulator_traces(
    dir: &Path,
    file: &str,
    procs: u32,
    defines: &[(&str, u32)],
    task_min: u32,
) -> (
    fork_frontend::Checked,
    transform::plan::Plan,
    pram_trace::Trace,
    pram_trace::Trace,
) {
    let program = checked_plan(file, defines);
    let timeline = device_timeline(dir, file, &program, procs, task_min);
    let (checked, plan) = program;
    let title = format!("{file} -p {procs} (FK_REGION_TASK_MIN {task_min})");
    let trace = timeline.trace(&plan, &checked.sources, &title, 20_000, None);
    let sim_trace = simulator_trace(&checked, procs, &title);
    (checked, plan, trace, sim_trace)
}

/// The device schedule's timestamps (with block regions on blocks, as on the GPU, and
/// without): each Fork function called as often as the simulator calls it, the `fork`
/// subgroups the simulator's (by `@` and size), its `seq` instances, and a trace that nests.
fn device_schedule_timestamps_count_the_simulators_calls_and_forks() {
    use pram_trace::Construct;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        ("classroom-examples/quicksort.fork", 8u32, 200),
        ("classroom-examples/groups.fork", 4, 0),
        ("classroom-examples/prefix_hillis_steele.fork", 5, 13),
    ];
    for ((file, procs, n), task_min) in cases.into_iter().flat_map(|c| TASK_MINS.map(|t| (c, t))) {
        let defines: &[(&str, u32)] = if n > 0 { &[("N", n)] } else { &[] };
        let program = checked_plan(file, defines);
        let timeline = device_timeline(dir.path(), file, &program, procs, task_min);
        let (checked, plan) = program;

        let sim = pram_sim::run(
            &checked.program,
            &pram_sim::Config {
                procs,
                ..pram_sim::Config::default()
            },
        );
        let functions = timeline.functions(&plan);
        // A `straight` function that needs lockstep is a host function when a group calls it,
        // and a device function (not timestamped) when a group of one or async code does
        // (quicksort's `swap`, from `seq_quicksort`): only `sync` functions compare.
        let sync_functions = plan
            .functions
            .iter()
            .filter(|f| checked.program.func(f.func).kind == fork_frontend::hir::FnKind::Sync);
        for f in sync_functions {
            let sim_calls = sim
                .stats
                .functions
                .iter()
                .find(|s| s.name == f.name)
                .map_or(0, |s| s.calls);
            let gpu_calls = functions
                .iter()
                .find(|t| t.name == f.name)
                .map_or(0, |t| t.calls);
            assert_eq!(gpu_calls, sim_calls, "{file}: calls of {}", f.name);
        }

        let title = format!("{file} -p {procs}");
        let trace = timeline.trace(&plan, &checked.sources, &title, 20_000, None);
        let sim_trace = simulator_trace(&checked, procs, &title);
        let forks = |t: &pram_trace::Trace| {
            let mut v: Vec<(i64, u32, String)> = t
                .groups
                .iter()
                .filter(|g| g.construct == Construct::Fork)
                .map(|g| (g.at, g.size, g.site.clone()))
                .collect();
            v.sort();
            v
        };
        assert_eq!(forks(&trace), forks(&sim_trace), "{file}: fork subgroups");
        let seqs = |t: &pram_trace::Trace| {
            t.groups
                .iter()
                .filter(|g| g.construct == Construct::Seq)
                .map(|g| (g.at, g.size, g.site.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(seqs(&trace), seqs(&sim_trace), "{file}: seq instances");
        // The calls the host program makes (those of `straight` and `async` functions run
        // inside kernels, and the GPU does not see them).
        let calls = |t: &pram_trace::Trace| {
            let mut v: Vec<String> = t
                .slices
                .iter()
                .filter_map(|s| match &s.kind {
                    pram_trace::SliceKind::Call { function }
                        if plan.functions.iter().any(|f| {
                            &f.name == function
                                && checked.program.func(f.func).kind
                                    == fork_frontend::hir::FnKind::Sync
                        }) =>
                    {
                        Some(function.clone())
                    }
                    _ => None,
                })
                .collect();
            v.sort();
            v
        };
        assert_eq!(calls(&trace), calls(&sim_trace), "{file}: call slices");
        let json: serde_json::Value =
            serde_json::from_str(&pram_trace::json::write(&trace)).expect("the trace is JSON");
        assert_eq!(
            json["otherData"]["time_unit"],
            "microsecond (GPU timestamps)"
        );
    }
}

/// The group instances of a trace with the construct and site of each and of its parent,
/// its `@` and size, in a canonical order: the tree as the simulator's trace and the GPU's
/// both describe it (the GPU's times and the order of concurrent siblings aside). Without
/// the groups inside a `seq`: the simulator runs its body as a group of one, whose `if`s and
/// loops form groups, and the GPU as one kernel, which forms none. Without the groups that
/// hold their whole parent (its size and `@`): a uniform condition forms such a group in
/// the simulator and none on the GPU (transform/src/rules/uniform.rs); a group's parent is
/// its nearest ancestor that is shown.
fn group_tree(t: &pram_trace::Trace) -> Vec<String> {
    let whole = |g: &pram_trace::Group| {
        g.parent
            .is_some_and(|p| t.groups[p].size == g.size && t.groups[p].at == g.at)
    };
    let shown_parent = |g: &pram_trace::Group| {
        let mut up = g.parent;
        while let Some(p) = up {
            if !whole(&t.groups[p]) {
                return Some(p);
            }
            up = t.groups[p].parent;
        }
        None
    };
    let in_seq = |g: &pram_trace::Group| {
        let mut up = g.parent;
        while let Some(p) = up {
            if t.groups[p].construct == pram_trace::Construct::Seq {
                return true;
            }
            up = t.groups[p].parent;
        }
        false
    };
    let mut v: Vec<String> = t
        .groups
        .iter()
        .filter(|g| !in_seq(g) && !whole(g))
        .map(|g| {
            let parent = shown_parent(g).map_or(String::from("-"), |p| {
                let p = &t.groups[p];
                format!("{} {}", p.construct.name(), p.site)
            });
            format!(
                "{} {} @{} size {} in {parent}",
                g.construct.name(),
                g.site,
                g.at,
                g.size
            )
        })
        .collect();
    v.sort();
    v
}

/// The GPU's trace has the simulator's group tree: per construct and site, the same group
/// instances with the same `@`, size and parent. Inside block regions (the device schedule's
/// FK_REGION_TASK_MIN, as on the GPU), where the regions record the instances they form
/// (`if` and `else` subgroups, loop groups, `seq`), and outside (`NO_REGION_TASKS`: the
/// same instructions one by one). Where an `if` or loop runs inside one kernel (`exact`
/// false: matmul's inner loop, quicksort's `seq_quicksort` called by a group of one, the `if`
/// in the order-free loops of crcw_max and of sieve's `main`, sieve's crossing-out, a strided
/// cyclic loop), or an `if` runs predicated (odd-even sort's, pack's, crcw_max's, quicksort's
/// partition),
/// the GPU forms no group for it and the simulator does: there each of the
/// GPU's instances is one of the simulator's, and there are at least `fewest` (sieve's: the
/// `k` loop's and the `seq`'s).
fn device_schedule_timestamps_give_the_simulators_group_tree() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        (
            "classroom-examples/sieve.fork",
            32u32,
            &[("N", 100)][..],
            false,
            2,
        ),
        // Their `if`s run predicated, without a split (docs/transformation-rules.md).
        (
            "classroom-examples/odd_even_sort.fork",
            8,
            &[("N", 20)][..],
            false,
            2,
        ),
        ("classroom-examples/groups.fork", 4, &[][..], true, 4),
        (
            "classroom-examples/pack.fork",
            8,
            &[("N", 40)][..],
            false,
            2,
        ),
        (
            "classroom-examples/crcw_max.fork",
            16,
            &[("N", 4)][..],
            false,
            3,
        ),
        (
            "classroom-examples/prefix_blelloch.fork",
            8,
            &[("N", 64)][..],
            true,
            4,
        ),
        // Its initialisation and its multiplication are cyclic loops, one kernel each
        // without a loop group: the call of `matmul` and the `seq` are the GPU's groups.
        (
            "classroom-examples/matmul.fork",
            20,
            &[("N", 4)][..],
            false,
            2,
        ),
        (
            "classroom-examples/quicksort.fork",
            8,
            &[("N", 100)][..],
            false,
            4,
        ),
    ];
    for ((file, procs, defines, exact, fewest), task_min) in
        cases.into_iter().flat_map(|c| TASK_MINS.map(|t| (c, t)))
    {
        let title = format!("{file} -p {procs} (FK_REGION_TASK_MIN {task_min})");
        let (_, _, trace, sim_trace) =
            gpu_and_simulator_traces(dir.path(), file, procs, defines, task_min);
        let (gpu, sim) = (group_tree(&trace), group_tree(&sim_trace));
        assert!(sim.len() > 3, "{title}: the simulator's trace has {sim:?}");
        let only = |a: &[String], b: &[String]| -> Vec<String> {
            let mut b = b.to_vec();
            a.iter()
                .filter(|x| match b.iter().position(|y| y == *x) {
                    Some(i) => {
                        b.remove(i);
                        false
                    }
                    None => true,
                })
                .cloned()
                .collect()
        };
        let missing = only(&gpu, &sim);
        assert!(
            if exact {
                gpu == sim
            } else {
                missing.is_empty() && gpu.len() >= fewest
            },
            "{title}: {} group instances on the GPU, {} in the simulator; only on \
             the GPU: {:#?}\nonly in the simulator: {:#?}",
            gpu.len(),
            sim.len(),
            missing,
            only(&sim, &gpu)
        );
    }
}

/// The asynchronous regions of a trace (`farm`, an `async` function a group calls, an
/// asynchronous `main`), each with its group (construct and site) and site, and the calls of
/// `async` functions; and its barriers with their group, site and processors. Sorted.
fn async_parts(t: &pram_trace::Trace, async_functions: &[String]) -> (Vec<String>, Vec<String>) {
    use pram_trace::{MarkKind, SliceKind};
    let group = |g: usize| format!("{} {}", t.groups[g].construct.name(), t.groups[g].site);
    let mut slices: Vec<String> = t
        .slices
        .iter()
        .filter_map(|s| match &s.kind {
            SliceKind::Async => Some(format!("async {} in {}", s.site, group(s.group))),
            SliceKind::Call { function } if async_functions.contains(function) => {
                Some(format!("call {function} {} in {}", s.site, group(s.group)))
            }
            _ => None,
        })
        .collect();
    slices.sort();
    let mut barriers: Vec<String> = t
        .marks
        .iter()
        .filter_map(|m| match (&m.kind, m.group) {
            (MarkKind::Barrier { processors }, Some(g)) => Some(format!(
                "barrier {} ({processors} processors) in {}",
                m.site,
                group(g)
            )),
            _ => None,
        })
        .collect();
    barriers.sort();
    (slices, barriers)
}

/// The device schedule's records of asynchronous regions and barriers (`--trace`) give the
/// simulator's: per group, the same asynchronous regions (`farm`, a call of an `async`
/// function, an asynchronous `main` around its `start`) with the call slices of `async`
/// functions, and the same barriers (one per meeting of a group's members, with their
/// number and the simulator's site; with barrier phases too: `async_divergent_barriers`).
fn device_schedule_timestamps_give_the_simulators_asynchronous_regions_and_barriers() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        ("tests/semantics/farm_barrier.fork", 4u32, &[][..]),
        ("tests/semantics/farm_in_subgroups.fork", 4, &[][..]),
        ("tests/semantics/farm_in_async_code.fork", 4, &[][..]),
        ("tests/semantics/async_call_from_sync.fork", 3, &[][..]),
        ("tests/semantics/async_call_in_expression.fork", 2, &[][..]),
        ("tests/semantics/async_output_order.fork", 3, &[][..]),
        (
            "tests/semantics/async_barrier_before_start.fork",
            3,
            &[][..],
        ),
        ("tests/semantics/async_divergent_barriers.fork", 4, &[][..]),
        (
            "tests/semantics/start_seq_in_function_under_condition.fork",
            4,
            &[][..],
        ),
        (
            "classroom-examples/farm_tasks.fork",
            8,
            &[("TASKS", 50)][..],
        ),
        ("classroom-examples/matmul.fork", 16, &[("N", 8)][..]),
    ];
    for ((file, procs, defines), task_min) in
        cases.into_iter().flat_map(|c| TASK_MINS.map(|t| (c, t)))
    {
        let title = format!("{file} -p {procs} (FK_REGION_TASK_MIN {task_min})");
        let (checked, _, trace, sim_trace) =
            gpu_and_simulator_traces(dir.path(), file, procs, defines, task_min);
        let async_functions: Vec<String> = checked
            .program
            .funcs
            .iter()
            .filter(|f| f.kind == fork_frontend::hir::FnKind::Async)
            .map(|f| f.name.clone())
            .collect();
        let (gpu_slices, gpu_barriers) = async_parts(&trace, &async_functions);
        let (sim_slices, sim_barriers) = async_parts(&sim_trace, &async_functions);
        assert!(!sim_slices.is_empty(), "{title}: no asynchronous region");
        assert_eq!(gpu_slices, sim_slices, "{title}: asynchronous regions");
        assert_eq!(gpu_barriers, sim_barriers, "{title}: barriers");
        // A `start` of an asynchronous `main` runs inside main's region, as in the
        // simulator's trace (async_barrier_before_start, farm_tasks).
        let starts_inside = |t: &pram_trace::Trace| -> Vec<bool> {
            t.groups
                .iter()
                .filter(|g| g.construct == pram_trace::Construct::Start)
                .map(|g| {
                    t.slices.iter().any(|s| {
                        Some(s.group) == g.parent
                            && s.kind == pram_trace::SliceKind::Async
                            && s.begin <= g.begin
                            && g.end <= s.end
                    })
                })
                .collect()
        };
        // (A `start` that barrier phases run is a one-way `fork` in the GPU's group tree.)
        let gpu_starts = starts_inside(&trace);
        assert!(
            gpu_starts.is_empty() || gpu_starts == starts_inside(&sim_trace),
            "{title}: `start`s inside the asynchronous region"
        );
        // Every asynchronous region lies in its group's time.
        for s in &trace.slices {
            let g = &trace.groups[s.group];
            assert!(
                g.begin <= s.begin && s.begin <= s.end && s.end <= g.end,
                "{title}: {s:?} outside its group {g:?}"
            );
        }
    }
}
