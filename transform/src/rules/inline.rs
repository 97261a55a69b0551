//! Inlining of asynchronous calls that synchronise. In asynchronous code a `barrier` is a
//! barrier of the current group, matched by count and not by program point (docs/language.md
//! §8): a callee's barriers pair with whichever barrier each other processor of the group
//! meets, inside the same callee or in its caller. A host call of the callee runs it for the
//! whole group at once, which gives another pairing (and another output order) as soon as
//! processors reach the call at different times, under a private condition or in a loop they
//! leave at different times. So an asynchronous region compiles its calls of such functions
//! with the callee's body in place of the call: its barriers become the region's own, which
//! `async_region` turns into kernels or barrier phases like any other.
//!
//! A function is inlined where that is exact: it is `async` or `straight` (which runs as its
//! caller's code there, each processor alone), synchronises, does not call
//! itself in its own frame (`recursive`: calls in a group construct's body are calls of the
//! group it forms, not of the frame), has no `sh` parameter and contains no `farm` (whose
//! group needs the host call; a `start` or `seq` in place is a stop of the caller's region,
//! `has_group_construct`); the call is a whole statement or runs before the rest of its
//! statement, as the simulator enters it step by step (`inline_site`). Other calls stay host
//! calls. The copies end: a recursion of frames is one state machine (`recursion`), and a
//! `start` through whose body the calls come back to its function is a call of the body's
//! own `sync` function by then (`outline`).

use super::*;
use fork_frontend::hir::Block;
use fork_frontend::sync_calls::{children, expr_calls, own_exprs};

/// The callee's variables in one copy: each parameter and local gets a fresh private local of
/// the caller, except those of a recursion's frame that live in memory, which live in their
/// frame's home on the processor's stack (`recursion`, `Home`).
#[derive(Default)]
pub(super) struct Renaming {
    pub names: HashMap<VarId, VarId>,
    /// By the callee's variable.
    pub homes: HashMap<VarId, super::recursion::Home>,
}

impl Builder<'_> {
    /// The statements of an asynchronous region with every inlinable call replaced by the
    /// callee's body (module docs).
    pub(crate) fn inline_async_calls(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        self.inline_list(stmts)
    }

    fn inline_list(&mut self, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in stmts {
            self.inline_stmt(s, &mut out);
        }
        out
    }

    fn inline_one(&mut self, s: &Stmt) -> Stmt {
        let mut out = Vec::new();
        self.inline_stmt(s, &mut out);
        match <[Stmt; 1]>::try_from(out) {
            Ok([one]) => one,
            Err(stmts) => block_stmt(stmts, s.span),
        }
    }

    /// What is left of `s` once its `call` has run: `s` with the call's value (`result`) in
    /// place of the call; None for a call that is the whole statement.
    pub(super) fn after_call(&self, s: &Stmt, call: &Expr, result: Option<VarId>) -> Option<Stmt> {
        if matches!(&s.kind, StmtKind::Expr(e) if std::ptr::eq(e, call)) {
            return None;
        }
        let value = match result {
            Some(r) => self.var_expr(r, call.span),
            None => mk(
                ExprKind::Convert(Box::new(int(0, call.span))),
                Type::Void,
                call.span,
            ),
        };
        let mut rest = s.clone();
        replace_first(&mut rest, call, value);
        Some(rest)
    }

    fn inline_stmt(&mut self, s: &Stmt, out: &mut Vec<Stmt>) {
        if let Some((call, func, args)) = inline_site(&self.program, self.summaries, s) {
            let span = s.span;
            let ty = self.program.func(func).ret.clone();
            let result = (ty != Type::Void).then(|| self.temp(ty, "res", span));
            let mut stmts = if recursive(&self.program, func) {
                self.flattened_call(func, args.to_vec(), result, span)
            } else {
                let body = self.inlined_body(func, args.to_vec(), result, span);
                // The callee's own calls (it is not recursive: they end).
                self.inline_list(&body)
            };
            // The statement with the call's value in place of the call, after the callee's
            // body; nothing is left of a call that is the whole statement.
            if let Some(rest) = self.after_call(s, call, result) {
                // Its own statements (an `if` body, `switch` cases) may make such calls too.
                self.inline_stmt(&rest, &mut stmts);
            }
            out.push(block_stmt(stmts, span));
            return;
        }
        let mut s = s.clone();
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                **then = self.inline_one(then);
                if let Some(els) = els {
                    **els = self.inline_one(els);
                }
            }
            StmtKind::Switch { cases, .. } => {
                for c in cases.iter_mut() {
                    c.body = self.inline_list(&c.body);
                }
            }
            StmtKind::Loop { body, .. } => **body = self.inline_one(body),
            StmtKind::Block(b) => b.stmts = self.inline_list(&b.stmts),
            // Group constructs are synchronous bodies or regions of their own; the rest has
            // no statement inside.
            _ => {}
        }
        out.push(s);
    }

    /// The body of `func` for one call: parameters assigned from `args`, variables renamed,
    /// each `return` storing into `result` and leaving the body.
    fn inlined_body(
        &mut self,
        func: FuncId,
        args: Vec<Expr>,
        result: Option<VarId>,
        span: Span,
    ) -> Vec<Stmt> {
        let f = self.program.func(func).clone();
        let mut names = Renaming::default();
        let mut stmts = Vec::new();
        for (p, a) in f.params.iter().zip(args) {
            let local = self.renamed(*p, func, &mut names);
            stmts.push(async_assign(self, local, a, span));
        }
        let mut body = f.body.stmts.clone();
        for s in &mut body {
            self.rename_stmt(s, func, &mut names);
        }
        let last_return = matches!(
            body.last(),
            Some(Stmt {
                kind: StmtKind::Return(_),
                ..
            })
        );
        let early = body[..body.len() - usize::from(last_return)]
            .iter()
            .any(returns);
        if !early {
            // Only the last statement returns: it stores the result and the body ends.
            let last = last_return.then(|| body.pop()).flatten();
            stmts.extend(body);
            if let Some(Stmt {
                kind: StmtKind::Return(value),
                span,
                ..
            }) = last
            {
                stmts.extend(self.store_result(result, value, span));
            }
            return stmts;
        }
        // A `return` inside the body leaves `do { body } while (0)`; one inside a loop or
        // `switch` of the body sets a flag that each enclosing one tests after it.
        let nested = body.iter().any(|s| returns_nested(s, false));
        let flag = nested.then(|| self.temp(Type::INT, "returned", span));
        if let Some(flag) = flag {
            stmts.push(async_assign(self, flag, int(0, span), span));
        }
        let body = body
            .iter()
            .map(|s| self.leave_on_return(s, result, flag, false))
            .collect();
        stmts.push(Stmt {
            kind: StmtKind::Loop {
                cond: Some(int(0, span)),
                step: None,
                body: Box::new(block_stmt(body, span)),
                test_first: false,
            },
            mode: Mode::Async,
            span,
        });
        stmts
    }

    fn store_result(&self, result: Option<VarId>, value: Option<Expr>, span: Span) -> Vec<Stmt> {
        match (result, value) {
            (Some(r), Some(v)) => vec![async_assign(self, r, v, span)],
            // A value of a call whose value is not used: still evaluated.
            (None, Some(v)) => vec![Stmt {
                kind: StmtKind::Expr(v),
                mode: Mode::Async,
                span,
            }],
            (_, None) => Vec::new(),
        }
    }

    /// `s` with each `return` replaced by storing the result and a `break`. `nested`: inside
    /// a loop or `switch` of the body.
    fn leave_on_return(
        &self,
        s: &Stmt,
        result: Option<VarId>,
        flag: Option<VarId>,
        nested: bool,
    ) -> Stmt {
        let had_return = returns(s);
        let mut s = s.clone();
        let leave = |s: &Stmt| Stmt {
            kind: StmtKind::Break,
            mode: Mode::Async,
            span: s.span,
        };
        match &mut s.kind {
            StmtKind::Return(value) => {
                let mut stmts = self.store_result(result, value.take(), s.span);
                if let (Some(flag), true) = (flag, nested) {
                    stmts.push(async_assign(self, flag, int(1, s.span), s.span));
                }
                stmts.push(leave(&s));
                return block_stmt(stmts, s.span);
            }
            StmtKind::Block(b) => {
                for x in &mut b.stmts {
                    *x = self.leave_on_return(x, result, flag, nested);
                }
            }
            StmtKind::If { then, els, .. } => {
                **then = self.leave_on_return(then, result, flag, nested);
                if let Some(els) = els {
                    **els = self.leave_on_return(els, result, flag, nested);
                }
            }
            StmtKind::Loop { body, .. } => {
                **body = self.leave_on_return(body, result, flag, true);
            }
            StmtKind::Switch { cases, .. } => {
                for x in cases.iter_mut().flat_map(|c| &mut c.body) {
                    *x = self.leave_on_return(x, result, flag, true);
                }
            }
            _ => {}
        }
        match (&s.kind, flag) {
            (StmtKind::Loop { .. } | StmtKind::Switch { .. }, Some(flag)) if had_return => {
                // Returned inside: leave the construct around this one too.
                let test = Stmt {
                    kind: StmtKind::If {
                        cond: self.var_expr(flag, s.span),
                        then: Box::new(leave(&s)),
                        els: None,
                    },
                    mode: Mode::Async,
                    span: s.span,
                };
                let span = s.span;
                block_stmt(vec![s, test], span)
            }
            _ => s,
        }
    }

    /// The caller's local that stands for the callee's variable `v` in this copy.
    pub(super) fn renamed(&mut self, v: VarId, callee: FuncId, names: &mut Renaming) -> VarId {
        let var = self.program.var(v);
        let own = matches!(var.kind,
            VarKind::Local { func } | VarKind::Param { func, .. } if func == callee);
        if !own {
            return v;
        }
        if let Some(&local) = names.names.get(&v) {
            return local;
        }
        let copy = Var {
            // A temporary of the callee (`%zero`, `return_zero_at_end`) keeps one `%`.
            name: format!(
                "%{}_{}",
                self.program.func(callee).name,
                var.name.trim_start_matches('%')
            ),
            kind: VarKind::Local { func: self.func },
            ..var.clone()
        };
        let local = VarId(self.program.vars.len() as u32);
        self.program.vars.push(copy);
        names.names.insert(v, local);
        local
    }

    pub(super) fn rename_stmt(&mut self, s: &mut Stmt, callee: FuncId, names: &mut Renaming) {
        match &mut s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.rename_expr(e, callee, names),
            StmtKind::Decl { var, init } => {
                let home = names.homes.get(var).cloned();
                *var = self.renamed(*var, callee, names);
                for i in init.iter_mut().flatten() {
                    self.rename_expr(&mut i.value, callee, names);
                }
                if let Some(home) = home {
                    let scratch = *var;
                    *s = self.declared_home(&home, scratch, s.clone());
                }
            }
            StmtKind::Block(b) => {
                for s in &mut b.stmts {
                    self.rename_stmt(s, callee, names);
                }
            }
            StmtKind::If { cond, then, els } => {
                self.rename_expr(cond, callee, names);
                self.rename_stmt(then, callee, names);
                if let Some(els) = els {
                    self.rename_stmt(els, callee, names);
                }
            }
            StmtKind::Loop {
                cond, step, body, ..
            } => {
                for e in cond.iter_mut().chain(step.iter_mut()) {
                    self.rename_expr(e, callee, names);
                }
                self.rename_stmt(body, callee, names);
            }
            StmtKind::Switch { cond, cases } => {
                self.rename_expr(cond, callee, names);
                for s in cases.iter_mut().flat_map(|c| &mut c.body) {
                    self.rename_stmt(s, callee, names);
                }
            }
            StmtKind::Start(body) | StmtKind::Seq(body) | StmtKind::Farm(body) => {
                self.rename_stmt(body, callee, names)
            }
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => {
                for e in [count, at].into_iter().chain(dollar.iter_mut()) {
                    self.rename_expr(e, callee, names);
                }
                self.rename_stmt(body, callee, names);
            }
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Barrier => {}
        }
    }

    fn rename_expr(&mut self, e: &mut Expr, callee: FuncId, names: &mut Renaming) {
        if let ExprKind::Var(v) = &mut e.kind {
            if let Some(home) = names.homes.get(v) {
                *e = self.home_place(home, e.span);
                return;
            }
            *v = self.renamed(*v, callee, names);
        }
        e.for_each_child_mut(|c| self.rename_expr(c, callee, names));
    }
}

/// The call of an inlinable function that `s` runs before the rest of the statement: a whole
/// statement (`f(x);`, `place = f(x);`, `T v = f(x);`) or one inside the expression of a
/// statement, declaration, `return` or `if`/`switch` condition (`fork_frontend::sync_calls`:
/// the checker admits at most one there, evaluated unconditionally, in a statement without
/// other side effects), as the simulator enters them step by step (pram-sim's `async_exec`).
pub(super) fn inline_site<'s>(
    program: &Program,
    summaries: &Summaries,
    s: &'s Stmt,
) -> Option<(&'s Expr, FuncId, &'s [Expr])> {
    first_call(s, &|f| inlinable(program, summaries, f))
}

/// A call in `s`'s own expressions (not a loop's, whose condition runs again) of a function
/// `hit` accepts, the first in evaluation order.
pub(super) fn first_call<'s>(
    s: &'s Stmt,
    hit: &impl Fn(FuncId) -> bool,
) -> Option<(&'s Expr, FuncId, &'s [Expr])> {
    type Site<'e> = (&'e Expr, FuncId, &'e [Expr]);
    fn find<'e>(e: &'e Expr, hit: &impl Fn(FuncId) -> bool) -> Option<Site<'e>> {
        if let ExprKind::Call { func, args } = &e.kind {
            if hit(*func) {
                return Some((e, *func, args));
            }
        }
        let mut found = None;
        e.for_each_child(|c| found = found.or_else(|| find(c, hit)));
        found
    }
    if matches!(s.kind, StmtKind::Loop { .. }) {
        return None;
    }
    own_exprs(s).into_iter().find_map(|e| find(e, hit))
}

/// Replaces the first expression of `s` (its own, in evaluation order) equal to `call` with
/// `value`; `call` is the statement's only call of its function (`inline_site`).
pub(super) fn replace_first(s: &mut Stmt, call: &Expr, value: Expr) {
    fn go(e: &mut Expr, call: &Expr, value: &mut Option<Expr>) {
        if *e == *call {
            if let Some(v) = value.take() {
                *e = v;
            }
            return;
        }
        if value.is_some() {
            e.for_each_child_mut(|c| go(c, call, value));
        }
    }
    let mut value = Some(value);
    let exprs: Vec<&mut Expr> = match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => vec![e],
        StmtKind::Decl { init, .. } => init.iter_mut().flatten().map(|i| &mut i.value).collect(),
        StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => vec![cond],
        _ => Vec::new(),
    };
    for e in exprs {
        go(e, call, &mut value);
    }
}

/// Whether `func` is compiled in place of its calls (module docs): inlined, or, if
/// recursive, as a state machine (`recursion`).
fn inlinable(program: &Program, summaries: &Summaries, func: FuncId) -> bool {
    let f = program.func(func);
    if recursive(program, func) {
        return super::recursion::flattenable(program, summaries, func);
    }
    matches!(f.kind, FnKind::Async | FnKind::Straight)
        && summaries.is_host_fn(func)
        && f.params
            .iter()
            .all(|p| program.var(*p).sharity == Sharity::Private)
        && !f.body.stmts.iter().any(has_group_construct)
}

/// Whether `func` may call itself in its own frame, directly or through other functions
/// (`frame_calls`): whether a copy of its body in place of a call would hold another.
pub(crate) fn recursive(program: &Program, func: FuncId) -> bool {
    reaches(program, func, func, &mut Vec::new())
}

/// Whether a call of `from` may call `to` in its own frame, directly or through other
/// functions (`frame_calls`).
pub(super) fn reaches(program: &Program, from: FuncId, to: FuncId, seen: &mut Vec<FuncId>) -> bool {
    let mut callees = Vec::new();
    for s in &program.func(from).body.stmts {
        frame_calls(s, &mut callees);
    }
    callees.into_iter().any(|c| {
        c == to
            || (!seen.contains(&c) && {
                seen.push(c);
                reaches(program, c, to, seen)
            })
    })
}

/// The functions `s` calls in the frame of its function: not those called in a group
/// construct's body, which the group it forms calls (a host call, or code in place in a
/// region of its own), however the frame is compiled.
pub(super) fn frame_calls(s: &Stmt, out: &mut Vec<FuncId>) {
    if let StmtKind::Start(_) | StmtKind::Seq(_) | StmtKind::Farm(_) | StmtKind::Fork { .. } =
        s.kind
    {
        return;
    }
    own_exprs(s).into_iter().for_each(|e| expr_calls(e, out));
    children(s).into_iter().for_each(|c| frame_calls(c, out));
}

/// Whether every call of `func` is inlined: it needs no host function.
pub(crate) fn only_inlined(program: &Program, summaries: &Summaries, func: FuncId) -> bool {
    inlinable(program, summaries, func) && !called_on_host(program, summaries, func)
}

/// Whether some call of `func` runs as a host call: one that is not a whole statement of
/// code compiled in place (`inline_site`).
fn called_on_host(program: &Program, summaries: &Summaries, func: FuncId) -> bool {
    on_host(program, summaries, func, &mut vec![func])
}

/// `called_on_host`; `seen`: the functions whose answer is being found (one met again counts
/// as called on the host).
fn on_host(program: &Program, summaries: &Summaries, func: FuncId, seen: &mut Vec<FuncId>) -> bool {
    /// `in_place`: `s` is compiled in place whatever its mode (`nested_in_place`).
    fn visit(
        program: &Program,
        summaries: &Summaries,
        s: &Stmt,
        func: FuncId,
        in_place: bool,
    ) -> bool {
        let inlined = (s.mode == Mode::Async || in_place)
            && inline_site(program, summaries, s).is_some_and(|(_, f, _)| f == func);
        let mut own = Vec::new();
        own_exprs(s)
            .into_iter()
            .for_each(|e| expr_calls(e, &mut own));
        let in_place = nested_in_place(s, in_place);
        own.iter().filter(|f| **f == func).count() > usize::from(inlined)
            || children(s)
                .into_iter()
                .any(|c| visit(program, summaries, c, func, in_place))
    }
    program.funcs.iter().enumerate().any(|(i, f)| {
        let h = FuncId(i as u32);
        // The body of a `straight` function that is only compiled in place (it has no host
        // function to make its calls) is asynchronous code where it is.
        let in_place = f.kind == FnKind::Straight
            && inlinable(program, summaries, h)
            && !seen.contains(&h)
            && {
                seen.push(h);
                let host = on_host(program, summaries, h, seen);
                seen.pop();
                !host
            };
        f.body
            .stmts
            .iter()
            .any(|s| visit(program, summaries, s, func, in_place))
    })
}

/// Whether the statements nested in `s` are compiled in place (as asynchronous code, the
/// calls in them inlined) whatever their mode, `in_place` saying it of `s`: those of a `seq`
/// body, which runs as the asynchronous code of its one member (`seq_region`), and otherwise
/// those of a statement compiled so (in a `straight` function compiled where it is called),
/// except the bodies of the groups a `start`, `farm` or `fork` forms, which are their mode's.
pub(super) fn nested_in_place(s: &Stmt, in_place: bool) -> bool {
    match s.kind {
        StmtKind::Seq(_) => true,
        StmtKind::Start(_) | StmtKind::Farm(_) | StmtKind::Fork { .. } => false,
        _ => in_place,
    }
}

/// A `start`, `seq`, `farm` or `fork`: its body is run by a group it forms.
pub(super) fn is_group_construct(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Start(_) | StmtKind::Seq(_) | StmtKind::Farm(_) | StmtKind::Fork { .. }
    )
}

/// Whether the asynchronous code `s` holds a group construct that needs the host call: a
/// `fork` or `farm`. A `start` or `seq` does not: in place, it is a stop of the caller's
/// region like a `barrier` (`phases`), run for the processors that wait at it, as the
/// simulator runs it (docs/language.md §8).
pub(super) fn has_group_construct(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Fork { .. } | StmtKind::Farm(_) => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_group_construct),
        StmtKind::If { then, els, .. } => {
            has_group_construct(then) || els.as_deref().is_some_and(has_group_construct)
        }
        StmtKind::Loop { body, .. } => has_group_construct(body),
        StmtKind::Switch { cases, .. } => {
            cases.iter().flat_map(|c| &c.body).any(has_group_construct)
        }
        _ => false,
    }
}

/// Whether `s` contains a `return`.
fn returns(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => b.stmts.iter().any(returns),
        StmtKind::If { then, els, .. } => returns(then) || els.as_deref().is_some_and(returns),
        StmtKind::Loop { body, .. } => returns(body),
        StmtKind::Switch { cases, .. } => cases.iter().flat_map(|c| &c.body).any(returns),
        _ => false,
    }
}

/// Whether `s` contains a `return` inside a loop or `switch` (`nested`: `s` is inside one).
fn returns_nested(s: &Stmt, nested: bool) -> bool {
    match &s.kind {
        StmtKind::Return(_) => nested,
        StmtKind::Block(b) => b.stmts.iter().any(|s| returns_nested(s, nested)),
        StmtKind::If { then, els, .. } => {
            returns_nested(then, nested)
                || els.as_deref().is_some_and(|e| returns_nested(e, nested))
        }
        StmtKind::Loop { body, .. } => returns_nested(body, true),
        StmtKind::Switch { cases, .. } => cases
            .iter()
            .flat_map(|c| &c.body)
            .any(|s| returns_nested(s, true)),
        _ => false,
    }
}

fn int(v: i64, span: Span) -> Expr {
    mk(ExprKind::IntConst(v), Type::INT, span)
}

fn block_stmt(stmts: Vec<Stmt>, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Block(Block { stmts, span }),
        mode: Mode::Async,
        span,
    }
}

fn async_assign(b: &Builder, var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        mode: Mode::Async,
        ..assign_stmt(b, var, value, span)
    }
}
