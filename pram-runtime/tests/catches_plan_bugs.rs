//! The CPU Plan executor must expose a wrong Plan: a missing cut (two processors touching one
//! shared cell in one kernel, one writing) and a missing spill are plan-error faults, in
//! every thread order. Each broken Plan is lowered again and passes the Plan validator, as
//! every Plan an executor sees does: these are bugs of meaning, which only running finds.

use fork_frontend::{check_source, Options};
use pram_runtime::cpu::{self, Config, Crcw, Order};
use transform::plan::{HostOp, Plan};
use transform::{host_program, valid};

/// The study's Figure 3: every processor reads its cell, then writes its neighbour's.
const FIG3: &str = "
#define N 8
sh int a[N];
sync void main(void)
{
    pr int loc;
    a[$] = 10 * $;
    loc = a[$];
    a[($ + 1) % N] = loc + $;
    loc = a[$];
    printf(\"%d: %d\\n\", $, loc);
}
";

fn plan() -> Plan {
    let checked = check_source("fig3.fork", FIG3, &Options::default()).expect("fig3 checks");
    transform::transform(&checked.program).expect("fig3 transforms")
}

/// `plan` after a test changed it: its host program lowered again, and valid.
fn relowered(mut plan: Plan) -> Plan {
    plan.host = host_program::lower(&plan);
    assert_eq!(
        valid::validate(&plan),
        Ok(()),
        "the broken Plan is still well formed"
    );
    plan
}

fn run(plan: &Plan, order: Order) -> Result<Vec<u8>, cpu::Fault> {
    let config = Config {
        procs: 8,
        order,
        crcw: Crcw::Common,
        max_steps: 100_000,
    };
    cpu::run(plan, config).map(|out| out.stdout)
}

#[test]
fn the_transformed_plan_is_order_independent() {
    let plan = plan();
    let forward = run(&plan, Order::Forward).expect("runs");
    assert_eq!(run(&plan, Order::Reverse).expect("runs"), forward);
    assert_eq!(run(&plan, Order::Shuffle(7)).expect("runs"), forward);
    let first = String::from_utf8_lossy(&forward);
    assert!(first.starts_with("0: 77\n1: 0\n2: 11\n"), "{first}");
}

#[test]
fn a_missing_cut_is_a_plan_error_in_every_order() {
    let mut plan = plan();
    // Merge the kernel that writes a neighbour's cell into the kernel that reads the own
    // cell, as if the write-after-read cut had been forgotten.
    let main = plan.main.0 as usize;
    // fig3's main is one block region; its ops are what the host walks here.
    let body = match plan.functions[main].body.as_mut_slice() {
        [HostOp::Region(r)] => std::mem::take(&mut r.ops),
        _ => panic!("fig3's main is one block region"),
    };
    plan.functions[main].body = body;
    let launches: Vec<usize> = plan.functions[main]
        .body
        .iter()
        .filter_map(|op| match op {
            HostOp::Launch(k) => Some(k.0 as usize),
            _ => None,
        })
        .collect();
    assert_eq!(launches.len(), 4, "fig3 has four kernels");
    let (reader, writer) = (launches[1], launches[2]);
    let moved = plan.kernels[writer].body.clone();
    plan.kernels[reader].body.extend(moved);
    plan.functions[main]
        .body
        .retain(|op| !matches!(op, HostOp::Launch(k) if k.0 as usize == writer));
    let plan = relowered(plan);
    for order in [Order::Forward, Order::Reverse, Order::Shuffle(3)] {
        let fault = run(&plan, order).expect_err("the race is reported");
        assert!(
            fault
                .message
                .starts_with("plan error: this access and one of processor"),
            "{}",
            fault.message
        );
        assert_eq!(fault.to_diagnostic().code.id, "R0502");
    }
}

#[test]
fn a_missing_spill_is_a_plan_error() {
    let mut plan = plan();
    let loc = plan
        .program
        .vars
        .iter()
        .position(|v| v.name == "loc")
        .expect("loc exists");
    assert!(
        plan.storage.home[loc].is_some(),
        "loc crosses a cut, so it is spilled"
    );
    plan.storage.home[loc] = None;
    let plan = relowered(plan);
    let fault = run(&plan, Order::Forward).expect_err("reading a dead register faults");
    assert!(fault.message.starts_with("plan error"), "{}", fault.message);
    assert_eq!(fault.to_diagnostic().code.id, "R0502");
}
