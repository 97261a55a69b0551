//! Every runtime fault: the code, the location, the processor and the step, and the rendered
//! diagnostic (snapshots, reviewed).

use fork_frontend::{check_source, diag, Options};
use pram_sim::{Config, Crcw, Fault, Model};

/// Runs `src` (named `fault.fork`) and returns its fault, `file:line:col` and the rendering.
fn fault(src: &str, config: Config) -> (Box<Fault>, String, String) {
    let checked = match check_source("fault.fork", src, &Options::default()) {
        Ok(checked) => checked,
        Err(failed) => panic!(
            "front end rejected the test program: {:#?}",
            failed.diagnostics
        ),
    };
    let outcome = pram_sim::run(&checked.program, &config);
    let fault = outcome.fault.expect("the program should fault");
    let location = checked.sources.location(fault.span).unwrap_or_default();
    let rendered = diag::render(&checked.sources, &[fault.to_diagnostic()], false);
    (fault, location, rendered)
}

fn procs(p: u32) -> Config {
    Config {
        procs: p,
        ..Config::default()
    }
}

fn who(f: &Fault) -> (u32, u32, i64) {
    let w = f.who.expect("the fault names a processor");
    let (rank, at) = w.in_group.expect("the simulator knows the group");
    (w.proc, rank, at)
}

#[test]
fn out_of_bounds_write() {
    let (f, at, text) = fault(
        "sh int a[4];\nsync void main(void)\n{\n    a[$$] = $$;\n}\n",
        procs(8),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f), f.step),
        ("R0001", "fault.fork:4:5", (4, 4, 0), Some(1))
    );
    insta::assert_snapshot!(text);
}

#[test]
fn out_of_bounds_read_in_a_subgroup() {
    let (f, at, _) = fault(
        "sh int a[4];\nsync void main(void)\n{\n    pr int x;\n    fork (2; @ = $$ % 2) {\n        x = a[$$ + 3];\n    }\n}\n",
        procs(4),
    );
    // Subgroup @ = 1 holds processors 1 and 3; processor 3 has $$ = 1 there and reads a[4].
    assert_eq!((f.code.id, at.as_str()), ("R0001", "fault.fork:6:13"));
    assert_eq!(who(&f), (2, 1, 0));
    assert!(f.what.contains("read out of bounds"), "{}", f.what);
}

#[test]
fn null_pointer() {
    let (f, at, text) = fault(
        "sync void main(void)\n{\n    pr int *p = 0;\n    if ($$ == 1)\n        *p = 3;\n}\n",
        procs(2),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0002", "fault.fork:5:9", (1, 0, 0))
    );
    insta::assert_snapshot!(text);
}

#[test]
fn division_by_zero() {
    let (f, at, text) = fault(
        "sync void main(void)\n{\n    pr int x;\n    x = 10 / ($$ - 2);\n}\n",
        procs(4),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f), f.step),
        ("R0003", "fault.fork:4:9", (2, 2, 0), Some(2))
    );
    insta::assert_snapshot!(text);
}

#[test]
fn crcw_common_conflict_names_both_writers() {
    let (f, at, text) = fault(
        "sh int x;\nsync void main(void)\n{\n    x = $$;\n}\n",
        procs(3),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0004", "fault.fork:4:5", (0, 0, 0))
    );
    assert!(
        f.what.contains("processors 0 and 1 wrote 0 and 1"),
        "{}",
        f.what
    );
    insta::assert_snapshot!(text);
}

#[test]
fn crcw_priority_and_arbitrary_do_not_fault() {
    let src = "sh int x;\nsync void main(void)\n{\n    x = $$;\n    seq printf(\"%d\\n\", x);\n}\n";
    let checked = check_source("t.fork", src, &Options::default()).expect("valid");
    for (crcw, out) in [(Crcw::Priority, "2\n"), (Crcw::Arbitrary, "0\n")] {
        let outcome = pram_sim::run(&checked.program, &Config { crcw, ..procs(3) });
        assert!(outcome.fault.is_none());
        assert_eq!(String::from_utf8_lossy(&outcome.output), out);
    }
}

#[test]
fn erew_concurrent_read() {
    let config = Config {
        model: Model::Erew,
        ..procs(4)
    };
    let (f, at, text) = fault(
        "sh int x;\nsync void main(void)\n{\n    pr int y;\n    y = x + 1;\n}\n",
        config,
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0005", "fault.fork:5:9", (0, 0, 0))
    );
    insta::assert_snapshot!(text);
}

#[test]
fn crew_concurrent_write_of_one_value() {
    let config = Config {
        model: Model::Crew,
        ..procs(2)
    };
    let (f, at, _) = fault(
        "sh int x;\nsync void main(void)\n{\n    x = 7;\n}\n",
        config,
    );
    assert_eq!((f.code.id, at.as_str()), ("R0005", "fault.fork:4:5"));
    assert!(
        f.what.contains("concurrent write") && f.what.contains("CREW"),
        "{}",
        f.what
    );
}

#[test]
fn step_limit_says_how_to_raise_it() {
    let config = Config {
        max_steps: 1000,
        ..procs(2)
    };
    let (f, at, text) = fault(
        "sh int x = 0;\nsync void main(void)\n{\n    while (1)\n        x = x + 1;\n}\n",
        config,
    );
    assert_eq!((f.code.id, f.step), ("R0006", Some(1001)));
    assert!(at.starts_with("fault.fork:"), "{at}");
    assert!(f.help.as_deref().unwrap_or("").contains("--max-steps N"));
    insta::assert_snapshot!(text);
}

#[test]
fn assertion() {
    let (f, at, text) = fault(
        "sync void main(void)\n{\n    assert($$ < 3);\n}\n",
        procs(5),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0007", "fault.fork:3:5", (3, 3, 0))
    );
    insta::assert_snapshot!(text);
}

#[test]
fn runaway_recursion() {
    let config = Config {
        max_depth: 50,
        ..procs(2)
    };
    let (f, at, text) = fault(
        "sync int down(int n)\n{\n    return down(n + 1);\n}\nsync void main(void)\n{\n    down(0);\n}\n",
        config,
    );
    assert_eq!((f.code.id, at.as_str()), ("R0008", "fault.fork:3:12"));
    insta::assert_snapshot!(text);
}

#[test]
fn use_after_shfree() {
    let (f, at, text) = fault(
        "sh int *p;\nsync void main(void)\n{\n    seq p = shmalloc(4 * sizeof(int));\n    seq shfree(p);\n    seq p[1] = 1;\n}\n",
        procs(2),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0009", "fault.fork:6:9", (0, 0, 0))
    );
    assert!(f.what.contains("after it was freed"), "{}", f.what);
    insta::assert_snapshot!(text);
}

#[test]
fn use_of_a_local_after_its_function_returned() {
    let (f, _, _) = fault(
        "straight int *leak(void)\n{\n    int x;\n    return &x;\n}\nsync void main(void)\n{\n    pr int *p;\n    p = leak();\n    *p = 1;\n}\n",
        procs(1),
    );
    assert_eq!(f.code.id, "R0009");
    assert!(
        f.what.contains("`x`") && f.what.contains("scope ended"),
        "{}",
        f.what
    );
}

#[test]
fn double_free_and_invalid_free() {
    let (f, _, _) = fault(
        "void main(void)\n{\n    int *p = malloc(8);\n    free(p);\n    free(p);\n}\n",
        procs(1),
    );
    assert_eq!(f.code.id, "R0009");
    let (f, at, _) = fault(
        "void main(void)\n{\n    int x;\n    free(&x);\n}\n",
        procs(1),
    );
    assert_eq!((f.code.id, at.as_str()), ("R0010", "fault.fork:4:5"));
}

#[test]
fn race_between_sibling_subgroups() {
    let config = Config {
        check_races: true,
        ..procs(4)
    };
    let src = "sh int x, y;\nsync void main(void)\n{\n    if ($$ % 2)\n        seq x = 1;\n    else\n        seq y = x;\n}\n";
    let (f, at, text) = fault(src, config);
    assert_eq!((f.code.id, at.as_str()), ("R0011", "fault.fork:7:17"));
    assert_eq!(f.notes.len(), 1);
    insta::assert_snapshot!(text);
    // Without the check the program runs.
    let checked = check_source("t.fork", src, &Options::default()).expect("valid");
    assert!(pram_sim::run(&checked.program, &procs(4)).fault.is_none());
}

#[test]
fn ilog2_of_zero() {
    let (f, at, _) = fault(
        "sync void main(void)\n{\n    pr int k;\n    k = ilog2($$);\n}\n",
        procs(2),
    );
    assert_eq!(
        (f.code.id, at.as_str(), who(&f)),
        ("R0012", "fault.fork:4:15", (0, 0, 0))
    );
}

#[test]
fn allocation_beyond_the_simulators_memory() {
    let (f, at, _) = fault(
        "sync void main(void)\n{\n    pr char *p;\n    p = malloc(3000000000u);\n}\n",
        procs(1),
    );
    assert_eq!((f.code.id, at.as_str()), ("R0012", "fault.fork:4:9"));
    assert!(f.what.contains("3000000000 bytes"), "{}", f.what);
}
