//! Where the CLI's text goes: diagnostics rendered for stderr, and program output or listings
//! written to stdout without panicking when the reader has gone (`| head`).

use fork_frontend::diag::{self, Diagnostic};
use fork_frontend::source::SourceMap;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// How diagnostics are rendered.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    /// ANSI colours (only when stderr is a terminal).
    pub color: bool,
}

impl Reporter {
    /// For diagnostics printed to this process's stderr.
    pub fn stderr() -> Reporter {
        Reporter {
            color: std::io::stderr().is_terminal(),
        }
    }

    /// For diagnostics kept as text (the reports of `forkcc test`).
    pub fn plain() -> Reporter {
        Reporter { color: false }
    }

    pub fn render(&self, sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
        diag::render(sources, diagnostics, self.color)
    }
}

/// Writes `bytes` to stdout. A closed pipe or a full disk is an error message and exit 1, not
/// a panic (`print!` panics on them).
pub fn stdout(bytes: &[u8]) -> Result<(), ExitCode> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|err| {
            eprintln!("error: cannot write to standard output: {err}");
            ExitCode::FAILURE
        })
}
