//! `start`s outlined: the body of a `start` through which calls compiled in place come back
//! to its function becomes a `sync` function of its own. Such a body (a `farm` or `seq` in
//! it calling the function, directly or through others) is compiled apart from the
//! function's code, for the group the `start` forms, with the callees' bodies in place
//! (`inline`); a copy of the function in place there would hold the `start` and its body
//! again, without end. Outlined, the `start`'s body is a call of the new function by the
//! group, with pointers to the variables of the frame that the body uses, and each copy of
//! the function holds that call, not the body: the copies end. The call is exact as every
//! call of a `sync` function by a group is: its body runs for the group the `start` formed,
//! and reaches the frame's variables through the pointers (each processor its own).

use super::inline::nested_in_place;
use fork_frontend::hir::{
    Block, Expr, ExprKind, FnKind, FuncId, Function, Mode, Program, Sharity, Stmt, StmtKind, Type,
    Var, VarId, VarKind,
};
use fork_frontend::sync_calls::{children, expr_calls, own_exprs};
use std::collections::{BTreeSet, HashMap};

/// `program` with the body of each `start` through which calls compiled in place come back to
/// its function (`InPlaceCalls`) moved into a `sync` function of its own (module docs),
/// outermost first; the new functions are named `F_startN` after the function `F`.
pub fn recurring_starts_outlined(program: &Program) -> Program {
    let mut program = program.clone();
    let mut outlined = 0;
    'outline: loop {
        let calls = InPlaceCalls::new(&program);
        for h in 0..program.funcs.len() {
            let h = FuncId(h as u32);
            let mut stmts = program.func(h).body.stmts.clone();
            let recurs = |start: &Stmt| {
                let mut inner = Vec::new();
                in_place_calls(&program, start, false, &mut inner);
                inner.iter().any(|&g| calls.reaches(g, h))
            };
            if let Some(start) = stmts.iter_mut().find_map(|s| recurring_start(s, &recurs)) {
                outlined += 1;
                let name = format!("{}_start{outlined}", program.func(h).name);
                outline(&mut program, h, start, name);
                program.funcs[h.0 as usize].body.stmts = stmts;
                continue 'outline;
            }
        }
        return program;
    }
}

/// The first `start`, or `seq` of asynchronous code (which is `start { seq S }` there), in `s`
/// (pre-order, so the outermost) for which `recurs` holds.
fn recurring_start<'s>(s: &'s mut Stmt, recurs: &dyn Fn(&Stmt) -> bool) -> Option<&'s mut Stmt> {
    let start = match s.kind {
        StmtKind::Start(_) => true,
        StmtKind::Seq(_) => s.mode == Mode::Async,
        _ => false,
    };
    if start && recurs(s) {
        return Some(s);
    }
    children_mut(s)
        .into_iter()
        .find_map(|c| recurring_start(c, recurs))
}

/// `outlined`, a `start` of `h` (or a `seq` of its asynchronous code, `start { seq S }`), with
/// its body (the `seq`) moved into a new `sync` function `name` (module docs).
fn outline(program: &mut Program, h: FuncId, outlined: &mut Stmt, name: String) {
    let new = FuncId(program.funcs.len() as u32);
    let span = outlined.span;
    let block = |stmts, span| Stmt {
        kind: StmtKind::Block(Block { stmts, span }),
        mode: Mode::Sync,
        span,
    };
    let mut body = match &mut outlined.kind {
        StmtKind::Start(body) => {
            let empty = block(Vec::new(), body.span);
            std::mem::replace(&mut **body, empty)
        }
        // The body of `start { seq S }`, synchronous code.
        _ => {
            let start = StmtKind::Start(Box::new(block(Vec::new(), span)));
            let seq = std::mem::replace(&mut outlined.kind, start);
            Stmt {
                kind: seq,
                mode: Mode::Sync,
                span,
            }
        }
    };
    let mut declared = Vec::new();
    declarations(&body, &mut declared);
    let mut used = BTreeSet::new();
    uses(&body, &mut used);
    // The variables of `h`'s frame the body uses: by pointer, as parameters of the new
    // function; those it declares become the new function's.
    let frame: Vec<VarId> = used
        .into_iter()
        .filter(|v| !declared.contains(v))
        .filter(|v| {
            matches!(program.var(*v).kind,
                VarKind::Local { func } | VarKind::Param { func, .. } if func == h)
        })
        .collect();
    for v in &declared {
        program.vars[v.0 as usize].kind = VarKind::Local { func: new };
    }
    program.funcs[h.0 as usize]
        .locals
        .retain(|v| !declared.contains(v));
    let mut params = Vec::new();
    let mut pointers = HashMap::new();
    let mut args = Vec::new();
    for (index, &v) in frame.iter().enumerate() {
        let p = VarId(program.vars.len() as u32);
        let var = &mut program.vars[v.0 as usize];
        var.addr_taken = true;
        let (ty, span) = (Type::Ptr(Box::new(var.ty.clone())), var.span);
        let pointer = Var {
            name: format!("{}_at", var.name),
            ty: ty.clone(),
            sharity: Sharity::Private,
            kind: VarKind::Param { func: new, index },
            addr_taken: false,
            span,
        };
        let own = expr(ExprKind::Var(v), var.ty.clone(), span);
        args.push(expr(ExprKind::AddrOf(Box::new(own)), ty, span));
        program.vars.push(pointer);
        params.push(p);
        pointers.insert(v, p);
    }
    through_pointers(program, &mut body, &pointers);
    let body_span = body.span;
    let call = Stmt {
        kind: StmtKind::Expr(expr(
            ExprKind::Call { func: new, args },
            Type::Void,
            body_span,
        )),
        mode: Mode::Sync,
        span: body_span,
    };
    if let StmtKind::Start(place) = &mut outlined.kind {
        **place = block(vec![call], body_span);
    }
    let stmts = match body {
        Stmt {
            kind: StmtKind::Block(b),
            ..
        } => b.stmts,
        one => vec![one],
    };
    program.funcs.push(Function {
        name,
        kind: FnKind::Sync,
        ret: Type::Void,
        params,
        locals: declared,
        body: Block {
            stmts,
            span: body_span,
        },
        span,
    });
}

/// The calls that are compiled in place in each function (`inline::nested_in_place`): those
/// in asynchronous code, in a `seq` body and in a `straight` function, of `async` and
/// `straight` functions (a `sync` one is a host call wherever it is called).
struct InPlaceCalls {
    /// By caller.
    of: Vec<Vec<FuncId>>,
}

impl InPlaceCalls {
    fn new(program: &Program) -> InPlaceCalls {
        let of = program
            .funcs
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                let straight = f.kind == FnKind::Straight;
                f.body
                    .stmts
                    .iter()
                    .for_each(|s| in_place_calls(program, s, straight, &mut out));
                out
            })
            .collect();
        InPlaceCalls { of }
    }

    /// Whether `to` is `from` or reached from it by calls compiled in place.
    fn reaches(&self, from: FuncId, to: FuncId) -> bool {
        let mut seen = vec![from];
        let mut next = vec![from];
        while let Some(f) = next.pop() {
            if f == to {
                return true;
            }
            for &g in &self.of[f.0 as usize] {
                if !seen.contains(&g) {
                    seen.push(g);
                    next.push(g);
                }
            }
        }
        false
    }
}

/// The calls of `s` compiled in place (`InPlaceCalls`); `in_place`: `s` is compiled in place
/// whatever its mode (`inline::nested_in_place`).
fn in_place_calls(program: &Program, s: &Stmt, in_place: bool, out: &mut Vec<FuncId>) {
    if s.mode == Mode::Async || in_place {
        let mut calls = Vec::new();
        own_exprs(s)
            .into_iter()
            .for_each(|e| expr_calls(e, &mut calls));
        out.extend(
            calls
                .into_iter()
                .filter(|c| program.func(*c).kind != FnKind::Sync),
        );
    }
    let in_place = nested_in_place(s, in_place);
    for c in children(s) {
        in_place_calls(program, c, in_place, out);
    }
}

/// Each use of a variable of `pointers` in `s` as `*p`, `p` its pointer.
fn through_pointers(program: &Program, s: &mut Stmt, pointers: &HashMap<VarId, VarId>) {
    exprs_mut(s, &mut |e| {
        fn go(program: &Program, e: &mut Expr, pointers: &HashMap<VarId, VarId>) {
            if let ExprKind::Var(v) = e.kind {
                if let Some(&p) = pointers.get(&v) {
                    let ptr = expr(ExprKind::Var(p), program.var(p).ty.clone(), e.span);
                    e.kind = ExprKind::Deref(Box::new(ptr));
                }
                return;
            }
            e.for_each_child_mut(|c| go(program, c, pointers));
        }
        go(program, e, pointers)
    });
}

/// The variables `s` declares, nested statements included.
fn declarations(s: &Stmt, out: &mut Vec<VarId>) {
    if let StmtKind::Decl { var, .. } = s.kind {
        out.push(var);
    }
    children(s).into_iter().for_each(|c| declarations(c, out));
}

/// The variables `s` uses.
fn uses(s: &Stmt, out: &mut BTreeSet<VarId>) {
    fn go(e: &Expr, out: &mut BTreeSet<VarId>) {
        if let ExprKind::Var(v) = e.kind {
            out.insert(v);
        }
        e.for_each_child(|c| go(c, out));
    }
    own_exprs(s).into_iter().for_each(|e| go(e, out));
    children(s).into_iter().for_each(|c| uses(c, out));
}

/// Applies `f` to every expression of `s` itself and of the statements nested in it.
pub(crate) fn exprs_mut(s: &mut Stmt, f: &mut impl FnMut(&mut Expr)) {
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => f(e),
        StmtKind::Decl { init, .. } => init.iter_mut().flatten().for_each(|i| f(&mut i.value)),
        StmtKind::If { cond, .. } | StmtKind::Switch { cond, .. } => f(cond),
        StmtKind::Loop { cond, step, .. } => {
            cond.iter_mut().chain(step.iter_mut()).for_each(&mut *f)
        }
        StmtKind::Fork {
            count, at, dollar, ..
        } => [count, at]
            .into_iter()
            .chain(dollar.iter_mut())
            .for_each(&mut *f),
        _ => {}
    }
    children_mut(s).into_iter().for_each(|c| exprs_mut(c, f));
}

/// `sync_calls::children`, mutable.
fn children_mut(s: &mut Stmt) -> Vec<&mut Stmt> {
    match &mut s.kind {
        StmtKind::Block(b) => b.stmts.iter_mut().collect(),
        StmtKind::If { then, els, .. } => std::iter::once(&mut **then)
            .chain(els.as_deref_mut())
            .collect(),
        StmtKind::Switch { cases, .. } => cases.iter_mut().flat_map(|c| &mut c.body).collect(),
        StmtKind::Loop { body, .. }
        | StmtKind::Fork { body, .. }
        | StmtKind::Start(body)
        | StmtKind::Farm(body)
        | StmtKind::Seq(body) => vec![&mut **body],
        _ => Vec::new(),
    }
}

fn expr(kind: ExprKind, ty: Type, span: fork_frontend::source::Span) -> Expr {
    Expr {
        kind,
        ty,
        sharity: Sharity::Private,
        span,
    }
}
