//! The splitting rules (docs/transformation-rules.md): a host function's body becomes kernels and
//! host ops. Statements accumulate in the *open kernel*; a rule closes it where a barrier
//! across processors is needed and emits the host construct.
//!
//! This module holds the `Builder`, the open kernel and rule 1's cut (`append`, `close`) and
//! the statement dispatch (`stmt`); each family of rules is a module of its own, one method
//! per rule: `simple` (rules 1 and 2 inside a statement: `read_before_write`,
//! `hoist_host_calls`, `hoist_multiprefix`), `branches` (rule 3: `split_private_branch`,
//! `host_branch`, `host_switch`, `split_fork`), `loops` (rule 4: `host_loop`,
//! `loop_group_kernel`) and `modes` (rule 6: `start_region`, `farm_region`, `seq_region`;
//! asynchronous code is `phases::async_region`). Leaving under a private condition (rule 5:
//! `break`, `continue`, `return`) stays a kernel statement (`plan`, "Leaving"). A synchronous
//! statement that these cannot run in lockstep between its sequence points goes to
//! `sequence::lower_statement`.

use crate::effects::{Effects, Objects, Summaries};
use crate::plan::{
    AsyncRegion, CutReason, HostFnId, HostOp, Kernel, KernelId, SharedFrame, SharedFrameId,
};
use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::hir::{
    Expr, ExprKind, FnKind, FuncId, Mode, Program, Sharity, Stmt, StmtKind, Type, UnOp, Var, VarId,
    VarKind,
};
use fork_frontend::source::Span;
use std::collections::HashMap;

mod branches;
mod distinct;
mod inline;
mod loops;
mod modes;
mod outline;
pub(crate) mod recursion;
mod simple;
mod uniform;

pub(crate) use inline::only_inlined;
pub(crate) use loops::stores;
pub use outline::recurring_starts_outlined;
pub(crate) use simple::calls_async;
pub use uniform::{uniform_conditions_shared, CyclicLoops};

pub const E0501: Code = Code {
    id: "E0501",
    title: "a construct the transform cannot split into kernels",
    explain: "The transform (the Plan used by `forkcc build` and `forkcc run`) does not handle \
this construct in this position: under a private condition (`if`, `switch`) in asynchronous \
code, something that needs a host operation of the whole group for the processors that \
reach it while the others run on, which the Plan cannot express. No program that `forkcc \
check` accepts is known to reach it: a `barrier`, `start` or `seq` there makes the region \
barrier phases, a call of an asynchronous function that synchronises is compiled in place \
of the call (a recursive one as a state machine over a per-processor call stack, the body \
of a `start` it comes back through as a function of its own), and a `farm` in asynchronous \
code is a block. So this is a bug of the transform; please report it with the program.\n\n\
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
    /// Holds a cyclic loop (`Kernel::spread`).
    spread: bool,
    /// `Kernel::order_free`.
    order_free: Vec<Span>,
    /// `Kernel::loads_ahead`.
    loads_ahead: Vec<Span>,
    /// `Kernel::distinct_stores`.
    distinct_stores: Vec<Span>,
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
    /// The loops that deal out a counter over their whole group (`uniform`).
    pub(crate) cyclic_loops: CyclicLoops,
    host_fns: HashMap<FuncId, HostFnId>,
    pub(crate) func: FuncId,
    open: Option<OpenKernel>,
    scopes: Vec<SharedFrameId>,
    /// The frame layout of each group scope in the source, by (span, kind): a statement
    /// compiled more than once (a `switch` case that earlier cases fall into) has one layout,
    /// so each of its `sh` locals has one home.
    scope_frames: HashMap<(Span, &'static str), SharedFrameId>,
    temps: u32,
    /// The call chains of recursive calls' state machines with stops (`recursion`), by
    /// their `%pc`.
    pub(crate) machines: HashMap<VarId, recursion::Chain>,
    /// The chains of the state machines being compiled (`recursion`), innermost last: their
    /// variables, the digits of their calls of other recursive functions, how many of those
    /// were compiled.
    pub(crate) chain_parents: Vec<(VarId, VarId, Vec<i64>, usize)>,
    /// The `farm`s and asynchronous calls compiled so far (`Plan::async_regions`).
    pub async_regions: Vec<AsyncRegion>,
    /// The barriers of the kernels of barrier phases so far (`Plan::phase_barriers`).
    pub phase_barriers: Vec<crate::plan::PhaseBarriers>,
    /// Inside the arms of a predicated `if` (`branches`, `predicated_branch`): the private
    /// slot that says whether the member runs the statements appended now.
    pub(crate) guard: Option<VarId>,
}

impl<'s> Builder<'s> {
    pub fn new(
        program: Program,
        summaries: &'s Summaries,
        cyclic_loops: CyclicLoops,
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
            cyclic_loops,
            host_fns,
            open: None,
            scopes: Vec::new(),
            scope_frames: HashMap::new(),
            temps: 0,
            machines: HashMap::new(),
            chain_parents: Vec::new(),
            async_regions: Vec::new(),
            phase_barriers: Vec::new(),
            guard: None,
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
        match mode {
            Mode::Sync if f.kind == FnKind::Straight => self.lockstep_straight(func, &mut ops),
            Mode::Sync => self.block(&f.body.stmts, mode, &mut ops),
            Mode::Async => self.async_region(&f.body.stmts, &mut ops),
        }
        self.close(&mut ops, CutReason::BlockEnd);
        self.scopes.pop();
        (ops, frame)
    }

    /// `compile`, which compiles a region of the simulator's trace (`AsyncRegion`) into
    /// `ops`: its kernels are those it makes, its own those it adds to `ops` itself.
    pub(crate) fn traced_async_region(
        &mut self,
        span: Span,
        call: Option<(FuncId, Span)>,
        ops: &mut Vec<HostOp>,
        compile: impl FnOnce(&mut Self, &mut Vec<HostOp>),
    ) {
        let first = KernelId(self.kernels.len() as u32);
        let at = ops.len();
        compile(self, ops);
        let end = KernelId(self.kernels.len() as u32);
        let own = ops[at..].iter().find_map(|op| match op {
            HostOp::Launch(k) => Some(*k),
            _ => None,
        });
        self.async_regions.push(AsyncRegion {
            within: crate::plan::AsyncWithin::Kernels { first, end, own },
            span,
            call,
        });
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

    /// A shared temporary of the current group scope, addressed by multiprefix operations.
    pub(crate) fn shared_temp(&mut self, ty: Type, what: &str, span: Span) -> VarId {
        let id = self.temp(ty, what, span);
        let var = &mut self.program.vars[id.0 as usize];
        var.sharity = Sharity::Shared;
        var.addr_taken = true;
        self.place_shared(id);
        id
    }

    pub(crate) fn new_frame(&mut self, name: String) -> SharedFrameId {
        self.shared_frames.push(SharedFrame { name, bytes: 0 });
        SharedFrameId(self.shared_frames.len() as u32 - 1)
    }

    /// The frame layout of the group scope `scope` that the statement at `span` opens.
    pub(crate) fn scope_frame(&mut self, span: Span, scope: &'static str) -> SharedFrameId {
        if let Some(&frame) = self.scope_frames.get(&(span, scope)) {
            return frame;
        }
        let frame = self.new_frame(format!("{}: {scope}", self.program.func(self.func).name));
        self.scope_frames.insert((span, scope), frame);
        frame
    }

    fn place_shared(&mut self, var: VarId) {
        let Some(&frame) = self.scopes.last() else {
            return;
        };
        if self
            .shared_homes
            .get(&var)
            .is_some_and(|(f, _)| *f == frame)
        {
            // Placed when an earlier arm compiled the same declaration.
            return;
        }
        let ty = &self.program.var(var).ty;
        let (size, align) = (
            ty.size(&self.program.structs),
            ty.align(&self.program.structs),
        );
        let offset =
            crate::storage::bump(&mut self.shared_frames[frame.0 as usize].bytes, size, align);
        self.shared_homes.insert(var, (frame, offset));
    }

    pub(crate) fn effects(&self, s: &Stmt) -> Effects {
        self.summaries.stmt(&self.program, s)
    }

    /// E0501: `s`, an `if` or `switch` of asynchronous code on the private condition `cond`,
    /// holds a construct that needs the host for the processors that reach it
    /// (`async_host_cause`).
    fn refuse_under_private_condition(&mut self, s: &Stmt, cond: &Expr) {
        let (span, what, help) = self.async_host_cause(s).unwrap_or((
            s.span,
            "a construct that runs on the host".into(),
            "",
        ));
        self.diagnostics.push(
            Diagnostic::error(
                &E0501,
                span,
                format!("{what} under a private condition in asynchronous code"),
            )
            .with_label("the transform cannot compile this for the processors that reach it")
            .with_note(
                cond.span,
                "a private condition: some processors go on without it",
            )
            .with_help(format!("{help}; `forkcc sim` runs the program as it is")),
        );
    }

    /// The first construct in `s` that runs on the host for a group in asynchronous code: a
    /// `start`, a `seq`, or a call of a function that synchronises and is not compiled in
    /// place (`inline`): its span, what it is and what to do.
    fn async_host_cause(&self, s: &Stmt) -> Option<(Span, String, &'static str)> {
        const START: &str = "write it where every processor of the region reaches it";
        match &s.kind {
            StmtKind::Start(_) => return Some((s.span, "`start`".into(), START)),
            StmtKind::Seq(_) => return Some((s.span, "`seq`".into(), START)),
            _ => {}
        }
        let mut calls = Vec::new();
        for e in fork_frontend::sync_calls::own_exprs(s) {
            host_calls(self.summaries, e, &mut calls);
        }
        if let Some((span, func)) = calls.first() {
            let name = &self.program.func(*func).name;
            let what = if inline::recursive(&self.program, *func) {
                format!("a call of the recursive function `{name}`, which synchronises,")
            } else {
                format!("a call of `{name}`, which synchronises and is not compiled in place,")
            };
            return Some((
                *span,
                what,
                "call it where every processor of the region calls it, or put its `barrier`s into the caller",
            ));
        }
        fork_frontend::sync_calls::children(s)
            .into_iter()
            .find_map(|c| self.async_host_cause(c))
    }

    // ---- the open kernel ----

    /// Appends a statement to the open kernel. Rule 1: in a synchronous region every member
    /// finishes a statement before any member starts the next, so a statement starts a new
    /// kernel when it may read what the open kernel writes, or write what it reads or
    /// writes (another processor may run it earlier in the same kernel).
    /// Under a predicate (`guard`) the statement runs as `if (guard) stmt`.
    pub(crate) fn append(&mut self, stmt: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        let stmt = match self.guard {
            Some(g) => Stmt {
                kind: StmtKind::If {
                    cond: self.var_expr(g, stmt.span),
                    then: Box::new(stmt.clone()),
                    els: None,
                },
                ..stmt
            },
            None => stmt,
        };
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
                    spread: false,
                    order_free: Vec::new(),
                    loads_ahead: Vec::new(),
                    distinct_stores: Vec::new(),
                })
            }
        }
    }

    /// The loop `s`, just appended to the open kernel whole because it is order-free
    /// (`order_free`), is recorded in it when it writes shared memory (`Kernel::order_free`).
    pub(crate) fn appended_order_free(&mut self, s: &Stmt) {
        if !self.effects(s).writes_shared() {
            return;
        }
        let ahead = self.loads_ahead(s);
        if let Some(k) = &mut self.open {
            k.order_free.push(s.span);
            if ahead {
                k.loads_ahead.push(s.span);
            }
        }
    }

    /// The statement of span `span`, just appended to the open kernel, stores into a cell
    /// that differs between members (`distinct_store`).
    pub(crate) fn appended_distinct_store(&mut self, span: Span) {
        if let Some(k) = &mut self.open {
            k.distinct_stores.push(span);
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
                spread: k.spread,
                order_free: k.order_free,
                loads_ahead: k.loads_ahead,
                distinct_stores: k.distinct_stores,
            });
            ops.push(HostOp::Launch(id));
        }
    }

    // ---- statements ----

    pub(crate) fn block(&mut self, stmts: &[Stmt], mode: Mode, ops: &mut Vec<HostOp>) {
        for s in stmts {
            self.stmt(s, mode, ops);
        }
    }

    pub(crate) fn stmt(&mut self, s: &Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        match &s.kind {
            StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Return(_) => {
                return self.simple(s.clone(), mode, ops)
            }
            // Rule 5: leaving stays a kernel statement (see `plan`, "Leaving").
            StmtKind::Break | StmtKind::Continue => return self.append(s.clone(), mode, ops),
            _ => {}
        }
        if self.fits_kernel(s, &self.effects(s), mode) {
            self.kernel_statement(s.clone(), mode, ops);
            // In a synchronous region a loop that writes shared memory fits only if it is
            // order-free (`cut_inside`).
            if mode == Mode::Sync && matches!(s.kind, StmtKind::Loop { .. }) {
                self.appended_order_free(s);
            }
            return;
        }
        match &s.kind {
            StmtKind::Block(b) => self.block(&b.stmts, mode, ops),
            StmtKind::If { cond, then, els }
                if self.guard.is_some()
                    || cond.sharity == Sharity::Private
                        && mode == Mode::Sync
                        && self.predicable(then, els.as_deref()) =>
            {
                self.predicated_branch(cond, then, els.as_deref(), ops)
            }
            StmtKind::If { cond, then, els } => {
                if cond.sharity == Sharity::Private && mode == Mode::Sync {
                    self.split_private_branch(cond, then, els.as_deref(), s.span, ops)
                } else if cond.sharity == Sharity::Shared {
                    self.host_branch(cond, then, els.as_deref(), mode, ops)
                } else {
                    self.refuse_under_private_condition(s, cond)
                }
            }
            StmtKind::Loop { .. } if self.only_needs_loop_group(s, mode) => {
                match self.cyclic_in_group(s) {
                    Some(in_group) => self.cyclic_loop(s, in_group, mode, ops),
                    None => self.loop_group_kernel(s, ops),
                }
            }
            StmtKind::Loop { .. } => self.host_loop(s, mode, ops),
            StmtKind::Switch { cond, .. }
                if cond.sharity == Sharity::Private && mode == Mode::Async =>
            {
                self.refuse_under_private_condition(s, cond)
            }
            StmtKind::Switch { cond, cases } => self.host_switch(cond, cases, s.span, mode, ops),
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => self.split_fork(count, at, dollar.as_ref(), body, s.span, ops),
            StmtKind::Start(body) => self.start_region(body, s.span, ops),
            StmtKind::Farm(body) => self.farm_region(body, ops),
            // In asynchronous code `seq S` is `start { seq S }` (docs/language.md §8).
            StmtKind::Seq(_) if mode == Mode::Async => self.start_region(s, s.span, ops),
            StmtKind::Seq(body) => self.seq_region(body, s.span, ops),
            StmtKind::Barrier => self.close(ops, CutReason::Barrier(Some(s.span))),
            // Simple statements and leaving were handled above.
            _ => {}
        }
    }

    /// Whether a compound statement can run inside one kernel: no host construct, and in a
    /// synchronous region no cut inside and, for a private condition, nothing that depends
    /// on the subgroup the split would form.
    pub(crate) fn fits_kernel(&self, s: &Stmt, eff: &Effects, mode: Mode) -> bool {
        if eff.host {
            return false;
        }
        if mode == Mode::Async {
            return true;
        }
        !(self.cut_inside(s, eff) || self.needs_subgroup(s))
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

    /// A statement that runs inside a kernel (`append` applies rule 1). In a synchronous
    /// region output ends the kernel: each statement's lines appear in `$$` order.
    pub(crate) fn kernel_statement(&mut self, s: Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        let prints = self.effects(&s).prints;
        self.append(s, mode, ops);
        if mode == Mode::Sync && prints {
            self.close(ops, CutReason::Output);
        }
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
    fn scoped_block(
        &mut self,
        s: &Stmt,
        mode: Mode,
        scope: &'static str,
    ) -> (Vec<HostOp>, SharedFrameId) {
        let frame = self.scope_frame(s.span, scope);
        self.scopes.push(frame);
        let mut ops = Vec::new();
        self.stmt(s, mode, &mut ops);
        self.close(&mut ops, CutReason::BlockEnd);
        self.scopes.pop();
        (ops, frame)
    }

    // ---- HIR construction ----

    fn var_ty(&self, v: VarId) -> Type {
        self.program.var(v).ty.clone()
    }

    pub(crate) fn var_expr(&self, v: VarId, span: Span) -> Expr {
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

/// `program` with `return 0;` (a zeroed struct for a struct type) at the end of every
/// function that returns a value and may fall off its end: the simulator's call returns that
/// value then, and every executor and the emitted C read the return slot of the call, which
/// would otherwise hold an earlier call's value (or, in a device function, none at all).
pub fn return_zero_at_end(program: &Program) -> Program {
    let mut program = program.clone();
    for i in 0..program.funcs.len() {
        let f = &program.funcs[i];
        let falls_off = !matches!(
            f.body.stmts.last(),
            Some(Stmt {
                kind: StmtKind::Return(_),
                ..
            })
        );
        if f.ret == Type::Void || !falls_off {
            continue;
        }
        let (ty, span) = (f.ret.clone(), f.body.span);
        let mode = if f.kind == FnKind::Async {
            Mode::Async
        } else {
            Mode::Sync
        };
        let func = FuncId(i as u32);
        let mut stmts = Vec::new();
        let zero = if ty.is_scalar() {
            mk(
                ExprKind::Convert(Box::new(mk(ExprKind::IntConst(0), Type::INT, span))),
                ty,
                span,
            )
        } else {
            // A declaration without initialiser zero-fills its object each time it runs.
            let var = VarId(program.vars.len() as u32);
            program.vars.push(Var {
                name: "%zero".into(),
                ty: ty.clone(),
                sharity: Sharity::Private,
                kind: VarKind::Local { func },
                addr_taken: false,
                span,
            });
            stmts.push(Stmt {
                kind: StmtKind::Decl { var, init: None },
                mode,
                span,
            });
            mk(ExprKind::Var(var), ty, span)
        };
        stmts.push(Stmt {
            kind: StmtKind::Return(Some(zero)),
            mode,
            span,
        });
        program.funcs[i].body.stmts.extend(stmts);
    }
    program
}

/// `program` with each `farm` of asynchronous code replaced by its body: its processors are
/// already asynchronous, and it ends without a barrier (docs/language.md §8), so every rule
/// sees the block the simulator runs.
pub fn farms_in_async_code_as_blocks(program: &Program) -> Program {
    fn visit(s: &mut Stmt) {
        if let (Mode::Async, StmtKind::Farm(body)) = (s.mode, &s.kind) {
            *s = (**body).clone();
            return visit(s);
        }
        match &mut s.kind {
            StmtKind::Block(b) => b.stmts.iter_mut().for_each(visit),
            StmtKind::If { then, els, .. } => {
                visit(then);
                els.iter_mut().for_each(|e| visit(e));
            }
            StmtKind::Switch { cases, .. } => {
                cases.iter_mut().flat_map(|c| &mut c.body).for_each(visit)
            }
            StmtKind::Loop { body, .. }
            | StmtKind::Fork { body, .. }
            | StmtKind::Start(body)
            | StmtKind::Farm(body)
            | StmtKind::Seq(body) => visit(body),
            _ => {}
        }
    }
    let mut program = program.clone();
    for f in &mut program.funcs {
        f.body.stmts.iter_mut().for_each(visit);
    }
    program
}

/// The calls in `e` of functions that run on the host, with their spans, in evaluation order.
fn host_calls(summaries: &Summaries, e: &Expr, out: &mut Vec<(Span, FuncId)>) {
    e.for_each_child(|c| host_calls(summaries, c, out));
    if let ExprKind::Call { func, .. } = &e.kind {
        if summaries.is_host_fn(*func) {
            out.push((e.span, *func));
        }
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

/// A `break` or a `continue`: what `leaves` looks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leave {
    Break,
    Continue,
}

/// Whether `s` contains a `break` or `continue` that leaves `s` for the construct around it:
/// one not taken by a loop inside `s` (nor, for a `break`, by a `switch` inside `s`).
pub(crate) fn leaves(s: &Stmt, leave: Leave) -> bool {
    match &s.kind {
        StmtKind::Break => leave == Leave::Break,
        StmtKind::Continue => leave == Leave::Continue,
        StmtKind::Block(b) => b.stmts.iter().any(|s| leaves(s, leave)),
        StmtKind::If { then, els, .. } => {
            leaves(then, leave) || els.as_deref().is_some_and(|e| leaves(e, leave))
        }
        StmtKind::Switch { cases, .. } => {
            leave == Leave::Continue && cases.iter().flat_map(|c| &c.body).any(|s| leaves(s, leave))
        }
        StmtKind::Fork { body, .. }
        | StmtKind::Farm(body)
        | StmtKind::Seq(body)
        | StmtKind::Start(body) => leaves(body, leave),
        _ => false,
    }
}
