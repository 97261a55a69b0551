//! `forkcc run --backend gpu --trace FILE.json --stats` on a GPU, under both schedules: the
//! program prints what the simulator prints, `--stats` gives each Fork function's calls (as
//! many as the simulator's) and device time, and the trace follows the trace-event format in
//! microseconds with a call slice per call; the asynchronous regions and barriers are the
//! simulator's. Reported as ignored without a GPU.

mod trace_format;

use std::process::Command;

const FILE: &str = "classroom-examples/quicksort.fork";
const ALGORITHM: &str = "quicksort";

fn main() {
    let gpu = pram_runtime::gpu::available();
    let trial = |schedule: &'static str| {
        libtest_mimic::Trial::test(
            format!("gpu_trace_and_stats_{schedule}_schedule"),
            move || {
                gpu_trace_and_stats(schedule);
                Ok(())
            },
        )
        .with_kind("needs a GPU")
        .with_ignored_flag(!gpu)
    };
    let asynchronous = |schedule: &'static str| {
        libtest_mimic::Trial::test(
            format!("gpu_trace_asynchronous_regions_and_barriers_{schedule}_schedule"),
            move || {
                gpu_trace_asynchronous_regions_and_barriers(schedule);
                Ok(())
            },
        )
        .with_kind("needs a GPU")
        .with_ignored_flag(!gpu)
    };
    let trials = vec![
        trial("host"),
        trial("device"),
        asynchronous("host"),
        asynchronous("device"),
    ];
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}

fn gpu_trace_and_stats(schedule: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("t.json");
    let args = ["-p", "8", "-D", "N=100"];
    let run = Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args([
            "run",
            FILE,
            "--backend",
            "gpu",
            "--schedule",
            schedule,
            "--stats",
        ])
        .args(args)
        .arg("--trace")
        .arg(&out)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("forkcc runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");

    let options = fork_frontend::Options {
        defines: vec![("N".into(), "100".into())],
    };
    let checked = fork_frontend::check_file(std::path::Path::new(FILE), &options)
        .unwrap_or_else(|_| panic!("{FILE} checks"));
    let sim = pram_sim::run(
        &checked.program,
        &pram_sim::Config {
            procs: 8,
            ..pram_sim::Config::default()
        },
    );
    assert_eq!(
        run.stdout, sim.output,
        "the output differs from the simulator's"
    );
    let sim_calls = sim
        .stats
        .functions
        .iter()
        .find(|f| f.name == ALGORITHM)
        .map(|f| f.calls)
        .expect("the simulator calls the algorithm");

    // `  quicksort      15 calls       1.234 ms`
    let table = stderr
        .split_once("device time per function")
        .map(|(_, t)| t)
        .unwrap_or_else(|| panic!("no time per function in {stderr}"));
    let calls_of = |name: &str| -> u64 {
        let line = table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name} in {table}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        let ms: f64 = fields[3].parse().expect("milliseconds");
        assert!(ms > 0.0 && fields[4] == "ms", "{line}");
        fields[1].parse().expect("a count of calls")
    };
    assert_eq!(calls_of("main"), 1);
    assert_eq!(calls_of(ALGORITHM), sim_calls);

    let json = std::fs::read_to_string(&out).expect("a trace");
    let doc = trace_format::check_trace_events(&json);
    assert_eq!(
        doc["otherData"]["time_unit"],
        "microsecond (GPU timestamps)"
    );
    let events = doc["traceEvents"].as_array().expect("events");
    let calls = events
        .iter()
        .filter(|e| e["cat"] == "call" && e["name"] == ALGORITHM)
        .count() as u64;
    assert_eq!(calls, sim_calls, "call slices of {ALGORITHM}");
    assert!(
        events
            .iter()
            .any(|e| e["cat"] == "group" && e["args"]["construct"] == "fork"),
        "no fork subgroup in the trace"
    );
}

/// The asynchronous regions (`async` slices) and barriers (instants) of a trace, each with
/// its site (and a barrier's processors), sorted.
fn asynchronous_events(json: &str) -> Vec<String> {
    let doc = trace_format::check_trace_events(json);
    let mut v: Vec<String> = doc["traceEvents"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["cat"] == "async" || e["cat"] == "barrier")
        .map(|e| {
            format!(
                "{} {} {}",
                e["cat"], e["args"]["site"], e["args"]["processors"]
            )
        })
        .collect();
    v.sort();
    v
}

/// `--trace` on the GPU records the simulator's asynchronous regions and barriers: `farm`s
/// with barriers, in `fork` subgroups, a call of an `async` function, an asynchronous `main`
/// with a barrier before its `start`, barrier phases (`async_divergent_barriers`), all in
/// block regions at these sizes; and `farm_tasks` on 2048 processors, whose `farm` runs in a
/// group of more than 1024 members (outside block regions).
fn gpu_trace_asynchronous_regions_and_barriers(schedule: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = [
        ("tests/semantics/farm_barrier.fork", "4"),
        ("tests/semantics/farm_in_subgroups.fork", "4"),
        ("tests/semantics/async_call_from_sync.fork", "3"),
        ("tests/semantics/async_barrier_before_start.fork", "3"),
        ("tests/semantics/async_divergent_barriers.fork", "4"),
        ("classroom-examples/farm_tasks.fork", "2048"),
    ];
    for (file, procs) in cases {
        let trace = |command: &str, options: &[&str], name: &str| -> Vec<String> {
            let out = dir.path().join(name);
            let run = Command::new(env!("CARGO_BIN_EXE_forkcc"))
                .args([command, file])
                .args(options)
                .args(["-p", procs, "--trace"])
                .arg(&out)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .output()
                .expect("forkcc runs");
            assert!(
                run.status.success(),
                "{file}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
            asynchronous_events(&std::fs::read_to_string(&out).expect("a trace"))
        };
        let sim = trace("sim", &[], "sim.json");
        let gpu = trace(
            "run",
            &["--backend", "gpu", "--schedule", schedule],
            "gpu.json",
        );
        assert!(!sim.is_empty(), "{file}: nothing asynchronous");
        assert_eq!(gpu, sim, "{file} under the {schedule} schedule");
    }
}
