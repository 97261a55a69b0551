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
//!
//! A `sh` local pointer whose address is never taken and that is only ever assigned the
//! value of `shmalloc` (quicksort's `buf`) points into the blocks allocated for it
//! (`Target::Block`): no variable, and no block another such pointer holds. A copy of its
//! value in another pointer points anywhere, except as an argument, which its parameter
//! counts as above.

use fork_frontend::hir::{
    Builtin, Expr, ExprKind, InitElem, Program, Sharity, Stmt, StmtKind, Type, VarId, VarKind,
};
use fork_frontend::sync_calls::{children, each_expr};
use std::collections::{BTreeSet, HashMap};

/// Memory a pointer may point into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A variable (an array, a struct, a scalar whose address is taken).
    Var(VarId),
    /// The blocks `shmalloc` allocated for the allocation pointer (`PointsTo::allocations`).
    Block(VarId),
}

/// The targets each pointer parameter may point into (a parameter not in the map may point
/// anywhere), and the allocation pointers.
#[derive(Debug, Default)]
pub struct PointsTo {
    params: HashMap<VarId, BTreeSet<Target>>,
    allocations: BTreeSet<VarId>,
}

impl PointsTo {
    pub fn new(program: &Program) -> PointsTo {
        let mut assigned = BTreeSet::new();
        let mut allocated = BTreeSet::new();
        let mut calls = Vec::new();
        for s in program.funcs.iter().flat_map(|f| &f.body.stmts) {
            each_expr(s, &mut |top| {
                top.walk(&mut |e| {
                    if let Some(ExprKind::Var(v)) = e.assigned_place().map(|p| &p.kind) {
                        match &e.kind {
                            ExprKind::Assign { value, .. } if is_shmalloc(value) => {
                                allocated.insert(*v)
                            }
                            _ => assigned.insert(*v),
                        };
                    }
                    if let ExprKind::Call { func, args } = &e.kind {
                        calls.push((*func, args));
                    }
                })
            });
            declarations(s, &mut |var, init| match init {
                Some([InitElem { value, .. }]) if is_shmalloc(value) => allocated.insert(var),
                Some(_) => assigned.insert(var),
                None => false,
            });
        }
        let allocations = (allocated.difference(&assigned).copied())
            .filter(|&v| {
                let var = program.var(v);
                matches!(var.ty, Type::Ptr(_))
                    && matches!(var.kind, VarKind::Local { .. })
                    && var.sharity == Sharity::Shared
                    && !var.addr_taken
            })
            .collect();
        let mut p = PointsTo {
            allocations,
            params: (program.funcs.iter())
                .flat_map(|f| f.params.iter().copied())
                .filter(|&v| {
                    let var = program.var(v);
                    matches!(var.ty, Type::Ptr(_))
                        && !var.addr_taken
                        && !assigned.contains(&v)
                        && !allocated.contains(&v)
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

    /// What the lvalue `place` may lie in; None when it is reached through a pointer that may
    /// point anywhere.
    pub fn place_roots(&self, program: &Program, place: &Expr) -> Option<BTreeSet<Target>> {
        match &place.kind {
            ExprKind::Var(v) => Some(BTreeSet::from([Target::Var(*v)])),
            ExprKind::Member { base, .. } => self.place_roots(program, base),
            ExprKind::Deref(p) => self.pointer_targets(program, p),
            _ => None,
        }
    }

    /// What the pointer value `p` may point into.
    pub fn pointer_targets(&self, program: &Program, p: &Expr) -> Option<BTreeSet<Target>> {
        match &p.kind {
            ExprKind::Decay(x) | ExprKind::AddrOf(x) => self.place_roots(program, x),
            ExprKind::PtrOffset { ptr, .. } => self.pointer_targets(program, ptr),
            ExprKind::Var(v) if self.allocations.contains(v) => {
                Some(BTreeSet::from([Target::Block(*v)]))
            }
            ExprKind::Var(v) if matches!(program.var(*v).kind, VarKind::Param { .. }) => {
                self.params.get(v).cloned()
            }
            _ => None,
        }
    }
}

/// `shmalloc(n)`, converted or not.
fn is_shmalloc(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Convert(x) => is_shmalloc(x),
        ExprKind::Builtin {
            op: Builtin::Shmalloc,
            ..
        } => true,
        _ => false,
    }
}

/// Calls `found` with each declaration in `s` and its initialiser.
fn declarations(s: &Stmt, found: &mut impl FnMut(VarId, Option<&[InitElem]>) -> bool) {
    if let StmtKind::Decl { var, init } = &s.kind {
        found(*var, init.as_deref());
    }
    children(s).into_iter().for_each(|c| declarations(c, found));
}
