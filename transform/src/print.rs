//! The Plan as readable text (`forkcc build --emit plan`, the snapshot tests): the storage
//! layout with spilled bytes per processor, each host function's control graph, and each
//! kernel's body in C-like syntax (conversions shown as casts, `*(a + i)` as `a[i]`).

use crate::plan::{Call, CutReason, Home, HostOp, Kernel, Multiprefix, Plan, SplitKind};
use fork_frontend::hir::{
    Builtin, CompoundOp, Expr, ExprKind, Mode, MpOp, Program, Stmt, StmtKind, Type, UnOp, VarId,
    VarKind,
};
use std::fmt::Write;

pub fn print_plan(plan: &Plan) -> String {
    let mut out = String::new();
    storage(plan, &mut out);
    for f in &plan.functions {
        let _ = writeln!(
            out,
            "\nhost {} ({}, spilled {} bytes per processor):",
            f.name,
            mode(f.mode),
            f.frame_bytes
        );
        ops(plan, &f.body, 1, &mut out);
    }
    out.push('\n');
    crate::host_program::print(plan, &plan.host, &mut out);
    for k in &plan.kernels {
        kernel(plan, k, &mut out);
    }
    out
}

/// `(kernels, spilled bytes per processor over all host functions and private globals)`.
pub fn summary(plan: &Plan) -> (usize, u64) {
    let spilled = plan.functions.iter().map(|f| f.frame_bytes).sum::<u64>()
        + plan.storage.private_globals_bytes;
    (plan.kernels.len(), spilled)
}

fn mode(m: Mode) -> &'static str {
    match m {
        Mode::Sync => "sync",
        Mode::Async => "async",
    }
}

fn storage(plan: &Plan, out: &mut String) {
    let s = &plan.storage;
    let p = &plan.program;
    let _ = writeln!(out, "storage:");
    let _ = writeln!(out, "  shared globals: {} bytes", s.shared_globals_bytes);
    let _ = writeln!(
        out,
        "  private globals: {} bytes per processor",
        s.private_globals_bytes
    );
    for (i, home) in s.home.iter().enumerate() {
        let Some(home) = home else { continue };
        let v = p.var(VarId(i as u32));
        let place = match home {
            Home::Shared { offset } => format!("shared global +{offset}"),
            Home::PrivateGlobal { offset } => format!("private global +{offset}"),
            Home::Slot { offset } => match v.kind {
                VarKind::Local { func } | VarKind::Param { func, .. } => {
                    format!("spilled slot +{offset} of `{}`", p.func(func).name)
                }
                VarKind::Global => format!("spilled slot +{offset}"),
            },
            Home::SharedFrame { frame, offset } => format!(
                "shared frame `{}` +{offset}",
                s.shared_frames[frame.0 as usize].name
            ),
        };
        let _ = writeln!(out, "  {}: {} ({})", v.name, place, ty(p, &v.ty));
    }
    for f in s.shared_frames.iter().filter(|f| f.bytes > 0) {
        let _ = writeln!(out, "  shared frame `{}`: {} bytes", f.name, f.bytes);
    }
}

fn ops(plan: &Plan, list: &[HostOp], depth: usize, out: &mut String) {
    if list.is_empty() {
        let _ = writeln!(out, "{}(nothing)", "  ".repeat(depth));
    }
    for op in list {
        host_op(plan, op, depth, out);
    }
}

fn host_op(plan: &Plan, op: &HostOp, depth: usize, out: &mut String) {
    let ind = "  ".repeat(depth);
    let name = |v: VarId| plan.program.var(v).name.clone();
    match op {
        HostOp::Launch(k) => {
            let k = plan.kernel(*k);
            let notes: Vec<&str> = [
                (k.spread, "spread: a cyclic loop"),
                (
                    !k.order_free.is_empty(),
                    "order-free: its stores never conflict",
                ),
                (
                    !k.loads_ahead.is_empty(),
                    "loads ahead: iterations load before earlier ones store, where the loop's checks cover their loads or test them first",
                ),
                (
                    !k.distinct_stores.is_empty(),
                    "distinct stores: each member stores into its own cell",
                ),
            ]
            .into_iter()
            .filter_map(|(holds, note)| holds.then_some(note))
            .collect();
            let notes = match notes.is_empty() {
                true => String::new(),
                false => format!(" ({})", notes.join("; ")),
            };
            let _ = writeln!(out, "{ind}launch {}{notes}", k.name);
        }
        HostOp::Split(split) => {
            match &split.kind {
                SplitKind::If { cond, .. } => {
                    let _ = writeln!(out, "{ind}split if {}", name(*cond));
                }
                SplitKind::Fork { count, at, dollar } => {
                    let d = dollar
                        .map(|d| format!(", $ = {}", name(d)))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "{ind}split fork ({} groups, @ = {}{d})",
                        name(*count),
                        name(*at)
                    );
                }
            }
            let labels: &[&str] = match split.kind {
                SplitKind::If { .. } => &["then-group", "else-group"],
                SplitKind::Fork { .. } => &["each subgroup"],
            };
            for (arm, label) in split.arms.iter().zip(labels) {
                let _ = writeln!(out, "{ind}{label}:");
                ops(plan, arm, depth + 1, out);
            }
            let _ = writeln!(out, "{ind}restore");
        }
        HostOp::Branch { cond, then, els } => {
            let _ = writeln!(out, "{ind}branch on shared {}", name(*cond));
            let _ = writeln!(out, "{ind}then:");
            ops(plan, then, depth + 1, out);
            if !els.is_empty() {
                let _ = writeln!(out, "{ind}else:");
                ops(plan, els, depth + 1, out);
            }
        }
        HostOp::Loop(l) => {
            let cond = l.cond.map(name).unwrap_or_else(|| "(none)".into());
            let _ = writeln!(
                out,
                "{ind}loop ({}, condition {cond}{})",
                if l.test_first {
                    "test first"
                } else {
                    "test last"
                },
                if l.forms_group {
                    ", private: forms the loop group"
                } else {
                    ""
                }
            );
            if !l.entry_cond.is_empty() {
                let _ = writeln!(out, "{ind}entry condition:");
                ops(plan, &l.entry_cond, depth + 1, out);
            }
            let _ = writeln!(out, "{ind}split loop-entry");
            let _ = writeln!(out, "{ind}body:");
            ops(plan, &l.body, depth + 1, out);
            if !l.latch.is_empty() {
                let _ = writeln!(out, "{ind}latch:");
                ops(plan, &l.latch, depth + 1, out);
            }
            let _ = writeln!(
                out,
                "{ind}loop-exit update on {cond}; if all exited: restore, else repeat"
            );
        }
        HostOp::Call(Call {
            callee,
            args,
            result,
            ..
        }) => {
            let args: Vec<String> = args.iter().map(|a| name(*a)).collect();
            let res = result
                .map(|r| format!("{} = ", name(r)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{ind}call {res}{}({})",
                plan.function(*callee).name,
                args.join(", ")
            );
        }
        HostOp::Return => {
            let _ = writeln!(out, "{ind}return");
        }
        HostOp::Seq { body, .. } => {
            let _ = writeln!(out, "{ind}seq ($$ == 0 only):");
            ops(plan, body, depth + 1, out);
        }
        HostOp::Region(r) if r.kind == crate::plan::RegionKind::Grid => {
            let _ = writeln!(
                out,
                "{ind}grid region {} (one cooperative launch over every SM, when every member \
                 is active; a grid barrier only between kernels whose shared accesses conflict):",
                r.name
            );
            ops(plan, &r.ops, depth + 1, out);
            let _ = writeln!(out, "{ind}end region");
        }
        HostOp::Region(r) => {
            let n = r.needs;
            let _ = writeln!(
                out,
                "{ind}block region {} (one thread block for a group of at most {} members; \
                 {} groups, {} member lists, {} word lists, {} frame bytes):",
                r.name,
                crate::regions::MAX_MEMBERS,
                n.groups,
                n.member_lists,
                n.word_lists,
                n.frame_bytes
            );
            ops(plan, &r.ops, depth + 1, out);
            let _ = writeln!(out, "{ind}end region");
        }
        HostOp::Start { body, .. } => {
            let _ = writeln!(out, "{ind}start (all processors form the root group):");
            ops(plan, body, depth + 1, out);
            let _ = writeln!(out, "{ind}end start");
        }
        HostOp::Multiprefix(Multiprefix {
            op,
            ptr,
            value,
            result,
            ..
        }) => {
            let res = result
                .map(|r| format!("{} = ", name(r)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{ind}multiprefix {res}mp{}({}, {}) in __PROC_NR__ order",
                mp_name(*op),
                name(*ptr),
                name(*value)
            );
        }
    }
}

fn kernel(plan: &Plan, k: &Kernel, out: &mut String) {
    let ends = match k.ends {
        CutReason::SharedWrite => "shared write",
        CutReason::ReadBeforeWrite => "read before write: values in temporaries",
        CutReason::WriteAfterRead => "the next statement overwrites what this one reads",
        CutReason::Output => "output",
        CutReason::HostConstruct => "host construct",
        CutReason::Barrier(_) => "barrier",
        CutReason::BlockEnd => "end of block",
        CutReason::Spread => "a cyclic loop, launched over every SM",
        CutReason::Return => "return",
        CutReason::Suspend => "each processor's next barrier (barrier phases)",
    };
    let _ = writeln!(out, "\nkernel {} ({}, ends: {ends}):", k.name, mode(k.mode));
    for s in &k.body {
        stmt(&plan.program, s, 1, out);
    }
}

fn stmt(p: &Program, s: &Stmt, depth: usize, out: &mut String) {
    let ind = "  ".repeat(depth);
    match &s.kind {
        StmtKind::Expr(e) => {
            let _ = writeln!(out, "{ind}{};", expr(p, e));
        }
        StmtKind::Decl { var, init } => {
            let v = p.var(*var);
            let init = match init.as_deref() {
                Some([single]) if single.offset == 0 => format!(" = {}", expr(p, &single.value)),
                Some(elems) => {
                    let parts: Vec<String> = elems
                        .iter()
                        .map(|e| format!("+{}: {}", e.offset, expr(p, &e.value)))
                        .collect();
                    format!(" = {{{}}}", parts.join(", "))
                }
                None => String::new(),
            };
            let _ = writeln!(out, "{ind}{} {}{init};", ty(p, &v.ty), v.name);
        }
        StmtKind::Block(b) => {
            let _ = writeln!(out, "{ind}{{");
            b.stmts.iter().for_each(|s| stmt(p, s, depth + 1, out));
            let _ = writeln!(out, "{ind}}}");
        }
        StmtKind::If { cond, then, els } => {
            let _ = writeln!(out, "{ind}if ({})", expr(p, cond));
            stmt(p, then, depth + 1, out);
            if let Some(e) = els {
                let _ = writeln!(out, "{ind}else");
                stmt(p, e, depth + 1, out);
            }
        }
        StmtKind::Loop {
            cond,
            step,
            body,
            test_first,
        } => {
            let c = cond
                .as_ref()
                .map(|c| expr(p, c))
                .unwrap_or_else(|| "1".into());
            let st = step
                .as_ref()
                .map(|s| format!(" step {}", expr(p, s)))
                .unwrap_or_default();
            if *test_first {
                let _ = writeln!(out, "{ind}while ({c}){st}");
                stmt(p, body, depth + 1, out);
            } else {
                let _ = writeln!(out, "{ind}do{st}");
                stmt(p, body, depth + 1, out);
                let _ = writeln!(out, "{ind}while ({c});");
            }
        }
        StmtKind::Switch { cond, cases } => {
            let _ = writeln!(out, "{ind}switch ({})", expr(p, cond));
            for c in cases {
                match c.value {
                    Some(v) => {
                        let _ = writeln!(out, "{ind}case {v}:");
                    }
                    None => {
                        let _ = writeln!(out, "{ind}default:");
                    }
                }
                c.body.iter().for_each(|s| stmt(p, s, depth + 1, out));
            }
        }
        StmtKind::Break => {
            let _ = writeln!(out, "{ind}break;");
        }
        StmtKind::Continue => {
            let _ = writeln!(out, "{ind}continue;");
        }
        StmtKind::Return(e) => {
            let v = e
                .as_ref()
                .map(|e| format!(" {}", expr(p, e)))
                .unwrap_or_default();
            let _ = writeln!(out, "{ind}return{v};");
        }
        StmtKind::Barrier => {
            let _ = writeln!(out, "{ind}barrier;");
        }
        StmtKind::Fork { body, .. }
        | StmtKind::Start(body)
        | StmtKind::Farm(body)
        | StmtKind::Seq(body) => {
            // Group constructs never stay inside a kernel; shown for completeness.
            let _ = writeln!(out, "{ind}<group construct>");
            stmt(p, body, depth + 1, out);
        }
    }
}

/// C spelling of a type (the front end's, so the Plan text and `--emit ast` agree).
fn ty(p: &Program, t: &Type) -> String {
    fork_frontend::pretty::type_to_string(t, &p.structs)
}

fn mp_name(op: MpOp) -> &'static str {
    match op {
        MpOp::Add => "add",
        MpOp::Max => "max",
        MpOp::Min => "min",
        MpOp::And => "and",
        MpOp::Or => "or",
    }
}

/// An operand: atoms bare, everything else parenthesised.
fn operand(p: &Program, e: &Expr) -> String {
    let s = expr(p, e);
    match &e.kind {
        ExprKind::IntConst(_)
        | ExprKind::FloatConst(_)
        | ExprKind::Var(_)
        | ExprKind::Str(_)
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. }
        | ExprKind::Member { .. }
        | ExprKind::Decay(_)
        | ExprKind::ProcNr
        | ExprKind::StartedProcs
        | ExprKind::Dollar
        | ExprKind::DollarDollar
        | ExprKind::At
        | ExprKind::GroupSize => s,
        ExprKind::Deref(x) if matches!(x.kind, ExprKind::PtrOffset { .. }) => s,
        _ => format!("({s})"),
    }
}

pub fn expr(p: &Program, e: &Expr) -> String {
    let o = |x: &Expr| operand(p, x);
    match &e.kind {
        ExprKind::IntConst(v) => match e.ty {
            Type::Int(k) if !k.signed() => format!("{}u", *v as u64),
            _ => v.to_string(),
        },
        ExprKind::FloatConst(v) => format!("{v:?}"),
        ExprKind::Str(id) => {
            let bytes = p.string(*id);
            let text = String::from_utf8_lossy(&bytes[..bytes.len().saturating_sub(1)]);
            format!("{text:?}")
        }
        ExprKind::Var(v) => p.var(*v).name.clone(),
        ExprKind::Deref(x) => match &x.kind {
            ExprKind::PtrOffset { ptr, index, .. } => format!("{}[{}]", o(ptr), expr(p, index)),
            _ => format!("*{}", o(x)),
        },
        ExprKind::Member { base, field } => {
            let name = match &base.ty {
                Type::Struct(id) => p.structs[id.0 as usize].fields[*field].name.clone(),
                _ => format!("#{field}"),
            };
            format!("{}.{name}", o(base))
        }
        ExprKind::AddrOf(x) => format!("&{}", o(x)),
        ExprKind::Decay(x) => expr(p, x),
        ExprKind::Convert(x) => format!("({}){}", ty(p, &e.ty), o(x)),
        ExprKind::Unary(op, x) => {
            let op = match op {
                UnOp::Neg => "-",
                UnOp::BitNot => "~",
                UnOp::LogNot => "!",
            };
            format!("{op}{}", o(x))
        }
        ExprKind::Binary(op, a, b) => format!("{} {} {}", o(a), op.symbol(), o(b)),
        ExprKind::PtrOffset { ptr, index, .. } => format!("{} + {}", o(ptr), o(index)),
        ExprKind::PtrDiff { a, b, .. } => format!("{} - {}", o(a), o(b)),
        ExprKind::LogAnd(a, b) => format!("{} && {}", o(a), o(b)),
        ExprKind::LogOr(a, b) => format!("{} || {}", o(a), o(b)),
        ExprKind::Cond(c, a, b) => format!("{} ? {} : {}", o(c), o(a), o(b)),
        ExprKind::Assign { place, value } => format!("{} = {}", expr(p, place), expr(p, value)),
        ExprKind::CompoundAssign { place, op, rhs, .. } => {
            let op = match op {
                CompoundOp::Arith(b) => b.symbol(),
                CompoundOp::PtrAdd { .. } => "+",
                CompoundOp::PtrSub { .. } => "-",
            };
            format!("{} {op}= {}", expr(p, place), expr(p, rhs))
        }
        ExprKind::IncDec { place, inc, prefix } => {
            let op = if *inc { "++" } else { "--" };
            if *prefix {
                format!("{op}{}", o(place))
            } else {
                format!("{}{op}", o(place))
            }
        }
        ExprKind::Comma(a, b) => format!("{}, {}", expr(p, a), expr(p, b)),
        ExprKind::Call { func, args } => call(p, &p.func(*func).name, args),
        ExprKind::Builtin { op, args } => {
            let name = match op {
                Builtin::Printf => "printf".to_string(),
                Builtin::Multiprefix(m) => format!("mp{}", mp_name(*m)),
                Builtin::SyncUpdate(m) => format!("sync{}", mp_name(*m)),
                other => format!("{other:?}").to_lowercase(),
            };
            call(p, &name, args)
        }
        ExprKind::ProcNr => "__PROC_NR__".into(),
        ExprKind::StartedProcs => "__STARTED_PROCS__".into(),
        ExprKind::Dollar => "$".into(),
        ExprKind::DollarDollar => "$$".into(),
        ExprKind::At => "@".into(),
        ExprKind::GroupSize => "groupsize()".into(),
    }
}

fn call(p: &Program, name: &str, args: &[Expr]) -> String {
    let args: Vec<String> = args.iter().map(|a| expr(p, a)).collect();
    format!("{name}({})", args.join(", "))
}
