//! Renders diagnostics with ariadne: `error[E0101]: message`, the `file:line:col` of the
//! primary span, the snippet with the primary and note labels, and the help line.

use super::{Diagnostic, Severity};
use crate::source::{FileId, Origin, SourceMap};
use ariadne::{Color, Config, Fmt, IndexType, Label, Report, ReportKind, Source};
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
    let kind = format!("{kind_name}[{}]", diagnostic.code.id);
    let kind = if color {
        kind.fg(kind_color).to_string()
    } else {
        kind
    };
    let header = format!("{kind}: {}\n", diagnostic.message);
    let Some(primary) = cache.map.origin(diagnostic.span) else {
        let mut text = header;
        if let Some(help) = &diagnostic.help {
            text.push_str(&format!("  help: {help}\n"));
        }
        return text;
    };
    let primary_span = cache.label_span(&primary);
    let mut labels = vec![(primary_span.clone(), kind_color, diagnostic.label.as_str())];
    for (span, text) in &diagnostic.notes {
        if let Some(origin) = cache.map.origin(*span) {
            labels.push((cache.label_span(&origin), Color::Blue, text.as_str()));
        }
    }
    // ariadne draws labels in `order`; in source order, labels of one file share a snippet.
    let mut by_position: Vec<usize> = (0..labels.len()).collect();
    by_position.sort_by_key(|&i| (labels[i].0 .0, labels[i].0 .1.start));
    // ariadne's own header line is replaced below: `ReportKind::Custom`, the only way to get
    // `error[E0101]`, colors its name even with color off.
    let mut report = Report::build(ReportKind::Error, primary_span)
        .with_config(
            Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte),
        )
        .with_message(&diagnostic.message);
    for (order, &i) in by_position.iter().enumerate() {
        let (span, label_color, text) = labels[i].clone();
        let mut label = Label::new(span)
            .with_color(label_color)
            .with_order(order as i32);
        if !text.is_empty() {
            label = label.with_message(text);
        }
        report = report.with_label(label);
    }
    if let Some(name) = &primary.macro_name {
        report = report.with_note(format!("this comes from the expansion of macro `{name}`"));
    }
    if let Some(help) = &diagnostic.help {
        report = report.with_help(help);
    }
    let mut out = Vec::new();
    match report.finish().write(&mut *cache, &mut out) {
        Ok(()) => {
            let text = String::from_utf8_lossy(&out);
            let body = text.split_once('\n').map_or("", |(_, body)| body);
            header + body
        }
        // Writing into a Vec cannot fail; keep the message if it ever does.
        Err(err) => format!("{header}  (cannot render the snippet: {err})\n"),
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
