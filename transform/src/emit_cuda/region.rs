//! Block-region kernels (`crate::regions`): the host ops of a `HostOp::Region` as one
//! `extern "C" __global__` function that one thread block runs, calling each Plan kernel's
//! `_body` through `FK_R_LAUNCH` and the runtime library's block helpers (`fk_r_*`) for
//! splits, loops, branches and multiprefix.
//!
//! Signature: `rN_f(int g, int seq, fk_u64 slot_base, unsigned launch, int groups_top,
//! fk_u64 members_top, fk_u64 words_top, fk_u64 frames_top)`: the group and context the host
//! is in, and the tops of the runtime stacks above which the host reserved
//! `Region::needs`. Member and word lists are as long as the region's group.

use super::host::{fk_var, multiprefix_args, optional_var};
use super::{EmitError, Sites};
use crate::plan::{
    Call, HostLoop, HostOp, Multiprefix, Plan, Region, RegionNeeds, Split, SplitKind,
};
use crate::regions::{align8, split_frame_stride};
use fork_frontend::hir::Mode;
use std::collections::BTreeSet;
use std::fmt::Write;

pub fn region_kernel(
    plan: &Plan,
    r: &Region,
    sites: &mut Sites,
    common_kernels: &BTreeSet<String>,
    out: &mut String,
) -> Result<(), EmitError> {
    let mut e = RegionEmitter {
        plan,
        sites,
        common_kernels,
        names: 0,
        frames: plan.storage.shared_frames.iter().map(|f| f.bytes).collect(),
    };
    let _ = writeln!(
        out,
        "// {}: a block region (one block runs these host ops for a group of at most {} members)",
        r.name,
        crate::regions::MAX_MEMBERS
    );
    let _ = writeln!(
        out,
        "extern \"C\" __global__ void __launch_bounds__(FK_REGION_MAX) {}({}) {{",
        r.name,
        super::abi::c_params::<super::abi::kernels::RegionKernel>()
    );
    out.push_str(
        "    FkRegion r;\n    r.slot_base = slot_base;\n    r.launch = launch;\n    r.sub = 0;\n",
    );
    if r.needs.member_lists + r.needs.word_lists > 0 {
        out.push_str("    fk_u64 list = (fk_u64)fk_m.groups[g].size;\n");
    }
    let at = Ctx {
        g: "g".into(),
        seq: "seq".into(),
        top: RegionNeeds::default(),
    };
    e.ops(&r.ops, &at, 1, out)?;
    out.push_str("}\n\n");
    Ok(())
}

struct RegionEmitter<'a, 's> {
    plan: &'a Plan,
    sites: &'a mut Sites<'s>,
    /// Kernels checked after each run (`--crcw common`).
    common_kernels: &'a BTreeSet<String>,
    names: usize,
    frames: Vec<u64>,
}

/// The group the code runs for, whether only `$$ == 0` runs (`seq`), and how much of the
/// reserved stacks enclosing constructs hold.
#[derive(Clone)]
struct Ctx {
    g: String,
    seq: String,
    top: RegionNeeds,
}

impl Ctx {
    fn threads(&self) -> String {
        format!("fk_r_threads({}, {})", self.g, self.seq)
    }
    fn group_at(&self, extra: u32) -> String {
        format!("groups_top + {}", self.top.groups + extra)
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

impl RegionEmitter<'_, '_> {
    fn fresh(&mut self, what: &str) -> String {
        self.names += 1;
        format!("{what}{}", self.names)
    }

    fn ops(
        &mut self,
        ops: &[HostOp],
        c: &Ctx,
        depth: usize,
        out: &mut String,
    ) -> Result<(), EmitError> {
        for op in ops {
            self.op(op, c, depth, out)?;
        }
        Ok(())
    }

    fn op(
        &mut self,
        op: &HostOp,
        c: &Ctx,
        depth: usize,
        out: &mut String,
    ) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        match op {
            HostOp::Launch(k) => {
                let k = plan.kernel(*k);
                let _ = writeln!(
                    out,
                    "{pad}FK_R_LAUNCH({}, {}, {}, {});",
                    k.name,
                    (k.mode == Mode::Sync) as u8,
                    c.g,
                    c.seq
                );
                if self.common_kernels.contains(&k.name) {
                    let _ = writeln!(out, "{pad}fk_r_common_check({}, {}, r);", c.g, c.seq);
                }
            }
            HostOp::Multiprefix(Multiprefix {
                op,
                ptr,
                value,
                result,
                span,
            }) => {
                let args = multiprefix_args(plan, *op, (*ptr, *value, *result), *span)?;
                let _ = writeln!(
                    out,
                    "{pad}fk_r_multiprefix({}, {}, r.slot_base, {args});",
                    c.g,
                    c.threads()
                );
            }
            HostOp::Branch { cond, then, els } => {
                let b = self.fresh("taken");
                let span = plan.program.var(*cond).span;
                let _ = writeln!(
                    out,
                    "{pad}int {b} = fk_r_branch({}, {}, r.slot_base, {});",
                    c.g,
                    c.threads(),
                    fk_var(plan, *cond, span)?
                );
                let _ = writeln!(out, "{pad}if ({b} == 1) {{");
                self.ops(then, c, depth + 1, out)?;
                let _ = writeln!(out, "{pad}}} else if ({b} == 0) {{");
                self.ops(els, c, depth + 1, out)?;
                let _ = writeln!(out, "{pad}}}");
            }
            HostOp::Seq(body) => {
                let inner = Ctx {
                    seq: "1".into(),
                    ..c.clone()
                };
                self.ops(body, &inner, depth, out)?;
            }
            HostOp::Split(s) => self.split(s, c, depth, out)?,
            HostOp::Loop(l) => self.host_loop(l, c, depth, out)?,
            HostOp::Call(Call { span, .. }) => {
                return Err(EmitError {
                    span: *span,
                    message: "a call inside a block region (a transform bug)".into(),
                })
            }
            HostOp::Return | HostOp::Start { .. } | HostOp::Region(_) => {
                return Err(EmitError {
                    span: plan.program.func(plan.function(plan.main).func).span,
                    message: "a return, `start` or nested region inside a block region (a \
                              transform bug)"
                        .into(),
                })
            }
        }
        Ok(())
    }

    fn split(
        &mut self,
        s: &Split,
        c: &Ctx,
        depth: usize,
        out: &mut String,
    ) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        let SplitKind::If { cond } = s.kind else {
            return Err(EmitError {
                span: s.span,
                message: "a `fork` inside a block region (a transform bug)".into(),
            });
        };
        let stride = split_frame_stride(s, &self.frames);
        let frame = |i: usize| s.shared_frames.get(i).map_or(0, |f| f.0);
        let first = self.fresh("sub");
        let _ = writeln!(out, "{pad}{{");
        let _ = writeln!(out, "{pad}    int {first} = {};", c.group_at(0));
        let _ = writeln!(
            out,
            "{pad}    fk_r_split({}, {}, r.slot_base, {}, ~0ull, 2, {first}, {}, {}, {}, {}, {stride});",
            c.g,
            c.threads(),
            fk_var(plan, cond, s.span)?,
            c.member_list(),
            frame(0),
            frame(1),
            c.frames()
        );
        let top = RegionNeeds {
            groups: c.top.groups + 2,
            member_lists: c.top.member_lists + 1,
            word_lists: c.top.word_lists,
            frame_bytes: c.top.frame_bytes + 2 * stride,
        };
        for (i, arm) in s.arms.iter().enumerate() {
            let g = self.fresh("g");
            let _ = writeln!(
                out,
                "{pad}    int {g} = {first} + {i};\n{pad}    if (fk_m.groups[{g}].size > 0) {{ // {}",
                if i == 0 { "then" } else { "else" }
            );
            let inner = Ctx {
                g,
                seq: c.seq.clone(),
                top,
            };
            self.ops(arm, &inner, depth + 2, out)?;
            let _ = writeln!(out, "{pad}    }}");
        }
        let _ = writeln!(out, "{pad}}}");
        Ok(())
    }

    fn host_loop(
        &mut self,
        l: &HostLoop,
        c: &Ctx,
        depth: usize,
        out: &mut String,
    ) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        let plan = self.plan;
        let cond = optional_var(plan, l.cond, l.span)?;
        let (n, marks, run, lg, it) = (
            self.fresh("n"),
            self.fresh("marks"),
            self.fresh("running"),
            self.fresh("g"),
            self.fresh("it"),
        );
        let site = self.sites.loop_site(l.span);
        let bytes = align8(self.frames[l.shared_frame.0 as usize]);
        let frame = l.shared_frame.0;
        let _ = writeln!(out, "{pad}{{");
        let _ = writeln!(out, "{pad}    int {n} = {};", c.threads());
        let _ = writeln!(out, "{pad}    fk_u64 {marks} = {};", c.word_list());
        let _ = writeln!(out, "{pad}    fk_r_mark_active({}, {n}, {marks});", c.g);
        let _ = writeln!(out, "{pad}    int {run} = 0;");
        let marked = Ctx {
            top: RegionNeeds {
                word_lists: c.top.word_lists + 1,
                ..c.top
            },
            ..c.clone()
        };
        if l.test_first {
            self.ops(&l.entry_cond, &marked, depth + 1, out)?;
            let _ = writeln!(
                out,
                "{pad}    {run} = fk_r_loop_exit({}, {n}, r.slot_base, {marks}, {cond}, {});",
                c.g, c.g
            );
        }
        let _ = writeln!(out, "{pad}    int {lg} = {};", c.group_at(0));
        if l.forms_group {
            let _ = writeln!(
                out,
                "{pad}    fk_r_split({}, {n}, r.slot_base, FkVar{{}}, {marks}, 1, {lg}, {}, {frame}, {frame}, {}, {bytes});",
                c.g,
                c.member_list(),
                c.frames()
            );
            let _ = writeln!(out, "{pad}    {run} = fk_m.groups[{lg}].size;");
        } else {
            let _ = writeln!(
                out,
                "{pad}    fk_r_same_group({}, {lg}, {frame}, {}, {bytes});",
                c.g,
                c.frames()
            );
            if !l.test_first {
                let _ = writeln!(
                    out,
                    "{pad}    {run} = fk_r_loop_exit({}, {n}, r.slot_base, {marks}, 0, FkVar{{}}, {});",
                    c.g, c.g
                );
            }
        }
        let inner = Ctx {
            g: lg.clone(),
            seq: c.seq.clone(),
            top: RegionNeeds {
                groups: c.top.groups + 1,
                member_lists: c.top.member_lists + l.forms_group as u32,
                word_lists: c.top.word_lists + 1,
                frame_bytes: c.top.frame_bytes + bytes,
            },
        };
        let _ = writeln!(out, "{pad}    fk_u64 {it} = 0;");
        let _ = writeln!(out, "{pad}    while ({run} > 0) {{");
        let _ = writeln!(
            out,
            "{pad}        if (fk_r_spin(&{it}, {site}, {lg}, r)) break;"
        );
        self.ops(&l.body, &inner, depth + 2, out)?;
        let _ = writeln!(
            out,
            "{pad}        fk_r_marked_status({}, {n}, {marks}, FK_CONTINUE, FK_ACTIVE);",
            c.g
        );
        self.ops(&l.latch, &inner, depth + 2, out)?;
        let _ = writeln!(
            out,
            "{pad}        {run} = fk_r_loop_exit({}, {n}, r.slot_base, {marks}, {cond}, {lg});",
            c.g
        );
        let _ = writeln!(out, "{pad}    }}");
        let _ = writeln!(
            out,
            "{pad}    fk_r_marked_status({}, {n}, {marks}, FK_BREAK, FK_ACTIVE);",
            c.g
        );
        let _ = writeln!(out, "{pad}}}");
        Ok(())
    }
}
