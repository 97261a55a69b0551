//! Parser tests: unit tests per construct, snapshots of whole programs and of diagnostics,
//! and robustness (no panic, no hang) on truncated and random input.

mod errors;
mod robustness;
mod sexpr;
mod units;

use super::parse;
use crate::ast::{StmtKind, TranslationUnit};
use crate::diag::Diagnostic;

/// The example programs, valid Fork, with their names.
const PROGRAMS: &[(&str, &str)] = &[
    ("sum", include_str!("programs/sum.fork")),
    ("fork_groups", include_str!("programs/fork_groups.fork")),
    ("declarations", include_str!("programs/declarations.fork")),
    ("control", include_str!("programs/control.fork")),
];

/// Parses `text`, failing the test with the diagnostics if there are any.
fn parse_ok(text: &str) -> TranslationUnit {
    let (unit, diags) = parse(text);
    assert!(
        diags.is_empty(),
        "unexpected diagnostics:\n{}",
        diag_lines(text, &diags)
    );
    unit
}

/// The s-expression of the expression statement `text;` inside a function.
fn expr_sexpr(text: &str) -> String {
    expr_sexpr_with("", text)
}

/// Like `expr_sexpr`, after the file-level declarations `prelude`.
fn expr_sexpr_with(prelude: &str, text: &str) -> String {
    let unit = parse_ok(&format!("{prelude}\nvoid f(void) {{ {text}; }}"));
    let Some(crate::ast::Item::Function(f)) = unit.items.last() else {
        panic!("no function parsed");
    };
    match &f.body.stmts[..] {
        [stmt] => match &stmt.kind {
            StmtKind::Expr(e) => sexpr::expr(e),
            other => panic!("not an expression statement: {other:?}"),
        },
        other => panic!("expected one statement, got {other:?}"),
    }
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Diagnostics as `line:col: code: message` lines, with notes and the help line below.
fn diag_lines(text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let (line, col) = line_col(text, d.span.lo as usize);
        out += &format!("{line}:{col}: {}: {}\n", d.code.id, d.message);
        for (span, label) in &d.notes {
            let (line, col) = line_col(text, span.lo as usize);
            out += &format!("    note {line}:{col}: {label}\n");
        }
        out += &format!("    help: {}\n", d.help.as_deref().unwrap_or("<none>"));
    }
    out
}

#[test]
fn example_programs() {
    for (name, text) in PROGRAMS {
        let unit = parse_ok(text);
        insta::assert_snapshot!(*name, sexpr::unit(&unit));
    }
}

#[test]
fn parser_codes_are_unique_in_range_and_explained() {
    let mut ids: Vec<&str> = super::CODES.iter().map(|c| c.id).collect();
    for code in super::CODES {
        assert!(("E0100"..="E0199").contains(&code.id), "{}", code.id);
        assert!(
            !code.title.is_empty() && code.explain.contains("Fix"),
            "{}",
            code.id
        );
        assert!(
            crate::codes::find(code.id).is_some(),
            "{} not registered",
            code.id
        );
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), super::CODES.len(), "duplicate code ids");
}
