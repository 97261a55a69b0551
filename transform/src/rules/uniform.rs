//! Uniform conditions (issue 10's uniformity analysis): a private condition that every member
//! of the group provably computes alike splits the group into one subgroup of all of them and
//! an empty one. Where that subgroup is the group itself, the condition is as good as a
//! shared one, and the rules run it without a split, a loop group or a restore (sieve's
//! `for (k = 2; k * k <= N; k++) if (!composite[k]) ...`, Hillis–Steele's
//! `for (d = 1; d < n; d = 2 * d)`).
//!
//! A private local is *uniform* in a function when its address is never taken and every
//! assignment to it is a statement of synchronous code, outside `fork`, `seq` and `farm`
//! bodies and under uniform conditions only, whose value is uniform: constants, shared
//! variables and shared array cells at uniform indices (every member reads them in the same
//! step), `groupsize()`, `@`, uniform locals, and operators on them. The set is the greatest
//! fixpoint: start from every candidate and drop the ones an assignment disqualifies.
//!
//! The subgroup is the group itself only when every member is present. Members leave a
//! group's lockstep at a private loop's exit (the others go on iterating) and at a `break`,
//! `continue` or `return`, and a function called under `&&`, `||`, `?:`, in a `seq` or in
//! such a loop runs with members absent (`entered_whole`). There a uniform condition stays
//! private unless the code it guards does not depend on its group (no `$$`, `groupsize()`,
//! `sh` local, group construct or host call). A function with a `break`, `continue` or
//! early `return` has no uniform locals (the locals a loop changes differ once a member has
//! left it early), so only conditions of shared variables and constants are uniform there.
//! Inside a `seq` body conditions stay as they are: there a private condition forms a
//! subgroup of one member, whose `groupsize()` is 1.

use crate::effects::Summaries;
use crate::rules::simple::strip_void;
use fork_frontend::hir::{
    BinOp, CompoundOp, Expr, ExprKind, FnKind, FuncId, Mode, Program, Sharity, Stmt, StmtKind,
    Type, VarId, VarKind,
};
use fork_frontend::source::Span;
use fork_frontend::sync_calls::{children, each_expr, own_exprs};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// The loops of synchronous code that deal a counter out cyclically over their whole group:
/// `for (i = $$; i < e; i += groupsize())` (the assignment `i = $$` is the statement before
/// the loop), where every member of the group is present, `e` is uniform (or the condition
/// is) and nothing else in the loop assigns `i`, a private local whose address is never
/// taken. The members that enter are those with `$$ < e`, so `groupsize()` in the loop is
/// their number and no two iterations of any members see the same `i`: a cell at index `i`
/// belongs to one iteration of one member (`rules::loops::order_free`). By function and
/// the loop's span.
pub type CyclicLoops = HashMap<(FuncId, Span), Cyclic>;

/// A cyclic loop, plain or *strided*: `i = a + $$ * s; for (; i < e; i += groupsize() * s)`
/// (or `<=`), with `a` and `s` uniform expressions of a signed type, the arithmetic's, and
/// `i` signed. Where `s > 0` and nothing overflows, the members that enter are again a
/// prefix of `$$` and member `$$`'s `m`-th iteration has `i = a + s * ($$ + m * c)`, `c`
/// their number; otherwise the loop keeps its loop group and its lockstep
/// (`rules::loops::cyclic_in_group` tests that at run time).
#[derive(Debug, Clone)]
pub struct Cyclic {
    pub counter: VarId,
    /// `a`; None for `i = $$ * s`.
    pub start: Option<Expr>,
    /// `s`; None for `i = a + $$`.
    pub stride: Option<Expr>,
}

impl Cyclic {
    /// `i = $$; ... i += groupsize()`: no test at run time needed.
    pub fn plain(&self) -> bool {
        self.start.is_none() && self.stride.is_none()
    }
}

/// `program` with every uniform private condition of synchronous code marked shared (see the
/// module documentation), and the loops that deal out a counter over a whole group.
pub fn uniform_conditions_shared(program: &Program) -> (Program, CyclicLoops) {
    let summaries = Summaries::new(program);
    let departing: Vec<bool> = program
        .funcs
        .iter()
        .map(|f| {
            let n = f.body.stmts.len();
            (f.body.stmts.iter().enumerate()).any(|(i, s)| departs(program, s, i + 1 == n, false))
        })
        .collect();
    let whole = entered_whole(program, &departing);
    let mut out = program.clone();
    let cyclic = RefCell::new(CyclicLoops::new());
    for (i, f) in program.funcs.iter().enumerate() {
        // A `straight` function also runs per processor, in asynchronous code.
        if f.kind == FnKind::Straight {
            continue;
        }
        // After a member leaves a loop early, the locals the loop changes differ.
        let uniform = match departing[i] {
            true => BTreeSet::new(),
            false => uniform_locals(program, &f.locals, &f.body.stmts),
        };
        let cx = Cx {
            program,
            summaries: &summaries,
            uniform: &uniform,
            departs: departing[i],
            func: FuncId(i as u32),
            cyclic: &cyclic,
        };
        cx.mark_block(
            &mut out.funcs[i].body.stmts,
            departing[i] || !whole[i],
            false,
        );
    }
    (out, cyclic.into_inner())
}

/// Per function: whether every member of the calling group is present whenever it runs
/// (`main`; a function whose every call is a whole statement's, or the value of one, of
/// synchronous code where all of its caller's group is present, in a function entered so).
/// A call under `&&`, `||` or `?:`, in a `seq`, or in a loop whose condition is not uniform
/// runs with members absent.
fn entered_whole(program: &Program, departing: &[bool]) -> Vec<bool> {
    let mut sites = Vec::new();
    for (i, f) in program.funcs.iter().enumerate() {
        for s in &f.body.stmts {
            call_sites(s, i, departing[i], false, &mut sites);
        }
    }
    let mut whole = vec![true; program.funcs.len()];
    loop {
        let mut changed = false;
        for &(caller, callee, ragged) in &sites {
            if whole[callee] && (ragged || !whole[caller]) && callee != program.main.0 as usize {
                whole[callee] = false;
                changed = true;
            }
        }
        if !changed {
            return whole;
        }
    }
}

/// The calls in `s` of function `caller`: (caller, callee, whether members may be absent).
fn call_sites(
    s: &Stmt,
    caller: usize,
    ragged: bool,
    in_seq: bool,
    out: &mut Vec<(usize, usize, bool)>,
) {
    fn calls(e: &Expr, masked: bool, out: &mut Vec<(usize, bool)>) {
        match &e.kind {
            ExprKind::Call { func, .. } => out.push((func.0 as usize, masked)),
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                calls(a, masked, out);
                calls(b, true, out);
                return;
            }
            ExprKind::Cond(c, a, b) => {
                calls(c, masked, out);
                calls(a, true, out);
                calls(b, true, out);
                return;
            }
            _ => {}
        }
        e.for_each_child(|c| calls(c, masked, out));
    }
    let mut found = Vec::new();
    for e in own_exprs(s) {
        calls(e, false, &mut found);
    }
    for (callee, masked) in found {
        out.push((caller, callee, ragged || masked || in_seq));
    }
    let cond_uniform_loop = match &s.kind {
        StmtKind::Loop { cond, .. } => cond.as_ref().is_none_or(|c| c.sharity == Sharity::Shared),
        _ => true,
    };
    let (ragged, in_seq) = match &s.kind {
        StmtKind::Fork { .. } | StmtKind::Start(_) => (false, false),
        StmtKind::Seq(_) => (ragged, true),
        // Conditions are marked after this analysis: a private loop condition counts as
        // not uniform here.
        StmtKind::Loop { .. } => (ragged || !cond_uniform_loop, in_seq),
        _ => (ragged, in_seq),
    };
    for c in children(s) {
        call_sites(c, caller, ragged, in_seq, out);
    }
}

struct Cx<'a> {
    program: &'a Program,
    summaries: &'a Summaries,
    uniform: &'a BTreeSet<VarId>,
    /// The function leaves a construct early somewhere (`departs`).
    departs: bool,
    func: FuncId,
    cyclic: &'a RefCell<CyclicLoops>,
}

impl Cx<'_> {
    /// Marks the uniform conditions of `s` shared. `ragged`: members of the current group may
    /// be absent here; `in_seq`: inside a `seq` body.
    fn mark(&self, s: &mut Stmt, ragged: bool, in_seq: bool) {
        // A group construct or host call inside (a `farm`, a `sync` callee) sees the group too.
        let group_dependent = |b: &Stmt| {
            let e = self.summaries.stmt(self.program, b);
            e.group_dependent || e.host
        };
        let sync = s.mode == Mode::Sync && !in_seq;
        // A loop's condition and step run in its loop group too.
        let loop_free = !group_dependent(s);
        match &mut s.kind {
            StmtKind::If { cond, then, els } => {
                let guarded_free =
                    !group_dependent(then) && els.as_deref().is_none_or(|e| !group_dependent(e));
                if sync && (!ragged || guarded_free) {
                    self.share(cond);
                }
                self.mark(then, ragged, in_seq);
                if let Some(e) = els {
                    self.mark(e, ragged, in_seq);
                }
            }
            StmtKind::Loop { cond, body, .. } => {
                let mut uniform_loop = cond.is_none();
                if let Some(c) = cond {
                    if sync && (!ragged || loop_free) {
                        self.share(c);
                    }
                    uniform_loop = c.sharity == Sharity::Shared;
                }
                self.mark(body, ragged || !uniform_loop, in_seq);
            }
            StmtKind::Switch { cond, cases } => {
                let free = cases
                    .iter()
                    .all(|c| c.body.iter().all(|b| !group_dependent(b)));
                if sync && (!ragged || free) {
                    self.share(cond);
                }
                for b in cases.iter_mut().flat_map(|c| &mut c.body) {
                    self.mark(b, ragged, in_seq);
                }
            }
            StmtKind::Block(b) => self.mark_block(&mut b.stmts, ragged, in_seq),
            // A new group of the members present.
            StmtKind::Fork { body, .. } | StmtKind::Start(body) => {
                self.mark(body, self.departs, in_seq)
            }
            StmtKind::Seq(body) => self.mark(body, ragged, true),
            StmtKind::Farm(body) => self.mark(body, ragged, in_seq),
            _ => {}
        }
    }

    /// `mark` for each statement of a block, and the cyclic loops among them (a loop and the
    /// statement before it).
    fn mark_block(&self, stmts: &mut [Stmt], ragged: bool, in_seq: bool) {
        for k in 0..stmts.len() {
            self.mark(&mut stmts[k], ragged, in_seq);
            if k > 0 && stmts[k].mode == Mode::Sync && !in_seq && !ragged {
                let (init, lp) = (&stmts[k - 1], &stmts[k]);
                if let Some(c) = self.cyclic_counter(init, lp) {
                    self.cyclic.borrow_mut().insert((self.func, lp.span), c);
                }
            }
        }
    }

    /// `init; lp` as a cyclic loop (`CyclicLoops`, `Cyclic`) in a group whose members are
    /// all present.
    fn cyclic_counter(&self, init: &Stmt, lp: &Stmt) -> Option<Cyclic> {
        let StmtKind::Loop {
            cond,
            step: Some(step),
            body,
            ..
        } = &lp.kind
        else {
            return None;
        };
        let (i, value) = match &init.kind {
            StmtKind::Expr(e) => match &strip_void(e).kind {
                ExprKind::Assign { place, value } => match place.kind {
                    ExprKind::Var(i) => (i, &**value),
                    _ => return None,
                },
                _ => return None,
            },
            StmtKind::Decl { var, init: Some(v) } => match v.as_slice() {
                [one] if one.offset == 0 => (*var, &one.value),
                _ => return None,
            },
            _ => return None,
        };
        let (start, stride) = dealt_out(value)?;
        let var = self.program.var(i);
        let plain = start.is_none() && stride.is_none();
        let counter_ok = var.sharity == Sharity::Private
            && !var.addr_taken
            && matches!(var.kind, VarKind::Local { .. })
            && matches!(var.ty, Type::Int(k) if k.bytes() >= 4 && (plain || k.signed()));
        // The arithmetic of a strided start is signed, so that `run_time_test` can bound it.
        let strided_ok = plain
            || start
                .or(stride)
                .is_some_and(|x| matches!(x.ty, Type::Int(k) if k.signed()))
                && [start, stride]
                    .iter()
                    .flatten()
                    .all(|x| uniform(self.program, self.uniform, x));
        // The members that enter are those with `$$ < e` (a strided start: `a + $$ * s < e`,
        // a prefix where `s > 0`), or all of them.
        let enters_prefix = match cond {
            None => plain,
            Some(c) if c.sharity == Sharity::Shared => plain,
            Some(c) => match &c.kind {
                ExprKind::Binary(BinOp::Lt | BinOp::Le, a, e)
                | ExprKind::Binary(BinOp::Gt | BinOp::Ge, e, a) => {
                    widened(a) == Some(i) && uniform(self.program, self.uniform, e)
                }
                _ => false,
            },
        };
        let steps_by_stride = match &strip_void(step).kind {
            ExprKind::CompoundAssign {
                place,
                op: CompoundOp::Arith(BinOp::Add),
                rhs,
                ..
            } => {
                matches!(place.kind, ExprKind::Var(v) if v == i)
                    && match (dealt_by(widen_source(rhs), ExprKind::GroupSize), stride) {
                        (Some(None), None) => true,
                        (Some(Some(s)), Some(t)) => same_value(s, t),
                        _ => false,
                    }
            }
            _ => false,
        };
        let mut assigned = false;
        let mut note = |e: &Expr| assigned |= assigns(e, i);
        cond.iter().for_each(&mut note);
        each_expr(body, &mut note);
        (counter_ok && strided_ok && enters_prefix && steps_by_stride && !assigned).then(|| {
            Cyclic {
                counter: i,
                start: start.cloned(),
                stride: stride.cloned(),
            }
        })
    }

    fn share(&self, cond: &mut Expr) {
        if cond.sharity == Sharity::Private && uniform(self.program, self.uniform, cond) {
            cond.sharity = Sharity::Shared;
        }
    }
}

/// The uniform locals among `locals` of a body (the module documentation's fixpoint).
fn uniform_locals(program: &Program, locals: &[VarId], body: &[Stmt]) -> BTreeSet<VarId> {
    let mut set: BTreeSet<VarId> = locals
        .iter()
        .copied()
        .filter(|&v| {
            let var = program.var(v);
            var.sharity == Sharity::Private
                && !var.addr_taken
                && matches!(var.kind, VarKind::Local { .. })
                && var.ty.is_scalar()
        })
        .collect();
    let mut defs = Vec::new();
    for s in body {
        definitions(s, &mut Vec::new(), true, &mut defs);
    }
    loop {
        let before = set.len();
        for d in &defs {
            let ok = d.controlled
                && d.conds.iter().all(|c| uniform(program, &set, c))
                && d.value.is_none_or(|v| uniform(program, &set, v));
            if !ok {
                set.remove(&d.var);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// An assignment to a local: under which conditions, with which value (None: one that keeps
/// a uniform variable uniform, `v++`, a declaration without initialiser).
struct Definition<'p> {
    var: VarId,
    value: Option<&'p Expr>,
    conds: Vec<&'p Expr>,
    /// In synchronous code, outside `fork`, `seq` and `farm` bodies, at statement level.
    controlled: bool,
}

fn definitions<'p>(
    s: &'p Stmt,
    conds: &mut Vec<&'p Expr>,
    controlled: bool,
    out: &mut Vec<Definition<'p>>,
) {
    let controlled = controlled && s.mode == Mode::Sync;
    let mut def = |var, value, conds: &Vec<&'p Expr>, controlled| {
        out.push(Definition {
            var,
            value,
            conds: conds.clone(),
            controlled,
        })
    };
    match &s.kind {
        StmtKind::Decl { var, init } => {
            match init.as_deref() {
                Some([one]) if one.offset == 0 => def(*var, Some(&one.value), conds, controlled),
                None => def(*var, None, conds, controlled),
                // An aggregate's initialiser: no scalar candidate has one.
                Some(_) => def(*var, None, conds, false),
            }
        }
        StmtKind::Expr(e) => statement_writes(e, conds, controlled, out),
        StmtKind::Loop { step: Some(st), .. } => {
            if let Some(c) = loop_cond(s) {
                conds.push(c);
            }
            statement_writes(st, conds, controlled, out);
            if loop_cond(s).is_some() {
                conds.pop();
            }
        }
        _ => {}
    }
    // Writes nested in other expressions (conditions, returns, arguments) disqualify.
    if !matches!(s.kind, StmtKind::Expr(_)) {
        for e in own_exprs(s) {
            if !is_step(s, e) {
                nested_writes(e, out);
            }
        }
    }
    let cond = match &s.kind {
        StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => Some(cond),
        StmtKind::Loop { .. } => loop_cond(s),
        _ => None,
    };
    let inside = controlled
        && !matches!(
            s.kind,
            StmtKind::Fork { .. } | StmtKind::Seq(_) | StmtKind::Farm(_)
        );
    if let Some(c) = cond {
        conds.push(c);
    }
    for c in children(s) {
        definitions(c, conds, inside, out);
    }
    if cond.is_some() {
        conds.pop();
    }
}

/// The variable `e` reads through conversions to integers at least as wide (which keep the
/// order of non-negative values and tell distinct values apart).
pub(crate) fn widened(e: &Expr) -> Option<VarId> {
    match &widen_source(e).kind {
        ExprKind::Var(v) => Some(*v),
        _ => None,
    }
}

/// `e` without its widening integer conversions.
pub(crate) fn widen_source(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Convert(x) => match (&e.ty, &x.ty) {
            (Type::Int(to), Type::Int(from)) if to.bytes() >= from.bytes() => widen_source(x),
            _ => e,
        },
        _ => e,
    }
}

/// `v` as `a + $$ * s` (`+` and `*` in either order, `$$` widened): `(a, s)`, None for a
/// part left out (`$$`, `$$ * s`, `a + $$`).
fn dealt_out(v: &Expr) -> Option<(Option<&Expr>, Option<&Expr>)> {
    let v = widen_source(v);
    if let Some(s) = dealt_by(v, ExprKind::DollarDollar) {
        return Some((None, s));
    }
    match &v.kind {
        ExprKind::Binary(BinOp::Add, x, y) => match (
            dealt_by(y, ExprKind::DollarDollar),
            dealt_by(x, ExprKind::DollarDollar),
        ) {
            (Some(s), _) => Some((Some(&**x), s)),
            (_, Some(s)) => Some((Some(&**y), s)),
            _ => None,
        },
        _ => None,
    }
}

/// `e` as `unit * s` or `s * unit` (`unit` widened; `$$` or `groupsize()`): `Some(Some(s))`,
/// or `Some(None)` for `unit` alone. The product is in the type of `e` itself, that of `s`.
fn dealt_by(e: &Expr, unit: ExprKind) -> Option<Option<&Expr>> {
    let is_unit = |x: &Expr| widen_source(x).kind == unit;
    if is_unit(e) {
        return Some(None);
    }
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, x, y) if is_unit(x) => Some(Some(&**y)),
        ExprKind::Binary(BinOp::Mul, x, y) if is_unit(y) => Some(Some(&**x)),
        _ => None,
    }
}

/// Whether `a` and `b` are the same expression (of the same types), wherever they stand.
fn same_value(a: &Expr, b: &Expr) -> bool {
    fn unplaced(e: &Expr) -> Expr {
        let mut e = e.clone();
        fn clear(e: &mut Expr) {
            e.span = Span::default();
            e.for_each_child_mut(clear);
        }
        clear(&mut e);
        e
    }
    unplaced(a) == unplaced(b)
}

/// Whether `e` assigns `v` anywhere inside it.
fn assigns(e: &Expr, v: VarId) -> bool {
    let mut found = false;
    e.walk(&mut |x| {
        found |= matches!(x.assigned_place().map(|p| &p.kind), Some(ExprKind::Var(w)) if *w == v)
    });
    found
}

fn loop_cond(s: &Stmt) -> Option<&Expr> {
    match &s.kind {
        StmtKind::Loop { cond, .. } => cond.as_ref(),
        _ => None,
    }
}

fn is_step(s: &Stmt, e: &Expr) -> bool {
    matches!(&s.kind, StmtKind::Loop { step: Some(st), .. } if std::ptr::eq(st, e))
}

/// The writes of an expression statement (or a loop step): `v = e`, `v op= e`, `v++` at its
/// top are definitions, any other write to a local disqualifies it.
fn statement_writes<'p>(
    e: &'p Expr,
    conds: &[&'p Expr],
    controlled: bool,
    out: &mut Vec<Definition<'p>>,
) {
    let top = strip_void(e);
    let (var, value, rest): (Option<VarId>, Option<&Expr>, Vec<&Expr>) = match &top.kind {
        ExprKind::Assign { place, value } => match place.kind {
            ExprKind::Var(v) => (Some(v), Some(&**value), vec![&**value]),
            _ => (None, None, vec![top]),
        },
        ExprKind::CompoundAssign { place, rhs, .. } => match place.kind {
            ExprKind::Var(v) => (Some(v), Some(&**rhs), vec![&**rhs]),
            _ => (None, None, vec![top]),
        },
        ExprKind::IncDec { place, .. } => match place.kind {
            ExprKind::Var(v) => (Some(v), None, vec![]),
            _ => (None, None, vec![top]),
        },
        _ => (None, None, vec![top]),
    };
    if let Some(var) = var {
        out.push(Definition {
            var,
            value,
            conds: conds.to_vec(),
            controlled,
        });
    }
    for r in rest {
        nested_writes(r, out);
    }
}

/// Every local written inside `e`: disqualified.
fn nested_writes(e: &Expr, out: &mut Vec<Definition<'_>>) {
    e.walk(&mut |x| {
        if let Some(ExprKind::Var(var)) = x.assigned_place().map(|p| &p.kind) {
            out.push(Definition {
                var: *var,
                value: None,
                conds: Vec::new(),
                controlled: false,
            });
        }
    });
}

/// Whether every member of a group computes `e` alike, in lockstep.
pub(crate) fn uniform(program: &Program, locals: &BTreeSet<VarId>, e: &Expr) -> bool {
    let all = |e: &Expr| {
        let mut ok = true;
        e.for_each_child(|c| ok = ok && uniform(program, locals, c));
        ok
    };
    match &e.kind {
        ExprKind::IntConst(_)
        | ExprKind::FloatConst(_)
        | ExprKind::Str(_)
        | ExprKind::GroupSize
        | ExprKind::At
        | ExprKind::StartedProcs => true,
        ExprKind::Var(v) => program.var(*v).sharity == Sharity::Shared || locals.contains(v),
        // A shared cell at a uniform address: `a[k]`, `s.f`.
        ExprKind::Deref(_) | ExprKind::Member { .. } => {
            shared_cell(program, e) && address_uniform(program, locals, e)
        }
        ExprKind::Convert(_)
        | ExprKind::Unary(..)
        | ExprKind::Binary(..)
        | ExprKind::PtrOffset { .. }
        | ExprKind::PtrDiff { .. }
        | ExprKind::LogAnd(..)
        | ExprKind::LogOr(..)
        | ExprKind::Cond(..) => all(e),
        ExprKind::Decay(x) | ExprKind::AddrOf(x) => {
            shared_cell(program, x) && address_uniform(program, locals, x)
        }
        _ => false,
    }
}

/// Whether the lvalue `place` lies in a named shared variable.
fn shared_cell(program: &Program, place: &Expr) -> bool {
    crate::effects::root_var(place).is_some_and(|v| program.var(v).sharity == Sharity::Shared)
}

/// Whether the address of the lvalue `place` is the same for every member.
fn address_uniform(program: &Program, locals: &BTreeSet<VarId>, place: &Expr) -> bool {
    match &place.kind {
        ExprKind::Var(_) => true,
        ExprKind::Member { base, .. } => address_uniform(program, locals, base),
        ExprKind::Deref(p) => uniform(program, locals, p),
        _ => false,
    }
}

/// Whether `s` (or a statement in it) leaves a construct early: `break`, `continue`, or a
/// `return` that is not the last statement of the body (`last`). A `return` that every
/// member reaches together does not: one under `if`s whose conditions are uniform without
/// locals (constants, shared variables, `groupsize()`: quicksort's `if (n < 2) return;`),
/// outside loops, `switch`es and group constructs, leaves no member behind.
fn departs(program: &Program, s: &Stmt, last: bool, apart: bool) -> bool {
    match &s.kind {
        StmtKind::Break | StmtKind::Continue => true,
        StmtKind::Return(_) => !last && apart,
        StmtKind::Block(b) => {
            let n = b.stmts.len();
            (b.stmts.iter().enumerate())
                .any(|(i, s)| departs(program, s, last && i + 1 == n, apart))
        }
        StmtKind::If { cond, then, els } => {
            let apart = apart || !uniform(program, &BTreeSet::new(), cond);
            departs(program, then, false, apart)
                || els
                    .as_deref()
                    .is_some_and(|e| departs(program, e, false, apart))
        }
        _ => children(s)
            .into_iter()
            .any(|c| departs(program, c, false, true)),
    }
}
