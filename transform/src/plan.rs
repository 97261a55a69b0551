//! The Plan: what the transform makes of a checked program, and what every Plan executor (the
//! CUDA emission, the GPU driver, the CPU Plan executor) consumes.
//!
//! A Plan has three parts:
//! - **kernels**: straight pieces of a function that need no barrier across processors inside
//!   them. A kernel body is ordinary HIR (`hir::Stmt`), run by every *active* member of the
//!   launched group, one thread per PRAM processor;
//! - the **host control graph** of each host function (`HostFunction::body`): a structured
//!   tree of `HostOp`s (launch, split/restore, loop with exit update, call, return, seq, start)
//!   that the host walks; `regions` wraps the runs one thread block can run on its own in
//!   `HostOp::Region`;
//! - the **storage layout** (`Storage`): where shared variables, shared frames of group
//!   instances and spilled private slots live in global memory.
//!
//! # Processor state every executor keeps
//! Per processor: its current group, `$` (group-relative id), `$$` (rank in the current
//! group), `__PROC_NR__`, and a *leave status*: `Active`, or it has left by `Break`,
//! `Continue` or `Return` (see "Leaving" below). Only active members run a launched kernel.
//! Per group instance: its parent, its members in `$$` order, `@`, and one shared frame
//! (`Storage::shared_frames`) per scope it opened.
//!
//! # Kernel bodies
//! A kernel body is HIR with these conventions:
//! - variables are addressed through `Storage::home` (a spilled slot, a shared global, a
//!   shared frame of the current group or one of its ancestors) or, for private locals that
//!   `Storage::home` does not list, a register: a variable that lives only inside one kernel
//!   and dies at its end (its value is undefined in any other kernel);
//! - calls of `straight` and barrier-free `async` functions run inside the kernel as device
//!   functions (their locals are registers / thread-local memory);
//! - **Leaving**: a `break`/`continue` not enclosed by a loop or `switch` of the same kernel,
//!   and any `return` of the host function's own body, end the processor's part of the
//!   kernel and set its leave status (`Break`, `Continue`, or `Return` after storing the value
//!   in `HostFunction::ret`). A left processor stays inactive until the construct it left
//!   ends: `Continue` is cleared at the end of the loop iteration, `Break` when its loop is
//!   restored, `Return` when the call returns;
//! - a condition slot written by a kernel (`Split`, `HostLoop::cond`, ...) holds `0` or `1`
//!   (an `int`), written by every active member.
//!
//! # Output
//! `printf` in a `Sync` kernel is a cut (like a shared write), so a thread prints at most one
//! statement's text per launch: executors emit each thread's text in `$$` order after the
//! launch. In an `Async` kernel each thread's text is emitted in `__PROC_NR__` order, each
//! thread's text in program order (docs/language.md §7).

use fork_frontend::hir::{self, FuncId, Mode, MpOp, VarId};
use fork_frontend::source::Span;

/// Index into `Plan::kernels`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelId(pub u32);

/// Index into `Plan::functions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HostFnId(pub u32);

/// Index into `Storage::shared_frames`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SharedFrameId(pub u32);

/// The frames of one processor's stack in a recursive asynchronous call's state machine
/// (`rules::recursion`): a deeper call is R0008 with `STACK_FULL` (`Builtin::StackRoom`).
pub const STACK_FRAMES: u64 = 64;

/// What every executor reports with R0008 at `Builtin::StackRoom`.
pub const STACK_FULL: &str = "recursion deeper than an asynchronous recursive call's stack holds";

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The checked program the Plan refers to. The transform appends its own private
    /// temporaries to `program.vars` (names start with `%`): condition slots, evaluated
    /// right-hand sides, call arguments and results, return slots.
    pub program: hir::Program,
    pub kernels: Vec<Kernel>,
    /// One per `sync` function reachable from `main` (recursion allowed), per `async`
    /// function that must synchronise (contains `barrier`) and is called at host level, and
    /// one for `main`.
    pub functions: Vec<HostFunction>,
    /// The host function of `main`; it starts on all P processors in `HostFunction::mode`.
    pub main: HostFnId,
    pub storage: Storage,
    /// The host control graph of every function lowered once (`host_program::lower`): what
    /// the executors walk.
    pub host: crate::host_program::HostProgram,
    /// The asynchronous regions of the simulator's trace, for the GPU's trace
    /// (`AsyncRegion`).
    pub async_regions: Vec<AsyncRegion>,
    /// The barriers of each kernel of barrier phases (`CutReason::Suspend`), for the GPU's
    /// trace.
    pub phase_barriers: Vec<PhaseBarriers>,
}

/// The `barrier`s of a kernel of barrier phases (`phases`): a processor that stopped at its
/// k-th stop (a `barrier`, `start` or `seq`) holds -k in `phase` after the launch, 0 once it
/// ran to the end.
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseBarriers {
    pub kernel: KernelId,
    pub phase: VarId,
    /// The stops that are `barrier`s: k and the statement.
    pub barriers: Vec<(u32, Span)>,
}

/// Asynchronous code that a group runs as one region of the simulator's trace: a `farm`, a
/// synchronous statement's call of an `async` function (which the simulator also traces as a
/// call), an asynchronous host function (`main`, or an `async` function a group calls).
#[derive(Debug, Clone, PartialEq)]
pub struct AsyncRegion {
    pub within: AsyncWithin,
    /// Where the simulator's trace places it: the `farm`'s body, the function's first
    /// statement (in the source: a `farm` there is no block yet).
    pub span: Span,
    /// The `async` function a synchronous statement calls, and the call.
    pub call: Option<(FuncId, Span)>,
}

/// What an `AsyncRegion` compiled into.
#[derive(Debug, Clone, PartialEq)]
pub enum AsyncWithin {
    /// A `farm` or a call: the kernels made while it was compiled, one after the other (the
    /// kernels of the group constructs in it among them); `end` is one past the last. `own`:
    /// one the region's own group launches (None: a `farm` of group constructs only).
    Kernels {
        first: KernelId,
        end: KernelId,
        own: Option<KernelId>,
    },
    /// A function: all of its code.
    Function(HostFnId),
}

impl Plan {
    pub fn kernel(&self, id: KernelId) -> &Kernel {
        &self.kernels[id.0 as usize]
    }

    pub fn function(&self, id: HostFnId) -> &HostFunction {
        &self.functions[id.0 as usize]
    }

    /// The asynchronous regions of the simulator's trace as the host program holds them
    /// (`Plan::async_regions`), for the GPU's trace: the instructions of each, and where they
    /// are in it. A region whose code holds no kernel (a `farm` of a `seq` only) has none.
    pub fn traced_asyncs(&self) -> Vec<TracedAsync> {
        use crate::host_program::Instr;
        let code = &self.host.code;
        self.async_regions
            .iter()
            .map(|r| {
                let pcs = match r.within {
                    AsyncWithin::Kernels { first, end, .. } => self.kernels_pcs(first..end),
                    AsyncWithin::Function(f) => {
                        let entry = self.host.entry(f).0;
                        let end = code[entry as usize..]
                            .iter()
                            .position(|i| matches!(i, Instr::Ret))
                            .map_or(code.len() as u32, |n| entry + n as u32 + 1);
                        entry..end
                    }
                };
                let own = match r.within {
                    AsyncWithin::Kernels { own, .. } => own.and_then(|k| {
                        code.iter()
                            .position(|i| matches!(i, Instr::Launch(l) if *l == k))
                            .map(|pc| pc as u32)
                    }),
                    AsyncWithin::Function(_) => Some(pcs.start),
                };
                TracedAsync {
                    pcs,
                    own,
                    span: r.span,
                    call: r.call,
                    whole_function: matches!(r.within, AsyncWithin::Function(_)),
                }
            })
            .collect()
    }

    /// The instructions from the first launch of `kernels` to the last, with the host loops of
    /// barrier phases among them (empty when none is launched).
    fn kernels_pcs(&self, kernels: std::ops::Range<KernelId>) -> std::ops::Range<u32> {
        use crate::host_program::{Instr, Pc};
        let code = &self.host.code;
        let mut pcs: Option<std::ops::Range<u32>> = None;
        for (pc, instr) in code.iter().enumerate() {
            let Instr::Launch(k) = instr else { continue };
            if !kernels.contains(k) {
                continue;
            }
            let pc = pc as u32;
            let mut here = pc..pc + 1;
            // Barrier phases: the host loop that launches the kernel again is the region's.
            if self.kernel(*k).ends == CutReason::Suspend {
                if let Some((_, exit)) = self.host.loop_of(Pc(pc)) {
                    let begin = code[..pc as usize]
                        .iter()
                        .rposition(|i| matches!(i, Instr::LoopBegin { exit: e, .. } if *e == exit))
                        .map_or(pc, |b| b as u32);
                    here = begin..exit.0 + 1;
                }
            }
            pcs = Some(match pcs {
                Some(p) => p.start.min(here.start)..p.end.max(here.end),
                None => here,
            });
        }
        pcs.unwrap_or(0..0)
    }

    /// Per instruction of the host program, what its end means to the GPU's trace of
    /// asynchronous code (`AsyncAt`).
    pub fn async_at(&self) -> Vec<AsyncAt> {
        use crate::host_program::{Instr, Pc};
        let host = &self.host;
        let asyncs = self.traced_asyncs();
        let nestings: Vec<_> = (0..host.entries.len())
            .map(|f| host.nesting(HostFnId(f as u32)).ok())
            .collect();
        let nesting = |pc: u32| {
            nestings[host.function_at(Pc(pc)).0 as usize]
                .as_ref()
                .and_then(|n| n.at(Pc(pc)))
        };
        // The nesting of each region's own group.
        let bases: Vec<_> = asyncs.iter().map(|a| a.own.and_then(nesting)).collect();
        (0..host.code.len() as u32)
            .map(|pc| {
                // An asynchronous function's region is its group instance's whole time: the
                // executors record none (`gpu::timeline` adds it).
                let inner = asyncs
                    .iter()
                    .enumerate()
                    .filter(|(_, a)| !a.whole_function && a.pcs.contains(&pc))
                    .min_by_key(|(_, a)| a.pcs.len());
                AsyncAt {
                    region: inner.map(|(i, _)| i),
                    opens: inner
                        .is_some_and(|(i, _)| nesting(pc).is_some() && nesting(pc) == bases[i]),
                    barrier: matches!(&host.code[pc as usize], Instr::Launch(k)
                        if matches!(self.kernel(*k).ends, CutReason::Barrier(Some(_)))),
                }
            })
            .collect()
    }

    /// The host function that implements the HIR function `func`, if it runs on the host.
    pub fn host_function_of(&self, func: FuncId) -> Option<HostFnId> {
        self.functions
            .iter()
            .position(|f| f.func == func)
            .map(|i| HostFnId(i as u32))
    }
}

/// An asynchronous region of the simulator's trace in the host program
/// (`Plan::traced_asyncs`).
#[derive(Debug, Clone, PartialEq)]
pub struct TracedAsync {
    /// Its instructions: from its first kernel's launch (an asynchronous function's entry)
    /// to its last one's (the function's `ret`), with the host loops of its barrier phases.
    pub pcs: std::ops::Range<u32>,
    /// An instruction its own group runs (a function's entry, a launch of an `own` kernel):
    /// the group runs its collectives at this one's nesting (`HostProgram::nesting`); deeper
    /// ones are those of the groups it forms, and of their ends. None: a `farm` of group
    /// constructs only, which is not recorded.
    pub own: Option<u32>,
    pub span: Span,
    /// `AsyncRegion::call`.
    pub call: Option<(FuncId, Span)>,
    /// An asynchronous function's body: the region is its group instance's whole time, from
    /// its formation to the members' return.
    pub whole_function: bool,
}

/// What an instruction's end means to the GPU's trace of asynchronous code
/// (`Plan::async_at`): a group's asynchronous region (a `farm`, an asynchronous call) is the
/// run of its collectives inside the region's instructions, opened by the first one the
/// group itself runs; a kernel that ends at a `barrier` is where the group's members meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AsyncAt {
    /// The innermost region of `Plan::traced_asyncs` the instruction lies in.
    pub region: Option<usize>,
    /// The region's own group runs it (its nesting is the region's first instruction's, not
    /// that of a group the region forms): it may open the region.
    pub opens: bool,
    /// It launches a kernel that ends at a `barrier` statement.
    pub barrier: bool,
}

/// A piece of one function that runs without a barrier across processors.
#[derive(Debug, Clone, PartialEq)]
pub struct Kernel {
    /// `k<index>_<function>` (unique, a valid C identifier).
    pub name: String,
    /// The function whose code this is (its locals are the kernel's locals).
    pub func: FuncId,
    /// `Sync`: launched for the active members of a group in lockstep semantics (ends at a
    /// cut). `Async`: the members run independently (ends only at a `barrier`, the end of a
    /// `farm`/`async` region, or a host construct).
    pub mode: Mode,
    pub body: Vec<hir::Stmt>,
    /// The source the kernel covers (first to last statement).
    pub span: Span,
    /// Why the kernel ends where it does (shown in the Plan text and the CUDA comments).
    pub ends: CutReason,
    /// It runs a cyclic loop (`rules::loops::cyclic_in_group`), whose work per member grows
    /// with the loop's bound: it is launched over the group's threads on every SM, never in
    /// a block region, which runs on one (`regions`).
    pub spread: bool,
    /// The loops of its body (by span) that are in it whole because their iterations may run
    /// in any order (`rules::loops::order_free`): every store of one stores the same constant
    /// or a cell of its counter that belongs to one iteration of one member, and no other
    /// statement of a synchronous kernel writes what it writes (a kernel ends before one
    /// would, `Builder::append`). So two members' stores there never conflict under `--crcw
    /// common`, and the check logs none of them.
    pub order_free: Vec<Span>,
    /// The order-free loops (of `order_free`) whose iterations may load their values ahead
    /// of the stores of the iterations before them (`rules::loops::loads_ahead`): the body is
    /// one or more stores, into shared memory, of values that only read (shared memory among
    /// it) and can fault only by an access out of its object, none reading what a store before
    /// it writes, so an iteration's loads see what they would in order. The emitted loop loads
    /// batches of iterations' values at once, where its checks before it cover their accesses
    /// or it tests them first (`emit_cuda::device::loads_ahead_batch`).
    pub loads_ahead: Vec<Span>,
    /// The statements of its body (by span) that store into a cell that differs between
    /// members, `p[u ± mpadd(&c, k)] = v` (`rules::distinct`): no two members' stores there
    /// conflict, nothing else in the kernel writes what they write, and the `--crcw common`
    /// check logs none of them.
    pub distinct_stores: Vec<Span>,
}

/// Why the transform cut after a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutReason {
    /// Rule 1: a shared write that a later read (or write) of another processor may see.
    SharedWrite,
    /// Rule 1: the right-hand sides of a statement that writes shared memory were evaluated
    /// into private temporaries; the next kernel writes them.
    ReadBeforeWrite,
    /// Rule 1: the next statement writes shared memory that reads of this kernel (by other
    /// processors) may still need; every member reads before any member writes.
    WriteAfterRead,
    /// `printf` in a synchronous region: the output of a statement is ordered by `$$`.
    Output,
    /// A host construct follows (call, split, host loop, seq, start, multiprefix).
    HostConstruct,
    /// `barrier` in asynchronous code (the statement), or the end of a `farm` or of a
    /// synchronous statement's asynchronous call (None).
    Barrier(Option<Span>),
    /// The end of the enclosing host block (branch, loop body, function).
    BlockEnd,
    /// Leaving: the kernel ends with an unconditional `return`.
    Return,
    /// A cyclic loop ends its kernel (`Kernel::spread`), so that what follows may run in a
    /// block region.
    Spread,
    /// Barrier phases (`phases`): asynchronous code whose processors may meet at different
    /// barriers; each launch runs every processor to its next barrier, and a host loop
    /// launches it again until all have run to the end. Every private variable it uses lives
    /// in a slot.
    Suspend,
}

/// The host side of one function: the control graph the host walks for a calling group.
#[derive(Debug, Clone, PartialEq)]
pub struct HostFunction {
    pub func: FuncId,
    pub name: String,
    /// The mode the body starts in: `Sync` for `sync` functions (and `sync main`), `Async`
    /// for an asynchronous `main` (its `start` opens the synchronous region) and for
    /// `async` functions called at host level.
    pub mode: Mode,
    pub body: Vec<HostOp>,
    /// The slot that receives each processor's return value (non-void functions).
    pub ret: Option<VarId>,
    /// The shared frame a calling group allocates on entry (the function's outermost `sh`
    /// locals and `sh` parameters); freed on return.
    pub shared_frame: SharedFrameId,
    /// Spilled private bytes per processor of one activation (the frame the call pushes on
    /// every member's slot stack, laid out as `Storage` describes).
    pub frame_bytes: u64,
}

/// One node of the host control graph. Nodes run in order for the current group; a node's
/// nested blocks run for the group the node says.
#[derive(Debug, Clone, PartialEq)]
pub enum HostOp {
    /// Run the kernel: one thread per member of the current group, only active members work.
    Launch(KernelId),
    /// `Split{if|fork}` (the study's ComputeSubgroups) + the arms + `Restore` (RestoreGroup):
    /// the host reads what decides the split, forms the subgroups (sizes, new `$$` by a scan
    /// in the parent's `$$` order), runs each arm for its subgroup in canonical order (then
    /// before else, fork subgroups by `@`), then restores the parent group (a barrier of all
    /// its members; subgroup shared frames are freed).
    Split(Split),
    /// A host branch on a *shared* condition: no new group. The host reads the condition
    /// slot of the first active member. Used where an `if`/`switch` on a shared condition
    /// contains a cut.
    Branch {
        cond: VarId,
        then: Vec<HostOp>,
        els: Vec<HostOp>,
    },
    /// A loop whose body needs a cut.
    Loop(HostLoop),
    /// Rule 2: a host-level call. Pushes a frame of `frame_bytes` on every member's slot
    /// stack and a shared frame for the group, copies the argument slots into the callee's
    /// parameters (a shared parameter takes the value of the first active member), runs the
    /// callee's graph for the same group, clears `Return` statuses, copies the callee's `ret`
    /// slot into `result`, pops the frames.
    Call(Call),
    /// Every active member has returned (an unconditional `return` at host level; the
    /// preceding kernel stored the values in `HostFunction::ret` and set the statuses). The
    /// host skips the rest of the enclosing block and of enclosing `Branch` blocks; an
    /// enclosing split arm, loop, `seq` or `start` ends normally for the group's other
    /// members.
    Return,
    /// `seq S`: only the present member with the smallest `$$` runs the nested ops
    /// (asynchronous kernels of one thread); the others wait at its end.
    Seq { body: Vec<HostOp>, span: Span },
    /// `start S`: a barrier of all P processors, which then form the root group (`@` = 0,
    /// `$` = `$$` = `__PROC_NR__`) and run the nested ops synchronously; afterwards they
    /// continue asynchronously.
    Start {
        body: Vec<HostOp>,
        shared_frame: SharedFrameId,
        /// The `start` statement (or the asynchronous `seq` it stands for).
        span: Span,
    },
    /// A synchronous multiprefix (`mpadd`, `syncadd`, ...): the members that executed the
    /// preceding kernel's evaluation of `ptr` and `value` are combined per cell in
    /// `__PROC_NR__` order; each gets the exclusive prefix in `result` (None for `sync*`).
    /// On the device this is a segmented scan over (cell, `__PROC_NR__`).
    Multiprefix(Multiprefix),
    /// A block region (`regions`): the nested ops (no call, fork, `start` or `return`
    /// among them) as one kernel of one thread block, where the block's barriers replace the
    /// host's launches and read-backs. An executor may run `Region::ops` the ordinary way
    /// instead; the GPU runs the region kernel when the group fits one block.
    Region(Region),
}

impl HostOp {
    /// The blocks of host ops nested in this op, in program order.
    pub fn blocks(&self) -> Vec<&[HostOp]> {
        match self {
            HostOp::Split(split) => split.arms.iter().map(Vec::as_slice).collect(),
            HostOp::Branch { then, els, .. } => vec![then, els],
            HostOp::Loop(l) => vec![&l.entry_cond, &l.body, &l.latch],
            HostOp::Seq { body, .. } | HostOp::Start { body, .. } => vec![body],
            HostOp::Region(r) => vec![&r.ops],
            HostOp::Launch(_) | HostOp::Call(_) | HostOp::Return | HostOp::Multiprefix(_) => {
                Vec::new()
            }
        }
    }

    /// `blocks`, to change them.
    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<HostOp>> {
        match self {
            HostOp::Split(split) => split.arms.iter_mut().collect(),
            HostOp::Branch { then, els, .. } => vec![then, els],
            HostOp::Loop(l) => vec![&mut l.entry_cond, &mut l.body, &mut l.latch],
            HostOp::Seq { body, .. } | HostOp::Start { body, .. } => vec![body],
            HostOp::Region(r) => vec![&mut r.ops],
            HostOp::Launch(_) | HostOp::Call(_) | HostOp::Return | HostOp::Multiprefix(_) => {
                Vec::new()
            }
        }
    }
}

/// A host-level call (`HostOp::Call`; lowered unchanged, `host_program::Instr::Call`).
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub callee: HostFnId,
    /// Caller slots holding the evaluated arguments, in parameter order.
    pub args: Vec<VarId>,
    pub result: Option<VarId>,
    pub span: Span,
}

/// A synchronous multiprefix (`HostOp::Multiprefix`; lowered unchanged,
/// `host_program::Instr::Multiprefix`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Multiprefix {
    pub op: MpOp,
    pub ptr: VarId,
    pub value: VarId,
    pub result: Option<VarId>,
    pub span: Span,
}

/// A block region: see `HostOp::Region` and `crate::regions`.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// The region kernel's name (`r0_main`).
    pub name: String,
    pub ops: Vec<HostOp>,
    pub needs: RegionNeeds,
    pub kind: RegionKind,
}

/// How a region's kernel runs its group (`regions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// One thread block, a thread per member: splits, loop groups, `seq` and multiprefix
    /// with block barriers and scans, on one SM.
    Block,
    /// One cooperative launch over every SM, for a run that holds a kernel whose work grows
    /// with a loop bound (`Kernel::spread`) and otherwise only kernels, shared branches and
    /// loops without a loop group: every thread takes its members' decisions itself (they
    /// are uniform), and a grid barrier separates two kernels only where their shared
    /// accesses conflict.
    Grid,
}

/// The runtime stack space a region's nested groups take at most, reserved by the host
/// before the launch: group descriptors, member lists and word lists (each as long as the
/// region's group), and shared-frame bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RegionNeeds {
    pub groups: u32,
    pub member_lists: u32,
    pub word_lists: u32,
    pub frame_bytes: u64,
}

/// `Split{if|fork}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub kind: SplitKind,
    /// One block per arm: `[then, else]` for `If`, `[body]` for `Fork` (run once per
    /// non-empty subgroup, in `@` order).
    pub arms: Vec<Vec<HostOp>>,
    /// The shared frame each new subgroup allocates (its `sh` locals).
    pub shared_frames: Vec<SharedFrameId>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum SplitKind {
    /// Members with `cond != 0` form the then-group, the other active members the else-group.
    /// `@` and `$` are inherited. `loop_group`: the then-group is the loop group of a loop
    /// that runs whole in one kernel (`rules::loops`, `loop_group_kernel`), which traces name
    /// a loop, as the simulator's; the else-group, the members that do not enter, is empty
    /// code.
    If { cond: VarId, loop_group: bool },
    /// `fork (k; @ = e1; $ = e2)`: `count` (shared: taken from the first active member) gives
    /// k; member goes to subgroup `at` (members with `at` outside `0..k` skip the body and
    /// wait); `$` becomes `dollar` when given, else it is kept.
    Fork {
        count: VarId,
        at: VarId,
        dollar: Option<VarId>,
    },
}

/// A host loop: `Split{loop-entry}`, the body, `LoopExitUpdate` with its all-exited test, and
/// the `Restore` at the end.
///
/// Executors run it as:
/// 1. entry: the participants are the active members; if `test_first`, run `entry_cond` and
///    keep only the members whose `cond` holds (for a shared condition: all or none). When
///    `forms_group`, the participants form the loop group (fresh `$$`, `groupsize()`, kept
///    for the whole loop, `@` and `$` inherited);
/// 2. iterate: run `body`; clear `Continue` among the participants; run `latch` (the step
///    and the condition);
/// 3. `LoopExitUpdate` (the study's Updategroup): participants still active whose `cond` is 0
///    leave (`Break`); all-exited test (lastexit): no active participant → go to 4, else 2;
/// 4. `Restore`: clear `Break` among the participants, back to the enclosing group.
///
/// A loop that forms no group and whose body sets `cond` to 0 runs once for the members
/// that enter it, the others waiting at its end with `$$` and `groupsize()` unchanged: the
/// transform uses it for an operand of `&&`, `||`, `?:` that holds a host operation, and for
/// a `switch` case that a `break` under a condition leaves.
#[derive(Debug, Clone, PartialEq)]
pub struct HostLoop {
    /// None: a loop without condition; it ends when every participant has left.
    pub cond: Option<VarId>,
    pub test_first: bool,
    /// Whether the participants form a new group (a private condition in a synchronous
    /// region); a shared condition keeps the group.
    pub forms_group: bool,
    /// Computes `cond` before the first iteration (`test_first` only). Empty when the
    /// preceding kernel already computed it.
    pub entry_cond: Vec<HostOp>,
    pub body: Vec<HostOp>,
    /// The `for` step and the condition evaluation, after the body. Empty when the body's
    /// last kernel computes them (no `continue` leaves that kernel).
    pub latch: Vec<HostOp>,
    /// The shared frame the loop group allocates (its `sh` locals).
    pub shared_frame: SharedFrameId,
    pub span: Span,
}

/// Where variables live. Every executor uses exactly this layout.
///
/// - **Shared globals**: one region, `shared_globals_bytes` bytes, each at `Home::Shared`'s
///   offset.
/// - **Private globals**: one slot per processor, in the *global private frame*
///   (`private_globals_bytes` per processor).
/// - **Spilled private slots** (`Home::Slot`): a private local that crosses a kernel boundary,
///   whose address is taken, or that is not a scalar. A frame of `F` bytes per processor for
///   `P` processors occupies `F * P` bytes; the slot at frame offset `o` with size `s` of
///   processor `p` lives at `frame_base + o * P + p * s`, so consecutive processors touch
///   consecutive addresses (coalescing). The global private frame sits at the bottom of the
///   slot stack; every host `Call` pushes the callee's frame above the caller's (all members
///   of a group share one call chain, so a group has one frame base).
/// - **Shared locals** (`Home::SharedFrame`): in the shared frame of the group instance that
///   opened their scope (a function call, a split arm, a loop group, `start`), found by
///   walking from the current group to its ancestors.
/// - Private locals absent from `home` are registers of one kernel.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Storage {
    /// Indexed by `VarId`: where the variable lives; None for kernel registers.
    pub home: Vec<Option<Home>>,
    pub shared_globals_bytes: u64,
    pub private_globals_bytes: u64,
    pub shared_frames: Vec<SharedFrame>,
}

impl Storage {
    pub fn home(&self, var: VarId) -> Option<Home> {
        self.home.get(var.0 as usize).copied().flatten()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// Offset in the shared-globals region.
    Shared { offset: u64 },
    /// Frame offset in the global private frame (`frame_base` = the slot stack's base).
    PrivateGlobal { offset: u64 },
    /// Frame offset in the current activation's private frame of its host function.
    Slot { offset: u64 },
    /// Offset in a group instance's shared frame.
    SharedFrame { frame: SharedFrameId, offset: u64 },
}

/// The layout of one shared scope's frame.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SharedFrame {
    /// The scope, for the Plan text (`main`, `qsort: then-arm at 12:5`, ...).
    pub name: String,
    pub bytes: u64,
}
