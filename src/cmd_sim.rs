//! `forkcc sim` and `forkcc run`: the machine flags, and running a checked program on a backend.

use crate::cli::{load, SourceArgs};
use crate::report::{self, Reporter};
use clap::ValueEnum;
use fork_frontend::machine::Crcw;
use fork_frontend::Checked;
use std::path::PathBuf;
use std::process::ExitCode;
use transform::emit_cuda::Schedule;

/// The machine flags shared by `sim`, `run` and the `//! run:` lines of `forkcc test`.
#[derive(clap::Args, Clone, Debug)]
pub struct MachineFlags {
    /// Number of processors P.
    #[arg(short = 'p', long = "procs", value_name = "P", value_parser = parse_procs,
          allow_negative_numbers = true)]
    pub procs: u32,
    /// How concurrent writes of one cell are resolved.
    #[arg(long, value_enum, default_value_t = CrcwArg::Common)]
    pub crcw: CrcwArg,
    /// Which concurrent accesses are forbidden.
    #[arg(long, value_enum, default_value_t = ModelArg::Crcw)]
    pub model: ModelArg,
    /// Extra checks: `races` reports sibling subgroups touching one shared cell, one writing
    /// (simulator only); `bounds` is accepted for old command lines (every backend checks
    /// bounds by default).
    #[arg(long = "check", value_enum, value_name = "CHECK")]
    pub check: Vec<CheckArg>,
    /// Stop with an error after this many group steps. The GPU counts the iterations of each
    /// loop against it, which stops no earlier than the simulator (docs/gpu-limits.md).
    #[arg(long, value_name = "N", default_value_t = pram_sim::Config::default().max_steps)]
    pub max_steps: u64,
    /// Stop a GPU run with an error after this many seconds (default 30; 0: no time limit).
    /// The simulator and cpu-plan stop by `--max-steps` only.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<f64>,
}

/// `--timeout SECONDS`: a number of seconds, 0 or more (fractions allowed).
fn parse_seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .ok_or_else(|| "give the time limit in seconds, e.g. `--timeout 10` (0: none)".into())
}

/// `-p P`, up to what `__PROC_NR__` (an `int`) holds, `FK_PROC_MAX` (the standalone `.cu`
/// stops there too); the CPU backends have a lower limit (`cpu_limit`), the GPU's is its
/// memory. `-p -1` is read as a value (not as a flag, which made clap suggest `-- -1`) and
/// gets the same message as `-p 0` or `-p x`.
fn parse_procs(text: &str) -> Result<u32, String> {
    let max = transform::emit_cuda::abi::FK_PROC_MAX as u32;
    text.parse()
        .ok()
        .filter(|p| (1..=max).contains(p))
        .ok_or_else(|| format!("P must be a number from 1 to {max} (2^31 - 1)"))
}

/// The simulator and the CPU Plan executor hold state per processor in host memory: above
/// `pram_sim::MAX_PROCS` they refuse the run (the GPU backend runs more).
fn cpu_limit(flags: &MachineFlags, backend: &str) -> Option<Execution> {
    (flags.procs > pram_sim::MAX_PROCS).then(|| Execution {
        output: Vec::new(),
        diagnostics: format!(
            "error: -p {}: the {backend} runs at most {} processors (2^20; its memory grows with \
             P); `--backend gpu` runs more\n",
            flags.procs,
            pram_sim::MAX_PROCS
        ),
        ok: false,
        stats: None,
        trace: None,
    })
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

/// The flag's value is the machine's setting (clap's `ValueEnum` cannot be derived on the
/// front end's type).
impl From<CrcwArg> for Crcw {
    fn from(arg: CrcwArg) -> Crcw {
        match arg {
            CrcwArg::Common => Crcw::Common,
            CrcwArg::Arbitrary => Crcw::Arbitrary,
            CrcwArg::Priority => Crcw::Priority,
        }
    }
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

    /// The GPU's limits: `--max-steps`, and `--timeout` or its default.
    pub fn gpu_limits(&self) -> pram_runtime::gpu::Limits {
        let seconds = self
            .timeout
            .unwrap_or(transform::emit_cuda::DEFAULT_TIMEOUT_SECONDS as f64);
        pram_runtime::gpu::Limits {
            max_steps: self.max_steps.max(1),
            timeout: (seconds > 0.0).then(|| std::time::Duration::from_secs_f64(seconds)),
            max_depth: pram_sim::Config::default().max_depth as usize,
        }
    }
}

/// Where `forkcc run` and `forkcc test` execute a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// The GPU when a GPU and NVRTC are found, else the reference simulator.
    Auto,
    /// The reference PRAM simulator.
    Sim,
    /// The transform's Plan, executed on the CPU.
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
    /// Record the run: `FILE.json` is a trace for ui.perfetto.dev or chrome://tracing (the
    /// simulator's in PRAM steps, the GPU backend's in real time), `FILE.svg` a picture of
    /// processors against PRAM steps (simulator only).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// The most events `--trace` keeps (the trace then says where it was cut); a trace file
    /// grows by a few hundred bytes an event.
    #[arg(long, value_name = "N", requires = "trace", default_value_t = pram_sim::DEFAULT_LIMIT as u64,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub trace_limit: u64,
}

impl MachineFlags {
    pub fn config(&self) -> pram_sim::Config {
        pram_sim::Config {
            procs: self.procs,
            crcw: self.crcw.into(),
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

/// What one run of a checked program on a backend produced.
pub struct Execution {
    pub output: Vec<u8>,
    /// Rendered diagnostics and messages of the run (the fault, a refused flag).
    pub diagnostics: String,
    /// The `--stats` report.
    pub stats: Option<String>,
    pub ok: bool,
    /// The recorded run (`--trace`, simulator and GPU; also when it faulted).
    pub trace: Option<pram_trace::Trace>,
}

impl Execution {
    /// A run that failed before printing anything: only its diagnostics.
    pub fn failed(diagnostics: String) -> Execution {
        Execution {
            output: Vec::new(),
            diagnostics,
            stats: None,
            ok: false,
            trace: None,
        }
    }
}

/// The backend `auto` stands for: the GPU when there is one, unless a check only the simulator
/// makes is asked for. The second value says whether to tell the user that there is no GPU.
pub fn choose(backend: Backend, flags: &MachineFlags, gpu_present: bool) -> (Backend, bool) {
    match backend {
        Backend::Auto if flags.simulator_only_checks() => (Backend::Sim, false),
        Backend::Auto if gpu_present => (Backend::Gpu, false),
        Backend::Auto => (Backend::Sim, true),
        chosen => (chosen, false),
    }
}

pub const NO_GPU_NOTE: &str =
    "note: no GPU with NVRTC found; running on the reference simulator (`--backend sim`)";

/// How a run is asked for beyond the machine: the cpu-plan thread order, the GPU schedule,
/// `--stats`, and a trace title when the run is recorded (`--trace`).
pub struct RunOptions<'a> {
    pub order: pram_runtime::cpu::Order,
    pub schedule: Schedule,
    /// `gpu`: `--unchecked`.
    pub unchecked: bool,
    /// `gpu`: `--no-cache`.
    pub no_cache: bool,
    /// `gpu`: `--heap-mib`, `--printf-mib`.
    pub memory: pram_runtime::gpu::Memory,
    pub stats: bool,
    pub trace: Option<&'a str>,
    /// `--trace-limit`: the most events the trace keeps.
    pub trace_limit: usize,
}

/// `forkcc sim`'s and `forkcc test`'s: the flags' defaults, nothing recorded.
impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            order: pram_runtime::cpu::Order::Forward,
            schedule: Schedule::Host,
            unchecked: false,
            no_cache: false,
            memory: pram_runtime::gpu::Memory::default(),
            stats: false,
            trace: None,
            trace_limit: pram_sim::DEFAULT_LIMIT,
        }
    }
}

/// Runs a checked program on `backend` (not `auto`: see `choose`).
pub fn execute(
    checked: &Checked,
    backend: Backend,
    flags: &MachineFlags,
    options: &RunOptions,
    reporter: Reporter,
) -> Execution {
    if let (Some(_), Backend::Auto | Backend::Sim | Backend::CpuPlan) = (flags.timeout, backend) {
        return Execution::failed(
            "error: `--timeout` limits GPU runs only; this run is on the CPU (`--backend sim` or \
             `cpu-plan`), which stops by `--max-steps`: leave `--timeout` out\n"
                .into(),
        );
    }
    match backend {
        Backend::Auto | Backend::Sim => cpu_limit(flags, "simulator")
            .unwrap_or_else(|| simulate(checked, flags, options, reporter)),
        Backend::CpuPlan => cpu_limit(flags, "CPU Plan executor")
            .unwrap_or_else(|| crate::cmd_plan::execute(checked, flags, options.order, reporter)),
        Backend::Gpu => crate::cmd_cuda::execute(checked, flags, options, reporter),
    }
}

/// The simulator; with a trace title it records the run.
fn simulate(
    checked: &Checked,
    flags: &MachineFlags,
    options: &RunOptions,
    reporter: Reporter,
) -> Execution {
    let outcome = match options.trace {
        Some(title) => {
            let options = pram_sim::TraceOptions {
                title,
                limit: options.trace_limit,
                sources: &checked.sources,
            };
            pram_sim::run_traced(&checked.program, &flags.config(), &options)
        }
        None => pram_sim::run(&checked.program, &flags.config()),
    };
    let diagnostics = outcome.fault.as_ref().map_or(String::new(), |fault| {
        reporter.render(&checked.sources, &[fault.to_diagnostic()])
    });
    Execution {
        output: outcome.output,
        diagnostics,
        ok: outcome.fault.is_none(),
        stats: Some(outcome.stats.render()),
        trace: outcome.trace,
    }
}

/// `forkcc sim` (`backend` = sim) and `forkcc run`: the program's output on stdout and nothing
/// else; diagnostics and `--stats` on stderr. Errors in the input come before any note about
/// the backend.
/// `options` are the run's flags; `--stats` and the trace title come from `args`.
pub fn run(args: &SimArgs, backend: Backend, options: RunOptions) -> ExitCode {
    let reporter = Reporter::stderr(args.source.front.message_format);
    let format = match args.trace.as_deref().map(pram_trace::Format::of_path) {
        Some(Err(err)) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
        Some(Ok(format)) => Some(format),
        None => None,
    };
    match (format, backend) {
        (Some(_), Backend::CpuPlan) => return trace_elsewhere(backend),
        (Some(pram_trace::Format::Svg), Backend::Gpu) => {
            eprintln!(
                "error: the GPU's trace is `--trace FILE.json` only: the GPU records the size of \
                 each group instance, not which processors are in it, which the SVG picture \
                 draws; use `--backend sim` for the SVG"
            );
            return ExitCode::FAILURE;
        }
        _ => {}
    }
    let Some(checked) = load(&args.source.file, &args.source.front) else {
        return ExitCode::FAILURE;
    };
    // `auto` with a trace stays on the simulator (its trace counts PRAM steps, the GPU's
    // real time: `--backend gpu` asks for that).
    let gpu_present =
        backend == Backend::Auto && format.is_none() && pram_runtime::gpu::available();
    let (backend, no_gpu) = choose(backend, &args.machine, gpu_present);
    if no_gpu && format.is_none() {
        eprintln!("{NO_GPU_NOTE}");
    }
    let title = {
        let command = match backend {
            Backend::Gpu => format!(
                "forkcc run --backend gpu --schedule {}",
                match options.schedule {
                    Schedule::Host => "host",
                    Schedule::Device => "device",
                }
            ),
            _ => "forkcc sim".to_string(),
        };
        let mut title = format!(
            "{command} {} -p {}",
            args.source.file.display(),
            args.machine.procs
        );
        for d in &args.source.front.define {
            title.push_str(&format!(" -D {d}"));
        }
        title
    };
    let options = RunOptions {
        stats: args.stats,
        trace: format.is_some().then_some(title.as_str()),
        trace_limit: usize::try_from(args.trace_limit).unwrap_or(usize::MAX),
        ..options
    };
    let run = execute(&checked, backend, &args.machine, &options, reporter);
    let written = report::stdout(&run.output);
    eprint!("{}", run.diagnostics);
    if let (true, Some(stats)) = (args.stats, &run.stats) {
        eprint!("{stats}");
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
    match written {
        Err(code) => code,
        Ok(()) if run.ok => ExitCode::SUCCESS,
        Ok(()) => ExitCode::FAILURE,
    }
}

/// `run --trace` on a backend that does not record traces.
pub fn trace_elsewhere(backend: Backend) -> ExitCode {
    let name = backend
        .to_possible_value()
        .map_or(String::new(), |v| v.get_name().to_string());
    eprintln!(
        "error: `--trace` is on the simulator and the GPU; the `{name}` backend does not record traces: run with `--backend sim` or `--backend gpu`"
    );
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    /// The GPU's default step and recursion limits are the simulator's (the transform, which
    /// emits them into the standalone `.cu`, cannot depend on the simulator).
    #[test]
    fn the_gpu_default_limits_are_the_simulators() {
        let sim = pram_sim::Config::default();
        assert_eq!(transform::emit_cuda::DEFAULT_MAX_STEPS, sim.max_steps);
        assert_eq!(
            transform::emit_cuda::DEFAULT_MAX_DEPTH,
            sim.max_depth as usize
        );
    }
}
