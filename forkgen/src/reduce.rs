//! The delta-debugging reducer: shrinks a program on the generator's own tree (drop
//! functions and statements, unwrap constructs, simplify expressions) while a predicate
//! (the same finding on the failing run) still holds.

use crate::ast::{Break, Expr, Program, Stmt};
use crate::diff::{run_program, RunConfig, Verdict};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
enum StmtOp {
    Remove,
    /// Replace a construct by its body (0), its `else` (1), or a `switch` by a case.
    Unwrap(usize),
    DropCase(usize),
}

#[derive(Clone, Copy, Debug)]
enum ExprOp {
    Zero,
    Child(usize),
}

/// The reduced program for a finding; `finding` is the verdict of `program` under `config`.
/// The check runs only the failing processor count and order, and stops after `budget`.
pub fn reduce(
    program: &Program,
    finding: &Verdict,
    config: &RunConfig,
    budget: Duration,
) -> Program {
    let mut narrow = config.clone();
    match finding {
        Verdict::Mismatch { procs, order, .. } => {
            narrow.procs = vec![*procs];
            narrow.orders = vec![*order];
        }
        Verdict::SimFault { procs, .. } => narrow.procs = vec![*procs],
        _ => {}
    }
    let keep = |p: &Program| finding.same_kind(&run_program(&p.render(), &narrow));
    shrink(program, keep, Instant::now() + budget)
}

/// Greedy delta debugging to a fixpoint (or the deadline): each edit that keeps the
/// predicate is taken.
pub fn shrink(program: &Program, keep: impl Fn(&Program) -> bool, deadline: Instant) -> Program {
    let mut best = program.clone();
    let stmt_ops = [
        StmtOp::Remove,
        StmtOp::Unwrap(0),
        StmtOp::Unwrap(1),
        StmtOp::DropCase(0),
        StmtOp::DropCase(1),
        StmtOp::DropCase(2),
        StmtOp::DropCase(3),
        StmtOp::DropCase(4),
    ];
    let expr_ops = [
        ExprOp::Zero,
        ExprOp::Child(0),
        ExprOp::Child(1),
        ExprOp::Child(2),
    ];
    loop {
        let before = best.size();
        let mut f = 0;
        while f < best.funcs.len() {
            let mut cand = best.clone();
            if cand.funcs[f].removable {
                cand.funcs.remove(f);
                if Instant::now() < deadline && keep(&cand) {
                    best = cand;
                    continue;
                }
            }
            f += 1;
        }
        for op in stmt_ops {
            let mut k = 0;
            while Instant::now() < deadline {
                let mut cand = best.clone();
                match cand.funcs.iter_mut().try_fold(k, |k, f| {
                    match edit_stmts(&mut f.body, k, op) {
                        Edit::Skipped(rest) => Ok(rest),
                        done => Err(done),
                    }
                }) {
                    Ok(_) => break,
                    Err(Edit::Applied) if keep(&cand) => best = cand,
                    Err(_) => k += 1,
                }
            }
        }
        for op in expr_ops {
            let mut k = 0;
            while Instant::now() < deadline {
                let mut cand = best.clone();
                match cand.funcs.iter_mut().try_fold(k, |k, f| {
                    match edit_exprs(&mut f.body, k, op) {
                        Edit::Skipped(rest) => Ok(rest),
                        done => Err(done),
                    }
                }) {
                    Ok(_) => break,
                    Err(Edit::Applied) if keep(&cand) => best = cand,
                    Err(_) => k += 1,
                }
            }
        }
        if best.size() >= before || Instant::now() >= deadline {
            return best;
        }
    }
}

/// The result of looking for the k-th place: not among these (k places fewer to go),
/// found and changed, or found but the edit does not apply there.
enum Edit {
    Skipped(usize),
    Applied,
    NotApplicable,
}

fn edit_stmts(list: &mut Vec<Stmt>, mut k: usize, op: StmtOp) -> Edit {
    let mut i = 0;
    while i < list.len() {
        if k == 0 {
            return apply_stmt(list, i, op);
        }
        k -= 1;
        for body in children(&mut list[i]) {
            match edit_stmts(body, k, op) {
                Edit::Skipped(rest) => k = rest,
                done => return done,
            }
        }
        i += 1;
    }
    Edit::Skipped(k)
}

fn children(s: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    match s {
        Stmt::Simple { .. } => Vec::new(),
        Stmt::Nest { body, alt, .. } => std::iter::once(body).chain(alt.as_mut()).collect(),
        Stmt::Switch { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
    }
}

fn apply_stmt(list: &mut Vec<Stmt>, i: usize, op: StmtOp) -> Edit {
    let applied = match (op, &mut list[i]) {
        (StmtOp::Remove, Stmt::Simple { keep: true, .. } | Stmt::Nest { keep: true, .. }) => None,
        (StmtOp::Remove, _) => Some(Vec::new()),
        // `if (c) break;` stays conditional: an unconditional jump makes the rest dead code,
        // a different program shape from what the generator makes.
        (
            StmtOp::Unwrap(0),
            Stmt::Nest {
                keep: false, body, ..
            },
        ) if !jumps(body) => Some(std::mem::take(body)),
        (
            StmtOp::Unwrap(1),
            Stmt::Nest {
                keep: false,
                alt: Some(alt),
                ..
            },
        ) => Some(std::mem::take(alt)),
        (StmtOp::Unwrap(c), Stmt::Switch { cases, .. }) if c < cases.len() => {
            Some(std::mem::take(&mut cases[c].body))
        }
        // Dropping a case after one that falls through would make a different fall-through.
        (StmtOp::DropCase(c), Stmt::Switch { cases, .. })
            if c < cases.len()
                && cases.len() > 1
                && (c == 0 || cases[c - 1].brk != Break::None) =>
        {
            cases.remove(c);
            return Edit::Applied;
        }
        _ => None,
    };
    match applied {
        Some(replacement) => {
            list.splice(i..=i, replacement);
            Edit::Applied
        }
        None => Edit::NotApplicable,
    }
}

fn jumps(body: &[Stmt]) -> bool {
    body.iter().any(|s| {
        matches!(s, Stmt::Simple { pre, .. }
            if pre.starts_with("break") || pre.starts_with("continue") || pre.starts_with("return"))
    })
}

fn edit_exprs(list: &mut [Stmt], mut k: usize, op: ExprOp) -> Edit {
    for s in list {
        let exprs: Vec<&mut Expr> = match s {
            Stmt::Simple { e, .. } => e.iter_mut().collect(),
            Stmt::Nest { cond, .. } => cond.iter_mut().collect(),
            Stmt::Switch { scrutinee, .. } => vec![scrutinee],
        };
        for e in exprs {
            match edit_expr(e, k, op) {
                Edit::Skipped(rest) => k = rest,
                done => return done,
            }
        }
        for body in children(s) {
            match edit_exprs(body, k, op) {
                Edit::Skipped(rest) => k = rest,
                done => return done,
            }
        }
    }
    Edit::Skipped(k)
}

fn edit_expr(e: &mut Expr, k: usize, op: ExprOp) -> Edit {
    if k == 0 {
        let replacement = match (op, &*e) {
            (ExprOp::Zero, Expr::Leaf(s)) if s == "0" => None,
            // A `Wrap` keeps its operand in bounds (`& 7`) or private (`+ __PROC_NR__`).
            (_, Expr::Wrap(..)) => None,
            (ExprOp::Zero, _) => Some(Expr::leaf("0")),
            (ExprOp::Child(c), _) => operands(e).get(c).map(|x| (**x).clone()),
        };
        return match replacement {
            Some(r) => {
                *e = r;
                Edit::Applied
            }
            None => Edit::NotApplicable,
        };
    }
    let mut k = k - 1;
    for child in operands_mut(e) {
        match edit_expr(child, k, op) {
            Edit::Skipped(rest) => k = rest,
            done => return done,
        }
    }
    Edit::Skipped(k)
}

fn operands(e: &Expr) -> Vec<&Expr> {
    match e {
        Expr::Leaf(_) => Vec::new(),
        Expr::Un(_, a) | Expr::Wrap(_, a, _) => vec![a],
        Expr::Bin(_, a, b) => vec![a, b],
        Expr::Cond(c, a, b) => vec![c, a, b],
        Expr::Call(_, args) => args.iter().collect(),
    }
}

fn operands_mut(e: &mut Expr) -> Vec<&mut Expr> {
    match e {
        Expr::Leaf(_) => Vec::new(),
        Expr::Un(_, a) | Expr::Wrap(_, a, _) => vec![a],
        Expr::Bin(_, a, b) => vec![a, b],
        Expr::Cond(c, a, b) => vec![c, a, b],
        Expr::Call(_, args) => args.iter_mut().collect(),
    }
}
