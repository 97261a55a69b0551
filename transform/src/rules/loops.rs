//! Rule 4: a loop that needs a cut runs on the host (`host_loop`); one that only uses its loop
//! group's `$$` or `groupsize()` runs in one kernel in that group (`loop_group_kernel`). A
//! loop whose iterations may run in any order (`order_free`) needs no cut for its shared
//! writes.

use super::*;
use crate::effects::{Effects, Objects};
use crate::plan::{HostLoop, Split, SplitKind};
use crate::points_to::Target;
use crate::rules::outline::exprs_mut;
use crate::rules::simple::{cell_var, strip_void};
use crate::rules::uniform::{widen_source, widened};
use fork_frontend::hir::{BinOp, Builtin, MpOp, VarId};
use fork_frontend::source::Span;
use fork_frontend::sync_calls::{children, each_expr, own_exprs};
use std::collections::{BTreeSet, HashMap};

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
    ///
    /// A strided cyclic loop deals out distinct counters only where its stride is positive
    /// and nothing overflows, so this holds for it only where it runs in its group under
    /// that test (`cyclic_in_group`); the loop for the other case asks `order_free_with`
    /// without a counter.
    pub(crate) fn order_free(&self, s: &Stmt) -> bool {
        let counter = (self.cyclic_loops.get(&(self.func, s.span)))
            .filter(|c| c.plain() || self.cyclic_in_group(s).is_some())
            .map(|c| c.counter);
        self.order_free_with(s, counter)
    }

    /// Whether the iterations of the order-free loop `s` may each load their values before
    /// the stores of the iterations before them (`Kernel::loads_ahead`): its body is one or
    /// more assignments `place = value` whose places are shared memory the Plan can name,
    /// and whose values load shared memory (through such places) and otherwise only read
    /// variables and compute without an effect or a fault (no call or assignment, no division
    /// but by a constant other than 0 and -1); where there are several, no assignment's value
    /// or place reads what an assignment before it may write. Being order-free, no iteration
    /// reads what another writes, so the loads see what they would in order; the values'
    /// loads are what the emitted loop puts in flight together (Hillis–Steele's `b[i] = i >= d
    /// ? a[i - d] + a[i] : a[i]`, list ranking's `rank2[v] = rank[v] + rank[next[v]];
    /// next2[v] = next[next[v]];`, a latency chain after each store otherwise).
    pub(crate) fn loads_ahead(&self, s: &Stmt) -> bool {
        let StmtKind::Loop { body, .. } = &s.kind else {
            return false;
        };
        let Some(stores) = stores(body) else {
            return false;
        };
        let mut loads = false;
        let mut written = BTreeSet::new();
        for (_, place, value) in stores {
            let mut read = Reads::default();
            let Some(roots) = self.shared_place(place) else {
                return false;
            };
            let reads_only =
                self.reads_only(place, true, &mut read) && self.reads_only(value, false, &mut read);
            // No value or place reads what a store before it writes.
            if !reads_only || !read.roots.is_disjoint(&written) {
                return false;
            }
            loads |= read.loads;
            written.extend(roots);
        }
        loads
    }

    /// What `place` may lie in, where it is memory the Plan can name, all of it shared.
    fn shared_place(&self, place: &Expr) -> Option<BTreeSet<Target>> {
        let program = &self.program;
        (self.summaries.points_to)
            .place_roots(program, place)
            .filter(|roots| {
                roots.iter().all(|t| match *t {
                    Target::Var(v) => program.var(v).sharity == Sharity::Shared,
                    Target::Block(_) => true,
                })
            })
    }

    /// `loads_ahead`'s test of an expression (`place`: it is the store's place, not a load):
    /// it only reads, cannot fault, and loads only shared memory; what it reads goes into
    /// `read`.
    fn reads_only(&self, e: &Expr, place: bool, read: &mut Reads) -> bool {
        let go = |x: &Expr, read: &mut Reads| self.reads_only(x, false, read);
        match &e.kind {
            ExprKind::Var(v) => {
                if !place {
                    read.roots.insert(Target::Var(*v));
                }
                true
            }
            ExprKind::IntConst(_)
            | ExprKind::FloatConst(_)
            | ExprKind::DollarDollar
            | ExprKind::Dollar
            | ExprKind::At
            | ExprKind::GroupSize
            | ExprKind::ProcNr
            | ExprKind::StartedProcs => true,
            ExprKind::Deref(p) if place => go(p, read),
            ExprKind::Deref(p) => self.shared_place(e).is_some_and(|roots| {
                read.loads = true;
                read.roots.extend(roots);
                self.reads_only(p, false, read)
            }),
            ExprKind::Decay(x) => matches!(x.kind, ExprKind::Var(_)),
            ExprKind::Convert(x) | ExprKind::Unary(_, x) => go(x, read),
            // A division faults (or overflows) only by 0 or -1.
            ExprKind::Binary(BinOp::Div | BinOp::Rem, a, b) => {
                matches!(int_constant(b), Some(c) if c != 0 && c != -1) && go(a, read)
            }
            ExprKind::Binary(_, a, b) => go(a, read) && go(b, read),
            ExprKind::PtrOffset { ptr, index, .. } => go(ptr, read) && go(index, read),
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => go(a, read) && go(b, read),
            ExprKind::Cond(c, a, b) => go(c, read) && go(a, read) && go(b, read),
            _ => false,
        }
    }

    /// `order_free`, with the cells at `counter` private.
    fn order_free_with(&self, s: &Stmt, counter: Option<VarId>) -> bool {
        if !matches!(s.kind, StmtKind::Loop { .. }) {
            return false;
        }
        let mut rest = s.clone();
        let mut cells = Vec::new();
        if let Some(i) = counter {
            let at = CounterAt::of(&self.program, s, i);
            exprs_mut(&mut rest, &mut |e| {
                self.counter_cells_private(e, &at, Access::Read, &mut cells)
            });
        }
        let mut updates = Vec::new();
        let eff = self.effects_apart_from_updates(&rest, &mut updates);
        let updated = Objects {
            targets: updates.iter().map(|&(v, _)| Target::Var(v)).collect(),
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

    /// Replaces each cell `b[i]` (or `b[i / W][i % W]`, `CounterAt`) in `e` of a fixed base
    /// `b` at the counter `i` by `i` itself (a private variable: what the rest of the loop
    /// does without the cell) and records it in `cells`. A cell whose address is taken is
    /// kept: the pointer may leave it.
    fn counter_cells_private(
        &self,
        e: &mut Expr,
        at: &CounterAt,
        access: Access,
        cells: &mut Vec<CounterCell>,
    ) {
        let i = at.counter;
        if access != Access::Address {
            if let Some(base) = self.counter_cell_base(e, at) {
                cells.push(CounterCell {
                    base,
                    objects: self.summaries.object_of(&self.program, e),
                    written: access == Access::Write,
                });
                e.kind = ExprKind::Var(i);
                return;
            }
        }
        let mut go = |c: &mut Expr, a| self.counter_cells_private(c, at, a, cells);
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
    /// member has the same); or `b[r][c]` of a two-dimensional array `b` whose rows hold `W`
    /// cells, with `r` and `c` the loop's `i / W` and `i % W` (`CounterAt::part`): the cell
    /// `r * W + c`, which is `i`.
    fn counter_cell_base(&self, e: &Expr, at: &CounterAt) -> Option<VarId> {
        let (ptr, index) = indexed(e)?;
        if let Some((BinOp::Rem, w)) = at.part(index) {
            let (rows, row) = indexed(strip_decay(ptr)?)?;
            let b = match &strip_decay(rows)?.kind {
                ExprKind::Var(b) => *b,
                _ => return None,
            };
            let row_cells = match &self.program.var(b).ty {
                Type::Array(elem, _) => match &**elem {
                    Type::Array(_, n) => *n,
                    _ => return None,
                },
                _ => return None,
            };
            return (at.part(row) == Some((BinOp::Div, w)) && row_cells == w).then_some(b);
        }
        let i = at.counter;
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
    ///
    /// A strided loop (`i = a + $$ * s`, steps of `groupsize() * s`) enters a prefix of
    /// `$$` only where `s > 0` and its counter does not overflow, so its rewriting holds under
    /// a test at run time (`InGroup::test`, `run_time_test`), where the loop keeps its loop
    /// group otherwise; its count is `ceil((e - a) / s)` (`floor((e - a) / s) + 1` for
    /// `<=`), at most the group's. The same conditions hold for `a` and `s` as for `e`.
    pub(crate) fn cyclic_in_group(&self, s: &Stmt) -> Option<InGroup> {
        let cyclic = self.cyclic_loops.get(&(self.func, s.span))?;
        let i = cyclic.counter;
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
        let (start, stride) = (cyclic.start.as_ref(), cyclic.stride.as_ref());
        // In the loop group `groupsize()` is the members', so a bound that reads it changes
        // after the entry test (`n - groupsize()`): the count below would not be it.
        let mut reads_group = false;
        let mut vars = BTreeSet::new();
        for x in [Some(bound), start, stride].into_iter().flatten() {
            x.walk(&mut |x| match x.kind {
                ExprKind::GroupSize => reads_group = true,
                ExprKind::Var(v) => {
                    vars.insert(v);
                }
                _ => {}
            });
        }
        if reads_group {
            return None;
        }
        let mut group_calls = false;
        let mut changes = false;
        each_expr(s, &mut |top| {
            top.walk(&mut |x| {
                if let ExprKind::Call { func, .. } = &x.kind {
                    group_calls |= self.summaries.per_func[func.0 as usize].group_dependent
                }
                if let Some(place) = x.assigned_place() {
                    changes |= self
                        .summaries
                        .points_to
                        .place_roots(&self.program, place)
                        .is_none_or(|roots| {
                            roots
                                .iter()
                                .any(|t| matches!(t, Target::Var(v) if vars.contains(v)))
                        })
                }
            })
        });
        if group_calls || changes {
            return None;
        }
        let span = c.span;
        let ty = bound.ty.clone();
        let gs = mk(ExprKind::GroupSize, Type::INT, span);
        let wide =
            |e: &Expr, ty: &Type| mk(ExprKind::Convert(Box::new(e.clone())), ty.clone(), span);
        let to = |e: &Expr, ty: &Type| match e.ty == *ty {
            true => e.clone(),
            false => wide(e, ty),
        };
        let bin = |op, a: Expr, b: Expr, ty: &Type| {
            mk(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                ty.clone(),
                span,
            )
        };
        let int = |v, ty: &Type| mk(ExprKind::IntConst(v), ty.clone(), span);
        // The number of steps of `s` from `a` below `e` (`<=`: to `e`), in the comparison's
        // type: `e - a`, for a stride `(e - a - 1) / s + 1` (`(e - a) / s`).
        let mut steps = match start {
            Some(a) => bin(BinOp::Sub, bound.clone(), to(a, &ty), &ty),
            None => bound.clone(),
        };
        if let Some(st) = stride {
            if !inclusive {
                steps = bin(BinOp::Sub, steps, int(1, &ty), &ty);
            }
            steps = bin(BinOp::Div, steps, to(st, &ty), &ty);
            if !inclusive {
                steps = bin(BinOp::Add, steps, int(1, &ty), &ty);
            }
        }
        // `steps < groupsize() ? steps (+ 1) : groupsize()`.
        let below = bin(BinOp::Lt, steps.clone(), wide(&gs, &ty), &Type::INT);
        let mut count = wide(&steps, &Type::INT);
        if inclusive {
            count = bin(BinOp::Add, count, int(1, &Type::INT), &Type::INT);
        }
        let mut members = mk(
            ExprKind::Cond(Box::new(below), Box::new(count), Box::new(gs)),
            Type::INT,
            span,
        );
        if cyclic.plain() {
            return Some(InGroup {
                members,
                test: None,
            });
        }
        // Counted once before the loop (a division): where no member enters (`a >= e`,
        // `a > e`) the count is 0, so that `e - a` cannot overflow.
        let a = start.map_or_else(|| int(0, &ty), |a| to(a, &ty));
        let enters = match inclusive {
            true => bin(BinOp::Le, a, bound.clone(), &Type::INT),
            false => bin(BinOp::Lt, a, bound.clone(), &Type::INT),
        };
        members = mk(
            ExprKind::Cond(
                Box::new(enters),
                Box::new(members),
                Box::new(int(0, &Type::INT)),
            ),
            Type::INT,
            span,
        );
        let test = run_time_test(start, stride, bound, span);
        Some(InGroup {
            members,
            test: Some(test),
        })
    }

    /// Rule 4 for a cyclic loop that runs in its group (`cyclic_in_group`). A plain one is a
    /// statement of a kernel with the entering members' count for `groupsize()`, spread over
    /// every SM (`spread_statement`). A strided one is a host branch on its test: where it
    /// holds, the count goes to a slot and the loop is such a statement; otherwise the loop
    /// runs as it would without the rewriting, its counter's cells not private.
    pub(crate) fn cyclic_loop(
        &mut self,
        s: &Stmt,
        in_group: InGroup,
        mode: Mode,
        ops: &mut Vec<HostOp>,
    ) {
        let InGroup { members, test } = in_group;
        let Some(test) = test else {
            return self.spread_statement(with_members(s, &members), mode, ops);
        };
        self.branch_on(
            &test,
            mode,
            ops,
            |b, ops| {
                let count = b.temp(Type::INT, "members", s.span);
                let set = assign_stmt(b, count, members, s.span);
                b.simple(set, mode, ops);
                let count = b.var_expr(count, s.span);
                b.spread_statement(with_members(s, &count), mode, ops);
            },
            |b, ops| match b.effects(s).needs_cut() && !b.order_free_with(s, None) {
                true => b.host_loop(s, mode, ops),
                false => b.loop_group_kernel(s, ops),
            },
        );
    }

    /// A cyclic loop's kernel statement: its work per member grows with the loop's bound, so
    /// its kernel ends after it and is spread over every SM (`Kernel::spread`).
    fn spread_statement(&mut self, s: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        self.kernel_statement(s.clone(), mode, ops);
        self.appended_order_free(&s);
        if let Some(k) = &mut self.open {
            k.spread = true;
        }
        self.close(ops, CutReason::Spread)
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
        // Both callers put a loop here only where no cut is needed inside it.
        self.appended_order_free(s);
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

/// How a cyclic loop runs in its group (`Builder::cyclic_in_group`).
pub(crate) struct InGroup {
    /// The number of members that enter, for `groupsize()` in the loop.
    members: Expr,
    /// For a strided loop, the shared condition under which that holds: where it does not,
    /// the loop runs with its loop group.
    test: Option<Expr>,
}

/// For `i = a + $$ * s; for (; i < e; i += groupsize() * s)` (`a`, `s` of the signed type
/// `W`, None: left out): `s > 0 && a >= 0 && s <= MAX / groupsize() && a <= MAX - step &&
/// e <= MAX - step`, `step = groupsize() * s` and `MAX` the largest `W`. Then the members'
/// starts `a + $$ * s` are increasing and exact, so the members that enter are a prefix of
/// `$$`, every counter below `e` steps on without overflow, and `e - a` is exact: the
/// counters of distinct iterations are distinct. The operands are uniform, without calls
/// or writes, and were just evaluated (`a`, `s` by the start, `e` by the entry test that
/// follows), so evaluating them again changes nothing and faults nowhere the loop does
/// not. Shared: every member computes the same.
fn run_time_test(start: Option<&Expr>, stride: Option<&Expr>, bound: &Expr, span: Span) -> Expr {
    let w = start.or(stride).expect("a strided loop's start").ty.clone();
    let Type::Int(k) = w else {
        unreachable!("a strided loop's arithmetic is of a signed integer type (`Cyclic`)")
    };
    let max = k.signed_max();
    let bin = |op, a: Expr, b: Expr, ty: &Type| {
        mk(
            ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty.clone(),
            span,
        )
    };
    let int = |v| mk(ExprKind::IntConst(v), w.clone(), span);
    let wide = |e: Expr| match e.ty == w {
        true => e,
        false => mk(ExprKind::Convert(Box::new(e)), w.clone(), span),
    };
    let gs = wide(mk(ExprKind::GroupSize, Type::INT, span));
    let step = match stride {
        Some(s) => bin(BinOp::Mul, gs.clone(), s.clone(), &w),
        None => gs.clone(),
    };
    let room = bin(BinOp::Sub, int(max), step, &w);
    let mut parts = Vec::new();
    if let Some(s) = stride {
        parts.push(bin(BinOp::Gt, s.clone(), int(0), &Type::INT));
    }
    if let Some(a) = start {
        parts.push(bin(BinOp::Ge, a.clone(), int(0), &Type::INT));
    }
    if let Some(s) = stride {
        let most = bin(BinOp::Div, int(max), gs, &w);
        parts.push(bin(BinOp::Le, s.clone(), most, &Type::INT));
    }
    if let Some(a) = start {
        parts.push(bin(BinOp::Le, a.clone(), room.clone(), &Type::INT));
    }
    let room = match bound.ty == w {
        true => room,
        false => mk(ExprKind::Convert(Box::new(room)), bound.ty.clone(), span),
    };
    parts.push(bin(BinOp::Le, bound.clone(), room, &Type::INT));
    let mut test = (parts.into_iter())
        .reduce(|x, y| mk(ExprKind::LogAnd(Box::new(x), Box::new(y)), Type::INT, span))
        .expect("the bound's part");
    test.sharity = Sharity::Shared;
    test
}

/// Loop `s` with every `groupsize()` in it replaced by `members`.
fn with_members(s: &Stmt, members: &Expr) -> Stmt {
    let mut s = s.clone();
    exprs_mut(&mut s, &mut |e| replace_group_size(e, members));
    s
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

/// The counter of a cyclic loop and the private locals its body sets from it first thing:
/// `r = i / W; c = i % W;` (`W` a positive constant), assigned nowhere else in the loop and
/// read in neither its condition nor its step, so that they hold the quotient and remainder
/// of the iteration's own counter wherever the rest of the body reads them. Distinct
/// counters give distinct pairs (C's division keeps `i == (i / W) * W + i % W`), so the
/// cell `b[r][c]` of rows of `W` cells, `r * W + c`, is `b`'s cell at `i`: matmul's
/// `C[i][j]` with `i = e / N; j = e % N`.
struct CounterAt {
    counter: VarId,
    /// The locals set to `i / W` (`BinOp::Div`) or `i % W` (`BinOp::Rem`), with `W`.
    parts: HashMap<VarId, (BinOp, u64)>,
}

impl CounterAt {
    /// `e` as the counter's quotient or remainder by a positive constant `W`: one of the
    /// locals set to it, or `i / W` or `i % W` itself (matmul's `A[e / N][e % N] = ...`),
    /// through widening conversions.
    fn part(&self, e: &Expr) -> Option<(BinOp, u64)> {
        match widened(e) {
            Some(x) => self.parts.get(&x).copied(),
            None => quotient_or_remainder(e, self.counter),
        }
    }

    fn of(program: &Program, lp: &Stmt, counter: VarId) -> CounterAt {
        let mut parts = HashMap::new();
        let StmtKind::Loop {
            cond, step, body, ..
        } = &lp.kind
        else {
            return CounterAt { counter, parts };
        };
        let body: &[Stmt] = match &body.kind {
            StmtKind::Block(b) => &b.stmts,
            _ => std::slice::from_ref(&**body),
        };
        let defined: Vec<_> = (body.iter())
            .map_while(|s| counter_part(program, s, counter))
            .collect();
        // Anything else that assigns or declares one of them, or reads it in the test or
        // the step, disqualifies it; so does a second definition.
        let mut touched = BTreeSet::new();
        for (k, &(x, _)) in defined.iter().enumerate() {
            if defined[..k].iter().any(|&(y, _)| y == x) {
                touched.insert(x);
            }
        }
        let mut assigned = |e: &Expr| {
            e.walk(&mut |y| {
                if let Some(ExprKind::Var(v)) = y.assigned_place().map(|p| &p.kind) {
                    touched.insert(*v);
                }
            })
        };
        body[defined.len()..]
            .iter()
            .for_each(|s| each_expr(s, &mut assigned));
        let mut read = Vec::new();
        for e in cond.iter().chain(step.iter()) {
            e.walk(&mut |y| {
                if let ExprKind::Var(v) = y.kind {
                    read.push(v);
                }
            });
        }
        touched.extend(read);
        body.iter().for_each(|s| declared(s, &mut touched));
        parts.extend(defined.into_iter().filter(|(x, _)| !touched.contains(x)));
        CounterAt { counter, parts }
    }
}

/// The variables declared in `s` or a statement nested in it.
fn declared(s: &Stmt, out: &mut BTreeSet<VarId>) {
    if let StmtKind::Decl { var, .. } = &s.kind {
        out.insert(*var);
    }
    children(s).into_iter().for_each(|c| declared(c, out));
}

/// `x = i / W;` or `x = i % W;` (through widening conversions) for a private local `x` whose
/// address is never taken.
fn counter_part(program: &Program, s: &Stmt, i: VarId) -> Option<(VarId, (BinOp, u64))> {
    let StmtKind::Expr(e) = &s.kind else {
        return None;
    };
    let ExprKind::Assign { place, value } = &strip_void(e).kind else {
        return None;
    };
    let ExprKind::Var(x) = place.kind else {
        return None;
    };
    let var = program.var(x);
    let local = var.sharity == Sharity::Private
        && !var.addr_taken
        && matches!(var.kind, VarKind::Local { .. })
        && matches!(var.ty, Type::Int(_));
    let part = quotient_or_remainder(value, i)?;
    (local && x != i).then_some((x, part))
}

/// `e` as `i / W` or `i % W` of the counter `i` by a positive constant `W`, through widening
/// conversions.
fn quotient_or_remainder(e: &Expr, i: VarId) -> Option<(BinOp, u64)> {
    let ExprKind::Binary(op @ (BinOp::Div | BinOp::Rem), a, w) = &widen_source(e).kind else {
        return None;
    };
    let w = int_constant(w).filter(|&w| w > 0)?;
    (widened(a) == Some(i)).then_some((*op, w as u64))
}

/// `*(ptr + index)`: `(ptr, index)`.
fn indexed(e: &Expr) -> Option<(&Expr, &Expr)> {
    let ExprKind::Deref(p) = &e.kind else {
        return None;
    };
    match &p.kind {
        ExprKind::PtrOffset { ptr, index, .. } => Some((ptr, index)),
        _ => None,
    }
}

/// A loop body that is one or more assignments `place = value` (in a block or not), each a
/// statement: each assignment, its place and its value (`Builder::loads_ahead`, and the
/// loop's emission).
pub(crate) fn stores(body: &Stmt) -> Option<Vec<(&Expr, &Expr, &Expr)>> {
    let stmts = match &body.kind {
        StmtKind::Block(b) if !b.stmts.is_empty() => b.stmts.iter().collect(),
        _ => vec![body],
    };
    (stmts.into_iter())
        .map(|s| {
            let StmtKind::Expr(e) = &s.kind else {
                return None;
            };
            let e = strip_void(e);
            match &e.kind {
                ExprKind::Assign { place, value } => Some((e, &**place, &**value)),
                _ => None,
            }
        })
        .collect()
}

/// What `Builder::reads_only` found an expression to read.
#[derive(Default)]
struct Reads {
    /// It loads shared memory.
    loads: bool,
    /// What it reads: the objects of its loads, and the variables it names.
    roots: BTreeSet<Target>,
}

/// The array an array-to-pointer decay reads.
fn strip_decay(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Decay(x) => Some(x),
        _ => None,
    }
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
