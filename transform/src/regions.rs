//! Block regions (docs/performance.md, levers 1, 2 and 7 for small groups): a maximal run of host
//! ops that needs no host decision beyond the group's own state (kernels, `if` splits, loops,
//! shared branches, `seq`, multiprefix; no call, `fork`, `start` or `return`) becomes one
//! kernel of one thread block. The block runs the group's members as its threads, and its
//! barriers and block-wide scans replace the host's launches and read-backs, so a loop
//! iteration costs a few `__syncthreads` instead of a dozen launches and a round trip.
//!
//! The ops stay in the Plan (`HostOp::Region`): a group larger than one block (or a
//! `--crcw priority` run, which serialises members) runs them the ordinary way. A launch of
//! a kernel that runs a cyclic loop (`Kernel::spread`) is not part of a region: its work
//! grows with the loop's bound, and a region runs on one SM.

use crate::plan::{HostOp, Plan, Region, RegionNeeds, SharedFrameId, SplitKind};

/// The most members a group may have to run a region: one thread per member, so that
/// members of asynchronous kernels that wait for each other run on their own threads.
pub const MAX_MEMBERS: u32 = 1024;

/// Wraps the maximal runs of region-able ops in every host function into `HostOp::Region`s.
pub fn mark_block_regions(plan: &mut Plan) {
    let mut marker = Marker {
        plan_frames: plan.storage.shared_frames.iter().map(|f| f.bytes).collect(),
        spread: plan.kernels.iter().map(|k| k.spread).collect(),
        count: 0,
    };
    for f in 0..plan.functions.len() {
        let name = plan.functions[f].name.clone();
        let body = std::mem::take(&mut plan.functions[f].body);
        plan.functions[f].body = marker.list(body, &name);
    }
}

struct Marker {
    plan_frames: Vec<u64>,
    /// Per kernel: `Kernel::spread`.
    spread: Vec<bool>,
    count: usize,
}

impl Marker {
    fn list(&mut self, ops: Vec<HostOp>, func: &str) -> Vec<HostOp> {
        let mut out = Vec::new();
        let mut run: Vec<HostOp> = Vec::new();
        for op in ops {
            if self.region_able(&op) {
                run.push(op);
                continue;
            }
            self.flush(&mut run, &mut out, func);
            out.push(self.nested(op, func));
        }
        self.flush(&mut run, &mut out, func);
        out
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
        out.push(HostOp::Region(Region { name, ops, needs }));
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
