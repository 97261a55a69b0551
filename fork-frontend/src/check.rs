//! The checker: `ast::TranslationUnit` → `hir::Program`. (Stub.)

use crate::ast::TranslationUnit;
use crate::diag::{Code, Diagnostic};
use crate::hir::Program;

pub const CODES: &[&Code] = &[];

/// Resolves, types and checks a translation unit. Returns the program when there are no
/// errors; the diagnostics hold errors and warnings.
pub fn check(_unit: &TranslationUnit) -> (Option<Program>, Vec<Diagnostic>) {
    (None, Vec::new())
}
