//! The splitting rules (docs/transformation-rules.md): a host function's body becomes kernels and
//! host ops. Statements accumulate in the *open kernel*; a rule closes it where a barrier
//! across processors is needed and emits the host construct.
//!
//! Each rule is one method: `append` (rule 1: cut where a write may meet a read or write of
//! the open kernel), `read_before_write` (rule 1: right-hand sides into temporaries),
//! `hoist_host_calls` (rule 2), `split_private_branch`, `host_switch` and `split_fork`
//! (rule 3; `breakable_arm` for a `switch` case left by a conditional `break`), `host_loop`
//! (rule 4), leaving under a private condition (rule 5: `break`, `continue`, `return` stay
//! kernel statements, see `plan`, "Leaving"), `seq_region`, `farm_region`, `start_region` and
//! asynchronous code (rule 6), plus `hoist_multiprefix` (a synchronous `mpadd` is a
//! host-ordered scan). A synchronous statement that these cannot run in lockstep between its
//! sequence points goes to `sequence::lower_statement`.

use crate::effects::{Effects, Objects, Summaries};
use crate::plan::{
    CutReason, HostFnId, HostLoop, HostOp, Kernel, KernelId, SharedFrame, SharedFrameId, Split,
    SplitKind,
};
use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::hir::{
    BinOp, Builtin, Expr, ExprKind, FnKind, FuncId, InitElem, Mode, Program, Sharity, Stmt,
    StmtKind, SwitchCase, Type, UnOp, Var, VarId, VarKind,
};
use fork_frontend::source::Span;
use std::collections::HashMap;

pub const E0501: Code = Code {
    id: "E0501",
    title: "a construct the transform cannot split into kernels",
    explain: "The transform (the Plan used by `forkcc build` and `forkcc run`) does not handle \
this construct in this position: a `barrier`, or a call of an asynchronous function that \
synchronises, under a private condition (`if`, `switch`) in asynchronous code. The processors \
that skip it meet the others at their next barrier, which kernels cut at each barrier cannot \
express.\n\nMove the `barrier` out of the condition (every processor of the region reaches it), \
or run the part that synchronises in a synchronous region (`start`, a `sync` function). \
`forkcc sim` runs every checked program.",
};

/// The kernel being filled.
struct OpenKernel {
    mode: Mode,
    /// The shared memory its statements read and write.
    reads: Objects,
    writes: Objects,
    body: Vec<Stmt>,
    span: Span,
}

/// Builds the kernels and host graphs of a whole program.
pub struct Builder<'s> {
    pub program: Program,
    pub kernels: Vec<Kernel>,
    pub shared_frames: Vec<SharedFrame>,
    /// Shared locals and parameters of host functions: their frame and offset.
    pub shared_homes: HashMap<VarId, (SharedFrameId, u64)>,
    pub diagnostics: Vec<Diagnostic>,
    pub(crate) summaries: &'s Summaries,
    host_fns: HashMap<FuncId, HostFnId>,
    pub(crate) func: FuncId,
    open: Option<OpenKernel>,
    scopes: Vec<SharedFrameId>,
    temps: u32,
}

impl<'s> Builder<'s> {
    pub fn new(
        program: Program,
        summaries: &'s Summaries,
        host_fns: HashMap<FuncId, HostFnId>,
    ) -> Builder<'s> {
        Builder {
            func: program.main,
            program,
            kernels: Vec::new(),
            shared_frames: Vec::new(),
            shared_homes: HashMap::new(),
            diagnostics: Vec::new(),
            summaries,
            host_fns,
            open: None,
            scopes: Vec::new(),
            temps: 0,
        }
    }

    /// Compiles one host function's body; returns its graph and its outermost shared frame.
    pub fn function(&mut self, func: FuncId, mode: Mode) -> (Vec<HostOp>, SharedFrameId) {
        self.func = func;
        let f = self.program.func(func).clone();
        let frame = self.new_frame(f.name.clone());
        self.scopes.push(frame);
        for p in &f.params {
            if self.program.var(*p).sharity == Sharity::Shared {
                self.place_shared(*p);
            }
        }
        let mut ops = Vec::new();
        self.block(&f.body.stmts, mode, &mut ops);
        self.close(&mut ops, CutReason::BlockEnd);
        self.scopes.pop();
        (ops, frame)
    }

    /// A private temporary of the current function.
    pub fn temp(&mut self, ty: Type, what: &str, span: Span) -> VarId {
        let id = VarId(self.program.vars.len() as u32);
        self.temps += 1;
        self.program.vars.push(Var {
            name: format!("%{what}{}", self.temps),
            ty,
            sharity: Sharity::Private,
            kind: VarKind::Local { func: self.func },
            addr_taken: false,
            span,
        });
        id
    }

    pub(crate) fn new_frame(&mut self, name: String) -> SharedFrameId {
        self.shared_frames.push(SharedFrame { name, bytes: 0 });
        SharedFrameId(self.shared_frames.len() as u32 - 1)
    }

    fn place_shared(&mut self, var: VarId) {
        let Some(&frame) = self.scopes.last() else {
            return;
        };
        let ty = &self.program.var(var).ty;
        let (size, align) = (
            ty.size(&self.program.structs),
            ty.align(&self.program.structs),
        );
        let offset =
            crate::storage::bump(&mut self.shared_frames[frame.0 as usize].bytes, size, align);
        self.shared_homes.insert(var, (frame, offset));
    }

    fn effects(&self, s: &Stmt) -> Effects {
        self.summaries.stmt(&self.program, s)
    }

    fn error(&mut self, span: Span, message: impl Into<String>, help: &str) {
        self.diagnostics.push(
            Diagnostic::error(&E0501, span, message)
                .with_label("the transform cannot split this")
                .with_help(help),
        );
    }

    // ---- the open kernel ----

    /// Appends a statement to the open kernel. Rule 1: in a synchronous region every member
    /// finishes a statement before any member starts the next, so a statement starts a new
    /// kernel when it may read what the open kernel writes, or write what it reads or
    /// writes (another processor may run it earlier in the same kernel).
    fn append(&mut self, stmt: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        if self.open.as_ref().is_some_and(|k| k.mode != mode) {
            self.close(ops, CutReason::HostConstruct);
        }
        let eff = self.effects(&stmt);
        if let (Mode::Sync, Some(k)) = (mode, &self.open) {
            if k.writes.may_overlap(&eff.reads) || k.writes.may_overlap(&eff.writes) {
                self.close(ops, CutReason::SharedWrite);
            } else if k.reads.may_overlap(&eff.writes) {
                self.close(ops, CutReason::WriteAfterRead);
            }
        }
        match &mut self.open {
            Some(k) => {
                k.span = k.span.to(stmt.span);
                k.reads.union(&eff.reads);
                k.writes.union(&eff.writes);
                k.body.push(stmt);
            }
            None => {
                self.open = Some(OpenKernel {
                    mode,
                    reads: eff.reads,
                    writes: eff.writes,
                    span: stmt.span,
                    body: vec![stmt],
                })
            }
        }
    }

    /// Ends the open kernel (if any) and launches it.
    pub(crate) fn close(&mut self, ops: &mut Vec<HostOp>, ends: CutReason) {
        if let Some(k) = self.open.take() {
            let id = KernelId(self.kernels.len() as u32);
            let name = format!("k{}_{}", id.0, self.program.func(self.func).name);
            self.kernels.push(Kernel {
                name,
                func: self.func,
                mode: k.mode,
                body: k.body,
                span: k.span,
                ends,
            });
            ops.push(HostOp::Launch(id));
        }
    }

    // ---- statements ----

    fn block(&mut self, stmts: &[Stmt], mode: Mode, ops: &mut Vec<HostOp>) {
        for s in stmts {
            self.stmt(s, mode, ops);
        }
    }

    fn stmt(&mut self, s: &Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        match &s.kind {
            StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Return(_) => {
                return self.simple(s.clone(), mode, ops)
            }
            // Rule 5: leaving stays a kernel statement (see `plan`, "Leaving").
            StmtKind::Break | StmtKind::Continue => return self.append(s.clone(), mode, ops),
            _ => {}
        }
        if self.fits_kernel(s, &self.effects(s), mode) {
            return self.kernel_statement(s.clone(), mode, ops);
        }
        match &s.kind {
            StmtKind::Block(b) => self.block(&b.stmts, mode, ops),
            StmtKind::If { cond, then, els } => {
                if cond.sharity == Sharity::Private && mode == Mode::Sync {
                    self.split_private_branch(cond, then, els.as_deref(), s.span, ops)
                } else if cond.sharity == Sharity::Shared {
                    self.host_branch(cond, then, els.as_deref(), mode, ops)
                } else {
                    self.error(
                        s.span,
                        "a `barrier` or host call under a private condition in asynchronous code",
                        "move the `barrier` out of the condition, or synchronise in a `start` block or a `sync` function; `forkcc sim` runs the program as it is",
                    )
                }
            }
            StmtKind::Loop { .. } if self.only_needs_loop_group(s, mode) => {
                self.loop_group_kernel(s, ops)
            }
            StmtKind::Loop { .. } => self.host_loop(s, mode, ops),
            StmtKind::Switch { cond, cases } => self.host_switch(cond, cases, s.span, mode, ops),
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => self.split_fork(count, at, dollar.as_ref(), body, s.span, ops),
            StmtKind::Start(body) => self.start_region(body, ops),
            StmtKind::Farm(body) => self.farm_region(body, ops),
            StmtKind::Seq(body) => self.seq_region(body, ops),
            StmtKind::Barrier => self.close(ops, CutReason::Barrier),
            // Simple statements and leaving were handled above.
            _ => {}
        }
    }

    /// Whether a compound statement can run inside one kernel: no host construct, and in a
    /// synchronous region no cut inside and, for a private condition, nothing that depends
    /// on the subgroup the split would form.
    fn fits_kernel(&self, s: &Stmt, eff: &Effects, mode: Mode) -> bool {
        if eff.host {
            return false;
        }
        if mode == Mode::Async {
            return true;
        }
        !(eff.needs_cut() || self.needs_subgroup(s))
    }

    /// Whether `s` or a statement nested in it splits the group and depends on the subgroup.
    fn needs_subgroup(&self, s: &Stmt) -> bool {
        if s.splits_group() && self.subgroup_dependent(s) {
            return true;
        }
        match &s.kind {
            StmtKind::Block(b) => b.stmts.iter().any(|s| self.needs_subgroup(s)),
            StmtKind::If { then, els, .. } => {
                self.needs_subgroup(then) || els.as_ref().is_some_and(|e| self.needs_subgroup(e))
            }
            StmtKind::Loop { body, .. } => self.needs_subgroup(body),
            StmtKind::Switch { cases, .. } => cases
                .iter()
                .any(|c| c.body.iter().any(|s| self.needs_subgroup(s))),
            _ => false,
        }
    }

    /// Whether the part of a splitting statement that runs in the subgroup (the branches;
    /// for a loop also its condition and step) depends on the group running it.
    fn subgroup_dependent(&self, s: &Stmt) -> bool {
        let p = &self.program;
        let sums = self.summaries;
        match &s.kind {
            StmtKind::If { then, els, .. } => {
                sums.stmt(p, then).group_dependent
                    || els
                        .as_ref()
                        .is_some_and(|e| sums.stmt(p, e).group_dependent)
            }
            StmtKind::Switch { cases, .. } => {
                cases.iter().any(|c| sums.block(p, &c.body).group_dependent)
            }
            _ => sums.stmt(p, s).group_dependent,
        }
    }

    /// Expression statements, declarations, `return`: host calls and synchronous multiprefix
    /// are hoisted, then rule 1 decides whether the kernel ends here.
    pub(crate) fn simple(&mut self, mut s: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        if mode == Mode::Sync && !self.hoisting_keeps_order(&mut s) {
            return self.lower_statement(&s, ops);
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
        self.kernel_statement(s, mode, ops);
        if unconditional_return {
            self.close(ops, CutReason::Return);
            ops.push(HostOp::Return);
        }
    }

    /// A synchronous statement that calls an `async` function: it runs like a `farm`.
    pub(crate) fn async_call_statement(&mut self, s: Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        self.append(s, Mode::Async, ops);
        self.close(ops, CutReason::Barrier);
    }

    /// Whether running the host calls and synchronous multiprefix operations of a
    /// synchronous statement first (`hoist_host_calls`, `hoist_multiprefix`) keeps the
    /// simulator's order: each runs for every member (not under `&&`, `||`, `?:`), its
    /// arguments write no shared memory, and it touches no shared memory that what is
    /// evaluated before it writes, nor writes what that reads. Otherwise the statement is
    /// lowered step by step (`sequence`).
    fn hoisting_keeps_order(&self, s: &mut Stmt) -> bool {
        let mut keeps = true;
        for_each_expr_mut(s, |e| {
            keeps &=
                !self.conditional_hoist(e, false) && self.hoist_order(e, &mut Effects::default())
        });
        keeps
    }

    /// `hoisting_keeps_order` for `e`; `before`: what was evaluated before it.
    fn hoist_order(&self, e: &Expr, before: &mut Effects) -> bool {
        let eff = self.summaries.expr(&self.program, e);
        if !self.contains_hoisted(e) {
            before.reads.union(&eff.reads);
            before.writes.union(&eff.writes);
            return true;
        }
        match &e.kind {
            ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } if self.hoisted(e) => {
                let mut eff = eff;
                if let (ExprKind::Builtin { .. }, Some(v)) =
                    (&e.kind, args.first().and_then(cell_var))
                {
                    // A multiprefix on `&v` or `&v[i]` touches `v` only.
                    let cell = Objects {
                        vars: [v].into(),
                        unknown: false,
                    };
                    eff.reads.union(&cell);
                    eff.writes = cell;
                    eff.reads.unknown = args
                        .iter()
                        .any(|a| self.summaries.expr(&self.program, a).reads.unknown);
                }
                let conflicts = eff.writes.may_overlap(&before.reads)
                    || eff.writes.may_overlap(&before.writes)
                    || eff.reads.may_overlap(&before.writes);
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
                    .reads
                    .union(&self.summaries.expr(&self.program, place).reads);
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
    fn place_order(&self, place: &Expr, before: &mut Effects) -> bool {
        match &place.kind {
            ExprKind::Var(_) => true,
            ExprKind::Deref(p) => self.hoist_order(p, before),
            ExprKind::Member { base, .. } => self.place_order(base, before),
            _ => self.hoist_order(place, before),
        }
    }

    /// A host call or a synchronous multiprefix (what `simple` hoists).
    fn hoisted(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Call { func, .. } => self.host_fns.contains_key(func),
            ExprKind::Builtin {
                op: Builtin::Multiprefix(_) | Builtin::SyncUpdate(_),
                ..
            } => true,
            _ => false,
        }
    }

    fn contains_hoisted(&self, e: &Expr) -> bool {
        let mut found = self.hoisted(e);
        e.for_each_child(|c| found = found || self.contains_hoisted(c));
        found
    }

    /// Whether a synchronous simple statement (its host calls hoisted) must be lowered step
    /// by step (`sequence`): it reads and writes shared memory in a shape `read_before_write`
    /// does not take (a nested shared write, or a declaration or `return` whose value writes
    /// shared memory other than by a call).
    fn needs_lowering(&self, s: &Stmt) -> bool {
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
    fn read_before_write_takes(&self, e: &Expr) -> bool {
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

    /// A statement that runs inside a kernel (`append` applies rule 1). In a synchronous
    /// region output ends the kernel: each statement's lines appear in `$$` order.
    pub(crate) fn kernel_statement(&mut self, s: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        let prints = self.effects(&s).prints;
        self.append(s, mode, ops);
        if mode == Mode::Sync && prints {
            self.close(ops, CutReason::Output);
        }
    }

    /// Rule 1, read before write: a synchronous statement that reads and writes shared
    /// memory. Every member evaluates the target address and the value into private
    /// temporaries in one kernel; the next kernel stores them. (All reads of all members
    /// happen before any write.)
    fn read_before_write(&mut self, e: &Expr, span: Span, ops: &mut Vec<HostOp>) {
        let e = strip_void(e);
        match &e.kind {
            ExprKind::Comma(a, b) => {
                for part in [a, b] {
                    let s = expr_stmt((**part).clone(), span);
                    self.simple(s, Mode::Sync, ops);
                }
            }
            // A device function that reads and writes shared memory runs per thread without
            // barriers inside: exact when the members' accesses are disjoint (or the group
            // has one member, as in a sequential base case); the kernel ends after it.
            ExprKind::Assign { value, .. }
                if matches!(value.kind, ExprKind::Call { .. })
                    && self.summaries.expr(&self.program, value).writes_shared() =>
            {
                self.append(expr_stmt(e.clone(), span), Mode::Sync, ops)
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
    fn address_temps(
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
    fn store_temps(&mut self, addr: VarId, val: VarId, span: Span, ops: &mut Vec<HostOp>) {
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
    fn conditional_hoist(&self, e: &Expr, conditional: bool) -> bool {
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
    fn hoist_host_calls(&mut self, e: &mut Expr, mode: Mode, ops: &mut Vec<HostOp>) {
        e.for_each_child_mut(|c| self.hoist_host_calls(c, mode, ops));
        let ExprKind::Call { func, args } = &e.kind else {
            return;
        };
        let Some(&callee) = self.host_fns.get(func) else {
            return;
        };
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
        ops.push(HostOp::Call {
            callee,
            args: arg_slots,
            result,
            span,
        });
        *e = match result {
            Some(r) => self.var_expr(r, span),
            None => void_noop(span),
        };
    }

    /// A synchronous `mpadd`/`syncadd`: the open kernel evaluates the cell address and the
    /// value into temporaries and ends; the host's `Multiprefix` combines them in
    /// `__PROC_NR__` order; the result temporary replaces the call.
    fn hoist_multiprefix(&mut self, e: &mut Expr, ops: &mut Vec<HostOp>) {
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
        let (p, v) = (p.clone(), v.clone());
        let s = assign_stmt(self, ptr, p, span);
        self.append(s, Mode::Sync, ops);
        let s = assign_stmt(self, value, v, span);
        self.append(s, Mode::Sync, ops);
        self.close(ops, CutReason::HostConstruct);
        let result = returns.then(|| self.temp(e.ty.clone(), "mp_res", span));
        ops.push(HostOp::Multiprefix {
            op: mp,
            ptr,
            value,
            result,
            span,
        });
        *e = match result {
            Some(r) => self.var_expr(r, span),
            None => void_noop(span),
        };
    }

    /// Evaluates a condition into a new `int` slot (0 or 1) and ends the kernel.
    fn condition_slot(&mut self, cond: &Expr, mode: Mode, ops: &mut Vec<HostOp>) -> VarId {
        let span = cond.span;
        let slot = self.temp(Type::INT, "cond", span);
        let value = truth(cond);
        let s = assign_stmt(self, slot, value, span);
        self.simple(s, mode, ops);
        self.close(ops, CutReason::HostConstruct);
        slot
    }

    /// Compiles `s` as a block of its own for a new group scope; the open kernel ends at the
    /// block's end.
    fn scoped_block(&mut self, s: &Stmt, mode: Mode, scope: &str) -> (Vec<HostOp>, SharedFrameId) {
        let name = format!("{}: {scope}", self.program.func(self.func).name);
        let frame = self.new_frame(name);
        self.scopes.push(frame);
        let mut ops = Vec::new();
        self.stmt(s, mode, &mut ops);
        self.close(&mut ops, CutReason::BlockEnd);
        self.scopes.pop();
        (ops, frame)
    }

    /// Rule 3: an `if` on a private condition whose branches need a cut (or depend on the
    /// subgroup): condition kernel, `Split{if}`, the branch kernels per subgroup, restore.
    fn split_private_branch(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) {
        let cond = self.condition_slot(cond, Mode::Sync, ops);
        let (then_ops, then_frame) = self.scoped_block(then, Mode::Sync, "then");
        let (else_ops, else_frame) = match els {
            Some(e) => self.scoped_block(e, Mode::Sync, "else"),
            None => (Vec::new(), self.new_frame("(empty else)".into())),
        };
        ops.push(HostOp::Split(Split {
            kind: SplitKind::If { cond },
            arms: vec![then_ops, else_ops],
            shared_frames: vec![then_frame, else_frame],
            span,
        }));
    }

    /// An `if` on a shared condition that contains a cut: the whole group takes one branch,
    /// the host reads the condition.
    fn host_branch(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        mode: Mode,
        ops: &mut Vec<HostOp>,
    ) {
        let cond = self.condition_slot(cond, mode, ops);
        let mut then_ops = Vec::new();
        self.stmt(then, mode, &mut then_ops);
        self.close(&mut then_ops, CutReason::BlockEnd);
        let mut else_ops = Vec::new();
        if let Some(e) = els {
            self.stmt(e, mode, &mut else_ops);
            self.close(&mut else_ops, CutReason::BlockEnd);
        }
        ops.push(HostOp::Branch {
            cond,
            then: then_ops,
            els: else_ops,
        });
    }

    /// Rule 3 for a `switch` whose cases need a cut: the kernel evaluates, per case, whether
    /// a member enters there; then a chain of `Split{if}` (private condition: one subgroup per
    /// entry case, in case order) or of host branches (shared condition). Each arm runs the
    /// case bodies from its entry case, falling through to the first `break`.
    fn host_switch(
        &mut self,
        cond: &Expr,
        cases: &[SwitchCase],
        span: Span,
        mode: Mode,
        ops: &mut Vec<HostOp>,
    ) {
        let splits = cond.sharity == Sharity::Private;
        if splits && mode == Mode::Async {
            return self.error(
                span,
                "a `barrier` or host call under a private `switch` in asynchronous code",
                "move the `barrier` out of the `switch`, or synchronise in a `start` block or a `sync` function; `forkcc sim` runs the program as it is",
            );
        }
        let value = self.temp(cond.ty.clone(), "switch", span);
        let s = assign_stmt(self, value, cond.clone(), span);
        self.simple(s, mode, ops);
        let is = |b: &Self, v: i64, op: BinOp| {
            let lhs = b.var_expr(value, span);
            let rhs = mk(ExprKind::IntConst(v), cond.ty.clone(), span);
            mk(
                ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                Type::INT,
                span,
            )
        };
        let mut enters = Vec::new();
        for case in cases {
            let test = match case.value {
                Some(v) => is(self, v, BinOp::Eq),
                // `default`: no value matches.
                None => cases
                    .iter()
                    .filter_map(|c| c.value)
                    .map(|v| is(self, v, BinOp::Ne))
                    .reduce(|a, b| mk(ExprKind::LogAnd(Box::new(a), Box::new(b)), Type::INT, span))
                    .unwrap_or_else(|| mk(ExprKind::IntConst(1), Type::INT, span)),
            };
            let slot = self.temp(Type::INT, "case", case.span);
            let s = assign_stmt(self, slot, test, case.span);
            self.simple(s, mode, ops);
            enters.push(slot);
        }
        self.close(ops, CutReason::HostConstruct);
        let mut arms = Vec::new();
        for i in 0..cases.len() {
            let mut body = Vec::new();
            fall_through(cases.iter().skip(i).flat_map(|c| &c.body), &mut body);
            let name = format!("{}: case", self.program.func(self.func).name);
            let frame = self.new_frame(name);
            self.scopes.push(frame);
            let mut arm = Vec::new();
            if body.iter().any(breaks_switch) {
                self.breakable_arm(&body, mode, cases[i].span, &mut arm);
            } else {
                self.block(&body, mode, &mut arm);
            }
            self.close(&mut arm, CutReason::BlockEnd);
            self.scopes.pop();
            arms.push((arm, frame));
        }
        // Members that enter no case skip the switch: the innermost else is empty.
        let mut chain = Vec::new();
        for ((arm, frame), cond) in arms.into_iter().zip(enters).rev() {
            let op = if splits {
                let rest_frame = self.new_frame("(rest of switch)".into());
                HostOp::Split(Split {
                    kind: SplitKind::If { cond },
                    arms: vec![arm, chain],
                    shared_frames: vec![frame, rest_frame],
                    span,
                })
            } else {
                HostOp::Branch {
                    cond,
                    then: arm,
                    els: chain,
                }
            };
            chain = vec![op];
        }
        ops.extend(chain);
    }

    /// A `switch` arm that a `break` under a condition may leave from the middle: a host
    /// loop that forms no group and runs once, so the `break` is an ordinary leave (`plan`,
    /// "Leaving") that the loop's restore clears. A `continue` of the enclosing loop inside
    /// becomes `%cont = 1; break;` and is repeated after the arm.
    fn breakable_arm(&mut self, body: &[Stmt], mode: Mode, span: Span, ops: &mut Vec<HostOp>) {
        let int = |v| mk(ExprKind::IntConst(v), Type::INT, span);
        let cont = body
            .iter()
            .any(has_continue)
            .then(|| self.temp(Type::INT, "cont", span));
        let once = self.temp(Type::INT, "once", span);
        let s = assign_stmt(self, once, int(1), span);
        self.simple(s, mode, ops);
        if let Some(c) = cont {
            let s = assign_stmt(self, c, int(0), span);
            self.simple(s, mode, ops);
        }
        self.close(ops, CutReason::HostConstruct);
        let name = format!("{}: switch case", self.program.func(self.func).name);
        let frame = self.new_frame(name);
        self.scopes.push(frame);
        let mut loop_body = Vec::new();
        for st in body {
            let st = match cont {
                Some(c) => continue_as_break(self, st, c),
                None => st.clone(),
            };
            self.stmt(&st, mode, &mut loop_body);
        }
        let s = assign_stmt(self, once, int(0), span);
        self.simple(s, mode, &mut loop_body);
        self.close(&mut loop_body, CutReason::BlockEnd);
        self.scopes.pop();
        ops.push(HostOp::Loop(HostLoop {
            cond: Some(once),
            test_first: false,
            forms_group: false,
            entry_cond: Vec::new(),
            body: loop_body,
            latch: Vec::new(),
            shared_frame: frame,
            span,
        }));
        if let Some(c) = cont {
            let again = leave_if(self, c, StmtKind::Continue, mode, span);
            self.append(again, mode, ops);
        }
    }

    /// Rule 3 for `fork (k; @ = e1; $ = e2) S`: the kernel evaluates k, e1, e2 into slots;
    /// `Split{fork}`; the body per subgroup; restore.
    fn split_fork(
        &mut self,
        count: &Expr,
        at: &Expr,
        dollar: Option<&Expr>,
        body: &Stmt,
        span: Span,
        ops: &mut Vec<HostOp>,
    ) {
        let mut slot = |b: &mut Self, e: &Expr, what: &str| {
            let t = b.temp(e.ty.clone(), what, e.span);
            let s = assign_stmt(b, t, e.clone(), e.span);
            b.simple(s, Mode::Sync, ops);
            t
        };
        let count = slot(self, count, "fork_k");
        let at = slot(self, at, "fork_at");
        let dollar = dollar.map(|d| slot(self, d, "fork_dollar"));
        self.close(ops, CutReason::HostConstruct);
        let (body_ops, frame) = self.scoped_block(body, Mode::Sync, "fork body");
        ops.push(HostOp::Split(Split {
            kind: SplitKind::Fork { count, at, dollar },
            arms: vec![body_ops],
            shared_frames: vec![frame],
            span,
        }));
    }

    /// Whether a loop stays out of a kernel only because it uses the loop group's `$$` or
    /// `groupsize()`: a private condition in a synchronous region, nothing else that needs
    /// a cut or a subgroup.
    fn only_needs_loop_group(&self, s: &Stmt, mode: Mode) -> bool {
        let StmtKind::Loop { cond, body, .. } = &s.kind else {
            return false;
        };
        let eff = self.effects(s);
        mode == Mode::Sync
            && cond.as_ref().is_some_and(|c| c.sharity == Sharity::Private)
            && !eff.host
            && !eff.needs_cut()
            && !self.needs_subgroup(body)
    }

    /// Rule 4 for a loop with no cut inside that uses its loop group: `Split{if}` on the
    /// entry condition forms the loop group (the then-group: fresh `$$`, `groupsize()` of the
    /// members that enter), and one kernel runs the whole loop in it, as `do ... while`
    /// (the entry test is the split's).
    fn loop_group_kernel(&mut self, s: &Stmt, ops: &mut Vec<HostOp>) {
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
        let name = format!("{}: loop group", self.program.func(self.func).name);
        let frame = self.new_frame(name);
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
            kind: SplitKind::If { cond: slot },
            arms: vec![arm, Vec::new()],
            shared_frames: vec![frame, self.new_frame("(not entering)".into())],
            span: s.span,
        }));
    }

    /// Rule 4: a loop whose body needs a cut runs on the host: entry condition, body,
    /// latch (step and condition, fused into the body's last kernel when no `continue`
    /// leaves it), loop-exit update and all-exited test, restore.
    fn host_loop(&mut self, s: &Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
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
        match (cond, slot) {
            (Some(c), Some(slot)) if *test_first => {
                let s = assign_stmt(self, slot, truth(c), c.span);
                self.simple(s, mode, &mut entry_cond);
                self.close(&mut entry_cond, CutReason::HostConstruct);
            }
            _ => self.close(ops, CutReason::HostConstruct),
        }
        let name = format!("{}: loop body", self.program.func(self.func).name);
        let frame = self.new_frame(name);
        self.scopes.push(frame);
        let mut body_ops = Vec::new();
        self.stmt(body, mode, &mut body_ops);
        let fuse = !has_continue(body);
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

    /// `start S`: a barrier of all processors, the root group runs S synchronously.
    fn start_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let (body, shared_frame) = self.scoped_block(body, Mode::Sync, "start");
        ops.push(HostOp::Start { body, shared_frame });
    }

    /// `farm S`: asynchronous kernels (cut only at `barrier`), a group barrier at the end.
    fn farm_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        self.stmt(body, Mode::Async, ops);
        self.close(ops, CutReason::Barrier);
    }

    /// `seq S`: one processor (`$$ == 0`) runs S; one processor needs no cut, so S is
    /// compiled as asynchronous code.
    fn seq_region(&mut self, body: &Stmt, ops: &mut Vec<HostOp>) {
        self.close(ops, CutReason::HostConstruct);
        let mut seq_ops = Vec::new();
        self.stmt(body, Mode::Async, &mut seq_ops);
        self.close(&mut seq_ops, CutReason::BlockEnd);
        ops.push(HostOp::Seq(seq_ops));
    }

    // ---- HIR construction ----

    fn var_ty(&self, v: VarId) -> Type {
        self.program.var(v).ty.clone()
    }

    fn var_expr(&self, v: VarId, span: Span) -> Expr {
        mk(ExprKind::Var(v), self.var_ty(v), span)
    }

    /// `*p` for a pointer temporary.
    fn load(&self, p: VarId, span: Span) -> Expr {
        let ty = self.var_ty(p).pointee().cloned().unwrap_or(Type::Void);
        let mut e = mk(ExprKind::Deref(Box::new(self.var_expr(p, span))), ty, span);
        e.sharity = Sharity::Private;
        e
    }
}

pub(crate) fn mk(kind: ExprKind, ty: Type, span: Span) -> Expr {
    Expr {
        kind,
        ty,
        sharity: Sharity::Private,
        span,
    }
}

pub(crate) fn expr_stmt(e: Expr, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Expr(e),
        mode: Mode::Sync,
        span,
    }
}

pub(crate) fn assign_stmt(b: &Builder, var: VarId, value: Expr, span: Span) -> Stmt {
    let ty = b.var_ty(var);
    let assign = ExprKind::Assign {
        place: Box::new(b.var_expr(var, span)),
        value: Box::new(value),
    };
    expr_stmt(mk(assign, ty, span), span)
}

/// `!!c`: a scalar condition as `int` 0 or 1.
pub(crate) fn truth(c: &Expr) -> Expr {
    let not = |e: Expr| {
        mk(
            ExprKind::Unary(UnOp::LogNot, Box::new(e)),
            Type::INT,
            c.span,
        )
    };
    not(not(c.clone()))
}

/// What a hoisted void call leaves behind: no value, no effect.
fn void_noop(span: Span) -> Expr {
    mk(ExprKind::IntConst(0), Type::Void, span)
}

fn is_void_noop(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Expr(e) if e.ty == Type::Void && matches!(strip_void(e).kind, ExprKind::IntConst(_)))
}

fn strip_void(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Convert(x) if e.ty == Type::Void => x,
        _ => e,
    }
}

/// Applies `f` to every top-level expression of a simple statement.
fn for_each_expr_mut(s: &mut Stmt, mut f: impl FnMut(&mut Expr)) {
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::Decl {
            init: Some(init), ..
        } => init.iter_mut().for_each(|InitElem { value, .. }| f(value)),
        _ => {}
    }
}

/// Whether `e` is a call whose arguments write no shared memory.
fn direct_call_of_plain_args(e: &Expr, writes: &dyn Fn(&Expr) -> bool) -> bool {
    matches!(&e.kind, ExprKind::Call { args, .. } if !args.iter().any(writes))
}

/// Whether a simple statement calls an `async` function (device code that runs like `farm`).
pub(crate) fn calls_async(program: &Program, s: &Stmt) -> bool {
    fn walk(program: &Program, e: &Expr) -> bool {
        let mut found = matches!(&e.kind, ExprKind::Call { func, .. } if program.func(*func).kind == FnKind::Async);
        e.for_each_child(|c| found |= walk(program, c));
        found
    }
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => walk(program, e),
        StmtKind::Decl {
            init: Some(init), ..
        } => init.iter().any(|i| walk(program, &i.value)),
        _ => false,
    }
}

/// The statements a member entering at a case runs: the case bodies from there on (blocks
/// opened, as their declarations are unique variables), up to the first `break` that is
/// under no condition.
fn fall_through<'a>(stmts: impl IntoIterator<Item = &'a Stmt>, body: &mut Vec<Stmt>) -> bool {
    for s in stmts {
        match &s.kind {
            StmtKind::Break => return true,
            StmtKind::Block(b) => {
                if fall_through(&b.stmts, body) {
                    return true;
                }
            }
            _ => body.push(s.clone()),
        }
    }
    false
}

/// The variable a cell address `&v`, `&v[i]`, `&v.f` lies in (not through a pointer value).
fn cell_var(addr: &Expr) -> Option<VarId> {
    fn place(e: &Expr) -> Option<VarId> {
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

/// `if (var) leave;` for a `break` or `continue`.
fn leave_if(b: &Builder, var: VarId, leave: StmtKind, mode: Mode, span: Span) -> Stmt {
    let stmt = |kind| Stmt { kind, mode, span };
    stmt(StmtKind::If {
        cond: b.var_expr(var, span),
        then: Box::new(stmt(leave)),
        els: None,
    })
}

/// `s` with each `continue` of the loop around the `switch` replaced by `cont = 1; break;`
/// (`breakable_arm`).
fn continue_as_break(b: &Builder, s: &Stmt, cont: VarId) -> Stmt {
    let mut out = s.clone();
    match &mut out.kind {
        StmtKind::Continue => {
            let one = mk(ExprKind::IntConst(1), Type::INT, s.span);
            let brk = Stmt {
                kind: StmtKind::Break,
                ..s.clone()
            };
            let set = Stmt {
                mode: s.mode,
                ..assign_stmt(b, cont, one, s.span)
            };
            out.kind = StmtKind::Block(fork_frontend::hir::Block {
                stmts: vec![set, brk],
                span: s.span,
            });
        }
        StmtKind::Block(blk) => {
            blk.stmts = blk
                .stmts
                .iter()
                .map(|x| continue_as_break(b, x, cont))
                .collect();
        }
        StmtKind::If { then, els, .. } => {
            **then = continue_as_break(b, then, cont);
            if let Some(e) = els {
                **e = continue_as_break(b, e, cont);
            }
        }
        StmtKind::Switch { cases, .. } if cases.iter().any(|c| c.body.iter().any(has_continue)) => {
            for c in cases.iter_mut() {
                c.body = c
                    .body
                    .iter()
                    .map(|x| continue_as_break(b, x, cont))
                    .collect();
            }
            // The `break` left only this switch: leave the arm too.
            let again = leave_if(b, cont, StmtKind::Break, s.mode, s.span);
            out = Stmt {
                kind: StmtKind::Block(fork_frontend::hir::Block {
                    stmts: vec![out, again],
                    span: s.span,
                }),
                ..s.clone()
            };
        }
        _ => {}
    }
    out
}

/// Whether `s` contains a `break` that leaves the enclosing `switch` (not one of a nested
/// loop or switch).
fn breaks_switch(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => b.stmts.iter().any(breaks_switch),
        StmtKind::If { then, els, .. } => {
            breaks_switch(then) || els.as_deref().is_some_and(breaks_switch)
        }
        StmtKind::Fork { body, .. }
        | StmtKind::Farm(body)
        | StmtKind::Seq(body)
        | StmtKind::Start(body) => breaks_switch(body),
        _ => false,
    }
}

/// Whether a `continue` in `s` continues the loop whose body `s` is.
fn has_continue(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_continue),
        StmtKind::If { then, els, .. } => {
            has_continue(then) || els.as_deref().is_some_and(has_continue)
        }
        StmtKind::Switch { cases, .. } => cases.iter().any(|c| c.body.iter().any(has_continue)),
        StmtKind::Fork { body, .. }
        | StmtKind::Farm(body)
        | StmtKind::Seq(body)
        | StmtKind::Start(body) => has_continue(body),
        _ => false,
    }
}
