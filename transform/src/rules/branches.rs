//! Rule 3: `if` on a private condition (`split_private_branch`, or `predicated_branch`
//! where its arms do not depend on the subgroup), on a shared one (`host_branch`), `switch`
//! (`host_switch`; `breakable_arm` for a case left by a conditional `break`) and `fork`
//! (`split_fork`).

use super::*;
use crate::plan::{HostLoop, Split, SplitKind};
use crate::rules::simple::{calls_async, for_each_expr_mut, named_cell, void_noop};
use fork_frontend::hir::{BinOp, Builtin, SwitchCase, UnOp};

impl Builder<'_> {
    /// Rule 3: an `if` on a private condition whose branches need a cut (or depend on the
    /// subgroup): condition kernel, `Split{if}`, the branch kernels per subgroup, restore.
    pub(crate) fn split_private_branch(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) {
        let cond = self.condition_slot(cond, Mode::Sync, ops);
        let (then_ops, then_frame) = self.scoped_block(then, Mode::Sync, "then");
        let (else_ops, else_frame) = match els {
            Some(e) => self.scoped_block(e, Mode::Sync, "else"),
            None => (Vec::new(), self.new_frame("(empty else)".into())),
        };
        ops.push(HostOp::Split(Split {
            kind: SplitKind::If {
                cond,
                loop_group: false,
            },
            arms: vec![then_ops, else_ops],
            shared_frames: vec![then_frame, else_frame],
            span,
        }));
    }

    /// Whether a private `if` with these arms can run predicated (`predicated_branch`): the
    /// arms are runs of expression statements and nested `if`s of the same kind, or
    /// statements that fit one kernel (`fits_kernel`), and declare nothing; they do not
    /// depend on their group (no `$$`, `groupsize()`, `sh` local, group construct or call
    /// of a host function), make no call of an `async` function, run each statement as the
    /// simple rules do (`hoisting_keeps_order`, no `needs_lowering`), and every multiprefix
    /// in them is on a cell `&v` that every member can name (a member that does not take
    /// the arm adds the operator's identity there).
    pub(crate) fn predicable(&self, then: &Stmt, els: Option<&Stmt>) -> bool {
        self.predicable_arm(then) && els.is_none_or(|e| self.predicable_arm(e))
    }

    fn predicable_arm(&self, s: &Stmt) -> bool {
        let eff = self.effects(s);
        if eff.host || eff.group_dependent {
            return false;
        }
        match &s.kind {
            StmtKind::Expr(_) => self.predicable_simple(s),
            StmtKind::Block(b) => b.stmts.iter().all(|s| self.predicable_arm(s)),
            StmtKind::If { cond, then, els } => {
                !self.summaries.expr(&self.program, cond).needs_cut()
                    && !self.contains_hoisted(cond)
                    && self.predicable(then, els.as_deref())
            }
            StmtKind::Decl { .. } | StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => {
                false
            }
            _ => self.fits_kernel(s, &eff, Mode::Sync),
        }
    }

    /// `predicable_arm` for an expression statement.
    fn predicable_simple(&self, s: &Stmt) -> bool {
        if calls_async(&self.program, s) {
            return false;
        }
        let mut stand_in = s.clone();
        if !self.hoisting_keeps_order(&mut stand_in) {
            return false;
        }
        let mut named = true;
        for_each_expr_mut(&mut stand_in, |e| self.multiprefix_stand_ins(e, &mut named));
        named && !self.needs_lowering(&stand_in)
    }

    /// Replaces each multiprefix in `e` by a constant, as `simple` replaces it by its result
    /// temporary; clears `named` at a host call or a multiprefix on a cell other than `&v`.
    fn multiprefix_stand_ins(&self, e: &mut Expr, named: &mut bool) {
        e.for_each_child_mut(|c| self.multiprefix_stand_ins(c, named));
        match &e.kind {
            ExprKind::Call { func, .. } if self.summaries.is_host_fn(*func) => *named = false,
            ExprKind::Call { .. } if self.hoisted(e) => *named = false,
            ExprKind::Builtin { op, args } if self.hoisted(e) => {
                *named &= args.first().is_some_and(named_cell);
                let value = match op {
                    Builtin::Multiprefix(_) => 0,
                    _ => return *e = void_noop(e.span),
                };
                *e = mk(ExprKind::IntConst(value), e.ty.clone(), e.span);
            }
            _ => {}
        }
    }

    /// A private `if` whose arms do not depend on the subgroup (`predicable`), without a
    /// split: the members keep their group, `taken = cond` and `not = !taken` go into
    /// private slots, and the then-arm's statements run as `if (taken) ...` in kernels of
    /// the whole group, then the else-arm's as `if (not) ...`. The simulator runs the
    /// then-subgroup to its end before the else-subgroup, each statement in lockstep, and so
    /// do these kernels; `$$`, `groupsize()` and `sh` locals, which the subgroups would
    /// change, do not occur. A multiprefix of an arm combines the members' operands in
    /// `__PROC_NR__` order, those of the members that do not take the arm being the
    /// operator's identity (`hoist_multiprefix`), so each member that takes it gets what the
    /// subgroup's multiprefix gives it. Nested `if`s in the arms run so too, under the
    /// conjunction of their conditions.
    pub(crate) fn predicated_branch(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        ops: &mut Vec<HostOp>,
    ) {
        let outer = self.guard.take();
        let span = cond.span;
        let under_outer = |b: &Self, x: Expr| match outer {
            Some(g) => mk(
                ExprKind::LogAnd(Box::new(b.var_expr(g, span)), Box::new(x)),
                Type::INT,
                span,
            ),
            None => x,
        };
        // The outermost condition may call a host function (`simple` hoists it); a nested
        // one has no host operation (`predicable_arm`).
        let taken = self.temp(Type::INT, "taken", span);
        let value = under_outer(self, truth(cond));
        self.simple(assign_stmt(self, taken, value, span), Mode::Sync, ops);
        let not_taken = els.map(|_| {
            let slot = self.temp(Type::INT, "not_taken", span);
            let not = mk(
                ExprKind::Unary(UnOp::LogNot, Box::new(self.var_expr(taken, span))),
                Type::INT,
                span,
            );
            let value = under_outer(self, not);
            self.append(assign_stmt(self, slot, value, span), Mode::Sync, ops);
            slot
        });
        self.guard = Some(taken);
        self.stmt(then, Mode::Sync, ops);
        if let (Some(els), Some(slot)) = (els, not_taken) {
            self.guard = Some(slot);
            self.stmt(els, Mode::Sync, ops);
        }
        self.guard = outer;
    }

    /// An `if` on a shared condition that contains a cut: the whole group takes one branch,
    /// the host reads the condition.
    pub(crate) fn host_branch(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        mode: Mode,
        ops: &mut Vec<HostOp>,
    ) {
        self.branch_on(
            cond,
            mode,
            ops,
            |b, ops| b.stmt(then, mode, ops),
            |b, ops| {
                if let Some(e) = els {
                    b.stmt(e, mode, ops)
                }
            },
        );
    }

    /// A host branch on the shared condition `cond` whose arms `then` and `els` compile.
    pub(crate) fn branch_on(
        &mut self,
        cond: &Expr,
        mode: Mode,
        ops: &mut Vec<HostOp>,
        then: impl FnOnce(&mut Self, &mut Vec<HostOp>),
        els: impl FnOnce(&mut Self, &mut Vec<HostOp>),
    ) {
        let cond = self.condition_slot(cond, mode, ops);
        let mut then_ops = Vec::new();
        then(self, &mut then_ops);
        self.close(&mut then_ops, CutReason::BlockEnd);
        let mut else_ops = Vec::new();
        els(self, &mut else_ops);
        self.close(&mut else_ops, CutReason::BlockEnd);
        ops.push(HostOp::Branch {
            cond,
            then: then_ops,
            els: else_ops,
        });
    }

    /// Rule 3 for a `switch` whose cases need a cut: the kernel evaluates, per case, whether
    /// a member enters there; then a chain of `Split{if}` (private condition: one subgroup per
    /// entry case, in case order) or of host branches (shared condition). Each arm runs the
    /// case bodies from its entry case, falling through to the first `break`.
    pub(crate) fn host_switch(
        &mut self,
        cond: &Expr,
        cases: &[SwitchCase],
        span: Span,
        mode: Mode,
        ops: &mut Vec<HostOp>,
    ) {
        // `stmt` refuses a private condition in asynchronous code, where it forms no group.
        let splits = cond.sharity == Sharity::Private;
        let value = self.temp(cond.ty.clone(), "switch", span);
        let s = assign_stmt(self, value, cond.clone(), span);
        self.simple(s, mode, ops);
        let is = |b: &Self, v: i64, op: BinOp| {
            let lhs = b.var_expr(value, span);
            let rhs = mk(ExprKind::IntConst(v), cond.ty.clone(), span);
            mk(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                Type::INT,
                span,
            )
        };
        let mut enters = Vec::new();
        for case in cases {
            let test = match case.value {
                Some(v) => is(self, v, BinOp::Eq),
                // `default`: no value matches.
                None => cases
                    .iter()
                    .filter_map(|c| c.value)
                    .map(|v| is(self, v, BinOp::Ne))
                    .reduce(|a, b| mk(ExprKind::LogAnd(Box::new(a), Box::new(b)), Type::INT, span))
                    .unwrap_or_else(|| mk(ExprKind::IntConst(1), Type::INT, span)),
            };
            let slot = self.temp(Type::INT, "case", case.span);
            let s = assign_stmt(self, slot, test, case.span);
            self.simple(s, mode, ops);
            enters.push(slot);
        }
        self.close(ops, CutReason::HostConstruct);
        // Every arm that falls into a case compiles its body again; its `sh` locals keep one
        // home because every arm's group uses one frame layout (`scope_frame`). A shared
        // condition forms no group: the locals live in the enclosing scope's frame.
        let case_frame = splits.then(|| self.scope_frame(span, "case"));
        let mut arms = Vec::new();
        for i in 0..cases.len() {
            let mut body = Vec::new();
            fall_through(cases.iter().skip(i).flat_map(|c| &c.body), &mut body);
            self.scopes.extend(case_frame);
            let mut arm = Vec::new();
            if body.iter().any(|s| leaves(s, Leave::Break)) {
                let frame = self.scope_frame(span, "switch case");
                self.breakable_arm(&body, mode, cases[i].span, frame, &mut arm);
            } else {
                self.block(&body, mode, &mut arm);
            }
            self.close(&mut arm, CutReason::BlockEnd);
            if case_frame.is_some() {
                self.scopes.pop();
            }
            arms.push(arm);
        }
        // Members that enter no case skip the switch: the innermost else is empty.
        let mut chain = Vec::new();
        for (arm, cond) in arms.into_iter().zip(enters).rev() {
            let op = if let Some(frame) = case_frame {
                let rest_frame = self.new_frame("(rest of switch)".into());
                HostOp::Split(Split {
                    kind: SplitKind::If {
                        cond,
                        loop_group: false,
                    },
                    arms: vec![arm, chain],
                    shared_frames: vec![frame, rest_frame],
                    span,
                })
            } else {
                HostOp::Branch {
                    cond,
                    then: arm,
                    els: chain,
                }
            };
            chain = vec![op];
        }
        ops.extend(chain);
    }

    /// A `switch` arm that a `break` under a condition may leave from the middle: a host
    /// loop that forms no group and runs once, so the `break` is an ordinary leave (`plan`,
    /// "Leaving") that the loop's restore clears. A `continue` of the enclosing loop inside
    /// becomes `%cont = 1; break;` and is repeated after the arm.
    pub(crate) fn breakable_arm(
        &mut self,
        body: &[Stmt],
        mode: Mode,
        span: Span,
        frame: SharedFrameId,
        ops: &mut Vec<HostOp>,
    ) {
        let int = |v| mk(ExprKind::IntConst(v), Type::INT, span);
        let cont = body
            .iter()
            .any(|s| leaves(s, Leave::Continue))
            .then(|| self.temp(Type::INT, "cont", span));
        let once = self.temp(Type::INT, "once", span);
        let s = assign_stmt(self, once, int(1), span);
        self.simple(s, mode, ops);
        if let Some(c) = cont {
            let s = assign_stmt(self, c, int(0), span);
            self.simple(s, mode, ops);
        }
        self.close(ops, CutReason::HostConstruct);
        self.scopes.push(frame);
        let mut loop_body = Vec::new();
        for st in body {
            let st = match cont {
                Some(c) => continue_as_break(self, st, c),
                None => st.clone(),
            };
            self.stmt(&st, mode, &mut loop_body);
        }
        let s = assign_stmt(self, once, int(0), span);
        self.simple(s, mode, &mut loop_body);
        self.close(&mut loop_body, CutReason::BlockEnd);
        self.scopes.pop();
        ops.push(HostOp::Loop(HostLoop {
            cond: Some(once),
            test_first: false,
            forms_group: false,
            entry_cond: Vec::new(),
            body: loop_body,
            latch: Vec::new(),
            shared_frame: frame,
            span,
        }));
        if let Some(c) = cont {
            let again = leave_if(self, c, StmtKind::Continue, mode, span);
            self.append(again, mode, ops);
        }
    }

    /// Rule 3 for `fork (k; @ = e1; $ = e2) S`: the kernel evaluates k, e1, e2 into slots;
    /// `Split{fork}`; the body per subgroup; restore.
    pub(crate) fn split_fork(
        &mut self,
        count: &Expr,
        at: &Expr,
        dollar: Option<&Expr>,
        body: &Stmt,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) {
        let mut slot = |b: &mut Self, e: &Expr, what: &str| {
            let t = b.temp(e.ty.clone(), what, e.span);
            let s = assign_stmt(b, t, e.clone(), e.span);
            b.simple(s, Mode::Sync, ops);
            t
        };
        let count = slot(self, count, "fork_k");
        let at = slot(self, at, "fork_at");
        let dollar = dollar.map(|d| slot(self, d, "fork_dollar"));
        self.close(ops, CutReason::HostConstruct);
        let (body_ops, frame) = self.scoped_block(body, Mode::Sync, "fork body");
        ops.push(HostOp::Split(Split {
            kind: SplitKind::Fork { count, at, dollar },
            arms: vec![body_ops],
            shared_frames: vec![frame],
            span,
        }));
    }
}

/// The statements a member entering at a case runs: the case bodies from there on (blocks
/// opened, as their declarations are unique variables), up to the first `break` that is
/// under no condition.
pub(crate) fn fall_through<'a>(
    stmts: impl IntoIterator<Item = &'a Stmt>,
    body: &mut Vec<Stmt>,
) -> bool {
    for s in stmts {
        match &s.kind {
            StmtKind::Break => return true,
            StmtKind::Block(b) => {
                if fall_through(&b.stmts, body) {
                    return true;
                }
            }
            _ => body.push(s.clone()),
        }
    }
    false
}

/// `if (var) leave;` for a `break` or `continue`.
pub(crate) fn leave_if(b: &Builder, var: VarId, leave: StmtKind, mode: Mode, span: Span) -> Stmt {
    let stmt = |kind| Stmt { kind, mode, span };
    stmt(StmtKind::If {
        cond: b.var_expr(var, span),
        then: Box::new(stmt(leave)),
        els: None,
    })
}

/// `s` with each `continue` of the loop around the `switch` replaced by `cont = 1; break;`
/// (`breakable_arm`).
pub(crate) fn continue_as_break(b: &Builder, s: &Stmt, cont: VarId) -> Stmt {
    let mut out = s.clone();
    match &mut out.kind {
        StmtKind::Continue => {
            let one = mk(ExprKind::IntConst(1), Type::INT, s.span);
            let brk = Stmt {
                kind: StmtKind::Break,
                ..s.clone()
            };
            let set = Stmt {
                mode: s.mode,
                ..assign_stmt(b, cont, one, s.span)
            };
            out.kind = StmtKind::Block(fork_frontend::hir::Block {
                stmts: vec![set, brk],
                span: s.span,
            });
        }
        StmtKind::Block(blk) => {
            blk.stmts = blk
                .stmts
                .iter()
                .map(|x| continue_as_break(b, x, cont))
                .collect();
        }
        StmtKind::If { then, els, .. } => {
            **then = continue_as_break(b, then, cont);
            if let Some(e) = els {
                **e = continue_as_break(b, e, cont);
            }
        }
        StmtKind::Switch { cases, .. } if leaves(s, Leave::Continue) => {
            for c in cases.iter_mut() {
                c.body = c
                    .body
                    .iter()
                    .map(|x| continue_as_break(b, x, cont))
                    .collect();
            }
            // The `break` left only this switch: leave the arm too.
            let again = leave_if(b, cont, StmtKind::Break, s.mode, s.span);
            out = Stmt {
                kind: StmtKind::Block(fork_frontend::hir::Block {
                    stmts: vec![out, again],
                    span: s.span,
                }),
                ..s.clone()
            };
        }
        _ => {}
    }
    out
}
