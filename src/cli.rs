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

#[derive(clap::Args, Clone)]
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
    },
    /// Run a program: `--backend cpu-plan` executes the transform's Plan on the CPU.
    Run(crate::cmd_plan::RunArgs),
    /// Explain a diagnostic code, e.g. `forkcc explain E0101`.
    Explain { code: String },
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
                Emit::Cuda => match crate::cmd_cuda::cuda_text(&checked) {
                    Some(text) => text,
                    None => return ExitCode::FAILURE,
                },
                Emit::Ptx => match crate::cmd_cuda::ptx_text(&checked) {
                    Some(text) => text,
                    None => return ExitCode::FAILURE,
                },
            };
            write_output(output.as_ref(), &text)
        }
        Command::Run(args) => crate::cmd_plan::run(&args),
        Command::Explain { code } => match fork_frontend::codes::find(&code) {
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
    let defines = source
        .define
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
