//! Values as 64-bit words: integers sign/zero-extended from their C type, floats as f64 bits
//! (a `float` is an f64 rounded to f32 precision), pointers as fat pointers (see `memory`).
//! The static type from the HIR picks the operation; every operation works on a whole vector
//! of lanes so its dispatch is paid once per node per group.

use crate::memory;
use fork_frontend::hir::{BinOp, FloatKind, IntKind, MpOp, Type};

/// How a value of a type is held and stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scalar {
    Int(IntKind),
    F32,
    F64,
    Ptr,
    /// Arrays and structs: the value is the address of the object; stores copy `size` bytes.
    Aggregate(u64),
    Void,
}

impl Scalar {
    #[inline]
    pub fn of(ty: &Type, structs: &[fork_frontend::hir::StructDef]) -> Scalar {
        match ty {
            Type::Int(k) => Scalar::Int(*k),
            Type::Float(FloatKind::F32) => Scalar::F32,
            Type::Float(FloatKind::F64) => Scalar::F64,
            Type::Ptr(_) => Scalar::Ptr,
            Type::Array(..) | Type::Struct(_) => Scalar::Aggregate(ty.size(structs)),
            Type::Void => Scalar::Void,
        }
    }

    /// Bytes a load or store of this scalar touches.
    pub fn size(self) -> u64 {
        match self {
            Scalar::Int(k) => k.bytes(),
            Scalar::F32 => 4,
            Scalar::F64 | Scalar::Ptr => 8,
            Scalar::Aggregate(n) => n,
            Scalar::Void => 0,
        }
    }

    /// The word held for `raw`, the little-endian bytes read from memory (zero-extended).
    pub fn from_raw(self, raw: u64) -> u64 {
        match self {
            Scalar::Int(k) => norm_int(k, raw),
            Scalar::F32 => (f32::from_bits(raw as u32) as f64).to_bits(),
            _ => raw,
        }
    }

    /// The bytes (little-endian, in the low `size` bytes) stored for `word`.
    pub fn to_raw(self, word: u64) -> u64 {
        match self {
            Scalar::F32 => (f64::from_bits(word) as f32).to_bits() as u64,
            _ => word,
        }
    }
}

/// Truncates `v` to `k` and extends it back to 64 bits by `k`'s signedness.
#[inline]
pub fn norm_int(k: IntKind, v: u64) -> u64 {
    match k {
        IntKind::I8 => v as i8 as i64 as u64,
        IntKind::U8 => v as u8 as u64,
        IntKind::I16 => v as i16 as i64 as u64,
        IntKind::U16 => v as u16 as u64,
        IntKind::I32 => v as i32 as i64 as u64,
        IntKind::U32 => v as u32 as u64,
        IntKind::I64 | IntKind::U64 => v,
    }
}

fn norm_slice(k: IntKind, vals: &mut [u64]) {
    match k {
        IntKind::I8 => vals.iter_mut().for_each(|v| *v = *v as i8 as i64 as u64),
        IntKind::U8 => vals.iter_mut().for_each(|v| *v = *v as u8 as u64),
        IntKind::I16 => vals.iter_mut().for_each(|v| *v = *v as i16 as i64 as u64),
        IntKind::U16 => vals.iter_mut().for_each(|v| *v = *v as u16 as u64),
        IntKind::I32 => vals.iter_mut().for_each(|v| *v = *v as i32 as i64 as u64),
        IntKind::U32 => vals.iter_mut().for_each(|v| *v = *v as u32 as u64),
        IntKind::I64 | IntKind::U64 => {}
    }
}

#[inline]
pub fn f(v: u64) -> f64 {
    f64::from_bits(v)
}

#[inline]
pub fn fw(x: f64) -> u64 {
    x.to_bits()
}

/// C truth of a word of type `s`.
#[inline]
pub fn truth(s: Scalar, v: u64) -> bool {
    match s {
        Scalar::F32 | Scalar::F64 => f(v) != 0.0,
        _ => v != 0,
    }
}

/// Converts every word from `from` to `to` in place (C conversion rules; out-of-range float to
/// integer saturates).
pub fn convert_slice(vals: &mut [u64], from: Scalar, to: Scalar) {
    match (from, to) {
        (Scalar::Int(_), Scalar::Int(k)) => norm_slice(k, vals),
        (Scalar::Int(k), Scalar::F64 | Scalar::F32) => {
            let round = to == Scalar::F32;
            for v in vals.iter_mut() {
                let x = if k.signed() {
                    *v as i64 as f64
                } else {
                    *v as f64
                };
                *v = fw(if round { x as f32 as f64 } else { x });
            }
        }
        (Scalar::F32 | Scalar::F64, Scalar::Int(k)) => {
            for v in vals.iter_mut() {
                let x = f(*v);
                *v = if k.signed() {
                    x as i64 as u64
                } else {
                    x as u64
                };
            }
            norm_slice(k, vals);
        }
        (Scalar::F64, Scalar::F32) => vals.iter_mut().for_each(|v| *v = fw(f(*v) as f32 as f64)),
        (_, Scalar::Void) => vals.iter_mut().for_each(|v| *v = 0),
        (Scalar::Ptr, Scalar::Int(k)) => norm_slice(k, vals),
        _ => {}
    }
}

/// Ordering key of a pointer: object first, then the signed offset.
#[inline]
fn ptr_key(p: u64) -> i64 {
    ((memory::object_of(p) as i64) << 32) + memory::offset_of(p)
}

/// `a[i] = a[i] op b[i]` for operands of type `s` (comparisons leave 0/1). Returns the index of
/// the first lane that divides by zero.
pub fn binop_slice(op: BinOp, s: Scalar, a: &mut [u64], b: &[u64]) -> Result<(), usize> {
    macro_rules! each {
        (|$x:ident, $y:ident| $e:expr) => {
            for (slot, &$y) in a.iter_mut().zip(b) {
                let $x = *slot;
                *slot = $e;
            }
        };
    }
    match s {
        Scalar::Int(k) => {
            if matches!(op, BinOp::Div | BinOp::Rem) {
                if let Some(i) = b.iter().position(|&y| y == 0) {
                    return Err(i);
                }
            }
            let signed = k.signed();
            let bits = (k.bytes() * 8) as u32;
            match op {
                BinOp::Add => each!(|x, y| x.wrapping_add(y)),
                BinOp::Sub => each!(|x, y| x.wrapping_sub(y)),
                BinOp::Mul => each!(|x, y| x.wrapping_mul(y)),
                BinOp::Div if signed => each!(|x, y| (x as i64).wrapping_div(y as i64) as u64),
                BinOp::Div => each!(|x, y| x / y),
                BinOp::Rem if signed => each!(|x, y| (x as i64).wrapping_rem(y as i64) as u64),
                BinOp::Rem => each!(|x, y| x % y),
                BinOp::Shl => each!(|x, y| x.wrapping_shl(y as u32 % bits)),
                BinOp::Shr if signed => each!(|x, y| ((x as i64) >> (y as u32 % bits)) as u64),
                BinOp::Shr => each!(|x, y| x >> (y as u32 % bits)),
                BinOp::BitAnd => each!(|x, y| x & y),
                BinOp::BitOr => each!(|x, y| x | y),
                BinOp::BitXor => each!(|x, y| x ^ y),
                BinOp::Eq => each!(|x, y| (x == y) as u64),
                BinOp::Ne => each!(|x, y| (x != y) as u64),
                BinOp::Lt if signed => each!(|x, y| ((x as i64) < (y as i64)) as u64),
                BinOp::Le if signed => each!(|x, y| ((x as i64) <= (y as i64)) as u64),
                BinOp::Gt if signed => each!(|x, y| ((x as i64) > (y as i64)) as u64),
                BinOp::Ge if signed => each!(|x, y| ((x as i64) >= (y as i64)) as u64),
                BinOp::Lt => each!(|x, y| (x < y) as u64),
                BinOp::Le => each!(|x, y| (x <= y) as u64),
                BinOp::Gt => each!(|x, y| (x > y) as u64),
                BinOp::Ge => each!(|x, y| (x >= y) as u64),
            }
            if !op.is_comparison() {
                norm_slice(k, a);
            }
        }
        Scalar::F32 | Scalar::F64 => {
            let round = s == Scalar::F32;
            match op {
                BinOp::Add => each!(|x, y| fw(f(x) + f(y))),
                BinOp::Sub => each!(|x, y| fw(f(x) - f(y))),
                BinOp::Mul => each!(|x, y| fw(f(x) * f(y))),
                BinOp::Div => each!(|x, y| fw(f(x) / f(y))),
                BinOp::Rem => each!(|x, y| fw(f(x) % f(y))),
                BinOp::Eq => each!(|x, y| (f(x) == f(y)) as u64),
                BinOp::Ne => each!(|x, y| (f(x) != f(y)) as u64),
                BinOp::Lt => each!(|x, y| (f(x) < f(y)) as u64),
                BinOp::Le => each!(|x, y| (f(x) <= f(y)) as u64),
                BinOp::Gt => each!(|x, y| (f(x) > f(y)) as u64),
                BinOp::Ge => each!(|x, y| (f(x) >= f(y)) as u64),
                // The checker rejects bit operations on floats.
                _ => {}
            }
            if round && !op.is_comparison() {
                a.iter_mut().for_each(|v| *v = fw(f(*v) as f32 as f64));
            }
        }
        _ => match op {
            BinOp::Eq => each!(|x, y| (x == y) as u64),
            BinOp::Ne => each!(|x, y| (x != y) as u64),
            BinOp::Lt => each!(|x, y| (ptr_key(x) < ptr_key(y)) as u64),
            BinOp::Le => each!(|x, y| (ptr_key(x) <= ptr_key(y)) as u64),
            BinOp::Gt => each!(|x, y| (ptr_key(x) > ptr_key(y)) as u64),
            BinOp::Ge => each!(|x, y| (ptr_key(x) >= ptr_key(y)) as u64),
            _ => {}
        },
    }
    Ok(())
}

/// Combines two words of integer kind `k` with a multiprefix operation.
pub fn mp_combine(op: MpOp, k: IntKind, x: u64, y: u64) -> u64 {
    let r = match op {
        MpOp::Add => x.wrapping_add(y),
        MpOp::And => x & y,
        MpOp::Or => x | y,
        MpOp::Max if k.signed() => (x as i64).max(y as i64) as u64,
        MpOp::Min if k.signed() => (x as i64).min(y as i64) as u64,
        MpOp::Max => x.max(y),
        MpOp::Min => x.min(y),
    };
    norm_int(k, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_arithmetic_wraps_per_type() {
        let mut a = vec![i32::MAX as u64, 200];
        binop_slice(BinOp::Add, Scalar::Int(IntKind::I32), &mut a, &[1, 100]).unwrap();
        assert_eq!(a, vec![i32::MIN as i64 as u64, 300]);
        let mut c = vec![200u64];
        binop_slice(BinOp::Add, Scalar::Int(IntKind::U8), &mut c, &[100]).unwrap();
        assert_eq!(c, vec![44]);
    }

    #[test]
    fn signed_and_unsigned_compare_differ() {
        let minus_one = -1i64 as u64;
        let mut s = vec![minus_one];
        binop_slice(BinOp::Lt, Scalar::Int(IntKind::I32), &mut s, &[1]).unwrap();
        let mut u = vec![u32::MAX as u64];
        binop_slice(BinOp::Lt, Scalar::Int(IntKind::U32), &mut u, &[1]).unwrap();
        assert_eq!((s[0], u[0]), (1, 0));
    }

    #[test]
    fn division_by_zero_names_the_lane() {
        let mut a = vec![4, 5, 6];
        let r = binop_slice(BinOp::Div, Scalar::Int(IntKind::I32), &mut a, &[1, 0, 2]);
        assert_eq!(r, Err(1));
    }

    #[test]
    fn float_to_int_truncates_and_float_rounds_to_f32() {
        let mut v = vec![fw(-2.75)];
        convert_slice(&mut v, Scalar::F64, Scalar::Int(IntKind::I32));
        assert_eq!(v[0] as i64, -2);
        let mut w = vec![fw(0.1)];
        convert_slice(&mut w, Scalar::F64, Scalar::F32);
        assert_eq!(f(w[0]), 0.1f32 as f64);
    }
}
