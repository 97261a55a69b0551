//! GPU execution: every classroom example and semantics program (its `//! run:` cases) runs
//! on the GPU driver, under both schedules, and prints the same bytes as the CPU Plan
//! executor. Without a GPU (or without NVRTC) the tests are reported as ignored.

mod common;

use pram_runtime::{cpu, gpu};
use transform::emit_cuda::{EmitOptions, Schedule};

fn main() {
    let present = gpu::available();
    common::run(vec![
        common::needing_gpu(
            present,
            "gpu_prints_what_the_cpu_plan_executor_prints",
            gpu_prints_what_the_cpu_plan_executor_prints,
        ),
        common::needing_gpu(
            present,
            "gpu_device_schedule_prints_what_the_cpu_plan_executor_prints",
            gpu_device_schedule_prints_what_the_cpu_plan_executor_prints,
        ),
        common::needing_gpu(
            present,
            "gpu_reports_an_array_index_out_of_bounds_with_check_bounds",
            gpu_reports_an_array_index_out_of_bounds_with_check_bounds,
        ),
    ]);
}

fn gpu_prints_what_the_cpu_plan_executor_prints() {
    gpu_runs_agree(Schedule::Host);
}

fn gpu_device_schedule_prints_what_the_cpu_plan_executor_prints() {
    gpu_runs_agree(Schedule::Device);
}

fn gpu_runs_agree(schedule: Schedule) {
    let mut differing = Vec::new();
    let mut compared = 0;
    for case in common::cases(&["classroom-examples", "tests/semantics", "tests/cpu_plan"]) {
        if schedule == Schedule::Device && !case.device_schedule_agrees() {
            continue;
        }
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
        let options = EmitOptions {
            schedule,
            ..EmitOptions::default()
        };
        let emitted =
            transform::emit_cuda::emit_with(&plan, &checked.sources, options).expect("emits");
        let run = gpu::run(
            &plan,
            &emitted,
            gpu::Config {
                procs: procs as u64,
                priority: crcw == cpu::Crcw::Priority,
                ..gpu::Config::default()
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

/// `--check bounds` on the GPU: P = 5 writes a[4] of a 4-element array; the run stops with
/// the access's location and processor, as the simulator does.
fn gpu_reports_an_array_index_out_of_bounds_with_check_bounds() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/semantics/fault_out_of_bounds.fork");
    let checked =
        fork_frontend::check_file(&file, &Default::default()).unwrap_or_else(|_| panic!("checks"));
    let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("transforms"));
    let options = EmitOptions {
        check_bounds: true,
        ..EmitOptions::default()
    };
    let emitted = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
        .unwrap_or_else(|e| panic!("{}", e.message));
    let config = gpu::Config {
        procs: 5,
        ..gpu::Config::default()
    };
    let run = gpu::run(&plan, &emitted, config).unwrap_or_else(|e| panic!("{e}"));
    let error = run
        .error
        .expect("the out-of-bounds write is reported")
        .to_string();
    assert!(
        error.contains("array index out of bounds at")
            && error.contains("fault_out_of_bounds.fork:17:5"),
        "{error}"
    );
    assert!(error.contains("processor 4"), "{error}");
    assert!(
        run.stdout.is_empty(),
        "nothing printed from the faulting step on"
    );
}
