//! The host control graph lowered once: every host function's tree of `HostOp`s becomes a
//! flat list of instructions with explicit jumps (`HostProgram`), and `walk` runs it for any
//! executor that implements `HostMachine`.
//!
//! Why one lowering: the CPU Plan executor and the GPU driver used to walk the `HostOp` tree
//! each in its own way, and every new construct had to be taught to every walk. Now the order
//! of group operations (which arm runs next, where a `return` goes, when a loop repeats, where
//! a call comes back to) is decided here, once; an executor only says how it launches a
//! kernel, forms subgroups, updates loop exits and calls. The flat form is also what a
//! device-resident schedule runs: a processor's program point is a `Pc`.
//!
//! Invariants (checked by `crate::valid`, the nesting through `HostProgram::nesting`): every
//! jump target is inside the program; every `Split` arm ends with `SubgroupEnd`; `LoopBegin`
//! … `LoopEnter` … `LoopNext` … `LoopLatch` … `LoopEnd` appear in this order for one loop;
//! every function's code ends with `Ret`.

use crate::plan::{
    Call, HostFnId, HostLoop, HostOp, KernelId, Multiprefix, Plan, RegionKind, RegionNeeds,
    SharedFrameId, Split, SplitKind,
};
use fork_frontend::hir::{MpOp, VarId};
use fork_frontend::source::Span;
use std::collections::BTreeSet;
use std::fmt::Write;

/// An index into `HostProgram::code`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pc(pub u32);

#[derive(Debug, Clone, PartialEq, Default)]
pub struct HostProgram {
    pub code: Vec<Instr>,
    /// Where each host function's code starts, indexed by `HostFnId`.
    pub entries: Vec<Pc>,
}

impl HostProgram {
    pub fn entry(&self, f: HostFnId) -> Pc {
        self.entries[f.0 as usize]
    }

    /// The names of the grid regions (`RegionKind::Grid`), in code order.
    pub fn grid_regions(&self) -> impl Iterator<Item = &str> + '_ {
        self.code.iter().filter_map(|instr| match instr {
            Instr::Region {
                name,
                kind: RegionKind::Grid,
                ..
            } => Some(name.as_str()),
            _ => None,
        })
    }

    /// The kernels that a region's instructions launch.
    pub fn region_launches(&self) -> BTreeSet<KernelId> {
        let mut launched = BTreeSet::new();
        for (at, instr) in self.code.iter().enumerate() {
            if let Instr::Region { end, .. } = instr {
                for i in &self.code[at + 1..end.0 as usize] {
                    if let Instr::Launch(k) = i {
                        launched.insert(*k);
                    }
                }
            }
        }
        launched
    }

    /// The host function whose code holds `pc`.
    pub fn function_at(&self, pc: Pc) -> HostFnId {
        let f = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.0 <= pc.0)
            .max_by_key(|(_, e)| e.0)
            .map_or(0, |(i, _)| i);
        HostFnId(f as u32)
    }

    /// The loop an instruction inside it belongs to: the innermost `LoopBegin` before it
    /// whose exit lies after it; its header and exit.
    pub fn loop_of(&self, pc: Pc) -> Option<(LoopHeader, Pc)> {
        self.code[..pc.0 as usize]
            .iter()
            .rev()
            .find_map(|i| match i {
                Instr::LoopBegin { header, exit } if exit.0 > pc.0 => Some((*header, *exit)),
                _ => None,
            })
    }
}

/// A group operation open at an instruction (`HostProgram::nesting`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// A split, by the pc of its `Split`.
    Split(Pc),
    /// A loop, by the pc of its `LoopBegin`; `entered` after its `LoopEnter`.
    Loop {
        at: Pc,
        entered: bool,
    },
    Seq,
    Start,
}

/// The group operations open at each instruction of one function, innermost last.
#[derive(Debug, Clone, PartialEq)]
pub struct Nesting {
    entry: Pc,
    open: Vec<Option<Vec<Open>>>,
}

impl Nesting {
    /// The operations open at `pc` (None: no path reaches it).
    pub fn at(&self, pc: Pc) -> Option<&[Open]> {
        let i = pc.0.checked_sub(self.entry.0)? as usize;
        self.open.get(i)?.as_deref()
    }
}

impl HostProgram {
    /// Follows every path of host function `f`'s code with the stack of open group
    /// operations; the stack at an instruction must be the same on every path that reaches
    /// it, so it is a static property of the instruction. The validator checks it here; the
    /// block-region emitter gives each open operation its state from it. Err: what is wrong.
    pub fn nesting(&self, f: HostFnId) -> Result<Nesting, String> {
        let entry = self.entry(f);
        let end = self
            .entries
            .iter()
            .map(|e| e.0)
            .filter(|e| *e > entry.0)
            .min()
            .unwrap_or(self.code.len() as u32);
        let mut seen: Vec<Option<Vec<Open>>> = vec![None; (end - entry.0) as usize];
        let mut work = vec![(entry, Vec::new())];
        while let Some((pc, open)) = work.pop() {
            if pc.0 < entry.0 || pc.0 >= end {
                return Err(format!(
                    "a jump to {} leaves the function ({}..{end})",
                    pc.0, entry.0
                ));
            }
            let slot = &mut seen[(pc.0 - entry.0) as usize];
            if let Some(before) = slot {
                if *before != open {
                    return Err(format!(
                    "instruction {} is reached with different open operations ({before:?} and {open:?})",
                    pc.0
                ));
                }
                continue;
            }
            *slot = Some(open.clone());
            let next = Pc(pc.0 + 1);
            let top = open.last().copied();
            let popped = || open[..open.len() - 1].to_vec();
            let pushed = |o: Open| {
                let mut v = open.clone();
                v.push(o);
                v
            };
            let wrong = |what: &str| format!("instruction {}: {what} (open: {open:?})", pc.0);
            match &self.code[pc.0 as usize] {
                Instr::Launch(_) | Instr::Call(_) | Instr::Multiprefix(_) => {
                    work.push((next, open.clone()))
                }
                Instr::Branch { els, end, .. } => {
                    work.push((next, open.clone()));
                    work.push((*els, open.clone()));
                    work.push((*end, open.clone()));
                }
                Instr::Jump(to) => work.push((*to, open.clone())),
                Instr::Region { end, .. } => {
                    work.push((next, open.clone()));
                    work.push((*end, open.clone()));
                }
                Instr::Split { arms, end, .. } => {
                    for arm in arms {
                        work.push((*arm, pushed(Open::Split(pc))));
                    }
                    work.push((*end, open.clone()));
                }
                Instr::SubgroupEnd => {
                    let Some(Open::Split(at)) = top else {
                        return Err(wrong("`subgroup end` outside a split arm"));
                    };
                    let Instr::Split { arms, end, .. } = &self.code[at.0 as usize] else {
                        return Err(wrong("a split that is not a `Split`"));
                    };
                    for arm in arms {
                        work.push((*arm, open.clone()));
                    }
                    work.push((*end, popped()));
                }
                Instr::LoopBegin { exit, .. } => {
                    if !matches!(self.code.get(exit.0 as usize), Some(Instr::LoopEnd)) {
                        return Err(wrong("a loop whose exit is not its `LoopEnd`"));
                    }
                    work.push((
                        next,
                        pushed(Open::Loop {
                            at: pc,
                            entered: false,
                        }),
                    ));
                }
                Instr::LoopEnter => {
                    let Some(Open::Loop { at, entered: false }) = top else {
                        return Err(wrong("`loop enter` outside its loop's entry"));
                    };
                    let Instr::LoopBegin { exit, .. } = &self.code[at.0 as usize] else {
                        return Err(wrong("a loop that is not a `LoopBegin`"));
                    };
                    let mut inside = popped();
                    inside.push(Open::Loop { at, entered: true });
                    work.push((next, inside.clone()));
                    work.push((*exit, inside));
                }
                Instr::LoopNext => {
                    if !matches!(top, Some(Open::Loop { entered: true, .. })) {
                        return Err(wrong("`loop next` outside a loop body"));
                    }
                    work.push((next, open.clone()));
                }
                Instr::LoopLatch { body } => {
                    if !matches!(top, Some(Open::Loop { entered: true, .. })) {
                        return Err(wrong("`loop latch` outside a loop"));
                    }
                    work.push((*body, open.clone()));
                    work.push((next, open.clone()));
                }
                Instr::LoopEnd => {
                    if !matches!(top, Some(Open::Loop { entered: true, .. })) {
                        return Err(wrong("`loop end` outside an entered loop"));
                    }
                    work.push((next, popped()));
                }
                Instr::SeqBegin { .. } => work.push((next, pushed(Open::Seq))),
                Instr::SeqEnd => {
                    if top != Some(Open::Seq) {
                        return Err(wrong("`seq end` without its `seq begin`"));
                    }
                    work.push((next, popped()));
                }
                Instr::StartBegin { .. } => work.push((next, pushed(Open::Start))),
                Instr::StartEnd => {
                    if top != Some(Open::Start) {
                        return Err(wrong("`start end` without its `start begin`"));
                    }
                    work.push((next, popped()));
                }
                Instr::Ret => {
                    if !open.is_empty() {
                        return Err(wrong("`ret` with group operations still open"));
                    }
                }
            }
        }
        Ok(Nesting { entry, open: seen })
    }
}

/// A loop's header: `HostLoop` without its blocks (they are lowered in place).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoopHeader {
    pub cond: Option<VarId>,
    pub test_first: bool,
    pub forms_group: bool,
    pub shared_frame: SharedFrameId,
    pub span: Span,
}

/// One host instruction. Each runs for the current group; the group changes only at the
/// instructions that form or restore one (split, loop, call, start).
#[derive(Debug, Clone, PartialEq)]
pub enum Instr {
    /// Run the kernel for the active members of the current group.
    Launch(KernelId),
    /// A branch on a shared condition (the first active member's slot): falls through for
    /// true, jumps to `els` for false, and to `end` when no member is active.
    Branch {
        cond: VarId,
        els: Pc,
        end: Pc,
    },
    Jump(Pc),
    /// Forms the subgroups and runs `arms[arm]` for each non-empty one in canonical order;
    /// each arm ends with `SubgroupEnd`. After the last subgroup (or when none is
    /// non-empty), the parent group is restored and the walk goes on at `end`.
    Split {
        kind: SplitKind,
        shared_frames: Vec<SharedFrameId>,
        arms: Vec<Pc>,
        end: Pc,
        span: Span,
    },
    /// The end of a split arm: the next subgroup, or the restore.
    SubgroupEnd,
    /// Marks the participants; the entry condition follows (when `test_first`), then
    /// `LoopEnter`. `exit` is the loop's `LoopEnd`.
    LoopBegin {
        header: LoopHeader,
        exit: Pc,
    },
    /// Forms the loop group; jumps to the `LoopEnd` when no participant runs.
    LoopEnter,
    /// After the body: members that left by `continue` are active again; the latch follows.
    LoopNext,
    /// The loop-exit update and the all-exited test: back to `body`, or on to `LoopEnd`.
    LoopLatch {
        body: Pc,
    },
    /// Members that left by `break` are active again; the enclosing group is restored.
    LoopEnd,
    /// A call of a host function for the current group; comes back after the callee's `Ret`.
    Call(Call),
    /// The end of a function's code (and where a `return` at its top level jumps).
    Ret,
    SeqBegin {
        span: Span,
    },
    SeqEnd,
    StartBegin {
        shared_frame: SharedFrameId,
        span: Span,
    },
    StartEnd,
    Multiprefix(Multiprefix),
    /// A region (`regions`): an executor that runs it as one kernel jumps to `end`;
    /// otherwise the region's own instructions follow.
    Region {
        name: String,
        needs: RegionNeeds,
        kind: RegionKind,
        end: Pc,
    },
}

/// Lowers every host function of the Plan.
pub fn lower(plan: &Plan) -> HostProgram {
    let mut l = Lowering {
        code: Vec::new(),
        returns: Vec::new(),
    };
    let mut entries = Vec::new();
    for f in &plan.functions {
        entries.push(l.pc());
        l.returns.push(Vec::new());
        l.block(&f.body);
        l.end_block_here();
        l.code.push(Instr::Ret);
    }
    HostProgram {
        code: l.code,
        entries,
    }
}

struct Lowering {
    code: Vec<Instr>,
    /// For each enclosing block a `return` leaves: the jumps to patch to its end.
    returns: Vec<Vec<usize>>,
}

impl Lowering {
    fn pc(&self) -> Pc {
        Pc(self.code.len() as u32)
    }

    /// Patches the innermost block's `return` jumps to the next instruction.
    fn end_block_here(&mut self) {
        let here = self.pc();
        for i in self.returns.pop().unwrap_or_default() {
            self.code[i] = Instr::Jump(here);
        }
    }

    /// A block a `return` leaves (split arm, loop part, seq, start body).
    fn leaving_block(&mut self, ops: &[HostOp]) {
        self.returns.push(Vec::new());
        self.block(ops);
        self.end_block_here();
    }

    fn block(&mut self, ops: &[HostOp]) {
        for op in ops {
            self.op(op);
        }
    }

    fn op(&mut self, op: &HostOp) {
        match op {
            HostOp::Launch(k) => self.code.push(Instr::Launch(*k)),
            HostOp::Branch { cond, then, els } => {
                let at = self.code.len();
                self.code.push(Instr::Jump(Pc(0)));
                self.block(then);
                let jump = self.code.len();
                self.code.push(Instr::Jump(Pc(0)));
                let else_pc = self.pc();
                self.block(els);
                let end = self.pc();
                self.code[jump] = Instr::Jump(end);
                self.code[at] = Instr::Branch {
                    cond: *cond,
                    els: else_pc,
                    end,
                };
            }
            HostOp::Split(split) => self.split(split),
            HostOp::Loop(l) => self.host_loop(l),
            HostOp::Call(call) => self.code.push(Instr::Call(call.clone())),
            HostOp::Return => {
                let at = self.code.len();
                self.code.push(Instr::Jump(Pc(0)));
                if let Some(r) = self.returns.last_mut() {
                    r.push(at);
                }
            }
            HostOp::Seq { body, span } => {
                self.code.push(Instr::SeqBegin { span: *span });
                self.leaving_block(body);
                self.code.push(Instr::SeqEnd);
            }
            HostOp::Start {
                body,
                shared_frame,
                span,
            } => {
                self.code.push(Instr::StartBegin {
                    shared_frame: *shared_frame,
                    span: *span,
                });
                self.leaving_block(body);
                self.code.push(Instr::StartEnd);
            }
            HostOp::Multiprefix(mp) => self.code.push(Instr::Multiprefix(*mp)),
            HostOp::Region(r) => {
                let at = self.code.len();
                self.code.push(Instr::Jump(Pc(0)));
                // A region holds no `return`: its ops are lowered in place.
                self.block(&r.ops);
                self.code[at] = Instr::Region {
                    name: r.name.clone(),
                    needs: r.needs,
                    kind: r.kind,
                    end: self.pc(),
                };
            }
        }
    }

    fn split(&mut self, split: &Split) {
        let at = self.code.len();
        self.code.push(Instr::Jump(Pc(0)));
        let mut arms = Vec::new();
        for arm in &split.arms {
            arms.push(self.pc());
            self.leaving_block(arm);
            self.code.push(Instr::SubgroupEnd);
        }
        self.code[at] = Instr::Split {
            kind: split.kind.clone(),
            shared_frames: split.shared_frames.clone(),
            arms,
            end: self.pc(),
            span: split.span,
        };
    }

    fn host_loop(&mut self, l: &HostLoop) {
        let at = self.code.len();
        self.code.push(Instr::Jump(Pc(0)));
        self.leaving_block(&l.entry_cond);
        self.code.push(Instr::LoopEnter);
        let body = self.pc();
        self.leaving_block(&l.body);
        self.code.push(Instr::LoopNext);
        self.leaving_block(&l.latch);
        self.code.push(Instr::LoopLatch { body });
        let exit = self.pc();
        self.code.push(Instr::LoopEnd);
        self.code[at] = Instr::LoopBegin {
            header: LoopHeader {
                cond: l.cond,
                test_first: l.test_first,
                forms_group: l.forms_group,
                shared_frame: l.shared_frame,
                span: l.span,
            },
            exit,
        };
    }
}

/// Where the walk is: the current group, the activation's slot frame, the function, and
/// whether only the member with `$$ == 0` runs (inside `seq`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ctx<G> {
    pub group: G,
    pub slot_base: u64,
    pub func: HostFnId,
    pub seq: bool,
}

/// What an executor does at each host instruction; `walk` decides the order.
pub trait HostMachine {
    /// A group instance.
    type Group: Copy;
    /// A subgroup a split formed, entered when its arm runs.
    type Sub;
    /// What a split, loop, call and `start` keep to undo at their end.
    type SplitSaved;
    type LoopSaved;
    type CallSaved;
    type StartSaved;
    type Error;

    /// The walk is at `pc` (before its instruction runs); an executor that names where group
    /// instances form (`--trace`) keeps it.
    fn at(&mut self, _pc: Pc) {}

    fn launch(&mut self, k: KernelId, c: &Ctx<Self::Group>) -> Result<(), Self::Error>;
    /// A shared condition's value (the first active member's), None when none is active.
    fn branch(&mut self, cond: VarId, c: &Ctx<Self::Group>) -> Result<Option<bool>, Self::Error>;
    /// The non-empty subgroups in canonical order, each with the index of its arm.
    #[allow(clippy::type_complexity)]
    fn split(
        &mut self,
        kind: &SplitKind,
        shared_frames: &[SharedFrameId],
        c: &Ctx<Self::Group>,
    ) -> Result<(Vec<(Self::Sub, usize)>, Self::SplitSaved), Self::Error>;
    fn enter_subgroup(
        &mut self,
        sub: &Self::Sub,
        c: &Ctx<Self::Group>,
    ) -> Result<Self::Group, Self::Error>;
    fn leave_subgroup(
        &mut self,
        sub: &Self::Sub,
        inner: &Ctx<Self::Group>,
    ) -> Result<(), Self::Error>;
    fn restore(&mut self, saved: Self::SplitSaved, c: &Ctx<Self::Group>)
        -> Result<(), Self::Error>;
    fn loop_begin(
        &mut self,
        l: &LoopHeader,
        c: &Ctx<Self::Group>,
    ) -> Result<Self::LoopSaved, Self::Error>;
    /// Forms the loop group; whether any participant runs the first iteration.
    fn loop_enter(
        &mut self,
        l: &LoopHeader,
        saved: &mut Self::LoopSaved,
        c: &Ctx<Self::Group>,
    ) -> Result<(Self::Group, bool), Self::Error>;
    fn loop_next(
        &mut self,
        saved: &Self::LoopSaved,
        c: &Ctx<Self::Group>,
    ) -> Result<(), Self::Error>;
    /// The loop-exit update (in the loop group `inner`) and whether any participant is left.
    fn loop_latch(
        &mut self,
        l: &LoopHeader,
        saved: &Self::LoopSaved,
        c: &Ctx<Self::Group>,
        inner: &Ctx<Self::Group>,
    ) -> Result<bool, Self::Error>;
    fn loop_end(&mut self, saved: Self::LoopSaved, c: &Ctx<Self::Group>)
        -> Result<(), Self::Error>;
    /// Enters the callee for the current group: its context, or None to skip the call.
    #[allow(clippy::type_complexity)]
    fn call(
        &mut self,
        callee: HostFnId,
        args: &[VarId],
        span: Span,
        c: &Ctx<Self::Group>,
    ) -> Result<Option<(Ctx<Self::Group>, Self::CallSaved)>, Self::Error>;
    /// Back from the callee: return statuses cleared, the result copied, frames popped.
    fn ret(
        &mut self,
        result: Option<VarId>,
        saved: Self::CallSaved,
        inner: &Ctx<Self::Group>,
        c: &Ctx<Self::Group>,
    ) -> Result<(), Self::Error>;
    fn start(
        &mut self,
        shared_frame: SharedFrameId,
        c: &Ctx<Self::Group>,
    ) -> Result<(Self::Group, Self::StartSaved), Self::Error>;
    fn start_end(
        &mut self,
        saved: Self::StartSaved,
        c: &Ctx<Self::Group>,
    ) -> Result<(), Self::Error>;
    /// `seq` begins in the group of `c` (its present member with the smallest `$$` runs the
    /// body); an executor that times group instances (`--trace`) opens one of one processor.
    fn seq_begin(&mut self, _c: &Ctx<Self::Group>) -> Result<(), Self::Error> {
        Ok(())
    }
    /// The innermost `seq` ends.
    fn seq_end(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn multiprefix(
        &mut self,
        op: MpOp,
        operands: [VarId; 2],
        result: Option<VarId>,
        span: Span,
        c: &Ctx<Self::Group>,
    ) -> Result<(), Self::Error>;
    /// Runs a region as one kernel when the executor can; false: run its instructions.
    fn region(
        &mut self,
        _name: &str,
        _needs: RegionNeeds,
        _kind: RegionKind,
        _c: &Ctx<Self::Group>,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }
}

enum Frame<M: HostMachine> {
    Split {
        /// The `Split` instruction (its arms and end).
        at: Pc,
        subs: std::vec::IntoIter<(M::Sub, usize)>,
        current: M::Sub,
        saved: M::SplitSaved,
        outer: Ctx<M::Group>,
    },
    Loop {
        header: LoopHeader,
        exit: Pc,
        saved: M::LoopSaved,
        outer: Ctx<M::Group>,
    },
    Call {
        back: Pc,
        result: Option<VarId>,
        saved: M::CallSaved,
        outer: Ctx<M::Group>,
    },
    Seq {
        outer: Ctx<M::Group>,
    },
    Start {
        saved: M::StartSaved,
        outer: Ctx<M::Group>,
    },
}

/// Runs host function `c.func` from its entry for the group of `c`, to its `Ret`.
pub fn walk<M: HostMachine>(
    program: &HostProgram,
    m: &mut M,
    mut c: Ctx<M::Group>,
) -> Result<(), M::Error> {
    let mut pc = program.entry(c.func);
    let mut frames: Vec<Frame<M>> = Vec::new();
    loop {
        let mut next = Pc(pc.0 + 1);
        m.at(pc);
        match &program.code[pc.0 as usize] {
            Instr::Launch(k) => m.launch(*k, &c)?,
            Instr::Branch { cond, els, end } => match m.branch(*cond, &c)? {
                Some(true) => {}
                Some(false) => next = *els,
                None => next = *end,
            },
            Instr::Jump(to) => next = *to,
            Instr::Split {
                kind,
                shared_frames,
                arms,
                end,
                ..
            } => {
                let (subs, saved) = m.split(kind, shared_frames, &c)?;
                let mut subs = subs.into_iter();
                match subs.next() {
                    None => {
                        m.restore(saved, &c)?;
                        next = *end;
                    }
                    Some((current, arm)) => {
                        let outer = c;
                        c.group = m.enter_subgroup(&current, &outer)?;
                        next = arms[arm];
                        frames.push(Frame::Split {
                            at: pc,
                            subs,
                            current,
                            saved,
                            outer,
                        });
                    }
                }
            }
            Instr::SubgroupEnd => {
                let Some(Frame::Split {
                    at,
                    mut subs,
                    current,
                    saved,
                    outer,
                }) = frames.pop()
                else {
                    unreachable!("validated: SubgroupEnd inside a split arm")
                };
                let Instr::Split { arms, end, .. } = &program.code[at.0 as usize] else {
                    unreachable!("validated: a split frame points at its Split")
                };
                m.leave_subgroup(&current, &c)?;
                match subs.next() {
                    Some((sub, arm)) => {
                        c = outer;
                        c.group = m.enter_subgroup(&sub, &outer)?;
                        next = arms[arm];
                        frames.push(Frame::Split {
                            at,
                            subs,
                            current: sub,
                            saved,
                            outer,
                        });
                    }
                    None => {
                        c = outer;
                        m.restore(saved, &c)?;
                        next = *end;
                    }
                }
            }
            Instr::LoopBegin { header, exit } => {
                let saved = m.loop_begin(header, &c)?;
                frames.push(Frame::Loop {
                    header: *header,
                    exit: *exit,
                    saved,
                    outer: c,
                });
            }
            Instr::LoopEnter => {
                let Some(Frame::Loop {
                    header,
                    exit,
                    saved,
                    outer,
                }) = frames.last_mut()
                else {
                    unreachable!("validated: LoopEnter inside its loop")
                };
                let (g, running) = m.loop_enter(header, saved, outer)?;
                c.group = g;
                if !running {
                    next = *exit;
                }
            }
            Instr::LoopNext => {
                let Some(Frame::Loop { saved, outer, .. }) = frames.last() else {
                    unreachable!("validated: LoopNext inside its loop")
                };
                m.loop_next(saved, outer)?;
            }
            Instr::LoopLatch { body } => {
                let Some(Frame::Loop {
                    header,
                    saved,
                    outer,
                    ..
                }) = frames.last()
                else {
                    unreachable!("validated: LoopLatch inside its loop")
                };
                if m.loop_latch(header, saved, outer, &c)? {
                    next = *body;
                }
            }
            Instr::LoopEnd => {
                let Some(Frame::Loop { saved, outer, .. }) = frames.pop() else {
                    unreachable!("validated: LoopEnd closes its loop")
                };
                c = outer;
                m.loop_end(saved, &c)?;
            }
            Instr::Call(Call {
                callee,
                args,
                result,
                span,
            }) => {
                if let Some((inner, saved)) = m.call(*callee, args, *span, &c)? {
                    frames.push(Frame::Call {
                        back: next,
                        result: *result,
                        saved,
                        outer: c,
                    });
                    c = inner;
                    next = program.entry(*callee);
                }
            }
            Instr::Ret => match frames.pop() {
                Some(Frame::Call {
                    back,
                    result,
                    saved,
                    outer,
                }) => {
                    m.ret(result, saved, &c, &outer)?;
                    c = outer;
                    next = back;
                }
                None => return Ok(()),
                Some(_) => unreachable!("validated: Ret at a function's top level"),
            },
            Instr::SeqBegin { .. } => {
                m.seq_begin(&c)?;
                frames.push(Frame::Seq { outer: c });
                c.seq = true;
            }
            Instr::SeqEnd => {
                let Some(Frame::Seq { outer }) = frames.pop() else {
                    unreachable!("validated: SeqEnd closes its seq")
                };
                m.seq_end()?;
                c = outer;
            }
            Instr::StartBegin { shared_frame, .. } => {
                let (g, saved) = m.start(*shared_frame, &c)?;
                frames.push(Frame::Start { saved, outer: c });
                c.group = g;
                c.seq = false;
            }
            Instr::StartEnd => {
                let Some(Frame::Start { saved, outer }) = frames.pop() else {
                    unreachable!("validated: StartEnd closes its start")
                };
                c = outer;
                m.start_end(saved, &c)?;
            }
            Instr::Multiprefix(Multiprefix {
                op,
                ptr,
                value,
                result,
                span,
            }) => m.multiprefix(*op, [*ptr, *value], *result, *span, &c)?,
            Instr::Region {
                name,
                needs,
                kind,
                end,
            } => {
                if m.region(name, *needs, *kind, &c)? {
                    next = *end;
                }
            }
        }
        pc = next;
    }
}

/// The program as text, for `--emit plan`.
pub fn print(plan: &Plan, program: &HostProgram, out: &mut String) {
    let name = |v: VarId| plan.program.var(v).name.clone();
    let names = |vs: &[VarId]| vs.iter().map(|v| name(*v)).collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "host program:");
    for (pc, instr) in program.code.iter().enumerate() {
        if let Some(f) = program.entries.iter().position(|e| e.0 as usize == pc) {
            let _ = writeln!(out, "  {}:", plan.functions[f].name);
        }
        let text = match instr {
            Instr::Launch(k) => format!("launch {}", plan.kernel(*k).name),
            Instr::Branch { cond, els, end } => {
                format!(
                    "branch on shared {}, else {}, none active {}",
                    name(*cond),
                    els.0,
                    end.0
                )
            }
            Instr::Jump(to) => format!("jump {}", to.0),
            Instr::Split {
                kind, arms, end, ..
            } => {
                let arms = arms.iter().map(|a| a.0.to_string()).collect::<Vec<_>>();
                let what = match kind {
                    SplitKind::If { cond, .. } => format!("if {}", name(*cond)),
                    SplitKind::Fork { count, at, dollar } => format!(
                        "fork ({} groups, @ = {}{})",
                        name(*count),
                        name(*at),
                        dollar
                            .map(|d| format!(", $ = {}", name(d)))
                            .unwrap_or_default()
                    ),
                };
                format!("split {what}, arms {}, end {}", arms.join(" "), end.0)
            }
            Instr::SubgroupEnd => "subgroup end".into(),
            Instr::LoopBegin { header, exit } => format!(
                "loop begin (condition {}{}{}), exit {}",
                header.cond.map(name).unwrap_or_else(|| "(none)".into()),
                if header.test_first {
                    ", test first"
                } else {
                    ""
                },
                if header.forms_group {
                    ", forms group"
                } else {
                    ""
                },
                exit.0
            ),
            Instr::LoopEnter => "loop enter".into(),
            Instr::LoopNext => "loop next (continue ends)".into(),
            Instr::LoopLatch { body } => format!("loop latch: exit update, repeat at {}", body.0),
            Instr::LoopEnd => "loop end (restore)".into(),
            Instr::Call(Call {
                callee,
                args,
                result,
                ..
            }) => format!(
                "call {}{}({})",
                result
                    .map(|r| format!("{} = ", name(r)))
                    .unwrap_or_default(),
                plan.function(*callee).name,
                names(args)
            ),
            Instr::Ret => "ret".into(),
            Instr::SeqBegin { .. } => "seq begin".into(),
            Instr::SeqEnd => "seq end".into(),
            Instr::StartBegin { .. } => "start begin".into(),
            Instr::StartEnd => "start end".into(),
            Instr::Multiprefix(Multiprefix {
                op,
                ptr,
                value,
                result,
                ..
            }) => format!(
                "multiprefix {}{:?}({}, {})",
                result
                    .map(|r| format!("{} = ", name(r)))
                    .unwrap_or_default(),
                op,
                name(*ptr),
                name(*value)
            ),
            Instr::Region {
                name, end, kind, ..
            } => {
                let kind = match kind {
                    RegionKind::Block => "",
                    RegionKind::Grid => "grid ",
                };
                format!("{kind}region {name} (as one kernel: jump {})", end.0)
            }
        };
        let _ = writeln!(out, "    {pc:>4}  {text}");
    }
}
