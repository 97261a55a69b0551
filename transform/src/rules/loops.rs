//! Rule 4: a loop that needs a cut runs on the host (`host_loop`); one that only uses its loop
//! group's `$$` or `groupsize()` runs in one kernel in that group (`loop_group_kernel`). A
//! loop whose iterations may run in any order (`order_free`) needs no cut for its shared
//! writes.

use super::*;
use crate::effects::{Effects, Objects};
use crate::plan::{HostLoop, Split, SplitKind};
use crate::rules::outline::exprs_mut;
use crate::rules::simple::{cell_var, strip_void};
use crate::rules::uniform::widened;
use fork_frontend::hir::{BinOp, Builtin, MpOp, VarId};
use fork_frontend::sync_calls::{children, each_expr, own_exprs};
use std::collections::BTreeSet;

impl Builder<'_> {
    /// Whether a loop stays out of a kernel only because it uses the loop group's `$$` or
    /// `groupsize()`: a private condition in a synchronous region, nothing else that needs
    /// a cut or a subgroup.
    pub(crate) fn only_needs_loop_group(&self, s: &Stmt, mode: Mode) -> bool {
        let StmtKind::Loop { cond, body, .. } = &s.kind else {
            return false;
        };
        let eff = self.effects(s);
        mode == Mode::Sync
            && cond.as_ref().is_some_and(|c| c.sharity == Sharity::Private)
            && !eff.host
            && !self.cut_inside(s, &eff)
            && !self.needs_subgroup(body)
    }

    /// Whether `s`, with the effects `eff`, needs a cut inside in a synchronous region (an
    /// order-free loop needs none for its shared writes and updates).
    pub(crate) fn cut_inside(&self, s: &Stmt, eff: &Effects) -> bool {
        eff.needs_cut() && !self.order_free(s)
    }

    /// Whether the members of a group may run the iterations of loop `s` one after another
    /// in one kernel, each at its own pace, instead of in lockstep with a barrier per step:
    /// the loop prints nothing, makes no host call and no multiprefix, reads no shared memory
    /// it writes (so every read sees the value from before the loop, as in lockstep), and
    /// every shared store in it stores one and the same integer constant into cells of one
    /// type (so the stores leave the same memory in any order, and never conflict under
    /// `--crcw common`). Sieve's crossing-out loop is one: `composite[j] = 1`.
    ///
    /// In a loop that deals out a counter `i` over its group (`uniform::CyclicLoops`), the
    /// cells `b[i]` of a fixed base `b` (an array, or a pointer parameter that keeps its
    /// value) belong to one iteration of one member: the rest of the loop must be order-free
    /// with them taken as private, and the variables of a base it writes at `i` may not be
    /// touched otherwise. Hillis–Steele's `for (i = $$; i < n; i += groupsize()) b[i] = ...
    /// a[i - d] + a[i]` is one where `a` and `b` point into distinct arrays (`PointsTo`).
    pub(crate) fn order_free(&self, s: &Stmt) -> bool {
        if !matches!(s.kind, StmtKind::Loop { .. }) {
            return false;
        }
        let mut rest = s.clone();
        let mut cells = Vec::new();
        if let Some(&i) = self.cyclic_loops.get(&(self.func, s.span)) {
            exprs_mut(&mut rest, &mut |e| {
                self.counter_cells_private(e, i, Access::Read, &mut cells)
            });
        }
        let mut updates = Vec::new();
        let eff = self.effects_apart_from_updates(&rest, &mut updates);
        let updated = Objects {
            vars: updates.iter().map(|&(v, _)| v).collect(),
            unknown: false,
        };
        let one_operator = updates
            .iter()
            .all(|&(v, op)| updates.iter().all(|&(w, o)| v != w || op == o));
        if eff.host
            || eff.prints
            || eff.multiprefix
            || eff.writes.may_overlap(&eff.reads)
            || updated.may_overlap(&eff.reads)
            || updated.may_overlap(&eff.writes)
            || !one_operator
        {
            return false;
        }
        let mut changed = eff.writes.clone();
        changed.union(&updated);
        let mut touched = changed.clone();
        touched.union(&eff.reads);
        let cells_apart = cells.iter().all(|c| {
            !c.objects.may_overlap(&changed)
                && (!c.written
                    || !c.objects.may_overlap(&touched)
                        && (cells.iter())
                            .all(|o| o.base == c.base || !o.objects.may_overlap(&c.objects)))
        });
        let mut first = None;
        let mut same = true;
        self.shared_stores(&rest, &mut |store| {
            same &= store.is_some() && *first.get_or_insert(store.clone()) == store;
        });
        same && cells_apart
    }

    /// Replaces each cell `b[i]` in `e` of a fixed base `b` at the counter `i` by `i` itself
    /// (a private variable: what the rest of the loop does without the cell) and records it in
    /// `cells`. A cell whose address is taken is kept: the pointer may leave it.
    fn counter_cells_private(
        &self,
        e: &mut Expr,
        i: VarId,
        access: Access,
        cells: &mut Vec<CounterCell>,
    ) {
        if access != Access::Address {
            if let Some(base) = self.counter_cell_base(e, i) {
                cells.push(CounterCell {
                    base,
                    objects: self.summaries.object_of(&self.program, e),
                    written: access == Access::Write,
                });
                e.kind = ExprKind::Var(i);
                return;
            }
        }
        let mut go = |c: &mut Expr, a| self.counter_cells_private(c, i, a, cells);
        match &mut e.kind {
            ExprKind::AddrOf(x) | ExprKind::Decay(x) => go(x, Access::Address),
            ExprKind::Member { base, .. } => go(base, access),
            ExprKind::Assign { place, value } => {
                go(place, Access::Write);
                go(value, Access::Read);
            }
            ExprKind::CompoundAssign { place, rhs, .. } => {
                go(place, Access::Write);
                go(rhs, Access::Read);
            }
            ExprKind::IncDec { place, .. } => go(place, Access::Write),
            _ => e.for_each_child_mut(|c| go(c, Access::Read)),
        }
    }

    /// The base of `e` when it is `b[i]` at the counter `i`: `b` an array variable or a `sh`
    /// pointer parameter whose targets are known (so it keeps its value, `PointsTo`, and every
    /// member has the same).
    fn counter_cell_base(&self, e: &Expr, i: VarId) -> Option<VarId> {
        let ExprKind::Deref(p) = &e.kind else {
            return None;
        };
        let ExprKind::PtrOffset { ptr, index, .. } = &p.kind else {
            return None;
        };
        if widened(index) != Some(i) {
            return None;
        }
        let program = &self.program;
        match &ptr.kind {
            ExprKind::Decay(x) => match x.kind {
                ExprKind::Var(v) => Some(v),
                _ => None,
            },
            // A private parameter may point elsewhere in each member.
            ExprKind::Var(v) if program.var(*v).sharity == Sharity::Shared => {
                (self.summaries.points_to)
                    .pointer_targets(program, ptr)
                    .map(|_| *v)
            }
            _ => None,
        }
    }

    /// The effects of `s` without its statements `syncadd(&v, e);` (and the other updates
    /// whose value is not used) on a named cell `v` or `v[i]`, which go to `updates` with
    /// their operator: run in any order, such updates leave the same value (the operators are
    /// commutative and associative), so an order-free loop may make them as atomics, where
    /// nothing else in it touches the cell (`order_free`).
    fn effects_apart_from_updates(&self, s: &Stmt, updates: &mut Vec<(VarId, MpOp)>) -> Effects {
        if let StmtKind::Expr(e) = &s.kind {
            if let ExprKind::Builtin {
                op: Builtin::SyncUpdate(op),
                args,
            } = &strip_void(e).kind
            {
                if let Some(v) = args.first().and_then(cell_var) {
                    updates.push((v, *op));
                    return args.iter().fold(Effects::default(), |acc, a| {
                        acc.union(&self.summaries.expr(&self.program, a))
                    });
                }
            }
        }
        let nested = children(s);
        if nested.is_empty() || matches!(s.kind, StmtKind::Fork { .. }) {
            return self.effects(s);
        }
        let own = own_exprs(s).into_iter().fold(Effects::default(), |acc, e| {
            acc.union(&self.summaries.expr(&self.program, e))
        });
        nested.into_iter().fold(own, |acc, c| {
            acc.union(&self.effects_apart_from_updates(c, updates))
        })
    }

    /// Calls `found` with each store into shared memory (or memory that may be shared) in
    /// `s`: `Some((constant, type))` for `place = constant`, None for any other store (an
    /// operator assignment, a `sh` local, a call that writes shared memory).
    fn shared_stores(&self, s: &Stmt, found: &mut impl FnMut(Option<(i64, Type)>)) {
        if let StmtKind::Decl { var, .. } = &s.kind {
            if self.program.var(*var).sharity == Sharity::Shared {
                found(None);
            }
        }
        for e in own_exprs(s) {
            self.shared_stores_in(e, found);
        }
        for c in children(s) {
            self.shared_stores(c, found);
        }
    }

    fn shared_stores_in(&self, e: &Expr, found: &mut impl FnMut(Option<(i64, Type)>)) {
        let shared = |place: &Expr| self.summaries.object_of(&self.program, place).any();
        match &e.kind {
            ExprKind::Assign { place, value } if shared(place) => {
                found(int_constant(value).map(|c| (c, place.ty.clone())))
            }
            ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. }
                if shared(place) =>
            {
                found(None)
            }
            // An update of a named cell is not a store (`effects_apart_from_updates`).
            ExprKind::Builtin {
                op: Builtin::SyncUpdate(_),
                args,
            } if args.first().and_then(cell_var).is_some() => {}
            ExprKind::Call { .. } | ExprKind::Builtin { .. }
                if self.summaries.expr(&self.program, e).writes.any() =>
            {
                found(None)
            }
            _ => {}
        }
        e.for_each_child(|c| self.shared_stores_in(c, found));
    }

    /// A cyclic loop (`uniform::CyclicLoops`) that would run in one kernel of its loop group,
    /// as a statement of the current group instead: the members that enter are those with
    /// `$$ < e`, so their loop group's `$$` is theirs and its `groupsize()` is the smaller of
    /// `e` (`e + 1` for `i <= e`) and the group's; the loop is rewritten with that count for
    /// `groupsize()` and needs no split. None where the loop uses its group otherwise (a call
    /// of a function that uses `$$` or `groupsize()`), changes a variable of `e`, or `e`
    /// reads `groupsize()`.
    pub(crate) fn cyclic_in_group(&self, s: &Stmt) -> Option<Stmt> {
        let i = *self.cyclic_loops.get(&(self.func, s.span))?;
        let StmtKind::Loop { cond: Some(c), .. } = &s.kind else {
            return None;
        };
        let (bound, inclusive) = match &c.kind {
            ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), a, e)
            | ExprKind::Binary(op @ (BinOp::Gt | BinOp::Ge), e, a)
                if widened(a) == Some(i) =>
            {
                (&**e, matches!(op, BinOp::Le | BinOp::Ge))
            }
            _ => return None,
        };
        // In the loop group `groupsize()` is the members', so a bound that reads it changes
        // after the entry test (`n - groupsize()`): the count below would not be it.
        let mut bound_reads_group = false;
        let mut bound_vars = BTreeSet::new();
        bound.walk(&mut |x| match x.kind {
            ExprKind::GroupSize => bound_reads_group = true,
            ExprKind::Var(v) => {
                bound_vars.insert(v);
            }
            _ => {}
        });
        if bound_reads_group {
            return None;
        }
        let mut group_calls = false;
        let mut bound_changes = false;
        each_expr(s, &mut |top| {
            top.walk(&mut |x| {
                if let ExprKind::Call { func, .. } = &x.kind {
                    group_calls |= self.summaries.per_func[func.0 as usize].group_dependent
                }
                if let Some(place) = x.assigned_place() {
                    bound_changes |= self
                        .summaries
                        .points_to
                        .place_roots(&self.program, place)
                        .is_none_or(|roots| roots.iter().any(|v| bound_vars.contains(v)))
                }
            })
        });
        if group_calls || bound_changes {
            return None;
        }
        // `bound < groupsize() ? bound (+ 1) : groupsize()`, in the comparison's type.
        let span = c.span;
        let ty = bound.ty.clone();
        let gs = mk(ExprKind::GroupSize, Type::INT, span);
        let gs_wide = mk(ExprKind::Convert(Box::new(gs.clone())), ty.clone(), span);
        let below = mk(
            ExprKind::Binary(BinOp::Lt, Box::new(bound.clone()), Box::new(gs_wide)),
            Type::INT,
            span,
        );
        let mut count = mk(ExprKind::Convert(Box::new(bound.clone())), Type::INT, span);
        if inclusive {
            let one = mk(ExprKind::IntConst(1), Type::INT, span);
            count = mk(
                ExprKind::Binary(BinOp::Add, Box::new(count), Box::new(one)),
                Type::INT,
                span,
            );
        }
        let members = mk(
            ExprKind::Cond(Box::new(below), Box::new(count), Box::new(gs)),
            Type::INT,
            span,
        );
        let mut in_group = s.clone();
        exprs_mut(&mut in_group, &mut |e| replace_group_size(e, &members));
        Some(in_group)
    }

    /// Rule 4 for a loop with no cut inside that uses its loop group: `Split{if}` on the
    /// entry condition forms the loop group (the then-group: fresh `$$`, `groupsize()` of the
    /// members that enter), and one kernel runs the whole loop in it, as `do ... while`
    /// (the entry test is the split's).
    pub(crate) fn loop_group_kernel(&mut self, s: &Stmt, ops: &mut Vec<HostOp>) {
        let StmtKind::Loop {
            cond: Some(cond),
            step,
            body,
            test_first,
        } = &s.kind
        else {
            return;
        };
        let enters = if *test_first {
            cond.clone()
        } else {
            mk(ExprKind::IntConst(1), Type::INT, s.span)
        };
        let slot = self.condition_slot(&enters, Mode::Sync, ops);
        let frame = self.scope_frame(s.span, "loop group");
        let in_kernel = Stmt {
            kind: StmtKind::Loop {
                cond: Some(cond.clone()),
                step: step.clone(),
                body: body.clone(),
                test_first: false,
            },
            ..s.clone()
        };
        let mut arm = Vec::new();
        self.append(in_kernel, Mode::Sync, &mut arm);
        self.close(&mut arm, CutReason::BlockEnd);
        ops.push(HostOp::Split(Split {
            kind: SplitKind::If {
                cond: slot,
                loop_group: true,
            },
            arms: vec![arm, Vec::new()],
            shared_frames: vec![frame, self.new_frame("(not entering)".into())],
            span: s.span,
        }));
    }

    /// Rule 4: a loop whose body needs a cut runs on the host: entry condition, body,
    /// latch (step and condition, fused into the body's last kernel when no `continue`
    /// leaves it), loop-exit update and all-exited test, restore.
    pub(crate) fn host_loop(&mut self, s: &Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        let StmtKind::Loop {
            cond,
            step,
            body,
            test_first,
        } = &s.kind
        else {
            return;
        };
        let span = s.span;
        let forms_group =
            mode == Mode::Sync && cond.as_ref().is_some_and(|c| c.sharity == Sharity::Private);
        let slot = cond.as_ref().map(|c| self.temp(Type::INT, "cond", c.span));
        let mut entry_cond = Vec::new();
        // The open kernel would run as part of the loop's entry condition; a `break` or
        // `continue` in it leaves the enclosing loop, not this one, so it ends here.
        let open_leaves = self.open.as_ref().is_some_and(|k| {
            k.body
                .iter()
                .any(|s| leaves(s, Leave::Break) || leaves(s, Leave::Continue))
        });
        if open_leaves {
            self.close(ops, CutReason::HostConstruct);
        }
        match (cond, slot) {
            (Some(c), Some(slot)) if *test_first => {
                let s = assign_stmt(self, slot, truth(c), c.span);
                self.simple(s, mode, &mut entry_cond);
                self.close(&mut entry_cond, CutReason::HostConstruct);
            }
            _ => self.close(ops, CutReason::HostConstruct),
        }
        let frame = self.scope_frame(span, "loop body");
        self.scopes.push(frame);
        let mut body_ops = Vec::new();
        self.stmt(body, mode, &mut body_ops);
        let fuse = !leaves(body, Leave::Continue);
        let mut latch = Vec::new();
        let latch_ops = if fuse {
            &mut body_ops
        } else {
            self.close(&mut body_ops, CutReason::BlockEnd);
            &mut latch
        };
        if let Some(st) = step {
            self.simple(expr_stmt(st.clone(), st.span), mode, latch_ops);
        }
        if let (Some(c), Some(slot)) = (cond, slot) {
            let s = assign_stmt(self, slot, truth(c), c.span);
            self.simple(s, mode, latch_ops);
        }
        self.close(latch_ops, CutReason::BlockEnd);
        self.scopes.pop();
        ops.push(HostOp::Loop(HostLoop {
            cond: slot,
            test_first: *test_first,
            forms_group,
            entry_cond,
            body: body_ops,
            latch,
            shared_frame: frame,
            span,
        }));
    }
}

/// `e` with every `groupsize()` replaced by `members`.
fn replace_group_size(e: &mut Expr, members: &Expr) {
    if matches!(e.kind, ExprKind::GroupSize) {
        *e = members.clone();
        return;
    }
    e.for_each_child_mut(|c| replace_group_size(c, members));
}

/// How an expression is used: its value read, written as a place, or its address taken.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
    Address,
}

/// A cell `base[i]` of a cyclic loop at its counter (`order_free`).
struct CounterCell {
    base: VarId,
    objects: Objects,
    written: bool,
}

/// The value of an integer constant, through conversions.
fn int_constant(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::IntConst(c) => Some(*c),
        ExprKind::Convert(x) => int_constant(x),
        _ => None,
    }
}
