//! Where a pointer parameter points: into the variables its arguments point into, over every
//! call of its function. Hillis–Steele's `hillis_steele_scan(x, tmp, N)` gives its parameters
//! `a` and `b` the distinct arrays `x` and `tmp`, so the effects can tell a loop that reads
//! `a` and writes `b` from one that reads what it writes.
//!
//! A parameter keeps the value it was called with when its function never assigns it and
//! never takes its address; then it points into what the arguments of its calls point into
//! (an array or `&v`, plus any offset, points into `v`; a caller's parameter, into what that
//! one points into: a fixpoint over the call graph, recursion included). Any other parameter
//! may point anywhere. A pointer that leaves its variable by arithmetic faults on access on
//! every backend, so an access through it stays inside the variable.

use fork_frontend::hir::{Expr, ExprKind, Program, Type, VarId, VarKind};
use fork_frontend::sync_calls::each_expr;
use std::collections::{BTreeSet, HashMap};

/// The variables each pointer parameter may point into; a parameter not in the map may
/// point anywhere.
#[derive(Debug, Default)]
pub struct PointsTo {
    params: HashMap<VarId, BTreeSet<VarId>>,
}

impl PointsTo {
    pub fn new(program: &Program) -> PointsTo {
        let mut assigned = BTreeSet::new();
        let mut calls = Vec::new();
        for s in program.funcs.iter().flat_map(|f| &f.body.stmts) {
            each_expr(s, &mut |top| {
                top.walk(&mut |e| {
                    if let Some(ExprKind::Var(v)) = e.assigned_place().map(|p| &p.kind) {
                        assigned.insert(*v);
                    }
                    if let ExprKind::Call { func, args } = &e.kind {
                        calls.push((*func, args));
                    }
                })
            });
        }
        let mut p = PointsTo {
            params: (program.funcs.iter())
                .flat_map(|f| f.params.iter().copied())
                .filter(|&v| {
                    let var = program.var(v);
                    matches!(var.ty, Type::Ptr(_)) && !var.addr_taken && !assigned.contains(&v)
                })
                .map(|v| (v, BTreeSet::new()))
                .collect(),
        };
        loop {
            let mut changed = false;
            for (func, args) in &calls {
                for (&param, arg) in program.func(*func).params.iter().zip(args.iter()) {
                    if !p.params.contains_key(&param) {
                        continue;
                    }
                    match p.pointer_targets(program, arg) {
                        Some(t) => {
                            let set = p.params.get_mut(&param).expect("checked above");
                            let before = set.len();
                            set.extend(t);
                            changed |= set.len() != before;
                        }
                        None => {
                            p.params.remove(&param);
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return p;
            }
        }
    }

    /// The variables the lvalue `place` may lie in; None when it is reached through a pointer
    /// that may point anywhere.
    pub fn place_roots(&self, program: &Program, place: &Expr) -> Option<BTreeSet<VarId>> {
        match &place.kind {
            ExprKind::Var(v) => Some(BTreeSet::from([*v])),
            ExprKind::Member { base, .. } => self.place_roots(program, base),
            ExprKind::Deref(p) => self.pointer_targets(program, p),
            _ => None,
        }
    }

    /// The variables the pointer value `p` may point into.
    pub fn pointer_targets(&self, program: &Program, p: &Expr) -> Option<BTreeSet<VarId>> {
        match &p.kind {
            ExprKind::Decay(x) | ExprKind::AddrOf(x) => self.place_roots(program, x),
            ExprKind::PtrOffset { ptr, .. } => self.pointer_targets(program, ptr),
            ExprKind::Var(v) if matches!(program.var(*v).kind, VarKind::Param { .. }) => {
                self.params.get(v).cloned()
            }
            _ => None,
        }
    }
}
