//! Diagnostics: what every stage reports. A `Diagnostic` names a stable `Code`, a primary span
//! with a label, optional secondary labels, and a help line that says what to do. Rendering
//! (ariadne, `file:line:col`) lives in `diag::render`.

mod render;

pub use render::render;

use crate::source::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// A stable diagnostic code with the text `forkcc explain` prints.
#[derive(Debug, PartialEq, Eq)]
pub struct Code {
    /// `E0101`, `W0201`, ...
    pub id: &'static str,
    /// One line: what this kind of diagnostic means.
    pub title: &'static str,
    /// A short explanation with a minimal example (and the fix).
    pub explain: &'static str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: &'static Code,
    /// What is wrong, one sentence, no trailing period.
    pub message: String,
    pub span: Span,
    /// Label at the primary span.
    pub label: String,
    /// Secondary spans with labels ("first declared here").
    pub notes: Vec<(Span, String)>,
    /// What to do about it.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.notes.push((span, label.into()));
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}
