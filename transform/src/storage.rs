//! The storage layout (ARCHITECTURE.md, "Storage layout"): shared globals in one region, private
//! globals in the global private frame, and per host function the spilled private slots —
//! only the private variables a later kernel or the host reads (BSGP's lesson), the ones whose
//! address is taken, and non-scalars. Everything else stays in a kernel's registers.

use crate::lifetimes;
use crate::plan::{
    Call, CutReason, Home, HostFunction, HostOp, Kernel, Multiprefix, SharedFrame, SharedFrameId,
    SplitKind, Storage,
};
use fork_frontend::hir::{Expr, ExprKind, Program, Sharity, Stmt, StmtKind, Type, VarId, VarKind};
use std::collections::{HashMap, HashSet};

/// The largest alignment of any type (pointers, `long`, `double`).
const MAX_ALIGN: u64 = 8;
// The device schedule's slot-stack heights are sums of frames rounded to it, and `fk_slot`
// finds a variable's 8-byte granule from its offset in its frame alone.
const _: () = assert!(MAX_ALIGN.is_multiple_of(8));

/// Lays out every variable; sets `frame_bytes` of each host function.
pub fn layout(
    program: &Program,
    kernels: &[Kernel],
    functions: &mut [HostFunction],
    shared_homes: &HashMap<VarId, (SharedFrameId, u64)>,
    shared_frames: Vec<SharedFrame>,
) -> Storage {
    let mut storage = Storage {
        home: vec![None; program.vars.len()],
        shared_frames,
        ..Storage::default()
    };
    for g in &program.globals {
        let v = program.var(g.var);
        let (size, align) = (v.ty.size(&program.structs), v.ty.align(&program.structs));
        let home = match v.sharity {
            Sharity::Shared => Home::Shared {
                offset: bump(&mut storage.shared_globals_bytes, size, align),
            },
            Sharity::Private => Home::PrivateGlobal {
                offset: bump(&mut storage.private_globals_bytes, size, align),
            },
        };
        storage.home[g.var.0 as usize] = Some(home);
    }
    for (var, (frame, offset)) in shared_homes {
        storage.home[var.0 as usize] = Some(Home::SharedFrame {
            frame: *frame,
            offset: *offset,
        });
    }
    // Which variables each kernel uses, and which kernels use each variable.
    let kernel_vars: Vec<HashSet<VarId>> = kernels
        .iter()
        .map(|k| {
            let mut used = HashSet::new();
            k.body.iter().for_each(|s| stmt_vars(s, &mut used));
            used
        })
        .collect();
    let mut kernels_of: HashMap<VarId, usize> = HashMap::new();
    for v in kernel_vars.iter().flatten() {
        *kernels_of.entry(*v).or_default() += 1;
    }
    // A kernel of barrier phases is launched again and resumes where each processor stopped:
    // its variables outlive a launch.
    let resumed: HashSet<VarId> = kernels
        .iter()
        .zip(&kernel_vars)
        .filter(|(k, _)| k.ends == CutReason::Suspend)
        .flat_map(|(_, vars)| vars.iter().copied())
        .collect();
    for f in functions.iter_mut() {
        let mut host_used = HashSet::new();
        f.body.iter().for_each(|op| host_vars(op, &mut host_used));
        host_used.extend(f.ret);
        let func = program.func(f.func);
        let mut spilled = Vec::new();
        for (i, var) in program.vars.iter().enumerate() {
            let id = VarId(i as u32);
            let mine = match var.kind {
                VarKind::Local { func } | VarKind::Param { func, .. } => func == f.func,
                VarKind::Global => false,
            };
            if !mine || var.sharity == Sharity::Shared {
                continue;
            }
            let crosses = kernels_of.get(&id).is_some_and(|n| *n > 1) || resumed.contains(&id);
            if crosses
                || host_used.contains(&id)
                || func.params.contains(&id)
                || var.addr_taken
                || !var.ty.is_scalar()
            {
                spilled.push(id);
            }
        }
        // The transform's temporaries (not the return slot) may share slots; not those of a
        // resumed kernel (an inlined callee's locals among them), which live on through the
        // launches of its barrier phases, beyond the ops that use them.
        let temps: HashSet<VarId> = spilled
            .iter()
            .copied()
            .filter(|v| {
                program.var(*v).name.starts_with('%') && Some(*v) != f.ret && !resumed.contains(v)
            })
            .collect();
        let lifetimes = lifetimes::lifetimes(&f.body, &kernel_vars, &temps);
        let mut frame = 0;
        // Shareable slots as (offset, type, the last op number it is busy). Temporaries are
        // placed in order of their first op.
        let mut shareable: Vec<(u64, Type, usize)> = Vec::new();
        spilled.sort_by_key(|v| lifetimes.get(v).map(|l| l.first));
        for v in spilled {
            let ty = &program.var(v).ty;
            let (size, align) = (ty.size(&program.structs), ty.align(&program.structs));
            let offset = match lifetimes.get(&v) {
                Some(life) => {
                    match shareable
                        .iter_mut()
                        .find(|(_, t, busy)| t == ty && *busy < life.first)
                    {
                        Some(slot) => {
                            slot.2 = life.last;
                            slot.0
                        }
                        None => {
                            let offset = bump(&mut frame, size, align);
                            shareable.push((offset, ty.clone(), life.last));
                            offset
                        }
                    }
                }
                None => bump(&mut frame, size, align),
            };
            storage.home[v.0 as usize] = Some(Home::Slot { offset });
        }
        f.frame_bytes = frame;
    }
    // Regions are stacked (call frames after the private globals and after each other) or
    // strided (sibling groups' shared frames, one processor's slot after another's), so each
    // size is a multiple of the largest alignment: an 8-byte value in a frame that follows a
    // 28-byte one would be misaligned (CUDA_ERROR_MISALIGNED_ADDRESS on the GPU).
    let round = |bytes: &mut u64| *bytes = bytes.next_multiple_of(MAX_ALIGN);
    round(&mut storage.shared_globals_bytes);
    round(&mut storage.private_globals_bytes);
    storage
        .shared_frames
        .iter_mut()
        .for_each(|f| round(&mut f.bytes));
    functions.iter_mut().for_each(|f| round(&mut f.frame_bytes));
    storage
}

/// Allocates `size` bytes aligned to `align` at the end of a region of `*end` bytes.
pub(crate) fn bump(end: &mut u64, size: u64, align: u64) -> u64 {
    let align = align.max(1);
    let offset = end.div_ceil(align) * align;
    *end = offset + size;
    offset
}

fn stmt_vars(s: &Stmt, out: &mut HashSet<VarId>) {
    let mut e = |x: &Expr| expr_vars(x, out);
    match &s.kind {
        StmtKind::Expr(x) => e(x),
        StmtKind::Decl { var, init } => {
            init.iter().flatten().for_each(|i| e(&i.value));
            out.insert(*var);
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt_vars(s, out)),
        StmtKind::If { cond, then, els } => {
            e(cond);
            stmt_vars(then, out);
            if let Some(s) = els {
                stmt_vars(s, out);
            }
        }
        StmtKind::Loop {
            cond, step, body, ..
        } => {
            cond.iter()
                .chain(step.iter())
                .for_each(|x| expr_vars(x, out));
            stmt_vars(body, out);
        }
        StmtKind::Switch { cond, cases } => {
            e(cond);
            for c in cases {
                c.body.iter().for_each(|s| stmt_vars(s, out));
            }
        }
        StmtKind::Return(x) => x.iter().for_each(e),
        StmtKind::Fork {
            count,
            at,
            dollar,
            body,
        } => {
            [count, at]
                .into_iter()
                .chain(dollar.iter())
                .for_each(|x| expr_vars(x, out));
            stmt_vars(body, out);
        }
        StmtKind::Start(b) | StmtKind::Farm(b) | StmtKind::Seq(b) => stmt_vars(b, out),
        StmtKind::Break | StmtKind::Continue | StmtKind::Barrier => {}
    }
}

fn expr_vars(e: &Expr, out: &mut HashSet<VarId>) {
    if let ExprKind::Var(v) = e.kind {
        out.insert(v);
    }
    e.for_each_child(|c| expr_vars(c, out));
}

/// Variables the host reads or writes (condition slots, call arguments and results, fork
/// parameters, multiprefix operands).
fn host_vars(op: &HostOp, out: &mut HashSet<VarId>) {
    let nested =
        |ops: &[HostOp], out: &mut HashSet<VarId>| ops.iter().for_each(|o| host_vars(o, out));
    match op {
        HostOp::Launch(_) | HostOp::Return => {}
        HostOp::Split(split) => {
            match &split.kind {
                SplitKind::If { cond, .. } => {
                    out.insert(*cond);
                }
                SplitKind::Fork { count, at, dollar } => {
                    out.extend([*count, *at]);
                    out.extend(*dollar);
                }
            }
            split.arms.iter().for_each(|a| nested(a, out));
        }
        HostOp::Branch { cond, then, els } => {
            out.insert(*cond);
            nested(then, out);
            nested(els, out);
        }
        HostOp::Loop(l) => {
            out.extend(l.cond);
            for ops in [&l.entry_cond, &l.body, &l.latch] {
                nested(ops, out);
            }
        }
        HostOp::Call(Call { args, result, .. }) => {
            out.extend(args.iter().copied());
            out.extend(*result);
        }
        HostOp::Seq { body, .. } | HostOp::Start { body, .. } => nested(body, out),
        HostOp::Region(r) => nested(&r.ops, out),
        HostOp::Multiprefix(Multiprefix {
            ptr, value, result, ..
        }) => {
            out.extend([*ptr, *value]);
            out.extend(*result);
        }
    }
}
