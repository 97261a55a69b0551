//! The Plan validator: a stage of its own between the transform and the executors (as naga's
//! `valid/` sits between its IR and its backends). A Plan that passes never makes an emitter
//! or executor fail for a structural reason; one that fails is a transform bug, reported as
//! E0590 with what is wrong.
//!
//! Checked: every kernel, host function, shared frame and variable an instruction names
//! exists; every value the host reads or writes (conditions, arguments, results, multiprefix
//! operands, return slots) has a home in memory; kernel bodies address no variable of another
//! function's frame; and the host program is well nested on every path: each jump lands
//! inside its function, each split arm ends with `SubgroupEnd` (and does not run into the next
//! arm), each loop's instructions come
//! in order, and every path reaches `Ret` with no group operation left open; each loop a
//! kernel calls order-free is a loop of its synchronous body.

use crate::host_program::{HostProgram, Instr};
use crate::plan::{Call, Home, HostFnId, Kernel, Multiprefix, Plan, SplitKind};
use fork_frontend::diag::Code;
use fork_frontend::hir::{ExprKind, Mode, Stmt, StmtKind, VarId};
use fork_frontend::source::Span;
use fork_frontend::sync_calls::any_stmt;

pub const E0590: Code = Code {
    id: "E0590",
    title: "internal error: the transform made an invalid Plan",
    explain: "The Plan validator found a Plan that breaks one of its invariants (a missing \
kernel or variable home, a jump outside its function, a split or loop not closed on every \
path). This is a bug in forkcc's transform, not in your program; `forkcc sim` runs the program \
without the Plan. Please report it with the program.",
};

/// What a validation failure says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

pub fn validate(plan: &Plan) -> Result<(), Invalid> {
    let host = &plan.host;
    if host.entries.len() != plan.functions.len() {
        return Err(Invalid(format!(
            "{} host functions but {} entries in the host program",
            plan.functions.len(),
            host.entries.len()
        )));
    }
    for (i, instr) in host.code.iter().enumerate() {
        operands(plan, instr).map_err(|e| Invalid(format!("instruction {i}: {}", e.0)))?;
        arms_end(host, instr).map_err(|e| Invalid(format!("instruction {i}: {}", e.0)))?;
    }
    for f in &plan.functions {
        if let Some(ret) = f.ret {
            has_home(plan, ret)?;
        }
    }
    for k in &plan.kernels {
        order_free_loops(k).map_err(|e| Invalid(format!("kernel `{}`: {}", k.name, e.0)))?;
        distinct_stores(k).map_err(|e| Invalid(format!("kernel `{}`: {}", k.name, e.0)))?;
    }
    for fi in 0..host.entries.len() {
        host.nesting(HostFnId(fi as u32))
            .map_err(|e| Invalid(format!("host function `{}`: {e}", plan.functions[fi].name)))?;
    }
    Ok(())
}

/// `Kernel::order_free` names loops of a synchronous body: the `--crcw common` check leaves
/// their stores unlogged; `Kernel::loads_ahead` names some of them.
fn order_free_loops(k: &Kernel) -> Result<(), Invalid> {
    let holds_loop = |s: &Stmt, span: Span| {
        any_stmt(s, &|s| {
            matches!(s.kind, StmtKind::Loop { .. }) && s.span == span
        })
    };
    for &span in &k.order_free {
        if k.mode != Mode::Sync || !k.body.iter().any(|s| holds_loop(s, span)) {
            return Err(Invalid(format!(
                "an order-free loop at bytes {}..{} is not a loop of its synchronous body",
                span.lo, span.hi
            )));
        }
    }
    if let Some(span) = k.loads_ahead.iter().find(|s| !k.order_free.contains(s)) {
        return Err(Invalid(format!(
            "a loop that loads ahead at bytes {}..{} is not order-free",
            span.lo, span.hi
        )));
    }
    Ok(())
}

/// `Kernel::distinct_stores` names assignment statements of a synchronous body: the
/// `--crcw common` check leaves them unlogged.
fn distinct_stores(k: &Kernel) -> Result<(), Invalid> {
    let holds_store = |s: &Stmt, span: Span| {
        any_stmt(s, &|s| match &s.kind {
            StmtKind::Expr(e) => matches!(e.kind, ExprKind::Assign { .. }) && s.span == span,
            _ => false,
        })
    };
    for &span in &k.distinct_stores {
        if k.mode != Mode::Sync || !k.body.iter().any(|s| holds_store(s, span)) {
            return Err(Invalid(format!(
                "a distinct store at bytes {}..{} is not an assignment of its synchronous body",
                span.lo, span.hi
            )));
        }
    }
    Ok(())
}

fn has_home(plan: &Plan, v: VarId) -> Result<(), Invalid> {
    if (v.0 as usize) >= plan.program.vars.len() {
        return Err(Invalid(format!("variable #{} does not exist", v.0)));
    }
    let Some(home) = plan.storage.home(v) else {
        return Err(Invalid(format!(
            "the host reads or writes `{}`, which has no home in memory",
            plan.program.var(v).name
        )));
    };
    if let Home::SharedFrame { frame, offset } = home {
        let Some(f) = plan.storage.shared_frames.get(frame.0 as usize) else {
            return Err(Invalid(format!("shared frame #{} does not exist", frame.0)));
        };
        let size = plan.program.var(v).ty.size(&plan.program.structs);
        if offset + size > f.bytes {
            return Err(Invalid(format!(
                "`{}` (+{offset}, {size} bytes) lies outside shared frame `{}` ({} bytes)",
                plan.program.var(v).name,
                f.name,
                f.bytes
            )));
        }
    }
    Ok(())
}

/// Each arm of a split is the code from its first instruction to the next arm's (the last
/// arm: to the split's end), and ends with `SubgroupEnd`: no arm runs into the next one.
fn arms_end(host: &HostProgram, instr: &Instr) -> Result<(), Invalid> {
    let Instr::Split { arms, end, .. } = instr else {
        return Ok(());
    };
    for (i, arm) in arms.iter().enumerate() {
        let stop = arms.get(i + 1).unwrap_or(end).0 as usize;
        if stop <= arm.0 as usize || !matches!(host.code.get(stop - 1), Some(Instr::SubgroupEnd)) {
            return Err(Invalid(format!(
                "split arm {i} (at {}) does not end with `subgroup end`",
                arm.0
            )));
        }
    }
    Ok(())
}

fn operands(plan: &Plan, instr: &Instr) -> Result<(), Invalid> {
    let frame = |f: crate::plan::SharedFrameId| {
        if (f.0 as usize) < plan.storage.shared_frames.len() {
            Ok(())
        } else {
            Err(Invalid(format!("shared frame #{} does not exist", f.0)))
        }
    };
    match instr {
        Instr::Launch(k) => {
            if (k.0 as usize) >= plan.kernels.len() {
                return Err(Invalid(format!("kernel #{} does not exist", k.0)));
            }
        }
        Instr::Branch { cond, .. } => has_home(plan, *cond)?,
        Instr::Split {
            kind,
            shared_frames,
            arms,
            ..
        } => {
            match kind {
                SplitKind::If { cond, .. } => {
                    has_home(plan, *cond)?;
                    if arms.len() != 2 || shared_frames.len() != 2 {
                        return Err(Invalid("an `if` split needs two arms and frames".into()));
                    }
                }
                SplitKind::Fork { count, at, dollar } => {
                    has_home(plan, *count)?;
                    has_home(plan, *at)?;
                    if let Some(d) = dollar {
                        has_home(plan, *d)?;
                    }
                    if arms.len() != 1 || shared_frames.is_empty() {
                        return Err(Invalid("a `fork` split needs one arm and a frame".into()));
                    }
                }
            }
            for f in shared_frames {
                frame(*f)?;
            }
        }
        Instr::LoopBegin { header, .. } => {
            if let Some(c) = header.cond {
                has_home(plan, c)?;
            }
            frame(header.shared_frame)?;
        }
        Instr::Call(Call {
            callee,
            args,
            result,
            ..
        }) => {
            let Some(f) = plan.functions.get(callee.0 as usize) else {
                return Err(Invalid(format!(
                    "host function #{} does not exist",
                    callee.0
                )));
            };
            let params = &plan.program.func(f.func).params;
            if params.len() != args.len() {
                return Err(Invalid(format!(
                    "call of `{}` with {} arguments for {} parameters",
                    f.name,
                    args.len(),
                    params.len()
                )));
            }
            for v in args.iter().chain(params) {
                has_home(plan, *v)?;
            }
            if let Some(r) = result {
                has_home(plan, *r)?;
                if f.ret.is_none() {
                    return Err(Invalid(format!("`{}` returns no value to take", f.name)));
                }
            }
        }
        Instr::StartBegin { shared_frame, .. } => frame(*shared_frame)?,
        Instr::Multiprefix(Multiprefix {
            ptr, value, result, ..
        }) => {
            has_home(plan, *ptr)?;
            has_home(plan, *value)?;
            if let Some(r) = result {
                has_home(plan, *r)?;
            }
        }
        Instr::Jump(_)
        | Instr::SubgroupEnd
        | Instr::LoopEnter
        | Instr::LoopNext
        | Instr::LoopLatch { .. }
        | Instr::LoopEnd
        | Instr::Ret
        | Instr::SeqBegin { .. }
        | Instr::SeqEnd
        | Instr::StartEnd
        | Instr::Region { .. } => {}
    }
    Ok(())
}
