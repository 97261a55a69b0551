//! The registry of diagnostic codes: every stage's codes, for `forkcc explain`.
//! Ranges: E00xx driver and preprocessor, E01xx parser, E02xx–E04xx checker, W02xx checker
//! warnings, R0xxx runtime faults (reported by the backends).

use crate::diag::Code;

pub const E0001: Code = Code {
    id: "E0001",
    title: "a source file cannot be read",
    explain: "forkcc could not open or read a file named on the command line or in an \
`#include \"...\"`.\n\nCheck the path and the file's permissions.",
};

/// Every code, for `forkcc explain` and the uniqueness test.
pub fn all() -> Vec<&'static Code> {
    let mut all = vec![&E0001];
    all.extend(crate::preprocess::CODES);
    all.extend(crate::parse::CODES);
    all.extend(crate::check::CODES);
    all
}

pub fn find(id: &str) -> Option<&'static Code> {
    all().into_iter().find(|c| c.id.eq_ignore_ascii_case(id))
}
