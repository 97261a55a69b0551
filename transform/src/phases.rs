//! Asynchronous code whose processors may meet at different `barrier`s (docs/language.md §4:
//! a `barrier` releases when every processor of the group waits at a barrier or has left the
//! region): a `barrier` under a private condition, or in a loop that a processor leaves or
//! skips ahead in alone (private condition, `break`, `continue`). Kernels cut at each barrier
//! cannot express that, so such a run of statements becomes *barrier phases*: one kernel,
//! launched by a host loop that forms no group, in which each processor runs from where it
//! stopped to its next barrier (or the end). A launch is one phase; the loop ends when every
//! processor has run to the end.
//!
//! A `start` under a condition or in a loop is such a stop too: it waits until the others
//! wait or have left, and those stopped at it form its group (the simulator's `AtStart`).
//! After each launch the host runs it for them (`Split{if}` on "stopped at this `start`",
//! then the `start`'s one-way `fork`); at the next launch they resume after it.
//!
//! The kernel keeps a private resume point `%phase`: 0 while running; `-k` once stopped at the
//! k-th barrier (everything after it is skipped, loops exit); at the next launch `k`, which
//! skips every statement until that barrier is found again, entering the `if` arm, `switch`
//! case or loop body that holds it without evaluating their conditions (barriers are numbered
//! in pre-order, so those inside a statement form a range). Every private local the kernel
//! uses lives in a slot, as the kernel is launched again (`storage`, `CutReason::Suspend`).

use crate::plan::{CutReason, HostLoop, HostOp, Split, SplitKind};
use crate::rules::recursion::Chain;
use crate::rules::{assign_stmt, mk, Builder};
use fork_frontend::hir::{
    BinOp, Block, Builtin, Expr, ExprKind, Mode, MpOp, Stmt, StmtKind, SwitchCase, Type, UnOp,
    VarId,
};
use fork_frontend::source::Span;

impl Builder<'_> {
    /// Compiles the statements of an asynchronous region (a function body, a `farm` or `seq`
    /// body). Calls of asynchronous functions that synchronise are first compiled in place
    /// (`inline`). A host construct at its top level (`start`, a call of a function that
    /// still synchronises) is a barrier of the whole group; the runs between them become
    /// barrier phases where their barriers need it (`divergent_barrier`).
    pub(crate) fn async_region(&mut self, stmts: &[Stmt], ops: &mut Vec<HostOp>) {
        let mut spliced = Vec::new();
        let inlined = self.inline_async_calls(stmts);
        self.splice_host_blocks(inlined, &mut spliced);
        let mut run: Vec<Stmt> = Vec::new();
        for s in &spliced {
            // A `start` or `seq` at the top is a stop like the others: where the run before
            // it has stops that processors reach at different times, it joins the run's
            // barrier phases, so that it pairs with them as a `barrier` would.
            let joins =
                !self.host_construct(s, false) && run.iter().any(|r| divergent_barrier(r, false));
            if self.host_construct(s, true) && !joins {
                self.async_run(&run, ops);
                run.clear();
                self.stmt(s, Mode::Async, ops);
            } else {
                run.push(s.clone());
            }
        }
        self.async_run(&run, ops);
    }

    /// `stmts` with each block that holds a host construct at its top (an inlined callee's
    /// body with a `start` or `seq`) spliced in, so that its statements are at the top of the
    /// region: a run of them can become barrier phases, the `start` or `seq` a stop of them.
    fn splice_host_blocks(&self, stmts: Vec<Stmt>, out: &mut Vec<Stmt>) {
        for s in stmts {
            match s.kind {
                StmtKind::Block(b) if self.host_construct(&s, true) => {
                    self.splice_host_blocks(b.stmts, out)
                }
                _ => out.push(s),
            }
        }
    }

    fn async_run(&mut self, run: &[Stmt], ops: &mut Vec<HostOp>) {
        if !run.iter().any(|s| divergent_barrier(s, false)) {
            return self.block(run, Mode::Async, ops);
        }
        let Some(span) = run.first().map(|s| s.span.to(run[run.len() - 1].span)) else {
            return;
        };
        let phase = self.temp(Type::INT, "phase", span);
        let more = self.temp(Type::INT, "more", span);
        let int = |v| mk(ExprKind::IntConst(v), Type::INT, span);
        let start = assign_stmt(self, phase, int(0), span);
        self.append(async_stmt(start), Mode::Async, ops);
        self.close(ops, CutReason::HostConstruct);
        // Resume: a processor stopped at barrier k seeks it.
        let var = self.var_expr(phase, span);
        let stopped = mk(
            ExprKind::Binary(BinOp::Lt, Box::new(var.clone()), Box::new(int(0))),
            Type::INT,
            span,
        );
        let negated = mk(
            ExprKind::Unary(UnOp::Neg, Box::new(var.clone())),
            Type::INT,
            span,
        );
        let resume = Stmt {
            kind: StmtKind::If {
                cond: stopped,
                then: Box::new(async_stmt(assign_stmt(self, phase, negated, span))),
                els: None,
            },
            mode: Mode::Async,
            span,
        };
        let mut phases = Phases {
            phase,
            next: 0,
            span,
            starts: Vec::new(),
            barriers: Vec::new(),
            chains: Vec::new(),
            chains_met: Default::default(),
        };
        let mut body = vec![resume];
        body.extend(phases.list(self, run));
        let stopped_now = mk(
            ExprKind::Binary(BinOp::Ne, Box::new(var.clone()), Box::new(int(0))),
            Type::INT,
            span,
        );
        body.push(async_stmt(assign_stmt(self, more, stopped_now, span)));
        // Per `start`: whether the processor stopped at it. Those of one state machine are
        // run in the order of their call chains (`chain_order`).
        let mut runs: Vec<Run> = Vec::new();
        for stopped in &phases.starts {
            match (&stopped.chain, runs.last_mut()) {
                (Some((c, _)), Some(Run::Chain(list, _)))
                    if list[0]
                        .chain
                        .as_ref()
                        .is_some_and(|l| l.0.prefix == c.prefix) =>
                {
                    list.push(stopped)
                }
                (Some(_), _) => runs.push(Run::Chain(vec![stopped], None)),
                (None, _) => {
                    let at = self.temp(Type::INT, "at_start", stopped.body.span);
                    let here = phases.compare(self, BinOp::Eq, -stopped.k);
                    body.push(async_stmt(assign_stmt(self, at, here, span)));
                    runs.push(Run::One(at, &stopped.body));
                }
            }
        }
        // Each chain's number (`chain_order`), where the processor stopped at one of its
        // stops; `i32::MAX` elsewhere.
        for run in &mut runs {
            if let Run::Chain(list, key) = run {
                let number = self.temp(Type::INT, "chain", span);
                let value = phases.chain_number(self, list);
                body.push(async_stmt(assign_stmt(self, number, value, span)));
                *key = Some(number);
            }
        }
        let mut loop_body = Vec::new();
        for s in body {
            self.append(s, Mode::Async, &mut loop_body);
        }
        let kernel = crate::plan::KernelId(self.kernels.len() as u32);
        self.close(&mut loop_body, CutReason::Suspend);
        if self.kernels.len() as u32 > kernel.0 {
            self.phase_barriers.push(crate::plan::PhaseBarriers {
                kernel,
                phase,
                barriers: std::mem::take(&mut phases.barriers),
            });
        }
        for run in runs {
            match run {
                Run::One(at, start) => self.start_split(at, start, &mut loop_body),
                Run::Chain(list, Some(number)) => {
                    let order = self.chain_order(&phases, &list, number);
                    loop_body.push(order);
                }
                Run::Chain(_, None) => unreachable!("every chain has its number"),
            }
        }
        ops.push(HostOp::Loop(HostLoop {
            cond: Some(more),
            test_first: false,
            forms_group: false,
            entry_cond: Vec::new(),
            body: loop_body,
            latch: Vec::new(),
            shared_frame: self.scope_frame(span, "barrier phases"),
            span,
        }));
    }

    /// Runs the `start` (or `seq`) `start` for the processors whose `at` is set.
    fn start_split(&mut self, at: VarId, start: &Stmt, ops: &mut Vec<HostOp>) {
        let mut arm = Vec::new();
        self.start_group(start, &mut arm);
        let frame = self.scope_frame(start.span, "stopped at start");
        let rest = self.new_frame("(not at start)".into());
        ops.push(HostOp::Split(Split {
            kind: SplitKind::If {
                cond: at,
                loop_group: false,
            },
            arms: vec![arm, Vec::new()],
            shared_frames: vec![frame, rest],
            span: start.span,
        }));
    }

    /// The `start`s of one recursive call's state machine, run for the processors stopped
    /// at each, one group per call chain, in the simulator's order (pram-sim's
    /// `Stop::order`): each round a shared cell takes the least chain number of the
    /// processors still waiting (`mpmin`), and those with that number run their stop's
    /// body. `number` is each processor's chain number, `i32::MAX` once it has run or where
    /// it waits elsewhere.
    fn chain_order(&mut self, phases: &Phases, list: &[&Stopped], number: VarId) -> HostOp {
        let span = list[0].span;
        let int = |v| mk(ExprKind::IntConst(v), Type::INT, span);
        let none = int(i32::MAX as i64);
        let bin = |op, a: Expr, b: Expr| {
            mk(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                Type::INT,
                span,
            )
        };
        let and =
            |a: Expr, b: Expr| mk(ExprKind::LogAnd(Box::new(a), Box::new(b)), Type::INT, span);
        let least = self.shared_temp(Type::INT, "least_chain", span);
        let cell = |b: &Builder| {
            mk(
                ExprKind::AddrOf(Box::new(b.var_expr(least, span))),
                Type::Ptr(Box::new(Type::INT)),
                span,
            )
        };
        let update = |b: &Builder, op, value: Expr| {
            let e = mk(
                ExprKind::Builtin {
                    op,
                    args: vec![cell(b), value],
                },
                Type::Void,
                span,
            );
            async_stmt(Stmt {
                kind: StmtKind::Expr(e),
                mode: Mode::Async,
                span,
            })
        };
        let mut body = Vec::new();
        // The cell is `i32::MAX` between rounds (set by every processor at once, which a
        // multiprefix operation may do under every model).
        let reset = update(self, Builtin::SyncUpdate(MpOp::Max), none.clone());
        self.append(reset, Mode::Async, &mut body);
        self.close(&mut body, CutReason::HostConstruct);
        let least_of = update(
            self,
            Builtin::SyncUpdate(MpOp::Min),
            self.var_expr(number, span),
        );
        self.append(least_of, Mode::Async, &mut body);
        self.close(&mut body, CutReason::HostConstruct);
        let now = and(
            bin(
                BinOp::Eq,
                self.var_expr(number, span),
                self.var_expr(least, span),
            ),
            bin(BinOp::Ne, self.var_expr(number, span), none.clone()),
        );
        let ran = self.temp(Type::INT, "ran", span);
        let more = self.temp(Type::INT, "more", span);
        let mut stmts = vec![assign_stmt(self, ran, now, span)];
        let mut ats = Vec::new();
        for stopped in list {
            let at = self.temp(Type::INT, "at_start", stopped.span);
            let here = and(
                phases.compare(self, BinOp::Eq, -stopped.k),
                self.var_expr(ran, span),
            );
            stmts.push(assign_stmt(self, at, here, span));
            ats.push((at, &stopped.body));
        }
        let rest = mk(
            ExprKind::Cond(
                Box::new(self.var_expr(ran, span)),
                Box::new(none.clone()),
                Box::new(self.var_expr(number, span)),
            ),
            Type::INT,
            span,
        );
        stmts.push(assign_stmt(self, number, rest, span));
        stmts.push(assign_stmt(
            self,
            more,
            bin(BinOp::Ne, self.var_expr(number, span), none),
            span,
        ));
        for s in stmts {
            self.append(async_stmt(s), Mode::Async, &mut body);
        }
        self.close(&mut body, CutReason::HostConstruct);
        for (at, start) in ats {
            self.start_split(at, start, &mut body);
        }
        HostOp::Loop(HostLoop {
            cond: Some(more),
            test_first: false,
            forms_group: false,
            entry_cond: Vec::new(),
            body,
            latch: Vec::new(),
            shared_frame: self.scope_frame(span, "call chains"),
            span,
        })
    }

    /// Whether `s`, in asynchronous code, runs on the host for reasons other than its stops:
    /// a group construct or a call of a function that synchronises. A `start` under a
    /// condition or in a loop is a stop of barrier phases (module docs); one at the top
    /// (`top`) every processor present reaches, as a barrier of the whole group.
    fn host_construct(&self, s: &Stmt, top: bool) -> bool {
        let expr = |e: &Expr| self.summaries.expr(&self.program, e).host;
        let nested = |s: &Stmt| self.host_construct(s, false);
        match &s.kind {
            StmtKind::Barrier | StmtKind::Break | StmtKind::Continue => false,
            StmtKind::Block(b) => b.stmts.iter().any(|s| self.host_construct(s, top)),
            StmtKind::If { cond, then, els } => {
                expr(cond) || nested(then) || els.as_deref().is_some_and(nested)
            }
            StmtKind::Switch { cond, cases } => {
                expr(cond) || cases.iter().flat_map(|c| &c.body).any(nested)
            }
            StmtKind::Loop {
                cond, step, body, ..
            } => cond.as_ref().is_some_and(expr) || step.as_ref().is_some_and(expr) || nested(body),
            StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Return(_) => self.effects(s).host,
            StmtKind::Start(_) | StmtKind::Seq(_) => top,
            StmtKind::Fork { .. } | StmtKind::Farm(_) => true,
        }
    }
}

/// Whether a `barrier` in `s` is under a condition or in a loop (`nested`: `s` itself is).
/// Under a private condition, or in a loop that a processor leaves or continues alone, some
/// processors reach it and others meet them at another barrier. Under a shared condition the
/// processors agree, but where none reaches it (the condition false, a loop's last test) a
/// kernel cut there would still end an interval of output (docs/language.md §8: the lines
/// printed between two releases appear in `__PROC_NR__` order), which the simulator does not:
/// barrier phases end one only where a barrier releases.
fn divergent_barrier(s: &Stmt, nested: bool) -> bool {
    match &s.kind {
        StmtKind::Barrier | StmtKind::Start(_) | StmtKind::Seq(_) => nested,
        StmtKind::Block(b) => b.stmts.iter().any(|s| divergent_barrier(s, nested)),
        StmtKind::If { then, els, .. } => {
            divergent_barrier(then, true)
                || els.as_deref().is_some_and(|e| divergent_barrier(e, true))
        }
        StmtKind::Switch { cases, .. } => cases
            .iter()
            .flat_map(|c| &c.body)
            .any(|s| divergent_barrier(s, true)),
        StmtKind::Loop { body, .. } => divergent_barrier(body, true),
        _ => false,
    }
}

/// The number of stops in `s`, `barrier`s and `start`s (those `Phases` numbers), in
/// pre-order.
fn barriers(s: &Stmt) -> i64 {
    match &s.kind {
        StmtKind::Barrier | StmtKind::Start(_) | StmtKind::Seq(_) => 1,
        StmtKind::Block(b) => b.stmts.iter().map(barriers).sum(),
        StmtKind::If { then, els, .. } => barriers(then) + els.as_deref().map_or(0, barriers),
        StmtKind::Switch { cases, .. } => cases.iter().flat_map(|c| &c.body).map(barriers).sum(),
        StmtKind::Loop { body, .. } => barriers(body),
        _ => 0,
    }
}

fn async_stmt(s: Stmt) -> Stmt {
    Stmt {
        mode: Mode::Async,
        ..s
    }
}

/// The `start`s run after a launch of barrier phases: one, or those of one state machine
/// (with the variable of the processor's chain number).
enum Run<'p> {
    One(VarId, &'p Stmt),
    Chain(Vec<&'p Stopped>, Option<VarId>),
}

/// The `%pc` of a state machine's loop test `%pc != 0` (`rules::recursion`).
fn machine_pc(cond: Option<&Expr>) -> Option<VarId> {
    match &cond?.kind {
        ExprKind::Binary(BinOp::Ne, pc, zero) => match (&pc.kind, &zero.kind) {
            (ExprKind::Var(v), ExprKind::IntConst(0)) => Some(*v),
            _ => None,
        },
        _ => None,
    }
}

/// Rewrites a run of asynchronous statements into the resumable body (module docs).
struct Phases {
    phase: VarId,
    /// Stops numbered so far.
    next: i64,
    span: Span,
    /// The `start`s among them.
    starts: Vec<Stopped>,
    /// The `barrier`s among them: k and the statement.
    barriers: Vec<(u32, Span)>,
    /// The call chains of the state machines (`rules::recursion`) around the statement
    /// being rewritten, and how many stops of each were met.
    chains: Vec<Chain>,
    chains_met: std::collections::HashMap<VarId, usize>,
}

/// A `start` (or `seq`) of barrier phases: its number, statement and body.
struct Stopped {
    k: i64,
    span: Span,
    body: Stmt,
    /// In a recursive call's state machine: the processors stopped at it through different
    /// call chains wait at different stops (`rules::recursion::Chain`); its digit there.
    chain: Option<(Chain, i64)>,
}

impl Phases {
    fn int(&self, v: i64) -> Expr {
        mk(ExprKind::IntConst(v), Type::INT, self.span)
    }

    fn compare(&self, b: &Builder, op: BinOp, v: i64) -> Expr {
        let var = b.var_expr(self.phase, self.span);
        mk(
            ExprKind::Binary(op, Box::new(var), Box::new(self.int(v))),
            Type::INT,
            self.span,
        )
    }

    fn and(&self, a: Expr, b: Expr) -> Expr {
        mk(
            ExprKind::LogAnd(Box::new(a), Box::new(b)),
            Type::INT,
            self.span,
        )
    }

    fn or(&self, a: Expr, b: Expr) -> Expr {
        mk(
            ExprKind::LogOr(Box::new(a), Box::new(b)),
            Type::INT,
            self.span,
        )
    }

    /// The chain number (`rules::recursion::Chain`) of a processor stopped at one of the
    /// stops `list` of one state machine, `i32::MAX` if it waits elsewhere.
    fn chain_number(&self, b: &Builder, list: &[&Stopped]) -> Expr {
        let mut number = self.int(i32::MAX as i64);
        for stopped in list.iter().rev() {
            let Some((chain, digit)) = &stopped.chain else {
                continue;
            };
            let own = mk(
                ExprKind::Binary(
                    BinOp::Mul,
                    Box::new(b.var_expr(chain.scale, self.span)),
                    Box::new(self.int(*digit)),
                ),
                Type::INT,
                self.span,
            );
            let value = mk(
                ExprKind::Binary(
                    BinOp::Add,
                    Box::new(b.var_expr(chain.prefix, self.span)),
                    Box::new(own),
                ),
                Type::INT,
                self.span,
            );
            number = mk(
                ExprKind::Cond(
                    Box::new(self.compare(b, BinOp::Eq, -stopped.k)),
                    Box::new(value),
                    Box::new(number),
                ),
                Type::INT,
                self.span,
            );
        }
        number
    }

    /// `%phase == 0`: running.
    fn running(&self, b: &Builder) -> Expr {
        self.compare(b, BinOp::Eq, 0)
    }

    /// Whether the processor seeks a barrier of the next `n` (numbers `next+1 ..= next+n`).
    fn seeking(&self, b: &Builder, n: i64) -> Expr {
        if n == 0 {
            return self.int(0);
        }
        self.and(
            self.compare(b, BinOp::Gt, self.next),
            self.compare(b, BinOp::Le, self.next + n),
        )
    }

    fn stmt(&self, kind: StmtKind, span: Span) -> Stmt {
        Stmt {
            kind,
            mode: Mode::Async,
            span,
        }
    }

    fn block(&self, stmts: Vec<Stmt>, span: Span) -> Stmt {
        self.stmt(StmtKind::Block(Block { stmts, span }), span)
    }

    /// A list: runs of statements without barriers go under one `if (%phase == 0)`.
    fn list(&mut self, b: &Builder, stmts: &[Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut plain: Vec<Stmt> = Vec::new();
        let flush = |this: &Self, plain: &mut Vec<Stmt>, out: &mut Vec<Stmt>| {
            if let (Some(first), Some(last)) = (plain.first(), plain.last()) {
                let span = first.span.to(last.span);
                let then = this.block(std::mem::take(plain), span);
                out.push(this.stmt(
                    StmtKind::If {
                        cond: this.running(b),
                        then: Box::new(then),
                        els: None,
                    },
                    span,
                ));
            }
        };
        for s in stmts {
            if barriers(s) == 0 {
                plain.push(s.clone());
            } else {
                flush(self, &mut plain, &mut out);
                out.push(self.resumable(b, s));
            }
        }
        flush(self, &mut plain, &mut out);
        out
    }

    /// One statement that contains a barrier.
    fn resumable(&mut self, b: &Builder, s: &Stmt) -> Stmt {
        let span = s.span;
        match &s.kind {
            StmtKind::Barrier | StmtKind::Start(_) | StmtKind::Seq(_) => {
                self.next += 1;
                let k = self.next;
                if matches!(s.kind, StmtKind::Barrier) {
                    self.barriers.push((k as u32, s.span));
                }
                let body = match &s.kind {
                    StmtKind::Start(body) => Some((**body).clone()),
                    // `seq S` in asynchronous code is `start { seq S }`.
                    StmtKind::Seq(_) => Some(s.clone()),
                    _ => None,
                };
                if let Some(body) = body {
                    // The stops of one state machine are met in its text's order.
                    let chain = self.chains.last().map(|c| {
                        let met = self.chains_met.entry(c.id).or_insert(0);
                        *met += 1;
                        (c.clone(), c.stops.get(*met - 1).copied().unwrap_or(0))
                    });
                    self.starts.push(Stopped {
                        k,
                        span,
                        body,
                        chain,
                    });
                }
                // Running: stop here. Seeking this barrier: found, run on.
                let stop = assign_stmt(b, self.phase, self.int(-k), span);
                let found = assign_stmt(b, self.phase, self.int(0), span);
                let found = self.stmt(
                    StmtKind::If {
                        cond: self.compare(b, BinOp::Eq, k),
                        then: Box::new(async_stmt(found)),
                        els: None,
                    },
                    span,
                );
                self.stmt(
                    StmtKind::If {
                        cond: self.running(b),
                        then: Box::new(async_stmt(stop)),
                        els: Some(Box::new(found)),
                    },
                    span,
                )
            }
            StmtKind::Block(blk) => {
                let stmts = self.list(b, &blk.stmts);
                self.block(stmts, span)
            }
            StmtKind::If { cond, then, els } => {
                // Running: the condition decides. Seeking a barrier of `then`: enter it;
                // otherwise the else arm, which skips everything unless it holds the barrier.
                let enter = self.or(
                    self.and(self.running(b), cond.clone()),
                    self.seeking(b, barriers(then)),
                );
                let then = self.resumable_or_plain(b, then);
                let els = els
                    .as_deref()
                    .map(|e| Box::new(self.resumable_or_plain(b, e)));
                self.stmt(
                    StmtKind::If {
                        cond: enter,
                        then: Box::new(then),
                        els,
                    },
                    span,
                )
            }
            StmtKind::Switch { cond, cases } => {
                // Seeking: enter at the case whose body holds the barrier (falling through
                // from there skips everything until it).
                let values: Vec<i64> = cases.iter().filter_map(|c| c.value).collect();
                let none = (values.iter().max().copied().unwrap_or(0)).wrapping_add(1);
                let none = if values.contains(&none) {
                    values.iter().min().copied().unwrap_or(0).wrapping_sub(1)
                } else {
                    none
                };
                let value = |v: i64| mk(ExprKind::IntConst(v), cond.ty.clone(), span);
                let mut first = self.next;
                let mut entries = Vec::new();
                for c in cases {
                    let n = c.body.iter().map(barriers).sum::<i64>();
                    entries.push((first, n, c.value.unwrap_or(none)));
                    first += n;
                }
                let mut select = value(none);
                for &(from, n, v) in entries.iter().rev().filter(|(_, n, _)| *n > 0) {
                    let holds = self.and(
                        self.compare(b, BinOp::Gt, from),
                        self.compare(b, BinOp::Le, from + n),
                    );
                    select = mk(
                        ExprKind::Cond(Box::new(holds), Box::new(value(v)), Box::new(select)),
                        cond.ty.clone(),
                        span,
                    );
                }
                let scrutinee = mk(
                    ExprKind::Cond(
                        Box::new(self.running(b)),
                        Box::new(cond.clone()),
                        Box::new(select),
                    ),
                    cond.ty.clone(),
                    span,
                );
                let cases = cases
                    .iter()
                    .map(|c| SwitchCase {
                        value: c.value,
                        body: self.list(b, &c.body),
                        span: c.span,
                    })
                    .collect();
                self.stmt(
                    StmtKind::Switch {
                        cond: scrutinee,
                        cases,
                    },
                    span,
                )
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => {
                // Running: the condition decides; seeking a barrier of the body: enter it;
                // stopped: leave the loop. The step runs only while running.
                let test = cond.clone().unwrap_or_else(|| self.int(1));
                let again = self.or(
                    self.and(self.running(b), test),
                    self.seeking(b, barriers(body)),
                );
                let step = step.as_ref().map(|st| {
                    let one = self.int(1);
                    let st = mk(
                        ExprKind::Comma(Box::new(st.clone()), Box::new(one)),
                        Type::INT,
                        st.span,
                    );
                    self.and(self.running(b), st)
                });
                let chain = machine_pc(cond.as_ref()).and_then(|pc| b.machines.get(&pc));
                if let Some(c) = chain {
                    self.chains.push(c.clone());
                }
                let body = self.resumable(b, body);
                if chain.is_some() {
                    self.chains.pop();
                }
                self.stmt(
                    StmtKind::Loop {
                        cond: Some(again),
                        step,
                        body: Box::new(body),
                        test_first: *test_first,
                    },
                    span,
                )
            }
            // `barriers` counts no other statement.
            _ => s.clone(),
        }
    }

    fn resumable_or_plain(&mut self, b: &Builder, s: &Stmt) -> Stmt {
        if barriers(s) > 0 {
            self.resumable(b, s)
        } else {
            let stmts = self.list(b, std::slice::from_ref(s));
            self.block(stmts, s.span)
        }
    }
}
