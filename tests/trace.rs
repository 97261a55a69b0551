//! `--trace`: the trace of a small program is a snapshot; for every classroom example the JSON
//! follows the trace-event format and the SVG is well-formed and renders; faults, the size
//! bound and unknown file names are reported.

mod trace_format;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use trace_format::{check_trace_events, u64_of};

fn forkcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("forkcc runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `forkcc sim FILE ARGS --trace OUT` and returns the run and the trace's text.
fn traced(file: &str, args: &[&str], out: &Path) -> (Output, String) {
    let out_arg = out.to_str().expect("utf-8 path");
    let mut all = vec!["sim", file];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--trace", out_arg]);
    let run = forkcc(&all);
    let trace = std::fs::read_to_string(out)
        .unwrap_or_else(|e| panic!("no trace from {all:?}: {e}\n{}", text(&run.stderr)));
    (run, trace)
}

/// Checks that the SVG is well-formed, of the size it says, and renders to a picture that is
/// not blank.
fn check_svg(svg: &str) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let size = |a: &str| -> u32 {
        root.attribute(a)
            .and_then(|v| v.parse::<f32>().ok())
            .unwrap_or_else(|| panic!("no {a}")) as u32
    };
    let (w, h) = (size("width"), size("height"));
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .expect("resvg reads the SVG");
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h).expect("a non-empty picture");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    assert_eq!((pixmap.width(), pixmap.height()), (w, h));
    let pixels = pixmap.pixels();
    let coloured = pixels
        .iter()
        .filter(|p| p.red() != p.green() || p.green() != p.blue())
        .count();
    let colours: BTreeSet<(u8, u8, u8)> = pixels
        .iter()
        .map(|p| (p.red(), p.green(), p.blue()))
        .collect();
    assert!(
        coloured * 50 > pixels.len(),
        "less than 2% of the picture is coloured ({coloured} of {} pixels)",
        pixels.len()
    );
    assert!(colours.len() >= 4, "only {} colours", colours.len());
}

#[test]
fn the_trace_of_a_small_program_is_a_snapshot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (run, json) = traced(
        "tests/trace/tree.fork",
        &["-p", "4"],
        &dir.path().join("t.json"),
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    check_trace_events(&json);
    insta::assert_snapshot!(json);
}

/// The first `//! run:` arguments of a program.
fn first_case(file: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(file).expect("readable example");
    let line = source
        .lines()
        .find_map(|l| l.strip_prefix("//! run:"))
        .unwrap_or_else(|| panic!("{} has no run case", file.display()));
    line.split_whitespace().map(String::from).collect()
}

#[test]
fn every_classroom_example_gives_a_valid_trace_and_picture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<PathBuf> = std::fs::read_dir("classroom-examples")
        .expect("classroom-examples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fork"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "classroom examples not found");
    for file in &files {
        let name = file.file_stem().and_then(|s| s.to_str()).expect("a name");
        let args = first_case(file);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let path = file.to_str().expect("utf-8 path");
        let (run, json) = traced(path, &args, &dir.path().join(format!("{name}.json")));
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        let doc = check_trace_events(&json);
        assert!(u64_of(&doc["otherData"], "group_instances") >= 1, "{name}");
        let (run, svg) = traced(path, &args, &dir.path().join(format!("{name}.svg")));
        assert!(run.status.success(), "{name}: {}", text(&run.stderr));
        let mut plain = vec!["sim", path];
        plain.extend_from_slice(&args);
        assert_eq!(
            text(&run.stdout),
            text(&forkcc(&plain).stdout),
            "{name}: tracing changed the output"
        );
        assert!(svg.contains(&format!("{name}.fork")), "{name}: no title");
        check_svg(&svg);
    }
}

#[test]
fn a_fault_is_in_the_trace_and_the_trace_is_still_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("fault.fork");
    std::fs::write(
        &program,
        "sync void main(void)\n{\n    pr int x;\n    if ($$ < 2)\n        x = 10 / ($$ - 1);\n}\n",
    )
    .expect("write");
    let file = program.to_str().expect("utf-8 path");
    let (run, json) = traced(file, &["-p", "4"], &dir.path().join("t.json"));
    assert!(!run.status.success());
    assert!(text(&run.stderr).contains("R0003"));
    let doc = check_trace_events(&json);
    let fault = doc["traceEvents"]
        .as_array()
        .and_then(|es| es.iter().find(|e| e["cat"] == "fault"))
        .expect("a fault event");
    assert_eq!(fault["name"], "fault R0003");
    assert_eq!(fault["args"]["processor"], 1);
    let message = fault["args"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("division by zero"), "{message}");
    assert!(fault["args"]["site"]
        .as_str()
        .is_some_and(|s| s.ends_with("fault.fork:5:13")));
    // On the track of the `if` subgroup the faulting processor was in.
    let tid = u64_of(fault, "tid");
    let track = doc["traceEvents"]
        .as_array()
        .and_then(|es| {
            es.iter()
                .find(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["tid"] == tid)
        })
        .expect("a named track");
    assert!(track["args"]["name"]
        .as_str()
        .is_some_and(|n| n.contains("if @0 (2 processors)")));
    let (_, svg) = traced(file, &["-p", "4"], &dir.path().join("t.svg"));
    assert!(svg.contains("fault R0003 at step"));
    check_svg(&svg);
}

#[test]
fn a_long_run_is_cut_at_the_bound_and_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = dir.path().join("long.fork");
    std::fs::write(
        &program,
        "sync void f(void) { }\nsync void main(void)\n{\n    sh int i;\n    for (i = 0; i < 30000; i++)\n        f();\n    seq printf(\"done\\n\");\n}\n",
    )
    .expect("write");
    let file = program.to_str().expect("utf-8 path");
    let (run, json) = traced(file, &["-p", "2"], &dir.path().join("t.json"));
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(text(&run.stdout), "done\n", "the run goes on after the cut");
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("note: the trace was cut at step")
            && stderr.contains("limit of 20000 events"),
        "{stderr}"
    );
    let doc = check_trace_events(&json);
    let events = doc["traceEvents"].as_array().map_or(0, Vec::len);
    assert!(events < 20_100, "{events} events");
    assert!(doc["otherData"]["cut"]
        .as_str()
        .is_some_and(|c| c.contains("the run went on to step")));
    assert!(doc["traceEvents"]
        .as_array()
        .is_some_and(|es| es.iter().any(|e| e["name"] == "trace cut")));
    let (_, svg) = traced(file, &["-p", "2"], &dir.path().join("t.svg"));
    assert!(svg.contains("trace cut (limit of 20000 events)"));
    check_svg(&svg);
}

/// `--trace-limit N` keeps N events instead of the default, for long runs one wants whole (or
/// short pictures); it needs `--trace` and at least one event.
#[test]
fn the_trace_limit_is_a_flag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = "classroom-examples/quicksort.fork";
    let (run, json) = traced(
        file,
        &["-p", "8", "--trace-limit", "100"],
        &dir.path().join("t.json"),
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("limit of 100 events"),
        "{}",
        text(&run.stderr)
    );
    let events = check_trace_events(&json)["traceEvents"]
        .as_array()
        .map_or(0, Vec::len);
    assert!(events < 200, "{events} events");
    let (whole, _) = traced(
        file,
        &["-p", "8", "--trace-limit", "1000000"],
        &dir.path().join("w.json"),
    );
    assert!(
        !text(&whole.stderr).contains("trace was cut"),
        "{}",
        text(&whole.stderr)
    );
    for args in [
        &["-p", "8", "--trace-limit", "100"][..],
        &["-p", "8", "--trace", "x.json", "--trace-limit", "0"],
    ] {
        let mut all = vec!["sim", file];
        all.extend_from_slice(args);
        let refused = forkcc(&all);
        assert!(
            !refused.status.success() && !text(&refused.stderr).is_empty(),
            "{args:?}"
        );
    }
}

#[test]
fn a_trace_file_of_an_unknown_kind_is_refused_before_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("trace.txt");
    let run = forkcc(&[
        "sim",
        "classroom-examples/groups.fork",
        "-p",
        "4",
        "--trace",
        out.to_str().expect("utf-8 path"),
    ]);
    assert!(!run.status.success());
    assert!(run.stdout.is_empty(), "the program ran");
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("error: cannot tell the trace format of") && stderr.contains("`*.json`"),
        "{stderr}"
    );
    assert!(!out.exists());
}

/// `run --trace` records on the simulator (and on the GPU: tests/gpu_trace.rs); the cpu-plan
/// backend refuses it, and the GPU refuses the SVG picture, both before the program runs.
#[test]
fn run_traces_on_the_simulator_and_refuses_what_it_cannot_record() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("t.json");
    let out = out.to_str().expect("utf-8 path");
    let file = "classroom-examples/groups.fork";
    let sim = forkcc(&["run", file, "-p", "4", "--backend", "sim", "--trace", out]);
    assert!(sim.status.success(), "{}", text(&sim.stderr));
    check_trace_events(&std::fs::read_to_string(out).expect("a trace"));
    let run = forkcc(&[
        "run",
        file,
        "-p",
        "4",
        "--backend",
        "cpu-plan",
        "--trace",
        out,
    ]);
    assert!(!run.status.success());
    assert!(run.stdout.is_empty(), "the program ran");
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("the `cpu-plan` backend does not record traces: run with `--backend sim` or `--backend gpu`"),
        "{stderr}"
    );
    let svg = dir.path().join("t.svg");
    let svg = svg.to_str().expect("utf-8 path");
    let run = forkcc(&["run", file, "-p", "4", "--backend", "gpu", "--trace", svg]);
    assert!(!run.status.success());
    assert!(run.stdout.is_empty(), "the program ran");
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("error: the GPU's trace is `--trace FILE.json` only"),
        "{stderr}"
    );
    assert!(!Path::new(svg).exists());
}
