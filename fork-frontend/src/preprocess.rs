//! The C preprocessor subset of fork-dialect.md §1. (Stub: passes text through.)

use crate::diag::{Code, Diagnostic};
use crate::source::SourceMap;

pub const CODES: &[&Code] = &[];

pub struct Preprocessed {
    pub text: String,
    pub map: SourceMap,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads an included file (`#include "name"`), `name` already resolved against the including
/// file's directory.
pub type IncludeReader = dyn Fn(&str) -> std::io::Result<String>;

pub fn read_include(path: &str) -> std::io::Result<String> {
    std::fs::read_to_string(path)
}

pub fn preprocess(
    name: &str,
    text: &str,
    _read: &IncludeReader,
    _defines: &[(String, String)],
) -> Preprocessed {
    Preprocessed {
        text: text.to_string(),
        map: SourceMap::single(name, text),
        diagnostics: Vec::new(),
    }
}
