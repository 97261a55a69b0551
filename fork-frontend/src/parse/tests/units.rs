//! Unit tests: precedence, declarators, the typedef hack, Fork constructs, literals.

use super::{expr_sexpr, expr_sexpr_with, parse_ok, sexpr};
use crate::ast::{BaseType, Derived, Item, StmtKind};

#[test]
fn binary_precedence_and_associativity() {
    assert_eq!(expr_sexpr("a + b * c"), "(+ a (* b c))");
    assert_eq!(expr_sexpr("a - b - c"), "(- (- a b) c)");
    assert_eq!(expr_sexpr("a << 1 + 2"), "(<< a (+ 1 2))");
    assert_eq!(expr_sexpr("a < b == c > d"), "(== (< a b) (> c d))");
    assert_eq!(expr_sexpr("a | b ^ c & d"), "(| a (^ b (& c d)))");
    assert_eq!(expr_sexpr("a || b && c | d"), "(|| a (&& b (| c d)))");
    assert_eq!(expr_sexpr("a % b / c * d"), "(* (/ (% a b) c) d)");
    assert_eq!(expr_sexpr("(a + b) * c"), "(* (+ a b) c)");
}

#[test]
fn assignment_conditional_and_comma() {
    assert_eq!(expr_sexpr("a = b = c"), "(= a (= b c))");
    assert_eq!(expr_sexpr("a += b -= c"), "(+= a (-= b c))");
    assert_eq!(expr_sexpr("a <<= 2, b >>= 3"), "(, (<<= a 2) (>>= b 3))");
    assert_eq!(expr_sexpr("a ? b : c ? d : e"), "(?: a b (?: c d e))");
    assert_eq!(expr_sexpr("a ? b, c : d"), "(?: a (, b c) d)");
    assert_eq!(expr_sexpr("x = a || b ? 1 : 2"), "(= x (?: (|| a b) 1 2))");
    assert_eq!(expr_sexpr("a, b, c"), "(, (, a b) c)");
}

#[test]
fn unary_postfix_and_casts() {
    assert_eq!(expr_sexpr("-a++"), "(neg (post++ a))");
    assert_eq!(expr_sexpr("*p++"), "(deref (post++ p))");
    assert_eq!(expr_sexpr("&a[i].f"), "(addr (. (index a i) f))");
    assert_eq!(expr_sexpr("!~+-x"), "(! (~ (plus (neg x))))");
    assert_eq!(expr_sexpr("++*--p"), "(pre++ (deref (pre-- p)))");
    assert_eq!(expr_sexpr("p->next->v--"), "(post-- (-> (-> p next) v))");
    assert_eq!(expr_sexpr("f(a, b = 1)(c)"), "(call (call f a (= b 1)) c)");
    assert_eq!(
        expr_sexpr("(unsigned long)x * 2"),
        "(* (cast [unsigned long] (_) x) 2)"
    );
    assert_eq!(expr_sexpr("(int (*)[3])p"), "(cast [int] (_ * [3]) p)");
    assert_eq!(expr_sexpr("sizeof x + 1"), "(+ (sizeof x) 1)");
    assert_eq!(expr_sexpr("sizeof (x) + 1"), "(+ (sizeof x) 1)");
    assert_eq!(
        expr_sexpr("sizeof(char *) * n"),
        "(* (sizeof-type [char] (_ *)) n)"
    );
    assert_eq!(expr_sexpr("sizeof -x"), "(sizeof (neg x))");
    assert_eq!(
        expr_sexpr("(void (*)(void))f"),
        "(cast [void] (_ * (fn)) f)"
    );
    assert_eq!(expr_sexpr("sizeof(int[3])"), "(sizeof-type [int] (_ [3]))");
    assert_eq!(
        expr_sexpr("(sh const int *)p"),
        "(cast [sh const int] (_ *) p)"
    );
}

#[test]
fn fork_identifiers_and_builtins() {
    assert_eq!(expr_sexpr("a[$$] = $ + @"), "(= (index a $$) (+ $ @))");
    assert_eq!(expr_sexpr("$$-$"), "(- $$ $)");
    assert_eq!(
        expr_sexpr("mpadd(&x, groupsize()) + ilog2(__STARTED_PROCS__)"),
        "(+ (call mpadd (addr x) (call groupsize)) (call ilog2 __STARTED_PROCS__))"
    );
}

/// The declarators of the last file-level declaration in `text`.
fn declarators_of(text: &str) -> Vec<String> {
    let unit = parse_ok(text);
    let Some(Item::Decl(decl)) = unit.items.last() else {
        panic!("no declaration parsed from {text:?}");
    };
    decl.declarators
        .iter()
        .map(|d| sexpr::declarator(&d.declarator))
        .collect()
}

#[test]
fn declarators_pointer_array_function() {
    assert_eq!(declarators_of("int *a[3];"), ["(a [3] *)"]);
    assert_eq!(declarators_of("int (*p)[3];"), ["(p * [3])"]);
    assert_eq!(declarators_of("int a[2][3];"), ["(a [2] [3])"]);
    assert_eq!(declarators_of("int **pp, x;"), ["(pp * *)", "(x)"]);
    assert_eq!(declarators_of("int * const * p;"), ["(p * *const)"]);
    assert_eq!(declarators_of("sh int * sh p;"), ["(p *sh)"]);
    assert_eq!(declarators_of("int *f(void);"), ["(f (fn) *)"]);
    assert_eq!(
        declarators_of("int (*fp)(int n, char *);"),
        ["(fp * (fn [int] (n), [char] (_ *)))"]
    );
    assert_eq!(
        declarators_of("int *(*g[2])(int);"),
        ["(g [2] * (fn [int] (_)) *)"]
    );
    assert_eq!(declarators_of("int ((x));"), ["(x)"]);
    assert_eq!(declarators_of("char s[] = \"hi\";"), ["(s [])"]);
}

#[test]
fn specifiers_in_any_order() {
    let specs = |text: &str| {
        let unit = parse_ok(text);
        match &unit.items[..] {
            [Item::Decl(d)] => sexpr::specs(&d.specs),
            [Item::Function(f)] => sexpr::specs(&f.specs),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(specs("const sh unsigned x;"), "[sh const unsigned int]");
    assert_eq!(
        specs("long unsigned static long y;"),
        "[static unsigned long]"
    );
    assert_eq!(specs("int sync f(void) {}"), "[sync int]");
    assert_eq!(specs("short signed int s;"), "[short]");
    assert_eq!(specs("unsigned char c;"), "[unsigned char]");
    assert_eq!(specs("char c;"), "[char]");
    assert_eq!(specs("pr long double d;"), "[pr double]");
    assert_eq!(specs("main() { }"), "[int]");
}

#[test]
fn typedef_names_change_the_parse() {
    // With `T` a type, `(T)*x` is a cast of `*x` and `T *p;` declares a pointer.
    assert_eq!(
        expr_sexpr_with("typedef int T; int *x;", "(T)*x"),
        "(cast [typedef:T] (_) (deref x))"
    );
    // With `T` a variable, `(T)*x` is a multiplication.
    assert_eq!(expr_sexpr_with("int T, x;", "(T)*x"), "(* T x)");
    assert_eq!(declarators_of("typedef int T; T *p;"), ["(p *)"]);
    // A local variable hides the typedef inside its block only.
    let unit = parse_ok("typedef int T;\nvoid f(void) { int a, b; { int T; T * a; } T * b; }");
    let Some(Item::Function(f)) = unit.items.last() else {
        panic!("no function");
    };
    let StmtKind::Block(inner) = &f.body.stmts[1].kind else {
        panic!("no inner block");
    };
    assert!(
        matches!(inner.stmts[1].kind, StmtKind::Expr(_)),
        "`T * a` multiplies"
    );
    assert!(
        matches!(f.body.stmts[2].kind, StmtKind::Decl(_)),
        "`T * b` declares"
    );
    // A parameter named like a typedef hides it in the function body.
    assert_eq!(
        expr_sexpr_with("typedef int T; int x;", "sizeof(T)"),
        "(sizeof-type [typedef:T] (_))"
    );
    let unit = parse_ok("typedef int T; int g(int T) { return (T) + 1; }");
    assert_eq!(unit.items.len(), 2);
}

#[test]
fn struct_and_enum_bodies() {
    let unit = parse_ok("struct p { int x, y; struct p *next; } origin = {1, 2, 0};");
    let Item::Decl(decl) = &unit.items[0] else {
        panic!("not a declaration");
    };
    let BaseType::Struct {
        fields: Some(fields),
        ..
    } = &decl.specs.base
    else {
        panic!("no struct body");
    };
    assert_eq!(fields.len(), 2);
    assert_eq!(
        sexpr::unit(&unit).trim(),
        "(decl [struct p {(decl [int] (x) (y)) (decl [struct p] (next *))}] (origin) = {1 2 0})"
    );
    // Enum constants are ordinary identifiers: they hide a typedef of the same name.
    assert_eq!(
        expr_sexpr_with("typedef int A; enum { A, B = A + 2 };", "(A) * 2"),
        "(* A 2)"
    );
}

#[test]
fn fork_statements() {
    let unit = parse_ok("sync void f(sh int k) { fork (k; @ = $$ % k) seq barrier; start farm ; }");
    let Some(Item::Function(f)) = unit.items.last() else {
        panic!("no function");
    };
    let StmtKind::Fork { dollar, body, .. } = &f.body.stmts[0].kind else {
        panic!("not a fork");
    };
    assert!(dollar.is_none());
    assert!(matches!(&body.kind, StmtKind::Seq(s) if s.kind == StmtKind::Barrier));
    assert!(
        matches!(&f.body.stmts[1].kind, StmtKind::Start(s) if matches!(s.kind, StmtKind::Farm(_)))
    );
    let Derived::Function(params) = &f.declarator.derived[0] else {
        panic!("not a function declarator");
    };
    assert_eq!(sexpr::specs(&params[0].specs), "[sh int]");
}

#[test]
fn integer_literals() {
    assert_eq!(expr_sexpr("10"), "10");
    assert_eq!(expr_sexpr("0x1F"), "31");
    assert_eq!(expr_sexpr("017"), "15");
    assert_eq!(expr_sexpr("0"), "0");
    assert_eq!(expr_sexpr("10u"), "10u");
    assert_eq!(expr_sexpr("10L"), "10l");
    assert_eq!(expr_sexpr("10ull"), "10ul");
    assert_eq!(expr_sexpr("10LU"), "10ul");
    assert_eq!(expr_sexpr("0xffffffffffffffff"), "18446744073709551615");
}

#[test]
fn float_char_and_string_literals() {
    assert_eq!(expr_sexpr("1.5"), "1.5");
    assert_eq!(expr_sexpr("1e9"), "1000000000.0");
    assert_eq!(expr_sexpr(".5f"), "0.5f");
    assert_eq!(expr_sexpr("2."), "2.0");
    assert_eq!(expr_sexpr("1.5e-3L"), "0.0015");
    assert_eq!(expr_sexpr("'a'"), "(char 97)");
    assert_eq!(expr_sexpr(r"'\n'"), "(char 10)");
    assert_eq!(expr_sexpr(r"'\0'"), "(char 0)");
    assert_eq!(expr_sexpr(r"'\x41'"), "(char 65)");
    assert_eq!(expr_sexpr(r"'\101'"), "(char 65)");
    assert_eq!(expr_sexpr(r"'\''"), "(char 39)");
    assert_eq!(expr_sexpr(r#""a\tb\\c\"""#), r#""a\tb\\c\"""#);
    assert_eq!(expr_sexpr(r#""ab" "cd"  "e""#), "\"abcde\"");
    assert_eq!(expr_sexpr(r#""\x41\102C""#), "\"ABC\"");
}

#[test]
fn goto_labels_and_join_are_kept_for_the_checker() {
    let unit = parse_ok("void f(void) { goto out; out: ; join (x; y; z) { f(); } }");
    let Some(Item::Function(f)) = unit.items.last() else {
        panic!("no function");
    };
    let kinds: Vec<&StmtKind> = f.body.stmts.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[0], StmtKind::Goto(l) if l.name == "out"));
    assert!(matches!(kinds[1], StmtKind::Label(l, _) if l.name == "out"));
    assert_eq!(kinds[2], &StmtKind::Unsupported("join"));
}

#[test]
fn spans_cover_the_construct() {
    let text = "int f(void) { return a + b * c; }";
    let unit = parse_ok(text);
    let Some(Item::Function(f)) = unit.items.last() else {
        panic!("no function");
    };
    let stmt = &f.body.stmts[0];
    assert_eq!(
        &text[stmt.span.lo as usize..stmt.span.hi as usize],
        "return a + b * c;"
    );
    let StmtKind::Return(Some(e)) = &stmt.kind else {
        panic!("not a return");
    };
    assert_eq!(&text[e.span.lo as usize..e.span.hi as usize], "a + b * c");
    assert_eq!(&text[f.span.lo as usize..f.span.hi as usize], text);
}

#[test]
fn every_punctuator_lexes_as_itself() {
    use crate::parse::token::{Tok, PUNCTS};
    for &(text, punct) in PUNCTS {
        let (tokens, diags) = crate::parse::lexer::lex(&format!(" {text} "));
        assert!(diags.is_empty(), "{text}");
        assert_eq!(tokens[0].tok, Tok::Punct(punct), "{text}");
        assert_eq!(tokens[1].tok, Tok::Eof, "{text}");
    }
    // Longest match: `a+++b` is `a ++ + b`; `x<<=$$-$` is `x <<= $$ - $`.
    assert_eq!(expr_sexpr("a+++b"), "(+ (post++ a) b)");
    assert_eq!(expr_sexpr("x<<=$$-$"), "(<<= x (- $$ $))");
}

#[test]
fn keywords_are_not_identifiers() {
    use crate::parse::token::KEYWORDS;
    for &(kw, _) in KEYWORDS {
        let text = format!("int x, {kw};");
        let (_, diags) = crate::parse::parse(&text);
        assert!(!diags.is_empty(), "`{kw}` was accepted as a name");
    }
    // Fork's special identifiers are ordinary names to the parser.
    parse_ok("int __PROC_NR__; int groupsize; int ilog2; int mpadd;");
}

#[test]
fn stray_whitespace_is_tolerated() {
    let unit = parse_ok("\r\n\tint\x0b x\x0c=\r\n1 ;\r\n  \t");
    assert_eq!(sexpr::unit(&unit), "(decl [int] (x) = 1)\n");
    assert!(parse_ok("").items.is_empty());
    assert!(parse_ok(" \n\t ").items.is_empty());
}

#[test]
fn parameters_arrays_and_abstract_names() {
    assert_eq!(
        declarators_of("int f(int a[], int n, char **, sh int k[4][4]);"),
        ["(f (fn [int] (a []), [int] (n), [char] (_ * *), [sh int] (k [4] [4])))"]
    );
}
