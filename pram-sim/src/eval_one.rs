//! The scalar path of expression evaluation, for a group (or processor) of one lane: the
//! common case deep in a recursion (a sequential sort in a group of one). The frequent nodes
//! return their word directly instead of a vector; everything else, and every memory access,
//! goes through the vector path (`eval_lanes`, `load`, `store`) with that one lane, so the
//! semantics and the checks live in one place.

use crate::eval::{int_const, Place};
use crate::machine::{Ctx, Frame, Machine, Storage, R};
use crate::memory::ptr_add;
use crate::value::{binop_slice, convert_slice, norm_int, Scalar};
use fork_frontend::hir::{Expr, ExprKind};
use smallvec::smallvec;

impl Machine<'_> {
    pub fn eval_one(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lane: u32) -> R<u64> {
        let word = match &e.kind {
            ExprKind::IntConst(v) => int_const(&e.ty, *v),
            ExprKind::Var(v) => match self.storage[v.0 as usize] {
                Storage::Column(slot) => fr.col(slot)[lane as usize],
                _ => return self.eval_by_lanes(fr, cx, e, lane),
            },
            ExprKind::Deref(p) => {
                let ptr = self.eval_one(fr, cx, p, lane)?;
                let s = self.scalar(&e.ty);
                let v = self.load(fr, cx, &Place::Mem(smallvec![ptr]), s, &[lane], e.span)?;
                v.first().copied().unwrap_or(0)
            }
            ExprKind::Convert(inner) => {
                let mut v = [self.eval_one(fr, cx, inner, lane)?];
                convert_slice(&mut v, self.scalar(&inner.ty), self.scalar(&e.ty));
                v[0]
            }
            ExprKind::Binary(op, a, b) => {
                let mut x = [self.eval_one(fr, cx, a, lane)?];
                let y = [self.eval_one(fr, cx, b, lane)?];
                if binop_slice(*op, self.scalar(&a.ty), &mut x, &y).is_err() {
                    return Err(self.division_by_zero(e.span, fr, cx, lane));
                }
                x[0]
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                let p = self.eval_one(fr, cx, ptr, lane)?;
                let i = self.eval_one(fr, cx, index, lane)?;
                ptr_add(p, (i as i64).saturating_mul(*elem_size as i64))
            }
            ExprKind::Assign { place, value }
                if !matches!(self.scalar(&place.ty), Scalar::Aggregate(_)) =>
            {
                let p = self.place(fr, cx, place, &[lane])?;
                let v = self.eval_one(fr, cx, value, lane)?;
                let s = self.scalar(&place.ty);
                self.store(fr, cx, &p, s, &[lane], &[v], e.span)?;
                v
            }
            // `i++` on a register integer: the loop counter of most sequential loops.
            ExprKind::IncDec { place, inc, prefix } => {
                match (&place.kind, self.scalar(&place.ty)) {
                    (ExprKind::Var(v), Scalar::Int(k)) => match self.storage[v.0 as usize] {
                        Storage::Column(slot) => {
                            let cell = &mut fr.col_mut(slot)[lane as usize];
                            let old = *cell;
                            *cell = norm_int(k, old.wrapping_add(if *inc { 1 } else { u64::MAX }));
                            if *prefix {
                                *cell
                            } else {
                                old
                            }
                        }
                        _ => return self.eval_by_lanes(fr, cx, e, lane),
                    },
                    _ => return self.eval_by_lanes(fr, cx, e, lane),
                }
            }
            ExprKind::ProcNr => fr.procs[lane as usize] as u64,
            ExprKind::DollarDollar => self.rank[fr.procs[lane as usize] as usize] as u64,
            ExprKind::GroupSize => cx.size as u64,
            _ => return self.eval_by_lanes(fr, cx, e, lane),
        };
        self.stats.ops += 1;
        Ok(word)
    }

    /// The vector path for one lane.
    fn eval_by_lanes(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lane: u32) -> R<u64> {
        let v = self.eval_lanes(fr, cx, e, &[lane])?;
        Ok(v.first().copied().unwrap_or(0))
    }
}
