//! Runs the cases on the chosen backends: a warm-up, then the timed runs; every run's output
//! is compared with the sequential baseline's answer.

use crate::baselines::Expected;
use crate::hand_cuda::HandCuda;
use crate::report::Row;
use crate::stats::Summary;
use crate::suite::{Case, Program};
use fork_frontend::{diag, Checked, Options};
use pram_runtime::gpu;
use std::time::Instant;
use transform::emit_cuda::Schedule;
use transform::emit_cuda::{self, Emitted};
use transform::plan::Plan;

/// Where a case runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// forkcc's generated CUDA (`pram_runtime::gpu`), the host schedule.
    Gpu,
    /// The same under the device-resident schedule (one persistent launch).
    GpuDevice,
    /// `gpu` and `gpu-device` without the memory and arithmetic checks and the `--crcw
    /// common` check (`--unchecked`): the checks' cost is the ratio of the two.
    GpuUnchecked,
    GpuDeviceUnchecked,
    /// The reference PRAM simulator.
    Sim,
    /// The sequential Rust baselines.
    Seq,
    /// The hand-written CUDA baselines.
    CudaHand,
}

impl Backend {
    pub const ALL: [Backend; 7] = [
        Backend::Gpu,
        Backend::GpuDevice,
        Backend::GpuUnchecked,
        Backend::GpuDeviceUnchecked,
        Backend::Sim,
        Backend::Seq,
        Backend::CudaHand,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Gpu => "gpu",
            Backend::GpuDevice => "gpu-device",
            Backend::GpuUnchecked => "gpu-unchecked",
            Backend::GpuDeviceUnchecked => "gpu-device-unchecked",
            Backend::Sim => "sim",
            Backend::Seq => "seq",
            Backend::CudaHand => "cuda-hand",
        }
    }

    pub fn parse(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The schedule of a backend that runs forkcc's generated CUDA.
    fn schedule(self) -> Option<Schedule> {
        match self {
            Backend::Gpu | Backend::GpuUnchecked => Some(Schedule::Host),
            Backend::GpuDevice | Backend::GpuDeviceUnchecked => Some(Schedule::Device),
            _ => None,
        }
    }

    /// The backend of the same schedule without the checks, for a checked GPU backend.
    fn unchecked(self) -> Option<Backend> {
        match self {
            Backend::Gpu => Some(Backend::GpuUnchecked),
            Backend::GpuDevice => Some(Backend::GpuDeviceUnchecked),
            _ => None,
        }
    }

    /// Whether a GPU backend runs with the checks (docs/gpu-faults.md).
    fn checks(self) -> bool {
        !matches!(self, Backend::GpuUnchecked | Backend::GpuDeviceUnchecked)
    }
}

/// How to run.
pub struct Settings {
    pub backends: Vec<Backend>,
    /// Timed runs per configuration (after one warm-up run).
    pub runs: usize,
}

const NO_GPU: &str = "skipped: no GPU";

/// One timed run: seconds and the program's output.
struct Sample<X> {
    seconds: f64,
    output: String,
    extra: X,
}

/// A warm-up and `runs` timed runs; an error or a wrong output ends the measurement.
fn measure<X>(
    runs: usize,
    expected: &str,
    mut once: impl FnMut() -> Result<Sample<X>, String>,
) -> Result<(Summary, Vec<X>), String> {
    let mut samples = Vec::with_capacity(runs);
    let mut extras = Vec::with_capacity(runs);
    for i in 0..=runs {
        let sample = once()?;
        if sample.output != expected {
            return Err(format!(
                "wrong answer: printed {:?}, the sequential baseline {:?}",
                sample.output, expected
            ));
        }
        if i > 0 {
            samples.push(sample.seconds);
            extras.push(sample.extra);
        }
    }
    let summary = Summary::of(&samples).ok_or("no timed runs (--runs 0)")?;
    Ok((summary, extras))
}

fn row(case: &Case, procs: Option<u64>, backend: &str) -> Row {
    Row {
        program: case.program.name().into(),
        n: case.n,
        procs,
        backend: backend.into(),
        ..Row::default()
    }
}

/// Fills a row from a measurement: the times, or the error as its status.
fn finish<X>(
    mut row: Row,
    measured: Result<(Summary, Vec<X>), String>,
    fill: impl FnOnce(&mut Row, &[X]),
) -> Row {
    match measured {
        Ok((summary, extras)) => {
            row.set_times(summary);
            fill(&mut row, &extras);
            row.status = "ok".into();
        }
        Err(e) if e.starts_with("wrong answer") => row.status = e,
        Err(e) => row.status = format!("error: {e}"),
    }
    row
}

fn n_i32(case: &Case) -> Result<i32, String> {
    i32::try_from(case.n).map_err(|_| format!("N = {} does not fit a Fork int", case.n))
}

fn check(case: &Case) -> Result<Checked, String> {
    let options = Options {
        defines: vec![("N".into(), case.n.to_string())],
    };
    fork_frontend::check_file(std::path::Path::new(&case.program.path()), &options).map_err(
        |failed| {
            format!(
                "{} does not compile:\n{}",
                case.program.path(),
                diag::render(&failed.sources, &failed.diagnostics, false)
            )
        },
    )
}

/// The answer every backend must print: the first sequential baseline's (computed once,
/// untimed). With the `seq` backend, every baseline is also timed, and must print it too.
fn baselines(case: &Case, settings: &Settings, rows: &mut Vec<Row>) -> Result<Expected, String> {
    let n = n_i32(case)?;
    let list = case.program.baselines();
    let answer = case.program.answer(n);
    if settings.backends.contains(&Backend::Seq) {
        let text = answer.for_procs(0);
        for (name, baseline) in list {
            let measured = measure(settings.runs, &text, || {
                let t = Instant::now();
                let output = baseline(n);
                Ok(Sample {
                    seconds: t.elapsed().as_secs_f64(),
                    output: output.for_procs(0),
                    extra: (),
                })
            });
            rows.push(finish(row(case, None, name), measured, |_, _| {}));
        }
    }
    Ok(answer)
}

fn sim_row(case: &Case, checked: &Checked, procs: u64, expected: &str, runs: usize) -> Row {
    let row = row(case, Some(procs), Backend::Sim.name());
    if case.n > case.program.sim_max_n() {
        return Row {
            status: "skipped: over the simulator's time budget".into(),
            ..row
        };
    }
    if procs > u64::from(pram_sim::MAX_PROCS) {
        return Row {
            status: "skipped: over the simulator's memory budget (P > 2^20)".into(),
            ..row
        };
    }
    let config = pram_sim::Config {
        procs: procs as u32,
        ..pram_sim::Config::default()
    };
    let measured = measure(runs, expected, || {
        let t = Instant::now();
        let outcome = pram_sim::run(&checked.program, &config);
        let seconds = t.elapsed().as_secs_f64();
        if let Some(fault) = &outcome.fault {
            return Err(diag::render(
                &checked.sources,
                &[fault.to_diagnostic()],
                false,
            ));
        }
        Ok(Sample {
            seconds,
            output: String::from_utf8_lossy(&outcome.output).into_owned(),
            extra: outcome.stats.ops_per_second(),
        })
    });
    finish(row, measured, |row, rates| {
        row.sim_ops_per_s = Summary::of(rates).map(|s| s.median);
    })
}

/// The GPU's time of one run: from the first launch to the end of the final synchronisation
/// and the read-back of the output (the walk of the host control graph plus `finish`);
/// NVRTC (or the compile cache), context, module loading and allocation are setup, not
/// counted.
/// The same runs timestamp their group instances, for the device time of the algorithm's
/// function (`Program::algorithm`).
fn gpu_row(
    case: &Case,
    backend: Backend,
    compiled: &(Plan, Emitted),
    procs: u64,
    expected: &str,
    runs: usize,
) -> Row {
    let (plan, emitted) = compiled;
    let defaults = gpu::Config::default();
    let heap_bytes = case
        .program
        .heap_bytes(case.n)
        .map_or(defaults.memory.heap_bytes, |b| {
            b.max(defaults.memory.heap_bytes)
        });
    let config = gpu::Config {
        procs,
        timestamps: true,
        memory: gpu::Memory {
            heap_bytes,
            ..defaults.memory
        },
        ..defaults
    };
    let algorithm = case.program.algorithm();
    let measured = measure(runs, expected, || {
        let run = gpu::run(plan, emitted, config).map_err(|e| e.to_string())?;
        if let Some(e) = run.error {
            return Err(e.to_string());
        }
        Ok(Sample {
            seconds: (run.stats.host + run.stats.sync).as_secs_f64(),
            output: String::from_utf8_lossy(&run.stdout).into_owned(),
            extra: run.stats,
        })
    });
    finish(
        row(case, Some(procs), backend.name()),
        measured,
        |row, stats| {
            if let Some(last) = stats.last() {
                row.launches = Some(last.launches);
                row.read_backs = Some(last.read_backs);
            }
            let algorithm: Vec<f64> = stats
                .iter()
                .filter_map(|s| s.functions.iter().find(|f| f.name == algorithm))
                .map(|f| f.nanos as f64 / 1e9)
                .collect();
            if algorithm.len() == stats.len() {
                row.algorithm_s = Summary::of(&algorithm).map(|s| s.median);
            }
            let sync: f64 = stats.iter().map(|s| s.sync.as_secs_f64()).sum();
            let host: f64 = stats.iter().map(|s| s.host.as_secs_f64()).sum();
            if sync + host > 0.0 {
                row.sync_share = Some(sync / (sync + host));
                row.group_share = Some(host / (sync + host));
            }
        },
    )
}

fn hand_row(case: &Case, hand: &HandCuda, procs: u64, expected: &str, runs: usize) -> Row {
    let measured = n_i32(case).and_then(|n| {
        measure(runs, expected, || {
            let timed = match case.program {
                Program::Matmul => hand.matmul(n, procs)?,
                Program::PrefixHillisSteele => hand.prefix_inclusive(n, procs)?,
                other => return Err(format!("no hand-written CUDA for {}", other.name())),
            };
            Ok(Sample {
                seconds: timed.seconds,
                output: timed.output,
                extra: timed.algorithm,
            })
        })
    });
    finish(
        row(case, Some(procs), Backend::CudaHand.name()),
        measured,
        |row, algorithm| row.algorithm_s = Summary::of(algorithm).map(|s| s.median),
    )
}

fn compile_for_gpu(
    checked: &Checked,
    schedule: Schedule,
    checks: bool,
) -> Result<(Plan, Emitted), String> {
    let plan = transform::transform(&checked.program)
        .map_err(|d| diag::render(&checked.sources, &d, false))?;
    // The checked rows run what `forkcc run --backend gpu` runs by default: the memory and
    // arithmetic checks and the `--crcw common` check; `--unchecked` drops both.
    let options = emit_cuda::EmitOptions {
        checks,
        check_common: checks,
        schedule,
    };
    let emitted = emit_cuda::emit_with(&plan, &checked.sources, options)
        .map_err(|e| diag::render(&checked.sources, &[e.to_diagnostic()], false))?;
    Ok((plan, emitted))
}

/// Runs every case; `progress` sees each row as soon as it is measured (before the ratios).
pub fn run(cases: &[Case], settings: &Settings, mut progress: impl FnMut(&Row)) -> Vec<Row> {
    let gpu_present = gpu::available();
    let uses = |b| settings.backends.contains(&b);
    let mut hand: Option<Result<HandCuda, String>> = None;
    let mut rows = Vec::new();
    for case in cases {
        let start = rows.len();
        let expected = baselines(case, settings, &mut rows);
        rows[start..].iter().for_each(&mut progress);
        let checked = expected.clone().and_then(|_| check(case));
        let gpu_backends: Vec<(Backend, Schedule)> = settings
            .backends
            .iter()
            .filter_map(|b| Some((*b, b.schedule()?)))
            .collect();
        let compiled: Vec<_> = gpu_backends
            .iter()
            .map(|&(backend, schedule)| {
                let c = gpu_present.then(|| {
                    checked
                        .as_ref()
                        .map_err(Clone::clone)
                        .and_then(|c| compile_for_gpu(c, schedule, backend.checks()))
                });
                (backend, c)
            })
            .collect();
        for &procs in &case.procs {
            let failed = |backend: Backend, e: &str| Row {
                status: format!("error: {e}"),
                ..row(case, Some(procs), backend.name())
            };
            let text = expected
                .as_ref()
                .map(|e| e.for_procs(procs))
                .map_err(Clone::clone);
            if uses(Backend::Sim) {
                let r = match (&checked, &text) {
                    (Ok(c), Ok(t)) => sim_row(case, c, procs, t, settings.runs),
                    (Err(e), _) | (_, Err(e)) => failed(Backend::Sim, e),
                };
                progress(&r);
                rows.push(r);
            }
            for (backend, compiled) in &compiled {
                let r = match (compiled, &text) {
                    (None, _) => Row {
                        status: NO_GPU.into(),
                        ..row(case, Some(procs), backend.name())
                    },
                    (Some(Ok(c)), Ok(t)) => gpu_row(case, *backend, c, procs, t, settings.runs),
                    (Some(Err(e)), _) | (_, Err(e)) => failed(*backend, e),
                };
                progress(&r);
                rows.push(r);
            }
            if uses(Backend::CudaHand) && case.program.has_hand_cuda() {
                let r = if !gpu_present {
                    Row {
                        status: NO_GPU.into(),
                        ..row(case, Some(procs), Backend::CudaHand.name())
                    }
                } else {
                    match (&*hand.get_or_insert_with(HandCuda::new), &text) {
                        (Ok(h), Ok(t)) => hand_row(case, h, procs, t, settings.runs),
                        (Err(e), _) | (_, Err(e)) => failed(Backend::CudaHand, e),
                    }
                };
                progress(&r);
                rows.push(r);
            }
        }
        add_ratios(&mut rows[start..]);
    }
    rows
}

/// Ratios between the backends of one case (same program and N; same P where P matters).
pub fn add_ratios(rows: &mut [Row]) {
    let find = |rows: &[Row], backend: &str, procs: Option<u64>| {
        rows.iter()
            .find(|r| r.backend == backend && (procs.is_none() || r.procs == procs))
            .cloned()
    };
    let median = |rows: &[Row], backend: &str, procs: Option<u64>| {
        find(rows, backend, procs).and_then(|r| r.median_s)
    };
    let snapshot = rows.to_vec();
    let seq = median(&snapshot, Backend::Seq.name(), None);
    for row in rows.iter_mut().filter(|r| r.procs.is_some()) {
        let Some(time) = row.median_s else { continue };
        row.speedup_vs_seq = seq.map(|s| s / time);
        if Backend::parse(&row.backend).is_some_and(|b| b.schedule().is_some()) {
            row.speedup_vs_sim =
                median(&snapshot, Backend::Sim.name(), row.procs).map(|s| s / time);
            // Whole against whole; the algorithm's function against the hand-written
            // algorithm's kernels.
            let hand = find(&snapshot, Backend::CudaHand.name(), row.procs);
            row.whole_vs_hand = hand.as_ref().and_then(|h| h.median_s).map(|h| time / h);
            row.generated_vs_hand = (hand.and_then(|h| h.algorithm_s))
                .zip(row.algorithm_s)
                .map(|(h, a)| a / h);
        }
        if let Some(unchecked) = Backend::parse(&row.backend).and_then(Backend::unchecked) {
            row.checked_vs_unchecked =
                median(&snapshot, unchecked.name(), row.procs).map(|u| time / u);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim_only(program: Program, n: i64, procs: u64) -> Vec<Row> {
        let case = Case {
            program,
            n,
            procs: vec![procs],
        };
        let settings = Settings {
            backends: vec![Backend::Sim],
            runs: 1,
        };
        // The programs are read relative to the repository root.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::env::set_current_dir(root).expect("repository root");
        run(&[case], &settings, |_| {})
    }

    /// gen/hand compares the algorithm's function with the hand-written algorithm's kernels;
    /// whole/hand the whole program with the whole hand-written run; a row without the
    /// function's time has no gen/hand.
    #[test]
    fn gen_hand_uses_the_algorithms_time() {
        let gpu = |backend: &str, algorithm_s| Row {
            program: "matmul".into(),
            procs: Some(64),
            backend: backend.into(),
            median_s: Some(2.0),
            algorithm_s,
            ..Row::default()
        };
        let mut rows = vec![
            gpu("gpu", Some(0.5)),
            gpu("gpu-device", None),
            Row {
                median_s: Some(0.25),
                ..gpu("cuda-hand", Some(0.125))
            },
        ];
        add_ratios(&mut rows);
        assert_eq!(rows[0].generated_vs_hand, Some(4.0));
        assert_eq!(rows[0].whole_vs_hand, Some(8.0));
        assert_eq!(rows[1].generated_vs_hand, None);
        assert_eq!(rows[1].whole_vs_hand, Some(8.0));
        assert_eq!(
            rows[2].generated_vs_hand, None,
            "the hand-written row itself"
        );
    }

    #[test]
    fn the_simulators_budgets_skip_up_front() {
        let over = Program::ListRanking.sim_max_n() + 1;
        let rows = sim_only(Program::ListRanking, over, 64);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].status, "skipped: over the simulator's time budget");
        let rows = sim_only(Program::PrefixHillisSteele, 64, 1 << 21);
        assert_eq!(
            rows[0].status,
            "skipped: over the simulator's memory budget (P > 2^20)"
        );
        let rows = sim_only(Program::PrefixHillisSteele, 64, 8);
        assert_eq!(rows[0].status, "ok");
        assert_eq!(rows[0].runs, 1);
    }

    /// A checked GPU row gets its time over the unchecked row's of the same schedule and P:
    /// the cost of the checks.
    #[test]
    fn checked_rows_are_compared_with_unchecked_ones() {
        let timed = |backend: Backend, procs, median| Row {
            backend: backend.name().into(),
            procs: Some(procs),
            median_s: Some(median),
            ..Row::default()
        };
        let mut rows = vec![
            timed(Backend::Gpu, 8, 3.0),
            timed(Backend::GpuUnchecked, 8, 2.0),
            timed(Backend::GpuDevice, 8, 1.0),
            timed(Backend::GpuDeviceUnchecked, 8, 1.0),
            timed(Backend::Gpu, 16, 4.0),
        ];
        add_ratios(&mut rows);
        let ratios: Vec<Option<f64>> = rows.iter().map(|r| r.checked_vs_unchecked).collect();
        assert_eq!(ratios, [Some(1.5), None, Some(1.0), None, None]);
    }
}
