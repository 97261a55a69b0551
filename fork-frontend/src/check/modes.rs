//! Fork's mode rules (docs/language.md §4): the context of the function being checked, the
//! mode of the current region, and the constructs each mode allows.

use super::codes::*;
use super::Checker;
use crate::diag::Diagnostic;
use crate::hir::{Expr, ExprKind, FnKind, FuncId, Mode, Sharity, Stmt, StmtKind, Type, VarId};
use crate::source::Span;
use crate::sync_calls::{Misplaced, SyncCalls};

/// What encloses a `break`/`continue`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Breakable {
    Loop,
    Switch,
}

/// The function being checked and the region the checker is in.
pub(super) struct FnCtx {
    pub id: FuncId,
    pub kind: FnKind,
    pub is_main: bool,
    pub ret: Type,
    /// The mode of the current region (always `Sync` in a `straight` function: see mod.rs).
    pub mode: Mode,
    pub locals: Vec<VarId>,
    pub breakables: Vec<Breakable>,
    /// Inside `seq` or a branch taken by one member (`if ($$ == 0)`): writes of private
    /// values to shared variables do not race.
    pub single_member: bool,
    /// How many `start`/`farm`/`seq`/`fork` bodies enclose the current statement.
    pub construct_depth: u32,
}

impl Checker {
    /// The mode statements get now (`Sync` outside functions, where no statement runs).
    pub(super) fn mode(&self) -> Mode {
        self.func.as_ref().map_or(Mode::Sync, |f| f.mode)
    }

    fn fn_kind(&self) -> Option<FnKind> {
        self.func.as_ref().map(|f| f.kind)
    }

    /// A group construct (`fork`, `start`, `farm`, `seq`, `barrier`, `sh` local, call of a
    /// `sync` function) is never allowed in a `straight` function. Returns whether it is
    /// allowed here as far as that rule goes.
    pub(super) fn allow_group_construct(&mut self, what: &str, span: Span) -> bool {
        if self.fn_kind() != Some(FnKind::Straight) {
            return true;
        }
        self.report(
            Diagnostic::error(
                &E0404,
                span,
                format!("a `straight` function cannot contain {what}"),
            )
            .with_label("not allowed in a `straight` function")
            .with_help("make the function `sync` or `async`, or move this to its caller"),
        );
        false
    }

    /// Calling a `sync` function needs a synchronous region.
    pub(super) fn check_sync_call(&mut self, name: &str, span: Span) {
        if !self.allow_group_construct(&format!("a call of the `sync` function `{name}`"), span) {
            return;
        }
        if self.mode() == Mode::Async {
            self.report(
                Diagnostic::error(
                    &E0401,
                    span,
                    format!("the `sync` function `{name}` is called from an asynchronous region"),
                )
                .with_label("asynchronous call")
                .with_help("call it inside `start { ... }` or from a `sync` function"),
            );
        }
    }

    /// `sh` locals need a synchronous region.
    pub(super) fn check_shared_local(&mut self, name: &str, span: Span) -> bool {
        if !self.allow_group_construct(&format!("the `sh` local `{name}`"), span) {
            return false;
        }
        if self.mode() == Mode::Async {
            self.report(
                Diagnostic::error(
                    &E0403,
                    span,
                    format!("the `sh` local `{name}` is declared in an asynchronous region"),
                )
                .with_label("no group owns it here")
                .with_help(
                    "declare it in a `sync` function or a `start` body, or make it a `sh` global",
                ),
            );
            return false;
        }
        true
    }

    /// W0201: in a synchronous region every member writes a shared variable in the same step;
    /// a private value means possibly different values in one cell.
    pub(super) fn check_shared_write(&mut self, place: &Expr, value: &Expr, span: Span) {
        let Some(ctx) = &self.func else { return };
        if ctx.mode != Mode::Sync || ctx.kind == FnKind::Straight || ctx.single_member {
            return;
        }
        if value.sharity == Sharity::Private && is_shared_variable(place) {
            self.report(
                Diagnostic::warning(&W0201, span, "a shared variable is assigned a private value by every member of the group")
                    .with_label("concurrent write of possibly different values")
                    .with_help("guard it with `if ($$ == 0)`, run it in `seq`, or combine the values with `mpadd`"),
            );
        }
    }
}

impl Checker {
    /// W0203: a private loop condition in a synchronous region makes the loop a subgroup
    /// whose members leave at different iterations; shared writes in its body then run in a
    /// shrinking group.
    pub(super) fn check_private_loop(&mut self, looped: &Stmt) {
        let Some(ctx) = &self.func else { return };
        if !looped.splits_group() || ctx.kind == FnKind::Straight || ctx.single_member {
            return;
        }
        let StmtKind::Loop {
            cond: Some(cond), ..
        } = &looped.kind
        else {
            return;
        };
        // A `sh` variable declared in the body belongs to the loop's group, whichever members
        // it has then: writing it is what the loop is for, not a shrinking group's surprise.
        let mut local = Vec::new();
        declared_in(looped, &mut local);
        if let Some(write) = shared_variable_write(looped, &local) {
            self.report(
                Diagnostic::warning(
                    &W0203,
                    cond.span,
                    "a loop with a private condition writes a shared variable",
                )
                .with_label("private condition: members leave at different iterations")
                .with_note(write, "written by whichever members are still looping")
                .with_help(
                    "loop to a shared bound and test the private part inside, or guard the write",
                ),
            );
        }
    }
}

impl Checker {
    /// E0412: a synchronising call of asynchronous code where it cannot run before the rest
    /// of its statement (`crate::sync_calls`).
    pub(super) fn check_sync_calls(&mut self) {
        let sync = SyncCalls::new(&self.funcs);
        let mut found = Vec::new();
        for f in &self.funcs {
            // A `straight` function's statements (marked synchronous) run as asynchronous
            // code where it is called from asynchronous code (docs/language.md §8).
            let straight = f.kind == FnKind::Straight;
            for s in &f.body.stmts {
                misplaced_calls(&sync, s, straight, &mut found);
            }
        }
        for (call, func, why) in found {
            let name = &self.funcs[func.0 as usize].name;
            let d = match why {
                Misplaced::Conditional(op) => Diagnostic::error(
                    &E0412,
                    call,
                    format!("`{name}` synchronises and is called in an operand that is not always evaluated"),
                )
                .with_label("a call that executes `barrier`")
                .with_note(op, "this operator evaluates it only for some processors")
                .with_help(format!("call it in an `if` of its own (`if (c) t = {name}(...);`) and use `t` here")),
                Misplaced::Loop => Diagnostic::error(
                    &E0412,
                    call,
                    format!("`{name}` synchronises and is called in a loop's test or step"),
                )
                .with_label("evaluated again at each iteration")
                .with_help(format!("call it in a statement of its own before the loop and at the end of its body (`t = {name}(...);`), and test `t`")),
                Misplaced::Second(first) => Diagnostic::error(
                    &E0412,
                    call,
                    format!("`{name}` synchronises and is the second such call in one statement"),
                )
                .with_label("the second call that executes `barrier`")
                .with_note(first, "the first one")
                .with_help("make each call a statement of its own (`t = f(...);`) and combine the results after"),
                Misplaced::Effect(effect) => Diagnostic::error(
                    &E0412,
                    call,
                    format!("`{name}` synchronises and is called after another side effect of its statement"),
                )
                .with_label("runs before the rest of the statement")
                .with_note(effect, "this side effect comes first in the statement")
                .with_help(format!("call it in a statement of its own before this one (`t = {name}(...);`) and use `t` here")),
            };
            self.report(d);
        }
    }
}

/// The misplaced synchronising calls of the asynchronous statements in `s` (all of them in a
/// `straight` function).
fn misplaced_calls(
    sync: &SyncCalls,
    s: &Stmt,
    straight: bool,
    out: &mut Vec<(Span, FuncId, Misplaced)>,
) {
    if s.mode == Mode::Async || straight {
        if let Some((call, why)) = sync.misplaced(s) {
            if let ExprKind::Call { func, .. } = &call.kind {
                out.push((call.span, *func, why));
            }
        }
    }
    for c in crate::sync_calls::children(s) {
        misplaced_calls(sync, c, straight, out);
    }
}

/// A shared variable or a member of one, not reached through a pointer.
fn is_shared_variable(place: &Expr) -> bool {
    match &place.kind {
        ExprKind::Var(_) => place.sharity == Sharity::Shared,
        ExprKind::Member { base, .. } => is_shared_variable(base),
        _ => false,
    }
}

/// Whether a condition holds for one member only: `$$ == c`, `__PROC_NR__ == c` (either
/// order) with a shared `c`.
pub(super) fn selects_one_member(cond: &Expr) -> bool {
    let ExprKind::Binary(crate::hir::BinOp::Eq, a, b) = &cond.kind else {
        return false;
    };
    let is_rank = |e: &Expr| {
        matches!(
            strip_converts(e).kind,
            ExprKind::DollarDollar | ExprKind::ProcNr
        )
    };
    (is_rank(a) && b.sharity == Sharity::Shared) || (is_rank(b) && a.sharity == Sharity::Shared)
}

fn strip_converts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Convert(inner) => strip_converts(inner),
        _ => e,
    }
}

/// The variables declared in `s`, at any depth.
fn declared_in(s: &Stmt, out: &mut Vec<VarId>) {
    if let StmtKind::Decl { var, .. } = &s.kind {
        out.push(*var);
    }
    for c in crate::sync_calls::children(s) {
        declared_in(c, out);
    }
}

/// The first write to a shared variable (not through a pointer) in `s` that is not among
/// `local`, outside nested `farm` bodies (which run asynchronously).
fn shared_variable_write(s: &Stmt, local: &[VarId]) -> Option<Span> {
    let in_expr = |e: &Expr| shared_write_in_expr(e, local);
    let in_stmt = |s: &Stmt| shared_variable_write(s, local);
    match &s.kind {
        StmtKind::Expr(e) => in_expr(e),
        StmtKind::Decl { .. } | StmtKind::Break | StmtKind::Continue | StmtKind::Barrier => None,
        StmtKind::Block(b) => b.stmts.iter().find_map(in_stmt),
        StmtKind::If { cond, then, els } => in_expr(cond)
            .or_else(|| in_stmt(then))
            .or_else(|| els.as_deref().and_then(in_stmt)),
        StmtKind::Loop {
            cond, step, body, ..
        } => cond
            .iter()
            .chain(step)
            .find_map(in_expr)
            .or_else(|| in_stmt(body)),
        StmtKind::Switch { cond, cases } => {
            in_expr(cond).or_else(|| cases.iter().flat_map(|c| &c.body).find_map(in_stmt))
        }
        StmtKind::Return(value) => value.as_ref().and_then(in_expr),
        StmtKind::Fork { body, .. } | StmtKind::Start(body) | StmtKind::Seq(body) => in_stmt(body),
        StmtKind::Farm(_) => None,
    }
}

fn shared_write_in_expr(e: &Expr, local: &[VarId]) -> Option<Span> {
    let children: Vec<&Expr> = match &e.kind {
        ExprKind::Assign { place, .. }
        | ExprKind::CompoundAssign { place, .. }
        | ExprKind::IncDec { place, .. }
            if is_shared_variable(place)
                && !super::expr::root_var(place).is_some_and(|v| local.contains(&v)) =>
        {
            return Some(e.span)
        }
        ExprKind::Assign {
            place,
            value: other,
        }
        | ExprKind::CompoundAssign {
            place, rhs: other, ..
        } => vec![place, other],
        ExprKind::IncDec { place: inner, .. }
        | ExprKind::Deref(inner)
        | ExprKind::Member { base: inner, .. }
        | ExprKind::AddrOf(inner)
        | ExprKind::Decay(inner)
        | ExprKind::Convert(inner)
        | ExprKind::Unary(_, inner) => vec![inner],
        ExprKind::Binary(_, a, b)
        | ExprKind::LogAnd(a, b)
        | ExprKind::LogOr(a, b)
        | ExprKind::Comma(a, b)
        | ExprKind::PtrOffset {
            ptr: a, index: b, ..
        }
        | ExprKind::PtrDiff { a, b, .. } => vec![a, b],
        ExprKind::Cond(c, t, f) => vec![c, t, f],
        ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => args.iter().collect(),
        _ => Vec::new(),
    };
    children
        .into_iter()
        .find_map(|c| shared_write_in_expr(c, local))
}
