//! Lifetimes of the transform's temporaries, so that spilled slots whose lifetimes do not
//! overlap can share memory (docs/performance.md, lever 3). A temporary is defined and used by one
//! lowered statement, never across loop iterations; its lifetime is the range of ops of the
//! innermost host op list that holds every use (a use inside a nested block counts at the op
//! that holds the block). Ops are numbered in program order, an op's number range covering
//! its nested blocks, so two temporaries with disjoint ranges are never live at once.

use crate::plan::{Call, HostOp, Multiprefix, SplitKind};
use fork_frontend::hir::VarId;
use std::collections::{HashMap, HashSet};

/// `first..=last`: op numbers (program order, nested blocks inside their op's range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime {
    pub first: usize,
    pub last: usize,
}

/// The lifetime of every temporary in `temps` that the graph `body` uses.
pub fn lifetimes(
    body: &[HostOp],
    kernel_vars: &[HashSet<VarId>],
    temps: &HashSet<VarId>,
) -> HashMap<VarId, Lifetime> {
    let mut walk = Walk {
        kernel_vars,
        temps,
        spans: HashMap::new(),
        out: HashMap::new(),
    };
    walk.number(body, &mut 0);
    walk.list(body);
    walk.out
}

struct Walk<'a> {
    kernel_vars: &'a [HashSet<VarId>],
    temps: &'a HashSet<VarId>,
    /// Per op (by address): its number range.
    spans: HashMap<*const HostOp, (usize, usize)>,
    out: HashMap<VarId, Lifetime>,
}

impl Walk<'_> {
    fn number(&mut self, ops: &[HostOp], next: &mut usize) {
        for op in ops {
            let first = *next;
            *next += 1;
            for l in op.blocks() {
                self.number(l, next);
            }
            self.spans.insert(op as *const HostOp, (first, *next));
            *next += 1;
        }
    }

    fn list(&mut self, ops: &[HostOp]) {
        let own: Vec<HashSet<VarId>> = ops.iter().map(|op| self.own(op)).collect();
        let inner: Vec<Vec<HashSet<VarId>>> = ops
            .iter()
            .map(|op| op.blocks().iter().map(|l| self.all(l)).collect())
            .collect();
        let mut touched: Vec<VarId> = own
            .iter()
            .chain(inner.iter().flatten())
            .flatten()
            .copied()
            .filter(|t| self.temps.contains(t) && !self.out.contains_key(t))
            .collect();
        touched.sort();
        touched.dedup();
        for t in touched {
            let at: Vec<usize> = (0..ops.len())
                .filter(|&i| own[i].contains(&t) || inner[i].iter().any(|l| l.contains(&t)))
                .collect();
            let (first, last) = (at[0], at[at.len() - 1]);
            let inside_one_block = at.len() == 1
                && !own[first].contains(&t)
                && inner[first].iter().filter(|l| l.contains(&t)).count() == 1;
            if !inside_one_block {
                let first = self.spans[&(&ops[first] as *const HostOp)].0;
                let last = self.spans[&(&ops[last] as *const HostOp)].1;
                self.out.insert(t, Lifetime { first, last });
            }
        }
        for op in ops {
            for l in op.blocks() {
                self.list(l);
            }
        }
    }

    /// Temporaries an op touches itself (a kernel's variables, a host op's slots).
    fn own(&self, op: &HostOp) -> HashSet<VarId> {
        let mut s = HashSet::new();
        match op {
            HostOp::Launch(k) => s.extend(self.kernel_vars[k.0 as usize].iter().copied()),
            HostOp::Split(split) => match &split.kind {
                SplitKind::If { cond, .. } => {
                    s.insert(*cond);
                }
                SplitKind::Fork { count, at, dollar } => {
                    s.extend([*count, *at]);
                    s.extend(*dollar);
                }
            },
            HostOp::Branch { cond, .. } => {
                s.insert(*cond);
            }
            HostOp::Loop(l) => s.extend(l.cond),
            HostOp::Call(Call { args, result, .. }) => {
                s.extend(args.iter().copied());
                s.extend(*result);
            }
            HostOp::Multiprefix(Multiprefix {
                ptr, value, result, ..
            }) => {
                s.extend([*ptr, *value]);
                s.extend(*result);
            }
            HostOp::Return | HostOp::Seq { .. } | HostOp::Start { .. } | HostOp::Region(_) => {}
        }
        s
    }

    fn all(&self, ops: &[HostOp]) -> HashSet<VarId> {
        let mut s = HashSet::new();
        for op in ops {
            s.extend(self.own(op));
            for l in op.blocks() {
                s.extend(self.all(l));
            }
        }
        s
    }
}
