//! The HIR contract (hir.rs doc comments), checked on every valid corpus program: operand
//! types agree after conversions, pointer arithmetic is scaled by the pointee size, calls
//! match their parameters, initialisers fit their variables, and sharity follows the rule of
//! docs/language.md §3 (an expression is shared only when all its parts are).

use fork_frontend::hir::*;
use fork_frontend::{check_file, Options};
use std::path::Path;

struct Validator<'a> {
    program: &'a Program,
    file: String,
    problems: Vec<String>,
}

impl Validator<'_> {
    fn fail(&mut self, e: &Expr, what: &str) {
        self.problems
            .push(format!("{}: {what} in {:?}", self.file, e.kind));
    }

    fn size(&self, ty: &Type) -> u64 {
        ty.size(&self.program.structs)
    }

    fn expect(&mut self, e: &Expr, ok: bool, what: &str) {
        if !ok {
            self.fail(e, what);
        }
    }

    fn expr(&mut self, e: &Expr) {
        let join = |a: &Expr, b: &Expr| a.sharity.join(b.sharity);
        match &e.kind {
            ExprKind::IntConst(_) => {
                self.expect(e, matches!(e.ty, Type::Int(_)), "integer constant type")
            }
            ExprKind::FloatConst(_) => {
                self.expect(e, matches!(e.ty, Type::Float(_)), "float constant type")
            }
            ExprKind::Str(_) => {
                self.expect(e, e.ty == Type::Ptr(Box::new(Type::CHAR)), "string type")
            }
            ExprKind::Var(v) => {
                let var = self.program.var(*v);
                self.expect(
                    e,
                    var.ty == e.ty && var.sharity == e.sharity,
                    "variable type/sharity",
                );
            }
            ExprKind::Deref(p) => {
                self.expr(p);
                self.expect(
                    e,
                    p.ty.pointee() == Some(&e.ty) && p.sharity == e.sharity,
                    "deref type",
                );
            }
            ExprKind::Member { base, field } => {
                self.expr(base);
                let ok = match &base.ty {
                    Type::Struct(id) => {
                        self.program.structs[id.0 as usize].fields[*field].ty == e.ty
                    }
                    _ => false,
                };
                self.expect(e, ok && base.sharity == e.sharity, "member type");
            }
            ExprKind::AddrOf(place) => {
                self.expr(place);
                self.expect(
                    e,
                    e.ty == Type::Ptr(Box::new(place.ty.clone())),
                    "address type",
                );
            }
            ExprKind::Decay(a) => {
                self.expr(a);
                let ok = matches!((&a.ty, &e.ty), (Type::Array(x, _), Type::Ptr(y)) if x == y);
                self.expect(e, ok, "decay type");
            }
            ExprKind::Convert(inner) => {
                self.expr(inner);
                let ok = inner.ty != e.ty
                    && inner.sharity == e.sharity
                    && (e.ty == Type::Void || (inner.ty.is_scalar() && e.ty.is_scalar()));
                self.expect(e, ok, "conversion");
            }
            ExprKind::Unary(op, inner) => {
                self.expr(inner);
                let ty_ok = if *op == UnOp::LogNot {
                    e.ty == Type::INT
                } else {
                    e.ty == inner.ty
                };
                self.expect(e, ty_ok && inner.sharity == e.sharity, "unary type");
            }
            ExprKind::Binary(op, a, b) => {
                self.expr(a);
                self.expect(e, a.ty == b.ty, "binary operands of different types");
                self.expr(b);
                let result = if op.is_comparison() {
                    Type::INT
                } else {
                    a.ty.clone()
                };
                self.expect(
                    e,
                    e.ty == result && e.sharity == join(a, b),
                    "binary result",
                );
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                self.expr(ptr);
                self.expr(index);
                let pointee = ptr.ty.pointee().map(|t| self.size(t));
                let ok = index.ty == Type::LONG && pointee == Some(*elem_size) && e.ty == ptr.ty;
                self.expect(e, ok && e.sharity == join(ptr, index), "pointer offset");
            }
            ExprKind::PtrDiff { a, b, elem_size } => {
                self.expr(a);
                self.expr(b);
                let pointee = a.ty.pointee().map(|t| self.size(t));
                self.expect(
                    e,
                    a.ty == b.ty && pointee == Some(*elem_size) && e.ty == Type::LONG,
                    "pointer difference",
                );
            }
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                self.expr(a);
                self.expr(b);
                let ok = e.ty == Type::INT && a.ty.is_scalar() && b.ty.is_scalar();
                self.expect(e, ok && e.sharity == join(a, b), "logical operator");
            }
            ExprKind::Cond(c, t, f) => {
                self.expr(c);
                self.expr(t);
                self.expr(f);
                let ok = t.ty == e.ty && f.ty == e.ty && c.ty.is_scalar();
                self.expect(
                    e,
                    ok && e.sharity == join(c, t).join(f.sharity),
                    "conditional",
                );
            }
            ExprKind::Assign { place, value } => {
                self.expr(place);
                self.expr(value);
                self.expect(
                    e,
                    place.ty == value.ty && e.ty == place.ty,
                    "assignment types",
                );
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                self.expr(place);
                self.expr(rhs);
                let ok = match op {
                    CompoundOp::Arith(_) => rhs.ty == *op_ty,
                    CompoundOp::PtrAdd { elem_size } | CompoundOp::PtrSub { elem_size } => {
                        rhs.ty == Type::LONG
                            && place.ty.pointee().map(|t| self.size(t)) == Some(*elem_size)
                    }
                };
                self.expect(e, ok && e.ty == place.ty, "compound assignment");
            }
            ExprKind::IncDec { place, .. } => {
                self.expr(place);
                self.expect(e, e.ty == place.ty && place.ty.is_scalar(), "increment");
            }
            ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b);
                self.expect(e, e.ty == b.ty, "comma type");
            }
            ExprKind::Call { func, args } => {
                let f = self.program.func(*func);
                let params: Vec<Type> = f
                    .params
                    .iter()
                    .map(|v| self.program.var(*v).ty.clone())
                    .collect();
                let ret = f.ret.clone();
                for a in args {
                    self.expr(a);
                }
                let arg_types: Vec<Type> = args.iter().map(|a| a.ty.clone()).collect();
                self.expect(
                    e,
                    arg_types == params && e.ty == ret && e.sharity == Sharity::Private,
                    "call",
                );
            }
            ExprKind::Builtin { op, args } => {
                for a in args {
                    self.expr(a);
                }
                if *op == Builtin::Printf {
                    self.expect(
                        e,
                        matches!(args.first().map(|a| &a.kind), Some(ExprKind::Str(_))),
                        "printf format",
                    );
                }
            }
            ExprKind::ProcNr | ExprKind::Dollar | ExprKind::DollarDollar => self.expect(
                e,
                e.sharity == Sharity::Private && e.ty == Type::INT,
                "private id",
            ),
            ExprKind::StartedProcs | ExprKind::At | ExprKind::GroupSize => self.expect(
                e,
                e.sharity == Sharity::Shared && e.ty == Type::INT,
                "shared id",
            ),
        }
    }

    fn init(&mut self, var: VarId, init: &[InitElem]) {
        let size = self.size(&self.program.var(var).ty);
        for elem in init {
            self.expr(&elem.value);
            let ok = elem.value.ty.is_scalar() && elem.offset + self.size(&elem.value.ty) <= size;
            self.expect(&elem.value, ok, "initialiser element outside its variable");
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Decl { var, init } => self.init(*var, init.as_deref().unwrap_or_default()),
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| self.stmt(s)),
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(els) = els {
                    self.stmt(els);
                }
            }
            StmtKind::Loop {
                cond, step, body, ..
            } => {
                cond.iter().chain(step).for_each(|e| self.expr(e));
                self.stmt(body);
            }
            StmtKind::Switch { cond, cases } => {
                self.expr(cond);
                cases
                    .iter()
                    .flat_map(|c| &c.body)
                    .for_each(|s| self.stmt(s));
            }
            StmtKind::Return(value) => value.iter().for_each(|e| self.expr(e)),
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => {
                self.expect(
                    count,
                    count.sharity == Sharity::Shared,
                    "fork count not shared",
                );
                [count, at]
                    .into_iter()
                    .chain(dollar)
                    .for_each(|e| self.expr(e));
                self.stmt(body);
            }
            StmtKind::Start(body) | StmtKind::Farm(body) | StmtKind::Seq(body) => self.stmt(body),
            StmtKind::Break | StmtKind::Continue | StmtKind::Barrier => {}
        }
    }
}

#[test]
fn valid_corpus_satisfies_the_hir_contract() {
    let dir = Path::new("tests/corpus/valid");
    let mut problems = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).expect("corpus") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "fork") {
            continue;
        }
        let Ok(result) = check_file(&path, &Options::default()) else {
            problems.push(format!("{} does not check", path.display()));
            continue;
        };
        let program = &result.program;
        let mut v = Validator {
            program,
            file: path.display().to_string(),
            problems: Vec::new(),
        };
        for g in &program.globals {
            v.init(g.var, g.init.as_deref().unwrap_or_default());
        }
        for f in &program.funcs {
            f.body.stmts.iter().for_each(|s| v.stmt(s));
        }
        problems.extend(v.problems);
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} programs");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
