//! Runtime faults of the CPU Plan executor: located, naming the processor, never a silent
//! wrong answer — also where the faulty access would land inside a neighbouring object.

use fork_frontend::{check_source, Options};
use pram_runtime::cpu::{self, Config, Crcw, Fault, Order};

fn run(source: &str, procs: usize) -> Result<String, Fault> {
    let checked = check_source("fault.fork", source, &Options::default()).expect("checks");
    let plan = transform::transform(&checked.program).expect("transforms");
    let config = Config {
        procs,
        order: Order::Reverse,
        crcw: Crcw::Common,
        max_steps: 100_000,
    };
    cpu::run(&plan, config).map(|out| String::from_utf8_lossy(&out.stdout).into_owned())
}

const NEIGHBOURS: &str = "
sh int a[4], b[4];
sync void main(void)
{
    a[$$] = $$;
    seq printf(\"%d\\n\", b[0]);
}
";

#[test]
fn an_index_past_the_end_faults_even_inside_the_next_variable() {
    assert_eq!(run(NEIGHBOURS, 4).expect("in bounds"), "0\n");
    let fault = run(NEIGHBOURS, 5).expect_err("a[4] is out of bounds");
    assert_eq!(fault.message, "memory access out of bounds");
    assert_eq!(fault.proc, Some(4));
}

#[test]
fn division_by_zero_and_assert_fault_with_their_processor() {
    let div = "sync void main(void) { pr int x = 12 / ($$ - 2); printf(\"%d\\n\", x); }";
    let fault = run(div, 4).expect_err("processor 2 divides by zero");
    assert_eq!(
        (fault.message.as_str(), fault.proc),
        ("division by zero", Some(2))
    );
    let assert = "sync void main(void) { assert($$ != 1); }";
    let fault = run(assert, 3).expect_err("processor 1 fails the assertion");
    assert_eq!(
        (fault.message.as_str(), fault.proc),
        ("assertion failed", Some(1))
    );
}

#[test]
fn a_program_that_does_not_terminate_hits_the_step_limit() {
    let endless = "sync void main(void) { pr int i = 0; while (i >= 0) i = (i + 1) % 10; }";
    let fault = run(endless, 2).expect_err("never ends");
    assert!(
        fault.message.starts_with("step limit reached"),
        "{}",
        fault.message
    );
}

/// A `straight` function that writes shared memory runs in lockstep when a group of several
/// calls it (docs/language.md §8): every member loads *p before any member stores, as on the
/// simulator; per thread, processor 2 would load a[2] after processor 0 stored it.
#[test]
fn a_device_function_that_needs_lockstep_runs_in_lockstep() {
    let rotate = "
sh int a[8];
straight void rot(int *p, int *q) { int t = *p; *p = *q; *q = t; }
sync void main(void)
{
    a[$$] = $$;
    a[$$ + 4] = 10 + $$;
    rot(&a[$$], &a[$$ + 2]);
    seq printf(\"%d %d\\n\", a[0], a[1]);
}
";
    assert_eq!(run(rotate, 4).expect("lockstep"), "2 3\n");
    let disjoint = rotate.replace("&a[$$ + 2]", "&a[$$ + 4]");
    assert_eq!(run(&disjoint, 4).expect("disjoint cells"), "10 11\n");
}

/// The executor's faults carry the simulator's R-codes (docs/gpu-faults.md lists them), so
/// a fault reads the same on every backend.
#[test]
fn faults_carry_the_simulators_codes() {
    let code = |source: &str, procs| run(source, procs).expect_err("faults").code.id;
    assert_eq!(code(NEIGHBOURS, 5), "R0001");
    let null = "sync void main(void) { pr int *p = 0; pr int x; if ($$ != 1) p = &x; *p = 1; }";
    assert_eq!(code(null, 2), "R0002");
    assert_eq!(
        code("sync void main(void) { pr int x = 1 / ($$ - 1); }", 2),
        "R0003"
    );
    assert_eq!(
        code("sync void main(void) { assert($$ == 0); }", 2),
        "R0007"
    );
    let endless = "sync void main(void) { pr int i = 0; while (i >= 0) i = (i + 1) % 10; }";
    assert_eq!(code(endless, 1), "R0006");
}

/// A recursive synchronising `async` call is a state machine whose per-processor stack holds
/// `STACK_FRAMES` frames (transform/src/rules/recursion.rs): one more is R0008 at the
/// self-call, on the processor that makes it, after the output of the launches before (here
/// processor 0's, which returned long before); as deep as the stack holds runs.
#[test]
fn a_recursive_async_call_deeper_than_its_stack_is_r0008() {
    let frames = transform::plan::STACK_FRAMES;
    let program = |depth: u64| {
        format!(
            "async void f(int n) {{ barrier; if (n > 0) f(n - 1); }}
             void main(void) {{ printf(\"a\\n\"); f(__PROC_NR__ * {depth}); printf(\"b\\n\"); }}"
        )
    };
    assert_eq!(run(&program(frames), 2).expect("fits"), "a\na\nb\nb\n");
    let fault = run(&program(frames + 1), 2).expect_err("one frame too many");
    assert_eq!(
        (fault.code.id, fault.message.as_str(), fault.proc),
        ("R0008", transform::plan::STACK_FULL, Some(1))
    );
    let at = &program(frames + 1)[fault.span.lo as usize..fault.span.hi as usize];
    assert_eq!(at, "f(n - 1);");
    assert_eq!(String::from_utf8_lossy(&fault.stdout), "a\na\nb\n");
}
