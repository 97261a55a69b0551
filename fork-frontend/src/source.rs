//! Spans and the source map. The parser sees one preprocessed text; a `Span` is a byte range
//! in it. The `SourceMap` (built by `preprocess`) maps any span back to the original file,
//! line and column, and to the macro use site where the text came from a macro expansion.

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

/// Maps spans of the preprocessed text back to the original files. (Stub: one file, identity.)
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn single(name: &str, text: &str) -> SourceMap {
        SourceMap {
            files: vec![SourceFile {
                name: name.to_string(),
                text: text.to_string(),
            }],
        }
    }

    pub fn origin(&self, span: Span) -> Option<Origin> {
        self.files.first().map(|_| Origin {
            file: FileId(0),
            range: span.lo as usize..span.hi as usize,
            macro_name: None,
        })
    }
}
