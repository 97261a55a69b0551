//! Checker tests on hand-built syntax trees (the corpus tests in `tests/` go through the
//! parser).

use super::check;
use crate::ast::*;
use crate::diag::Severity;
use crate::hir::{self, Mode, Sharity};
use crate::source::Span;

fn sp() -> Span {
    Span::default()
}

fn ident(name: &str) -> Ident {
    Ident {
        name: name.into(),
        span: sp(),
    }
}

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: sp() }
}

fn var(name: &str) -> Expr {
    e(ExprKind::Ident(name.into()))
}

fn int(v: u64) -> Expr {
    e(ExprKind::IntLit {
        value: v,
        unsigned: false,
        long: false,
    })
}

fn s(kind: StmtKind) -> Stmt {
    Stmt { kind, span: sp() }
}

fn specs(base: BaseType, sharity: Option<SharityKw>, fn_kind: Option<FnKindKw>) -> DeclSpecs {
    DeclSpecs {
        sharity,
        fn_kind,
        storage: None,
        is_const: false,
        base,
        span: sp(),
    }
}

fn int_ty() -> BaseType {
    BaseType::Int { signed: true }
}

fn decl(sharity: Option<SharityKw>, name: &str, derived: Vec<Derived>, init: Option<Expr>) -> Decl {
    Decl {
        specs: specs(int_ty(), sharity, None),
        declarators: vec![InitDeclarator {
            declarator: Declarator {
                name: Some(ident(name)),
                derived,
                span: sp(),
            },
            init: init.map(Initializer::Expr),
        }],
        span: sp(),
    }
}

fn function(kind: Option<FnKindKw>, name: &str, body: Vec<Stmt>) -> Item {
    Item::Function(FunctionDef {
        specs: specs(BaseType::Void, None, kind),
        declarator: Declarator {
            name: Some(ident(name)),
            derived: vec![Derived::Function(vec![])],
            span: sp(),
        },
        body: Block {
            stmts: body,
            span: sp(),
        },
        span: sp(),
    })
}

fn assign(place: Expr, value: Expr) -> Stmt {
    s(StmtKind::Expr(e(ExprKind::Assign(
        None,
        Box::new(place),
        Box::new(value),
    ))))
}

fn codes(unit: &TranslationUnit) -> Vec<&'static str> {
    check(unit).1.iter().map(|d| d.code.id).collect()
}

#[test]
fn sync_main_sharity_and_indexing() {
    // sh int x; sync void main(void) { int a[4]; a[$$] = x + 1; x = 2; }
    let unit = TranslationUnit {
        items: vec![
            Item::Decl(decl(Some(SharityKw::Sh), "x", vec![], None)),
            function(
                Some(FnKindKw::Sync),
                "main",
                vec![
                    s(StmtKind::Decl(decl(
                        None,
                        "a",
                        vec![Derived::Array(Some(int(4)))],
                        None,
                    ))),
                    assign(
                        e(ExprKind::Index(
                            Box::new(var("a")),
                            Box::new(e(ExprKind::DollarDollar)),
                        )),
                        e(ExprKind::Binary(
                            BinaryOp::Add,
                            Box::new(var("x")),
                            Box::new(int(1)),
                        )),
                    ),
                    assign(var("x"), int(2)),
                ],
            ),
        ],
    };
    let (program, diags) = check(&unit);
    assert!(diags.is_empty(), "{diags:?}");
    let program = program.expect("checks");
    let main = program.func(program.main);
    assert!(main.body.stmts.iter().all(|s| s.mode == Mode::Sync));
    let hir::StmtKind::Expr(store) = &main.body.stmts[1].kind else {
        panic!("not an expression")
    };
    assert_eq!(store.sharity, Sharity::Private);
    let hir::ExprKind::Assign { place, value } = &store.kind else {
        panic!("not an assignment")
    };
    assert!(
        matches!(&place.kind, hir::ExprKind::Deref(p) if matches!(p.kind, hir::ExprKind::PtrOffset { elem_size: 4, .. }))
    );
    assert_eq!(value.sharity, Sharity::Shared);
    let a = program.vars.iter().find(|v| v.name == "a").expect("a");
    assert!(a.addr_taken, "a decays, so it must be addressable");
    assert_eq!(a.ty, hir::Type::Array(Box::new(hir::Type::INT), 4));
}

#[test]
fn shared_write_of_private_value_warns() {
    let unit = TranslationUnit {
        items: vec![
            Item::Decl(decl(Some(SharityKw::Sh), "x", vec![], None)),
            function(
                Some(FnKindKw::Sync),
                "main",
                vec![assign(var("x"), e(ExprKind::DollarDollar))],
            ),
        ],
    };
    let (program, diags) = check(&unit);
    assert!(program.is_some());
    assert_eq!(diags.len(), 1);
    assert_eq!(
        (diags[0].code.id, diags[0].severity),
        ("W0201", Severity::Warning)
    );
}

#[test]
fn fork_rules() {
    let fork = |count: Expr| {
        s(StmtKind::Fork {
            count,
            at: e(ExprKind::DollarDollar),
            dollar: None,
            body: Box::new(s(StmtKind::Empty)),
        })
    };
    // fork in plain (asynchronous) main; fork with a private count in a sync function.
    let unit = TranslationUnit {
        items: vec![
            function(None, "main", vec![fork(int(2))]),
            function(
                Some(FnKindKw::Sync),
                "f",
                vec![fork(e(ExprKind::DollarDollar))],
            ),
        ],
    };
    assert_eq!(codes(&unit), vec!["E0407", "E0408"]);
}

#[test]
fn start_barrier_and_sync_calls() {
    let call_f = s(StmtKind::Expr(e(ExprKind::Call(
        Box::new(var("f")),
        vec![],
    ))));
    let unit = TranslationUnit {
        items: vec![
            function(Some(FnKindKw::Sync), "f", vec![s(StmtKind::Barrier)]),
            function(
                None,
                "main",
                vec![
                    call_f.clone(),
                    s(StmtKind::Start(Box::new(call_f))),
                    s(StmtKind::Barrier),
                ],
            ),
            function(
                Some(FnKindKw::Straight),
                "g",
                vec![s(StmtKind::Seq(Box::new(s(StmtKind::Empty))))],
            ),
        ],
    };
    assert_eq!(codes(&unit), vec!["E0406", "E0401", "E0404"]);
}

#[test]
fn undefined_name_suggests_close_one() {
    let unit = TranslationUnit {
        items: vec![
            Item::Decl(decl(None, "count", vec![], None)),
            function(None, "main", vec![assign(var("cuont"), int(1))]),
        ],
    };
    let diags = check(&unit).1;
    assert_eq!(diags[0].code.id, "E0201");
    assert_eq!(diags[0].help.as_deref(), Some("did you mean `count`?"));
}

#[test]
fn missing_main_is_an_error() {
    let unit = TranslationUnit {
        items: vec![function(None, "f", vec![])],
    };
    assert_eq!(codes(&unit), vec!["E0208"]);
}

#[test]
fn checker_codes_are_in_range_unique_and_explained() {
    for code in super::CODES {
        let number: u32 = code.id[1..].parse().expect("numeric code");
        match &code.id[..1] {
            "E" => assert!(
                (200..500).contains(&number),
                "{} outside E0200-E0499",
                code.id
            ),
            "W" => assert!(
                (200..300).contains(&number),
                "{} outside W0200-W0299",
                code.id
            ),
            other => panic!("unexpected code prefix {other}"),
        }
        assert!(
            !code.title.is_empty() && code.explain.len() > 40,
            "{} needs an explanation",
            code.id
        );
    }
    let all = crate::codes::all();
    for (i, a) in all.iter().enumerate() {
        assert!(
            all[i + 1..].iter().all(|b| b.id != a.id),
            "{} is registered twice",
            a.id
        );
    }
    assert_eq!(crate::codes::find("w0201").map(|c| c.id), Some("W0201"));
}

/// A chain of `n` additions: a left-deep tree `n` levels deep.
fn addition_chain(n: usize) -> String {
    format!(
        "void main(void) {{ int x = 0; x = {}x; }}",
        "1 + ".repeat(n)
    )
}

#[test]
fn deep_expressions_fit_on_a_small_stack_up_to_the_limit() {
    // Test threads have small stacks: checking runs on its own thread.
    let ok = crate::check_source(
        "deep.fork",
        &addition_chain(250),
        &crate::Options::default(),
    );
    assert!(ok.is_ok());
    let Err(too_deep) = crate::check_source(
        "deep.fork",
        &addition_chain(400),
        &crate::Options::default(),
    ) else {
        panic!("a 400-level expression must be rejected");
    };
    let found: Vec<&str> = too_deep.diagnostics.iter().map(|d| d.code.id).collect();
    assert_eq!(found, vec!["E0318"]);
}

#[test]
fn only_defined_functions_reach_the_program() {
    let text = "int unused(int x);\nint later(void);\nvoid main(void) { later(); }\nint later(void) { return 1; }\n";
    let checked =
        crate::check_source("protos.fork", text, &crate::Options::default()).expect("checks");
    let names: Vec<&str> = checked
        .program
        .funcs
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(names, vec!["main", "later"]);
    assert_eq!(checked.program.func(checked.program.main).name, "main");
}
