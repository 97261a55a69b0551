//! What a statement or expression does that decides where kernels are cut: shared reads and
//! writes, output, multiprefix, group identity, host-level calls. Calls of device functions
//! (`straight`, barrier-free `async`) count with their callee's summary, computed to a fixpoint
//! over the call graph (recursion allowed).

use crate::points_to::{PointsTo, Target};
use fork_frontend::hir::{
    Builtin, Expr, ExprKind, FnKind, FuncId, Program, Sharity, Stmt, StmtKind, VarId, VarKind,
};
use std::collections::BTreeSet;

/// Shared memory a piece of code touches: named shared variables (an access through a
/// decayed array or `&v` plus any offset stays inside `v`) and the blocks of allocation
/// pointers (`PointsTo`), and whether it touches shared memory it cannot name (through
/// another pointer value, the shared heap's allocator, a callee).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Objects {
    pub targets: BTreeSet<Target>,
    pub unknown: bool,
}

impl Objects {
    /// The named variable `v`.
    pub fn var(v: VarId) -> Objects {
        Objects {
            targets: [Target::Var(v)].into(),
            unknown: false,
        }
    }

    pub fn any(&self) -> bool {
        self.unknown || !self.targets.is_empty()
    }

    /// Whether an access to `self` and one to `other` may touch the same memory.
    pub fn may_overlap(&self, other: &Objects) -> bool {
        (self.unknown && other.any())
            || (other.unknown && self.any())
            || self.targets.intersection(&other.targets).next().is_some()
    }

    pub fn union(&mut self, other: &Objects) {
        self.targets.extend(other.targets.iter().copied());
        self.unknown |= other.unknown;
    }
}

/// What a piece of code may do.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Effects {
    /// Memory another processor may read that this code writes.
    pub writes: Objects,
    /// Memory another processor may write that this code reads.
    pub reads: Objects,
    /// Calls `printf`.
    pub prints: bool,
    /// `mpadd`/`syncadd` and friends.
    pub multiprefix: bool,
    /// Uses `$$`, `groupsize()` or declares a shared local: its meaning depends on the group
    /// that runs it.
    pub group_dependent: bool,
    /// Calls a function that runs on the host (a `sync` function, or an `async` one that
    /// synchronises), or contains a group construct or `barrier`.
    pub host: bool,
    /// Calls `free` or `shfree`: a heap block may end here (an owned loop whose body frees
    /// none reads each block's freed mark once, `emit_cuda::region`).
    pub frees: bool,
}

impl Effects {
    pub(crate) fn union(mut self, o: &Effects) -> Effects {
        self.writes.union(&o.writes);
        self.reads.union(&o.reads);
        self.prints |= o.prints;
        self.multiprefix |= o.multiprefix;
        self.group_dependent |= o.group_dependent;
        self.host |= o.host;
        self.frees |= o.frees;
        self
    }

    pub fn writes_shared(&self) -> bool {
        self.writes.any()
    }

    pub fn reads_shared(&self) -> bool {
        self.reads.any()
    }

    /// In a synchronous region: whether a kernel must end after this code (shared write or
    /// output), or the code cannot run inside one kernel at all.
    pub fn needs_cut(&self) -> bool {
        self.writes_shared() || self.prints || self.multiprefix || self.host
    }
}

/// Per-function summaries: what a call of the function does.
pub struct Summaries {
    pub per_func: Vec<Effects>,
    /// Where pointer parameters point (`object_of`).
    pub points_to: PointsTo,
}

impl Summaries {
    pub fn new(program: &Program) -> Summaries {
        let mut s = Summaries {
            per_func: vec![Effects::default(); program.funcs.len()],
            points_to: PointsTo::new(program),
        };
        loop {
            let mut changed = false;
            for (i, f) in program.funcs.iter().enumerate() {
                let mut e = s.block(program, &f.body.stmts);
                if f.kind == FnKind::Sync {
                    e.host = true;
                }
                // A caller cannot name what the callee touches.
                e.reads.unknown |= !e.reads.targets.is_empty();
                e.writes.unknown |= !e.writes.targets.is_empty();
                // Group identity inside a callee refers to the caller's group: a property
                // of the call, and `host` already covers group constructs.
                if e != s.per_func[i] {
                    s.per_func[i] = e;
                    changed = true;
                }
            }
            if !changed {
                return s;
            }
        }
    }

    /// Whether calls of `func` run on the host.
    pub fn is_host_fn(&self, func: FuncId) -> bool {
        self.per_func[func.0 as usize].host
    }

    /// Whether a `straight` function called by a synchronous group of several members needs
    /// lockstep inside it (docs/language.md §8): it writes shared memory, prints, or uses
    /// multiprefix, so running it per thread as a device function could order its steps
    /// otherwise. Such a call runs on the host, as a `sync` function's does.
    pub fn straight_needs_lockstep(&self, program: &Program, func: FuncId) -> bool {
        program.func(func).kind == FnKind::Straight && self.per_func[func.0 as usize].needs_cut()
    }

    pub fn block(&self, program: &Program, stmts: &[Stmt]) -> Effects {
        stmts.iter().fold(Effects::default(), |acc, s| {
            acc.union(&self.stmt(program, s))
        })
    }

    pub fn stmt(&self, program: &Program, stmt: &Stmt) -> Effects {
        let host = Effects {
            host: true,
            ..Effects::default()
        };
        match &stmt.kind {
            StmtKind::Expr(e) => self.expr(program, e),
            StmtKind::Decl { var, init } => {
                let v = program.var(*var);
                let mut e = init.iter().flatten().fold(Effects::default(), |acc, i| {
                    acc.union(&self.expr(program, &i.value))
                });
                if v.sharity == Sharity::Shared {
                    e.group_dependent = true;
                    e.writes.targets.insert(Target::Var(*var));
                }
                e
            }
            StmtKind::Block(b) => self.block(program, &b.stmts),
            StmtKind::If { cond, then, els } => {
                let mut e = self.expr(program, cond).union(&self.stmt(program, then));
                if let Some(els) = els {
                    e = e.union(&self.stmt(program, els));
                }
                e
            }
            StmtKind::Loop {
                cond, step, body, ..
            } => {
                let mut e = self.stmt(program, body);
                for x in cond.iter().chain(step.iter()) {
                    e = e.union(&self.expr(program, x));
                }
                e
            }
            StmtKind::Switch { cond, cases } => {
                cases.iter().fold(self.expr(program, cond), |acc, c| {
                    acc.union(&self.block(program, &c.body))
                })
            }
            StmtKind::Break | StmtKind::Continue => Effects::default(),
            StmtKind::Return(e) => e
                .as_ref()
                .map(|e| self.expr(program, e))
                .unwrap_or_default(),
            StmtKind::Fork { .. }
            | StmtKind::Start(_)
            | StmtKind::Farm(_)
            | StmtKind::Seq(_)
            | StmtKind::Barrier => host,
        }
    }

    pub fn expr(&self, program: &Program, expr: &Expr) -> Effects {
        let mut acc = Effects::default();
        self.walk(program, expr, true, &mut acc);
        acc
    }

    /// `read`: whether the value of this lvalue is read (false under `&`, decay, and for the
    /// place of an assignment).
    fn walk(&self, program: &Program, e: &Expr, read: bool, acc: &mut Effects) {
        match &e.kind {
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Member { .. } if read => {
                acc.reads.union(&self.object_of(program, e));
                self.walk(program, e, false, acc);
            }
            ExprKind::Var(_) => {}
            ExprKind::Deref(p) => self.walk(program, p, true, acc),
            ExprKind::Member { base, .. } => self.walk(program, base, read, acc),
            ExprKind::AddrOf(x) | ExprKind::Decay(x) => self.walk(program, x, false, acc),
            ExprKind::Assign { place, value } => {
                self.write(program, place, acc);
                self.walk(program, value, true, acc);
            }
            ExprKind::CompoundAssign { place, rhs, .. } => {
                self.write(program, place, acc);
                self.walk(program, place, true, acc);
                self.walk(program, rhs, true, acc);
            }
            ExprKind::IncDec { place, .. } => {
                self.write(program, place, acc);
                self.walk(program, place, true, acc);
            }
            ExprKind::Call { func, args } => {
                *acc = std::mem::take(acc).union(&self.per_func[func.0 as usize]);
                for a in args {
                    self.walk(program, a, true, acc);
                }
            }
            ExprKind::Builtin { op, args } => {
                match op {
                    Builtin::Printf => acc.prints = true,
                    Builtin::Multiprefix(_) | Builtin::SyncUpdate(_) => {
                        acc.multiprefix = true;
                        acc.writes.unknown = true;
                        acc.reads.unknown = true;
                    }
                    Builtin::Shmalloc => acc.writes.unknown = true,
                    Builtin::Shfree => {
                        acc.writes.unknown = true;
                        acc.frees = true;
                    }
                    Builtin::Free => acc.frees = true,
                    _ => {}
                }
                for a in args {
                    self.walk(program, a, true, acc);
                }
            }
            ExprKind::DollarDollar | ExprKind::GroupSize => acc.group_dependent = true,
            _ => e.for_each_child(|c| self.walk(program, c, true, acc)),
        }
    }

    /// The shared objects an lvalue may lie in: its root variable when it is named (through
    /// members, `*(&v + i)`, `*(array + i)`) or what a pointer parameter or an allocation
    /// pointer points into (`PointsTo`), no private variable; unknown when reached through
    /// another pointer.
    pub(crate) fn object_of(&self, program: &Program, place: &Expr) -> Objects {
        match self.points_to.place_roots(program, place) {
            Some(roots) => Objects {
                targets: (roots.into_iter())
                    .filter(|t| match *t {
                        Target::Var(v) => program.var(v).sharity == Sharity::Shared,
                        Target::Block(_) => true,
                    })
                    .collect(),
                unknown: false,
            },
            None => Objects {
                targets: BTreeSet::new(),
                unknown: true,
            },
        }
    }

    /// The write of an assignment's place, and the reads its address needs.
    fn write(&self, program: &Program, place: &Expr, acc: &mut Effects) {
        acc.writes.union(&self.object_of(program, place));
        self.walk(program, place, false, acc);
    }
}

/// What an expression reads that code which does not name it can change (a callee, a store
/// through a pointer): shared memory, and private memory a callee or a pointer reaches (a
/// private global, a private variable whose address is taken, memory through a pointer
/// value). A private local whose address is never taken changes only by an assignment that
/// names it. Used where an evaluation order is chosen (`rules::simple`, `emit_cuda`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Exposed {
    pub shared: bool,
    pub private: bool,
}

impl Exposed {
    pub fn any(self) -> bool {
        self.shared || self.private
    }
}

/// `Exposed` for the value of `e`.
pub fn exposed_reads(program: &Program, e: &Expr) -> Exposed {
    let mut x = Exposed::default();
    value_reads(program, e, &mut x);
    x
}

/// `Exposed` for the address of the lvalue `place` (its contents are not read).
pub fn exposed_address_reads(program: &Program, place: &Expr) -> Exposed {
    let mut x = Exposed::default();
    address_reads(program, place, &mut x);
    x
}

fn value_reads(program: &Program, e: &Expr, x: &mut Exposed) {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Member { .. } => {
            match root_var(e) {
                Some(v) => {
                    let var = program.var(v);
                    match var.sharity {
                        Sharity::Shared => x.shared = true,
                        Sharity::Private => {
                            x.private |= var.addr_taken || var.kind == VarKind::Global
                        }
                    }
                }
                None => {
                    x.shared = true;
                    x.private = true;
                }
            }
            address_reads(program, e, x);
        }
        ExprKind::Decay(place) | ExprKind::AddrOf(place) => address_reads(program, place, x),
        _ => e.for_each_child(|c| value_reads(program, c, x)),
    }
}

fn address_reads(program: &Program, place: &Expr, x: &mut Exposed) {
    match &place.kind {
        ExprKind::Var(_) => {}
        ExprKind::Deref(p) => value_reads(program, p, x),
        ExprKind::Member { base, .. } => address_reads(program, base, x),
        _ => value_reads(program, place, x),
    }
}

pub(crate) fn root_var(place: &Expr) -> Option<VarId> {
    match &place.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Member { base, .. } => root_var(base),
        ExprKind::Deref(p) => pointer_root(p),
        _ => None,
    }
}

/// The variable a pointer value points into, when the pointer is built from its address.
fn pointer_root(p: &Expr) -> Option<VarId> {
    match &p.kind {
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => root_var(x),
        ExprKind::PtrOffset { ptr, .. } => pointer_root(ptr),
        _ => None,
    }
}
