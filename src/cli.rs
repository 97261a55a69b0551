use crate::cmd_sim::{self, Backend, SimArgs};
use crate::cmd_test;
use crate::report::{self, MessageFormat, Reporter};
use clap::{Parser, Subcommand, ValueEnum};
use fork_frontend::{diag::Code, Options};
use pram_runtime::cpu::Order;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use transform::emit_cuda::{EmitOptions, Schedule};

/// `--heap-mib`, `--printf-mib`: MiB, from 1 to 2^20 (a TiB; the GPU's memory refuses what
/// it cannot hold, naming the bytes).
fn parse_mib(text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|m| (1..=1 << 20).contains(m))
        .ok_or_else(|| "give the size in MiB, a number from 1 to 1048576".into())
}

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

/// What the front end is told, and how its diagnostics are printed.
#[derive(clap::Args, Clone, Debug)]
pub struct FrontEndArgs {
    /// Define a macro, as `-D NAME=VALUE` (VALUE defaults to 1); overrides a `#define`.
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    pub define: Vec<String>,
    /// How diagnostics are printed on stderr: `human`, `short` (one line each,
    /// `file:line:col: error[CODE]: message`) or `json` (one object per line, as rustc's).
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = MessageFormat::Human)]
    pub message_format: MessageFormat,
}

#[derive(clap::Args, Clone, Debug)]
pub struct SourceArgs {
    /// The Fork source file (`-` reads standard input).
    pub file: PathBuf,
    #[command(flatten)]
    pub front: FrontEndArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check programs; diagnostics on stderr, exit 1 on an error in any of them.
    Check {
        /// The Fork source files (`-` reads standard input).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        front: FrontEndArgs,
    },
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
        /// `cuda`/`ptx`: without the memory and arithmetic checks (FK_CHECKS 0): faster, but a
        /// wrong index or pointer is not reported (docs/gpu-faults.md).
        #[arg(long)]
        unchecked: bool,
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
        order: Order,
        /// `gpu`: how the GPU runs the program's groups.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Host)]
        schedule: ScheduleArg,
        /// `gpu`: without the memory and arithmetic checks the GPU makes by default (indexes,
        /// pointers, null and freed pointers, division by zero, heap exhaustion) and the
        /// `--crcw common` check: faster, but such a fault is not reported (docs/gpu-faults.md).
        #[arg(long)]
        unchecked: bool,
        /// `gpu`: compile with NVRTC even when the compile cache holds the program, and leave
        /// the cache as it is (the cache: `$FORKCC_CACHE_DIR`, else `$XDG_CACHE_HOME/forkcc`,
        /// else `~/.cache/forkcc`).
        #[arg(long)]
        no_cache: bool,
        /// `gpu`: MiB of the heap of `malloc` and `shmalloc` (under the checks a fifth of it is
        /// their shadow map, and freed blocks are not reused).
        #[arg(long, value_name = "MIB", default_value_t = pram_runtime::gpu::Memory::default().heap_bytes >> 20,
              value_parser = parse_mib, allow_negative_numbers = true)]
        heap_mib: u64,
        /// `gpu`: MiB of the buffer of printf records (the output and its order keys).
        #[arg(long, value_name = "MIB", default_value_t = pram_runtime::gpu::Memory::default().out_bytes >> 20,
              value_parser = parse_mib, allow_negative_numbers = true)]
        printf_mib: u64,
    },
    /// Run the cases recorded in files (`//! run:` / `//! expect:`) and compare the output.
    Test {
        /// The Fork source files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Where to run them.
        #[arg(long, value_enum, default_value_t = Backend::Sim)]
        backend: Backend,
        /// `gpu`: how the GPU runs the program's groups.
        #[arg(long, value_enum, default_value_t = ScheduleArg::Host)]
        schedule: ScheduleArg,
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
    /// on the device, sibling subgroups at the same time (docs/device-schedule.md).
    Device,
}

impl ScheduleArg {
    pub fn schedule(self) -> Schedule {
        match self {
            ScheduleArg::Host => Schedule::Host,
            ScheduleArg::Device => Schedule::Device,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
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
        Command::Check { files, front } => {
            // Every file is checked, also after one with errors.
            let failed = files.iter().filter(|file| load(file, &front).is_none());
            if failed.count() == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Command::Build {
            source,
            emit,
            output,
            schedule,
            unchecked,
        } => {
            let reporter = Reporter::stderr(source.front.message_format);
            let Some(checked) = load(&source.file, &source.front) else {
                return ExitCode::FAILURE;
            };
            let text = match emit {
                Emit::Ast => Ok(fork_frontend::pretty::print_program(&checked.program)),
                Emit::Plan => crate::cmd_plan::plan_text(&checked, reporter),
                Emit::Cuda | Emit::Ptx => {
                    let options = EmitOptions {
                        checks: !unchecked,
                        schedule: schedule.schedule(),
                        ..EmitOptions::default()
                    };
                    if emit == Emit::Cuda {
                        crate::cmd_cuda::cuda_text(&checked, options, reporter)
                    } else {
                        crate::cmd_cuda::ptx_text(&checked, options, reporter)
                    }
                }
            };
            match text {
                Ok(text) => write_output(output.as_ref(), &text),
                Err(diagnostics) => {
                    eprint!("{diagnostics}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Sim(args) => cmd_sim::run(&args, Backend::Sim, cmd_sim::RunOptions::default()),
        Command::Run {
            sim,
            backend,
            order,
            schedule,
            unchecked,
            no_cache,
            heap_mib,
            printf_mib,
        } => cmd_sim::run(
            &sim,
            backend,
            cmd_sim::RunOptions {
                order,
                schedule: schedule.schedule(),
                unchecked,
                no_cache,
                memory: pram_runtime::gpu::Memory {
                    heap_bytes: heap_mib << 20,
                    out_bytes: printf_mib << 20,
                },
                ..cmd_sim::RunOptions::default()
            },
        ),
        Command::Test {
            files,
            backend,
            schedule,
        } => cmd_test::test(&files, backend, schedule.schedule()),
        Command::Bench(args) => crate::cmd_bench::bench(&args),
        Command::Explain { code: id } => match codes().find(|c| c.id.eq_ignore_ascii_case(&id)) {
            Some(code) => {
                let text = format!("{}: {}\n\n{}\n", code.id, code.title, code.explain);
                report::stdout(text.as_bytes())
                    .err()
                    .unwrap_or(ExitCode::SUCCESS)
            }
            None => {
                eprintln!("error: no diagnostic code `{id}`; codes look like E0101 or W0201");
                ExitCode::FAILURE
            }
        },
    }
}

/// Every diagnostic code, for `forkcc explain`: the front end's, then the backends'.
fn codes() -> impl Iterator<Item = &'static Code> {
    let backends = pram_sim::CODES
        .iter()
        .chain(transform::CODES)
        .chain(pram_runtime::cpu::CODES);
    fork_frontend::codes::all()
        .into_iter()
        .chain(backends.copied())
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

/// Runs the front end on `file` (`-`: standard input); prints diagnostics (warnings too) to
/// stderr. None when there were errors.
pub fn load(file: &Path, front: &FrontEndArgs) -> Option<fork_frontend::Checked> {
    let reporter = Reporter::stderr(front.message_format);
    let options = defines_options(&front.define);
    let checked = if file == Path::new("-") {
        fork_frontend::check_stdin(&options)
    } else {
        fork_frontend::check_file(file, &options)
    };
    match checked {
        Ok(checked) => {
            eprint!("{}", reporter.render(&checked.sources, &checked.warnings));
            Some(checked)
        }
        Err(failed) => {
            eprint!("{}", reporter.render(&failed.sources, &failed.diagnostics));
            None
        }
    }
}

fn write_output(output: Option<&PathBuf>, text: &str) -> ExitCode {
    match output {
        None => report::stdout(text.as_bytes())
            .err()
            .unwrap_or(ExitCode::SUCCESS),
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(err) => {
                eprintln!("error: cannot write `{}`: {err}", path.display());
                ExitCode::FAILURE
            }
        },
    }
}

#[cfg(test)]
mod tests {
    /// `forkcc explain` texts share one layout: paragraphs split by a blank line, an example
    /// (indented four spaces) in a paragraph of its own.
    #[test]
    fn explanations_share_one_layout() {
        for code in super::codes() {
            for paragraph in code.explain.split("\n\n") {
                let lines: Vec<&str> = paragraph.lines().collect();
                let indented = lines.iter().filter(|l| l.starts_with("    ")).count();
                assert!(
                    !lines.is_empty() && (indented == 0 || indented == lines.len()),
                    "{}: {paragraph:?}",
                    code.id
                );
            }
        }
    }
}
