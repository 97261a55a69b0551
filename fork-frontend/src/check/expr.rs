//! Expressions: typing with C's conversions made explicit (`Convert`, `Decay`), lvalues,
//! pointer arithmetic (`PtrOffset`, `PtrDiff`), `a[i]` → `*(a + i)`, `p->f` → `(*p).f`, and the
//! sharity of every expression (docs/language.md §3: shared only when every part is).

use super::codes::*;
use super::fold::{convert_const, fold, Folded};
use super::scope::Symbol;
use super::types::{is_arith, is_integer, promote, usual_arith};
use super::Checker;
use crate::ast::{self, BinaryOp, IncDec, UnaryOp};
use crate::diag::Diagnostic;
use crate::hir::{BinOp, CompoundOp, Expr, ExprKind, FloatKind, IntKind, Sharity, Type, UnOp};
use crate::source::Span;

/// The deepest expression the checker accepts (the parser's nesting limit).
const MAX_EXPR_DEPTH: u32 = 256;

pub(super) fn mk(kind: ExprKind, ty: Type, sharity: Sharity, span: Span) -> Expr {
    Expr {
        kind,
        ty,
        sharity,
        span,
    }
}

pub(super) fn int_const(v: i64, ty: Type, span: Span) -> Expr {
    mk(ExprKind::IntConst(v), ty, Sharity::Shared, span)
}

/// `e` converted to `to`: nothing when the types agree, a folded constant for arithmetic
/// literals, a `Convert` node otherwise.
pub(super) fn convert(e: Expr, to: &Type) -> Expr {
    if e.ty == *to {
        return e;
    }
    let value = match e.kind {
        ExprKind::IntConst(v) => Folded::Int(v),
        ExprKind::FloatConst(f) => Folded::Float(f),
        _ => Folded::NotConst,
    };
    match convert_const(value, &e.ty, to) {
        Folded::Int(v) => int_const(v, to.clone(), e.span),
        Folded::Float(f) => mk(ExprKind::FloatConst(f), to.clone(), Sharity::Shared, e.span),
        _ => {
            let (sharity, span) = (e.sharity, e.span);
            mk(ExprKind::Convert(Box::new(e)), to.clone(), sharity, span)
        }
    }
}

/// `e` itself, or the constant it folds to.
fn folded(e: Expr) -> Expr {
    match fold(&e) {
        Folded::Int(v) => int_const(v, e.ty, e.span),
        Folded::Float(f) => mk(ExprKind::FloatConst(f), e.ty, Sharity::Shared, e.span),
        _ => e,
    }
}

fn is_null_constant(e: &Expr) -> bool {
    is_integer(&e.ty) && fold(e) == Folded::Int(0)
}

fn is_lvalue(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Var(_) | ExprKind::Deref(_) => true,
        ExprKind::Member { base, .. } => is_lvalue(base),
        _ => false,
    }
}

/// The variable an lvalue is part of, when not reached through a pointer.
pub(super) fn root_var(e: &Expr) -> Option<crate::hir::VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Member { base, .. } => root_var(base),
        _ => None,
    }
}

/// The HIR operator of a C binary operator; `&&`/`||` are `LogAnd`/`LogOr` nodes instead.
fn binop(op: BinaryOp) -> Option<BinOp> {
    Some(match op {
        BinaryOp::Mul => BinOp::Mul,
        BinaryOp::Div => BinOp::Div,
        BinaryOp::Rem => BinOp::Rem,
        BinaryOp::Add => BinOp::Add,
        BinaryOp::Sub => BinOp::Sub,
        BinaryOp::Shl => BinOp::Shl,
        BinaryOp::Shr => BinOp::Shr,
        BinaryOp::Lt => BinOp::Lt,
        BinaryOp::Gt => BinOp::Gt,
        BinaryOp::Le => BinOp::Le,
        BinaryOp::Ge => BinOp::Ge,
        BinaryOp::Eq => BinOp::Eq,
        BinaryOp::Ne => BinOp::Ne,
        BinaryOp::BitAnd => BinOp::BitAnd,
        BinaryOp::BitXor => BinOp::BitXor,
        BinaryOp::BitOr => BinOp::BitOr,
        BinaryOp::LogAnd | BinaryOp::LogOr => return None,
    })
}

impl Checker {
    /// An expression as a value: arrays decay to pointers, functions cannot be values.
    pub(super) fn rvalue(&mut self, e: &ast::Expr) -> Option<Expr> {
        let checked = self.expr(e)?;
        Some(self.decay(checked))
    }

    pub(super) fn decay(&mut self, e: Expr) -> Expr {
        let Type::Array(elem, _) = &e.ty else {
            return e;
        };
        let ty = Type::Ptr(elem.clone());
        self.mark_addr_taken(&e);
        let (sharity, span) = (e.sharity, e.span);
        mk(ExprKind::Decay(Box::new(e)), ty, sharity, span)
    }

    fn mark_addr_taken(&mut self, e: &Expr) {
        if let Some(v) = root_var(e) {
            self.vars[v.0 as usize].addr_taken = true;
        }
    }

    /// A scalar value for a condition (`if`, loops, `!`, `&&`, `?:`).
    pub(super) fn condition(&mut self, e: &ast::Expr) -> Option<Expr> {
        let c = self.rvalue(e)?;
        if !c.ty.is_scalar() {
            self.report(
                Diagnostic::error(&E0301, e.span, "a condition must be a number or a pointer")
                    .with_label(format!("this has type `{}`", self.type_str(&c.ty)))
                    .with_help("compare a member or element instead"),
            );
            return None;
        }
        Some(c)
    }

    /// The implicit conversion of assignment, initialisation, argument passing and `return`.
    pub(super) fn assign_convert(&mut self, e: Expr, to: &Type, what: &str) -> Option<Expr> {
        let ok = match (&e.ty, to) {
            (Type::Void, _) => {
                self.report(
                    Diagnostic::error(&E0307, e.span, format!("a `void` value is used in {what}"))
                        .with_label("this has no value")
                        .with_help("use an expression that yields a value"),
                );
                return None;
            }
            (a, b) if a == b => true,
            (a, b) if is_arith(a) && is_arith(b) => true,
            (Type::Ptr(a), Type::Ptr(b)) => **a == Type::Void || **b == Type::Void,
            (_, Type::Ptr(_)) => is_null_constant(&e),
            _ => false,
        };
        if !ok {
            self.report(
                Diagnostic::error(
                    &E0302,
                    e.span,
                    format!(
                        "{what} needs `{}`, found `{}`",
                        self.type_str(to),
                        self.type_str(&e.ty)
                    ),
                )
                .with_label(format!("this has type `{}`", self.type_str(&e.ty)))
                .with_help("use a value of the right type, or an explicit cast"),
            );
            return None;
        }
        Some(convert(e, to))
    }

    /// Checks an expression; `None` after an error (already reported). Nesting is limited
    /// like the parser's, which bounds the recursion here and in every backend.
    pub(super) fn expr(&mut self, e: &ast::Expr) -> Option<Expr> {
        if self.expr_depth >= MAX_EXPR_DEPTH {
            // Once per outermost expression: its other deep operands are the same problem.
            if std::mem::replace(&mut self.too_deep_reported, true) {
                return None;
            }
            self.report(
                Diagnostic::error(
                    &E0318,
                    e.span,
                    format!("an expression nested more than {MAX_EXPR_DEPTH} levels deep"),
                )
                .with_label("too deep")
                .with_help("split the expression with helper variables"),
            );
            return None;
        }
        self.expr_depth += 1;
        let checked = self.expr_unlimited(e);
        self.expr_depth -= 1;
        if self.expr_depth == 0 {
            self.too_deep_reported = false;
        }
        checked
    }

    fn expr_unlimited(&mut self, e: &ast::Expr) -> Option<Expr> {
        let span = e.span;
        let shared = Sharity::Shared;
        Some(match &e.kind {
            ast::ExprKind::IntLit {
                value,
                unsigned,
                long,
                decimal,
            } => {
                // C11 6.4.4.1: the first type of its list the value fits in.
                let v = *value;
                let ty = if !unsigned && !long && v <= i32::MAX as u64 {
                    Type::INT
                } else if !long && v <= u32::MAX as u64 && (*unsigned || !decimal) {
                    Type::Int(IntKind::U32)
                } else if !unsigned && v <= i64::MAX as u64 {
                    Type::LONG
                } else {
                    Type::Int(IntKind::U64)
                };
                int_const(v as i64, ty, span)
            }
            ast::ExprKind::FloatLit { value, single } => {
                let (v, ty) = if *single {
                    (*value as f32 as f64, Type::Float(FloatKind::F32))
                } else {
                    (*value, Type::DOUBLE)
                };
                mk(ExprKind::FloatConst(v), ty, shared, span)
            }
            ast::ExprKind::CharLit(c) => int_const(*c as i8 as i64, Type::INT, span),
            ast::ExprKind::StrLit(bytes) => {
                let id = self.intern_string(bytes);
                mk(
                    ExprKind::Str(id),
                    Type::Ptr(Box::new(Type::CHAR)),
                    shared,
                    span,
                )
            }
            ast::ExprKind::Ident(name) => {
                return self.ident(&ast::Ident {
                    name: name.clone(),
                    span,
                })
            }
            ast::ExprKind::Dollar => mk(ExprKind::Dollar, Type::INT, Sharity::Private, span),
            ast::ExprKind::DollarDollar => {
                mk(ExprKind::DollarDollar, Type::INT, Sharity::Private, span)
            }
            ast::ExprKind::At => mk(ExprKind::At, Type::INT, shared, span),
            ast::ExprKind::Unary(op, inner) => return self.unary(*op, inner, span),
            ast::ExprKind::Prefix(op, place) | ast::ExprKind::Postfix(op, place) => {
                let prefix = matches!(e.kind, ast::ExprKind::Prefix(..));
                let place = self.expr(place)?;
                self.require_modifiable(&place, "incremented or decremented")?;
                if !place.ty.is_scalar() || place.ty == Type::Ptr(Box::new(Type::Void)) {
                    return self.bad_operand(&place, "`++`/`--` needs a number or a typed pointer");
                }
                let (ty, sharity) = (place.ty.clone(), place.sharity);
                mk(
                    ExprKind::IncDec {
                        place: Box::new(place),
                        inc: *op == IncDec::Inc,
                        prefix,
                    },
                    ty,
                    sharity,
                    span,
                )
            }
            ast::ExprKind::Binary(op, a, b) => return self.binary(*op, a, b, span),
            ast::ExprKind::Assign(op, place, value) => return self.assign(*op, place, value, span),
            ast::ExprKind::Cond(c, t, f) => return self.conditional(c, t, f, span),
            ast::ExprKind::Comma(a, b) => {
                let (a, b) = (self.rvalue(a), self.rvalue(b));
                let (a, b) = (a?, b?);
                let (ty, sharity) = (b.ty.clone(), a.sharity.join(b.sharity));
                mk(ExprKind::Comma(Box::new(a), Box::new(b)), ty, sharity, span)
            }
            ast::ExprKind::Call(callee, args) => return self.call(callee, args, span),
            ast::ExprKind::Index(a, i) => return self.index(a, i, span),
            ast::ExprKind::Member(base, field) => {
                let base = self.expr(base)?;
                return self.member(base, field, span);
            }
            ast::ExprKind::Arrow(ptr, field) => {
                let ptr = self.rvalue(ptr)?;
                if !matches!(ptr.ty.pointee(), Some(Type::Struct(_))) {
                    return self.bad_operand(&ptr, "`->` needs a pointer to a struct");
                }
                let base = self.deref(ptr, span)?;
                return self.member(base, field, span);
            }
            ast::ExprKind::Cast(tn, inner) => return self.cast(tn, inner, span),
            ast::ExprKind::SizeofExpr(inner) => {
                let inner = self.expr(inner)?;
                return self.size_of(&inner.ty, span);
            }
            ast::ExprKind::SizeofType(tn) => {
                let ty = self.type_name(tn)?;
                return self.size_of(&ty, span);
            }
        })
    }

    fn ident(&mut self, ident: &ast::Ident) -> Option<Expr> {
        let span = ident.span;
        match ident.name.as_str() {
            "__PROC_NR__" => return Some(mk(ExprKind::ProcNr, Type::INT, Sharity::Private, span)),
            "__STARTED_PROCS__" => {
                return Some(mk(ExprKind::StartedProcs, Type::INT, Sharity::Shared, span))
            }
            _ => {}
        }
        match self.scopes.lookup(&ident.name).cloned() {
            Some((Symbol::Var(v), _)) => {
                let var = &self.vars[v.0 as usize];
                Some(mk(ExprKind::Var(v), var.ty.clone(), var.sharity, span))
            }
            Some((Symbol::EnumConst(value), _)) => Some(int_const(value, Type::INT, span)),
            Some((Symbol::Func(_), _)) => {
                self.report(
                    Diagnostic::error(
                        &E0315,
                        span,
                        format!("the function `{}` is used as a value", ident.name),
                    )
                    .with_label("not called")
                    .with_help(format!(
                        "call it: `{}(...)`; forkcc has no function pointers",
                        ident.name
                    )),
                );
                None
            }
            Some((Symbol::Typedef(_), _)) => {
                self.report(
                    Diagnostic::error(
                        &E0301,
                        span,
                        format!("`{}` is a type name, not a value", ident.name),
                    )
                    .with_label("type name")
                    .with_help("use a variable here"),
                );
                None
            }
            None => {
                if super::builtins::NAMES.contains(&ident.name.as_str()) {
                    self.report(
                        Diagnostic::error(
                            &E0315,
                            span,
                            format!("the built-in `{}` is used as a value", ident.name),
                        )
                        .with_label("not called")
                        .with_help(format!("call it: `{}(...)`", ident.name)),
                    );
                } else {
                    self.undefined(ident, "variable");
                }
                None
            }
        }
    }

    fn bad_operand(&mut self, operand: &Expr, what: &str) -> Option<Expr> {
        self.report(
            Diagnostic::error(&E0301, operand.span, what.to_string())
                .with_label(format!("this has type `{}`", self.type_str(&operand.ty)))
                .with_help("use an operand of a suitable type, or cast it"),
        );
        None
    }

    /// Checks that `place` can be assigned.
    pub(super) fn require_modifiable(&mut self, place: &Expr, what: &str) -> Option<()> {
        let read_only = match &place.kind {
            ExprKind::Dollar => Some("`$`"),
            ExprKind::DollarDollar => Some("`$$`"),
            ExprKind::At => Some("`@`"),
            ExprKind::ProcNr => Some("`__PROC_NR__`"),
            ExprKind::StartedProcs => Some("`__STARTED_PROCS__`"),
            ExprKind::GroupSize => Some("`groupsize()`"),
            _ => None,
        };
        if let Some(name) = read_only {
            self.report(
                Diagnostic::error(
                    &E0304,
                    place.span,
                    format!("{name} is read-only and cannot be {what}"),
                )
                .with_label("read-only")
                .with_help("`$` and `@` are set only by `fork`; copy the value into a variable"),
            );
            return None;
        }
        if !is_lvalue(place) {
            self.report(
                Diagnostic::error(
                    &E0303,
                    place.span,
                    format!("this expression cannot be {what}"),
                )
                .with_label("not an lvalue")
                .with_help("use a variable, `*p`, `a[i]` or `s.f`"),
            );
            return None;
        }
        if matches!(place.ty, Type::Array(..)) {
            self.report(
                Diagnostic::error(
                    &E0305,
                    place.span,
                    format!("an array cannot be {what} as a whole"),
                )
                .with_label(format!("this has type `{}`", self.type_str(&place.ty)))
                .with_help("assign the elements one by one, e.g. in a loop"),
            );
            return None;
        }
        if let Some(v) = root_var(place).filter(|v| self.var_const[v.0 as usize]) {
            let var = &self.vars[v.0 as usize];
            let (name, decl) = (var.name.clone(), var.span);
            self.report(
                Diagnostic::error(
                    &E0304,
                    place.span,
                    format!("`{name}` is `const` and cannot be {what}"),
                )
                .with_label("read-only")
                .with_note(decl, "declared `const` here")
                .with_help("remove `const` from the declaration, or use another variable"),
            );
            return None;
        }
        Some(())
    }

    fn unary(&mut self, op: UnaryOp, inner: &ast::Expr, span: Span) -> Option<Expr> {
        match op {
            UnaryOp::AddrOf => {
                let place = self.expr(inner)?;
                if !is_lvalue(&place) {
                    self.report(
                        Diagnostic::error(&E0303, place.span, "`&` needs an object in memory")
                            .with_label("not an lvalue")
                            .with_help("take the address of a variable, `a[i]` or `s.f`"),
                    );
                    return None;
                }
                self.mark_addr_taken(&place);
                let (ty, sharity) = (Type::Ptr(Box::new(place.ty.clone())), place.sharity);
                Some(mk(ExprKind::AddrOf(Box::new(place)), ty, sharity, span))
            }
            UnaryOp::Deref => {
                let ptr = self.rvalue(inner)?;
                self.deref(ptr, span)
            }
            UnaryOp::Not => {
                let c = self.condition(inner)?;
                let sharity = c.sharity;
                Some(folded(mk(
                    ExprKind::Unary(UnOp::LogNot, Box::new(c)),
                    Type::INT,
                    sharity,
                    span,
                )))
            }
            UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot => {
                let v = self.rvalue(inner)?;
                let ok = if op == UnaryOp::BitNot {
                    is_integer(&v.ty)
                } else {
                    is_arith(&v.ty)
                };
                if !ok {
                    let what = if op == UnaryOp::BitNot {
                        "`~` needs an integer"
                    } else {
                        "unary `-`/`+` needs a number"
                    };
                    return self.bad_operand(&v, what);
                }
                let ty = promote(&v.ty);
                let v = convert(v, &ty);
                let sharity = v.sharity;
                let un = match op {
                    UnaryOp::Plus => return Some(v),
                    UnaryOp::Neg => UnOp::Neg,
                    _ => UnOp::BitNot,
                };
                Some(folded(mk(
                    ExprKind::Unary(un, Box::new(v)),
                    ty,
                    sharity,
                    span,
                )))
            }
        }
    }

    /// `*p`: an lvalue of the pointee type, shared when the pointer is.
    fn deref(&mut self, ptr: Expr, span: Span) -> Option<Expr> {
        let pointee = match ptr.ty.pointee() {
            Some(Type::Void) => {
                self.report(
                    Diagnostic::error(&E0307, ptr.span, "a `void *` cannot be dereferenced")
                        .with_label("pointer to `void`")
                        .with_help("cast it to a typed pointer first"),
                );
                return None;
            }
            Some(t) => t.clone(),
            None => return self.bad_operand(&ptr, "`*` needs a pointer"),
        };
        let sharity = ptr.sharity;
        Some(mk(ExprKind::Deref(Box::new(ptr)), pointee, sharity, span))
    }

    fn member(&mut self, base: Expr, field: &ast::Ident, span: Span) -> Option<Expr> {
        let Type::Struct(id) = base.ty else {
            return self.bad_operand(&base, "`.` needs a struct");
        };
        if !self.require_object(&base.ty, base.span, "this expression") {
            return None;
        }
        if !is_lvalue(&base) {
            self.report(
                Diagnostic::error(
                    &E0317,
                    base.span,
                    "a member of a struct value that is not in memory",
                )
                .with_label("struct value")
                .with_help("store the struct in a variable first"),
            );
            return None;
        }
        let def = &self.structs[id.0 as usize];
        let Some(index) = def.fields.iter().position(|f| f.name == field.name) else {
            let name = def.name.clone();
            let close =
                super::scope::closest(&field.name, def.fields.iter().map(|f| f.name.as_str()));
            let d = Diagnostic::error(
                &E0205,
                field.span,
                format!("`struct {name}` has no member `{}`", field.name),
            )
            .with_label("unknown member")
            .with_note(def.span, "struct defined here");
            self.report(match close {
                Some(c) => d.with_help(format!("did you mean `{c}`?")),
                None => d.with_help("use one of the struct's members"),
            });
            return None;
        };
        let (ty, sharity) = (def.fields[index].ty.clone(), base.sharity);
        Some(mk(
            ExprKind::Member {
                base: Box::new(base),
                field: index,
            },
            ty,
            sharity,
            span,
        ))
    }

    /// `a[i]` is `*(a + i)`.
    fn index(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> Option<Expr> {
        let (a, i) = (self.rvalue(a), self.rvalue(i));
        let (mut a, mut i) = (a?, i?);
        if is_integer(&a.ty) && matches!(i.ty, Type::Ptr(_)) {
            std::mem::swap(&mut a, &mut i);
        }
        if !matches!(a.ty, Type::Ptr(_)) {
            return self.bad_operand(&a, "`[]` needs an array or a pointer");
        }
        if !is_integer(&i.ty) {
            return self.bad_operand(&i, "an array index must be an integer");
        }
        let ptr = self.ptr_offset(a, i, false, span)?;
        self.deref(ptr, span)
    }

    /// `ptr + index` (or `- index`), scaled by the element size.
    fn ptr_offset(&mut self, ptr: Expr, index: Expr, negate: bool, span: Span) -> Option<Expr> {
        let elem_size = self.elem_size(&ptr)?;
        let mut index = convert(index, &Type::LONG);
        if negate {
            let sharity = index.sharity;
            index = match index.kind {
                ExprKind::IntConst(v) => int_const(v.wrapping_neg(), Type::LONG, index.span),
                _ => mk(
                    ExprKind::Unary(UnOp::Neg, Box::new(index)),
                    Type::LONG,
                    sharity,
                    span,
                ),
            };
        }
        let (ty, sharity) = (ptr.ty.clone(), ptr.sharity.join(index.sharity));
        Some(mk(
            ExprKind::PtrOffset {
                ptr: Box::new(ptr),
                index: Box::new(index),
                elem_size,
            },
            ty,
            sharity,
            span,
        ))
    }

    /// The size of what a pointer points to, for pointer arithmetic.
    fn elem_size(&mut self, ptr: &Expr) -> Option<u64> {
        let pointee = ptr.ty.pointee().cloned().unwrap_or(Type::Void);
        if pointee == Type::Void {
            self.report(
                Diagnostic::error(&E0301, ptr.span, "arithmetic on a `void *`")
                    .with_label("pointer to `void`")
                    .with_help("cast it to a typed pointer first"),
            );
            return None;
        }
        if !self.require_object(&pointee, ptr.span, "a pointer's target") {
            return None;
        }
        Some(pointee.size(&self.structs))
    }

    fn binary(&mut self, op: BinaryOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Option<Expr> {
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            let (a, b) = (self.condition(a), self.condition(b));
            let (a, b) = (a?, b?);
            let sharity = a.sharity.join(b.sharity);
            let kind = if op == BinaryOp::LogAnd {
                ExprKind::LogAnd(Box::new(a), Box::new(b))
            } else {
                ExprKind::LogOr(Box::new(a), Box::new(b))
            };
            return Some(mk(kind, Type::INT, sharity, span));
        }
        let (a, b) = (self.rvalue(a), self.rvalue(b));
        let (a, b) = (a?, b?);
        let sym = op.symbol();
        match op {
            BinaryOp::Add | BinaryOp::Sub if matches!(a.ty, Type::Ptr(_)) && is_integer(&b.ty) => {
                self.ptr_offset(a, b, op == BinaryOp::Sub, span)
            }
            BinaryOp::Add if is_integer(&a.ty) && matches!(b.ty, Type::Ptr(_)) => {
                self.ptr_offset(b, a, false, span)
            }
            BinaryOp::Sub if matches!(a.ty, Type::Ptr(_)) && matches!(b.ty, Type::Ptr(_)) => {
                if a.ty != b.ty {
                    return self.mismatch(sym, &a, &b);
                }
                let elem_size = self.elem_size(&a)?;
                let sharity = a.sharity.join(b.sharity);
                Some(mk(
                    ExprKind::PtrDiff {
                        a: Box::new(a),
                        b: Box::new(b),
                        elem_size,
                    },
                    Type::LONG,
                    sharity,
                    span,
                ))
            }
            BinaryOp::Lt
            | BinaryOp::Gt
            | BinaryOp::Le
            | BinaryOp::Ge
            | BinaryOp::Eq
            | BinaryOp::Ne
                if matches!(a.ty, Type::Ptr(_)) || matches!(b.ty, Type::Ptr(_)) =>
            {
                let common = match (&a.ty, &b.ty) {
                    (x, y) if x == y => x.clone(),
                    (Type::Ptr(x), y @ Type::Ptr(_)) if **x == Type::Void => y.clone(),
                    (x @ Type::Ptr(_), Type::Ptr(y)) if **y == Type::Void => x.clone(),
                    (Type::Ptr(_), _) if is_null_constant(&b) => a.ty.clone(),
                    (_, Type::Ptr(_)) if is_null_constant(&a) => b.ty.clone(),
                    _ => return self.mismatch(sym, &a, &b),
                };
                Some(self.make_binary(
                    binop(op)?,
                    convert(a, &common),
                    convert(b, &common),
                    Type::INT,
                    span,
                ))
            }
            _ => {
                let integer_only = matches!(
                    op,
                    BinaryOp::Rem
                        | BinaryOp::Shl
                        | BinaryOp::Shr
                        | BinaryOp::BitAnd
                        | BinaryOp::BitOr
                        | BinaryOp::BitXor
                );
                let fits = |t: &Type| {
                    if integer_only {
                        is_integer(t)
                    } else {
                        is_arith(t)
                    }
                };
                if !fits(&a.ty) || !fits(&b.ty) {
                    return self.mismatch(sym, &a, &b);
                }
                let operand_ty = if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
                    promote(&a.ty)
                } else {
                    usual_arith(&a.ty, &b.ty)
                };
                let op = binop(op)?;
                let result = if op.is_comparison() {
                    Type::INT
                } else {
                    operand_ty.clone()
                };
                Some(self.make_binary(
                    op,
                    convert(a, &operand_ty),
                    convert(b, &operand_ty),
                    result,
                    span,
                ))
            }
        }
    }

    /// A binary node, folded when both operands are constants.
    fn make_binary(&mut self, op: BinOp, a: Expr, b: Expr, ty: Type, span: Span) -> Expr {
        let sharity = a.sharity.join(b.sharity);
        folded(mk(
            ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
            sharity,
            span,
        ))
    }

    fn mismatch(&mut self, sym: &str, a: &Expr, b: &Expr) -> Option<Expr> {
        self.report(
            Diagnostic::error(
                &E0301,
                a.span.to(b.span),
                format!(
                    "`{sym}` cannot be applied to `{}` and `{}`",
                    self.type_str(&a.ty),
                    self.type_str(&b.ty)
                ),
            )
            .with_label("invalid operands")
            .with_help("convert the operands to suitable types"),
        );
        None
    }

    fn assign(
        &mut self,
        op: Option<BinaryOp>,
        place: &ast::Expr,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Expr> {
        let (place, rhs) = (self.expr(place), self.rvalue(value));
        let (place, rhs) = (place?, rhs?);
        self.require_modifiable(&place, "assigned")?;
        let (ty, sharity) = (place.ty.clone(), place.sharity.join(rhs.sharity));
        let Some(op) = op else {
            let value = self.assign_convert(rhs, &ty, "this assignment")?;
            self.check_shared_write(&place, &value, span);
            return Some(mk(
                ExprKind::Assign {
                    place: Box::new(place),
                    value: Box::new(value),
                },
                ty,
                sharity,
                span,
            ));
        };
        let sym = op.symbol();
        let (op, rhs, op_ty) = match op {
            BinaryOp::Add | BinaryOp::Sub
                if matches!(place.ty, Type::Ptr(_)) && is_integer(&rhs.ty) =>
            {
                let elem_size = self.elem_size(&place)?;
                let op = if op == BinaryOp::Add {
                    CompoundOp::PtrAdd { elem_size }
                } else {
                    CompoundOp::PtrSub { elem_size }
                };
                (op, convert(rhs, &Type::LONG), ty.clone())
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
                if is_arith(&place.ty) && is_arith(&rhs.ty) =>
            {
                let op_ty = usual_arith(&place.ty, &rhs.ty);
                (CompoundOp::Arith(binop(op)?), convert(rhs, &op_ty), op_ty)
            }
            BinaryOp::Shl | BinaryOp::Shr if is_integer(&place.ty) && is_integer(&rhs.ty) => {
                let op_ty = promote(&place.ty);
                (CompoundOp::Arith(binop(op)?), convert(rhs, &op_ty), op_ty)
            }
            BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor
                if is_integer(&place.ty) && is_integer(&rhs.ty) =>
            {
                let op_ty = usual_arith(&place.ty, &rhs.ty);
                (CompoundOp::Arith(binop(op)?), convert(rhs, &op_ty), op_ty)
            }
            _ => return self.mismatch(&format!("{sym}="), &place, &rhs),
        };
        self.check_shared_write(&place, &rhs, span);
        Some(mk(
            ExprKind::CompoundAssign {
                place: Box::new(place),
                op,
                rhs: Box::new(rhs),
                op_ty,
            },
            ty,
            sharity,
            span,
        ))
    }

    fn conditional(
        &mut self,
        c: &ast::Expr,
        t: &ast::Expr,
        f: &ast::Expr,
        span: Span,
    ) -> Option<Expr> {
        let (c, t, f) = (self.condition(c), self.rvalue(t), self.rvalue(f));
        let (c, t, f) = (c?, t?, f?);
        let ty = match (&t.ty, &f.ty) {
            (x, y) if is_arith(x) && is_arith(y) => usual_arith(x, y),
            (x, y) if x == y => x.clone(),
            (Type::Ptr(x), y @ Type::Ptr(_)) if **x == Type::Void => y.clone(),
            (x @ Type::Ptr(_), Type::Ptr(y)) if **y == Type::Void => x.clone(),
            (Type::Ptr(_), _) if is_null_constant(&f) => t.ty.clone(),
            (_, Type::Ptr(_)) if is_null_constant(&t) => f.ty.clone(),
            _ => return self.mismatch("?:", &t, &f),
        };
        if matches!(ty, Type::Struct(_)) {
            self.report(
                Diagnostic::error(&E0317, span, "`?:` on struct values is not supported")
                    .with_label("struct values")
                    .with_help("use `if`/`else` with assignments, or pointers to the structs"),
            );
            return None;
        }
        let sharity = c.sharity.join(t.sharity).join(f.sharity);
        let (t, f) = (convert(t, &ty), convert(f, &ty));
        Some(mk(
            ExprKind::Cond(Box::new(c), Box::new(t), Box::new(f)),
            ty,
            sharity,
            span,
        ))
    }

    fn cast(&mut self, tn: &ast::TypeName, inner: &ast::Expr, span: Span) -> Option<Expr> {
        let (to, v) = (self.type_name(tn), self.rvalue(inner));
        let (to, v) = (to?, v?);
        let ok = match (&v.ty, &to) {
            (_, Type::Void) => true,
            (a, b) if a == b => true,
            (a, b) if is_arith(a) && is_arith(b) => true,
            (Type::Ptr(_), Type::Ptr(_)) => true,
            (Type::Ptr(_), b) | (b, Type::Ptr(_)) => is_integer(b),
            _ => false,
        };
        if !ok {
            self.report(
                Diagnostic::error(
                    &E0314,
                    span,
                    format!(
                        "cannot cast `{}` to `{}`",
                        self.type_str(&v.ty),
                        self.type_str(&to)
                    ),
                )
                .with_label("invalid cast")
                .with_help("casts convert numbers and pointers; convert struct members one by one"),
            );
            return None;
        }
        let mut e = convert(v, &to);
        e.span = span;
        Some(e)
    }

    fn size_of(&mut self, ty: &Type, span: Span) -> Option<Expr> {
        if !self.require_object(ty, span, "the operand of `sizeof`") {
            return None;
        }
        Some(int_const(
            ty.size(&self.structs) as i64,
            Type::Int(IntKind::U64),
            span,
        ))
    }
}
