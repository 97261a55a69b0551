//! Ranged loops: the accesses of a counted loop checked once, before it.
//!
//! A loop `for (; k < b; k += s)` (or `k <= b`, `k++`) whose index `k` nothing but its step
//! assigns, with a bound `b` and a stride `s > 0` that the loop does not change, keeps `k`
//! between its value at entry and `b` (`b - 1` for `<`), as long as `k + s` cannot wrap
//! past `b`. An index built from `k` by adding and subtracting values the loop does not
//! change (`k`, `k - d`, `c + k`) is monotone in `k`, so an access whose indexes are such,
//! or do not change in the loop, lies, in every iteration, between where it lies at the two
//! ends: checking the two ends before the loop checks every iteration's access (docs/
//! gpu-faults.md, "Ranged loops"). Where a condition `k >= e` guards the access, the first
//! end is at the larger of `k`'s first value and `e` (`Loop::lower_bound`). C's integers
//! wrap; the checks before the loop also keep every such index and each of its parts under
//! 2^30 in magnitude at both ends (`fk_small`), so no part wraps anywhere in between, and
//! the object under 1 GiB, so no offset does.

use fork_frontend::hir::{BinOp, CompoundOp, Expr, ExprKind, Type, UnOp, VarId};
use std::collections::BTreeSet;

/// The largest array (bytes) whose accesses a ranged loop checks ahead.
pub const MAX_OBJECT_BYTES: u64 = 1 << 30;

/// A ranged loop's index and the variables its body assigns: what an access in it may
/// depend on to be checked ahead.
pub struct Loop {
    pub index: VarId,
    assigned: BTreeSet<VarId>,
}

/// A ranged loop's range: `index < bound` (`<=` if `inclusive`), stepping by `stride`
/// (None: 1).
pub struct Range<'e> {
    pub bound: &'e Expr,
    pub inclusive: bool,
    pub stride: Option<&'e Expr>,
}

/// A lower bound on the loop's index (`Loop::lower_bound`).
pub enum Bound<'e> {
    /// A constant of the index's type.
    Const(i64, &'e Type),
    Expr(&'e Expr),
}

/// How an index of an access depends on the loop's index.
pub enum Index<'e> {
    /// It does not change in the loop.
    Invariant,
    /// Monotone in the loop's index: the parts (itself among them) whose magnitude the
    /// checks before the loop bound, and whether each depends on the index.
    Monotone(Vec<(&'e Expr, bool)>),
}

/// The loop `for (; cond; step)` as a ranged loop: `cond` is `k < b` or `k <= b` for a
/// signed integer variable `k` that `assigned` (the variables the body assigns) lacks, and
/// the step adds to `k` a stride that does not change in the loop. `stable`: whether only an
/// assignment naming a variable changes it (private, address never taken).
pub fn ranged<'e>(
    cond: &'e Expr,
    step: &'e Expr,
    assigned: BTreeSet<VarId>,
    stable: &impl Fn(VarId) -> bool,
) -> Option<(Loop, Range<'e>)> {
    let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), lhs, bound) = &cond.kind else {
        return None;
    };
    let ExprKind::Var(index) = lhs.kind else {
        return None;
    };
    if !signed(&lhs.ty) || bound.ty != lhs.ty || !stable(index) || assigned.contains(&index) {
        return None;
    }
    let stride = match &step.kind {
        ExprKind::IncDec {
            place, inc: true, ..
        } if is_var(place, index) => None,
        ExprKind::CompoundAssign {
            place,
            op: CompoundOp::Arith(BinOp::Add),
            rhs,
            op_ty,
        } if is_var(place, index) && *op_ty == lhs.ty && rhs.ty == lhs.ty => Some(&**rhs),
        _ => return None,
    };
    let scope = Loop { index, assigned };
    let unchanged = |e: &Expr| scope.invariant(e, stable);
    if !unchanged(bound) || !stride.is_none_or(unchanged) {
        return None;
    }
    let range = Range {
        bound,
        inclusive: *op == BinOp::Le,
        stride,
    };
    Some((scope, range))
}

impl Loop {
    /// Whether `e` has the same value in every iteration and computing it before the loop
    /// can neither fault nor have an effect: integer arithmetic without division,
    /// comparisons and `?:` on constants, `$$`, `groupsize()` and stable variables the loop
    /// does not assign.
    pub fn invariant(&self, e: &Expr, stable: &impl Fn(VarId) -> bool) -> bool {
        if !matches!(e.ty, Type::Int(_)) {
            return false;
        }
        match &e.kind {
            ExprKind::IntConst(_) | ExprKind::DollarDollar | ExprKind::GroupSize => true,
            ExprKind::Var(v) => *v != self.index && stable(*v) && !self.assigned.contains(v),
            ExprKind::Convert(x) | ExprKind::Unary(UnOp::Neg | UnOp::BitNot, x) => {
                self.invariant(x, stable)
            }
            ExprKind::Binary(
                BinOp::Add
                | BinOp::Sub
                | BinOp::Mul
                | BinOp::Shl
                | BinOp::Shr
                | BinOp::BitAnd
                | BinOp::BitOr
                | BinOp::BitXor
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Eq
                | BinOp::Ne,
                x,
                y,
            ) => self.invariant(x, stable) && self.invariant(y, stable),
            // A spread loop's stride, `min(n, groupsize())`.
            ExprKind::Cond(c, x, y) => {
                self.invariant(c, stable) && self.invariant(x, stable) && self.invariant(y, stable)
            }
            _ => false,
        }
    }

    /// How the index `e` depends on the loop's index; None: in no way this module checks
    /// ahead.
    pub fn index<'e>(&self, e: &'e Expr, stable: &impl Fn(VarId) -> bool) -> Option<Index<'e>> {
        if self.invariant(e, stable) {
            return Some(Index::Invariant);
        }
        let mut parts = Vec::new();
        self.monotone(e, stable, &mut parts)
            .then_some(Index::Monotone(parts))
    }

    /// `k`, or a sum or difference of a monotone part and an invariant one, each maybe
    /// widened to a larger signed type; `parts` gets the parts whose magnitude is checked.
    fn monotone<'e>(
        &self,
        e: &'e Expr,
        stable: &impl Fn(VarId) -> bool,
        parts: &mut Vec<(&'e Expr, bool)>,
    ) -> bool {
        if !signed(&e.ty) {
            return false;
        }
        let found = match &e.kind {
            ExprKind::Var(v) => *v == self.index,
            // As small as its operand.
            ExprKind::Convert(x) => {
                return signed(&x.ty)
                    && width(&x.ty) <= width(&e.ty)
                    && self.monotone(x, stable, parts);
            }
            ExprKind::Binary(BinOp::Add | BinOp::Sub, x, y) => {
                let (m, i) = if self.invariant(y, stable) {
                    (x, y)
                } else {
                    (y, x)
                };
                if !self.invariant(i, stable) || !self.monotone(m, stable, parts) {
                    return false;
                }
                parts.push((&**i, false));
                true
            }
            _ => false,
        };
        if found {
            parts.push((e, true));
        }
        found
    }

    /// A lower bound on the loop's index in code that runs only where `cond` is `holds`:
    /// `b` of `k >= b`, `k > b`, `b <= k` or `b < k` (holds), or of `k < b`, `k <= b`,
    /// `b > k` or `b >= k` (does not hold), for a `b` of the index's type that does not
    /// change in the loop. For a strict one (`k > b`, and `k <= b` not holding) `k` is at
    /// least `b + 1`: with a constant `b` below the type's largest value that is the bound,
    /// otherwise `b` itself (looser, never wrong, and `b + 1` cannot wrap).
    pub fn lower_bound<'e>(
        &self,
        cond: &'e Expr,
        holds: bool,
        stable: &impl Fn(VarId) -> bool,
    ) -> Option<Bound<'e>> {
        let ExprKind::Binary(op, x, y) = &cond.kind else {
            return None;
        };
        let (index_left, strict) = match (op, holds) {
            (BinOp::Ge, true) | (BinOp::Lt, false) => (true, false),
            (BinOp::Gt, true) | (BinOp::Le, false) => (true, true),
            (BinOp::Le, true) | (BinOp::Gt, false) => (false, false),
            (BinOp::Lt, true) | (BinOp::Ge, false) => (false, true),
            _ => return None,
        };
        let (index, bound) = if index_left { (x, y) } else { (y, x) };
        if !is_var(index, self.index) || bound.ty != index.ty || !self.invariant(bound, stable) {
            return None;
        }
        Some(match bound.kind {
            ExprKind::IntConst(b)
                if strict && matches!(bound.ty, Type::Int(k) if b < k.signed_max()) =>
            {
                Bound::Const(b + 1, &bound.ty)
            }
            ExprKind::IntConst(b) => Bound::Const(b, &bound.ty),
            _ => Bound::Expr(bound),
        })
    }

    /// Whether the pointer `e` does not change in the loop: a stable variable it does not
    /// assign.
    pub fn invariant_pointer(&self, e: &Expr, stable: &impl Fn(VarId) -> bool) -> bool {
        matches!(e.ty, Type::Ptr(_))
            && matches!(e.kind, ExprKind::Var(v) if stable(v) && !self.assigned.contains(&v))
    }
}

fn is_var(e: &Expr, v: VarId) -> bool {
    matches!(e.kind, ExprKind::Var(x) if x == v)
}

fn signed(ty: &Type) -> bool {
    matches!(ty, Type::Int(k) if k.signed())
}

fn width(ty: &Type) -> u64 {
    match ty {
        Type::Int(k) => k.bytes(),
        _ => 0,
    }
}
