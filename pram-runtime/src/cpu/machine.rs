//! The host side of the CPU Plan executor: runs the lowered host program
//! (`transform::host_program::walk`, the one walk every executor shares), keeps
//! the group tree (members in `$$` order, `@`, shared frames) and every processor's `$` and
//! leave status, and launches kernels as loops over their threads in the chosen order.

use super::memory::{self, Memory};
use super::thread::{combine, Env, Flow as ThreadFlow, Thread, V};
use super::{Config, Fault, Order, Output};
use fork_frontend::hir::{Mode, MpOp, Sharity, Type, VarId};
use fork_frontend::source::Span;
use transform::host_program::{self, HostMachine, LoopHeader};
use transform::plan::{HostFnId, KernelId, Plan, SharedFrameId, SplitKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Active,
    Break,
    Continue,
    Return,
}

struct Proc {
    dollar: i64,
    status: Status,
}

struct Group {
    /// Members in `$$` order.
    members: Vec<usize>,
    at: i64,
    /// Shared frames visible to the group (its ancestors' and its own), innermost last.
    frames: Vec<(SharedFrameId, u64)>,
}

/// Where the walk is: the group (an index into `Machine::groups`), the activation's slot
/// frame, the function, whether inside `seq`.
type Ctx = host_program::Ctx<usize>;

pub struct Machine<'p> {
    plan: &'p Plan,
    procs: usize,
    mem: Memory,
    state: Vec<Proc>,
    groups: Vec<Group>,
    config: Config,
    steps_left: u64,
    /// Nested host-level calls (the limit is the simulator's, R0008 there).
    calls: usize,
    rng: fastrand::Rng,
    out: Output,
}

impl<'p> Machine<'p> {
    pub fn new(plan: &'p Plan, config: Config) -> Machine<'p> {
        let procs = config.procs;
        let seed = match config.order {
            Order::Shuffle(seed) => seed,
            _ => 0,
        };
        Machine {
            plan,
            procs,
            mem: Memory::new(),
            state: (0..procs)
                .map(|p| Proc {
                    dollar: p as i64,
                    status: Status::Active,
                })
                .collect(),
            groups: Vec::new(),
            config,
            steps_left: config.max_steps,
            calls: 0,
            rng: fastrand::Rng::with_seed(seed),
            out: Output::default(),
        }
    }

    pub fn run(mut self) -> Result<Output, Fault> {
        let plan = self.plan;
        let strings: Vec<u8> = plan.program.strings.concat();
        self.mem.resize(memory::STRINGS, strings.len() as u64);
        self.mem
            .write_phys(memory::phys(memory::STRINGS, 0), &strings);
        self.mem
            .resize(memory::SHARED_GLOBALS, plan.storage.shared_globals_bytes);
        let p = self.procs as u64;
        let main = plan.function(plan.main);
        let globals_end = plan.storage.private_globals_bytes * p;
        self.mem
            .resize(memory::SLOTS, globals_end + main.frame_bytes * p);
        let root = self.push_group(None, (0..self.procs).collect(), 0, main.shared_frame);
        let ctx = Ctx {
            group: root,
            slot_base: globals_end,
            func: plan.main,
            seq: false,
        };
        let walked = self
            .init_globals(ctx)
            .and_then(|()| host_program::walk(&plan.host, &mut self, ctx));
        match walked {
            Ok(()) => Ok(self.out),
            Err(mut fault) => {
                fault.stdout = std::mem::take(&mut self.out.stdout);
                Err(fault)
            }
        }
    }

    fn init_globals(&mut self, ctx: Ctx) -> Result<(), Fault> {
        let plan = self.plan;
        for g in &plan.program.globals {
            let Some(init) = &g.init else { continue };
            let procs = match plan.program.var(g.var).sharity {
                Sharity::Shared => 0..1,
                Sharity::Private => 0..self.procs,
            };
            for proc in procs {
                self.with_thread(proc, proc, ctx, |t| {
                    let a = t.var_addr(g.var, init[0].value.span)?;
                    for elem in init {
                        let v = t.eval(&elem.value)?;
                        t.store(a + elem.offset, &elem.value.ty, v, elem.value.span)?;
                    }
                    Ok(())
                })?;
            }
        }
        Ok(())
    }

    // ---- groups ----

    fn push_group(
        &mut self,
        parent: Option<usize>,
        members: Vec<usize>,
        at: i64,
        frame: SharedFrameId,
    ) -> usize {
        let mut frames = parent
            .map(|g| self.groups[g].frames.clone())
            .unwrap_or_default();
        let bytes = self.plan.storage.shared_frames[frame.0 as usize].bytes;
        frames.push((frame, self.mem.reserve(memory::SHARED_FRAMES, bytes, 8)));
        self.groups.push(Group {
            members,
            at,
            frames,
        });
        self.groups.len() - 1
    }

    /// Restore: drops the group (and every group opened after it) and frees their frames.
    fn pop_group(&mut self, g: usize) {
        if let Some(&(_, base)) = self.groups[g].frames.last() {
            let offset = base & ((1 << 40) - 1);
            self.mem.resize(memory::SHARED_FRAMES, offset);
        }
        self.groups.truncate(g);
    }

    /// The members that run a launch: active, and in `seq` only the active one with the
    /// smallest `$$` (members that left a private loop are no longer present); as
    /// (rank, proc).
    fn active(&self, ctx: Ctx) -> Vec<(usize, usize)> {
        let present = self.groups[ctx.group]
            .members
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, p)| self.state[*p].status == Status::Active);
        if ctx.seq {
            present.take(1).collect()
        } else {
            present.collect()
        }
    }

    fn with_thread<R>(
        &mut self,
        proc: usize,
        rank: usize,
        ctx: Ctx,
        f: impl FnOnce(&mut Thread) -> Result<R, Fault>,
    ) -> Result<R, Fault> {
        let group = &self.groups[ctx.group];
        let env = Env {
            proc,
            procs: self.procs,
            dollar: self.state[proc].dollar,
            rank,
            group_size: group.members.len(),
            at: group.at,
            slot_base: ctx.slot_base,
            frames: &group.frames,
        };
        let mut t = Thread::new(self.plan, &mut self.mem, env, &mut self.steps_left);
        f(&mut t)
    }

    /// The value of a slot the host reads, for one member.
    fn read_slot(&mut self, var: VarId, proc: usize, rank: usize, ctx: Ctx) -> Result<V, Fault> {
        let ty = self.plan.program.var(var).ty.clone();
        self.with_thread(proc, rank, ctx, |t| {
            let span = t.plan.program.var(var).span;
            let a = t.var_addr(var, span)?;
            t.load(a, &ty, span)
        })
    }

    fn write_slot(
        &mut self,
        var: VarId,
        proc: usize,
        rank: usize,
        ctx: Ctx,
        v: V,
    ) -> Result<(), Fault> {
        let ty = self.plan.program.var(var).ty.clone();
        self.with_thread(proc, rank, ctx, |t| {
            let span = t.plan.program.var(var).span;
            let a = t.var_addr(var, span)?;
            t.store(a, &ty, v, span)
        })
    }

    fn read_int(&mut self, var: VarId, proc: usize, rank: usize, ctx: Ctx) -> Result<i64, Fault> {
        Ok(match self.read_slot(var, proc, rank, ctx)? {
            V::I(v) => v,
            V::F(f) => f as i64,
            V::Agg(_) => 0,
        })
    }

    // ---- the host instructions (`transform::host_program::walk` decides their order) ----

    /// `LoopExitUpdate`: active members whose condition slot is 0 leave the loop.
    fn exit_update(
        &mut self,
        cond: Option<VarId>,
        members: &[(usize, usize)],
        ctx: Ctx,
    ) -> Result<(), Fault> {
        self.out.read_backs += 1;
        let Some(cond) = cond else {
            return Ok(());
        };
        for &(rank, proc) in members {
            if self.state[proc].status == Status::Active
                && self.read_int(cond, proc, rank, ctx)? == 0
            {
                self.state[proc].status = Status::Break;
            }
        }
        Ok(())
    }

    fn any_active(&self, members: &[(usize, usize)]) -> bool {
        members
            .iter()
            .any(|(_, p)| self.state[*p].status == Status::Active)
    }
}

/// A loop's participants (active at entry, as (rank, proc) in the enclosing group), the
/// same with their ranks in the loop group, and the loop group.
pub struct LoopState {
    participants: Vec<(usize, usize)>,
    in_loop: Vec<(usize, usize)>,
    group: usize,
}

impl HostMachine for Machine<'_> {
    type Group = usize;
    /// Members in the parent's `$$` order, `@`, the shared frame.
    type Sub = (Vec<usize>, i64, SharedFrameId);
    /// The `$` of members a `fork` renumbered, to put back at the restore.
    type SplitSaved = Vec<(usize, i64)>;
    type LoopSaved = LoopState;
    /// The members active at the call, and the callee's group.
    type CallSaved = (Vec<(usize, usize)>, usize);
    type StartSaved = usize;
    type Error = Fault;

    fn launch(&mut self, k: KernelId, ctx: &Ctx) -> Result<(), Fault> {
        let ctx = *ctx;
        let kernel = self.plan.kernel(k);
        self.out.launches += 1;
        let mut threads = self.active(ctx);
        match self.config.order {
            Order::Forward => {}
            Order::Reverse => threads.reverse(),
            Order::Shuffle(_) => self.rng.shuffle(&mut threads),
        }
        let ret = self.plan.function(ctx.func).ret;
        let mut printed = Vec::new();
        if kernel.mode == Mode::Sync {
            self.mem.begin_step(self.config.crcw);
        }
        // Of the faults of one launch the simulator's first: the earliest statement of the
        // kernel, the earliest iteration of a loop inside it, then the lowest processor. The
        // step limit stops at once.
        let mut first_fault: Option<(u64, usize, Fault)> = None;
        for (rank, proc) in threads {
            let (run, iters) = self.with_thread(proc, rank, ctx, |t| {
                let mut run = || -> Result<_, Fault> {
                    let flow = match kernel.mode {
                        Mode::Sync => t.exec_steps(&kernel.body)?,
                        Mode::Async => t.exec_all(&kernel.body)?,
                    };
                    if let (ThreadFlow::Return(Some(v)), Some(ret)) = (&flow, ret) {
                        let span = kernel.span;
                        let a = t.var_addr(ret, span)?;
                        let ty = t.plan.program.var(ret).ty.clone();
                        t.store(a, &ty, v.clone(), span)?;
                    }
                    Ok((flow, std::mem::take(&mut t.out)))
                };
                Ok((run(), t.iters))
            })?;
            let (flow, text) = match run {
                Ok(done) => done,
                Err(fault) if fault.code == &fork_frontend::fault::R0006 => return Err(fault),
                Err(fault) => {
                    if first_fault
                        .as_ref()
                        .is_none_or(|(i, p, _)| (iters, proc) < (*i, *p))
                    {
                        first_fault = Some((iters, proc, fault));
                    }
                    continue;
                }
            };
            self.state[proc].status = match flow {
                ThreadFlow::Normal => Status::Active,
                ThreadFlow::Break => Status::Break,
                ThreadFlow::Continue => Status::Continue,
                ThreadFlow::Return(_) => Status::Return,
            };
            if !text.is_empty() {
                let key = match kernel.mode {
                    Mode::Sync => rank,
                    Mode::Async => proc,
                };
                printed.push((key, text));
            }
        }
        if let Some((_, _, fault)) = first_fault {
            return Err(fault);
        }
        self.mem.end_step();
        // docs/language.md §7: a statement's lines in `$$` order; asynchronous code's lines
        // by `__PROC_NR__`, each processor's in program order.
        printed.sort_by_key(|(key, _)| *key);
        for (_, text) in printed {
            self.out.stdout.extend(text);
        }
        Ok(())
    }

    fn branch(&mut self, cond: VarId, ctx: &Ctx) -> Result<Option<bool>, Fault> {
        self.out.read_backs += 1;
        let Some(&(rank, proc)) = self.active(*ctx).first() else {
            return Ok(None);
        };
        Ok(Some(self.read_int(cond, proc, rank, *ctx)? != 0))
    }

    /// `Split{if|fork}`: the subgroups in canonical order (then before else, fork
    /// subgroups by `@`).
    fn split(
        &mut self,
        kind: &SplitKind,
        shared_frames: &[SharedFrameId],
        ctx: &Ctx,
    ) -> Result<(Vec<(Self::Sub, usize)>, Self::SplitSaved), Fault> {
        let ctx = *ctx;
        self.out.read_backs += 1;
        let active = self.active(ctx);
        let at = self.groups[ctx.group].at;
        let mut subgroups = Vec::new();
        let mut saved_dollars = Vec::new();
        match kind {
            SplitKind::If { cond, .. } => {
                let (mut then, mut els) = (Vec::new(), Vec::new());
                for &(rank, proc) in &active {
                    if self.read_int(*cond, proc, rank, ctx)? != 0 {
                        then.push(proc);
                    } else {
                        els.push(proc);
                    }
                }
                subgroups.push(((then, at, shared_frames[0]), 0));
                subgroups.push(((els, at, shared_frames[1]), 1));
            }
            SplitKind::Fork { count, at, dollar } => {
                let Some(&(rank0, proc0)) = active.first() else {
                    return Ok((Vec::new(), saved_dollars));
                };
                let k = self.read_int(*count, proc0, rank0, ctx)?.max(0);
                let mut chosen = Vec::new();
                for &(rank, proc) in &active {
                    let index = self.read_int(*at, proc, rank, ctx)?;
                    let new_dollar = match dollar {
                        Some(d) => Some(self.read_int(*d, proc, rank, ctx)?),
                        None => None,
                    };
                    chosen.push((proc, index, new_dollar));
                }
                for &(proc, index, new_dollar) in &chosen {
                    if let (Some(d), true) = (new_dollar, (0..k).contains(&index)) {
                        saved_dollars.push((proc, self.state[proc].dollar));
                        self.state[proc].dollar = d;
                    }
                }
                for i in 0..k {
                    let members = chosen
                        .iter()
                        .filter(|(_, index, _)| *index == i)
                        .map(|(p, _, _)| *p)
                        .collect();
                    subgroups.push(((members, i, shared_frames[0]), 0));
                }
            }
        }
        subgroups.retain(|((members, _, _), _)| !members.is_empty());
        Ok((subgroups, saved_dollars))
    }

    fn enter_subgroup(&mut self, sub: &Self::Sub, ctx: &Ctx) -> Result<usize, Fault> {
        let (members, at, frame) = sub;
        Ok(self.push_group(Some(ctx.group), members.clone(), *at, *frame))
    }

    fn leave_subgroup(&mut self, _sub: &Self::Sub, inner: &Ctx) -> Result<(), Fault> {
        self.pop_group(inner.group);
        Ok(())
    }

    fn restore(&mut self, saved: Self::SplitSaved, _ctx: &Ctx) -> Result<(), Fault> {
        for (proc, d) in saved {
            self.state[proc].dollar = d;
        }
        Ok(())
    }

    fn loop_begin(&mut self, _l: &LoopHeader, ctx: &Ctx) -> Result<LoopState, Fault> {
        Ok(LoopState {
            participants: self.active(*ctx),
            in_loop: Vec::new(),
            group: ctx.group,
        })
    }

    fn loop_enter(
        &mut self,
        l: &LoopHeader,
        s: &mut LoopState,
        ctx: &Ctx,
    ) -> Result<(usize, bool), Fault> {
        let ctx = *ctx;
        if l.test_first {
            self.exit_update(l.cond, &s.participants, ctx)?;
        }
        let members = if l.forms_group {
            s.participants
                .iter()
                .filter(|(_, p)| self.state[*p].status == Status::Active)
                .map(|(_, p)| *p)
                .collect()
        } else {
            self.groups[ctx.group].members.clone()
        };
        let at = self.groups[ctx.group].at;
        s.group = self.push_group(Some(ctx.group), members, at, l.shared_frame);
        // Ranks in the loop group, for reading the condition slots.
        s.in_loop = self.groups[s.group]
            .members
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, p)| s.participants.iter().any(|(_, q)| q == p))
            .collect();
        Ok((s.group, self.any_active(&s.in_loop)))
    }

    fn loop_next(&mut self, s: &LoopState, _ctx: &Ctx) -> Result<(), Fault> {
        for (_, p) in &s.in_loop {
            if self.state[*p].status == Status::Continue {
                self.state[*p].status = Status::Active;
            }
        }
        Ok(())
    }

    fn loop_latch(
        &mut self,
        l: &LoopHeader,
        s: &LoopState,
        _ctx: &Ctx,
        inner: &Ctx,
    ) -> Result<bool, Fault> {
        self.exit_update(l.cond, &s.in_loop, *inner)?;
        Ok(self.any_active(&s.in_loop))
    }

    fn loop_end(&mut self, s: LoopState, _ctx: &Ctx) -> Result<(), Fault> {
        for (_, p) in &s.participants {
            if self.state[*p].status == Status::Break {
                self.state[*p].status = Status::Active;
            }
        }
        self.pop_group(s.group);
        Ok(())
    }

    /// A host-level call: new activation frame and shared frame, arguments into parameters.
    fn call(
        &mut self,
        callee: HostFnId,
        args: &[VarId],
        span: Span,
        ctx: &Ctx,
    ) -> Result<Option<(Ctx, Self::CallSaved)>, Fault> {
        let ctx = *ctx;
        let plan = self.plan;
        let f = plan.function(callee);
        if self.calls >= transform::emit_cuda::DEFAULT_MAX_DEPTH {
            return Err(Fault {
                code: &fork_frontend::fault::R0008,
                span,
                proc: None,
                message: format!(
                    "recursion deeper than {} nested calls (calling `{}`)",
                    transform::emit_cuda::DEFAULT_MAX_DEPTH,
                    f.name
                ),
                stdout: Vec::new(),
            });
        }
        let p = self.procs as u64;
        let slot_base = ctx.slot_base + plan.function(ctx.func).frame_bytes * p;
        let needed = slot_base + f.frame_bytes * p;
        if self.mem.len(memory::SLOTS) < needed {
            self.mem.resize(memory::SLOTS, needed);
        }
        let active = self.active(ctx);
        if active.is_empty() {
            // Every member has left (e.g. returned): nothing to run, and recursion ends.
            return Ok(None);
        }
        let members = self.groups[ctx.group].members.clone();
        let at = self.groups[ctx.group].at;
        let g = self.push_group(Some(ctx.group), members, at, f.shared_frame);
        self.calls += 1;
        let inner = Ctx {
            group: g,
            slot_base,
            func: callee,
            seq: ctx.seq,
        };
        let params = &plan.program.func(f.func).params;
        for (param, arg) in params.iter().zip(args) {
            let shared = plan.program.var(*param).sharity == Sharity::Shared;
            for &(rank, proc) in &active {
                let v = self.read_slot(*arg, proc, rank, ctx)?;
                self.write_slot(*param, proc, rank, inner, v)?;
                if shared {
                    // The group writes a shared argument once: the first member's value.
                    break;
                }
            }
        }
        Ok(Some((inner, (active, g))))
    }

    /// Back from a call: the return values into `result`.
    fn ret(
        &mut self,
        result: Option<VarId>,
        (active, g): Self::CallSaved,
        inner: &Ctx,
        ctx: &Ctx,
    ) -> Result<(), Fault> {
        let f = self.plan.function(inner.func);
        for &(rank, proc) in &active {
            if self.state[proc].status == Status::Return {
                self.state[proc].status = Status::Active;
            }
            if let (Some(r), Some(ret)) = (result, f.ret) {
                let v = self.read_slot(ret, proc, rank, *inner)?;
                self.write_slot(r, proc, rank, *ctx, v)?;
            }
        }
        self.pop_group(g);
        self.calls -= 1;
        Ok(())
    }

    fn start(&mut self, shared_frame: SharedFrameId, ctx: &Ctx) -> Result<(usize, usize), Fault> {
        for (p, s) in self.state.iter_mut().enumerate() {
            s.dollar = p as i64;
        }
        let root = self.push_group(Some(ctx.group), (0..self.procs).collect(), 0, shared_frame);
        Ok((root, root))
    }

    fn start_end(&mut self, root: usize, _ctx: &Ctx) -> Result<(), Fault> {
        self.pop_group(root);
        Ok(())
    }

    fn multiprefix(
        &mut self,
        op: MpOp,
        [ptr, value]: [VarId; 2],
        result: Option<VarId>,
        span: Span,
        ctx: &Ctx,
    ) -> Result<(), Fault> {
        let ctx = *ctx;
        let mut members = self.active(ctx);
        members.sort_by_key(|(_, p)| *p);
        for (rank, proc) in members {
            let cell = self.read_int(ptr, proc, rank, ctx)? as u64;
            let v = self.read_int(value, proc, rank, ctx)?;
            let old = self.with_thread(proc, rank, ctx, |t| {
                let V::I(old) = t.load(cell, &Type::INT, span)? else {
                    return Ok(0);
                };
                t.store(cell, &Type::INT, V::I(combine(op, old, v)), span)?;
                Ok(old)
            })?;
            if let Some(r) = result {
                self.write_slot(r, proc, rank, ctx, V::I(old))?;
            }
        }
        Ok(())
    }
}
