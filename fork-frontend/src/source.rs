//! Spans and the source map. The parser sees one preprocessed text; a `Span` is a byte range
//! in it. The `SourceMap` (built by `preprocess`) maps any span back to the original file,
//! line and column, and to the macro use site where the text came from a macro expansion.
//!
//! Design: offsets below `VIRTUAL_BASE` are bytes of the preprocessed text. Every original
//! file also owns a disjoint *virtual* range `base..base + len + 1` at or above
//! `VIRTUAL_BASE` (the `+ 1` is its end-of-file position), so a `Span` can point straight into
//! an original file, which is what the preprocessor's own diagnostics do
//! (`SourceMap::file_span`). The preprocessed text is described by `segments`, sorted by their
//! start in the output: each says where its bytes came from, as a virtual range, either copied
//! byte for byte from a file or produced by a macro expansion (then the virtual range is the
//! macro use site). Lookups are binary searches over segments and over file bases.

use std::ops::Range;
use std::sync::Arc;

/// Byte range `lo..hi` in the preprocessed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(lo: usize, hi: usize) -> Span {
        Span {
            lo: lo as u32,
            hi: hi as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }
}

/// Index into `SourceMap::files`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as given (command line or `#include "..."`), shown in diagnostics.
    pub name: String,
    pub text: String,
}

/// Where a span of preprocessed text came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: FileId,
    /// Byte range in that file's original text.
    pub range: std::ops::Range<usize>,
    /// Set when the text came out of a macro expansion: the macro's name and the range of
    /// its use in `file` (the use site is what `range` points at then).
    pub macro_name: Option<String>,
}

/// 1-based line and column (column counted in chars) of a byte offset in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

/// Spans at or above this offset point into original files (see the module comment); the
/// preprocessed text must be shorter (2 GiB).
pub const VIRTUAL_BASE: u32 = 1 << 31;

/// A run of preprocessed text with one origin; it ends where the next segment starts.
#[derive(Debug, Clone)]
struct Segment {
    out_lo: u32,
    provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Provenance {
    /// Copied byte for byte from the file bytes at virtual offset `virt_lo` on.
    Copied { virt_lo: u32 },
    /// Produced by expanding macro `name`, used at the virtual range `use_site`.
    Expansion {
        use_site: (u32, u32),
        name: Arc<str>,
    },
}

impl Segment {
    /// Virtual offset where output byte `offset` (in this segment) begins.
    fn start_of(&self, offset: u32) -> u32 {
        match &self.provenance {
            Provenance::Copied { virt_lo } => virt_lo.saturating_add(offset - self.out_lo),
            Provenance::Expansion { use_site, .. } => use_site.0,
        }
    }

    /// Virtual offset where output byte `offset` (in this segment) ends.
    fn end_of(&self, offset: u32) -> u32 {
        match &self.provenance {
            Provenance::Copied { virt_lo } => virt_lo.saturating_add(offset - self.out_lo + 1),
            Provenance::Expansion { use_site, .. } => use_site.1,
        }
    }
}

#[derive(Debug, Clone)]
struct FileLayout {
    base: u32,
    /// Byte offsets where each line starts.
    line_starts: Vec<u32>,
}

/// Maps spans of the preprocessed text back to the original files.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
    /// Per file (parallel to `files`): its virtual base, ascending, and its line starts.
    layouts: Vec<FileLayout>,
    segments: Vec<Segment>,
    /// Length of the preprocessed text.
    out_len: u32,
}

impl SourceMap {
    /// One file whose preprocessed text is the file itself.
    pub fn single(name: &str, text: &str) -> SourceMap {
        let mut map = SourceMap::default();
        let file = map.add_file(name, text);
        let whole = map.file_span(file, 0..text.len());
        map.push_copied(0, whole.lo);
        map.set_output_len(text.len());
        map
    }

    /// Adds an original file and gives it the next virtual range.
    pub fn add_file(&mut self, name: &str, text: &str) -> FileId {
        let base = match (self.layouts.last(), self.files.last()) {
            (Some(layout), Some(last)) => layout.base + last.text.len() as u32 + 1,
            _ => VIRTUAL_BASE,
        };
        let line_starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i as u32 + 1),
            )
            .collect();
        self.files.push(SourceFile {
            name: name.to_string(),
            text: text.to_string(),
        });
        self.layouts.push(FileLayout { base, line_starts });
        FileId(self.files.len() as u32 - 1)
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// A span pointing straight at `range` of an original file.
    pub fn file_span(&self, file: FileId, range: Range<usize>) -> Span {
        let base = self.layouts[file.0 as usize].base;
        Span {
            lo: base + range.start as u32,
            hi: base + range.end as u32,
        }
    }

    /// Records that the preprocessed text from `out_lo` on is copied from the file bytes at
    /// virtual offset `virt_lo` on (until the next segment).
    pub(crate) fn push_copied(&mut self, out_lo: usize, virt_lo: u32) {
        let out_lo = out_lo as u32;
        // Bytes that continue the previous copied run need no segment of their own.
        if let Some(last) = self.segments.last() {
            if matches!(last.provenance, Provenance::Copied { .. })
                && last.start_of(out_lo) == virt_lo
            {
                return;
            }
        }
        self.segments.push(Segment {
            out_lo,
            provenance: Provenance::Copied { virt_lo },
        });
    }

    /// Records that the preprocessed text from `out_lo` on comes from expanding macro
    /// `name` used at `use_site` (a span from `file_span`).
    pub(crate) fn push_expansion(&mut self, out_lo: usize, use_site: Span, name: &Arc<str>) {
        let use_site = (use_site.lo, use_site.hi);
        if let Some(Provenance::Expansion {
            use_site: last_site,
            name: last_name,
        }) = self.segments.last().map(|s| &s.provenance)
        {
            if *last_site == use_site && last_name == name {
                return;
            }
        }
        self.segments.push(Segment {
            out_lo: out_lo as u32,
            provenance: Provenance::Expansion {
                use_site,
                name: name.clone(),
            },
        });
    }

    pub(crate) fn set_output_len(&mut self, len: usize) {
        self.out_len = len as u32;
    }

    /// The original file and byte range of `span` (a span of the preprocessed text or a
    /// virtual span from `file_span`). None when no file is known (an empty map).
    pub fn origin(&self, span: Span) -> Option<Origin> {
        if span.lo >= VIRTUAL_BASE {
            let (file, lo) = self.virtual_to_file(span.lo)?;
            let (hi_file, hi) = self.virtual_to_file(span.hi.max(span.lo))?;
            let hi = if hi_file == file { hi } else { lo };
            return Some(Origin {
                file,
                range: lo..hi.max(lo),
                macro_name: None,
            });
        }
        let first = &self.segments[self.segment_at(span.lo)?];
        let lo_virt = first.start_of(span.lo.min(self.out_len));
        let macro_name = match &first.provenance {
            Provenance::Expansion { name, .. } => Some(name.to_string()),
            Provenance::Copied { .. } => None,
        };
        let hi_virt = if span.hi <= span.lo {
            lo_virt
        } else {
            let last = &self.segments[self.segment_at(span.hi - 1)?];
            last.end_of(span.hi - 1)
        };
        let (file, lo) = self.virtual_to_file(lo_virt)?;
        let hi = match self.virtual_to_file(hi_virt) {
            Some((hi_file, hi)) if hi_file == file && hi >= lo => hi,
            // The span ends in another file: keep the part in the first one.
            _ => self
                .virtual_to_file(first.end_of(span.lo))
                .map_or(lo, |(_, hi)| hi.max(lo)),
        };
        Some(Origin {
            file,
            range: lo..hi,
            macro_name,
        })
    }

    /// Line and column (1-based, column in chars) of byte `offset` in `file`.
    pub fn line_col(&self, file: FileId, offset: usize) -> LineCol {
        let starts = &self.layouts[file.0 as usize].line_starts;
        let text = &self.files[file.0 as usize].text;
        let offset = offset.min(text.len());
        let line = starts.partition_point(|&s| s as usize <= offset) - 1;
        let line_start = starts[line] as usize;
        let col = text
            .get(line_start..offset)
            .map_or(offset - line_start, |s| s.chars().count());
        LineCol {
            line: line + 1,
            col: col + 1,
        }
    }

    /// `file:line:col` of the start of `span`, for messages and tests.
    pub fn location(&self, span: Span) -> Option<String> {
        let origin = self.origin(span)?;
        let at = self.line_col(origin.file, origin.range.start);
        Some(format!(
            "{}:{}:{}",
            self.file(origin.file).name,
            at.line,
            at.col
        ))
    }

    /// Index of the segment holding output byte `offset` (the last one at the end of text).
    fn segment_at(&self, offset: u32) -> Option<usize> {
        let after = self.segments.partition_point(|s| s.out_lo <= offset);
        after.checked_sub(1)
    }

    fn virtual_to_file(&self, offset: u32) -> Option<(FileId, usize)> {
        let index = self
            .layouts
            .partition_point(|l| l.base <= offset)
            .checked_sub(1)?;
        let len = self.files[index].text.len();
        let within = ((offset - self.layouts[index].base) as usize).min(len);
        Some((FileId(index as u32), within))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_file_maps_identically_with_char_columns() {
        let map = SourceMap::single("a.fork", "int x;\nä = 1;\n");
        let origin = map.origin(Span::new(9, 10)).expect("mapped");
        assert_eq!(origin.file, FileId(0));
        assert_eq!(origin.range, 9..10);
        assert_eq!(map.line_col(FileId(0), 9), LineCol { line: 2, col: 2 });
        assert_eq!(
            map.location(Span::new(9, 10)).as_deref(),
            Some("a.fork:2:2")
        );
    }

    #[test]
    fn virtual_spans_point_into_each_file() {
        let mut map = SourceMap::default();
        let a = map.add_file("a", "abc\n");
        let b = map.add_file("b", "xy\nz");
        let span = map.file_span(b, 3..4);
        let origin = map.origin(span).expect("mapped");
        assert_eq!((origin.file, origin.range), (b, 3..4));
        let end_of_a = map.file_span(a, 4..4);
        assert_eq!(map.origin(end_of_a).map(|o| o.file), Some(a));
        assert_eq!(map.line_col(b, 3), LineCol { line: 2, col: 1 });
    }

    #[test]
    fn expansion_segments_map_to_the_use_site() {
        let mut map = SourceMap::default();
        let f = map.add_file("m.fork", "x = N;\n");
        // Output "x = 42;\n": "x = " copied, "42" from N at 4..5, ";\n" copied from 5.
        map.push_copied(0, map.file_span(f, 0..0).lo);
        map.push_expansion(4, map.file_span(f, 4..5), &Arc::from("N"));
        map.push_copied(6, map.file_span(f, 5..5).lo);
        map.set_output_len(8);
        let inside = map.origin(Span::new(5, 6)).expect("mapped");
        assert_eq!(inside.range, 4..5);
        assert_eq!(inside.macro_name.as_deref(), Some("N"));
        let across = map.origin(Span::new(0, 7)).expect("mapped");
        assert_eq!((across.range, across.macro_name), (0..6, None));
        assert_eq!(map.origin(Span::new(6, 7)).map(|o| o.range), Some(5..6));
    }
}
