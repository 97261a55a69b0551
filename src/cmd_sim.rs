//! `forkcc sim` and `forkcc run`: run a program on the reference PRAM simulator.

use crate::cli::{defines_options, SourceArgs};
use clap::ValueEnum;
use fork_frontend::diag;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The machine flags shared by `sim`, `run` and the `//! run:` lines of `forkcc test`.
#[derive(clap::Args, Clone, Debug)]
pub struct MachineFlags {
    /// Number of processors P.
    #[arg(short = 'p', long = "procs", value_name = "P",
          value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub procs: u32,
    /// How concurrent writes of one cell are resolved.
    #[arg(long, value_enum, default_value_t = CrcwArg::Common)]
    pub crcw: CrcwArg,
    /// Which concurrent accesses are forbidden.
    #[arg(long, value_enum, default_value_t = ModelArg::Crcw)]
    pub model: ModelArg,
    /// Extra checks: `races` reports sibling subgroups touching one shared cell, one writing
    /// (simulator only); `bounds` makes the GPU check array indexes (the simulator always
    /// checks every access).
    #[arg(long = "check", value_enum, value_name = "CHECK")]
    pub check: Vec<CheckArg>,
    /// Stop with an error after this many group steps.
    #[arg(long, value_name = "N", default_value_t = pram_sim::Config::default().max_steps)]
    pub max_steps: u64,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CrcwArg {
    /// All concurrent writers must write the same value (else an error).
    Common,
    /// One writer wins (the simulator picks the lowest __PROC_NR__).
    Arbitrary,
    /// The writer with the highest __PROC_NR__ wins.
    Priority,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModelArg {
    Erew,
    Crew,
    Crcw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckArg {
    Races,
    Bounds,
}

impl MachineFlags {
    /// Checks only the simulator makes: the access model and races.
    pub fn simulator_only_checks(&self) -> bool {
        !matches!(self.model, ModelArg::Crcw) || self.check.contains(&CheckArg::Races)
    }
}

/// Where `forkcc run` executes a program. GPU backends extend this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The GPU when a GPU and NVRTC are found, else the reference simulator.
    Auto,
    /// The reference PRAM simulator.
    Sim,
    /// The transform's Plan, executed on the CPU (kernel threads in `--order`).
    CpuPlan,
    /// The transform's Plan on GPU 0 (NVRTC + the CUDA driver).
    Gpu,
}

#[derive(clap::Args, Clone, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    #[command(flatten)]
    pub machine: MachineFlags,
    /// Print cost statistics (PRAM time, work, groups, per function) to stderr.
    #[arg(long)]
    pub stats: bool,
    /// Record the run (simulator only): `FILE.json` is a trace for ui.perfetto.dev or
    /// chrome://tracing, `FILE.svg` a picture of processors against PRAM steps.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

impl MachineFlags {
    pub fn config(&self) -> pram_sim::Config {
        pram_sim::Config {
            procs: self.procs,
            crcw: match self.crcw {
                CrcwArg::Common => pram_sim::Crcw::Common,
                CrcwArg::Arbitrary => pram_sim::Crcw::Arbitrary,
                CrcwArg::Priority => pram_sim::Crcw::Priority,
            },
            model: match self.model {
                ModelArg::Erew => pram_sim::Model::Erew,
                ModelArg::Crew => pram_sim::Model::Crew,
                ModelArg::Crcw => pram_sim::Model::Crcw,
            },
            check_races: self.check.contains(&CheckArg::Races),
            max_steps: self.max_steps,
            ..pram_sim::Config::default()
        }
    }
}

/// What one simulation produced.
pub struct Simulation {
    pub output: Vec<u8>,
    /// Rendered diagnostics (front-end warnings and errors, the runtime fault).
    pub diagnostics: String,
    pub stats: Option<pram_sim::Stats>,
    pub ok: bool,
    /// The recorded run, when asked for (also when it faulted).
    pub trace: Option<pram_trace::Trace>,
}

/// Checks and simulates `file`.
pub fn simulate(file: &Path, defines: &[String], flags: &MachineFlags, color: bool) -> Simulation {
    simulate_traced(file, defines, flags, color, false)
}

/// `simulate`, recording the run when `trace` is set.
fn simulate_traced(
    file: &Path,
    defines: &[String],
    flags: &MachineFlags,
    color: bool,
    trace: bool,
) -> Simulation {
    let checked = match fork_frontend::check_file(file, &defines_options(defines)) {
        Ok(checked) => checked,
        Err(failed) => {
            return Simulation {
                output: Vec::new(),
                diagnostics: diag::render(&failed.sources, &failed.diagnostics, color),
                stats: None,
                ok: false,
                trace: None,
            }
        }
    };
    let outcome = if trace {
        let mut title = format!("forkcc sim {} -p {}", file.display(), flags.procs);
        for d in defines {
            title.push_str(&format!(" -D {d}"));
        }
        let options = pram_sim::TraceOptions {
            title: &title,
            limit: pram_sim::DEFAULT_LIMIT,
            sources: &checked.sources,
        };
        pram_sim::run_traced(&checked.program, &flags.config(), &options)
    } else {
        pram_sim::run(&checked.program, &flags.config())
    };
    let mut diagnostics = diag::render(&checked.sources, &checked.warnings, color);
    if let Some(fault) = &outcome.fault {
        diagnostics.push_str(&diag::render(
            &checked.sources,
            &[fault.to_diagnostic()],
            color,
        ));
    }
    Simulation {
        output: outcome.output,
        diagnostics,
        ok: outcome.fault.is_none(),
        stats: Some(outcome.stats),
        trace: outcome.trace,
    }
}

/// `forkcc sim`: program output on stdout and nothing else; diagnostics and stats on stderr.
pub fn sim(args: &SimArgs) -> ExitCode {
    let color = std::io::stderr().is_terminal();
    let format = match args.trace.as_deref().map(pram_trace::Format::of_path) {
        Some(Err(err)) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
        Some(Ok(format)) => Some(format),
        None => None,
    };
    let run = simulate_traced(
        &args.source.file,
        &args.source.define,
        &args.machine,
        color,
        format.is_some(),
    );
    let mut stdout = std::io::stdout().lock();
    let written = stdout.write_all(&run.output).and_then(|()| stdout.flush());
    eprint!("{}", run.diagnostics);
    if let (true, Some(stats)) = (args.stats, &run.stats) {
        eprint!("{}", stats.render());
    }
    if let Err(err) = written {
        eprintln!("error: cannot write the program's output: {err}");
        return ExitCode::FAILURE;
    }
    if let (Some(path), Some(format), Some(trace)) = (&args.trace, format, &run.trace) {
        if let Err(err) = std::fs::write(path, format.write(trace)) {
            eprintln!(
                "error: cannot write the trace to `{}`: {err}",
                path.display()
            );
            return ExitCode::FAILURE;
        }
        if let Some(text) = trace.cut_text() {
            eprintln!(
                "note: {text}; `{}` shows the run up to there",
                path.display()
            );
        }
    }
    if run.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `forkcc run`: runs on the chosen backend.
pub fn run(args: &SimArgs, backend: Backend, schedule: transform::emit_cuda::Schedule) -> ExitCode {
    // The GPU does not check EREW/CREW accesses or races, nor record traces: such runs stay on
    // the simulator.
    if backend == Backend::Auto && !args.machine.simulator_only_checks() && args.trace.is_none() {
        if pram_runtime::gpu::available() {
            return crate::cmd_cuda::run(args, schedule);
        }
        eprintln!(
            "note: no GPU with NVRTC found; running on the reference simulator (`--backend sim`)"
        );
    }
    sim(args)
}

/// `run --trace` on a backend that does not record traces.
pub fn trace_elsewhere(backend: Backend) -> ExitCode {
    let name = backend
        .to_possible_value()
        .map_or(String::new(), |v| v.get_name().to_string());
    eprintln!(
        "error: `--trace` is only on the simulator for now; the `{name}` backend does not record traces: run with `--backend sim`"
    );
    ExitCode::FAILURE
}
