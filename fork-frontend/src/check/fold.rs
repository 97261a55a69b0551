//! Constant folding: array sizes, `case` labels, enum values and global initialisers are
//! evaluated at compile time, and conversions of literals are folded where they are built.

use super::codes::*;
use super::Checker;
use crate::ast;
use crate::diag::Diagnostic;
use crate::hir::{BinOp, Expr, ExprKind, FloatKind, IntKind, Type, UnOp};

/// The compile-time value of an expression.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Folded {
    Int(i64),
    Float(f64),
    NotConst,
    DivByZero,
}

impl Checker {
    /// Checks `e` and folds it to an integer constant, reporting why it cannot be one.
    pub(super) fn const_int(&mut self, e: &ast::Expr, what: &str) -> Option<i64> {
        let checked = self.expr(e)?;
        if !super::types::is_integer(&checked.ty) {
            self.report(
                Diagnostic::error(
                    &E0308,
                    e.span,
                    format!("{what} must be an integer constant"),
                )
                .with_label(format!("this has type `{}`", self.type_str(&checked.ty)))
                .with_help("use an integer constant expression"),
            );
            return None;
        }
        match fold(&checked) {
            Folded::Int(v) => Some(v),
            Folded::DivByZero => {
                self.report(
                    Diagnostic::error(&E0313, e.span, format!("{what} divides by zero"))
                        .with_label("division by zero")
                        .with_help("fix the constant expression"),
                );
                None
            }
            _ => {
                self.report(
                    Diagnostic::error(
                        &E0308,
                        e.span,
                        format!("{what} must be a constant expression"),
                    )
                    .with_label("not known at compile time")
                    .with_help("use literals, `#define`d constants, enum constants and `sizeof`"),
                );
                None
            }
        }
    }
}

/// Wraps `v` to the range of `kind` (two's complement; unsigned values as bit patterns).
pub(super) fn wrap(v: i64, kind: IntKind) -> i64 {
    match kind {
        IntKind::I8 => v as i8 as i64,
        IntKind::U8 => v as u8 as i64,
        IntKind::I16 => v as i16 as i64,
        IntKind::U16 => v as u16 as i64,
        IntKind::I32 => v as i32 as i64,
        IntKind::U32 => v as u32 as i64,
        IntKind::I64 | IntKind::U64 => v,
    }
}

/// The constant `value` converted to `to`, when both are arithmetic.
pub(super) fn convert_const(value: Folded, from: &Type, to: &Type) -> Folded {
    match (value, to) {
        (Folded::Int(v), Type::Int(k)) => Folded::Int(wrap(v, *k)),
        (Folded::Int(v), Type::Float(fk)) => {
            let f = if matches!(from, Type::Int(IntKind::U64)) {
                v as u64 as f64
            } else {
                v as f64
            };
            Folded::Float(round_float(f, *fk))
        }
        (Folded::Float(f), Type::Int(k)) => Folded::Int(wrap(
            if *k == IntKind::U64 {
                f as u64 as i64
            } else {
                f as i64
            },
            *k,
        )),
        (Folded::Float(f), Type::Float(fk)) => Folded::Float(round_float(f, *fk)),
        _ => Folded::NotConst,
    }
}

fn round_float(f: f64, kind: FloatKind) -> f64 {
    match kind {
        FloatKind::F32 => f as f32 as f64,
        FloatKind::F64 => f,
    }
}

/// The value of a checked expression, if it is a compile-time constant.
pub(super) fn fold(e: &Expr) -> Folded {
    match &e.kind {
        ExprKind::IntConst(v) => Folded::Int(*v),
        ExprKind::FloatConst(f) => Folded::Float(*f),
        ExprKind::Convert(inner) => match fold(inner) {
            v @ (Folded::Int(_) | Folded::Float(_)) => convert_const(v, &inner.ty, &e.ty),
            other => other,
        },
        ExprKind::Unary(op, inner) => match (op, fold(inner)) {
            (UnOp::Neg, Folded::Int(v)) => int_result(v.wrapping_neg(), &e.ty),
            (UnOp::Neg, Folded::Float(f)) => Folded::Float(-f),
            (UnOp::BitNot, Folded::Int(v)) => int_result(!v, &e.ty),
            (UnOp::LogNot, Folded::Int(v)) => Folded::Int((v == 0) as i64),
            (UnOp::LogNot, Folded::Float(f)) => Folded::Int((f == 0.0) as i64),
            (_, other) => other,
        },
        ExprKind::Binary(op, a, b) => match (fold(a), fold(b)) {
            (Folded::Int(x), Folded::Int(y)) => fold_int_binary(*op, x, y, &a.ty, &e.ty),
            (Folded::Float(x), Folded::Float(y)) => fold_float_binary(*op, x, y, &e.ty),
            (Folded::DivByZero, _) | (_, Folded::DivByZero) => Folded::DivByZero,
            _ => Folded::NotConst,
        },
        ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
            let and = matches!(e.kind, ExprKind::LogAnd(..));
            match truth(fold(a)) {
                Some(t) if t != and => Folded::Int(t as i64),
                Some(_) => match truth(fold(b)) {
                    Some(t) => Folded::Int(t as i64),
                    None => Folded::NotConst,
                },
                None => Folded::NotConst,
            }
        }
        ExprKind::Cond(c, t, f) => match truth(fold(c)) {
            Some(true) => fold(t),
            Some(false) => fold(f),
            None => Folded::NotConst,
        },
        _ => Folded::NotConst,
    }
}

fn truth(v: Folded) -> Option<bool> {
    match v {
        Folded::Int(v) => Some(v != 0),
        Folded::Float(f) => Some(f != 0.0),
        _ => None,
    }
}

fn int_result(v: i64, ty: &Type) -> Folded {
    match ty {
        Type::Int(k) => Folded::Int(wrap(v, *k)),
        _ => Folded::NotConst,
    }
}

fn fold_int_binary(op: BinOp, x: i64, y: i64, operand: &Type, result: &Type) -> Folded {
    let unsigned = matches!(operand, Type::Int(k) if !k.signed());
    let (ux, uy) = (x as u64, y as u64);
    let v = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div | BinOp::Rem if y == 0 => return Folded::DivByZero,
        BinOp::Div if unsigned => (ux / uy) as i64,
        BinOp::Rem if unsigned => (ux % uy) as i64,
        BinOp::Div => x.wrapping_div(y),
        BinOp::Rem => x.wrapping_rem(y),
        BinOp::Shl => x.wrapping_shl(y as u32),
        BinOp::Shr if unsigned => (ux.wrapping_shr(y as u32)) as i64,
        BinOp::Shr => x.wrapping_shr(y as u32),
        BinOp::BitAnd => x & y,
        BinOp::BitOr => x | y,
        BinOp::BitXor => x ^ y,
        BinOp::Lt => (if unsigned { ux < uy } else { x < y }) as i64,
        BinOp::Le => (if unsigned { ux <= uy } else { x <= y }) as i64,
        BinOp::Gt => (if unsigned { ux > uy } else { x > y }) as i64,
        BinOp::Ge => (if unsigned { ux >= uy } else { x >= y }) as i64,
        BinOp::Eq => (x == y) as i64,
        BinOp::Ne => (x != y) as i64,
    };
    int_result(v, result)
}

fn fold_float_binary(op: BinOp, x: f64, y: f64, result: &Type) -> Folded {
    let v = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        BinOp::Lt => return Folded::Int((x < y) as i64),
        BinOp::Le => return Folded::Int((x <= y) as i64),
        BinOp::Gt => return Folded::Int((x > y) as i64),
        BinOp::Ge => return Folded::Int((x >= y) as i64),
        BinOp::Eq => return Folded::Int((x == y) as i64),
        BinOp::Ne => return Folded::Int((x != y) as i64),
        _ => return Folded::NotConst,
    };
    match result {
        Type::Float(k) => Folded::Float(round_float(v, *k)),
        _ => Folded::NotConst,
    }
}

#[cfg(test)]
mod tests {
    use super::{fold_int_binary, wrap, Folded};
    use crate::hir::{BinOp, IntKind, Type};

    #[test]
    fn integer_folding_respects_signedness_and_width() {
        let u32_ty = Type::Int(IntKind::U32);
        assert_eq!(wrap(300, IntKind::I8), 44);
        assert_eq!(wrap(-1, IntKind::U32), 0xffff_ffff);
        // -1 as unsigned is the largest value: 0xffffffff / 2 and 0xffffffff > 1.
        let minus_one = wrap(-1, IntKind::U32);
        assert_eq!(
            fold_int_binary(BinOp::Div, minus_one, 2, &u32_ty, &u32_ty),
            Folded::Int(0x7fff_ffff)
        );
        assert_eq!(
            fold_int_binary(BinOp::Gt, minus_one, 1, &u32_ty, &Type::INT),
            Folded::Int(1)
        );
        assert_eq!(
            fold_int_binary(BinOp::Div, -7, 2, &Type::INT, &Type::INT),
            Folded::Int(-3)
        );
        assert_eq!(
            fold_int_binary(BinOp::Rem, -7, 2, &Type::INT, &Type::INT),
            Folded::Int(-1)
        );
        assert_eq!(
            fold_int_binary(BinOp::Add, i32::MAX as i64, 1, &Type::INT, &Type::INT),
            Folded::Int(i32::MIN as i64)
        );
        assert_eq!(
            fold_int_binary(BinOp::Div, 1, 0, &Type::INT, &Type::INT),
            Folded::DivByZero
        );
    }
}
