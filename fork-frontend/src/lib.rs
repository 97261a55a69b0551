//! The Fork front end: preprocess → parse (nom) → check → `hir::Program`.
//!
//! Public API: `check_source`/`check_file` (the whole pipeline), the `hir` (what backends
//! consume), `diag` (diagnostics and their rendering), `source` (spans and the source map).

pub mod ast;
pub mod check;
pub mod codes;
pub mod diag;
pub mod fault;
pub mod hir;
pub mod machine;
pub mod parse;
pub mod preprocess;
pub mod pretty;
pub mod source;
pub mod sync_calls;
pub mod testspec;

use diag::{Diagnostic, Severity};
use source::SourceMap;
use std::io::Read;
use std::path::Path;

/// Command-line settings that change what a program means.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `-D NAME=VALUE` (VALUE defaults to `1`); overrides a `#define` of the same name.
    pub defines: Vec<(String, String)>,
}

/// A program that passed every check.
#[derive(Debug)]
pub struct Checked {
    pub program: hir::Program,
    pub sources: SourceMap,
    pub warnings: Vec<Diagnostic>,
}

/// A program with at least one error; `diagnostics` holds errors and warnings in source order.
#[derive(Debug)]
pub struct Failed {
    pub sources: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads `path` and runs the whole front end. `#include "x"` is resolved relative to the
/// including file's directory.
pub fn check_file(path: &Path, options: &Options) -> Result<Checked, Failed> {
    check_read(
        &path.display().to_string(),
        std::fs::read_to_string(path),
        options,
    )
}

/// Reads standard input (shown as `<stdin>`) and runs the whole front end; `#include "x"` is
/// resolved relative to the working directory.
pub fn check_stdin(options: &Options) -> Result<Checked, Failed> {
    let mut text = String::new();
    let read = std::io::stdin().read_to_string(&mut text).map(|_| text);
    check_read("<stdin>", read, options)
}

fn check_read(
    name: &str,
    read: std::io::Result<String>,
    options: &Options,
) -> Result<Checked, Failed> {
    match read {
        Ok(text) => check_source(name, &text, options),
        Err(err) => Err(Failed {
            sources: SourceMap::default(),
            diagnostics: vec![Diagnostic::error(
                &codes::E0001,
                source::Span::default(),
                format!("cannot read `{name}`: {err}"),
            )
            .with_help("check the path; forkcc reads Fork source files (`.fork`)")],
        }),
    }
}

/// Runs the whole front end over `text`, shown in diagnostics as `name`.
pub fn check_source(name: &str, text: &str, options: &Options) -> Result<Checked, Failed> {
    check_source_with(name, text, &preprocess::read_include, options)
}

/// `check_source` with `#include "..."` files read through `read` (tests and the fuzzer
/// pass an in-memory reader).
pub fn check_source_with(
    name: &str,
    text: &str,
    read: &preprocess::IncludeReader,
    options: &Options,
) -> Result<Checked, Failed> {
    let pre = preprocess::preprocess(name, text, read, &options.defines);
    let mut diagnostics = pre.diagnostics;
    let (unit, parse_diags) = parse::parse(&pre.text);
    diagnostics.extend(parse_diags);
    let program = if has_errors(&diagnostics) {
        None
    } else {
        let (program, check_diags) = check::check(&unit);
        diagnostics.extend(check_diags);
        program
    };
    // Source order: preprocessor errors point into the original files, the others into the
    // preprocessed text, so compare where each one lands.
    diagnostics.sort_by_cached_key(|d| pre.map.origin(d.span).map(|o| (o.file, o.range.start)));
    match program {
        Some(program) if !has_errors(&diagnostics) => Ok(Checked {
            program,
            sources: pre.map,
            warnings: diagnostics,
        }),
        _ => Err(Failed {
            sources: pre.map,
            diagnostics,
        }),
    }
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}
