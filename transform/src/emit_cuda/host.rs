//! The lowered host program (`Plan::host`) as C++: `fk_run`, a `switch` on the program
//! counter with one case per instruction, each calling the runtime library's host API
//! (`pram-runtime/cuda/fk_host.cuh`). The order of the instructions is
//! `host_program::walk`'s: the runtime keeps the same frames (split, loop, call, seq, start)
//! on a stack of its own, so the C++ code has no structure of its own to get wrong.

use super::abi::FkVar;
use super::{EmitError, Sites};
use crate::host_program::Instr;
use crate::plan::{Call, HostFnId, Multiprefix, Plan, RegionKind, SharedFrameId, SplitKind};
use fork_frontend::hir::VarId;
use fork_frontend::source::Span;
use std::collections::BTreeSet;
use std::fmt::Write;

/// The `FkVar` literal that tells a runtime kernel where `var` lives.
pub fn fk_var(plan: &Plan, var: VarId, span: Span) -> Result<String, EmitError> {
    let v = FkVar::of(plan, var).ok_or_else(|| EmitError {
        span,
        message: format!(
            "the host reads `{}`, which lives in a register (a transform bug)",
            plan.program.var(var).name
        ),
    })?;
    Ok(v.c_expr())
}

/// `1, fk_var(...)` for a variable the runtime may use, `0, FkVar{}` for none (the `has_*`
/// flag and the variable the runtime functions take together).
pub fn optional_var(plan: &Plan, var: Option<VarId>, span: Span) -> Result<String, EmitError> {
    Ok(match var {
        Some(v) => format!("1, {}", fk_var(plan, v, span)?),
        None => "0, FkVar{}".into(),
    })
}

/// The operands of a multiprefix for the runtime: `code, ptr, value, has_result, result`.
pub fn multiprefix_args(
    plan: &Plan,
    op: fork_frontend::hir::MpOp,
    (ptr, value, result): (VarId, VarId, Option<VarId>),
    span: Span,
) -> Result<String, EmitError> {
    Ok(format!(
        "{}, {}, {}, {}",
        super::abi::mp_name(op),
        fk_var(plan, ptr, span)?,
        fk_var(plan, value, span)?,
        optional_var(plan, result, span)?
    ))
}

/// The shared frame's number and size, as the runtime takes them.
fn shared_frame(plan: &Plan, frame: SharedFrameId) -> String {
    let bytes = plan.storage.shared_frames[frame.0 as usize].bytes;
    format!("{}, {bytes}", frame.0)
}

/// `fk_run`: a warm-up launch of each grid region (`FK_GRID_WARM_UP`), the global
/// initialisers, then the host program from main's entry.
pub fn host_program(
    plan: &Plan,
    sites: &mut Sites,
    common_kernels: &BTreeSet<String>,
    out: &mut String,
) -> Result<(), EmitError> {
    let program = &plan.host;
    out.push_str("static void fk_run() {\n");
    for name in program.grid_regions() {
        let _ = writeln!(out, "    FK_GRID_WARM_UP({name});");
    }
    let _ = writeln!(
        out,
        "    FK_LAUNCH({}, 1);\n    fk_h.pc = {};\n    for (;;) {{\n        switch (fk_h.pc++) {{",
        super::abi::GLOBALS_KERNEL,
        program.entry(plan.main).0
    );
    let mut func = plan.main;
    for (pc, instr) in program.code.iter().enumerate() {
        if let Some(f) = program.entries.iter().position(|e| e.0 as usize == pc) {
            func = HostFnId(f as u32);
            let _ = writeln!(out, "        // {}", plan.function(func).name);
        }
        let stmts = instruction(plan, instr, plan.function(func).frame_bytes, sites)?;
        let stmts = match instr {
            // `--crcw common`: the check of the kernel's writes (fk_common_check_launch).
            Instr::Launch(k) if common_kernels.contains(&plan.kernel(*k).name) => {
                [stmts, vec!["fk_check_common();".to_string()]].concat()
            }
            _ => stmts,
        };
        match stmts.as_slice() {
            [one] => {
                let _ = writeln!(out, "        case {pc}: {one} break;");
            }
            _ => {
                let _ = writeln!(out, "        case {pc}:");
                for s in &stmts {
                    let _ = writeln!(out, "            {s}");
                }
                let _ = writeln!(out, "            break;");
            }
        }
    }
    let _ = writeln!(
        out,
        "        default: fk_fatal(\"the host program jumped outside its code (a forkcc bug)\");\n        }}\n    }}\n}}\n"
    );
    Ok(())
}

/// The statements of one instruction, in a function whose slot frame has `frame_bytes`.
fn instruction(
    plan: &Plan,
    instr: &Instr,
    frame_bytes: u64,
    sites: &mut Sites,
) -> Result<Vec<String>, EmitError> {
    Ok(vec![match instr {
        Instr::Launch(k) => {
            let k = plan.kernel(*k);
            let sync = (k.mode == fork_frontend::hir::Mode::Sync) as u8;
            format!("FK_LAUNCH({}, {sync});", k.name)
        }
        Instr::Branch { cond, els, end } => {
            let span = plan.program.var(*cond).span;
            format!(
                "fk_branch({}, {}, {});",
                fk_var(plan, *cond, span)?,
                els.0,
                end.0
            )
        }
        Instr::Jump(to) => format!("fk_h.pc = {};", to.0),
        Instr::Split {
            kind,
            shared_frames,
            arms,
            end,
            span,
        } => {
            let frame = |i: usize| shared_frame(plan, shared_frames[i]);
            let arms = arms.iter().map(|a| a.0.to_string()).collect::<Vec<_>>();
            match kind {
                SplitKind::If { cond, .. } => format!(
                    "fk_split_if({}, {}, {}, {}, {});",
                    fk_var(plan, *cond, *span)?,
                    frame(0),
                    frame(1),
                    arms.join(", "),
                    end.0
                ),
                SplitKind::Fork { count, at, dollar } => format!(
                    "fk_split_fork({}, {}, {}, {}, {}, {});",
                    fk_var(plan, *count, *span)?,
                    fk_var(plan, *at, *span)?,
                    optional_var(plan, *dollar, *span)?,
                    frame(0),
                    arms.join(", "),
                    end.0
                ),
            }
        }
        Instr::SubgroupEnd => "fk_next_subgroup();".into(),
        Instr::LoopBegin { header: l, exit } => format!(
            "fk_loop_begin({}, {}, {}, {}, {}, {});",
            optional_var(plan, l.cond, l.span)?,
            l.test_first as u8,
            l.forms_group as u8,
            shared_frame(plan, l.shared_frame),
            exit.0,
            sites.loop_site(l.span)
        ),
        Instr::LoopEnter => "fk_loop_enter();".into(),
        Instr::LoopNext => "fk_loop_next();".into(),
        Instr::LoopLatch { body } => format!("fk_loop_latch({});", body.0),
        Instr::LoopEnd => "fk_loop_end();".into(),
        Instr::Call(Call {
            callee,
            args,
            result,
            span,
        }) => {
            let f = plan.function(*callee);
            let params = &plan.program.func(f.func).params;
            let call = format!(
                "fk_call({frame_bytes}, {}, {}, {}, {}, {{",
                f.frame_bytes,
                shared_frame(plan, f.shared_frame),
                plan.host.entry(*callee).0,
                sites.call_site(*span, &f.name),
            );
            // One line per argument (`{caller's, callee's}`), the last one closing the call.
            let mut stmts = vec![call];
            for (i, (param, arg)) in params.iter().zip(args).enumerate() {
                let end = if i + 1 == args.len() { "});" } else { "," };
                stmts.push(format!(
                    "    {{{}, {}}}{end}",
                    fk_var(plan, *arg, *span)?,
                    fk_var(plan, *param, *span)?
                ));
            }
            if args.is_empty() {
                stmts[0].push_str("});");
            }
            if let (Some(r), Some(ret)) = (result, f.ret) {
                stmts.push(format!(
                    "fk_call_result({}, {});",
                    fk_var(plan, ret, *span)?,
                    fk_var(plan, *r, *span)?
                ));
            }
            return Ok(stmts);
        }
        Instr::Ret => "if (!fk_ret()) return;".into(),
        Instr::SeqBegin { .. } => "fk_seq_begin();".into(),
        Instr::SeqEnd => "fk_seq_end();".into(),
        Instr::StartBegin {
            shared_frame: f, ..
        } => {
            format!("fk_start_begin({});", shared_frame(plan, *f))
        }
        Instr::StartEnd => "fk_start_end();".into(),
        Instr::Multiprefix(Multiprefix {
            op,
            ptr,
            value,
            result,
            span,
        }) => format!(
            "fk_multiprefix_op({});",
            multiprefix_args(plan, *op, (*ptr, *value, *result), *span)?
        ),
        Instr::Region {
            name,
            needs: n,
            kind: RegionKind::Block,
            end,
        } => format!(
            "if (fk_region_fits()) {{ FK_REGION({name}, {}, {}, {}, {}); fk_h.pc = {}; }}",
            n.groups, n.member_lists, n.word_lists, n.frame_bytes, end.0
        ),
        Instr::Region {
            name,
            needs: n,
            kind: RegionKind::Grid,
            end,
        } => format!(
            "if (FK_GRID_REGION({name}, {}, {}, {}, {})) fk_h.pc = {};",
            n.groups, n.member_lists, n.word_lists, n.frame_bytes, end.0
        ),
    }])
}
