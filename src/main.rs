//! `forkcc`: the command line. No logic of its own: it parses arguments and calls the crates.

mod cli;
mod cmd_cuda;
mod cmd_plan;

fn main() -> std::process::ExitCode {
    cli::main()
}
