//! Rules 1 and 2 on simple statements (expressions, declarations, `return`): host calls and
//! synchronous multiprefix are hoisted out of the statement (`hoist_host_calls`,
//! `hoist_multiprefix`), a statement that reads and writes shared memory evaluates its values
//! into temporaries before it stores them (`read_before_write`), and what neither keeps in
//! lockstep goes to `sequence::lower_statement`. Also the host side of a `straight` function
//! that needs lockstep (`lockstep_straight`).

use super::*;
use crate::effects::exposed_reads;
use crate::plan::{Call, CutReason, Multiprefix};
use fork_frontend::hir::{BinOp, Builtin, InitElem, MpOp};

impl Builder<'_> {
    /// Expression statements, declarations, `return`: host calls and synchronous multiprefix
    /// are hoisted, then rule 1 decides whether the kernel ends here.
    pub(crate) fn simple(&mut self, mut s: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        if mode == Mode::Sync && !self.hoisting_keeps_order(&mut s) {
            return self.lower_statement(&s, ops);
        }
        let distinct = mode == Mode::Sync && self.distinct_store(&s);
        if mode == Mode::Sync {
            discard_multiprefix_result(&mut s);
        }
        for_each_expr_mut(&mut s, |e| self.hoist_host_calls(e, mode, ops));
        if mode == Mode::Sync {
            for_each_expr_mut(&mut s, |e| self.hoist_multiprefix(e, ops));
        }
        if is_void_noop(&s) {
            return;
        }
        if mode == Mode::Sync && self.needs_lowering(&s) {
            return self.lower_statement(&s, ops);
        }
        if let StmtKind::Decl { var, .. } = &s.kind {
            if self.program.var(*var).sharity == Sharity::Shared {
                self.place_shared(*var);
            }
        }
        let unconditional_return = matches!(s.kind, StmtKind::Return(_));
        if mode == Mode::Sync && calls_async(&self.program, &s) {
            return self.async_call_statement(s, ops);
        }
        let eff = self.effects(&s);
        if mode == Mode::Sync && eff.reads.may_overlap(&eff.writes) {
            if let StmtKind::Expr(e) = &s.kind {
                let e = e.clone();
                return self.read_before_write(&e, s.span, ops);
            }
        }
        let span = s.span;
        self.kernel_statement(s, mode, ops);
        if distinct {
            // It prints nothing, so `kernel_statement` left its kernel open.
            self.appended_distinct_store(span);
        }
        if unconditional_return {
            self.close(ops, CutReason::Return);
            ops.push(HostOp::Return);
        }
    }

    /// A synchronous statement that calls an `async` function: it runs like a `farm`.
    pub(crate) fn async_call_statement(&mut self, s: Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let call = async_callee(&self.program, &s);
        let span = call
            .and_then(|(f, _)| self.program.func(f).body.stmts.first())
            .map_or(s.span, |first| first.span);
        self.traced_async_region(span, call, ops, |b, ops| {
            b.append(s, Mode::Async, ops);
            b.close(ops, CutReason::Barrier(None));
        });
    }

    /// Whether running the host calls and synchronous multiprefix operations of a
    /// synchronous statement first (`hoist_host_calls`, `hoist_multiprefix`) keeps the
    /// simulator's order: each runs for every member (not under `&&`, `||`, `?:`), its
    /// arguments write no shared memory, and it touches no shared memory that what is
    /// evaluated before it writes, nor writes what that reads. Otherwise the statement is
    /// lowered step by step (`sequence`).
    pub(crate) fn hoisting_keeps_order(&self, s: &mut Stmt) -> bool {
        let mut keeps = true;
        for_each_expr_mut(s, |e| {
            keeps &=
                !self.conditional_hoist(e, false) && self.hoist_order(e, &mut Before::default())
        });
        keeps
    }

    /// `hoisting_keeps_order` for `e`; `before`: what was evaluated before it.
    pub(crate) fn hoist_order(&self, e: &Expr, before: &mut Before) -> bool {
        let eff = self.summaries.expr(&self.program, e);
        if !self.contains_hoisted(e) {
            before.shared.reads.union(&eff.reads);
            before.shared.writes.union(&eff.writes);
            before.private_reads |= exposed_reads(&self.program, e).private;
            return true;
        }
        match &e.kind {
            ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } if self.hoisted(e) => {
                let mut eff = eff;
                if let (ExprKind::Builtin { .. }, Some(v)) =
                    (&e.kind, args.first().and_then(cell_var))
                {
                    // A multiprefix on `&v` or `&v[i]` touches `v` only.
                    let cell = Objects::var(v);
                    eff.reads.union(&cell);
                    eff.writes = cell;
                    eff.reads.unknown = args
                        .iter()
                        .any(|a| self.summaries.expr(&self.program, a).reads.unknown);
                }
                let conflicts = eff.writes.may_overlap(&before.shared.reads)
                    || eff.writes.may_overlap(&before.shared.writes)
                    || eff.reads.may_overlap(&before.shared.writes)
                    || before.private_reads;
                let args_keep = args.iter().all(|a| {
                    !self.summaries.expr(&self.program, a).writes_shared()
                        && self.hoist_order(a, before)
                });
                !conflicts && args_keep
            }
            ExprKind::Assign { place, value } => {
                self.place_order(place, before) && self.hoist_order(value, before)
            }
            ExprKind::CompoundAssign { place, rhs, .. } => {
                let keeps = self.place_order(place, before);
                // The old value is read before the right-hand side.
                before
                    .shared
                    .reads
                    .union(&self.summaries.expr(&self.program, place).reads);
                before.private_reads |= exposed_reads(&self.program, place).private;
                keeps && self.hoist_order(rhs, before)
            }
            _ => {
                let mut keeps = true;
                e.for_each_child(|c| keeps = keeps && self.hoist_order(c, before));
                keeps
            }
        }
    }

    /// `hoist_order` for the address computation of an lvalue.
    pub(crate) fn place_order(&self, place: &Expr, before: &mut Before) -> bool {
        match &place.kind {
            ExprKind::Var(_) => true,
            ExprKind::Deref(p) => self.hoist_order(p, before),
            ExprKind::Member { base, .. } => self.place_order(base, before),
            _ => self.hoist_order(place, before),
        }
    }

    /// A host call or a synchronous multiprefix (what `simple` hoists).
    pub(crate) fn hoisted(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Call { func, .. } => self.host_fns.contains_key(func),
            ExprKind::Builtin {
                op: Builtin::Multiprefix(_) | Builtin::SyncUpdate(_),
                ..
            } => true,
            _ => false,
        }
    }

    pub(crate) fn contains_hoisted(&self, e: &Expr) -> bool {
        let mut found = self.hoisted(e);
        e.for_each_child(|c| found = found || self.contains_hoisted(c));
        found
    }

    /// Whether a synchronous simple statement (its host calls hoisted) must be lowered step
    /// by step (`sequence`): it reads and writes shared memory in a shape `read_before_write`
    /// does not take (a nested shared write, or a declaration or `return` whose value writes
    /// shared memory other than by a call).
    pub(crate) fn needs_lowering(&self, s: &Stmt) -> bool {
        let eff = self.effects(s);
        if !eff.reads.may_overlap(&eff.writes) {
            return false;
        }
        let writes = |x: &Expr| self.summaries.expr(&self.program, x).writes_shared();
        match &s.kind {
            StmtKind::Expr(e) => !self.read_before_write_takes(e),
            // A device call runs per processor, as a statement of its own would.
            StmtKind::Return(Some(e)) => !direct_call_of_plain_args(strip_void(e), &writes),
            StmtKind::Decl {
                init: Some(init), ..
            } => !init
                .iter()
                .all(|i| !writes(&i.value) || direct_call_of_plain_args(&i.value, &writes)),
            _ => false,
        }
    }

    /// The shapes `read_before_write` runs exactly: a comma of statements, an assignment
    /// whose target and value write no shared memory, a call (a device function, per
    /// processor) whose arguments write none.
    pub(crate) fn read_before_write_takes(&self, e: &Expr) -> bool {
        let writes = |x: &Expr| self.summaries.expr(&self.program, x).writes_shared();
        match &strip_void(e).kind {
            ExprKind::Comma(..) => true,
            ExprKind::Assign { place, value } => {
                !writes(place) && (!writes(value) || direct_call_of_plain_args(value, &writes))
            }
            ExprKind::CompoundAssign { place, rhs, .. } => !writes(place) && !writes(rhs),
            ExprKind::IncDec { place, .. } => !writes(place),
            ExprKind::Call { .. } => direct_call_of_plain_args(strip_void(e), &writes),
            _ => false,
        }
    }

    /// Rule 1, read before write: a synchronous statement that reads and writes shared
    /// memory. Every member evaluates the target address and the value into private
    /// temporaries in one kernel; the next kernel stores them. (All reads of all members
    /// happen before any write.)
    pub(crate) fn read_before_write(&mut self, e: &Expr, span: Span, ops: &mut Vec<HostOp>) {
        let e = strip_void(e);
        match &e.kind {
            ExprKind::Comma(a, b) => {
                for part in [a, b] {
                    let s = expr_stmt((**part).clone(), span);
                    self.simple(s, Mode::Sync, ops);
                }
            }
            ExprKind::Assign { place, value } => {
                // The assignment's own extent (the statement's span includes its `;`), where
                // the simulator reports a faulting write.
                let write = place.span.to(value.span);
                let (addr, val) = self.address_temps(place, true, write, ops);
                let s = assign_stmt(self, val, (**value).clone(), span);
                self.append(s, Mode::Sync, ops);
                self.store_temps(addr, val, write, ops);
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                let (addr, val) = self.address_temps(place, false, place.span, ops);
                let load = self.load(addr, span);
                let s = assign_stmt(self, val, load, span);
                self.append(s, Mode::Sync, ops);
                let combine = ExprKind::CompoundAssign {
                    place: Box::new(self.var_expr(val, span)),
                    op: *op,
                    rhs: rhs.clone(),
                    op_ty: op_ty.clone(),
                };
                let s = expr_stmt(mk(combine, place.ty.clone(), span), span);
                self.append(s, Mode::Sync, ops);
                self.store_temps(addr, val, e.span, ops);
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let (addr, val) = self.address_temps(place, false, place.span, ops);
                let load = self.load(addr, span);
                let s = assign_stmt(self, val, load, span);
                self.append(s, Mode::Sync, ops);
                let step = ExprKind::IncDec {
                    place: Box::new(self.var_expr(val, span)),
                    inc: *inc,
                    prefix: *prefix,
                };
                let s = expr_stmt(mk(step, place.ty.clone(), span), span);
                self.append(s, Mode::Sync, ops);
                self.store_temps(addr, val, e.span, ops);
            }
            ExprKind::Call { .. } => self.append(expr_stmt(e.clone(), span), Mode::Sync, ops),
            // `needs_lowering` sends every other shape to `lower_statement`.
            _ => self.lower_statement(&expr_stmt(e.clone(), span), ops),
        }
    }

    /// The first half of `read_before_write`: `%addr = &place`, and a slot for the value.
    /// `write`: the place is stored by an assignment, else read first; `span`: where the
    /// simulator reports a fault of that access (`sequence::place_access`).
    pub(crate) fn address_temps(
        &mut self,
        place: &Expr,
        write: bool,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) -> (VarId, VarId) {
        let addr = self.temp(
            Type::Ptr(Box::new(place.ty.clone())),
            crate::sequence::place_temp(write),
            span,
        );
        let val = self.temp(place.ty.clone(), "val", span);
        let addr_of = mk(
            ExprKind::AddrOf(Box::new(place.clone())),
            self.var_ty(addr),
            span,
        );
        let s = assign_stmt(self, addr, addr_of, span);
        self.append(s, Mode::Sync, ops);
        (addr, val)
    }

    /// The second half of `read_before_write`: a new kernel stores `*addr = val`.
    pub(crate) fn store_temps(
        &mut self,
        addr: VarId,
        val: VarId,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) {
        self.close(ops, CutReason::ReadBeforeWrite);
        let place = self.load(addr, span);
        let value = self.var_expr(val, span);
        let ty = place.ty.clone();
        let store = ExprKind::Assign {
            place: Box::new(place),
            value: Box::new(value),
        };
        self.append(expr_stmt(mk(store, ty, span), span), Mode::Sync, ops);
    }

    /// Whether a host call or synchronous multiprefix is reached only by some evaluations
    /// (right of `&&`/`||`, a branch of `?:`): hoisting it would run it unconditionally.
    pub(crate) fn conditional_hoist(&self, e: &Expr, conditional: bool) -> bool {
        if conditional && self.hoisted(e) {
            return true;
        }
        let mut found = false;
        match &e.kind {
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                found = self.conditional_hoist(a, conditional) || self.conditional_hoist(b, true);
            }
            ExprKind::Cond(c, a, b) => {
                found = self.conditional_hoist(c, conditional)
                    || self.conditional_hoist(a, true)
                    || self.conditional_hoist(b, true);
            }
            _ => e.for_each_child(|c| found = found || self.conditional_hoist(c, conditional)),
        }
        found
    }

    /// Rule 2: each call of a host function (a `sync` function, or an `async` one that
    /// synchronises) becomes a host `Call`: the open kernel evaluates the arguments into
    /// temporaries and ends; the call's value is the result temporary afterwards.
    pub(crate) fn hoist_host_calls(&mut self, e: &mut Expr, mode: Mode, ops: &mut Vec<HostOp>) {
        e.for_each_child_mut(|c| self.hoist_host_calls(c, mode, ops));
        let ExprKind::Call { func, args } = &e.kind else {
            return;
        };
        let Some(&callee) = self.host_fns.get(func) else {
            return;
        };
        if mode == Mode::Async
            && self.program.func(*func).kind == FnKind::Straight
            && !self.summaries.is_host_fn(*func)
        {
            // Asynchronous code runs a `straight` function per processor: a device call.
            // One that synchronises is compiled in place (`inline`).
            return;
        }
        let span = e.span;
        let mut arg_slots = Vec::new();
        for a in args.clone() {
            let t = self.temp(a.ty.clone(), "arg", span);
            let s = assign_stmt(self, t, a, span);
            self.append(s, mode, ops);
            arg_slots.push(t);
        }
        self.close(ops, CutReason::HostConstruct);
        let result = (e.ty != Type::Void).then(|| self.temp(e.ty.clone(), "res", span));
        ops.push(HostOp::Call(Call {
            callee,
            args: arg_slots,
            result,
            span,
        }));
        *e = match result {
            Some(r) => self.var_expr(r, span),
            None => void_noop(span),
        };
    }

    /// A synchronous `mpadd`/`syncadd`: the open kernel evaluates the cell address and the
    /// value into temporaries and ends; the host's `Multiprefix` combines them in
    /// `__PROC_NR__` order; the result temporary replaces the call.
    pub(crate) fn hoist_multiprefix(&mut self, e: &mut Expr, ops: &mut Vec<HostOp>) {
        e.for_each_child_mut(|c| self.hoist_multiprefix(c, ops));
        let ExprKind::Builtin { op, args } = &e.kind else {
            return;
        };
        let (mp, returns) = match op {
            Builtin::Multiprefix(mp) => (*mp, true),
            Builtin::SyncUpdate(mp) => (*mp, false),
            _ => return,
        };
        let [p, v] = args.as_slice() else {
            return;
        };
        let span = e.span;
        let ptr = self.temp(p.ty.clone(), "mp_cell", span);
        let value = self.temp(v.ty.clone(), "mp_val", span);
        let (p, mut v) = (p.clone(), v.clone());
        // In a predicated arm every member names the cell (`predicable`), and those that do
        // not take the arm add the identity.
        let guard = self.guard.take();
        if let Some(g) = guard {
            let identity = mk(ExprKind::IntConst(identity(mp)), v.ty.clone(), span);
            let ty = v.ty.clone();
            v = mk(
                ExprKind::Cond(
                    Box::new(self.var_expr(g, span)),
                    Box::new(v),
                    Box::new(identity),
                ),
                ty,
                span,
            );
        }
        let s = assign_stmt(self, ptr, p, span);
        self.append(s, Mode::Sync, ops);
        let s = assign_stmt(self, value, v, span);
        self.append(s, Mode::Sync, ops);
        self.guard = guard;
        self.close(ops, CutReason::HostConstruct);
        let result = returns.then(|| self.temp(e.ty.clone(), "mp_res", span));
        ops.push(HostOp::Multiprefix(Multiprefix {
            op: mp,
            ptr,
            value,
            result,
            span,
        }));
        *e = match result {
            Some(r) => self.var_expr(r, span),
            None => void_noop(span),
        };
    }

    /// The host side of a `straight` function that needs lockstep
    /// (`Summaries::straight_needs_lockstep`): a group of one member calls it as the device
    /// function (one processor is its own lockstep, and the device function is much cheaper
    /// than host steps); a larger group runs its body like a `sync` function's, and so does
    /// one member where the body makes host calls (of an `async` function with a `seq`,
    /// say), which no kernel can run.
    pub(crate) fn lockstep_straight(&mut self, func: FuncId, ops: &mut Vec<HostOp>) {
        let f = self.program.func(func).clone();
        if self.summaries.is_host_fn(func) {
            self.block(&f.body.stmts, Mode::Sync, ops);
            return self.close(ops, CutReason::BlockEnd);
        }
        let span = f.span;
        let one = mk(
            ExprKind::Binary(
                BinOp::Eq,
                Box::new(mk(ExprKind::GroupSize, Type::INT, span)),
                Box::new(mk(ExprKind::IntConst(1), Type::INT, span)),
            ),
            Type::INT,
            span,
        );
        let alone = self.condition_slot(&one, Mode::Sync, ops);
        let args = f.params.iter().map(|p| self.var_expr(*p, span)).collect();
        let call = mk(ExprKind::Call { func, args }, f.ret.clone(), span);
        let ret = (f.ret != Type::Void).then_some(call.clone());
        let mut device = Vec::new();
        if ret.is_none() {
            self.append(expr_stmt(call, span), Mode::Sync, &mut device);
        }
        let leave = Stmt {
            kind: StmtKind::Return(ret),
            mode: Mode::Sync,
            span,
        };
        self.append(leave, Mode::Sync, &mut device);
        self.close(&mut device, CutReason::Return);
        device.push(HostOp::Return);
        let mut lockstep = Vec::new();
        self.block(&f.body.stmts, Mode::Sync, &mut lockstep);
        self.close(&mut lockstep, CutReason::BlockEnd);
        ops.push(HostOp::Branch {
            cond: alone,
            then: device,
            els: lockstep,
        });
    }
}

/// `mpadd(p, v);` as a whole statement is `syncadd(p, v);`: nothing reads its result, which
/// would otherwise be left behind as a statement without effect.
fn discard_multiprefix_result(s: &mut Stmt) {
    let StmtKind::Expr(e) = &mut s.kind else {
        return;
    };
    let e = match e.kind {
        ExprKind::Convert(ref mut x) if e.ty == Type::Void => &mut **x,
        _ => e,
    };
    if let ExprKind::Builtin { op, .. } = &mut e.kind {
        if let Builtin::Multiprefix(mp) = *op {
            *op = Builtin::SyncUpdate(mp);
        }
    }
}

/// What a hoisted void call leaves behind: no value, no effect.
pub(crate) fn void_noop(span: Span) -> Expr {
    mk(ExprKind::IntConst(0), Type::Void, span)
}

pub(crate) fn is_void_noop(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(e) if e.ty == Type::Void && matches!(strip_void(e).kind, ExprKind::IntConst(_)))
}

pub(crate) fn strip_void(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Convert(x) if e.ty == Type::Void => x,
        _ => e,
    }
}

/// Applies `f` to every top-level expression of a simple statement.
pub(crate) fn for_each_expr_mut(s: &mut Stmt, mut f: impl FnMut(&mut Expr)) {
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::Decl {
            init: Some(init), ..
        } => init.iter_mut().for_each(|InitElem { value, .. }| f(value)),
        _ => {}
    }
}

/// Whether `e` is a call whose arguments write no shared memory.
pub(crate) fn direct_call_of_plain_args(e: &Expr, writes: &dyn Fn(&Expr) -> bool) -> bool {
    matches!(&e.kind, ExprKind::Call { args, .. } if !args.iter().any(writes))
}

/// Whether a simple statement calls an `async` function (device code that runs like `farm`).
pub(crate) fn calls_async(program: &Program, s: &Stmt) -> bool {
    async_callee(program, s).is_some()
}

/// The first `async` function a simple statement (or the `then` of a guarded one) calls, and
/// the call.
fn async_callee(program: &Program, s: &Stmt) -> Option<(FuncId, Span)> {
    fn walk(program: &Program, e: &Expr) -> Option<(FuncId, Span)> {
        let mut found = match &e.kind {
            ExprKind::Call { func, .. } if program.func(*func).kind == FnKind::Async => {
                Some((*func, e.span))
            }
            _ => None,
        };
        e.for_each_child(|c| found = found.or_else(|| walk(program, c)));
        found
    }
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => walk(program, e),
        StmtKind::Decl {
            init: Some(init), ..
        } => init.iter().find_map(|i| walk(program, &i.value)),
        StmtKind::If { then, .. } => async_callee(program, then),
        _ => None,
    }
}

/// The variable a cell address `&v`, `&v[i]`, `&v.f` lies in (not through a pointer value).
/// The value that leaves a multiprefix's cell and the other members' results as they are.
fn identity(op: MpOp) -> i64 {
    match op {
        MpOp::Add | MpOp::Or => 0,
        MpOp::And => -1,
        MpOp::Max => i32::MIN.into(),
        MpOp::Min => i32::MAX.into(),
    }
}

/// Whether the multiprefix cell `addr` is `&v` (through members): every member can name it
/// without a fault.
pub(crate) fn named_cell(addr: &Expr) -> bool {
    fn place(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(_) => true,
            ExprKind::Member { base, .. } => place(base),
            _ => false,
        }
    }
    matches!(&addr.kind, ExprKind::AddrOf(x) if place(x))
}

pub(crate) fn cell_var(addr: &Expr) -> Option<VarId> {
    pub(crate) fn place(e: &Expr) -> Option<VarId> {
        match &e.kind {
            ExprKind::Var(v) => Some(*v),
            ExprKind::Member { base, .. } => place(base),
            ExprKind::Deref(p) => match &p.kind {
                ExprKind::PtrOffset { ptr, .. } => match &ptr.kind {
                    ExprKind::Decay(a) => place(a),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }
    match &addr.kind {
        ExprKind::AddrOf(p) => place(p),
        _ => None,
    }
}

/// What a synchronous statement evaluates before a host call that `simple` would hoist
/// (`hoisting_keeps_order`): the call would then run before it.
#[derive(Default)]
pub(crate) struct Before {
    shared: Effects,
    /// It reads private memory the call could write (`effects::Exposed`).
    private_reads: bool,
}
