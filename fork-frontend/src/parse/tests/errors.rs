//! Snapshot of the diagnostics for a set of syntax errors, as `line:col: code: message`.

use super::{diag_lines, parse};

const CASES: &[(&str, &str)] = &[
    (
        "missing semicolon",
        "int main(void) {\n    int x = 1\n    return x;\n}\n",
    ),
    ("missing operand", "void f(void) {\n    x = * ;\n}\n"),
    ("unclosed paren", "void f(void) {\n    g(1, 2;\n}\n"),
    ("conditional without colon", "int x = a ? b;\n"),
    ("missing comma", "void f(void) {\n    g(1 2);\n}\n"),
    (
        "unclosed block",
        "void f(void) {\n    if (x) {\n        y = 1;\n}\n",
    ),
    ("keyword as name", "int seq = 3;\nint fork(int n);\n"),
    ("statement at file level", "x = 3;\nint y;\n"),
    (
        "conflicting specifiers",
        "sh pr int x;\nint float y;\nsync async void f(void);\n",
    ),
    ("invalid type", "unsigned float f;\n"),
    (
        "bad literals",
        "int a = 09;\nint b = 12abc;\nint c = 99999999999999999999;\nchar d = 'ab';\n",
    ),
    (
        "unterminated string",
        "void f(void) {\n    printf(\"hello);\n}\n",
    ),
    ("invalid character", "int a = 1 # 2;\nint b = `x`;\n"),
    (
        "fork header",
        "sync void f(void) {\n    fork (2; $$ % 2) ;\n    fork (2 @ = 0) ;\n}\n",
    ),
    ("else without if", "void f(void) {\n    else x = 1;\n}\n"),
    (
        "do without while",
        "void f(void) {\n    do x++; until (x);\n}\n",
    ),
    (
        "several errors recovered",
        "void f(void) {\n    a = ;\n    b = 2\n}\nint g(void) { return 1 }\nint ok;\n",
    ),
    (
        "unsupported C",
        "union u { int a; };\nint printf(char *f, ...);\nstruct s { int b : 3; };\n",
    ),
    (
        "nested function",
        "void f(void) {\n    int g(void) { return 1; }\n}\n",
    ),
    ("compound literal", "void f(void) {\n    x = (int){1};\n}\n"),
    (
        "missing member name",
        "void f(void) {\n    s.if = p->;\n    q->;\n}\n",
    ),
    ("stray closing brace", "int x; }\nint y;\n"),
    (
        "bad parameter list, next function still parsed",
        "int f(int a b) { return a; }\nmain() { x = ; }\n",
    ),
    ("non-ASCII text", "int größe = 1;\nint a = 1 → 2;\n"),
    (
        "recovery keeps if/else together",
        "void f(void) {\n    if (x > ) { y = 1; } else { y = 2; }\n    if (x) y = ; else z = 1;\n    w = ;\n}\n",
    ),
    (
        "unclosed paren stays inside its block",
        "void f(void) {\n    x = = (a;\n    y = ;\n}\nint g(void) { return ; }\nint h(void) { return (1; }\n",
    ),
    ("bad escapes", "char *s = \"a\\qb\";\nchar *t = \"\\x41B\\777\";\n"),
];

#[test]
fn syntax_error_diagnostics() {
    let mut out = String::new();
    for (name, text) in CASES {
        let (_, diags) = parse(text);
        assert!(!diags.is_empty(), "case `{name}` reported nothing");
        out += &format!("== {name}\n{}", diag_lines(text, &diags));
    }
    insta::assert_snapshot!(out);
}

#[test]
fn errors_are_capped() {
    let text = "void f(void) {\n".to_string() + &"    x = ;\n".repeat(80) + "}\n";
    let (_, diags) = parse(&text);
    assert_eq!(diags.len(), 51);
    assert!(diags[..50].iter().all(|d| d.code.id == "E0110"));
    assert_eq!(diags[50].code.id, "E0106");
    // Lexer errors count too, in source order.
    let text = "int a = 1;\n".to_string() + &"`".repeat(70) + "\nint b = ;";
    let (_, diags) = parse(&text);
    assert_eq!(diags.len(), 51);
    assert!(diags[..50].iter().all(|d| d.code.id == "E0101"));
    assert_eq!(diags[50].code.id, "E0106");
}
