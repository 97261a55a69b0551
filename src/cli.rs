use crate::cmd_sim::{self, Backend, SimArgs};
use crate::cmd_test;
use clap::{Parser, Subcommand, ValueEnum};
use fork_frontend::{diag, Options};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "forkcc",
    version,
    about = "Fork (PRAM language) compiler: check, simulate, compile to CUDA, run"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Clone, Debug)]
pub struct SourceArgs {
    /// The Fork source file.
    pub file: PathBuf,
    /// Define a macro, as `-D NAME=VALUE` (VALUE defaults to 1); overrides a `#define`.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    pub define: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check a program; diagnostics on stderr, exit 1 on an error.
    Check(SourceArgs),
    /// Compile a program and print an intermediate or final form.
    Build {
        #[command(flatten)]
        source: SourceArgs,
        /// What to print.
        #[arg(long, value_enum, default_value_t = Emit::Ast)]
        emit: Emit,
        /// Write to this file instead of stdout.
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// `cuda`/`ptx`: how the GPU runs the program's groups.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Host)]
        schedule: ScheduleArg,
    },
    /// Run a program on the reference PRAM simulator; its output on stdout, diagnostics on stderr.
    Sim(SimArgs),
    /// Run a program on a backend: the simulator, the Plan on the CPU (`--backend cpu-plan`)
    /// or on the GPU (`--backend gpu`).
    Run {
        #[command(flatten)]
        sim: SimArgs,
        /// Where to run it.
        #[arg(long, value_enum, default_value_t = Backend::Auto)]
        backend: Backend,
        /// `cpu-plan`: the thread order of every kernel: forward, reverse or shuffle:SEED.
        #[arg(long, default_value = "forward")]
        order: pram_runtime::cpu::Order,
        /// `gpu`: how the GPU runs the program's groups.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Host)]
        schedule: ScheduleArg,
    },
    /// Run the cases recorded in files (`//! run:` / `//! expect:`) and compare the output.
    Test {
        /// The Fork source files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Where to run them.
        #[arg(long, value_enum, default_value_t = Backend::Sim)]
        backend: Backend,
    },
    /// Run a benchmark suite on the backends and baselines; table, JSON, CSV and SVG plots.
    Bench(crate::cmd_bench::BenchArgs),
    /// Explain a diagnostic code, e.g. `forkcc explain E0101`.
    Explain { code: String },
}

/// `--schedule`: how the GPU runs the host program.
#[derive(Clone, Copy, ValueEnum)]
pub enum ScheduleArg {
    /// The 2012 study's design: the host launches each kernel and decides every split and
    /// loop exit.
    Host,
    /// One persistent launch; every processor runs the program from its own program point
    /// on the device, sibling subgroups at the same time.
    Device,
}

impl ScheduleArg {
    pub fn schedule(self) -> transform::emit_cuda::Schedule {
        match self {
            ScheduleArg::Host => transform::emit_cuda::Schedule::Host,
            ScheduleArg::Device => transform::emit_cuda::Schedule::Device,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Emit {
    /// The checked program with types and sharity.
    Ast,
    /// The Plan: kernels, host control graph, storage layout.
    Plan,
    /// One self-contained CUDA source (kernels, runtime library, host `main`) for nvcc.
    Cuda,
    /// The kernels compiled to PTX by NVRTC (sm_90).
    Ptx,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check(source) => match load(&source) {
            Some(_) => ExitCode::SUCCESS,
            None => ExitCode::FAILURE,
        },
        Command::Build {
            source,
            emit,
            output,
            schedule,
        } => {
            let Some(checked) = load(&source) else {
                return ExitCode::FAILURE;
            };
            let text = match emit {
                Emit::Ast => fork_frontend::pretty::print_program(&checked.program),
                Emit::Plan => match crate::cmd_plan::plan_text(&checked) {
                    Some(text) => text,
                    None => return ExitCode::FAILURE,
                },
                Emit::Cuda => match crate::cmd_cuda::cuda_text(&checked, schedule.schedule()) {
                    Some(text) => text,
                    None => return ExitCode::FAILURE,
                },
                Emit::Ptx => match crate::cmd_cuda::ptx_text(&checked, schedule.schedule()) {
                    Some(text) => text,
                    None => return ExitCode::FAILURE,
                },
            };
            write_output(output.as_ref(), &text)
        }
        Command::Sim(args) => cmd_sim::sim(&args),
        Command::Run {
            sim,
            backend: backend @ (Backend::CpuPlan | Backend::Gpu),
            ..
        } if sim.trace.is_some() => cmd_sim::trace_elsewhere(backend),
        Command::Run {
            sim,
            backend: Backend::CpuPlan,
            order,
            ..
        } => crate::cmd_plan::run(&sim, order),
        Command::Run {
            sim,
            backend: Backend::Gpu,
            schedule,
            ..
        } => crate::cmd_cuda::run(&sim, schedule.schedule()),
        Command::Run {
            sim,
            backend,
            schedule,
            ..
        } => cmd_sim::run(&sim, backend, schedule.schedule()),
        Command::Test { files, backend } => cmd_test::test(&files, backend),
        Command::Bench(args) => crate::cmd_bench::bench(&args),
        Command::Explain { code } => match fork_frontend::codes::find(&code).or_else(|| {
            pram_sim::CODES
                .iter()
                .chain(transform::CODES)
                .chain(pram_runtime::cpu::CODES)
                .copied()
                .find(|c| c.id.eq_ignore_ascii_case(&code))
        }) {
            Some(code) => {
                println!("{}: {}\n\n{}", code.id, code.title, code.explain);
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("error: no diagnostic code `{code}`; codes look like E0101 or W0201");
                ExitCode::FAILURE
            }
        },
    }
}

fn options(source: &SourceArgs) -> Options {
    defines_options(&source.define)
}

/// `-D NAME=VALUE` arguments as front-end options.
pub fn defines_options(define: &[String]) -> Options {
    let defines = define
        .iter()
        .map(|d| match d.split_once('=') {
            Some((name, value)) => (name.to_string(), value.to_string()),
            None => (d.clone(), "1".to_string()),
        })
        .collect();
    Options { defines }
}

/// Runs the front end; prints diagnostics (warnings too) to stderr. None when there were errors.
pub fn load(source: &SourceArgs) -> Option<fork_frontend::Checked> {
    let color = std::io::stderr().is_terminal();
    match fork_frontend::check_file(&source.file, &options(source)) {
        Ok(checked) => {
            eprint!(
                "{}",
                diag::render(&checked.sources, &checked.warnings, color)
            );
            Some(checked)
        }
        Err(failed) => {
            eprint!(
                "{}",
                diag::render(&failed.sources, &failed.diagnostics, color)
            );
            None
        }
    }
}

fn write_output(output: Option<&PathBuf>, text: &str) -> ExitCode {
    match output {
        None => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: cannot write `{}`: {err}", path.display());
                ExitCode::FAILURE
            }
        },
    }
}
