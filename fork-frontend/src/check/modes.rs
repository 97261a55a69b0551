//! Fork's mode rules (fork-dialect.md §4): the context of the function being checked, the
//! mode of the current region, and the constructs each mode allows.

use super::codes::*;
use super::Checker;
use crate::diag::Diagnostic;
use crate::hir::{Expr, ExprKind, FnKind, FuncId, Mode, Sharity, Type, VarId};
use crate::source::Span;

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
