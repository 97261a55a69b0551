//! Sequence points inside a synchronous statement (docs/language.md §4): the members run in
//! lockstep from one C sequence point to the next (`,`, `&&`, `||`, `?:`, a call, the end of
//! the full expression); in each such step every member reads before any member writes, and
//! the writes are visible from the next step on.
//!
//! A statement that the simple rules cannot run that way (a shared write nested in an
//! expression that also reads shared memory, a host call or synchronous multiprefix under
//! `&&`, `||` or `?:`) is *lowered*: its expression becomes a list of statements in
//! evaluation order. Every value is evaluated into a private temporary, every store of a
//! step waits in `Lowering::stores` until the step's sequence point, and rule 1 (`append`)
//! then cuts between a step's reads and its stores and between a step's stores and the next
//! step's reads. The right operand of `&&`/`||` and the arms of `?:` run for the members
//! that take them: as kernel statements under `if (taken)` (no split: `$$` and
//! `groupsize()` stay the group's), or, when they contain a host operation, in a *masked
//! block*: a host loop that forms no group and runs once for the members whose condition
//! holds (the others wait at its end, as with a shared-condition loop).

use crate::plan::{CutReason, HostLoop, HostOp};
use crate::rules::{assign_stmt, calls_async, expr_stmt, mk, truth, Builder};
use fork_frontend::hir::{
    Builtin, Expr, ExprKind, InitElem, Mode, Sharity, Stmt, StmtKind, Type, UnOp, VarId, VarKind,
};
use fork_frontend::source::Span;

/// The names of the temporaries that hold a place's address between its computation and its
/// access (`materialize_place`): stored by an assignment, or read first.
const WRITE_PLACE: &str = "addr";
const READ_PLACE: &str = "rmw_addr";

/// The name of a temporary that holds a place's address (`write`: stored next, else read).
pub fn place_temp(write: bool) -> &'static str {
    if write {
        WRITE_PLACE
    } else {
        READ_PLACE
    }
}

/// Whether a temporary holds a materialized place's address, and then whether the place is
/// written (true) or read first (false).
pub fn place_access(name: &str) -> Option<bool> {
    let kind = name
        .strip_prefix('%')?
        .trim_end_matches(|c: char| c.is_ascii_digit());
    match kind {
        WRITE_PLACE => Some(true),
        READ_PLACE => Some(false),
        _ => None,
    }
}

/// The state of one lowered statement.
#[derive(Default)]
pub(crate) struct Lowering {
    /// The stores of the current step (each already under its guard), emitted at its end.
    stores: Vec<Stmt>,
    /// The condition under which the statements emitted now run (`&&`/`||`/`?:` operands).
    guard: Option<Expr>,
}

impl Builder<'_> {
    /// Lowers a synchronous simple statement (expression, declaration, `return`) step by
    /// step; see the module documentation.
    pub(crate) fn lower_statement(&mut self, s: &Stmt, ops: &mut Vec<HostOp>) {
        let mut lw = Lowering::default();
        let span = s.span;
        match &s.kind {
            StmtKind::Expr(e) => {
                self.lower_discarded(e, &mut lw, ops);
                self.step(&mut lw, ops);
            }
            StmtKind::Return(Some(e)) => {
                let r = self.lower(e, &mut lw, ops);
                let r = self.materialize(r, &mut lw, ops);
                self.step(&mut lw, ops);
                let ret = Stmt {
                    kind: StmtKind::Return(Some(r)),
                    ..s.clone()
                };
                self.simple(ret, Mode::Sync, ops);
            }
            StmtKind::Decl {
                var,
                init: Some(init),
            } => {
                let mut values = Vec::new();
                for elem in init {
                    let r = self.lower(&elem.value, &mut lw, ops);
                    values.push(InitElem {
                        offset: elem.offset,
                        value: self.materialize(r, &mut lw, ops),
                    });
                }
                self.step(&mut lw, ops);
                let decl = Stmt {
                    kind: StmtKind::Decl {
                        var: *var,
                        init: Some(values),
                    },
                    span,
                    ..s.clone()
                };
                self.simple(decl, Mode::Sync, ops);
            }
            _ => self.simple(s.clone(), Mode::Sync, ops),
        }
    }

    /// Lowers `e`; returns what is left to evaluate (an expression without side effects,
    /// evaluated in the current step).
    fn lower(&mut self, e: &Expr, lw: &mut Lowering, ops: &mut Vec<HostOp>) -> Expr {
        if plain(e) {
            return e.clone();
        }
        let span = e.span;
        match &e.kind {
            ExprKind::Comma(a, b) => {
                self.lower_discarded(a, lw, ops);
                self.step(lw, ops);
                self.lower(b, lw, ops)
            }
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) | ExprKind::Cond(..) => {
                self.lower_branching(e, false, lw, ops)
            }
            ExprKind::Assign { place, value } => {
                // The assignment's own extent (an expression statement's span may include
                // its `;`), where the simulator reports a faulting write.
                let write = place.span.to(value.span);
                let p = self.lower_place(place, lw, ops);
                let p = self.materialize_place(p, true, write, lw, ops);
                let r = self.lower(value, lw, ops);
                let v = self.materialize(r, lw, ops);
                self.store(p, v.clone(), write, lw, ops);
                v
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                let p = self.lower_place(place, lw, ops);
                let p = self.materialize_place(p, false, place.span, lw, ops);
                let v = self.temp(place.ty.clone(), "seq", span);
                self.emit(assign_stmt(self, v, p.clone(), span), lw, ops);
                let r = self.lower(rhs, lw, ops);
                let r = self.materialize(r, lw, ops);
                let combine = ExprKind::CompoundAssign {
                    place: Box::new(self.var(v, span)),
                    op: *op,
                    rhs: Box::new(r),
                    op_ty: op_ty.clone(),
                };
                self.emit(
                    expr_stmt(mk(combine, place.ty.clone(), span), span),
                    lw,
                    ops,
                );
                let v = self.var(v, span);
                self.store(p, v.clone(), span, lw, ops);
                v
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let p = self.lower_place(place, lw, ops);
                let p = self.materialize_place(p, false, place.span, lw, ops);
                let new = self.temp(place.ty.clone(), "seq", span);
                self.emit(assign_stmt(self, new, p.clone(), span), lw, ops);
                let old = (!*prefix).then(|| {
                    let old = self.temp(place.ty.clone(), "seq", span);
                    self.emit(assign_stmt(self, old, self.var(new, span), span), lw, ops);
                    old
                });
                let step = ExprKind::IncDec {
                    place: Box::new(self.var(new, span)),
                    inc: *inc,
                    prefix: true,
                };
                self.emit(expr_stmt(mk(step, place.ty.clone(), span), span), lw, ops);
                let new = self.var(new, span);
                self.store(p, new.clone(), span, lw, ops);
                match old {
                    Some(old) => self.var(old, span),
                    None => new,
                }
            }
            ExprKind::Call { .. } => self.lower_call(e, false, lw, ops),
            ExprKind::Builtin { op, .. } if !pure_builtin(*op) => {
                self.lower_call(e, false, lw, ops)
            }
            ExprKind::AddrOf(place) | ExprKind::Decay(place) => {
                let p = self.lower_place(place, lw, ops);
                let mut out = e.clone();
                if let ExprKind::AddrOf(x) | ExprKind::Decay(x) = &mut out.kind {
                    **x = p;
                }
                out
            }
            ExprKind::Member { .. } | ExprKind::Deref(_) => self.lower_place(e, lw, ops),
            _ => {
                let mut children = Vec::new();
                e.for_each_child(|c| children.push(c.clone()));
                let lowered = self.lower_operands(&children, lw, ops, false);
                let mut out = e.clone();
                let mut it = lowered.into_iter();
                out.for_each_child_mut(|c| {
                    if let Some(l) = it.next() {
                        *c = l;
                    }
                });
                out
            }
        }
    }

    /// `&&`, `||`, `?:`: the left operand (condition) into a temporary at its sequence
    /// point, then the other operands for the members that take them (`conditional`); the
    /// value in a temporary unless `discard`.
    fn lower_branching(
        &mut self,
        e: &Expr,
        discard: bool,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
    ) -> Expr {
        let span = e.span;
        match &e.kind {
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                let and = matches!(e.kind, ExprKind::LogAnd(..));
                let ra = self.lower(a, lw, ops);
                // `left` decides who evaluates `b` (and guards its stores until they are
                // applied); `value` starts as the result of those who do not.
                let left = self.temp(Type::INT, "seq", span);
                self.emit(assign_stmt(self, left, truth(&ra), span), lw, ops);
                let lv = self.var(left, span);
                let value = (!discard).then(|| {
                    let value = self.temp(Type::INT, "seq", span);
                    self.emit(assign_stmt(self, value, lv.clone(), span), lw, ops);
                    value
                });
                self.step(lw, ops);
                let taken = if and { lv } else { not(lv) };
                self.conditional(taken, b, value, true, lw, ops);
                match value {
                    Some(v) => self.var(v, span),
                    None => void_value(span),
                }
            }
            ExprKind::Cond(c, x, y) => {
                let rc = self.lower(c, lw, ops);
                let k = self.temp(Type::INT, "seq", span);
                self.emit(assign_stmt(self, k, truth(&rc), span), lw, ops);
                self.step(lw, ops);
                let t =
                    (!discard && e.ty != Type::Void).then(|| self.temp(e.ty.clone(), "seq", span));
                let kv = self.var(k, span);
                self.conditional(kv.clone(), x, t, false, lw, ops);
                self.conditional(not(kv), y, t, false, lw, ops);
                match t {
                    Some(t) => self.var(t, span),
                    None => void_value(span),
                }
            }
            _ => self.lower(e, lw, ops),
        }
    }

    /// Lowers `e` whose value is not used: no temporary for the value of a call, `x++`,
    /// `&&`, `||`, `?:` or the right operand of a comma.
    fn lower_discarded(&mut self, e: &Expr, lw: &mut Lowering, ops: &mut Vec<HostOp>) {
        let inner = match &e.kind {
            ExprKind::Convert(x) if e.ty == Type::Void => x,
            _ => e,
        };
        if plain(inner) {
            return;
        }
        match &inner.kind {
            ExprKind::Call { .. } | ExprKind::Builtin { .. } => {
                self.lower_call(inner, true, lw, ops);
            }
            ExprKind::IncDec { place, inc, .. } => {
                let prefix = ExprKind::IncDec {
                    place: place.clone(),
                    inc: *inc,
                    prefix: true,
                };
                self.lower(&mk(prefix, inner.ty.clone(), inner.span), lw, ops);
            }
            ExprKind::Comma(a, b) => {
                self.lower_discarded(a, lw, ops);
                self.step(lw, ops);
                self.lower_discarded(b, lw, ops);
            }
            ExprKind::LogAnd(..) | ExprKind::LogOr(..) | ExprKind::Cond(..) => {
                self.lower_branching(inner, true, lw, ops);
            }
            _ => {
                self.lower(inner, lw, ops);
            }
        }
    }

    /// A call of a user function or an effectful builtin: its arguments into temporaries
    /// (a user function's call is a sequence point after them), then the call as a statement
    /// of its own; its value in a temporary unless `discard`.
    fn lower_call(
        &mut self,
        e: &Expr,
        discard: bool,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
    ) -> Expr {
        let span = e.span;
        let mut call = e.clone();
        let (ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. }) = &mut call.kind else {
            return self.lower(e, lw, ops);
        };
        *args = self.lower_operands(args, lw, ops, true);
        if matches!(e.kind, ExprKind::Call { .. }) {
            self.step(lw, ops);
        }
        if discard || call.ty == Type::Void {
            self.emit(expr_stmt(call, span), lw, ops);
            return void_value(span);
        }
        let t = self.temp(call.ty.clone(), "seq", span);
        self.emit(assign_stmt(self, t, call, span), lw, ops);
        self.var(t, span)
    }

    /// Lowers operands in evaluation order. An operand's value is kept in a temporary when a
    /// later operand has effects (or `all`), so it is read before them.
    fn lower_operands(
        &mut self,
        operands: &[Expr],
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
        all: bool,
    ) -> Vec<Expr> {
        let last_effect = operands.iter().rposition(|o| !plain(o));
        operands
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let r = self.lower(o, lw, ops);
                if all || last_effect.is_some_and(|l| i < l) {
                    self.materialize(r, lw, ops)
                } else {
                    r
                }
            })
            .collect()
    }

    /// Lowers an lvalue: its address computation, not a load.
    fn lower_place(&mut self, place: &Expr, lw: &mut Lowering, ops: &mut Vec<HostOp>) -> Expr {
        let mut out = place.clone();
        match &mut out.kind {
            ExprKind::Deref(p) => **p = self.lower(p, lw, ops),
            ExprKind::Member { base, .. } => **base = self.lower_place(base, lw, ops),
            ExprKind::Var(_) => {}
            _ => return self.lower(place, lw, ops),
        }
        out
    }

    /// The place with its address in a temporary (`*%p`) computed now, unless it is a
    /// variable. The temporary's name says how the place is accessed next (`write`: stored
    /// by an assignment, else read first), so that the GPU checks the address where it is
    /// computed from its base pointer as that access (`place_access`), at `access` (the
    /// span the simulator reports a fault of that access at).
    fn materialize_place(
        &mut self,
        place: Expr,
        write: bool,
        access: Span,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
    ) -> Expr {
        if matches!(place.kind, ExprKind::Var(_)) {
            return place;
        }
        let span = place.span;
        let ptr_ty = Type::Ptr(Box::new(place.ty.clone()));
        let addr = mk(
            ExprKind::AddrOf(Box::new(place.clone())),
            ptr_ty.clone(),
            access,
        );
        let a = self.temp(ptr_ty, place_temp(write), span);
        self.emit(assign_stmt(self, a, addr, span), lw, ops);
        let mut deref = mk(
            ExprKind::Deref(Box::new(self.var(a, span))),
            place.ty.clone(),
            span,
        );
        deref.sharity = Sharity::Private;
        deref
    }

    /// `r` evaluated now into a temporary (constants and temporaries stay).
    fn materialize(&mut self, r: Expr, lw: &mut Lowering, ops: &mut Vec<HostOp>) -> Expr {
        let keep = match &r.kind {
            ExprKind::IntConst(_) | ExprKind::FloatConst(_) | ExprKind::Str(_) => true,
            ExprKind::Var(v) => self.program.var(*v).name.starts_with('%'),
            _ => r.ty == Type::Void,
        };
        if keep {
            return r;
        }
        let span = r.span;
        let t = self.temp(r.ty.clone(), "seq", span);
        self.emit(assign_stmt(self, t, r, span), lw, ops);
        self.var(t, span)
    }

    /// A store of the current step. A register (a private scalar no one else sees) is
    /// written at once, as the simulator does; memory waits for the step's end.
    /// `span`: the assignment's, where the simulator reports a fault of the write.
    fn store(
        &mut self,
        place: Expr,
        value: Expr,
        span: Span,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
    ) {
        let ty = place.ty.clone();
        let register = match &place.kind {
            ExprKind::Var(v) => {
                let var = self.program.var(*v);
                var.sharity == Sharity::Private
                    && !var.addr_taken
                    && var.ty.is_scalar()
                    && !matches!(var.kind, VarKind::Global)
            }
            _ => false,
        };
        let assign = ExprKind::Assign {
            place: Box::new(place),
            value: Box::new(value),
        };
        let s = expr_stmt(mk(assign, ty, span), span);
        if register {
            self.emit(s, lw, ops);
        } else {
            let s = guarded(&lw.guard, s);
            lw.stores.push(s);
        }
    }

    /// A sequence point: the stores of the step that ends.
    fn step(&mut self, lw: &mut Lowering, ops: &mut Vec<HostOp>) {
        for s in std::mem::take(&mut lw.stores) {
            self.emit_stmt(s, ops);
        }
    }

    /// A statement of the lowered sequence, under the current guard.
    fn emit(&mut self, s: Stmt, lw: &Lowering, ops: &mut Vec<HostOp>) {
        self.emit_stmt(guarded(&lw.guard, s), ops);
    }

    /// A guarded statement holds no host operation (`conditional` sees to that): a kernel
    /// statement, or the asynchronous call it makes.
    fn emit_stmt(&mut self, s: Stmt, ops: &mut Vec<HostOp>) {
        match &s.kind {
            StmtKind::If { then, .. } if calls_async(&self.program, then) => {
                self.async_call_statement(s, ops)
            }
            StmtKind::If { .. } => self.kernel_statement(s, Mode::Sync, ops),
            _ => self.simple(s, Mode::Sync, ops),
        }
    }

    /// The operand `arm` for the members where `taken` holds; its value goes to `result`
    /// (as `0`/`1` when `truth`).
    fn conditional(
        &mut self,
        taken: Expr,
        arm: &Expr,
        result: Option<VarId>,
        as_truth: bool,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
    ) {
        let span = arm.span;
        let eff = self.summaries.expr(&self.program, arm);
        let finish = |b: &mut Self, r: Expr, lw: &mut Lowering, ops: &mut Vec<HostOp>| {
            if let Some(t) = result {
                let v = if as_truth { truth(&r) } else { r };
                b.emit(assign_stmt(b, t, v, span), lw, ops);
            }
        };
        // A host call here may be one of a `straight` function that needs lockstep, which
        // its effects do not count as `host` (asynchronous code calls it on the device).
        if !(eff.host || eff.multiprefix || self.contains_hoisted(arm)) {
            let outer = lw.guard.clone();
            lw.guard = Some(match &outer {
                Some(g) => mk(
                    ExprKind::LogAnd(Box::new(g.clone()), Box::new(taken)),
                    Type::INT,
                    span,
                ),
                None => taken,
            });
            self.lower_arm(arm, result, lw, ops, finish);
            lw.guard = outer;
            return;
        }
        // A host operation under the condition: a masked block (see the module doc).
        let mask = self.temp(Type::INT, "mask", span);
        self.emit(assign_stmt(self, mask, truth(&taken), span), lw, ops);
        self.close(ops, CutReason::HostConstruct);
        let mut inner = Lowering::default();
        let mut body = Vec::new();
        self.lower_arm(arm, result, &mut inner, &mut body, finish);
        self.step(&mut inner, &mut body);
        let zero = mk(ExprKind::IntConst(0), Type::INT, span);
        self.emit(assign_stmt(self, mask, zero, span), &inner, &mut body);
        self.close(&mut body, CutReason::BlockEnd);
        let name = format!("{}: masked operand", self.program.func(self.func).name);
        let shared_frame = self.new_frame(name);
        ops.push(HostOp::Loop(HostLoop {
            cond: Some(mask),
            test_first: true,
            forms_group: false,
            entry_cond: Vec::new(),
            body,
            latch: Vec::new(),
            shared_frame,
            span,
        }));
    }

    /// An operand of `conditional`: its value to `finish`, or discarded without a result.
    fn lower_arm(
        &mut self,
        arm: &Expr,
        result: Option<VarId>,
        lw: &mut Lowering,
        ops: &mut Vec<HostOp>,
        finish: impl Fn(&mut Self, Expr, &mut Lowering, &mut Vec<HostOp>),
    ) {
        match result {
            Some(_) => {
                let r = self.lower(arm, lw, ops);
                finish(self, r, lw, ops);
            }
            None => self.lower_discarded(arm, lw, ops),
        }
    }

    fn var(&self, v: VarId, span: Span) -> Expr {
        mk(ExprKind::Var(v), self.program.var(v).ty.clone(), span)
    }
}

/// Whether `e` has no side effect and no sequence point that matters: evaluating it later
/// in the same step gives the same value (and evaluating it earlier or later than another
/// expression without effects changes neither).
pub(crate) fn plain(e: &Expr) -> bool {
    let here = match &e.kind {
        ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::Call { .. } => false,
        ExprKind::Builtin { op, .. } => pure_builtin(*op),
        _ => true,
    };
    let mut plain = here;
    e.for_each_child(|c| plain &= self::plain(c));
    plain
}

/// Builtins without an effect other than their value.
fn pure_builtin(op: Builtin) -> bool {
    !matches!(
        op,
        Builtin::Printf
            | Builtin::Multiprefix(_)
            | Builtin::SyncUpdate(_)
            | Builtin::Shmalloc
            | Builtin::Shfree
            | Builtin::Malloc
            | Builtin::Free
            | Builtin::Assert
            | Builtin::StackRoom
    )
}

fn not(e: Expr) -> Expr {
    let span = e.span;
    mk(ExprKind::Unary(UnOp::LogNot, Box::new(e)), Type::INT, span)
}

/// `if (guard) s`, or `s` without a guard.
fn guarded(guard: &Option<Expr>, s: Stmt) -> Stmt {
    match guard {
        None => s,
        Some(g) => Stmt {
            kind: StmtKind::If {
                cond: g.clone(),
                then: Box::new(s.clone()),
                els: None,
            },
            ..s
        },
    }
}

/// The value of a void expression that was lowered away.
fn void_value(span: Span) -> Expr {
    mk(ExprKind::IntConst(0), Type::Void, span)
}
