//! forkgen: a random Fork program generator (in the spirit of Csmith and YARPGen), a
//! differential tester of the reference simulator against the CPU Plan executor, and a
//! delta-debugging reducer that turns a finding into a small regression test.

pub mod ast;
pub mod diff;
pub mod gen;
pub mod reduce;

use ast::Program;
use diff::Verdict;

/// `//! run:` and `//! expect:` lines for `program` at `procs`, from the simulator (the
/// `forkcc test` format); None when the simulator does not run it cleanly.
pub fn test_spec(text: &str, procs: &[u32]) -> Option<String> {
    let checked =
        fork_frontend::check_source("gen.fork", text, &fork_frontend::Options::default()).ok()?;
    let mut spec = String::new();
    for &p in procs {
        let outcome = pram_sim::run(
            &checked.program,
            &pram_sim::Config {
                procs: p,
                ..pram_sim::Config::default()
            },
        );
        if outcome.fault.is_some() {
            return None;
        }
        spec.push_str(&format!("//! run: -p {p}\n//! expect:\n"));
        for line in String::from_utf8_lossy(&outcome.output).lines() {
            spec.push_str("//!");
            if !line.is_empty() {
                spec.push(' ');
                spec.push_str(line);
            }
            spec.push('\n');
        }
    }
    Some(spec)
}

/// A generated program as a file: what it is, its run cases, its text.
pub fn program_file(program: &Program, what: &str, procs: &[u32]) -> String {
    let text = program.render();
    let spec = test_spec(&text, procs).unwrap_or_default();
    format!(
        "/* {what} (forkgen seed {}). */\n{spec}\n{text}",
        program.seed
    )
}

/// The processor counts a finding is recorded with: the failing one when known.
pub fn finding_procs(finding: &Verdict, all: &[u32]) -> Vec<u32> {
    match finding {
        Verdict::Mismatch { procs, .. } | Verdict::SimFault { procs, .. } => vec![*procs],
        _ => all.to_vec(),
    }
}
