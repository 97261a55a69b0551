//! Decisions of the simulator that docs/language.md leaves open or that the corpus does not
//! exercise, and the statistics.

use fork_frontend::{check_source, Options};
use pram_sim::{Config, Outcome};

fn run(src: &str, config: Config) -> Outcome {
    let checked = match check_source("t.fork", src, &Options::default()) {
        Ok(checked) => checked,
        Err(failed) => panic!(
            "front end rejected the test program: {:#?}",
            failed.diagnostics
        ),
    };
    pram_sim::run(&checked.program, &config)
}

fn output(src: &str, procs: u32) -> String {
    let outcome = run(
        src,
        Config {
            procs,
            ..Config::default()
        },
    );
    if let Some(f) = &outcome.fault {
        panic!("unexpected fault: {}", f.message());
    }
    String::from_utf8_lossy(&outcome.output).into_owned()
}

#[test]
fn shmalloc_by_a_whole_group_is_one_block() {
    // Every member asks for the same size in one step: one block, so the shared pointer gets
    // one value and CRCW common is satisfied.
    let src = "sh int *a;\nsync void main(void)\n{\n    a = shmalloc(4 * sizeof(int));\n    a[$$] = $$ + 1;\n    seq printf(\"%d %d %d %d\\n\", a[0], a[1], a[2], a[3]);\n    shfree(a);\n}\n";
    assert_eq!(output(src, 4), "1 2 3 4\n");
}

#[test]
fn async_processors_wait_on_a_flag_set_in_the_same_loop() {
    // Processor 0 sets the flag on its third iteration; the others spin until they see it.
    let src = "sh int flag = 0;\nsh int seen = 0;\nvoid main(void)\n{\n    pr int i = 0;\n    while (flag == 0) {\n        i++;\n        if (__PROC_NR__ == 0 && i == 3)\n            flag = 1;\n    }\n    syncadd(&seen, 1);\n    barrier;\n    if (__PROC_NR__ == 0)\n        printf(\"%d processors saw the flag\\n\", seen);\n}\n";
    assert_eq!(output(src, 4), "4 processors saw the flag\n");
}

#[test]
fn private_loop_members_leave_one_by_one() {
    // Member k runs k + 1 iterations; groupsize() stays the size at loop entry.
    let src = "sync void main(void)\n{\n    pr int i, g;\n    for (i = 0; i <= $$; i++) {\n        g = groupsize();\n        if (i == 2)\n            printf(\"p%d size %d\\n\", __PROC_NR__, g);\n    }\n}\n";
    assert_eq!(output(src, 4), "p2 size 4\np3 size 4\n");
}

#[test]
fn statistics_count_time_work_and_splits() {
    // The private `if` splits once; its two branches run one step each, overlapping in time.
    let src = "sh int x;\nsync void main(void)\n{\n    pr int y = 1;\n    if ($$ < 3)\n        y = 2;\n    else\n        y = 3;\n    x = 0;\n}\n";
    let outcome = run(
        src,
        Config {
            procs: 8,
            ..Config::default()
        },
    );
    let s = &outcome.stats;
    assert!(outcome.fault.is_none());
    // decl (1) + if test (1) + max(then 1, else 1) + `x = 0` (1) = 4 steps of time.
    assert_eq!(
        (s.time, s.group_steps, s.splits, s.max_group_depth),
        (4, 5, 1, 1)
    );
    // decl 8 + test 8 + then 3 + else 5 + store 8.
    assert_eq!(s.work, 32);
    let main = s
        .functions
        .iter()
        .find(|f| f.name == "main")
        .expect("main listed");
    assert_eq!((main.calls, main.steps, main.work), (1, 5, 32));
    assert!(s.ops > 0 && s.peak_shared_bytes >= 4);
    assert!(s.render().contains("group splits:               1"));
}

#[test]
fn deep_recursion_within_the_limit_runs() {
    let src = "straight int depth(int n)\n{\n    if (n == 0)\n        return 0;\n    return 1 + depth(n - 1);\n}\nsync void main(void)\n{\n    seq printf(\"%d\\n\", depth(5000));\n}\n";
    assert_eq!(output(src, 2), "5000\n");
}

#[test]
fn async_processor_waits_on_a_flag_set_in_another_branch() {
    // Round-robin scheduling: processor 1 spins in the then-branch until processor 0, in the
    // else-branch, sets the flag. Lines between barriers appear by __PROC_NR__.
    let src = "sh int flag = 0;\nvoid main(void)\n{\n    if (__PROC_NR__ == 1) {\n        while (flag == 0)\n            ;\n        printf(\"1 saw the flag\\n\");\n    } else {\n        flag = 1;\n        printf(\"%d set the flag\\n\", __PROC_NR__);\n    }\n}\n";
    assert_eq!(output(src, 2), "0 set the flag\n1 saw the flag\n");
}

#[test]
fn farm_member_waits_inside_an_async_function_for_a_later_member() {
    let src = "sh int ready = 0;\nasync void wait_for(int v)\n{\n    while (ready < v)\n        ;\n}\nsync void main(void)\n{\n    pr int r = 0;\n    farm {\n        if (__PROC_NR__ == 0) {\n            wait_for(2);\n            r = ready;\n        } else\n            mpadd(&ready, 1);\n    }\n    if (__PROC_NR__ == 0)\n        printf(\"%d\\n\", r);\n}\n";
    assert_eq!(output(src, 3), "2\n");
}

#[test]
fn async_spin_that_nobody_ends_hits_the_step_limit() {
    let src = "sh int flag = 0;\nvoid main(void)\n{\n    while (flag == 0)\n        ;\n}\n";
    let outcome = run(
        src,
        Config {
            procs: 2,
            max_steps: 500,
            ..Config::default()
        },
    );
    assert_eq!(outcome.fault.map(|f| f.code.id), Some("R0006"));
}
