//! A seeded run of the random program generator: every program passes `forkcc check`, runs
//! on the simulator without a fault, and the CPU Plan executor prints the same bytes in
//! forward, reverse and shuffled thread order at several P.

use forkgen::diff::{run_program, RunConfig, Verdict};
use forkgen::gen::{generate, Options};
use forkgen::reduce::shrink;
use std::time::{Duration, Instant};

const PROGRAMS: u64 = 300;

fn options() -> Options {
    Options {
        stmts: 10,
        procs: vec![1, 3, 5],
        // Every construct: none reaches an open bug (tests/random/open/README.md).
        without: Vec::new(),
    }
}

#[test]
fn seeded_programs_agree_on_the_simulator_and_cpu_plan() {
    let opts = options();
    let config = RunConfig::new(opts.procs.clone());
    let mut failures = Vec::new();
    let mut agreed = 0;
    for seed in 0..PROGRAMS {
        let program = generate(seed, &opts);
        match run_program(&program.render(), &config) {
            Verdict::Agree => agreed += 1,
            Verdict::TooLong => {}
            other => failures.push(format!(
                "seed {seed}: {}\n{}",
                other.summary(),
                program.render()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {PROGRAMS} programs fail (reduce one with `cargo run -p forkgen -- --seed N \
         --seconds 1`):\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The step limit may skip a few, not the run.
    assert!(
        agreed >= PROGRAMS * 9 / 10,
        "only {agreed} programs compared"
    );
}

#[test]
fn a_seed_gives_the_same_program() {
    let opts = options();
    assert_eq!(generate(42, &opts).render(), generate(42, &opts).render());
    assert_ne!(generate(42, &opts).render(), generate(43, &opts).render());
}

#[test]
fn left_out_constructs_are_not_generated() {
    let mut opts = options();
    opts.without
        .extend(["start", "recursion"].map(String::from));
    for seed in 0..50 {
        let text = generate(seed, &opts).render();
        assert!(!text.contains("start {"), "seed {seed}:\n{text}");
        assert!(!text.contains("if (d > 0)"), "seed {seed}:\n{text}");
    }
}

#[test]
fn cyclic_loops_and_their_functions_are_generated_unless_left_out() {
    let mut opts = options();
    let texts: Vec<String> = (0..50).map(|s| generate(s, &opts).render()).collect();
    let with = |pattern: &str| texts.iter().filter(|t| t.contains(pattern)).count();
    assert!(
        with(" += groupsize())") >= 10,
        "{}",
        with(" += groupsize())")
    );
    assert!(with(" int *q, sh int n)") >= 10);
    opts.without.push("cyclic-loop".into());
    for seed in 0..50 {
        let text = generate(seed, &opts).render();
        assert!(!text.contains("C0"), "seed {seed}:\n{text}");
    }
}

#[test]
fn the_reducer_keeps_the_property_and_a_valid_program() {
    // Property: the program still has a `fork` whose body prints. The reducer must keep
    // it, shrink the rest, and leave a program `forkcc check` accepts.
    let opts = options();
    let has = |text: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with("fork ("))
            .is_some_and(|i| text.lines().skip(i).take(4).any(|l| l.contains("printf")))
    };
    let program = (0..500)
        .map(|seed| generate(seed, &opts))
        .find(|p| has(&p.render()) && p.size() > 150)
        .expect("some seed has a printing fork");
    let keep = |p: &forkgen::ast::Program| {
        let text = p.render();
        has(&text) && fork_frontend::check_source("r.fork", &text, &Default::default()).is_ok()
    };
    let small = shrink(&program, keep, Instant::now() + Duration::from_secs(60));
    assert!(keep(&small));
    assert!(
        small.size() * 4 < program.size(),
        "{} -> {} nodes:\n{}",
        program.size(),
        small.size(),
        small.render()
    );
}
