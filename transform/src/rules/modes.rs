//! Rule 6: `start`, `farm` and `seq` change the mode (asynchronous code is compiled by
//! `Builder::async_region`, `phases`).

use super::*;
use crate::plan::{Split, SplitKind};
use fork_frontend::hir::{InitElem, SwitchCase};

impl Builder<'_> {
    /// `start S`: a barrier of the processors of the region; those present (the others have
    /// left it) form a group (`@` = 0, `$` = `__PROC_NR__`, fresh `$$`) that runs S
    /// synchronously, as the simulator's `exec_start`. `HostOp::Start` forms it of all P
    /// processors: exact for a `start` that every processor reaches (`reached_by_all`);
    /// elsewhere it is `fork (1; @ = 0; $ = __PROC_NR__)` of the active members (a `start`
    /// in an `async` function called by a subgroup, or one that barrier phases run for the
    /// processors that stopped at it).
    pub(crate) fn start_region(&mut self, body: &Stmt, span: Span, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        if self.reached_by_all(body) {
            let (body, shared_frame) = self.scoped_block(body, Mode::Sync, "start");
            return ops.push(HostOp::Start {
                body,
                shared_frame,
                span,
            });
        }
        self.start_group(body, ops);
    }

    /// `start S` as `fork (1; @ = 0; $ = __PROC_NR__) S` of the active members.
    pub(crate) fn start_group(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let mut slot = |b: &mut Self, value: Expr, what: &str| {
            let t = b.temp(Type::INT, what, body.span);
            let s = assign_stmt(b, t, value, body.span);
            b.append(
                Stmt {
                    mode: Mode::Async,
                    ..s
                },
                Mode::Async,
                ops,
            );
            t
        };
        let int = |v| mk(ExprKind::IntConst(v), Type::INT, body.span);
        let count = slot(self, int(1), "start_k");
        let at = slot(self, int(0), "start_at");
        let proc = mk(ExprKind::ProcNr, Type::INT, body.span);
        let dollar = Some(slot(self, proc, "start_dollar"));
        self.close(ops, CutReason::HostConstruct);
        let (body_ops, frame) = self.scoped_block(body, Mode::Sync, "start");
        ops.push(HostOp::Split(Split {
            kind: SplitKind::Fork { count, at, dollar },
            arms: vec![body_ops],
            shared_frames: vec![frame],
            span: body.span,
        }));
    }

    /// Whether every one of the P processors reaches the `start` whose body is `body`: it is
    /// in `main`, outside every condition and loop, and no processor can have returned.
    fn reached_by_all(&self, body: &Stmt) -> bool {
        fn top_level<'s>(stmts: &'s [Stmt], out: &mut Vec<&'s Stmt>) {
            for s in stmts {
                match &s.kind {
                    StmtKind::Block(b) => top_level(&b.stmts, out),
                    StmtKind::Start(body) => out.push(body),
                    // A `seq` of asynchronous code is the body of its own `start`.
                    StmtKind::Seq(_) => out.push(s),
                    _ => {}
                }
            }
        }
        let main = &self.program.func(self.program.main).body.stmts;
        let mut starts = Vec::new();
        top_level(main, &mut starts);
        self.func == self.program.main
            && starts.iter().any(|b| b.span == body.span)
            && !main.iter().any(returns_outside_start)
    }

    /// `farm S`: asynchronous kernels (cut only at `barrier`), a group barrier at the end.
    pub(crate) fn farm_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        self.traced_async_region(body.span, None, ops, |b, ops| {
            b.async_region(block_stmts(body), ops);
            b.close(ops, CutReason::Barrier(None));
        });
    }

    /// `seq S`: one processor (`$$ == 0`) runs S; one processor needs no cut, so S is
    /// compiled as asynchronous code, with the subgroups its private conditions would form
    /// written out (`one_member`).
    pub(crate) fn seq_region(&mut self, body: &Stmt, span: Span, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let body = one_member(body, false);
        let mut seq_ops = Vec::new();
        self.async_region(block_stmts(&body), &mut seq_ops);
        self.close(&mut seq_ops, CutReason::BlockEnd);
        ops.push(HostOp::Seq {
            body: seq_ops,
            span,
        });
    }
}

/// Whether `s`, a statement of `main`, holds a `return` outside every `start` body (the
/// checker admits none inside one), which may run before a `start`; one after it only costs
/// the `fork` form, which is exact too.
fn returns_outside_start(s: &Stmt) -> bool {
    matches!(s.kind, StmtKind::Return(_))
        || (!matches!(s.kind, StmtKind::Start(_))
            && fork_frontend::sync_calls::children(s)
                .into_iter()
                .any(returns_outside_start))
}

/// The statements of a block, or the one statement.
pub(crate) fn block_stmts(s: &Stmt) -> &[Stmt] {
    match &s.kind {
        StmtKind::Block(b) => &b.stmts,
        _ => std::slice::from_ref(s),
    }
}

/// A `seq` body for its one processor. The body is synchronous code (docs/language.md §4): a
/// private `if`, `switch` or loop in it forms a subgroup of that one member, where
/// `groupsize()` is 1 and `$$` is 0; a private loop forms it after its first test, which the
/// enclosing group evaluates. `split`: `s` runs in such a subgroup.
fn one_member(s: &Stmt, split: bool) -> Stmt {
    let expr = |e: &Expr| {
        let mut e = e.clone();
        if split {
            in_subgroup_of_one(&mut e);
        }
        e
    };
    let private = |c: &Expr| split || c.sharity == Sharity::Private;
    let kind = match &s.kind {
        StmtKind::Expr(e) => StmtKind::Expr(expr(e)),
        StmtKind::Return(e) => StmtKind::Return(e.as_ref().map(expr)),
        StmtKind::Decl { var, init } => StmtKind::Decl {
            var: *var,
            init: init.as_ref().map(|init| {
                init.iter()
                    .map(|i| InitElem {
                        value: expr(&i.value),
                        ..i.clone()
                    })
                    .collect()
            }),
        },
        StmtKind::Block(b) => StmtKind::Block(fork_frontend::hir::Block {
            stmts: b.stmts.iter().map(|s| one_member(s, split)).collect(),
            span: b.span,
        }),
        StmtKind::If { cond, then, els } => StmtKind::If {
            cond: expr(cond),
            then: Box::new(one_member(then, private(cond))),
            els: els.as_ref().map(|e| Box::new(one_member(e, private(cond)))),
        },
        StmtKind::Switch { cond, cases } => StmtKind::Switch {
            cond: expr(cond),
            cases: cases
                .iter()
                .map(|c| SwitchCase {
                    body: c
                        .body
                        .iter()
                        .map(|s| one_member(s, private(cond)))
                        .collect(),
                    ..c.clone()
                })
                .collect(),
        },
        StmtKind::Loop {
            cond: Some(cond),
            step,
            body,
            test_first,
        } if private(cond) => {
            let mut inner = cond.clone();
            in_subgroup_of_one(&mut inner);
            let looped = Stmt {
                kind: StmtKind::Loop {
                    cond: Some(inner),
                    step: step.as_ref().map(|st| {
                        let mut st = st.clone();
                        in_subgroup_of_one(&mut st);
                        st
                    }),
                    body: Box::new(one_member(body, true)),
                    test_first: false,
                },
                ..s.clone()
            };
            if !*test_first {
                return looped;
            }
            StmtKind::If {
                cond: expr(cond),
                then: Box::new(looped),
                els: None,
            }
        }
        StmtKind::Loop {
            cond,
            step,
            body,
            test_first,
        } => StmtKind::Loop {
            cond: cond.as_ref().map(expr),
            step: step.as_ref().map(expr),
            body: Box::new(one_member(body, split)),
            test_first: *test_first,
        },
        _ => s.kind.clone(),
    };
    Stmt { kind, ..s.clone() }
}

/// `groupsize()` and `$$` of a subgroup of one member.
fn in_subgroup_of_one(e: &mut Expr) {
    match e.kind {
        ExprKind::GroupSize => e.kind = ExprKind::IntConst(1),
        ExprKind::DollarDollar => e.kind = ExprKind::IntConst(0),
        _ => e.for_each_child_mut(in_subgroup_of_one),
    }
}
