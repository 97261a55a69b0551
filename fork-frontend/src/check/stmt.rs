//! Statements: C control flow, the Fork constructs with the mode of every statement, and the
//! constructs the dialect rejects (`goto`, labels, `join`, locks).

use super::codes::*;
use super::expr::convert;
use super::fold::wrap;
use super::modes::{selects_one_member, Breakable};
use super::types::{is_integer, promote};
use super::Checker;
use crate::ast;
use crate::diag::Diagnostic;
use crate::hir::{self, FnKind, Mode, Sharity, Stmt, StmtKind, SwitchCase, Type};
use crate::source::Span;

impl Checker {
    fn make(&self, kind: StmtKind, span: Span) -> Stmt {
        Stmt {
            kind,
            mode: self.mode(),
            span,
        }
    }

    /// The statements of a block, in the current scope.
    pub(super) fn block_items(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt_into(s, &mut out);
        }
        out
    }

    /// A sub-statement (loop body, branch) in its own scope, as one statement.
    fn sub_stmt(&mut self, s: &ast::Stmt) -> Stmt {
        self.scopes.push();
        let mut out = Vec::new();
        self.stmt_into(s, &mut out);
        self.scopes.pop();
        if out.len() == 1 {
            if let Some(only) = out.pop() {
                return only;
            }
        }
        self.make(
            StmtKind::Block(hir::Block {
                stmts: out,
                span: s.span,
            }),
            s.span,
        )
    }

    /// The body of `start`, `farm`, `seq` or `fork`, checked in `mode`: `break`/`continue`
    /// and `return` cannot leave it.
    fn construct_body(&mut self, s: &ast::Stmt, mode: Mode, single_member: bool) -> Stmt {
        let saved = self.func.as_mut().map(|f| {
            let saved = (f.mode, f.single_member, std::mem::take(&mut f.breakables));
            if f.kind != FnKind::Straight {
                f.mode = mode;
            }
            f.single_member = single_member;
            f.construct_depth += 1;
            saved
        });
        let body = self.sub_stmt(s);
        if let (Some(f), Some((mode, single, breakables))) = (self.func.as_mut(), saved) {
            f.mode = mode;
            f.single_member = single;
            f.breakables = breakables;
            f.construct_depth -= 1;
        }
        body
    }

    fn with_breakable<T>(&mut self, b: Breakable, check: impl FnOnce(&mut Checker) -> T) -> T {
        if let Some(f) = &mut self.func {
            f.breakables.push(b);
        }
        let result = check(self);
        if let Some(f) = &mut self.func {
            f.breakables.pop();
        }
        result
    }

    fn with_single_member<T>(&mut self, single: bool, check: impl FnOnce(&mut Checker) -> T) -> T {
        let saved = self.func.as_mut().map(|f| {
            let saved = f.single_member;
            f.single_member |= single;
            saved
        });
        let result = check(self);
        if let (Some(f), Some(saved)) = (self.func.as_mut(), saved) {
            f.single_member = saved;
        }
        result
    }

    fn stmt_into(&mut self, s: &ast::Stmt, out: &mut Vec<Stmt>) {
        if let ast::StmtKind::Decl(decl) = &s.kind {
            return self.local_decl(decl, out);
        }
        if let ast::StmtKind::For {
            init,
            cond,
            step,
            body,
        } = &s.kind
        {
            return self.for_loop(
                init.as_deref(),
                cond.as_ref(),
                step.as_ref(),
                body,
                s.span,
                out,
            );
        }
        let mode = self.mode();
        if let Some(kind) = self.stmt_kind(s) {
            out.push(Stmt {
                kind,
                mode,
                span: s.span,
            });
        }
    }

    fn stmt_kind(&mut self, s: &ast::Stmt) -> Option<StmtKind> {
        let span = s.span;
        Some(match &s.kind {
            ast::StmtKind::Decl(_) | ast::StmtKind::For { .. } | ast::StmtKind::Empty => {
                return None
            }
            ast::StmtKind::Expr(e) => StmtKind::Expr(self.expr(e)?),
            ast::StmtKind::Block(b) => {
                self.scopes.push();
                let stmts = self.block_items(&b.stmts);
                self.scopes.pop();
                StmtKind::Block(hir::Block {
                    stmts,
                    span: b.span,
                })
            }
            ast::StmtKind::If { cond, then, els } => {
                let cond = self.condition(cond);
                let one = cond.as_ref().is_some_and(selects_one_member);
                let then = self.with_single_member(one, |c| c.sub_stmt(then));
                let els = els.as_ref().map(|e| Box::new(self.sub_stmt(e)));
                StmtKind::If {
                    cond: cond?,
                    then: Box::new(then),
                    els,
                }
            }
            ast::StmtKind::While { cond, body } | ast::StmtKind::DoWhile { body, cond } => {
                let test_first = matches!(s.kind, ast::StmtKind::While { .. });
                let cond = self.condition(cond);
                let body = self.with_breakable(Breakable::Loop, |c| c.sub_stmt(body));
                let looped = self.make(
                    StmtKind::Loop {
                        cond: Some(cond?),
                        step: None,
                        body: Box::new(body),
                        test_first,
                    },
                    span,
                );
                self.check_private_loop(&looped);
                looped.kind
            }
            ast::StmtKind::Switch { cond, body } => return self.switch(cond, body),
            ast::StmtKind::Case(_, inner) | ast::StmtKind::Default(inner) => {
                self.report(
                    Diagnostic::error(
                        &E0316,
                        span,
                        "a `case`/`default` label outside the body of a `switch`",
                    )
                    .with_label("misplaced label")
                    .with_help("put `case` labels directly in the `switch` body's braces"),
                );
                self.sub_stmt(inner);
                return None;
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let is_break = matches!(s.kind, ast::StmtKind::Break);
                let breakables = self
                    .func
                    .as_ref()
                    .map(|f| f.breakables.clone())
                    .unwrap_or_default();
                let ok = if is_break {
                    !breakables.is_empty()
                } else {
                    breakables.contains(&Breakable::Loop)
                };
                if !ok {
                    let (what, inside) = if is_break {
                        ("`break`", "a loop or `switch`")
                    } else {
                        ("`continue`", "a loop")
                    };
                    self.report(
                        Diagnostic::error(&E0316, span, format!("{what} outside {inside}"))
                            .with_label("nothing to leave here")
                            .with_help(format!("use {what} only inside {inside} (not across a `start`/`farm`/`seq`/`fork` body)")),
                    );
                    return None;
                }
                if is_break {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            ast::StmtKind::Return(value) => return self.return_stmt(value.as_ref(), span),
            ast::StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => {
                let allowed = self.allow_group_construct("`fork`", span);
                if allowed && self.mode() == Mode::Async {
                    self.report(
                        Diagnostic::error(&E0407, span, "`fork` in an asynchronous region")
                            .with_label("no group to split here")
                            .with_help(
                                "put the `fork` inside `start { ... }` or a `sync` function",
                            ),
                    );
                }
                let count = self.int_operand(count, "the group count of `fork`");
                if let Some(k) = count.as_ref().filter(|k| k.sharity == Sharity::Private) {
                    self.report(
                        Diagnostic::error(
                            &E0408,
                            k.span,
                            "the group count of `fork` must be shared",
                        )
                        .with_label("private expression")
                        .with_help(
                            "compute the count into a `sh` variable first, or use a constant",
                        ),
                    );
                    return None;
                }
                let at = self.int_operand(at, "`@ = ...` of `fork`");
                let dollar = dollar
                    .as_ref()
                    .map(|d| self.int_operand(d, "`$ = ...` of `fork`"));
                let body = self.construct_body(body, Mode::Sync, false);
                let dollar = match dollar {
                    Some(d) => Some(d?),
                    None => None,
                };
                StmtKind::Fork {
                    count: count?,
                    at: at?,
                    dollar,
                    body: Box::new(body),
                }
            }
            ast::StmtKind::Start(body) => {
                if self.allow_group_construct("`start`", span) && self.mode() == Mode::Sync {
                    let sync_main = self
                        .func
                        .as_ref()
                        .is_some_and(|f| f.is_main && f.kind == FnKind::Sync);
                    let message = if sync_main {
                        "`start` inside `sync main`, which already runs all processors as one group"
                    } else {
                        "`start` in a synchronous region"
                    };
                    self.report(
                        Diagnostic::error(&E0405, span, message)
                            .with_label("processors are already in a group here")
                            .with_help("remove the `start` and keep its body"),
                    );
                }
                StmtKind::Start(Box::new(self.construct_body(body, Mode::Sync, false)))
            }
            ast::StmtKind::Farm(body) => {
                self.allow_group_construct("`farm`", span);
                StmtKind::Farm(Box::new(self.construct_body(body, Mode::Async, false)))
            }
            ast::StmtKind::Seq(body) => {
                self.allow_group_construct("`seq`", span);
                StmtKind::Seq(Box::new(self.construct_body(body, Mode::Sync, true)))
            }
            ast::StmtKind::Barrier => {
                if self.allow_group_construct("`barrier`", span) && self.mode() == Mode::Sync {
                    self.report(
                        Diagnostic::error(&E0406, span, "`barrier` in a synchronous region, where every statement already ends synchronised")
                            .with_label("implicit here")
                            .with_help("remove the `barrier;`"),
                    );
                    return None;
                }
                StmtKind::Barrier
            }
            ast::StmtKind::Goto(label) => {
                self.report(
                    Diagnostic::error(
                        &E0409,
                        span,
                        format!("`goto {}` is not part of the Fork dialect", label.name),
                    )
                    .with_label("`goto`")
                    .with_help("restructure with loops, `break` and `continue`"),
                );
                return None;
            }
            ast::StmtKind::Label(label, inner) => {
                self.report(
                    Diagnostic::error(
                        &E0409,
                        label.span,
                        format!(
                            "the label `{}:` is not part of the Fork dialect",
                            label.name
                        ),
                    )
                    .with_label("label")
                    .with_help("remove the label; `goto` is not supported"),
                );
                self.sub_stmt(inner);
                return None;
            }
            ast::StmtKind::Unsupported(what) => {
                self.report(
                    Diagnostic::error(
                        &E0410,
                        span,
                        format!("`{what}` is not part of the Fork dialect"),
                    )
                    .with_label(format!("`{what}`"))
                    .with_help(
                        "synchronise with `start`, `barrier` or multiprefix operations (`mpadd`)",
                    ),
                );
                return None;
            }
        })
    }

    /// An integer operand converted to `int` (the parts of `fork`).
    fn int_operand(&mut self, e: &ast::Expr, what: &str) -> Option<hir::Expr> {
        let v = self.rvalue(e)?;
        if !is_integer(&v.ty) {
            self.report(
                Diagnostic::error(&E0301, e.span, format!("{what} must be an integer"))
                    .with_label(format!("this has type `{}`", self.type_str(&v.ty)))
                    .with_help("use an `int` expression"),
            );
            return None;
        }
        Some(convert(v, &Type::INT))
    }

    fn for_loop(
        &mut self,
        init: Option<&ast::Stmt>,
        cond: Option<&ast::Expr>,
        step: Option<&ast::Expr>,
        body: &ast::Stmt,
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        self.scopes.push();
        let mut stmts = Vec::new();
        if let Some(init) = init {
            self.stmt_into(init, &mut stmts);
        }
        let cond = cond.map(|c| self.condition(c));
        let step = step.map(|e| self.expr(e));
        let body = self.with_breakable(Breakable::Loop, |c| c.sub_stmt(body));
        self.scopes.pop();
        let (cond, step) = match (cond, step) {
            (Some(None), _) | (_, Some(None)) => return,
            (c, s) => (c.flatten(), s.flatten()),
        };
        let looped = self.make(
            StmtKind::Loop {
                cond,
                step,
                body: Box::new(body),
                test_first: true,
            },
            span,
        );
        self.check_private_loop(&looped);
        if stmts.is_empty() {
            out.push(looped);
        } else {
            stmts.push(looped);
            out.push(self.make(StmtKind::Block(hir::Block { stmts, span }), span));
        }
    }

    fn return_stmt(&mut self, value: Option<&ast::Expr>, span: Span) -> Option<StmtKind> {
        let (ret, in_construct) = self
            .func
            .as_ref()
            .map(|f| (f.ret.clone(), f.construct_depth > 0))?;
        let value = match value {
            Some(e) => Some(self.rvalue(e)?),
            None => None,
        };
        if in_construct {
            self.report(
                Diagnostic::error(
                    &E0316,
                    span,
                    "`return` inside a `start`, `farm`, `seq` or `fork` body",
                )
                .with_label("cannot leave the construct")
                .with_help("end the construct first, then return after it"),
            );
            return None;
        }
        let value = match (value, &ret) {
            (None, Type::Void) => None,
            (Some(v), Type::Void) => {
                self.report(
                    Diagnostic::error(&E0311, v.span, "a `void` function returns a value")
                        .with_label("value returned")
                        .with_help("remove the value, or give the function a return type"),
                );
                return None;
            }
            (None, _) => {
                self.report(
                    Diagnostic::error(
                        &E0311,
                        span,
                        format!(
                            "this function returns `{}`, but `return` has no value",
                            self.type_str(&ret)
                        ),
                    )
                    .with_label("value missing")
                    .with_help("return a value of the function's type"),
                );
                return None;
            }
            (Some(v), _) => Some(self.assign_convert(v, &ret, "`return`")?),
        };
        Some(StmtKind::Return(value))
    }

    fn switch(&mut self, cond: &ast::Expr, body: &ast::Stmt) -> Option<StmtKind> {
        let cond = self.rvalue(cond);
        let cond = match cond {
            Some(c) if is_integer(&c.ty) => {
                let ty = promote(&c.ty);
                Some(convert(c, &ty))
            }
            Some(c) => {
                self.report(
                    Diagnostic::error(&E0301, c.span, "a `switch` needs an integer")
                        .with_label(format!("this has type `{}`", self.type_str(&c.ty)))
                        .with_help("switch on an integer value"),
                );
                None
            }
            None => None,
        };
        let cond_ty = cond.as_ref().map_or(Type::INT, |c| c.ty.clone());
        let items: &[ast::Stmt] = match &body.kind {
            ast::StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(body),
        };
        let cases = self.with_breakable(Breakable::Switch, |c| {
            c.scopes.push();
            let cases = c.switch_cases(items, &cond_ty);
            c.scopes.pop();
            cases
        });
        Some(StmtKind::Switch { cond: cond?, cases })
    }

    fn switch_cases(&mut self, items: &[ast::Stmt], ty: &Type) -> Vec<SwitchCase> {
        let mut cases: Vec<SwitchCase> = Vec::new();
        let mut seen: Vec<(Option<i64>, Span)> = Vec::new();
        for item in items {
            let mut s = item;
            loop {
                let label_span = s.span;
                let value = match &s.kind {
                    ast::StmtKind::Case(e, inner) => {
                        let v = self.const_int(e, "a `case` label");
                        s = inner;
                        match (v, ty) {
                            (Some(v), Type::Int(k)) => Some(Some(wrap(v, *k))),
                            _ => None,
                        }
                    }
                    ast::StmtKind::Default(inner) => {
                        s = inner;
                        Some(None)
                    }
                    _ => break,
                };
                let Some(value) = value else { continue };
                if let Some((_, first)) = seen.iter().find(|(v, _)| *v == value) {
                    let what = match value {
                        Some(v) => format!("`case {v}` appears twice in this `switch`"),
                        None => "`default` appears twice in this `switch`".to_string(),
                    };
                    let first = *first;
                    self.report(
                        Diagnostic::error(&E0316, label_span, what)
                            .with_label("duplicate label")
                            .with_note(first, "first here")
                            .with_help("give each case a different value"),
                    );
                    continue;
                }
                seen.push((value, label_span));
                cases.push(SwitchCase {
                    value,
                    body: Vec::new(),
                    span: label_span,
                });
            }
            let mut stmts = Vec::new();
            self.stmt_into(s, &mut stmts);
            match cases.last_mut() {
                Some(case) => case.body.extend(stmts),
                None if !stmts.is_empty() => {
                    self.report(
                        Diagnostic::error(
                            &E0316,
                            s.span,
                            "a statement before the first `case` of a `switch` never runs",
                        )
                        .with_label("unreachable")
                        .with_help("move it before the `switch`, or after a `case` label"),
                    );
                }
                None => {}
            }
        }
        cases
    }
}
