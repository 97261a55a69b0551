//! The Plan validator on hand-broken Plans: each break of an invariant is reported with what
//! is wrong. (Every Plan the transform makes passes it: `transform::transform` validates.)

use transform::host_program::{Instr, Pc};
use transform::plan::{Call, KernelId, Plan};
use transform::valid::{validate, Invalid};

/// A program with a split, a loop and a call, so that every kind of frame appears.
const SOURCE: &str = r#"
sh int a[8];
sync int twice(sh int n) { return 2 * n; }
sync void main(void)
{
    pr int i, v;
    if ($$ % 2)
        a[$$] = 1;
    else
        a[$$] = 2;
    for (i = $$; i < 8; i += groupsize())
        a[i] = a[i] + 1;
    v = twice(3);
    printf("%d\n", v + a[$$]);
}
"#;

fn plan() -> Plan {
    let checked = fork_frontend::check_source("valid.fork", SOURCE, &Default::default())
        .unwrap_or_else(|_| panic!("the program checks"));
    transform::transform(&checked.program).unwrap_or_else(|_| panic!("the program transforms"))
}

fn broken(plan: &Plan) -> String {
    match validate(plan) {
        Ok(()) => panic!("the broken Plan passed the validator"),
        Err(Invalid(what)) => what,
    }
}

fn position(plan: &Plan, pred: impl Fn(&Instr) -> bool) -> usize {
    plan.host
        .code
        .iter()
        .position(pred)
        .expect("the instruction is in the program")
}

#[test]
fn the_plan_of_a_valid_program_passes() {
    assert_eq!(validate(&plan()), Ok(()));
}

#[test]
fn a_jump_out_of_its_function_is_reported() {
    let mut plan = plan();
    let ret = position(&plan, |i| matches!(i, Instr::Ret));
    plan.host.code[ret] = Instr::Jump(Pc(plan.host.code.len() as u32 + 5));
    assert!(
        broken(&plan).contains("leaves the function"),
        "{}",
        broken(&plan)
    );
}

#[test]
fn a_split_arm_without_its_end_is_reported() {
    let mut plan = plan();
    let end = position(&plan, |i| matches!(i, Instr::SubgroupEnd));
    plan.host.code[end] = Instr::Launch(KernelId(0));
    let what = broken(&plan);
    assert!(what.contains("does not end with `subgroup end`"), "{what}");
}

#[test]
fn a_loop_instruction_outside_its_loop_is_reported() {
    let mut plan = plan();
    let first = position(&plan, |i| matches!(i, Instr::Launch(_)));
    plan.host.code[first] = Instr::LoopNext;
    assert!(broken(&plan).contains("`loop next` outside a loop body"));
}

#[test]
fn a_missing_kernel_is_reported() {
    let mut plan = plan();
    let first = position(&plan, |i| matches!(i, Instr::Launch(_)));
    plan.host.code[first] = Instr::Launch(KernelId(plan.kernels.len() as u32));
    assert!(broken(&plan).contains("does not exist"));
}

#[test]
fn a_host_read_value_without_a_home_is_reported() {
    let mut plan = plan();
    let split = position(&plan, |i| matches!(i, Instr::Split { .. }));
    let Instr::Split {
        kind:
            transform::plan::SplitKind::If {
                cond,
                loop_group: false,
            },
        ..
    } = &plan.host.code[split]
    else {
        panic!("an `if` split");
    };
    plan.storage.home[cond.0 as usize] = None;
    assert!(broken(&plan).contains("has no home in memory"));
}

#[test]
fn a_call_with_the_wrong_number_of_arguments_is_reported() {
    let mut plan = plan();
    let call = position(&plan, |i| matches!(i, Instr::Call(_)));
    if let Instr::Call(Call { args, .. }) = &mut plan.host.code[call] {
        args.clear();
    }
    assert!(broken(&plan).contains("arguments for"));
}
