//! GPU execution: every classroom example and semantics program (its `//! run:` cases) runs
//! on the GPU driver and prints the same bytes as the CPU Plan executor. Without a GPU (or
//! without NVRTC) it says "skipped: no GPU".

mod common;

use pram_runtime::{cpu, gpu};

#[test]
fn gpu_prints_what_the_cpu_plan_executor_prints() {
    if !gpu::available() {
        eprintln!("skipped: no GPU");
        return;
    }
    let mut differing = Vec::new();
    let mut compared = 0;
    for case in common::cases(&["classroom-examples", "tests/semantics", "tests/cpu_plan"]) {
        let Some((checked, plan)) = case.plan() else {
            continue;
        };
        let (file, procs, crcw) = (&case.file, case.procs, case.cpu_crcw());
        let config = cpu::Config {
            procs,
            order: cpu::Order::Forward,
            crcw,
            max_steps: u64::MAX,
        };
        let Ok(reference) = cpu::run(&plan, config) else {
            continue; // a faulting program: compared by scripts/gpu-verify.sh
        };
        let emitted = transform::emit_cuda::emit(&plan, &checked.sources).expect("emits");
        let run = gpu::run(
            &plan,
            &emitted,
            gpu::Config {
                procs: procs as u64,
                priority: crcw == cpu::Crcw::Priority,
                timing: false,
            },
        )
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        compared += 1;
        if run.stdout != reference.stdout || run.error.is_some() {
            differing.push(format!("{} -p {procs}", file.display()));
        }
    }
    assert!(compared > 0);
    assert!(differing.is_empty(), "GPU output differs: {differing:#?}");
}
