//! The host control graph as C++ host functions (one `h_<name>(FkCtx c)` per host function)
//! that call the runtime library's host API (`pram-runtime/cuda/fk_host.cuh`): the study's
//! hand-written host functions, generated.

use super::EmitError;
use crate::plan::{Home, HostFnId, HostLoop, HostOp, Plan, Split, SplitKind};
use fork_frontend::hir::VarId;
use fork_frontend::source::Span;
use std::fmt::Write;

/// The `FkVar` literal that tells a runtime kernel where `var` lives.
pub fn fk_var(plan: &Plan, var: VarId, span: Span) -> Result<String, EmitError> {
    let size = plan.program.var(var).ty.size(&plan.program.structs);
    let (kind, frame, offset) = match plan.storage.home(var) {
        Some(Home::Slot { offset }) => (0, 0, offset),
        Some(Home::PrivateGlobal { offset }) => (1, 0, offset),
        Some(Home::Shared { offset }) => (2, 0, offset),
        Some(Home::SharedFrame { frame, offset }) => (3, frame.0, offset),
        None => {
            return Err(EmitError {
                span,
                message: format!(
                    "the host reads `{}`, which lives in a register (a transform bug)",
                    plan.program.var(var).name
                ),
            })
        }
    };
    Ok(format!("fk_var({kind}, {frame}, {offset}, {size})"))
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
        super::device::mp_code(op),
        fk_var(plan, ptr, span)?,
        fk_var(plan, value, span)?,
        optional_var(plan, result, span)?
    ))
}

pub fn host_fn_name(plan: &Plan, f: HostFnId) -> String {
    format!("h_{}", plan.function(f).name)
}

pub struct HostEmitter<'a> {
    plan: &'a Plan,
    /// Labels that end the innermost block a `Return` leaves (split arms, loop bodies, ...),
    /// with whether a `goto` uses them.
    returns: Vec<(String, bool)>,
    labels: usize,
    /// Context variable names, innermost last (`c`, `c1`, ...).
    ctxs: Vec<String>,
    func: HostFnId,
}

impl<'a> HostEmitter<'a> {
    pub fn new(plan: &'a Plan) -> HostEmitter<'a> {
        HostEmitter {
            plan,
            returns: Vec::new(),
            labels: 0,
            ctxs: Vec::new(),
            func: plan.main,
        }
    }

    pub fn prototype(&self, f: HostFnId) -> String {
        format!("static void {}(FkCtx c)", host_fn_name(self.plan, f))
    }

    pub fn function(&mut self, f: HostFnId, out: &mut String) -> Result<(), EmitError> {
        self.func = f;
        self.ctxs = vec!["c".into()];
        self.returns.clear();
        let _ = writeln!(out, "{} {{", self.prototype(f));
        self.ops(&self.plan.function(f).body, 1, out)?;
        out.push_str("}\n\n");
        Ok(())
    }

    fn ctx(&self) -> &str {
        self.ctxs.last().map(String::as_str).unwrap_or("c")
    }

    fn new_ctx(&mut self) -> String {
        let name = format!("c{}", self.ctxs.len());
        self.ctxs.push(name.clone());
        name
    }

    fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}_{}", self.labels)
    }

    /// `ops` as the body of a block that a `Return` ends.
    fn returning_block(
        &mut self,
        what: &str,
        ops: &[HostOp],
        depth: usize,
        out: &mut String,
    ) -> Result<(), EmitError> {
        let label = self.label(what);
        self.returns.push((label.clone(), false));
        self.ops(ops, depth, out)?;
        if let Some((_, true)) = self.returns.pop() {
            let _ = writeln!(out, "{}{label}:;", "    ".repeat(depth));
        }
        Ok(())
    }

    fn ops(&mut self, ops: &[HostOp], depth: usize, out: &mut String) -> Result<(), EmitError> {
        for op in ops {
            self.op(op, depth, out)?;
        }
        Ok(())
    }

    fn op(&mut self, op: &HostOp, depth: usize, out: &mut String) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        let c = self.ctx().to_string();
        match op {
            HostOp::Launch(k) => {
                let k = plan.kernel(*k);
                let sync = (k.mode == fork_frontend::hir::Mode::Sync) as u8;
                let _ = writeln!(out, "{pad}FK_LAUNCH({}, {c}, {sync});", k.name);
            }
            HostOp::Split(split) => self.split(split, depth, out)?,
            HostOp::Branch { cond, then, els } => {
                let span = plan.program.var(*cond).span;
                let _ = writeln!(
                    out,
                    "{pad}switch (fk_branch({c}, {})) {{",
                    fk_var(plan, *cond, span)?
                );
                let _ = writeln!(out, "{pad}case 1: {{");
                self.ops(then, depth + 1, out)?;
                let _ = writeln!(out, "{pad}    break;\n{pad}}}\n{pad}case 0: {{");
                self.ops(els, depth + 1, out)?;
                let _ = writeln!(out, "{pad}    break;\n{pad}}}\n{pad}}}");
            }
            HostOp::Loop(l) => self.host_loop(l, depth, out)?,
            HostOp::Call {
                callee,
                args,
                result,
                span,
            } => {
                let f = plan.function(*callee);
                let frame = &plan.storage.shared_frames[f.shared_frame.0 as usize];
                let _ = writeln!(out, "{pad}{{");
                let _ = writeln!(
                    out,
                    "{pad}    FkCall k = fk_call_begin({c}, {}, {}, {}, {});",
                    plan.function(self.func).frame_bytes,
                    f.frame_bytes,
                    f.shared_frame.0,
                    frame.bytes
                );
                let params = &plan.program.func(f.func).params;
                for (param, arg) in params.iter().zip(args) {
                    let _ = writeln!(
                        out,
                        "{pad}    fk_call_arg(&k, {}, {});",
                        fk_var(plan, *arg, *span)?,
                        fk_var(plan, *param, *span)?
                    );
                }
                let _ = writeln!(out, "{pad}    {}(k.inner);", host_fn_name(plan, *callee));
                match (result, f.ret) {
                    (Some(r), Some(ret)) => {
                        let _ = writeln!(
                            out,
                            "{pad}    fk_call_end(&k, 1, {}, {});",
                            fk_var(plan, ret, *span)?,
                            fk_var(plan, *r, *span)?
                        );
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}    fk_call_end(&k, 0, FkVar{{}}, FkVar{{}});");
                    }
                }
                let _ = writeln!(out, "{pad}}}");
            }
            HostOp::Return => match self.returns.last_mut() {
                Some((label, used)) => {
                    *used = true;
                    let _ = writeln!(out, "{pad}goto {label};");
                }
                None => {
                    let _ = writeln!(out, "{pad}return;");
                }
            },
            HostOp::Seq(body) => {
                let _ = writeln!(out, "{pad}{{");
                let inner = self.new_ctx();
                let _ = writeln!(
                    out,
                    "{pad}    FkCtx {inner} = {c};\n{pad}    {inner}.seq = 1;"
                );
                self.returning_block("seq_end", body, depth + 1, out)?;
                self.ctxs.pop();
                let _ = writeln!(out, "{pad}}}");
            }
            HostOp::Start { body, shared_frame } => {
                let bytes = plan.storage.shared_frames[shared_frame.0 as usize].bytes;
                let _ = writeln!(out, "{pad}{{");
                let inner = self.new_ctx();
                let _ = writeln!(
                    out,
                    "{pad}    FkTops start = fk_tops();\n{pad}    FkCtx {inner} = fk_start_group({c}, {}, {bytes});",
                    shared_frame.0
                );
                self.returning_block("start_end", body, depth + 1, out)?;
                self.ctxs.pop();
                let _ = writeln!(out, "{pad}    fk_pop(start);\n{pad}}}");
            }
            HostOp::Region(r) => {
                let n = r.needs;
                let _ = writeln!(out, "{pad}if (fk_region_fits({c})) {{");
                let _ = writeln!(
                    out,
                    "{pad}    FK_REGION({}, {c}, {}, {}, {}, {});",
                    r.name, n.groups, n.member_lists, n.word_lists, n.frame_bytes
                );
                let _ = writeln!(out, "{pad}}} else {{");
                self.ops(&r.ops, depth + 1, out)?;
                let _ = writeln!(out, "{pad}}}");
            }
            HostOp::Multiprefix {
                op,
                ptr,
                value,
                result,
                span,
            } => {
                let args = multiprefix_args(plan, *op, (*ptr, *value, *result), *span)?;
                let _ = writeln!(out, "{pad}fk_multiprefix_op({c}, {args});");
            }
        }
        Ok(())
    }

    fn split(&mut self, split: &Split, depth: usize, out: &mut String) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        let c = self.ctx().to_string();
        let frame = |i: usize| {
            split.shared_frames.get(i).map_or((0, 0), |id| {
                (id.0, plan.storage.shared_frames[id.0 as usize].bytes)
            })
        };
        let _ = writeln!(out, "{pad}{{");
        match &split.kind {
            SplitKind::If { cond } => {
                let ((f0, b0), (f1, b1)) = (frame(0), frame(1));
                let _ = writeln!(
                    out,
                    "{pad}    FkSplit s = fk_split_if({c}, {}, {f0}, {b0}, {f1}, {b1});",
                    fk_var(plan, *cond, split.span)?
                );
            }
            SplitKind::Fork { count, at, dollar } => {
                let (f0, b0) = frame(0);
                let dollar = optional_var(plan, *dollar, split.span)?;
                let _ = writeln!(
                    out,
                    "{pad}    FkSplit s = fk_split_fork({c}, {}, {}, {dollar}, {f0}, {b0});",
                    fk_var(plan, *count, split.span)?,
                    fk_var(plan, *at, split.span)?
                );
            }
        }
        let inner = self.new_ctx();
        let _ = writeln!(out, "{pad}    FkCtx {inner};");
        match &split.kind {
            SplitKind::If { .. } => {
                for (arm, what) in [(0, "then"), (1, "else")] {
                    let _ = writeln!(
                        out,
                        "{pad}    if (fk_subgroup(&s, {arm}, &{inner})) {{ // {what}"
                    );
                    if let Some(ops) = split.arms.get(arm) {
                        self.returning_block(&format!("{what}_end"), ops, depth + 2, out)?;
                    }
                    let _ = writeln!(out, "{pad}    }}");
                }
            }
            SplitKind::Fork { .. } => {
                let _ = writeln!(
                    out,
                    "{pad}    for (long long i = 0; i < s.k; i++) {{\n{pad}        if (!fk_subgroup(&s, i, &{inner})) continue;"
                );
                if let Some(ops) = split.arms.first() {
                    self.returning_block("fork_end", ops, depth + 2, out)?;
                }
                let _ = writeln!(out, "{pad}    }}");
            }
        }
        self.ctxs.pop();
        let _ = writeln!(out, "{pad}    fk_split_end(&s);\n{pad}}}");
        Ok(())
    }

    fn host_loop(&mut self, l: &HostLoop, depth: usize, out: &mut String) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        let c = self.ctx().to_string();
        let cond = optional_var(plan, l.cond, l.span)?;
        let bytes = plan.storage.shared_frames[l.shared_frame.0 as usize].bytes;
        let _ = writeln!(out, "{pad}{{");
        let _ = writeln!(out, "{pad}    FkLoop l = fk_loop_begin({c});");
        if l.test_first {
            self.ops(&l.entry_cond, depth + 1, out)?;
            let _ = writeln!(out, "{pad}    fk_loop_exit_update(&l, {c}, {cond});");
        }
        let inner = self.new_ctx();
        let _ = writeln!(
            out,
            "{pad}    FkCtx {inner} = fk_loop_group(&l, {}, {}, {bytes});",
            l.forms_group as u8, l.shared_frame.0
        );
        let _ = writeln!(out, "{pad}    while (fk_loop_running(&l)) {{");
        self.returning_block("body_end", &l.body, depth + 2, out)?;
        let _ = writeln!(out, "{pad}        fk_loop_clear_continue(&l);");
        self.ops(&l.latch, depth + 2, out)?;
        let _ = writeln!(
            out,
            "{pad}        fk_loop_exit_update(&l, {inner}, {cond});"
        );
        let _ = writeln!(out, "{pad}    }}");
        self.ctxs.pop();
        let _ = writeln!(out, "{pad}    fk_loop_end(&l);\n{pad}}}");
        Ok(())
    }
}
