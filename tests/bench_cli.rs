//! `forkcc bench --quick` end to end on the simulator and the sequential baselines: the
//! table, and the JSON, CSV and SVG files, read back.

use bench::report::{Results, Row};
use std::path::Path;
use std::process::{Command, Output};

fn forkcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("forkcc runs")
}

/// The results.json a successful run wrote into `dir`.
fn results_of(out: &Output, dir: &Path) -> Results {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = std::fs::read_to_string(dir.join("results.json")).expect("results.json");
    serde_json::from_str(&json).expect("results.json parses")
}

fn quick(backends: &str, out: &Path) -> Output {
    let out_dir = out.to_str().expect("utf-8 temp path");
    forkcc(&[
        "bench",
        "--quick",
        "--backends",
        backends,
        "--runs",
        "2",
        "--out",
        out_dir,
    ])
}

#[test]
fn quick_suite_on_sim_and_seq_writes_table_json_csv_and_svg() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = quick("sim,seq", dir.path());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("program"), "{stdout}");

    let json = std::fs::read_to_string(dir.path().join("results.json")).expect("results.json");
    let results: Results = serde_json::from_str(&json).expect("results.json parses");
    assert!(results.command.contains("bench --quick"));
    assert!(!results.host.cpu.is_empty() && !results.date.is_empty());
    let programs = [
        "sieve",
        "quicksort",
        "matmul",
        "prefix_hillis_steele",
        "prefix_blelloch",
        "list_ranking",
    ];
    for program in programs {
        let rows: Vec<&Row> = results
            .rows
            .iter()
            .filter(|r| r.program == program)
            .collect();
        assert!(
            rows.iter().any(|r| r.backend == "seq"),
            "{program}: no seq row"
        );
        assert!(
            rows.iter().any(|r| r.backend == "sim"),
            "{program}: no sim row"
        );
        assert!(
            stdout.lines().any(|l| l.starts_with(program)),
            "{program} not in table"
        );
    }
    for row in &results.rows {
        assert_eq!(row.status, "ok", "{row:?}");
        assert_eq!(row.runs, 2, "{row:?}");
        let (Some(min), Some(median), Some(max)) = (row.min_s, row.median_s, row.max_s) else {
            panic!("no times: {row:?}");
        };
        assert!(0.0 < min && min <= median && median <= max, "{row:?}");
        assert!(
            row.backend == "sim" || row.backend.starts_with("seq"),
            "{row:?}"
        );
        if row.backend == "sim" {
            assert!(row.sim_ops_per_s.is_some_and(|o| o > 0.0), "{row:?}");
            let seq = results
                .rows
                .iter()
                .find(|r| r.program == row.program && r.backend == "seq")
                .and_then(|r| r.median_s)
                .expect("seq time");
            let ratio = row.speedup_vs_seq.expect("ratio against seq");
            assert!(
                (ratio - seq / median).abs() <= 1e-9 * ratio.max(1.0),
                "{row:?}"
            );
        }
    }

    let mut csv = csv::Reader::from_path(dir.path().join("results.csv")).expect("results.csv");
    let headers = csv.headers().expect("csv header").clone();
    for column in ["program", "median_s", "date", "cpu", "gpu", "command"] {
        assert!(headers.iter().any(|h| h == column), "no column {column}");
    }
    let from_csv: Vec<Row> = csv
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("results.csv parses");
    assert_eq!(from_csv.len(), results.rows.len());
    for (c, j) in from_csv.iter().zip(&results.rows) {
        assert_eq!(
            (&c.program, c.n, c.procs, &c.backend),
            (&j.program, j.n, j.procs, &j.backend)
        );
        let (Some(a), Some(b)) = (c.median_s, j.median_s) else {
            panic!("no median: {c:?}");
        };
        assert!((a - b).abs() <= 1e-9 * b, "csv {a} json {b}");
    }

    for plot in ["sieve.svg", "quicksort.svg"] {
        let svg = std::fs::read_to_string(dir.path().join(plot)).expect("plot written");
        assert!(
            svg.starts_with("<svg") && svg.contains("<polyline"),
            "{plot}"
        );
        assert!(
            svg.contains("sim N=1000") && svg.contains("seq N=1000"),
            "{plot}"
        );
    }
}

/// GPU rows are measured on a GPU; without one they say so instead of being faked.
#[test]
fn gpu_rows_are_measured_or_reported_as_skipped() {
    let present = pram_runtime::gpu::available();
    let dir = tempfile::tempdir().expect("tempdir");
    let out = quick("gpu,cuda-hand", dir.path());
    let results = results_of(&out, dir.path());
    assert!(!results.rows.is_empty());
    for row in &results.rows {
        if present {
            assert_eq!(row.status, "ok", "{row:?}");
            assert!(row.median_s.is_some(), "{row:?}");
        } else {
            assert_eq!(row.status, "skipped: no GPU", "{row:?}");
            assert_eq!(row.median_s, None, "{row:?}");
        }
    }
    assert!(results.rows.iter().any(|r| r.backend == "cuda-hand"));
}

/// `--procs` keeps the counts the suite lists and runs one it does not list on each size kept
/// (the quick sieve lists 16 and 64).
#[test]
fn procs_select_the_suites_counts_and_add_others() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().to_str().expect("utf-8 temp path");
    let out = forkcc(&[
        "bench",
        "sieve",
        "--quick",
        "--backends",
        "sim",
        "--runs",
        "1",
        "--procs",
        "16",
        "--procs",
        "24",
        "--out",
        out_dir,
    ]);
    let results = results_of(&out, dir.path());
    let mut procs: Vec<u64> = results.rows.iter().filter_map(|r| r.procs).collect();
    procs.sort_unstable();
    assert_eq!(procs, [16, 24]);
    assert!(results.rows.iter().all(|r| r.status == "ok"));
}

/// `--program` keeps the suite's programs named; a name the suite lacks is an error that
/// lists its programs.
#[test]
fn program_selects_the_suites_programs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().to_str().expect("utf-8 temp path");
    let out = forkcc(&[
        "bench",
        "overhead",
        "--quick",
        "--program",
        "grid_barrier",
        "--backends",
        "sim",
        "--runs",
        "1",
        "--out",
        out_dir,
    ]);
    let results = results_of(&out, dir.path());
    assert!(!results.rows.is_empty());
    assert!(results
        .rows
        .iter()
        .all(|r| r.program == "grid_barrier" && r.status == "ok"));
    let out = forkcc(&["bench", "prefix", "--quick", "--program", "sieve"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "suite `prefix` has no program `sieve`; its programs are prefix_hillis_steele, prefix_blelloch"
    ));
}

#[test]
fn unknown_suite_and_backend_are_errors() {
    let out = forkcc(&["bench", "nosuch", "--quick"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no suite `nosuch`; the suites are study")
    );
    let out = forkcc(&["bench", "--quick", "--backends", "tpu"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no backend `tpu`"));
}

/// `--merge` joins runs made apart (here: simulator rows and sequential rows) and recomputes
/// the ratios across them; an unreadable file is a clear error.
#[test]
fn merge_joins_runs_and_recomputes_ratios() {
    let (sim, seq, merged) = (
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
        tempfile::tempdir().expect("tempdir"),
    );
    assert!(quick("sim", sim.path()).status.success());
    assert!(quick("seq", seq.path()).status.success());
    let (a, b) = (
        sim.path().join("results.json"),
        seq.path().join("results.json"),
    );
    let out = forkcc(&[
        "bench",
        "--merge",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
        "--out",
        merged.path().to_str().expect("utf-8"),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results = Results::read(&merged.path().join("results.json")).expect("merged json");
    assert!(
        results.command.starts_with("merged from: "),
        "{}",
        results.command
    );
    let sim_rows: Vec<&Row> = results.rows.iter().filter(|r| r.backend == "sim").collect();
    assert!(!sim_rows.is_empty());
    assert!(
        sim_rows.iter().all(|r| r.speedup_vs_seq.is_some()),
        "simulator rows get a ratio to the sequential rows of the other run"
    );
    let missing = merged.path().join("nope.json");
    let out = forkcc(&["bench", "--merge", missing.to_str().expect("utf-8")]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("error: cannot read `") && stderr.contains("nope.json"),
        "{stderr}"
    );
}
