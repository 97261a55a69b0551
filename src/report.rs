//! Where the CLI's text goes: diagnostics rendered for stderr (`--message-format`), and
//! program output or listings written to stdout without panicking when the reader has gone
//! (`| head`).

use clap::ValueEnum;
use fork_frontend::diag::{self, Diagnostic, Severity};
use fork_frontend::source::{Origin, SourceMap, Span};
use serde_json::{json, Value};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// `--message-format`: how diagnostics are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum MessageFormat {
    /// The source lines with the problem marked, and what to do.
    #[default]
    Human,
    /// One line each, `file:line:col: error[E0201]: message`, as gcc and rustc's short format
    /// (what editors' problem matchers read).
    Short,
    /// One JSON object per line, in the shape of rustc's JSON diagnostics.
    Json,
}

/// How diagnostics are rendered.
#[derive(Clone, Copy, Debug)]
pub struct Reporter {
    pub format: MessageFormat,
    /// ANSI colours (human format, stderr a terminal).
    pub color: bool,
}

impl Reporter {
    /// For diagnostics printed to this process's stderr.
    pub fn stderr(format: MessageFormat) -> Reporter {
        Reporter {
            format,
            color: format == MessageFormat::Human && std::io::stderr().is_terminal(),
        }
    }

    /// For diagnostics kept as text (the reports of `forkcc test`).
    pub fn plain() -> Reporter {
        Reporter {
            format: MessageFormat::Human,
            color: false,
        }
    }

    pub fn render(&self, sources: &SourceMap, diagnostics: &[Diagnostic]) -> String {
        match self.format {
            MessageFormat::Human => diag::render(sources, diagnostics, self.color),
            MessageFormat::Short => diagnostics.iter().map(|d| short(sources, d)).collect(),
            MessageFormat::Json => diagnostics
                .iter()
                .map(|d| format!("{}\n", json(sources, d)))
                .collect(),
        }
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn short(sources: &SourceMap, d: &Diagnostic) -> String {
    let head = format!("{}[{}]: {}\n", level(d.severity), d.code.id, d.message);
    match sources.location(d.span) {
        Some(at) => format!("{at}: {head}"),
        None => head,
    }
}

/// A span as rustc writes one: file, byte range, 1-based lines and columns (in chars).
fn span(sources: &SourceMap, origin: &Origin, primary: bool, label: &str) -> Value {
    let start = sources.line_col(origin.file, origin.range.start);
    let end = sources.line_col(origin.file, origin.range.end);
    json!({
        "file_name": sources.file(origin.file).name,
        "byte_start": origin.range.start,
        "byte_end": origin.range.end,
        "line_start": start.line,
        "line_end": end.line,
        "column_start": start.col,
        "column_end": end.col,
        "is_primary": primary,
        "label": (!label.is_empty()).then_some(label),
    })
}

fn child(level: &str, message: &str) -> Value {
    json!({ "message": message, "code": null, "level": level, "spans": [], "children": [],
            "rendered": null })
}

fn json(sources: &SourceMap, d: &Diagnostic) -> Value {
    let labelled = std::iter::once((d.span, d.label.as_str(), true)).chain(
        d.notes
            .iter()
            .map(|(span, text)| (*span, text.as_str(), false)),
    );
    let spans: Vec<Value> = labelled
        .filter_map(|(at, label, primary): (Span, &str, bool)| {
            Some(span(sources, &sources.origin(at)?, primary, label))
        })
        .collect();
    let mut children = Vec::new();
    if let Some(name) = sources.origin(d.span).and_then(|o| o.macro_name) {
        children.push(child(
            "note",
            &format!("this comes from the expansion of macro `{name}`"),
        ));
    }
    if let Some(help) = &d.help {
        children.push(child("help", help));
    }
    json!({
        "$message_type": "diagnostic",
        "message": d.message,
        "code": { "code": d.code.id, "explanation": d.code.explain },
        "level": level(d.severity),
        "spans": spans,
        "children": children,
        "rendered": diag::render(sources, std::slice::from_ref(d), false),
    })
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
