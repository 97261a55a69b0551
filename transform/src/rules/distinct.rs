//! Stores whose cells differ between members (`Kernel::distinct_stores`): the statement
//! `p[u ± mpadd(&c, k)] = v;` of synchronous code, quicksort's partition
//! `buf[mpadd(&nless, 1)] = v` and `buf[n - 1 - mpadd(&ngreater, 1)] = v`.
//!
//! The members that run the statement run its `mpadd` together, on one cell (`&c` is the
//! same for all: `uniform`), each adding `k`; members that do not run it (a predicated arm's
//! others, `hoist_multiprefix`) add nothing. So the results of those that store are `s`,
//! `s + k`, `s + 2k`, ... in `__PROC_NR__` order: distinct modulo 2^32 for up to 2^31
//! members where `k` has at most one trailing zero bit (`k` odd or twice an odd number).
//! `u` is the same for every member, `±` and widening conversions keep distinct values
//! apart, and `p` is the same pointer for all: so no two members store into one cell, and
//! the value (which writes no shared memory) is the statement's only other part. Nothing
//! else in the kernel writes what it writes (`Builder::append` ends a synchronous kernel
//! before such a statement), so the store can never be half of a `--crcw common` conflict
//! and the GPU's check does not log it.

use super::uniform::{uniform, widen_source};
use super::Builder;
use fork_frontend::hir::{BinOp, Builtin, Expr, ExprKind, MpOp, Stmt, StmtKind};
use std::collections::BTreeSet;

impl Builder<'_> {
    /// Whether `s`, a synchronous statement before `hoist_multiprefix`, is a store into a
    /// cell that differs between the members that run it (the module's rule).
    pub(crate) fn distinct_store(&self, s: &Stmt) -> bool {
        let StmtKind::Expr(e) = &s.kind else {
            return false;
        };
        let ExprKind::Assign { place, value } = &e.kind else {
            return false;
        };
        let eff = self.summaries.expr(&self.program, value);
        !eff.writes_shared() && !eff.prints && self.distinct_place(place)
    }

    /// `*(p + i)` (a field of it too) with `p` uniform and `i` distinct between members.
    fn distinct_place(&self, place: &Expr) -> bool {
        match &place.kind {
            ExprKind::Member { base, .. } => self.distinct_place(base),
            ExprKind::Deref(x) => match &x.kind {
                ExprKind::PtrOffset { ptr, index, .. } => {
                    self.same_for_all(ptr) && self.distinct_index(index)
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// `m`, `u + m`, `m + u` or `u - m` (through widening conversions), `m` a distinct
    /// `mpadd` and `u` uniform.
    fn distinct_index(&self, index: &Expr) -> bool {
        let index = widen_source(index);
        match &index.kind {
            ExprKind::Binary(BinOp::Add, x, y) => {
                (self.distinct_mpadd(x) && self.same_for_all(y))
                    || (self.same_for_all(x) && self.distinct_mpadd(y))
            }
            ExprKind::Binary(BinOp::Sub, x, y) => self.same_for_all(x) && self.distinct_mpadd(y),
            _ => self.distinct_mpadd(index),
        }
    }

    /// `mpadd(&c, k)` (through widening conversions), the cell's address the same for every
    /// member and `k` a constant whose multiples by 0 .. 2^31 differ modulo 2^32.
    fn distinct_mpadd(&self, e: &Expr) -> bool {
        let ExprKind::Builtin {
            op: Builtin::Multiprefix(MpOp::Add),
            args,
        } = &widen_source(e).kind
        else {
            return false;
        };
        let [cell, k] = args.as_slice() else {
            return false;
        };
        let steps_apart = matches!(widen_source(k).kind,
            ExprKind::IntConst(k) if (k as u32) != 0 && (k as u32).trailing_zeros() <= 1);
        steps_apart && matches!(cell.kind, ExprKind::AddrOf(_)) && self.same_for_all(cell)
    }

    /// Whether every member computes `e` alike: `uniform` without private locals.
    fn same_for_all(&self, e: &Expr) -> bool {
        uniform(&self.program, &BTreeSet::new(), e)
    }
}
