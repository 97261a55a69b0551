//! The device-resident schedule's interpreter: `fk_run_proc`, one `case` per instruction of
//! the lowered host program (`crate::host_program`), run by every processor from its own
//! program point (`pram-runtime/cuda/fk_schedule.cuh` has the helpers and the design). The
//! kernels of the Plan run inside it as device functions (`<kernel>_body`).

use super::host::fk_var;
use super::{EmitError, Sites};
use crate::host_program::{Instr, Open, Pc};
use crate::plan::{Call, Home, Multiprefix, Plan, RegionKind, RegionNeeds, SplitKind};
use fork_frontend::hir::{Mode, VarId};
use fork_frontend::source::Span;
use std::collections::BTreeSet;
use std::fmt::Write;

/// Whether a spilled private variable spans two of the slot stacks' 8-byte granules (an array,
/// a struct over 8 bytes): such variables need their bytes contiguous, so the stacks get a
/// contiguous area after the interleaved one (`fk_slot`). Heights are multiples of 8
/// (`storage` rounds frames to `MAX_ALIGN`), so the offset in its frame decides.
pub(super) fn slot_wide(plan: &Plan) -> bool {
    let program = &plan.program;
    (0..program.vars.len()).any(|v| {
        let v = VarId(v as u32);
        matches!(plan.storage.home(v), Some(Home::Slot { offset })
            if offset % 8 + program.var(v).ty.size(&program.structs) > 8)
    })
}

/// Bytes of each processor's slot stack: 64 activations of the largest frame, at least 4 KiB.
pub(super) fn slot_stack_bytes(plan: &Plan) -> u64 {
    let largest = plan
        .functions
        .iter()
        .map(|f| f.frame_bytes)
        .max()
        .unwrap_or(0);
    (64 * largest.div_ceil(8) * 8).max(4096)
}

/// Threads per block of the persistent kernel (`FK_DEVICE_THREADS` in the program's source):
/// fewer in a program with a grid region, whose kernel then spills nothing, than in one whose
/// groups run as block tasks and owned loops, which want the widest team. On the H200
/// (docs/performance.md, session 39) blocks of 384 took sieve 10^7, Hillis–Steele 2^20 and
/// list ranking 2^18 1 to 32% less time than 640 at P = 1024 to 2^20; quicksort_balanced 10^6
/// at P = 4096 took 23% more (its groups of 353 to 608 members then span two teams).
pub(super) fn device_threads(plan: &Plan) -> u32 {
    if has_grid_regions(plan) {
        super::abi::FK_DEVICE_THREADS_GRID
    } else {
        super::abi::FK_DEVICE_THREADS_TASKS
    }
}

/// Whether the host program has a grid region (`RegionKind::Grid`).
pub(super) fn has_grid_regions(plan: &Plan) -> bool {
    plan.host.grid_regions().next().is_some()
}

/// Whether a region's stacks fit the part of `fk_m.members` and `fk_m.words` its group owns
/// under the device schedule (`FK_STACK_PER_PROC` entries per member, `fk_run_task`): its
/// group's member list and its member lists, its word lists. Every region of the corpus does;
/// one that does not runs instruction by instruction.
fn runs_as_task(needs: &RegionNeeds) -> bool {
    let per_member = super::abi::FK_STACK_PER_PROC;
    u64::from(needs.member_lists) < per_member && u64::from(needs.word_lists) <= per_member
}

/// The regions the device schedule runs as block tasks: the pc of each `region` instruction.
pub(super) fn region_tasks(plan: &Plan) -> impl Iterator<Item = Pc> + '_ {
    plan.host
        .code
        .iter()
        .enumerate()
        .filter_map(|(pc, instr)| match instr {
            Instr::Region { needs, .. } if runs_as_task(needs) => Some(Pc(pc as u32)),
            _ => None,
        })
}

/// Where the instruction at `at` is a region that may run as a task, fk_s_region's arguments
/// that say how a group runs it (fk_region_task): whether its members share threads
/// (`members_share_threads`, 0 or 1) and a grid region's pc (-1 for a block region).
fn region_task(plan: &Plan, at: Pc) -> Option<(i32, i64)> {
    match &plan.host.code[at.0 as usize] {
        Instr::Region {
            needs, end, kind, ..
        } if runs_as_task(needs) => Some((
            i32::from(members_share_threads(plan, at, *end)),
            match kind {
                RegionKind::Grid => i64::from(at.0),
                RegionKind::Block => -1,
            },
        )),
        _ => None,
    }
}

/// Whether the members of every kernel the region at `at` launches may share a thread of the
/// block: a synchronous kernel's (the transform cuts wherever one could read another's
/// write), and one inside `seq` (one member runs it); members of any other asynchronous
/// kernel may wait for each other and need a thread each.
fn members_share_threads(plan: &Plan, at: Pc, end: Pc) -> bool {
    let host = &plan.host;
    let nesting = host
        .nesting(host.function_at(at))
        .unwrap_or_else(|e| unreachable!("validated host program: {e}"));
    (at.0 + 1..end.0).all(|pc| match &host.code[pc as usize] {
        Instr::Launch(k) if plan.kernel(*k).mode != Mode::Sync => nesting
            .at(Pc(pc))
            .is_some_and(|open| open.contains(&Open::Seq)),
        _ => true,
    })
}

/// `fk_run_region`, the dispatch of `fk_run_task` (`pram-runtime/cuda/fk_schedule.cuh`) to
/// the region functions by the pc of their `region` instruction, and
/// `fk_region_frame_bytes`, the most shared-frame bytes one of them forms.
fn region_dispatch(plan: &Plan, out: &mut String) {
    let _ = writeln!(
        out,
        "__device__ void fk_run_region(int pc, int g, int seq, fk_u64 slot_base, int groups_top,\n                              fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top) {{\n    switch (pc) {{"
    );
    let mut frame_bytes = 0;
    for pc in region_tasks(plan) {
        let Instr::Region { name, needs, .. } = &plan.host.code[pc.0 as usize] else {
            continue;
        };
        frame_bytes = frame_bytes.max(needs.frame_bytes);
        let _ = writeln!(
            out,
            "    case {}: {name}(g, seq, slot_base, 0, groups_top, members_top, words_top, frames_top); break;",
            pc.0
        );
    }
    let _ = writeln!(out, "    }}\n}}\n");
    let _ = writeln!(
        out,
        "__device__ fk_u64 fk_region_frame_bytes() {{ return {frame_bytes}; }}\n"
    );
    let _ = writeln!(
        out,
        "__device__ void fk_run_grid_region(int pc, int g, int seq, fk_u64 slot_base, int groups_top,\n                                   fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top) {{\n    switch (pc) {{"
    );
    for pc in grid_tasks(plan) {
        let Instr::Region { name, .. } = &plan.host.code[pc.0 as usize] else {
            continue;
        };
        let _ = writeln!(
            out,
            "    case {}: {}(g, seq, slot_base, 0, groups_top, members_top, words_top, frames_top); break;",
            pc.0,
            grid_name(name)
        );
    }
    let _ = writeln!(out, "    }}\n}}\n");
}

/// The grid regions the device schedule runs on every block (`fk_run_grid_region`): those of
/// `region_tasks` whose kind is `RegionKind::Grid`.
pub(super) fn grid_tasks(plan: &Plan) -> impl Iterator<Item = Pc> + '_ {
    region_tasks(plan).filter(|pc| {
        matches!(
            plan.host.code[pc.0 as usize],
            Instr::Region {
                kind: RegionKind::Grid,
                ..
            }
        )
    })
}

/// The device schedule's function of a grid region that every block's team runs; the region's
/// own name is its block region's.
pub(super) fn grid_name(region: &str) -> String {
    format!("{region}_grid")
}

/// The standalone `.cu`'s `fk_run` under the device schedule: the global initialisers, then
/// the one launch (`fk_device_schedule`, `pram-runtime/cuda/fk_host_schedule.cuh`), with the
/// host's copies of `depth`, `slot_stack_bytes` and `slot_wide`.
pub fn host_launch(plan: &Plan, out: &mut String) {
    let _ = writeln!(out, "// ---- program: the device schedule's launch ----\n");
    let _ = writeln!(
        out,
        "inline int fk_schedule_depth(fk_u64 procs) {{ return {}; }}",
        super::abi::DEVICE_DEPTH_C
    );
    let _ = writeln!(
        out,
        "static const fk_u64 fk_slot_stack_bytes = {};\nstatic const bool fk_slot_wide = {};\n",
        slot_stack_bytes(plan),
        slot_wide(plan)
    );
    let _ = writeln!(
        out,
        "static void fk_run() {{\n    FK_LAUNCH({}, 1);\n    fk_device_schedule({}, fk_slot_stack_bytes, fk_slot_wide, {});\n}}\n",
        super::abi::GLOBALS_KERNEL,
        plan.host.entry(plan.main).0,
        has_grid_regions(plan)
    );
}

pub fn interpreter(
    plan: &Plan,
    sites: &mut Sites,
    common_kernels: &BTreeSet<String>,
    out: &mut String,
) -> Result<(), EmitError> {
    let host = &plan.host;
    let frame =
        |id: crate::plan::SharedFrameId| (id.0, plan.storage.shared_frames[id.0 as usize].bytes);
    let var = |v: VarId, span: Span| fk_var(plan, v, span);
    let _ = writeln!(
        out,
        "// ---- program: the device schedule's interpreter (one case per host instruction) ----\n"
    );
    let _ = writeln!(out, "__device__ void fk_run_proc(int p, FkProc *s) {{");
    // The stop word (a fault, a runtime limit) is read every FK_STOP_EVERY instructions: each
    // read is a round trip to L2 on the critical path of a processor running alone. Not
    // before the first: the runner loop has just read it (fk_device_run).
    let _ = writeln!(out, "    for (unsigned i = 1;; i++) {{");
    let _ = writeln!(
        out,
        "        if (i % FK_STOP_EVERY == 0 && fk_stops(s)) return;"
    );
    let _ = writeln!(out, "        switch (s->pc) {{");
    // The long kernels' cases for fk_run_long.
    let mut long = String::new();
    for (pc, instr) in host.code.iter().enumerate() {
        let next = pc + 1;
        let f = plan.function(host.function_at(Pc(pc as u32)));
        let span = plan.program.func(f.func).span;
        let _ = writeln!(out, "        case {pc}: // {}", describe(plan, instr));
        let body = match instr {
            Instr::Launch(id) => {
                let k = plan.kernel(*id);
                let sync = (k.mode == Mode::Sync) as i32;
                let check = common_kernels.contains(&k.name) as i32;
                // --trace, barrier phases with barriers: where the processor stopped
                // (fk_trace_stop).
                let phases = plan
                    .phase_barriers
                    .iter()
                    .find(|b| b.kernel == *id && !b.barriers.is_empty());
                let stop = match phases {
                    Some(b) => {
                        let at_barrier: Vec<String> = b
                            .barriers
                            .iter()
                            .map(|(k, _)| format!("stop == {k}"))
                            .collect();
                        format!(
                            "\n                if (fk_t.regions) {{\n                    fk_i64 stop = -fk_s_read({}, p, s);\n                    fk_trace_stop(s, stop, {});\n                }}",
                            var(b.phase, k.span)?,
                            at_barrier.join(" || ")
                        )
                    }
                    None => String::new(),
                };
                let hand_over = if phases.is_none() && runs_long(k) {
                    let _ = writeln!(
                        long,
                        "    case {pc}: {{ // {}\n        FkThread th;\n        fk_s_thread(&th, p, s, {sync});\n        {}_body(&th);\n        break;\n    }}",
                        describe(plan, instr),
                        k.name
                    );
                    "\n                if (fk_s_hand_over(p, s)) return;"
                } else {
                    ""
                };
                format!(
                    "if (s->phase == 0 && fk_runs(p, s)) {{{hand_over}\n                FkThread th;\n                fk_s_thread(&th, p, s, {sync});\n                {}_body(&th);{stop}\n            }}\n            if (fk_s_end_of_kernel(p, s, {next}, {check})) return;",
                    k.name
                )
            }
            Instr::Branch { cond, els, end } => format!(
                "if (fk_s_branch(p, s, {}, {next}, {}, {})) return;",
                var(*cond, span)?,
                els.0,
                end.0
            ),
            Instr::Jump(to) => format!("s->pc = {};", to.0),
            Instr::Split {
                kind,
                shared_frames,
                arms,
                end,
                span,
            } => {
                let (f0, b0) = frame(shared_frames[0]);
                let (f1, b1) = frame(*shared_frames.get(1).unwrap_or(&shared_frames[0]));
                let arm = |i: usize| arms.get(i).unwrap_or(&arms[0]).0;
                let none = "FkVar{}".to_string();
                let (fork, key, count, set_dollar, dollar) = match kind {
                    SplitKind::If { cond, .. } => (0, var(*cond, *span)?, none.clone(), 0, none),
                    SplitKind::Fork { count, at, dollar } => (
                        1,
                        var(*at, *span)?,
                        var(*count, *span)?,
                        dollar.is_some() as i32,
                        match dollar {
                            Some(d) => var(*d, *span)?,
                            None => none,
                        },
                    ),
                };
                format!(
                    "if (fk_s_split(p, s, {fork}, {key}, {count}, {set_dollar}, {dollar}, {f0}, {b0}, {f1}, {b1}, {}, {}, {})) return;",
                    arm(0),
                    arm(1),
                    end.0
                )
            }
            Instr::SubgroupEnd => "if (fk_s_subgroup_end(p, s)) return;".into(),
            Instr::LoopBegin { .. } => format!("if (fk_s_loop_begin(p, s, {next})) return;"),
            Instr::LoopEnter => {
                let (header, exit) = loop_of(host, Pc(pc as u32));
                let (fr, bytes) = frame(header.shared_frame);
                let (has, cond) = match header.cond {
                    Some(c) => (1, var(c, header.span)?),
                    None => (0, "FkVar{}".into()),
                };
                format!(
                    "if (fk_s_loop_enter(p, s, {}, {has}, {cond}, {}, {fr}, {bytes}, {next}, {})) return;",
                    header.test_first as i32, header.forms_group as i32, exit.0
                )
            }
            Instr::LoopNext => format!("fk_s_loop_next(p, s, {next});"),
            Instr::LoopLatch { body } => {
                let (header, _) = loop_of(host, Pc(pc as u32));
                let (has, cond) = match header.cond {
                    Some(c) => (1, var(c, header.span)?),
                    None => (0, "FkVar{}".into()),
                };
                format!(
                    "if (fk_s_loop_latch(p, s, {has}, {cond}, {}, {next}, {})) return;",
                    body.0,
                    sites.loop_site(header.span)
                )
            }
            Instr::LoopEnd => format!("if (fk_s_loop_end(p, s, {next})) return;"),
            Instr::Call(Call {
                callee,
                args,
                result,
                span,
            }) => {
                let g = plan.function(*callee);
                let (fr, bytes) = frame(g.shared_frame);
                let caller_frame = f.frame_bytes;
                let callee_frame = g.frame_bytes;
                let mut copies = String::new();
                let params = &plan.program.func(g.func).params;
                for (param, arg) in params.iter().zip(args) {
                    let shared =
                        plan.program.var(*param).sharity == fork_frontend::hir::Sharity::Shared;
                    let _ = write!(
                        copies,
                        "\n                if (fk_s_call_{}(p, s)) fk_s_copy(p, {}, s->group, s->slot_base, {}, cg, cb);",
                        if shared { "first" } else { "active" },
                        var(*arg, *span)?,
                        var(*param, *span)?
                    );
                }
                let result_copy = match (result, g.ret) {
                    (Some(r), Some(ret)) => format!(
                        "\n                if (fk_s_call_returned(p, s)) fk_s_copy(p, {}, s->group, s->slot_base, {}, s->group, fk_frames(p)[s->sp].slot_base);",
                        var(ret, *span)?,
                        var(*r, *span)?
                    ),
                    _ => String::new(),
                };
                // The callee's group and slot frame, for the argument copies.
                let callee_ctx = if copies.is_empty() {
                    String::new()
                } else {
                    format!(
                        "\n                int cg = (int)fk_d.sync[s->group].aux;\n                fk_u64 cb = s->slot_base + {caller_frame};"
                    )
                };
                let entry = plan.host.entry(*callee);
                let (shares, grid) = region_task(plan, entry).unwrap_or((-1, -1));
                format!(
                    "if (s->phase == 3) {{{result_copy}\n                fk_s_call_done(p, s, {next});\n                break;\n            }}\n            if (s->phase <= 1) {{\n                int go = fk_s_call_begin(p, s, {fr}, {bytes}, {next});\n                if (go < 0) return;\n                if (go == 0) break;{callee_ctx}{copies}\n            }}\n            if (fk_s_call_enter(p, s, {caller_frame}, {callee_frame}, {pc}, {}, {}, {shares}, {grid})) return;",
                    entry.0,
                    sites.call_site(*span, &g.name)
                )
            }
            Instr::Ret => "fk_s_ret(p, s);\n            if (s->done) return;".into(),
            Instr::SeqBegin { .. } => format!("if (fk_s_seq_begin(p, s, {next})) return;"),
            Instr::SeqEnd => format!("fk_s_seq_end(p, s, {next});"),
            Instr::StartBegin { shared_frame, .. } => {
                let (fr, bytes) = frame(*shared_frame);
                format!("if (fk_s_start(p, s, {fr}, {bytes}, {next})) return;")
            }
            Instr::StartEnd => format!("fk_s_start_end(p, s, {next});"),
            Instr::Multiprefix(Multiprefix {
                op,
                ptr,
                value,
                result,
                span,
            }) => {
                let (has, res) = match result {
                    Some(r) => (1, var(*r, *span)?),
                    None => (0, "FkVar{}".into()),
                };
                format!(
                    "if (fk_s_multiprefix(p, s, {}, {}, {}, {has}, {res}, {next})) return;",
                    super::abi::mp_name(*op),
                    var(*ptr, *span)?,
                    var(*value, *span)?
                )
            }
            // A group that fits a block runs the region there (fk_s_region); a grid region's
            // instructions are a block region's too, and a larger group of every processor
            // runs it on every block (`grid_name`); the others, and a region whose stacks do
            // not fit, run its instructions one by one.
            Instr::Region { needs, end, .. } => match region_task(plan, Pc(pc as u32)) {
                Some((shares, grid)) => format!(
                    "if (fk_s_region(p, s, {}, {shares}, {next}, {}, {grid})) return;",
                    needs.groups, end.0,
                ),
                None => format!("s->pc = {next};"),
            },
        };
        let _ = writeln!(out, "            {body}\n            break;");
    }
    let _ = writeln!(out, "        default:\n            return;");
    let _ = writeln!(out, "        }}\n    }}\n}}\n");
    let _ = writeln!(
        out,
        "// The long kernels a runner lane hands to its block's kernel warp (fk_s_hand_over).\n__device__ void fk_run_long(int p, FkProc *s) {{\n    switch (s->pc) {{\n{long}    default:\n        break;\n    }}\n}}\n"
    );
    region_dispatch(plan, out);
    trace_async_at(plan, out);
    Ok(())
}

/// Whether a kernel may run long: a loop or a call of a user function in it. A runner lane
/// hands such a kernel to its block's kernel warp (fk_schedule.cuh, `fk_s_hand_over`), so
/// that it does not hold the runner warp's other processors.
fn runs_long(k: &crate::plan::Kernel) -> bool {
    use fork_frontend::hir::{ExprKind, StmtKind};
    use fork_frontend::sync_calls::{any_stmt, own_exprs};
    k.body.iter().any(|s| {
        any_stmt(s, &|s| {
            matches!(s.kind, StmtKind::Loop { .. })
                || own_exprs(s).into_iter().any(|e| {
                    let mut call = false;
                    e.walk(&mut |x| call |= matches!(x.kind, ExprKind::Call { .. }));
                    call
                })
        })
    })
}

/// `fk_trace_async_at` (`pram-runtime/cuda/fk_schedule.cuh`): `Plan::async_at` as a table.
fn trace_async_at(plan: &Plan, out: &mut String) {
    let _ = writeln!(
        out,
        "__device__ int fk_trace_async_at(int pc) {{\n    switch (pc) {{"
    );
    for (pc, a) in plan.async_at().iter().enumerate() {
        if let Some(at) = async_at_value(a) {
            let _ = writeln!(out, "    case {pc}: return {at};");
        }
    }
    let _ = writeln!(out, "    default: return 0;\n    }}\n}}\n");
}

/// An `AsyncAt` as its C value (FK_AT_*); None for 0.
pub(super) fn async_at_value(a: &crate::plan::AsyncAt) -> Option<String> {
    let mut at = Vec::new();
    if let Some(i) = a.region {
        at.push(format!("{} * FK_AT_REGION", i + 1));
        if a.opens {
            at.push("FK_AT_OPENS".into());
        }
    }
    if a.barrier {
        at.push("FK_AT_BARRIER".into());
    }
    (!at.is_empty()).then(|| at.join(" + "))
}

/// The loop an instruction inside it belongs to (its header and exit).
fn loop_of(
    host: &crate::host_program::HostProgram,
    pc: Pc,
) -> (crate::host_program::LoopHeader, Pc) {
    host.loop_of(pc)
        .unwrap_or_else(|| unreachable!("validated: loop instructions lie inside their loop"))
}

fn describe(plan: &Plan, instr: &Instr) -> String {
    match instr {
        Instr::Launch(k) => format!("launch {}", plan.kernel(*k).name),
        Instr::Call(Call { callee, .. }) => format!("call {}", plan.function(*callee).name),
        other => {
            let s = format!("{other:?}");
            s.split([' ', '{', '(']).next().unwrap_or("").to_string()
        }
    }
}
