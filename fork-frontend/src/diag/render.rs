//! Renders diagnostics with ariadne: `error[E0101]: message`, the `file:line:col` of the
//! primary span, the snippet with the primary and note labels, and the help line.

use super::{Diagnostic, Severity};
use crate::source::{FileId, Origin, SourceMap};
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};
use std::fmt;
use std::ops::Range;

/// One ariadne report per diagnostic, concatenated. With `color == false` the text holds no
/// ANSI escapes. A diagnostic whose span maps to no file prints its header and help only.
pub fn render(sources: &SourceMap, diagnostics: &[Diagnostic], color: bool) -> String {
    let mut cache = FileCache {
        map: sources,
        loaded: Vec::new(),
    };
    diagnostics
        .iter()
        .map(|d| render_one(&mut cache, d, color))
        .collect()
}

fn render_one(cache: &mut FileCache, diagnostic: &Diagnostic, color: bool) -> String {
    let (kind_name, kind_color) = match diagnostic.severity {
        Severity::Error => ("error", Color::Red),
        Severity::Warning => ("warning", Color::Yellow),
    };
    let header = format!("{kind_name}[{}]", diagnostic.code.id);
    let Some(primary) = cache.map.origin(diagnostic.span) else {
        let mut text = format!("{header}: {}\n", diagnostic.message);
        if let Some(help) = &diagnostic.help {
            text.push_str(&format!("  help: {help}\n"));
        }
        return text;
    };
    let primary_span = cache.label_span(&primary);
    let mut label = Label::new(primary_span.clone()).with_color(kind_color);
    if !diagnostic.label.is_empty() {
        label = label.with_message(&diagnostic.label);
    }
    let mut report = Report::build(ReportKind::Custom(&header, kind_color), primary_span)
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_message(&diagnostic.message)
        .with_label(label);
    if let Some(name) = &primary.macro_name {
        report = report.with_note(format!("this comes from the expansion of macro `{name}`"));
    }
    for (span, text) in &diagnostic.notes {
        if let Some(origin) = cache.map.origin(*span) {
            let note = Label::new(cache.label_span(&origin)).with_color(Color::Blue);
            report = report.with_label(note.with_message(text));
        }
    }
    if let Some(help) = &diagnostic.help {
        report = report.with_help(help);
    }
    let mut out = Vec::new();
    match report.finish().write(&mut *cache, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        // Writing into a Vec cannot fail; keep the message if it ever does.
        Err(err) => format!("{header}: {} ({err})\n", diagnostic.message),
    }
}

/// The SourceMap's files as ariadne sources, split into lines on first use.
struct FileCache<'a> {
    map: &'a SourceMap,
    loaded: Vec<Option<Source<&'a str>>>,
}

impl FileCache<'_> {
    /// The label range of an origin; an empty range at the very end of a file is widened to
    /// its last character so ariadne can show the line.
    fn label_span(&self, origin: &Origin) -> (FileId, Range<usize>) {
        let text = &self.map.file(origin.file).text;
        let range = if origin.range.start >= text.len() && !text.is_empty() {
            let last = text.char_indices().next_back().map_or(0, |(i, _)| i);
            last..text.len()
        } else {
            origin.range.clone()
        };
        (origin.file, range)
    }
}

impl<'a> ariadne::Cache<FileId> for FileCache<'a> {
    type Storage = &'a str;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<&'a str>, impl fmt::Debug> {
        let index = id.0 as usize;
        let Some(file) = self.map.files.get(index) else {
            return Err(format!("no file with id {index}"));
        };
        if self.loaded.len() <= index {
            self.loaded.resize(index + 1, None);
        }
        Ok(self.loaded[index].get_or_insert_with(|| Source::from(file.text.as_str())))
    }

    fn display<'b>(&self, id: &'b FileId) -> Option<impl fmt::Display + 'b> {
        self.map.files.get(id.0 as usize).map(|f| f.name.clone())
    }
}
