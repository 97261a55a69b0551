//! Snapshot tests: preprocessed text of macro, include and conditional programs; the rendered
//! diagnostic of every preprocessor error; spans mapped through macros and includes.

use super::*;
use crate::diag::{render, Severity};
use std::collections::HashMap;

/// Preprocesses `main` as `dir/main.fork`, with `files` readable by their resolved names.
fn run(main: &str, files: &[(&str, &str)], defines: &[(&str, &str)]) -> Preprocessed {
    let files: HashMap<String, String> = files
        .iter()
        .map(|(name, text)| (name.to_string(), text.to_string()))
        .collect();
    let read = move |path: &str| {
        files.get(path).cloned().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory")
        })
    };
    let defines: Vec<(String, String)> = defines
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    preprocess("dir/main.fork", main, &read, &defines)
}

/// The preprocessed text of a program that must preprocess without diagnostics.
fn clean(main: &str, files: &[(&str, &str)], defines: &[(&str, &str)]) -> String {
    let pre = run(main, files, defines);
    assert!(
        pre.diagnostics.is_empty(),
        "{}",
        render(&pre.map, &pre.diagnostics, false)
    );
    pre.text
}

/// The rendered diagnostics of a program (color off).
fn rendered(main: &str, files: &[(&str, &str)]) -> String {
    let pre = run(main, files, &[]);
    assert!(!pre.diagnostics.is_empty(), "expected a diagnostic");
    render(&pre.map, &pre.diagnostics, false)
}

#[test]
fn object_and_function_like_macros() {
    insta::assert_snapshot!(clean(
        "#define N 16\n\
         #define SQ(x) ((x) * (x))\n\
         #define MAX(a, b) ((a) > (b) ? (a) : (b))\n\
         #define TWICE(f, x) f(f(x))\n\
         sh int a[N];\n\
         int y = MAX(SQ(N), N + 1);\n\
         int z = TWICE(SQ, $$);\n\
         int w = MAX(  (1, 2) ,\n    3);\n\
         int after;\n",
        &[],
        &[],
    ));
}

#[test]
fn rescanning_stops_at_the_macro_being_expanded() {
    insta::assert_snapshot!(clean(
        "#define x x + 1\n\
         #define f(a) a * g\n\
         #define g(a) f(a)\n\
         #define EMPTY\n\
         int v = x;\n\
         int u = f(2)(9);\n\
         int t = EMPTY 3 EMPTY;\n\
         #define y -y\n\
         int s = -y;\n",
        &[],
        &[],
    ));
}

#[test]
fn stringize_paste_and_variadic() {
    insta::assert_snapshot!(clean(
        "#define STR(x) #x\n\
         #define GLUE(a, b) a ## b\n\
         #define CALL(f, ...) f(__VA_ARGS__)\n\
         char *s = STR(a  +  \"q\");\n\
         int GLUE(var, 2) = GLUE(0x, 1F);\n\
         CALL(printf, \"%d %d\\n\", 1, 2);\n",
        &[],
        &[],
    ));
}

#[test]
fn strings_comments_and_continuations() {
    insta::assert_snapshot!(clean(
        "#define N 4\n\
         char *s = \"N is not expanded // here\"; char c = 'N';\n\
         int a = N; /* a comment\n\
         over two lines */ int b = N; // N\n\
         #define LONG(x) \\\n    ((x) + \\\n     N)\n\
         int c = LONG(1);\n\
         int d;\n",
        &[],
        &[],
    ));
}

#[test]
fn conditionals() {
    insta::assert_snapshot!(clean(
        "#include <fork.h>\n\
         #include <stdio.h>\n\
         #define P 8\n\
         #if P > 4 && defined(P) && !defined UNDEFINED\n\
         int big;\n\
         #elif P > 2\n\
         int medium;\n\
         #else\n\
         int small;\n\
         #endif\n\
         #ifdef UNDEFINED\n\
         #error not reached\n\
         #bogus not reached either\n\
         #if 1/0\n\
         #endif\n\
         #elif (1 ? 0 : 1/0) || 0 && 1/0\n\
         int no;\n\
         #else\n\
         int yes;\n\
         #endif\n\
         #ifndef P\n\
         int never;\n\
         #endif\n\
         #if 0x10 == 16 && 'A' == 65 && (-1 >> 1) == -1 && UNKNOWN == 0 && 7 % 4 == 3\n\
         int arithmetic_ok;\n\
         #endif\n",
        &[],
        &[],
    ));
}

#[test]
fn command_line_defines_win_over_the_source() {
    insta::assert_snapshot!(clean(
        "#define N 4\n\
         #undef M\n\
         #define M 5\n\
         #if N == 64\n\
         int n = N;\n\
         #endif\n\
         int m = M;\n\
         int t = TWICE(3);\n",
        &[],
        &[("N", "64"), ("M", "1"), ("TWICE(x)", "((x)*2)")],
    ));
}

#[test]
fn includes_are_textual_and_relative() {
    let util =
        "#ifndef UTIL_H\n#define UTIL_H\n#include \"../common/base.h\"\nint util(int x);\n#endif\n";
    let base = "#define BASE 7\nint base = BASE;\n";
    insta::assert_snapshot!(clean(
        "#include \"lib/util.h\"\n#include \"lib/util.h\"\nint main_var = BASE;\n",
        &[("dir/lib/util.h", util), ("dir/common/base.h", base)],
        &[],
    ));
}

#[test]
fn error_unterminated_comment() {
    insta::assert_snapshot!(rendered("int x;\n/* never closed\nint y;\n", &[]));
}

#[test]
fn error_unknown_directive() {
    insta::assert_snapshot!(rendered("#defne N 16\n", &[]));
}

#[test]
fn error_malformed_directives() {
    insta::assert_snapshot!(rendered(
        "#define\n#define 3 x\n#define F(a, a) a\n#define G(a) #b\n#define H(a) ## a\n#undef\n#ifdef\n#endif\n#include N\n",
        &[]
    ));
}

#[test]
fn error_conditional_without_if() {
    insta::assert_snapshot!(rendered("int x;\n#else\n#elif 1\n#endif\n", &[]));
}

#[test]
fn error_elif_after_else() {
    insta::assert_snapshot!(rendered("#if 0\n#else\n#elif 1\n#else\n#endif\n", &[]));
}

#[test]
fn error_unterminated_if() {
    insta::assert_snapshot!(rendered("#ifdef DEBUG\nint trace;\n", &[]));
}

#[test]
fn error_bad_if_expression() {
    insta::assert_snapshot!(rendered(
        "#if N >\n#endif\n#if (1\n#endif\n#if defined\n#endif\n#if 1.5\n#endif\n#if 1 2\n#endif\n#if\n#endif\n",
        &[]
    ));
}

#[test]
fn error_division_by_zero_in_if() {
    insta::assert_snapshot!(rendered(
        "#define BLOCK 0\n#if 64 / BLOCK > 2\n#endif\n",
        &[]
    ));
}

#[test]
fn error_macro_argument_count() {
    insta::assert_snapshot!(rendered(
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint x = MAX(1, 2, 3);\nint y = MAX(1);\n",
        &[]
    ));
}

#[test]
fn error_unterminated_macro_call() {
    insta::assert_snapshot!(rendered(
        "#define SQ(x) ((x) * (x))\nint y = SQ(3;\nint z;\n#define W 1\n",
        &[]
    ));
}

#[test]
fn error_missing_include() {
    insta::assert_snapshot!(rendered("#include \"util.fh\"\nint x;\n", &[]));
}

#[test]
fn error_include_cycle() {
    insta::assert_snapshot!(rendered(
        "#include \"a.fh\"\n",
        &[
            ("dir/a.fh", "#include \"b.fh\"\n"),
            ("dir/b.fh", "int b;\n#include \"./a.fh\"\n")
        ]
    ));
}

#[test]
fn error_include_too_deep() {
    // Each level includes the next: 70 distinct files.
    let files: Vec<(String, String)> = (0..70)
        .map(|i| {
            (
                format!("dir/h{i}.h"),
                format!("#include \"h{}.h\"\n", i + 1),
            )
        })
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let pre = run("#include \"h0.h\"\n", &refs, &[]);
    assert_eq!(pre.diagnostics.len(), 1);
    assert_eq!(pre.diagnostics[0].code.id, "E0014");
    // The 64th nested file is the one whose include is refused.
    assert_eq!(
        pre.map.location(pre.diagnostics[0].span).as_deref(),
        Some("dir/h63.h:1:10")
    );
    insta::assert_snapshot!(render(&pre.map, &pre.diagnostics, false));
}

#[test]
fn error_directive() {
    insta::assert_snapshot!(rendered("#if 3 % 2\n#error N must be even\n#endif\n", &[]));
}

#[test]
fn error_bad_paste() {
    insta::assert_snapshot!(rendered(
        "#define GLUE(a, b) a ## b\nint x = GLUE(+, /);\n",
        &[]
    ));
}

#[test]
fn errors_are_all_reported_in_one_run() {
    let pre = run(
        "#bogus\n#define F(x) x\nint a = F(1, 2);\n#if 1/0\n#endif\n#endif\n",
        &[],
        &[],
    );
    let codes: Vec<&str> = pre.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, vec!["E0003", "E0010", "E0009", "E0005"]);
    assert!(pre
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Error));
}

/// A diagnostic at the first occurrence of `needle` in the preprocessed text, as the parser
/// would report it.
fn parser_error_at(pre: &Preprocessed, needle: &str) -> Diagnostic {
    let lo = pre
        .text
        .find(needle)
        .expect("needle in the preprocessed text");
    Diagnostic::error(
        &crate::codes::E0001,
        crate::source::Span::new(lo, lo + needle.len()),
        "stand-in for a parser error",
    )
    .with_label("here")
}

#[test]
fn error_in_a_macro_expansion_points_at_the_use_site() {
    let pre = run("#define BAD (1 +* 2)\nint x;\n  int y = BAD;\n", &[], &[]);
    let diagnostic = parser_error_at(&pre, "*");
    let origin = pre.map.origin(diagnostic.span).expect("mapped");
    assert_eq!(origin.macro_name.as_deref(), Some("BAD"));
    assert_eq!(
        pre.map.location(diagnostic.span).as_deref(),
        Some("dir/main.fork:3:11")
    );
    insta::assert_snapshot!(render(&pre.map, &[diagnostic], false));
}

#[test]
fn macro_arguments_point_at_where_they_were_written() {
    let pre = run("#define ID(x) (x)\nint z = ID(oops);\n", &[], &[]);
    let diagnostic = parser_error_at(&pre, "oops");
    assert_eq!(
        pre.map.location(diagnostic.span).as_deref(),
        Some("dir/main.fork:2:12")
    );
}

#[test]
fn error_in_an_included_file_points_into_it() {
    let pre = run(
        "#define N 1\n#include \"inc/util.h\"\nint main_var;\n",
        &[("dir/inc/util.h", "/* util */\nint ok;\n  int é = N @@;\n")],
        &[],
    );
    let diagnostic = parser_error_at(&pre, "@@");
    assert_eq!(
        pre.map.location(diagnostic.span).as_deref(),
        Some("dir/inc/util.h:3:13")
    );
    let after = parser_error_at(&pre, "main_var");
    assert_eq!(
        pre.map.location(after.span).as_deref(),
        Some("dir/main.fork:3:5")
    );
    insta::assert_snapshot!(render(&pre.map, &[diagnostic], false));
}

#[test]
fn lines_stay_put_in_the_output() {
    let src = "#define A 1\n/* two\nlines */ int a = A;\n#if 0\nskipped\n#endif\nint b \\\n = 2;\nint c;\n";
    let pre = run(src, &[], &[]);
    assert_eq!(pre.text.lines().count(), src.lines().count());
    let c = parser_error_at(&pre, "int c");
    assert_eq!(
        pre.map.location(c.span).as_deref(),
        Some("dir/main.fork:9:1")
    );
}

#[test]
fn a_diagnostic_without_a_file_prints_no_snippet() {
    let diagnostic = Diagnostic::error(
        &crate::codes::E0001,
        crate::source::Span::default(),
        "cannot read `missing.fork`: No such file or directory",
    )
    .with_help("check the path");
    insta::assert_snapshot!(render(&SourceMap::default(), &[diagnostic], false));
}

#[test]
fn color_is_off_when_asked() {
    let pre = run("#defne N\n", &[], &[]);
    assert!(!render(&pre.map, &pre.diagnostics, false).contains('\u{1b}'));
    assert!(render(&pre.map, &pre.diagnostics, true).contains('\u{1b}'));
}

#[test]
fn codes_are_in_range_unique_and_explained() {
    let all = crate::codes::all();
    for code in CODES {
        let number: u32 = code.id[1..].parse().expect("numeric code");
        assert!(
            code.id.starts_with('E') && (2..=99).contains(&number),
            "{}",
            code.id
        );
        assert_eq!(
            all.iter().filter(|c| c.id == code.id).count(),
            1,
            "{}",
            code.id
        );
        assert!(
            code.explain.contains("Example") && code.explain.contains("Fix"),
            "{}",
            code.id
        );
        assert_eq!(crate::codes::find(&code.id.to_lowercase()), Some(*code));
    }
}

#[test]
fn error_in_a_command_line_define_points_at_it() {
    let pre = run("int x;\n", &[], &[("N", "1"), ("3", "4")]);
    insta::assert_snapshot!(render(&pre.map, &pre.diagnostics, false));
}

#[test]
fn deeply_nested_if_expressions_are_refused_not_overflowed() {
    let deep = format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let pre = run(&deep, &[], &[]);
    let codes: Vec<&str> = pre.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, vec!["E0008"]);
}

#[test]
fn check_source_reports_preprocessor_errors() {
    let failed = crate::check_source(
        "p.fork",
        "#if\n#endif\n#bogus\n",
        &crate::Options::default(),
    )
    .expect_err("preprocessor errors fail the check");
    let codes: Vec<&str> = failed.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, vec!["E0008", "E0003"]);
    let text = render(&failed.sources, &failed.diagnostics, false);
    assert!(
        text.contains("p.fork:1:1") && text.contains("p.fork:3:1"),
        "{text}"
    );
}

/// Preprocesses a 10,000-line `main` (with `defs.h`) and looks up one span per output line;
/// the front end's budget for such a program is 0.2 s in all.
fn time_ten_thousand_lines(what: &str, main: &str, defs: &str) {
    let start = std::time::Instant::now();
    let pre = run(main, &[("dir/defs.h", defs)], &[]);
    let preprocessed = start.elapsed();
    assert!(pre.diagnostics.is_empty());
    let mut mapped = 0;
    for (offset, _) in pre.text.match_indices('\n') {
        mapped += usize::from(
            pre.map
                .origin(crate::source::Span::new(offset, offset + 1))
                .is_some(),
        );
    }
    let total = start.elapsed();
    assert_eq!(mapped, pre.text.matches('\n').count());
    // The include's lines come in at its directive.
    assert_eq!(
        pre.text.lines().count(),
        main.lines().count() + defs.lines().count()
    );
    eprintln!("10,000 lines, {what}: preprocessed in {preprocessed:?}, plus one lookup per line: {total:?}");
    // Far above the real cost (tens of ms optimized), so a loaded machine or an unoptimized
    // build passes; a quadratic step (100 times slower at this size) would not.
    assert!(total.as_secs_f64() < 10.0, "{total:?}");
}

const DEFS: &str =
    "#define N 16\n#define SQ(x) ((x) * (x))\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\n";

#[test]
fn ten_thousand_lines_of_macro_calls_preprocess_fast() {
    let mut main = String::from("#include \"defs.h\"\n");
    for i in 0..10_000 {
        match i % 4 {
            0 => main.push_str(&format!("sh int a{i}[N] = MAX(SQ({i}), N); /* c */\n")),
            1 => main.push_str("#if N > 8\n"),
            2 => main.push_str(&format!("  int b{i} = SQ($$ + {i}) // trailing\n")),
            _ => main.push_str("#endif\n"),
        }
    }
    time_ten_thousand_lines("a macro call on every other line", &main, DEFS);
}

#[test]
fn ten_thousand_plain_lines_preprocess_fast() {
    let mut main = String::from("#include \"defs.h\"\n");
    for i in 0..10_000 {
        main.push_str(&format!(
            "    x{i} = a[$$ + {i}] * (y - {i}); /* comment */ if (x{i} > 0) z++;\n"
        ));
    }
    time_ten_thousand_lines("no macros", &main, DEFS);
}

/// Preprocesses and renders `src`; neither may panic, and every span must map to a file.
fn survives(src: &str) {
    let pre = run(src, &[("dir/x.h", src)], &[("D", "F(")]);
    for d in &pre.diagnostics {
        assert!(pre.map.origin(d.span).is_some(), "{src:?}: {d:?}");
    }
    render(&pre.map, &pre.diagnostics, false);
    for i in 0..=pre.text.len() {
        pre.map
            .origin(crate::source::Span::new(i, (i + 3).min(pre.text.len())));
    }
}

#[test]
fn odd_inputs_do_not_panic() {
    for src in [
        "",
        "#",
        "#define",
        "#define F(",
        "#define F(a,",
        "#define F(a) a\nF(",
        "F(\n#define F(x)\n",
        "\\",
        "\\\n",
        "\"",
        "'",
        "/*",
        "*/",
        "#if",
        "#if (",
        "#include \"",
        "#include \"x.h\"",
        "#include <",
        "é = ä;\n#define é 1\n",
        "a\r\nb\r\n#if 1\r\n#endif\r\n",
        "#define F(x) #\n",
        "#define F(x) x ## ## x\nF(1)",
        "#define F(...) __VA_ARGS__\nF()F(1,2)",
        "D)",
        "#if 'ab'\n#endif",
        "#if '\\x'\n#endif",
        "#if 99999999999999999999\n#endif",
        "#if -1 << 70\n#endif",
        "#elif\n#else\n#endif",
        "#define A B\n#define B A\nA B",
        "#define L(x) x L\nL(L)(1)",
    ] {
        survives(src);
    }
}

#[test]
fn random_inputs_do_not_panic() {
    const PIECES: &[&str] = &[
        "#define ",
        "#if ",
        "#elif ",
        "#else",
        "#endif",
        "#include \"x.h\"",
        "#undef ",
        "F",
        "G",
        "(",
        ")",
        ",",
        "x",
        "1",
        "/",
        "0",
        "*",
        "\n",
        " ",
        "\\\n",
        "/*",
        "*/",
        "//",
        "\"",
        "'",
        "##",
        "#",
        "defined",
        "...",
        "__VA_ARGS__",
        "é",
        "D",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..300 {
        let mut src = String::from("#define F(a, b) a ## b + #a\n#define G(...) F(__VA_ARGS__)\n");
        for _ in 0..40 {
            // xorshift: a fixed, reproducible sequence.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            src.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
        }
        survives(&src);
    }
}

#[test]
fn warnings_render_as_warnings() {
    let pre = run("int x;\n", &[], &[]);
    let warning = Diagnostic::warning(
        &crate::codes::E0001,
        crate::source::Span::new(4, 5),
        "stand-in warning",
    )
    .with_label("here");
    let text = render(&pre.map, &[warning], false);
    assert!(
        text.starts_with("warning[E0001]: stand-in warning\n"),
        "{text}"
    );
    assert!(text.contains("dir/main.fork:1:5"), "{text}");
}

#[test]
fn a_note_in_another_file_gets_its_own_snippet() {
    insta::assert_snapshot!(rendered(
        "#include \"defs.h\"\nint x = SQ(1, 2);\n",
        &[("dir/defs.h", "// helpers\n#define SQ(x) ((x) * (x))\n")]
    ));
}
