//! Synchronising calls (docs/language.md §8): calls, in asynchronous code, of an `async`
//! function that executes `barrier` or a group construct (`start`, `seq`), directly or through the functions it
//! calls, and of a `straight` function that calls one (it runs as its caller's code there,
//! each processor alone, so the barriers are the caller's). Its barriers pair by count with whichever barrier each other processor meets, so
//! every backend must run it at the same point of its statement: as a whole statement
//! (`f(x);`, `v = f(x);`, `T v = f(x);`), or inside a larger expression of an expression
//! statement, a declaration, a `return` or an `if`/`switch` condition, where it runs before
//! the rest of the statement, as `t = f(x);` written just before it would (so a statement may
//! have no side effect that comes before the call). The checker rejects
//! every other place (E0412, `misplaced`); the simulator and the transform find the call to
//! run first with `embedded`. One definition for all of them: this is the language's rule.

use crate::hir::{Builtin, Expr, ExprKind, FnKind, FuncId, Function, Stmt, StmtKind};
use crate::source::Span;

/// Which functions synchronise.
pub struct SyncCalls {
    sync: Vec<bool>,
}

/// Why a synchronising call cannot run before the rest of its statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misplaced {
    /// An operand of `&&`, `||` or `?:` that is not always evaluated (the operator's span).
    Conditional(Span),
    /// A loop condition or `for` step, evaluated once per iteration.
    Loop,
    /// A second synchronising call of the statement (the first one's span).
    Second(Span),
    /// A side effect of the statement that comes before the call in C's left-to-right order
    /// (its span): running the call first would reorder them.
    Effect(Span),
}

impl SyncCalls {
    pub fn new(funcs: &[Function]) -> SyncCalls {
        let own: Vec<bool> = funcs
            .iter()
            .map(|f| f.kind == FnKind::Async && f.body.stmts.iter().any(has_sync_construct))
            .collect();
        let mut sync = own.clone();
        // To a fixpoint over the call graph (recursion allowed).
        loop {
            let mut changed = false;
            for (i, f) in funcs.iter().enumerate() {
                // A `sync` function is called by a group, never in asynchronous code.
                if sync[i] || f.kind == FnKind::Sync {
                    continue;
                }
                let mut calls = Vec::new();
                f.body.stmts.iter().for_each(|s| stmt_calls(s, &mut calls));
                if calls.iter().any(|c| sync[c.0 as usize]) {
                    sync[i] = true;
                    changed = true;
                }
            }
            if !changed {
                return SyncCalls { sync };
            }
        }
    }

    pub fn synchronises(&self, f: FuncId) -> bool {
        self.sync.get(f.0 as usize).copied().unwrap_or(false)
    }

    /// The synchronising call inside a larger expression of `s` that runs before the rest of
    /// `s`; None where `s` makes none, or makes it as a whole statement (`whole_call`). Only
    /// meaningful for a statement of asynchronous code that `misplaced` accepts.
    pub fn embedded<'s>(&self, s: &'s Stmt) -> Option<&'s Expr> {
        if matches!(s.kind, StmtKind::Loop { .. }) {
            return None;
        }
        let whole = whole_call(s);
        let mut found = None;
        for e in own_exprs(s) {
            self.visit(e, None, &mut |call, _| {
                if found.is_none() && !whole.is_some_and(|w| std::ptr::eq(w, call)) {
                    found = Some(call);
                }
            });
        }
        found
    }

    /// The first synchronising call of the asynchronous statement `s` (nested statements
    /// excluded) that cannot run before the rest of `s`, with the reason.
    pub fn misplaced<'s>(&self, s: &'s Stmt) -> Option<(&'s Expr, Misplaced)> {
        let mut calls: Vec<(&Expr, Option<Span>)> = Vec::new();
        for e in own_exprs(s) {
            self.visit(e, None, &mut |call, cond| calls.push((call, cond)));
        }
        let (first, _) = *calls.first()?;
        if matches!(s.kind, StmtKind::Loop { .. }) {
            return Some((first, Misplaced::Loop));
        }
        if let Some((call, Some(op))) = calls.iter().find(|(_, c)| c.is_some()) {
            return Some((call, Misplaced::Conditional(*op)));
        }
        if let Some((second, _)) = calls.get(1) {
            return Some((second, Misplaced::Second(first.span)));
        }
        if whole_call(s).is_some_and(|w| std::ptr::eq(w, first)) {
            return None;
        }
        for e in own_exprs(s) {
            match effect_before(e, first) {
                Ok(true) => return None,
                Ok(false) => {}
                Err(effect) => return Some((first, Misplaced::Effect(effect))),
            }
        }
        None
    }

    /// Calls `found` on each synchronising call in `e` with the operator under whose
    /// not-always-evaluated operand it is, if any.
    fn visit<'e>(
        &self,
        e: &'e Expr,
        cond: Option<Span>,
        found: &mut impl FnMut(&'e Expr, Option<Span>),
    ) {
        match &e.kind {
            ExprKind::Call { func, .. } if self.synchronises(*func) => found(e, cond),
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                self.visit(a, cond, found);
                self.visit(b, cond.or(Some(e.span)), found);
                return;
            }
            ExprKind::Cond(c, a, b) => {
                self.visit(c, cond, found);
                self.visit(a, cond.or(Some(e.span)), found);
                self.visit(b, cond.or(Some(e.span)), found);
                return;
            }
            _ => {}
        }
        e.for_each_child(|c| self.visit(c, cond, found));
    }
}

/// The call `s` makes as a whole statement: `f(x);`, `place = f(x);`, `T v = f(x);`.
pub fn whole_call(s: &Stmt) -> Option<&Expr> {
    let e = match &s.kind {
        StmtKind::Expr(e) => match &e.kind {
            ExprKind::Assign { value, .. } => value,
            _ => e,
        },
        StmtKind::Decl {
            init: Some(init), ..
        } => match init.as_slice() {
            [elem] if elem.offset == 0 => &elem.value,
            _ => return None,
        },
        _ => return None,
    };
    matches!(e.kind, ExprKind::Call { .. }).then_some(e)
}

/// The expressions of `s` itself, not those of the statements nested in it.
pub fn own_exprs(s: &Stmt) -> Vec<&Expr> {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => vec![e],
        StmtKind::Decl { init, .. } => init.iter().flatten().map(|i| &i.value).collect(),
        StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => vec![cond],
        StmtKind::Loop { cond, step, .. } => cond.iter().chain(step.iter()).collect(),
        StmtKind::Fork {
            count, at, dollar, ..
        } => [count, at].into_iter().chain(dollar.iter()).collect(),
        _ => Vec::new(),
    }
}

/// Calls `f` with every expression of `s` itself and of the statements nested in it (the
/// top-level ones: `Expr::walk` reaches inside them).
pub fn each_expr<'a>(s: &'a Stmt, f: &mut impl FnMut(&'a Expr)) {
    own_exprs(s).into_iter().for_each(&mut *f);
    children(s).into_iter().for_each(|c| each_expr(c, f));
}

/// The statements nested directly in `s`, group construct bodies included.
pub fn children(s: &Stmt) -> Vec<&Stmt> {
    match &s.kind {
        StmtKind::Block(b) => b.stmts.iter().collect(),
        StmtKind::If { then, els, .. } => std::iter::once(&**then).chain(els.as_deref()).collect(),
        StmtKind::Switch { cases, .. } => cases.iter().flat_map(|c| &c.body).collect(),
        StmtKind::Loop { body, .. }
        | StmtKind::Fork { body, .. }
        | StmtKind::Start(body)
        | StmtKind::Farm(body)
        | StmtKind::Seq(body) => vec![body],
        _ => Vec::new(),
    }
}

/// Whether `s` or a statement nested in it (`children`, at any depth) is one `p` holds for.
pub fn any_stmt(s: &Stmt, p: &impl Fn(&Stmt) -> bool) -> bool {
    p(s) || children(s).into_iter().any(|c| any_stmt(c, p))
}

/// `barrier` or a group construct in `s` (nested statements included), `s` in an `async`
/// function. A `farm` there is not one: in asynchronous code it runs its body as a block,
/// without a barrier at its end (docs/language.md §8); one inside a `start` or `seq` body is
/// inside a construct that is.
fn has_sync_construct(s: &Stmt) -> bool {
    any_stmt(s, &|s| {
        matches!(
            s.kind,
            StmtKind::Barrier | StmtKind::Fork { .. } | StmtKind::Start(_) | StmtKind::Seq(_)
        )
    })
}

/// The functions `e` calls, in evaluation order.
pub fn expr_calls(e: &Expr, out: &mut Vec<FuncId>) {
    if let ExprKind::Call { func, .. } = &e.kind {
        out.push(*func);
    }
    e.for_each_child(|c| expr_calls(c, out));
}

/// The functions `s` calls, nested statements included.
pub fn stmt_calls(s: &Stmt, out: &mut Vec<FuncId>) {
    own_exprs(s).into_iter().for_each(|e| expr_calls(e, out));
    children(s).into_iter().for_each(|c| stmt_calls(c, out));
}

/// Walks `e` in evaluation order up to `call`: `Err` with the first side effect that happens
/// before the call, `Ok(true)` once the call is reached (the expressions containing it act on
/// its value, after it).
fn effect_before(e: &Expr, call: &Expr) -> Result<bool, Span> {
    if std::ptr::eq(e, call) {
        return Ok(true);
    }
    let mut walked = Ok(false);
    e.for_each_child(|c| {
        if walked == Ok(false) {
            walked = effect_before(c, call);
        }
    });
    match walked {
        Ok(false) if has_effect(e) => Err(e.span),
        other => other,
    }
}

/// Whether evaluating `e` itself (not its operands) changes memory, prints or may fault.
fn has_effect(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Call { .. } => true,
        ExprKind::Builtin { op, .. } => !matches!(
            op,
            Builtin::Ilog2
                | Builtin::Abs
                | Builtin::Labs
                | Builtin::Fabs
                | Builtin::Sqrt
                | Builtin::Pow
                | Builtin::Exp
                | Builtin::Log
                | Builtin::Sin
                | Builtin::Cos
                | Builtin::Floor
                | Builtin::Ceil
        ),
        _ => false,
    }
}
