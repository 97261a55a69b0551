//! Block-region kernels (`crate::regions`): the instructions of an `Instr::Region` of the
//! lowered host program (`crate::host_program`) as one `extern "C" __global__` function that
//! one thread block runs, calling each Plan kernel's `_body` through `FK_R_LAUNCH` and the
//! runtime library's block helpers (`fk_r_*`) for splits, loops, branches and multiprefix.
//!
//! Signature: `rN_f(int g, int seq, fk_u64 slot_base, unsigned launch, int groups_top,
//! fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top)`: the group and context the host
//! is in, and the tops of the runtime stacks above which the host reserved
//! `Region::needs`. Member and word lists are as long as the region's group.
//!
//! The body is the region's instructions in order as straight-line code, with a label
//! `pcN:` before each instruction a jump goes to and a `goto` for each jump (a loop's latch
//! goes back to `testN:`, the loop's test before its body at N, as a `while` tests): no
//! dispatch per instruction on the hot path (a whole run can be one region). The state an instruction
//! needs (its group, `seq`, where the stacks are) is static: it follows from the group
//! operations open at it (`HostProgram::nesting`), and each open split or loop keeps its
//! groups and counters in variables named by its pc.

use super::abi;
use super::ctype::{declare, pointer_to, var_name};
use super::host::{fk_var, multiprefix_args, optional_var};
use super::{EmitError, Sites};
use crate::effects::{Effects, Objects, Summaries};
use crate::host_program::{Instr, LoopHeader, Open, Pc};
use crate::plan::{Home, KernelId, Multiprefix, Plan, RegionNeeds, SplitKind};
use crate::points_to::Target;
use crate::regions::{loop_needs, plus, split_frame_stride, split_needs};
use fork_frontend::hir::{ExprKind, Mode, Sharity, Stmt, StmtKind, VarId};
use fork_frontend::source::Span;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The kernel of the region whose `Instr::Region` is at `at`.
pub fn region_kernel(
    plan: &Plan,
    at: Pc,
    sites: &mut Sites,
    summaries: &Summaries,
    common_kernels: &BTreeSet<String>,
    region_registers: &BTreeMap<KernelId, Vec<VarId>>,
    out: &mut String,
) -> Result<(), EmitError> {
    let host = &plan.host;
    let func = host.function_at(at);
    let span = plan.program.func(plan.function(func).func).span;
    let Instr::Region {
        name, needs, end, ..
    } = &host.code[at.0 as usize]
    else {
        return Err(EmitError {
            span,
            message: format!("instruction {} is not a region (a forkcc bug)", at.0),
        });
    };
    let nesting = host.nesting(func).map_err(|e| EmitError {
        span,
        message: format!("an invalid host program (a transform bug): {e}"),
    })?;
    let open_at = |pc: Pc| {
        nesting
            .at(pc)
            .ok_or_else(|| bug(span, "an unreachable instruction"))
    };
    // The operations open around the region are the host's; inside, those after them.
    let outer = open_at(at)?.len();
    // --trace: where the region runs asynchronous code or barrier phases with barriers, each
    // instruction says what it means to the trace (fk_r_trace_async, fk_r_trace_stops); a
    // region without any records nothing.
    let async_at = plan.async_at();
    let traced = (at.0 + 1..end.0).any(|pc| {
        let a = &async_at[pc as usize];
        a.region.is_some()
            || a.barrier
            || matches!(host.code[pc as usize], Instr::Launch(k)
                if plan.phase_barriers.iter().any(|b| b.kernel == k && !b.barriers.is_empty()))
    });
    // The private slots the region's kernels keep in registers (FK_R_LAUNCH_REGS).
    let registers: BTreeSet<VarId> = (at.0 + 1..end.0)
        .filter_map(|pc| match host.code[pc as usize] {
            Instr::Launch(k) => region_registers.get(&k),
            _ => None,
        })
        .flatten()
        .copied()
        .collect();
    let mut e = RegionEmitter::new(
        plan,
        sites,
        summaries,
        common_kernels,
        (span, at),
        if traced { async_at } else { Vec::new() },
        (region_registers, registers.clone()),
    );
    for pc in (at.0 + 1..end.0).map(Pc) {
        e.opens.insert(pc, open_at(pc)?[outer..].to_vec());
    }
    let mut body = Vec::new();
    for pc in (at.0 + 1..end.0).map(Pc) {
        let open = e.opens[&pc].clone();
        let open = &open[..];
        let mut stmts = Vec::new();
        e.instruction(pc, open, &mut stmts)?;
        // An instruction that continues or closes an operation is indented as its opening.
        let closes = matches!(
            host.code[pc.0 as usize],
            Instr::SubgroupEnd
                | Instr::LoopEnter
                | Instr::LoopNext
                | Instr::LoopLatch { .. }
                | Instr::LoopEnd
                | Instr::SeqEnd
        );
        body.push((pc, open.len().saturating_sub(closes as usize), stmts));
    }

    let _ = writeln!(
        out,
        "// {name}: a block region (one block runs these host instructions for a group of at \
         most {} members)",
        crate::regions::MAX_MEMBERS
    );
    // A kernel under the host schedule, a function the persistent kernel's block calls under
    // the device schedule (FK_REGION_FN, fk_device.cuh).
    let _ = writeln!(
        out,
        "FK_REGION_FN {name}({}) {{",
        super::abi::c_params::<super::abi::kernels::RegionKernel>()
    );
    out.push_str("    FkRegion r = fk_region(g, slot_base, launch);\n");
    if needs.member_lists + needs.word_lists > 0 {
        out.push_str("    fk_u64 list = (fk_u64)fk_m.groups[g].size;\n");
    }
    // Declared before the first label: a `goto` may not jump over an initialisation.
    for decl in &e.state {
        let _ = writeln!(out, "    {decl};");
    }
    if !registers.is_empty() {
        let program = &plan.program;
        out.push_str("    int fk_cached = -1;\n    FkRegionOwn fk_own{-1};\n");
        let mut loads = String::new();
        for &v in &registers {
            let ty = &program.var(v).ty;
            let name = var_name(program, v);
            let _ = writeln!(out, "    {};", declare(program, ty, &name));
            let Some(Home::Slot { offset }) = plan.storage.home(v) else {
                return Err(bug(span, "a register that is not a private slot"));
            };
            let _ = write!(
                loads,
                " {name} = *({})fk_slot(r.slot_base, {offset}, {}, p);",
                pointer_to(program, ty),
                ty.size(&program.structs)
            );
        }
        let _ = writeln!(out, "    auto fk_load = [&](int p) {{{loads} }};");
    }
    if !e.joins.is_empty() {
        // A gang's helper enters at its owned loop (fk_device.cuh, "gangs").
        out.push_str("    switch (fk_r_join_loop()) {\n");
        for j in &e.joins {
            let _ = writeln!(out, "    {j}");
        }
        out.push_str("    }\n");
    }
    // Every decision below (each `goto`'s condition) is block-uniform, so every thread runs
    // the same helpers and meets the same `__syncthreads`: a branch's value is broadcast
    // through shared memory between two barriers (fk_r_branch), a group's size is written
    // before the barrier that ends fk_r_split / fk_r_same_group and then only read, a loop's
    // `running` is a `__syncthreads_count` or such a size, and fk_r_spin's stop is broadcast
    // like a branch.
    for (pc, depth, stmts) in &body {
        let pad = "    ".repeat(depth + 1);
        if e.targets.contains(pc) {
            // A label needs a statement: an instruction with none gets the empty one.
            let empty = if stmts.is_empty() { ";" } else { "" };
            let _ = writeln!(out, "{pad}pc{}:{empty}", pc.0);
        }
        for s in stmts {
            let _ = writeln!(out, "{pad}{s}");
        }
    }
    if e.targets.contains(end) {
        let _ = writeln!(out, "    pc{}:;", end.0);
    }
    out.push_str("    fk_region_end(r);\n}\n\n");
    Ok(())
}

/// Whether the memory `o` may include the variable `v`.
fn touches(o: &Objects, v: VarId) -> bool {
    o.unknown || o.targets.contains(&Target::Var(v))
}

/// The variable `v` where the statements `body` set `ptr` once, at their top level, to `&v`
/// (a multiprefix's cell pointer: `t = &nless;`), and nowhere else.
fn address_assigned(body: &[Stmt], ptr: VarId) -> Option<VarId> {
    let mut sets = 0;
    body.iter().for_each(|s| {
        fork_frontend::sync_calls::each_expr(s, &mut |top| {
            top.walk(&mut |e| {
                if matches!(e.assigned_place().map(|p| &p.kind), Some(ExprKind::Var(v)) if *v == ptr) {
                    sets += 1;
                }
            })
        })
    });
    body.iter().find_map(|s| match &s.kind {
        StmtKind::Expr(e) if sets == 1 => match &e.kind {
            ExprKind::Assign { place, value } if matches!(place.kind, ExprKind::Var(v) if v == ptr) => {
                match &value.kind {
                    ExprKind::AddrOf(x) => match x.kind {
                        ExprKind::Var(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        },
        _ => None,
    })
}

/// The members of the loop at `at` (in group `g`) marked with `status` (left the body by
/// `continue`, or the loop by `break`) become active again.
fn reactivate(at: Pc, g: &str, status: &str) -> String {
    let p = at.0;
    format!("fk_r_marked_status({g}, n{p}, marks{p}, {status}, FK_ACTIVE);")
}

fn bug(span: Span, what: &str) -> EmitError {
    EmitError {
        span,
        message: format!("{what} inside a block region (a transform bug)"),
    }
}

struct RegionEmitter<'a, 's> {
    plan: &'a Plan,
    sites: &'a mut Sites<'s>,
    summaries: &'a Summaries,
    /// Kernels checked after each run (`--crcw common`).
    common_kernels: &'a BTreeSet<String>,
    /// The region's function, for errors.
    span: Span,
    frames: Vec<u64>,
    /// The instructions a `goto` goes to.
    targets: BTreeSet<Pc>,
    /// The declarations of the splits' and loops' variables.
    state: Vec<String>,
    /// The open `seq`s (their `SeqBegin`), innermost last: each has its record's variable.
    seqs: Vec<Pc>,
    /// `Plan::async_at` where the region runs asynchronous code; else empty.
    async_at: Vec<crate::plan::AsyncAt>,
    /// The kernels' slots kept in registers (`DeviceEmitter::region_registers`), and the
    /// region's: those of the kernels it launches.
    region_registers: &'a BTreeMap<KernelId, Vec<VarId>>,
    registers: BTreeSet<VarId>,
    /// The operations open at each instruction of the region, inside the region.
    opens: BTreeMap<Pc, Vec<Open>>,
    /// While the body of an owned loop (`owned_latch`) is emitted: the loop's pc.
    own: Option<Pc>,
    /// The region's `Instr::Region`, which a gang's helper runs again (`FK_R_GANG`).
    at: Pc,
    /// Per owned loop: how a gang's helper enters the region at it (`fk_r_join_loop`).
    joins: Vec<String>,
}

/// Where an instruction runs: its group, whether only `$$ == 0` runs (`seq`), how much of
/// the reserved stacks the open operations hold, and where the group instance's timestamp
/// record number is (`fk_r_trace_*`: the parent of those formed in it).
#[derive(Clone)]
struct Ctx {
    g: String,
    seq: &'static str,
    top: RegionNeeds,
    trace: String,
}

impl Ctx {
    fn threads(&self) -> String {
        format!("fk_r_threads({}, {})", self.g, self.seq)
    }
    fn group_at(&self) -> String {
        format!("groups_top + {}", self.top.groups)
    }
    fn member_list(&self) -> String {
        format!("members_top + {} * list", self.top.member_lists)
    }
    fn word_list(&self) -> String {
        format!("words_top + {} * list", self.top.word_lists)
    }
    fn frames(&self) -> String {
        format!("(char *)(frames_top + {})", self.top.frame_bytes)
    }
}

impl<'a, 's> RegionEmitter<'a, 's> {
    fn new(
        plan: &'a Plan,
        sites: &'a mut Sites<'s>,
        summaries: &'a Summaries,
        common_kernels: &'a BTreeSet<String>,
        (span, at): (Span, Pc),
        async_at: Vec<crate::plan::AsyncAt>,
        (region_registers, registers): (&'a BTreeMap<KernelId, Vec<VarId>>, BTreeSet<VarId>),
    ) -> Self {
        RegionEmitter {
            plan,
            sites,
            summaries,
            common_kernels,
            span,
            frames: plan.storage.shared_frames.iter().map(|f| f.bytes).collect(),
            targets: BTreeSet::new(),
            state: Vec::new(),
            seqs: Vec::new(),
            async_at,
            region_registers,
            registers,
            opens: BTreeMap::new(),
            own: None,
            at,
            joins: Vec::new(),
        }
    }

    /// The latch of the loop `l` entered at `enter` (its `LoopEnter`) if the loop can run
    /// owned (fk_device.cuh, `fk_r_owns_loop`): its body holds only synchronous kernels whose
    /// slots the region keeps in registers and multiprefixes, its condition (if any) is such
    /// a slot, outside `seq`, in a region that records no timestamps. A loop that forms no
    /// group (a shared or uniform condition: `bench/overhead/barrier.fork`) runs owned as
    /// one that does, on its copy of the enclosing group (fk_r_same_group), but on no gang
    /// (a gang's helpers take the loop group's size as the members still in).
    fn owned_latch(&self, l: &LoopHeader, enter: Pc, seq: &str) -> Option<Pc> {
        let cond_kept = l.cond.is_none_or(|v| self.registers.contains(&v));
        if !cond_kept || seq == "1" || !self.async_at.is_empty() {
            return None;
        }
        let plan = self.plan;
        for pc in enter.0 + 1.. {
            match &plan.host.code.get(pc as usize)? {
                Instr::Launch(k)
                    if plan.kernel(*k).mode == Mode::Sync
                        && self.region_registers.contains_key(k)
                        && !plan.phase_barriers.iter().any(|b| b.kernel == *k) => {}
                Instr::Multiprefix(_) | Instr::LoopNext => {}
                Instr::LoopLatch { body } if body.0 == enter.0 + 1 => return Some(Pc(pc)),
                _ => return None,
            }
        }
        None
    }

    /// Whether the owned loop's launch of kernel `k` at `pc` ends with the gang's barrier
    /// (`fk_gang_sync`) where the loop runs on a gang of teams (fk_device.cuh, "gangs"),
    /// rather than the team's: the team's where the gang's next barrier comes before any
    /// other team could need it. That is where a multiprefix follows whose cell the kernel
    /// does not write (the multiprefix reads its cell before the gang meets inside it, and
    /// that meeting orders the kernel's other writes before every other team's next
    /// access), or where only the latch follows (the exit count meets the gang before the
    /// next iteration). Its `--crcw common` check reads the other members' writes, so a
    /// checked kernel ends with the gang's. Quicksort's partition loop: none of its 3
    /// launches.
    fn launch_meets_gang(&self, pc: Pc, k: KernelId) -> bool {
        let plan = self.plan;
        let kernel = plan.kernel(k);
        if self.common_kernels.contains(&kernel.name) {
            return true;
        }
        let writes = &self.summaries.block(&plan.program, &kernel.body).writes;
        let mut next = plan.host.code[pc.0 as usize + 1..].iter();
        match next.next() {
            Some(Instr::Multiprefix(mp)) => match self.multiprefix_cell(Pc(pc.0 + 1), mp.ptr) {
                _ if !writes.any() => false,
                Some(cell) => touches(writes, cell),
                None => true,
            },
            Some(Instr::LoopLatch { .. }) => false,
            Some(Instr::LoopNext) => !matches!(next.next(), Some(Instr::LoopLatch { .. })),
            _ => true,
        }
    }

    /// The cell of the owned loop's multiprefix at `pc` whose cell pointer is `ptr`, where
    /// the kernel launched just before it sets `ptr` to `&v` (`address_assigned`).
    fn multiprefix_cell(&self, pc: Pc, ptr: VarId) -> Option<VarId> {
        let plan = self.plan;
        match plan.host.code.get(pc.0.checked_sub(1)? as usize)? {
            Instr::Launch(k) => address_assigned(&plan.kernel(*k).body, ptr),
            _ => None,
        }
    }

    /// Whether the exit count of the owned loop whose body runs from `enter` + 1 to its
    /// latch `latch` may let a gang's team with members still in go on without waiting for
    /// the other teams (fk_r_own_loop_exit's `passes`): where what runs after the gang's last
    /// meeting in the body (launches, and the write of a multiprefix's cell after its
    /// meeting) and what runs before the gang's first meeting in the body (launches, and a
    /// multiprefix's read of its cell) touch no memory in common that either writes. (A
    /// `--crcw common` check reads its cells before a meeting of its own, so what comes
    /// after the last meeting holds none.) Quicksort's partition loop: its last launch
    /// writes `buf` and the second multiprefix `ngreater`; its first reads `x` and the
    /// first multiprefix `nless`.
    fn exit_passes(&self, enter: Pc, latch: Pc) -> bool {
        let plan = self.plan;
        let effects = |k: &KernelId| self.summaries.block(&plan.program, &plan.kernel(*k).body);
        let mut after = Effects::default();
        let mut met = false;
        for pc in (enter.0 + 1..latch.0).rev().map(Pc) {
            match &plan.host.code[pc.0 as usize] {
                Instr::LoopNext => continue,
                Instr::Launch(k) if self.launch_meets_gang(pc, *k) => {}
                Instr::Launch(k) => {
                    after = after.union(&effects(k));
                    continue;
                }
                Instr::Multiprefix(mp) if !self.multiprefix_meets(pc, mp.ptr) => {
                    match self.multiprefix_cell(pc, mp.ptr) {
                        Some(cell) => after.writes.union(&Objects::var(cell)),
                        None => return false,
                    }
                }
                Instr::Multiprefix(_) => {}
                _ => return false,
            }
            met = true;
            break;
        }
        let mut before = Effects::default();
        for pc in (enter.0 + 1..latch.0).map(Pc) {
            match &plan.host.code[pc.0 as usize] {
                Instr::LoopNext => continue,
                Instr::Launch(k) => {
                    before = before.union(&effects(k));
                    if !self.launch_meets_gang(pc, *k) {
                        continue;
                    }
                }
                Instr::Multiprefix(mp) => match self.multiprefix_cell(pc, mp.ptr) {
                    Some(cell) => before.reads.union(&Objects::var(cell)),
                    None => return false,
                },
                _ => return false,
            }
            let mut touched = before.reads.clone();
            touched.union(&before.writes);
            return met
                && !after.writes.may_overlap(&touched)
                && !before.writes.may_overlap(&after.reads);
        }
        false
    }

    /// Whether a gang meets after the owned loop's multiprefix at `pc` (its cell pointer
    /// `ptr`), so that its cell's new value, which one team writes after the gang's
    /// meeting inside the multiprefix, is written before another team touches the cell
    /// (fk_device.cuh, fk_gang_multiprefix). Not where the kernel before it sets `ptr` to
    /// `&v` and, going on around the loop, the gang meets before anything touches `v`: a
    /// launch that ends with the gang's barrier, another multiprefix (on another known
    /// cell; it meets the gang), or the latch's exit count (quicksort's `mpadd(&nless, 1)`
    /// and `mpadd(&ngreater, 1)`).
    fn multiprefix_meets(&self, pc: Pc, ptr: VarId) -> bool {
        let plan = self.plan;
        let (Some(_), Some(cell)) = (self.own, self.multiprefix_cell(pc, ptr)) else {
            return true;
        };
        let mut at = pc.0 + 1;
        // At most once around the loop: its body comes back to `pc`.
        while at != pc.0 {
            match plan.host.code.get(at as usize) {
                Some(Instr::Launch(k)) => {
                    let touched = self.summaries.block(&plan.program, &plan.kernel(*k).body);
                    if touches(&touched.reads, cell) || touches(&touched.writes, cell) {
                        return true;
                    }
                    if self.launch_meets_gang(Pc(at), *k) {
                        return false;
                    }
                }
                Some(Instr::Multiprefix(next)) => {
                    return self
                        .multiprefix_cell(Pc(at), next.ptr)
                        .is_none_or(|c| c == cell);
                }
                Some(Instr::LoopNext) => {}
                Some(Instr::LoopLatch { .. }) => return false,
                _ => return true,
            }
            at += 1;
        }
        true
    }

    /// Whether no kernel of the loop whose `LoopBegin` is at `at` and whose exit is `exit`
    /// frees a heap block (`Effects::frees`): the loop is then *settled*, the checks read a
    /// block's freed mark once in it (fk_checks.cuh, `FkThread::settled`), in its owned loop
    /// (`fk_r_own_member`) as in its generic one (`FkRegion::settled`), and its `LoopEnd`
    /// unsettles what the thread keeps (`fk_seen_unsettle`).
    fn loop_settles(&self, at: Pc, exit: Pc) -> bool {
        let plan = self.plan;
        (at.0 + 1..exit.0).all(|pc| match &plan.host.code[pc as usize] {
            Instr::Launch(k) => {
                !self
                    .summaries
                    .block(&plan.program, &plan.kernel(*k).body)
                    .frees
            }
            _ => true,
        })
    }

    fn goto(&mut self, to: Pc) -> String {
        self.targets.insert(to);
        format!("goto pc{};", to.0)
    }

    /// The header and exit of the loop whose `LoopBegin` is at `at`.
    fn loop_header(&self, at: Pc) -> Result<(LoopHeader, Pc), EmitError> {
        match &self.plan.host.code[at.0 as usize] {
            Instr::LoopBegin { header, exit } => Ok((*header, *exit)),
            _ => Err(bug(self.span, "a loop that is not a `LoopBegin`")),
        }
    }

    /// The contexts inside the open operations: the region's own, then one more inside each.
    fn contexts(&self, open: &[Open], pc: Pc) -> Result<Vec<Ctx>, EmitError> {
        let mut cs = vec![Ctx {
            g: "g".into(),
            seq: "seq",
            top: RegionNeeds::default(),
            trace: "&fk_r_trace().group".into(),
        }];
        for o in open {
            let c = cs[cs.len() - 1].clone();
            cs.push(match *o {
                Open::Split(at) => {
                    let Instr::Split {
                        arms,
                        shared_frames,
                        ..
                    } = &self.plan.host.code[at.0 as usize]
                    else {
                        return Err(bug(self.span, "a split that is not a `Split`"));
                    };
                    // The arms lie one after another (validated).
                    let arm = arms.iter().rposition(|a| a.0 <= pc.0).unwrap_or(0);
                    Ctx {
                        g: format!("g{}_{arm}", at.0),
                        seq: c.seq,
                        top: plus(c.top, split_needs(shared_frames, &self.frames)),
                        trace: format!("&t{}[{arm}]", at.0),
                    }
                }
                // The entry condition runs in the enclosing group, beside the loop's marks.
                Open::Loop { entered: false, .. } => Ctx {
                    top: RegionNeeds {
                        word_lists: c.top.word_lists + 1,
                        ..c.top
                    },
                    ..c
                },
                Open::Loop { at, entered: true } => {
                    let (l, _) = self.loop_header(at)?;
                    let bytes = self.frames[l.shared_frame.0 as usize];
                    Ctx {
                        g: format!("g{}", at.0),
                        seq: c.seq,
                        top: plus(c.top, loop_needs(l.forms_group, bytes)),
                        trace: format!("&t{}", at.0),
                    }
                }
                Open::Seq => Ctx { seq: "1", ..c },
                Open::Start => return Err(bug(self.span, "a `start`")),
            });
        }
        Ok(cs)
    }

    /// The statements of the instruction at `pc`, inside the operations `open`.
    fn instruction(
        &mut self,
        pc: Pc,
        open: &[Open],
        out: &mut Vec<String>,
    ) -> Result<(), EmitError> {
        let plan = self.plan;
        let cs = self.contexts(open, pc)?;
        let c = &cs[cs.len() - 1];
        // The innermost open loop or split: its pc and the context around it.
        let enclosing = || match (open.last(), cs.len().checked_sub(2)) {
            (Some(Open::Loop { at, .. } | Open::Split(at)), Some(i)) => Ok((*at, cs[i].clone())),
            _ => Err(bug(
                self.span,
                "a loop or split instruction outside its operation",
            )),
        };
        let traced = self.async_at.get(pc.0 as usize);
        if let Some(a) =
            traced.filter(|_| !matches!(plan.host.code[pc.0 as usize], Instr::Launch(_)))
        {
            let region = a
                .region
                .map_or("0".to_string(), |i| format!("{} * FK_AT_REGION", i + 1));
            out.push(format!("fk_r_trace_async_at({region});"));
        }
        match &plan.host.code[pc.0 as usize] {
            Instr::Launch(id) => {
                let k = plan.kernel(*id);
                let args = format!(
                    "{}, {}, {}, {}",
                    k.name,
                    (k.mode == Mode::Sync) as u8,
                    c.g,
                    c.seq
                );
                match (self.region_registers.get(id), self.own) {
                    (Some(regs), own) => {
                        let names: Vec<String> =
                            regs.iter().map(|&v| var_name(&plan.program, v)).collect();
                        out.push(match own {
                            Some(l) => format!(
                                "FK_R_OWN_LAUNCH_REGS({}, {}, own{}, {}, {});",
                                k.name,
                                c.g,
                                l.0,
                                match self.launch_meets_gang(pc, *id) {
                                    true => "fk_gang_sync",
                                    false => "fk_team_sync",
                                },
                                names.join(", ")
                            ),
                            None => format!("FK_R_LAUNCH_REGS({args}, {});", names.join(", ")),
                        });
                    }
                    (None, _) => out.push(format!("FK_R_LAUNCH({args});")),
                }
                if self.common_kernels.contains(&k.name) {
                    // An owned loop checks on its team (FkRegionMine::team) and stops at a
                    // conflict (FkThread::conflicts_stop).
                    let team = self.own.map(|l| format!(", own{}.team", l.0));
                    let check = format!(
                        "fk_r_common_check({}, {}, r{})",
                        c.g,
                        c.seq,
                        team.as_deref().unwrap_or("")
                    );
                    out.push(match team {
                        Some(_) => format!("if ({check}) break;"),
                        None => format!("{check};"),
                    });
                }
                let phases = plan.phase_barriers.iter().find(|b| b.kernel == *id);
                if let Some(b) = phases.filter(|_| traced.is_some()) {
                    // Stops past the 64th are not told apart (fk_r_trace_stops).
                    let mask = b
                        .barriers
                        .iter()
                        .filter(|(k, _)| (1..=64).contains(k))
                        .fold(0u64, |m, (k, _)| m | 1 << (k - 1));
                    if mask != 0 {
                        out.push(format!(
                            "fk_r_trace_stops(r, {}, {}, {}, {}, {}, {mask}ull);",
                            c.trace,
                            pc.0,
                            c.g,
                            c.seq,
                            fk_var(plan, b.phase, k.span)?
                        ));
                    }
                }
                if let Some(at) = traced.and_then(super::schedule::async_at_value) {
                    out.push(format!(
                        "fk_r_trace_async(r, {}, {}, {at}, fk_m.groups[{}].size);",
                        c.trace, pc.0, c.g
                    ));
                } else if traced.is_some() {
                    out.push("fk_r_trace_async_at(0);".into());
                }
            }
            Instr::Multiprefix(Multiprefix {
                op,
                ptr,
                value,
                result,
                span,
            }) => {
                let args = multiprefix_args(plan, *op, (*ptr, *value, *result), *span)?;
                let mut call = format!(
                    "fk_r_multiprefix({}, {}, r.slot_base, {args})",
                    c.g,
                    c.threads()
                );
                // The cell and value in the threads' registers, where the group's last launch
                // kept its members (fk_r_multiprefix_mine). Not in `seq`, whose one member
                // is not the threads' own.
                if self.registers.contains(ptr) && self.registers.contains(value) && c.seq != "1" {
                    let (cell, v) = (
                        var_name(&plan.program, *ptr),
                        var_name(&plan.program, *value),
                    );
                    call = format!(
                        "(fk_own.group == {g} ? fk_r_multiprefix_mine({g}, {n}, r.slot_base, {}, fk_own, fk_cached, (fk_u64){cell}, (int){v}, {}, {}, {}, {}) : {call})",
                        abi::mp_name(*op),
                        fk_var(plan, *ptr, *span)?,
                        fk_var(plan, *value, *span)?,
                        optional_var(plan, *result, *span)?,
                        self.multiprefix_meets(pc, *ptr) as u8,
                        g = c.g,
                        n = c.threads()
                    );
                }
                out.push(match result.filter(|v| self.registers.contains(v)) {
                    Some(v) => format!(
                        "fk_r_own_result({call}, &fk_cached, &{});",
                        var_name(&plan.program, v)
                    ),
                    None => format!("{call};"),
                });
            }
            // 1: on (the then-code follows), 0: `els`, -1 (no member active): `end`.
            Instr::Branch { cond, els, end } => {
                let span = plan.program.var(*cond).span;
                let taken = format!(
                    "fk_r_branch({}, {}, r.slot_base, {})",
                    c.g,
                    c.threads(),
                    fk_var(plan, *cond, span)?
                );
                out.push(if els == end {
                    format!("if ({taken} != 1) {}", self.goto(*end))
                } else {
                    format!(
                        "{{ int taken = {taken}; if (taken == 0) {} if (taken < 0) {} }}",
                        self.goto(*els),
                        self.goto(*end)
                    )
                });
            }
            Instr::Jump(to) => out.push(self.goto(*to)),
            Instr::Split {
                kind,
                shared_frames,
                arms,
                end,
                span,
            } => {
                let SplitKind::If { cond, .. } = kind else {
                    return Err(bug(*span, "a `fork`"));
                };
                let stride = split_frame_stride(shared_frames, &self.frames);
                let frame = |i: usize| shared_frames.get(i).map_or(0, |f| f.0);
                let groups: Vec<String> =
                    (0..arms.len()).map(|i| format!("g{}_{i}", pc.0)).collect();
                self.state.push(format!("int {}", groups.join(", ")));
                self.state.push(format!("__shared__ unsigned t{}[2]", pc.0));
                out.push(format!("{} = {};", groups[0], c.group_at()));
                out.push(format!(
                    "fk_r_split({}, {}, r.slot_base, {}, ~0ull, 2, {}, {}, {}, {}, {}, {stride});",
                    c.g,
                    c.threads(),
                    fk_var(plan, *cond, *span)?,
                    groups[0],
                    c.member_list(),
                    frame(0),
                    frame(1),
                    c.frames()
                ));
                self.forget_members(out);
                out.push(format!(
                    "fk_r_trace_groups(r, {}, {}, {}, 2, t{});",
                    c.trace, pc.0, groups[0], pc.0
                ));
                self.skip_empty_arm(pc, 0, arms, *end, out);
            }
            // The next arm's subgroup, or on to the split's end (no restore: fk_r_split left
            // the parent's descriptor and member list as they were).
            Instr::SubgroupEnd => {
                let (at, _) = enclosing()?;
                let Instr::Split { arms, end, .. } = &plan.host.code[at.0 as usize] else {
                    return Err(bug(self.span, "a split that is not a `Split`"));
                };
                let arm = arms.iter().rposition(|a| a.0 <= pc.0).unwrap_or(0);
                out.push(format!("fk_r_trace_end(&t{}[{arm}]);", at.0));
                if arm + 1 < arms.len() {
                    self.skip_empty_arm(at, arm + 1, arms, *end, out);
                }
            }
            Instr::LoopBegin { header, .. } => {
                // Numbered here, in program order, as the host program numbers its sites.
                self.sites.loop_site(header.span);
                let p = pc.0;
                self.state.push(format!("int n{p}, running{p}, g{p}"));
                self.state.push(format!("__shared__ unsigned t{p}"));
                self.state.push(format!("fk_u64 marks{p}, it{p}"));
                out.push(format!("n{p} = {};", c.threads()));
                out.push(format!("marks{p} = {};", c.word_list()));
                out.push(format!("fk_r_mark_active({}, n{p}, marks{p});", c.g));
            }
            // After the entry condition (test first): the loop group, and the first test.
            Instr::LoopEnter => {
                let (at, o) = enclosing()?;
                let (l, exit) = self.loop_header(at)?;
                let (p, g) = (at.0, &o.g);
                let cond = optional_var(plan, l.cond, l.span)?;
                let frame = l.shared_frame.0;
                let bytes = loop_needs(l.forms_group, self.frames[frame as usize]).frame_bytes;
                if l.test_first {
                    out.push(format!(
                        "running{p} = fk_r_loop_exit({g}, n{p}, r.slot_base, marks{p}, {cond}, {g});"
                    ));
                }
                out.push(format!("g{p} = {};", o.group_at()));
                if l.forms_group {
                    out.push(format!(
                        "fk_r_split({g}, n{p}, r.slot_base, FkVar{{}}, marks{p}, 1, g{p}, {}, {frame}, {frame}, {}, {bytes});",
                        o.member_list(),
                        o.frames()
                    ));
                    out.push(format!("running{p} = fk_m.groups[g{p}].size;"));
                } else {
                    out.push(format!(
                        "fk_r_same_group({g}, g{p}, {frame}, {}, {bytes});",
                        o.frames()
                    ));
                    if !l.test_first {
                        out.push(format!(
                            "running{p} = fk_r_loop_exit({g}, n{p}, r.slot_base, marks{p}, 0, FkVar{{}}, {g});"
                        ));
                    }
                }
                self.forget_members(out);
                out.push(format!(
                    "fk_r_trace_groups(r, {}, {}, g{p}, 1, &t{p});",
                    o.trace, pc.0
                ));
                out.push(format!("it{p} = 0;"));
                let site = self.sites.loop_site(l.span);
                let settled = self.loop_settles(at, exit);
                if let Some(latch) = self.owned_latch(&l, pc, o.seq) {
                    // The loop as an owned loop where it can be (fk_r_owns_loop): the same
                    // test, body and latch with the members' threads kept.
                    self.state.push(format!("FkRegionMine own{p}"));
                    self.state.push(format!("FkNarrow narrow{p}"));
                    // A group larger than the team runs it on a gang of teams where it can.
                    let owns = format!("fk_r_owns_loop(g{p}, n{p}, {})", o.seq);
                    if l.forms_group {
                        out.push(format!(
                            "if ({owns} || FK_R_GANG({}, {p}, g{p}, n{p}, {})) {{",
                            self.at.0, o.seq
                        ));
                        self.joins.push(format!(
                            "case {p}: r.sub = fk_r_join().sub; g{p} = fk_r_join().lg; running{p} = fk_m.groups[g{p}].size; it{p} = 0; goto join{p};"
                        ));
                        out.push(format!("join{p}:"));
                    } else {
                        out.push(format!("if ({owns}) {{"));
                    }
                    out.push(format!(
                        "    own{p} = fk_r_own_member(g{p}, r, {});",
                        settled as u8
                    ));
                    // A small group's loop on the team's first warps alone.
                    out.push(format!("    narrow{p} = fk_r_narrow_begin(g{p}, own{p});"));
                    out.push("    for (;;) {".into());
                    out.push(format!(
                        "        if (narrow{p}.state == FK_NARROW_OUT || running{p} <= 0 || fk_r_spin(&it{p}, {site}, g{p}, r)) break;"
                    ));
                    self.own = Some(at);
                    for b in (pc.0 + 1..=latch.0).map(Pc) {
                        let open = self.opens.get(&b).cloned().ok_or_else(|| {
                            bug(self.span, "an owned loop's instruction outside the region")
                        })?;
                        let mut stmts = Vec::new();
                        self.instruction(b, &open, &mut stmts)?;
                        out.extend(stmts.into_iter().map(|s| format!("        {s}")));
                    }
                    self.own = None;
                    out.push("    }".into());
                    out.push(format!("    fk_r_narrow_end(narrow{p}, r, fk_own);"));
                    // A gang's helper leaves; the leader's gang ends.
                    out.push(
                        "    if ((fk_cached = fk_r_gang_end(fk_cached)) == FK_GANG_HELPER) return;"
                            .into(),
                    );
                    // The exit's `LoopEnd` unsettles.
                    out.push(format!("    {}", self.goto(exit)));
                    out.push("}".into());
                }
                if settled {
                    out.push("r.settled = true;".into());
                }
                // The test before each iteration (the body follows), where `LoopLatch` comes
                // back to: one `fk_r_spin` per loop, as a `while` has.
                out.push(format!("test{}:", pc.0 + 1));
                out.push(format!(
                    "if (running{p} <= 0 || fk_r_spin(&it{p}, {site}, g{p}, r)) {}",
                    self.goto(exit)
                ));
            }
            // Members that left the body by `continue` take part in the latch.
            Instr::LoopNext => {
                let (at, o) = enclosing()?;
                let (l, _) = self.loop_header(at)?;
                out.push(match self.own {
                    Some(_) if l.forms_group => format!("fk_r_own_continue(own{});", at.0),
                    Some(_) => format!("fk_r_own_continue(own{p}, marks{p});", p = at.0),
                    None => reactivate(at, &o.g, "FK_CONTINUE"),
                });
            }
            // The exit update, then back to the test before the body (`LoopEnter`'s).
            Instr::LoopLatch { body } => {
                let (at, o) = enclosing()?;
                let (l, _) = self.loop_header(at)?;
                let (p, g) = (at.0, &o.g);
                if self.own.is_some() {
                    // The member's condition is its copy (`owned_latch`).
                    let stays = l.cond.map_or("true".to_string(), |v| {
                        format!("{} != 0", var_name(&plan.program, v))
                    });
                    let passes = self.exit_passes(Pc(body.0 - 1), pc);
                    out.push(format!(
                        "running{p} = fk_r_own_loop_exit(own{p}, {stays}, it{p}, {});",
                        passes as u8
                    ));
                    return Ok(());
                }
                let cond = optional_var(plan, l.cond, l.span)?;
                out.push(format!(
                    "running{p} = fk_r_loop_exit({g}, n{p}, r.slot_base, marks{p}, {cond}, g{p});"
                ));
                out.push(format!("goto test{};", body.0));
            }
            Instr::LoopEnd => {
                let (at, o) = enclosing()?;
                out.push(format!("fk_r_trace_end(&t{});", at.0));
                let (_, exit) = self.loop_header(at)?;
                if self.loop_settles(at, exit) {
                    // A block freed after the loop is found freed (fk_seen_unsettle).
                    out.push("r.settled = false;".into());
                    out.push("fk_seen_unsettle(&r.seen);".into());
                }
                out.push(reactivate(at, &o.g, "FK_BREAK"));
            }
            Instr::SeqBegin { .. } => {
                self.seqs.push(pc);
                self.state.push(format!("__shared__ unsigned t{}", pc.0));
                out.push(format!(
                    "fk_r_trace_seq(r, {}, {}, {}, &t{});",
                    c.trace, pc.0, c.g, pc.0
                ));
            }
            Instr::SeqEnd => {
                let at = self
                    .seqs
                    .pop()
                    .ok_or_else(|| bug(self.span, "a `seq end` without its `seq begin`"))?;
                out.push(format!("fk_r_trace_end(&t{});", at.0));
            }
            Instr::Call(call) => return Err(bug(call.span, "a call")),
            Instr::Ret | Instr::StartBegin { .. } | Instr::StartEnd | Instr::Region { .. } => {
                return Err(bug(self.span, "a return, `start` or nested region"))
            }
        }
        Ok(())
    }

    /// After the region formed a group: the threads' records of their members
    /// (`FkRegionOwn`) may name its place, which now holds another group.
    fn forget_members(&self, out: &mut Vec<String>) {
        if !self.registers.is_empty() {
            out.push("fk_own.group = -1;".into());
        }
    }

    /// Arm `arm` of the split at `at` runs for its subgroup when that is not empty; else on to
    /// the arm's `SubgroupEnd`, which goes to the next arm.
    fn skip_empty_arm(&mut self, at: Pc, arm: usize, arms: &[Pc], end: Pc, out: &mut Vec<String>) {
        let g = format!("g{}_{arm}", at.0);
        if arm > 0 {
            out.push(format!("{g} = g{}_0 + {arm};", at.0));
        }
        let arm_end = Pc(arms.get(arm + 1).unwrap_or(&end).0 - 1);
        out.push(format!(
            "if (fk_m.groups[{g}].size == 0) {}",
            self.goto(arm_end)
        ));
    }
}

/// The kernel of the grid region whose `Instr::Region` is at `at` (`RegionKind::Grid`), with
/// a block region's signature: one cooperative launch whose threads run the group's members
/// (`fk_device.cuh`, "grid regions"). Like a block region's, the body is the instructions in
/// order with a label per jump target; each decision is the block's members' own value
/// (`fk_g_decide`), and before a launch comes a grid barrier only where the kernel's shared
/// accesses meet those since the last barrier: the masks `written` and `read` say which
/// objects the kernels since then wrote and read (`ObjectBits`). Its `if` splits (arms of
/// kernels only) run on block 0 as a block region's, between two grid barriers. `name`: the
/// region's under the host schedule; under the device schedule, whose every block's team runs
/// it as a function, `schedule::grid_name`'s.
pub fn grid_region_kernel(
    plan: &Plan,
    at: Pc,
    name: &str,
    sites: &mut Sites,
    summaries: &Summaries,
    common_kernels: &BTreeSet<String>,
    out: &mut String,
) -> Result<(), EmitError> {
    let host = &plan.host;
    let func = host.function_at(at);
    let span = plan.program.func(plan.function(func).func).span;
    let Instr::Region { end, .. } = &host.code[at.0 as usize] else {
        return Err(bug(span, "not a region instruction"));
    };
    let nesting = host.nesting(func).map_err(|e| EmitError {
        span,
        message: format!("an invalid host program (a transform bug): {e}"),
    })?;
    // The loop an instruction continues or closes.
    let enclosing = |pc: Pc| -> Result<(Pc, LoopHeader, Pc), EmitError> {
        match nesting.at(pc).and_then(|open| open.last()) {
            Some(Open::Loop { at, .. }) => match &host.code[at.0 as usize] {
                Instr::LoopBegin { header, exit } => Ok((*at, *header, *exit)),
                _ => Err(bug(span, "a loop that is not a `LoopBegin`")),
            },
            _ => Err(bug(span, "a loop instruction outside its loop")),
        }
    };
    // Its `if` splits run as a block region's, on block 0 (their arms hold only kernels);
    // the same emitter keeps the labels and declarations.
    // Kernels in their arms keep their slots in memory (FK_R_LAUNCH).
    let none = BTreeMap::new();
    let mut e = RegionEmitter::new(
        plan,
        sites,
        summaries,
        common_kernels,
        (span, at),
        Vec::new(),
        (&none, BTreeSet::new()),
    );
    let mut objects = ObjectBits::default();
    let mut body: Vec<(Pc, Vec<String>)> = Vec::new();
    let mut split_end = None;
    let outer = nesting
        .at(at)
        .ok_or_else(|| bug(span, "an unreachable region"))?
        .len();
    for pc in (at.0 + 1..end.0).map(Pc) {
        let mut s = Vec::new();
        let open = nesting
            .at(pc)
            .ok_or_else(|| bug(span, "an unreachable instruction"))?;
        // The operations open around the region are the host's; inside, those after them.
        let splits: Vec<Open> = open[outer..]
            .iter()
            .filter(|o| matches!(o, Open::Split(_)))
            .copied()
            .collect();
        if let Instr::Split { end, .. } = &host.code[pc.0 as usize] {
            s.push(SYNC.to_string());
            s.push("if (blockIdx.x == 0) {".into());
            e.instruction(pc, &splits, &mut s)?;
            split_end = Some(*end);
            body.push((pc, s));
            continue;
        }
        if !splits.is_empty() {
            e.instruction(pc, &splits, &mut s)?;
            if split_end == Some(Pc(pc.0 + 1)) {
                // Every block counts the segments block 0 ran.
                s.push("}".into());
                s.push("if (fk_g_after_block0(r)) goto fk_g_out; written = read = 0;".into());
            }
            body.push((pc, s));
            continue;
        }
        match &host.code[pc.0 as usize] {
            Instr::Launch(id) => {
                let k = plan.kernel(*id);
                let e = summaries.block(&plan.program, &k.body);
                // A multiprefix operation inside a kernel is an atomic update of shared memory.
                let (w, rd) = if e.multiprefix {
                    (!0, !0)
                } else {
                    (objects.mask(&e.writes), objects.mask(&e.reads))
                };
                let mut conflict = Vec::new();
                if w | rd != 0 {
                    conflict.push(format!("(written & {:#x}ull)", w | rd));
                }
                if w != 0 {
                    conflict.push(format!("(read & {w:#x}ull)"));
                }
                if !conflict.is_empty() {
                    s.push(format!("if ({}) {SYNC}", conflict.join(" || ")));
                }
                s.push(format!("FK_G_LAUNCH({}, g, m);", k.name));
                if common_kernels.contains(&k.name) {
                    // `--crcw common`: once every member's writes are in, each checks its own
                    // (reading the cells, which a later write must wait for).
                    s.push(format!("{SYNC} fk_g_common_check(g, r); read = {w:#x}ull;"));
                } else {
                    if w != 0 {
                        s.push(format!("written |= {w:#x}ull;"));
                    }
                    if rd != 0 {
                        s.push(format!("read |= {rd:#x}ull;"));
                    }
                }
            }
            Instr::Branch { cond, els, .. } => {
                s.extend(decision_read(plan, &mut objects, *cond));
                let var = fk_var(plan, *cond, plan.program.var(*cond).span)?;
                s.push(format!(
                    "if (!fk_g_decide(m, r.slot_base, {var})) {}",
                    e.goto(*els)
                ));
            }
            Instr::Jump(to) => s.push(e.goto(*to)),
            Instr::LoopBegin { header, .. } => {
                e.sites.loop_site(header.span);
                let p = pc.0;
                e.state.push(format!("bool running{p}"));
                e.state.push(format!("fk_u64 it{p}"));
            }
            Instr::LoopEnter => {
                let (lp, l, exit) = enclosing(pc)?;
                let p = lp.0;
                if l.test_first {
                    let cond = l
                        .cond
                        .ok_or_else(|| bug(l.span, "a loop without condition"))?;
                    s.extend(decision_read(plan, &mut objects, cond));
                    s.push(format!(
                        "running{p} = fk_g_decide(m, r.slot_base, {});",
                        fk_var(plan, cond, l.span)?
                    ));
                } else {
                    s.push(format!("running{p} = true;"));
                }
                s.push(format!("it{p} = 0;"));
                s.push(format!("test{}:", pc.0 + 1));
                s.push(format!("if (!running{p}) {}", e.goto(exit)));
                let site = e.sites.loop_site(l.span);
                s.push(format!(
                    "if (fk_g_spin(&it{p}, {site}, g, r)) goto fk_g_out;"
                ));
            }
            Instr::LoopLatch { body } => {
                let (lp, l, _) = enclosing(pc)?;
                let cond = l
                    .cond
                    .ok_or_else(|| bug(l.span, "a loop without condition"))?;
                s.extend(decision_read(plan, &mut objects, cond));
                s.push(format!(
                    "running{} = fk_g_decide(m, r.slot_base, {});",
                    lp.0,
                    fk_var(plan, cond, l.span)?
                ));
                s.push(format!("goto test{};", body.0));
            }
            // No member leaves a grid region's loop early, so there is no status to restore.
            Instr::LoopNext | Instr::LoopEnd => {}
            _ => return Err(bug(span, "an instruction a grid region cannot run")),
        }
        body.push((pc, s));
    }
    let _ = writeln!(
        out,
        "// {name}: a grid region (one cooperative launch over every SM runs these host \
         instructions for a group whose members are all active)"
    );
    let _ = writeln!(
        out,
        "FK_GRID_REGION_FN {name}({}) {{",
        super::abi::c_params::<super::abi::kernels::RegionKernel>()
    );
    out.push_str("    if (fk_g_warm_up(g)) return;\n");
    out.push_str("    FkRegion r = fk_region(g, slot_base, launch);\n");
    out.push_str("    fk_u64 written = 0, read = 0;\n");
    // The member lists of its splits (its loops need none).
    if split_end.is_some() {
        out.push_str("    fk_u64 list = (fk_u64)fk_m.groups[g].size;\n");
    }
    for decl in &e.state {
        let _ = writeln!(out, "    {decl};");
    }
    out.push_str("    if (fk_g_begin(g, r)) return;\n");
    out.push_str("    const FkGridMember m = fk_g_member(g, r);\n");
    for (pc, stmts) in &body {
        if e.targets.contains(pc) {
            let _ = writeln!(out, "pc{}:;", pc.0);
        }
        for s in stmts {
            let _ = writeln!(out, "    {s}");
        }
    }
    if e.targets.contains(end) {
        let _ = writeln!(out, "pc{}:;", end.0);
    }
    // The last barrier, which meets the others wherever they are after a fault.
    out.push_str(
        "    fk_g_sync(fk_faulted());\n    fk_g_end(r);\nfk_g_out:\n    (void)written;\n    (void)read;\n}\n\n",
    );
    Ok(())
}

/// Before a grid region's decision on `cond`: a shared variable must wait for the writes
/// since the last barrier, as a kernel that reads it would.
fn decision_read(plan: &Plan, objects: &mut ObjectBits, cond: VarId) -> Vec<String> {
    if plan.program.var(cond).sharity != Sharity::Shared {
        return Vec::new();
    }
    let bit = objects.bit(Target::Var(cond));
    vec![
        format!("if (written & {bit:#x}ull) {SYNC}"),
        format!("read |= {bit:#x}ull;"),
    ]
}

/// A grid barrier between two kernels of a grid region: every block leaves the region when
/// it says stop; what was written and read since the last one is then ordered.
const SYNC: &str = "{ if (fk_g_sync(fk_faulted())) goto fk_g_out; written = read = 0; }";

/// The shared objects a grid region's kernels touch, a bit each in the masks `written` and
/// `read` of the emitted code: the 64th stands for every object past the 63rd, and all bits
/// for memory that no name covers (`Objects::unknown`).
#[derive(Default)]
struct ObjectBits {
    targets: Vec<Target>,
}

impl ObjectBits {
    fn bit(&mut self, t: Target) -> u64 {
        let i = self
            .targets
            .iter()
            .position(|w| *w == t)
            .unwrap_or_else(|| {
                self.targets.push(t);
                self.targets.len() - 1
            });
        1 << i.min(63)
    }

    fn mask(&mut self, o: &Objects) -> u64 {
        if o.unknown {
            return !0;
        }
        o.targets.iter().fold(0, |m, t| m | self.bit(*t))
    }
}
