//! Rule 4: a loop that needs a cut runs on the host (`host_loop`); one that only uses its loop
//! group's `$$` or `groupsize()` runs in one kernel in that group (`loop_group_kernel`).

use super::*;
use crate::plan::{HostLoop, Split, SplitKind};

impl Builder<'_> {
    /// Whether a loop stays out of a kernel only because it uses the loop group's `$$` or
    /// `groupsize()`: a private condition in a synchronous region, nothing else that needs
    /// a cut or a subgroup.
    pub(crate) fn only_needs_loop_group(&self, s: &Stmt, mode: Mode) -> bool {
        let StmtKind::Loop { cond, body, .. } = &s.kind else {
            return false;
        };
        let eff = self.effects(s);
        mode == Mode::Sync
            && cond.as_ref().is_some_and(|c| c.sharity == Sharity::Private)
            && !eff.host
            && !eff.needs_cut()
            && !self.needs_subgroup(body)
    }

    /// Rule 4 for a loop with no cut inside that uses its loop group: `Split{if}` on the
    /// entry condition forms the loop group (the then-group: fresh `$$`, `groupsize()` of the
    /// members that enter), and one kernel runs the whole loop in it, as `do ... while`
    /// (the entry test is the split's).
    pub(crate) fn loop_group_kernel(&mut self, s: &Stmt, ops: &mut Vec<HostOp>) {
        let StmtKind::Loop {
            cond: Some(cond),
            step,
            body,
            test_first,
        } = &s.kind
        else {
            return;
        };
        let enters = if *test_first {
            cond.clone()
        } else {
            mk(ExprKind::IntConst(1), Type::INT, s.span)
        };
        let slot = self.condition_slot(&enters, Mode::Sync, ops);
        let frame = self.scope_frame(s.span, "loop group");
        let in_kernel = Stmt {
            kind: StmtKind::Loop {
                cond: Some(cond.clone()),
                step: step.clone(),
                body: body.clone(),
                test_first: false,
            },
            ..s.clone()
        };
        let mut arm = Vec::new();
        self.append(in_kernel, Mode::Sync, &mut arm);
        self.close(&mut arm, CutReason::BlockEnd);
        ops.push(HostOp::Split(Split {
            kind: SplitKind::If { cond: slot },
            arms: vec![arm, Vec::new()],
            shared_frames: vec![frame, self.new_frame("(not entering)".into())],
            span: s.span,
        }));
    }

    /// Rule 4: a loop whose body needs a cut runs on the host: entry condition, body,
    /// latch (step and condition, fused into the body's last kernel when no `continue`
    /// leaves it), loop-exit update and all-exited test, restore.
    pub(crate) fn host_loop(&mut self, s: &Stmt, mode: Mode, ops: &mut Vec<HostOp>) {
        let StmtKind::Loop {
            cond,
            step,
            body,
            test_first,
        } = &s.kind
        else {
            return;
        };
        let span = s.span;
        let forms_group =
            mode == Mode::Sync && cond.as_ref().is_some_and(|c| c.sharity == Sharity::Private);
        let slot = cond.as_ref().map(|c| self.temp(Type::INT, "cond", c.span));
        let mut entry_cond = Vec::new();
        // The open kernel would run as part of the loop's entry condition; a `break` or
        // `continue` in it leaves the enclosing loop, not this one, so it ends here.
        let open_leaves = self.open.as_ref().is_some_and(|k| {
            k.body
                .iter()
                .any(|s| leaves(s, Leave::Break) || leaves(s, Leave::Continue))
        });
        if open_leaves {
            self.close(ops, CutReason::HostConstruct);
        }
        match (cond, slot) {
            (Some(c), Some(slot)) if *test_first => {
                let s = assign_stmt(self, slot, truth(c), c.span);
                self.simple(s, mode, &mut entry_cond);
                self.close(&mut entry_cond, CutReason::HostConstruct);
            }
            _ => self.close(ops, CutReason::HostConstruct),
        }
        let frame = self.scope_frame(span, "loop body");
        self.scopes.push(frame);
        let mut body_ops = Vec::new();
        self.stmt(body, mode, &mut body_ops);
        let fuse = !leaves(body, Leave::Continue);
        let mut latch = Vec::new();
        let latch_ops = if fuse {
            &mut body_ops
        } else {
            self.close(&mut body_ops, CutReason::BlockEnd);
            &mut latch
        };
        if let Some(st) = step {
            self.simple(expr_stmt(st.clone(), st.span), mode, latch_ops);
        }
        if let (Some(c), Some(slot)) = (cond, slot) {
            let s = assign_stmt(self, slot, truth(c), c.span);
            self.simple(s, mode, latch_ops);
        }
        self.close(latch_ops, CutReason::BlockEnd);
        self.scopes.pop();
        ops.push(HostOp::Loop(HostLoop {
            cond: slot,
            test_first: *test_first,
            forms_group,
            entry_cond,
            body: body_ops,
            latch,
            shared_frame: frame,
            span,
        }));
    }
}
