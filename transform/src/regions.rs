//! Regions (docs/performance.md, levers 1, 2 and 7): a maximal run of host ops that needs no
//! host decision beyond the group's own state becomes one kernel, whose barriers replace the
//! host's launches and read-backs, so a loop iteration costs a few barriers instead of a
//! dozen launches and a round trip. Two kinds (`RegionKind`):
//!
//! - a *block region* (kernels, `if` splits, loops, shared branches, `seq`, multiprefix; no
//!   call, `fork`, `start` or `return`) runs on one thread block, a thread per member, for a
//!   group of at most `MAX_MEMBERS`. A launch of a kernel that runs a cyclic loop
//!   (`Kernel::spread`) is not part of one: its work grows with the loop's bound, and a block
//!   runs on one SM.
//! - a *grid region* is a run that holds such a kernel and a host decision (a loop or a
//!   shared branch) and otherwise only what every member runs alike: synchronous kernels
//!   that no member leaves early, shared branches, loops without a loop group, condition
//!   or frame of their own, and `if` splits whose arms hold only kernels (which one block
//!   runs as a block region would: a strided cyclic loop's fallback). One cooperative
//!   launch over every SM runs it; each thread takes the decisions from its own members'
//!   (uniform) values, and a grid barrier separates two kernels only where their shared
//!   accesses conflict (`emit_cuda::region`).
//!
//! The ops stay in the Plan (`HostOp::Region`): a group larger than one block or a `--crcw
//! priority` run (which serialises members) runs them the ordinary way. A grid region never
//! declines: members that are not active at its start run none of its kernels.

use crate::plan::{
    CutReason, HostOp, Kernel, Plan, Region, RegionKind, RegionNeeds, SharedFrameId, SplitKind,
};
use fork_frontend::hir::{Mode, Stmt, StmtKind};

/// The most members a group may have to run a region: one thread per member, so that
/// members of asynchronous kernels that wait for each other run on their own threads.
pub const MAX_MEMBERS: u32 = 1024;

/// Wraps the maximal runs of region-able ops in every host function into `HostOp::Region`s.
pub fn mark_block_regions(plan: &mut Plan) {
    let mut marker = Marker {
        plan_frames: plan.storage.shared_frames.iter().map(|f| f.bytes).collect(),
        spread: plan.kernels.iter().map(|k| k.spread).collect(),
        uniform: plan.kernels.iter().map(runs_alike).collect(),
        count: 0,
    };
    for f in 0..plan.functions.len() {
        let name = plan.functions[f].name.clone();
        let body = std::mem::take(&mut plan.functions[f].body);
        plan.functions[f].body = marker.list(body, &name);
    }
}

/// Whether every active member of a group runs kernel `k` to its end and in lockstep
/// semantics: synchronous, and no `break`, `continue` or `return` that leaves the kernel
/// (which would change a member's status).
fn runs_alike(k: &Kernel) -> bool {
    k.mode == Mode::Sync
        && k.ends != CutReason::Suspend
        && !k.body.iter().any(|s| leaves(s, false, false))
}

/// Whether `s` holds a statement that leaves the kernel: a `return`, or a `break`/`continue`
/// outside the loops (and, for `break`, the `switch`es) inside it.
fn leaves(s: &Stmt, in_loop: bool, in_switch: bool) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Break => !in_loop && !in_switch,
        StmtKind::Continue => !in_loop,
        StmtKind::Loop { body, .. } => leaves(body, true, false),
        StmtKind::Switch { cases, .. } => cases
            .iter()
            .any(|c| c.body.iter().any(|b| leaves(b, in_loop, true))),
        StmtKind::Block(b) => b.stmts.iter().any(|b| leaves(b, in_loop, in_switch)),
        StmtKind::If { then, els, .. } => {
            leaves(then, in_loop, in_switch)
                || els.as_ref().is_some_and(|e| leaves(e, in_loop, in_switch))
        }
        StmtKind::Fork { body, .. }
        | StmtKind::Start(body)
        | StmtKind::Farm(body)
        | StmtKind::Seq(body) => leaves(body, in_loop, in_switch),
        StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Barrier => false,
    }
}

struct Marker {
    plan_frames: Vec<u64>,
    /// Per kernel: `Kernel::spread`.
    spread: Vec<bool>,
    /// Per kernel: `runs_alike`.
    uniform: Vec<bool>,
    count: usize,
}

impl Marker {
    fn list(&mut self, ops: Vec<HostOp>, func: &str) -> Vec<HostOp> {
        let mut out = Vec::new();
        let mut run: Vec<HostOp> = Vec::new();
        for op in self.grid_regions(ops, func) {
            if self.region_able(&op) {
                run.push(op);
                continue;
            }
            self.flush(&mut run, &mut out, func);
            out.push(match op {
                HostOp::Region(_) => op,
                op => self.nested(op, func),
            });
        }
        self.flush(&mut run, &mut out, func);
        out
    }

    /// `ops` with each maximal run of grid-able ops that holds a spread kernel and a host
    /// decision wrapped into a grid region.
    fn grid_regions(&mut self, ops: Vec<HostOp>, func: &str) -> Vec<HostOp> {
        let mut out = Vec::new();
        let mut run: Vec<HostOp> = Vec::new();
        let flush = |run: &mut Vec<HostOp>, out: &mut Vec<HostOp>, m: &mut Marker| {
            let ops = std::mem::take(run);
            let spread = ops.iter().any(|o| m.holds_spread(o));
            let decides = ops
                .iter()
                .any(|o| matches!(o, HostOp::Loop(_) | HostOp::Branch { .. }));
            if spread && decides {
                let name = format!("r{}_{func}", m.count);
                m.count += 1;
                let needs = m.needs(&ops);
                out.push(HostOp::Region(Region {
                    name,
                    ops,
                    needs,
                    kind: RegionKind::Grid,
                }));
            } else {
                out.extend(ops);
            }
        };
        for op in ops {
            if self.grid_able(&op) {
                run.push(op);
                continue;
            }
            flush(&mut run, &mut out, self);
            out.push(op);
        }
        flush(&mut run, &mut out, self);
        out
    }

    /// Whether an op (with everything nested in it) can run inside a grid region.
    fn grid_able(&self, op: &HostOp) -> bool {
        let all = |ops: &[HostOp]| ops.iter().all(|o| self.grid_able(o));
        match op {
            HostOp::Launch(k) => self.uniform[k.0 as usize],
            HostOp::Branch { then, els, .. } => all(then) && all(els),
            // One block runs it, as a block region would (a strided cyclic loop's fallback,
            // `rules::loops::cyclic_loop`): the arms hold only kernels.
            HostOp::Split(s) => {
                matches!(s.kind, SplitKind::If { .. })
                    && s.arms.iter().flatten().all(|o| match o {
                        HostOp::Launch(k) => self.uniform[k.0 as usize],
                        _ => false,
                    })
            }
            HostOp::Loop(l) => {
                !l.forms_group
                    && l.cond.is_some()
                    && self.plan_frames[l.shared_frame.0 as usize] == 0
                    && all(&l.entry_cond)
                    && all(&l.body)
                    && all(&l.latch)
            }
            _ => false,
        }
    }

    fn holds_spread(&self, op: &HostOp) -> bool {
        match op {
            HostOp::Launch(k) => self.spread[k.0 as usize],
            _ => op
                .blocks()
                .iter()
                .any(|b| b.iter().any(|o| self.holds_spread(o))),
        }
    }

    /// Regions inside the blocks of an op that cannot be part of one.
    fn nested(&mut self, mut op: HostOp, func: &str) -> HostOp {
        for block in op.blocks_mut() {
            *block = self.list(std::mem::take(block), func);
        }
        op
    }

    /// A run becomes a region when it saves something: two launches or read-backs.
    fn flush(&mut self, run: &mut Vec<HostOp>, out: &mut Vec<HostOp>, func: &str) {
        let ops = std::mem::take(run);
        if ops.iter().map(host_steps).sum::<usize>() < 2 {
            out.extend(ops);
            return;
        }
        let needs = self.needs(&ops);
        let name = format!("r{}_{func}", self.count);
        self.count += 1;
        out.push(HostOp::Region(Region {
            name,
            ops,
            needs,
            kind: RegionKind::Block,
        }));
    }

    /// Whether an op (with everything nested in it) can run inside a block region.
    fn region_able(&self, op: &HostOp) -> bool {
        let own = match op {
            HostOp::Launch(k) => !self.spread[k.0 as usize],
            HostOp::Multiprefix(_)
            | HostOp::Branch { .. }
            | HostOp::Loop(_)
            | HostOp::Seq { .. } => true,
            HostOp::Split(s) => matches!(s.kind, SplitKind::If { .. }),
            HostOp::Call(_) | HostOp::Return | HostOp::Start { .. } | HostOp::Region(_) => false,
        };
        own && op
            .blocks()
            .iter()
            .all(|b| b.iter().all(|o| self.region_able(o)))
    }

    fn needs(&self, ops: &[HostOp]) -> RegionNeeds {
        ops.iter()
            .map(|op| self.op_needs(op))
            .fold(RegionNeeds::default(), max)
    }

    /// What an op allocates itself, plus the most its nested blocks allocate on top. The
    /// region emitter (`emit_cuda::region`) places each split and loop with the same
    /// `split_needs` and `loop_needs`.
    fn op_needs(&self, op: &HostOp) -> RegionNeeds {
        match op {
            HostOp::Split(s) => {
                let arms = s
                    .arms
                    .iter()
                    .map(|a| self.needs(a))
                    .fold(RegionNeeds::default(), max);
                plus(split_needs(&s.shared_frames, &self.plan_frames), arms)
            }
            HostOp::Loop(l) => {
                let inner = [&l.entry_cond, &l.body, &l.latch]
                    .into_iter()
                    .map(|b| self.needs(b))
                    .fold(RegionNeeds::default(), max);
                plus(
                    loop_needs(l.forms_group, self.plan_frames[l.shared_frame.0 as usize]),
                    inner,
                )
            }
            HostOp::Branch { then, els, .. } => max(self.needs(then), self.needs(els)),
            HostOp::Seq { body, .. } => self.needs(body),
            _ => RegionNeeds::default(),
        }
    }
}

/// The bytes between the two subgroups' frames of an `if` split.
pub fn split_frame_stride(shared_frames: &[SharedFrameId], frames: &[u64]) -> u64 {
    let bytes = |i: usize| shared_frames.get(i).map_or(0, |f| frames[f.0 as usize]);
    align8(bytes(0).max(bytes(1)))
}

/// What an `if` split allocates on a region's stacks: the two subgroups, one member list,
/// their frames.
pub fn split_needs(shared_frames: &[SharedFrameId], frames: &[u64]) -> RegionNeeds {
    RegionNeeds {
        groups: 2,
        member_lists: 1,
        word_lists: 0,
        frame_bytes: 2 * split_frame_stride(shared_frames, frames),
    }
}

/// What a loop allocates: its group, a member list when it forms one, its marks, its frame
/// (`frame_bytes` before alignment).
pub fn loop_needs(forms_group: bool, frame_bytes: u64) -> RegionNeeds {
    RegionNeeds {
        groups: 1,
        member_lists: forms_group as u32,
        word_lists: 1,
        frame_bytes: align8(frame_bytes),
    }
}

pub fn align8(x: u64) -> u64 {
    x.div_ceil(8) * 8
}

/// The launches and read-backs an op costs the host at least.
fn host_steps(op: &HostOp) -> usize {
    let all = |ops: &[HostOp]| ops.iter().map(host_steps).sum::<usize>();
    match op {
        HostOp::Launch(_) | HostOp::Multiprefix(_) => 1,
        HostOp::Split(s) => 2 + s.arms.iter().map(|a| all(a)).sum::<usize>(),
        HostOp::Branch { then, els, .. } => 1 + all(then).max(all(els)),
        HostOp::Loop(l) => 3 + all(&l.entry_cond) + all(&l.body) + all(&l.latch),
        HostOp::Seq { body, .. } => all(body),
        HostOp::Call(_) | HostOp::Return | HostOp::Start { .. } | HostOp::Region(_) => 0,
    }
}

fn max(a: RegionNeeds, b: RegionNeeds) -> RegionNeeds {
    RegionNeeds {
        groups: a.groups.max(b.groups),
        member_lists: a.member_lists.max(b.member_lists),
        word_lists: a.word_lists.max(b.word_lists),
        frame_bytes: a.frame_bytes.max(b.frame_bytes),
    }
}

pub fn plus(a: RegionNeeds, b: RegionNeeds) -> RegionNeeds {
    RegionNeeds {
        groups: a.groups + b.groups,
        member_lists: a.member_lists + b.member_lists,
        word_lists: a.word_lists + b.word_lists,
        frame_bytes: a.frame_bytes + b.frame_bytes,
    }
}
