//! `forkcc`: the command line. No logic of its own: it parses arguments and calls the crates.

mod cli;
mod cmd_bench;
mod cmd_cuda;
mod cmd_plan;
mod cmd_sim;
mod cmd_test;
mod report;

fn main() -> std::process::ExitCode {
    cli::main()
}
