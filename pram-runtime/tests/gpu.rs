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
        common::needing_gpu(present, "gpu_reports_faults_like_the_simulator", || {
            gpu_reports_faults_like_the_simulator(Schedule::Host)
        }),
        common::needing_gpu(
            present,
            "gpu_device_schedule_reports_faults_like_the_simulator",
            || gpu_reports_faults_like_the_simulator(Schedule::Device),
        ),
    ]);
}

fn gpu_prints_what_the_cpu_plan_executor_prints() {
    gpu_runs_agree(Schedule::Host);
}

fn gpu_device_schedule_prints_what_the_cpu_plan_executor_prints() {
    gpu_runs_agree(Schedule::Device);
}

/// The corpus cases the GPU runs under `schedule`, each with its checked program and Plan.
fn gpu_cases(
    schedule: Schedule,
) -> impl Iterator<Item = (common::Case, fork_frontend::Checked, transform::plan::Plan)> {
    common::cases(&["classroom-examples", "tests/semantics", "tests/cpu_plan"])
        .into_iter()
        .filter(move |case| schedule == Schedule::Host || case.device_schedule_agrees())
        .filter_map(|case| {
            let (checked, plan) = case.plan()?;
            Some((case, checked, plan))
        })
}

fn gpu_runs_agree(schedule: Schedule) {
    let mut differing = Vec::new();
    let mut compared = 0;
    for (case, checked, plan) in gpu_cases(schedule) {
        let (file, procs, crcw) = (&case.file, case.procs, case.crcw_mode());
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

/// Every case that faults on a check the GPU makes (docs/gpu-faults.md) stops on the GPU with
/// the simulator's code, location and processor, after the simulator's output up to the
/// fault.
fn gpu_reports_faults_like_the_simulator(schedule: Schedule) {
    let mut differing = Vec::new();
    let mut compared = 0;
    for (case, checked, plan) in gpu_cases(schedule) {
        let Some((stdout, expected)) = case.simulator_fault(&checked) else {
            continue;
        };
        let options = EmitOptions {
            schedule,
            ..EmitOptions::default()
        };
        let emitted =
            transform::emit_cuda::emit_with(&plan, &checked.sources, options).expect("emits");
        let config = gpu::Config {
            procs: case.procs as u64,
            priority: case.crcw_mode() == cpu::Crcw::Priority,
            ..gpu::Config::default()
        };
        let run = gpu::run(&plan, &emitted, config)
            .unwrap_or_else(|e| panic!("{}: {e}", case.file.display()));
        compared += 1;
        let agrees = match &run.error {
            Some(gpu::GpuError::Fault(f)) => {
                f.code.id == expected.code.id
                    // file:line:col (a write's span ends at the place on the GPU, at the
                    // assigned value on the simulator)
                    && checked.sources.location(f.span) == checked.sources.location(expected.span)
                    && f.who.map(|w| w.proc) == expected.who.map(|w| w.proc)
                    && run.stdout == stdout
            }
            _ => false,
        };
        if !agrees {
            differing.push(format!(
                "{} -p {}: {:?}, expected {}",
                case.file.display(),
                case.procs,
                run.error.map(|e| e.to_string()),
                expected.message()
            ));
        }
    }
    assert!(compared > 0);
    assert!(differing.is_empty(), "GPU faults differ: {differing:#?}");
}
