//! Vectorised expression evaluation: every node is evaluated for all lanes of `lanes` at once
//! and yields one word per lane (aligned with `lanes`). `?:`, `&&`, `||` evaluate their arms
//! only on the lanes that take them; they and `,` are sequence points (`sequence_point`).

use crate::fault::{self, Fault};
use crate::machine::{Ctx, Frame, Lanes, Machine, Storage, Vals, Write, R};
use crate::memory::{object_of, offset_of, ptr_add, MemError};
use crate::value::{binop_slice, convert_slice, fw, norm_int, truth, Scalar};
use crate::Model;
use fork_frontend::hir::{CompoundOp, Expr, ExprKind, InitElem, Mode, Type, UnOp, VarId};
use fork_frontend::source::Span;
use smallvec::smallvec;

/// A truth value per lane.
pub type Mask = smallvec::SmallVec<[bool; 16]>;

/// An lvalue for each lane.
pub enum Place {
    /// A private scalar column of the frame.
    Col(u32),
    /// An address per lane.
    Mem(Vals),
}

/// The word of an integer constant of type `ty`.
pub fn int_const(ty: &Type, v: i64) -> u64 {
    match ty {
        Type::Int(k) => norm_int(*k, v as u64),
        _ => v as u64,
    }
}

impl Machine<'_> {
    /// One word per lane; a single lane takes the scalar path (`eval_one`).
    #[inline]
    pub fn eval(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lanes: &[u32]) -> R<Vals> {
        match lanes {
            [lane] => Ok(smallvec![self.eval_one(fr, cx, e, *lane)?]),
            _ => self.eval_lanes(fr, cx, e, lanes),
        }
    }

    /// A C sequence point inside a statement (`,`, `&&`, `||`, `?:`): in a synchronous region
    /// the lockstep step ends here, so the members' writes so far are applied (with the CRCW
    /// check) and every member sees them from the next step on (docs/language.md §4).
    pub fn sequence_point(&mut self, cx: &Ctx) -> R<()> {
        match cx.mode {
            Mode::Sync => self.end_step(cx),
            Mode::Async => Ok(()),
        }
    }

    /// The division-by-zero fault of lane `lane`.
    pub fn division_by_zero(&self, span: Span, fr: &Frame, cx: &Ctx, lane: u32) -> Box<Fault> {
        let f = Fault::new(&fault::R0003, span, "division by zero")
            .with_help("guard the division so the divisor cannot be 0");
        self.fault(f, fr, cx, lane)
    }

    pub fn eval_lanes(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lanes: &[u32]) -> R<Vals> {
        self.stats.ops += lanes.len() as u64;
        let n = lanes.len();
        Ok(match &e.kind {
            ExprKind::IntConst(v) => smallvec![int_const(&e.ty, *v); n],
            ExprKind::FloatConst(x) => {
                let x = if self.scalar(&e.ty) == Scalar::F32 {
                    *x as f32 as f64
                } else {
                    *x
                };
                smallvec![fw(x); n]
            }
            ExprKind::Str(id) => smallvec![self.strings[id.0 as usize]; n],
            ExprKind::Var(v) => match self.storage[v.0 as usize] {
                Storage::Column(slot) => {
                    let col = fr.col(slot);
                    gather(lanes, |l| col[l as usize])
                }
                _ => self.load_lvalue(fr, cx, e, lanes)?,
            },
            ExprKind::Deref(_) | ExprKind::Member { .. } => self.load_lvalue(fr, cx, e, lanes)?,
            ExprKind::AddrOf(inner) | ExprKind::Decay(inner) => {
                match self.place(fr, cx, inner, lanes)? {
                    Place::Mem(ptrs) => ptrs,
                    Place::Col(_) => return Err(self.internal("address of a register variable")),
                }
            }
            ExprKind::Convert(inner) => {
                let mut v = self.eval(fr, cx, inner, lanes)?;
                let (from, to) = (self.scalar(&inner.ty), self.scalar(&e.ty));
                convert_slice(&mut v, from, to);
                v
            }
            ExprKind::Unary(op, a) => {
                let mut v = self.eval(fr, cx, a, lanes)?;
                let s = self.scalar(&a.ty);
                match (op, s) {
                    (UnOp::LogNot, _) => v.iter_mut().for_each(|x| *x = !truth(s, *x) as u64),
                    (UnOp::Neg, Scalar::F32 | Scalar::F64) => {
                        v.iter_mut().for_each(|x| *x = fw(-f64::from_bits(*x)))
                    }
                    (UnOp::Neg, Scalar::Int(k)) => v
                        .iter_mut()
                        .for_each(|x| *x = norm_int(k, x.wrapping_neg())),
                    (UnOp::BitNot, Scalar::Int(k)) => {
                        v.iter_mut().for_each(|x| *x = norm_int(k, !*x))
                    }
                    _ => return Err(self.internal("unary operator on a non-arithmetic value")),
                }
                v
            }
            ExprKind::Binary(op, a, b) => {
                let mut va = self.eval(fr, cx, a, lanes)?;
                let vb = self.eval(fr, cx, b, lanes)?;
                if let Err(i) = binop_slice(*op, self.scalar(&a.ty), &mut va, &vb) {
                    return Err(self.division_by_zero(e.span, fr, cx, lanes[i]));
                }
                va
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                let mut p = self.eval(fr, cx, ptr, lanes)?;
                let idx = self.eval(fr, cx, index, lanes)?;
                let size = *elem_size as i64;
                for (p, i) in p.iter_mut().zip(idx) {
                    *p = ptr_add(*p, (i as i64).saturating_mul(size));
                }
                p
            }
            ExprKind::PtrDiff { .. }
            | ExprKind::LogAnd(..)
            | ExprKind::LogOr(..)
            | ExprKind::Cond(..)
            | ExprKind::CompoundAssign { .. }
            | ExprKind::IncDec { .. } => self.eval_rare(fr, cx, e, lanes)?,
            ExprKind::Assign { place, value } => {
                let p = self.place(fr, cx, place, lanes)?;
                let v = self.eval(fr, cx, value, lanes)?;
                let s = self.scalar(&place.ty);
                self.store(fr, cx, &p, s, lanes, &v, e.span)?;
                v
            }
            ExprKind::Comma(a, b) => {
                self.eval(fr, cx, a, lanes)?;
                self.sequence_point(cx)?;
                self.eval(fr, cx, b, lanes)?
            }
            ExprKind::Call { func, args } => match self.ran_first {
                Some((call, v)) if std::ptr::eq(call, e) => smallvec![v; n],
                _ => self.call(fr, cx, e, *func, args, lanes)?,
            },
            ExprKind::Builtin { op, args } => self.builtin(fr, cx, *op, args, lanes, e)?,
            ExprKind::ProcNr => gather(lanes, |l| fr.procs[l as usize] as u64),
            ExprKind::StartedProcs => smallvec![self.cfg.procs as u64; n],
            ExprKind::Dollar => lanes
                .iter()
                .map(|&l| self.dollar[fr.procs[l as usize] as usize] as u64)
                .collect(),
            ExprKind::DollarDollar => lanes
                .iter()
                .map(|&l| self.rank[fr.procs[l as usize] as usize] as u64)
                .collect(),
            ExprKind::At => smallvec![cx.at as u64; n],
            ExprKind::GroupSize => smallvec![cx.size as u64; n],
        })
    }

    /// The less frequent nodes, out of line so that `eval`'s frame stays small.
    #[inline(never)]
    fn eval_rare(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lanes: &[u32]) -> R<Vals> {
        let n = lanes.len();
        Ok(match &e.kind {
            ExprKind::PtrDiff { a, b, elem_size } => {
                let va = self.eval(fr, cx, a, lanes)?;
                let vb = self.eval(fr, cx, b, lanes)?;
                let size = (*elem_size).max(1) as i64;
                let mut out = Vals::with_capacity(n);
                for (i, (x, y)) in va.iter().zip(&vb).enumerate() {
                    if object_of(*x) != object_of(*y) {
                        let f = Fault::new(
                            &fault::R0002,
                            e.span,
                            "subtraction of pointers into different objects",
                        );
                        return Err(self.fault(f, fr, cx, lanes[i]));
                    }
                    out.push(((offset_of(*x) - offset_of(*y)) / size) as u64);
                }
                out
            }
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                let is_and = matches!(e.kind, ExprKind::LogAnd(..));
                let va = self.eval(fr, cx, a, lanes)?;
                self.sequence_point(cx)?;
                let sa = self.scalar(&a.ty);
                let mask: Mask = va.iter().map(|&x| truth(sa, x) == is_and).collect();
                let rest: Lanes = select(lanes, &mask, true);
                let vb = self.eval(fr, cx, b, &rest)?;
                let sb = self.scalar(&b.ty);
                let mut vb = vb.into_iter();
                mask.iter()
                    .map(|&go_on| match go_on {
                        true => truth(sb, vb.next().unwrap_or(0)) as u64,
                        false => !is_and as u64,
                    })
                    .collect()
            }
            ExprKind::Cond(c, t, f) => {
                let vc = self.eval(fr, cx, c, lanes)?;
                self.sequence_point(cx)?;
                let sc = self.scalar(&c.ty);
                let mask: Mask = vc.iter().map(|&x| truth(sc, x)).collect();
                let vt = self.eval(fr, cx, t, &select(lanes, &mask, true))?;
                let vf = self.eval(fr, cx, f, &select(lanes, &mask, false))?;
                merge(&mask, vt, vf)
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                let p = self.place(fr, cx, place, lanes)?;
                let ps = self.scalar(&place.ty);
                let os = self.scalar(op_ty);
                let mut v = self.load(fr, cx, &p, ps, lanes, place.span)?;
                convert_slice(&mut v, ps, os);
                let r = self.eval(fr, cx, rhs, lanes)?;
                match op {
                    CompoundOp::Arith(bop) => {
                        if let Err(i) = binop_slice(*bop, os, &mut v, &r) {
                            return Err(self.division_by_zero(e.span, fr, cx, lanes[i]));
                        }
                    }
                    CompoundOp::PtrAdd { elem_size } | CompoundOp::PtrSub { elem_size } => {
                        let sign = if matches!(op, CompoundOp::PtrAdd { .. }) {
                            1
                        } else {
                            -1
                        };
                        for (p, i) in v.iter_mut().zip(r) {
                            *p = ptr_add(*p, sign * (i as i64).saturating_mul(*elem_size as i64));
                        }
                    }
                }
                convert_slice(&mut v, os, ps);
                self.store(fr, cx, &p, ps, lanes, &v, e.span)?;
                v
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let p = self.place(fr, cx, place, lanes)?;
                let s = self.scalar(&place.ty);
                let old = self.load(fr, cx, &p, s, lanes, place.span)?;
                let mut new = old.clone();
                let sign: i64 = if *inc { 1 } else { -1 };
                match s {
                    Scalar::Int(k) => new
                        .iter_mut()
                        .for_each(|x| *x = norm_int(k, x.wrapping_add(sign as u64))),
                    Scalar::F64 => new
                        .iter_mut()
                        .for_each(|x| *x = fw(f64::from_bits(*x) + sign as f64)),
                    Scalar::F32 => new
                        .iter_mut()
                        .for_each(|x| *x = fw((f64::from_bits(*x) + sign as f64) as f32 as f64)),
                    _ => {
                        let step = place
                            .ty
                            .pointee()
                            .map_or(1, |t| t.size(&self.prog.structs) as i64);
                        new.iter_mut().for_each(|x| *x = ptr_add(*x, sign * step));
                    }
                }
                self.store(fr, cx, &p, s, lanes, &new, e.span)?;
                if *prefix {
                    new
                } else {
                    old
                }
            }
            _ => return Err(self.internal("eval_rare on a common node")),
        })
    }

    /// The value of an lvalue in memory.
    fn load_lvalue(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lanes: &[u32]) -> R<Vals> {
        let place = self.place(fr, cx, e, lanes)?;
        let s = self.scalar(&e.ty);
        self.load(fr, cx, &place, s, lanes, e.span)
    }

    pub fn place(&mut self, fr: &mut Frame, cx: &Ctx, e: &Expr, lanes: &[u32]) -> R<Place> {
        match &e.kind {
            ExprKind::Var(v) => self.var_place(fr, cx, *v, lanes, e.span),
            ExprKind::Deref(p) => Ok(Place::Mem(self.eval(fr, cx, p, lanes)?)),
            ExprKind::Member { base, field } => {
                let Place::Mem(mut ptrs) = self.place(fr, cx, base, lanes)? else {
                    return Err(self.internal("member of a register variable"));
                };
                let Type::Struct(id) = base.ty else {
                    return Err(self.internal("member of a non-struct"));
                };
                let offset = self.prog.structs[id.0 as usize].fields[*field].offset as i64;
                ptrs.iter_mut().for_each(|p| *p = ptr_add(*p, offset));
                Ok(Place::Mem(ptrs))
            }
            _ => Err(self.internal("assignment to a non-lvalue")),
        }
    }

    pub fn var_place(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        var: VarId,
        lanes: &[u32],
        span: Span,
    ) -> R<Place> {
        Ok(match self.storage[var.0 as usize] {
            Storage::Column(slot) => Place::Col(slot),
            Storage::PrivObj(slot) => {
                let col = fr.col(slot);
                Place::Mem(gather(lanes, |l| col[l as usize]))
            }
            Storage::SharedLocal => {
                let ptr = self.bound[var.0 as usize].ptr;
                if ptr == 0 {
                    let f = Fault::new(
                        &fault::R0013,
                        span,
                        format!(
                            "internal simulator error: shared variable `{}` has no instance in this group",
                            self.prog.var(var).name
                        ),
                    );
                    return Err(self.fault(f, fr, cx, lanes.first().copied().unwrap_or(0)));
                }
                Place::Mem(smallvec![ptr; lanes.len()])
            }
            Storage::SharedGlobal(ptr) => Place::Mem(smallvec![ptr; lanes.len()]),
            Storage::PrivGlobal(i) => {
                let objs = &self.private_globals[i as usize];
                Place::Mem(
                    lanes
                        .iter()
                        .map(|&l| objs[fr.procs[l as usize] as usize])
                        .collect(),
                )
            }
        })
    }

    pub fn load(
        &mut self,
        fr: &Frame,
        cx: &Ctx,
        place: &Place,
        s: Scalar,
        lanes: &[u32],
        span: Span,
    ) -> R<Vals> {
        match place {
            Place::Col(slot) => {
                let col = fr.col(*slot);
                Ok(gather(lanes, |l| col[l as usize]))
            }
            Place::Mem(ptrs) => {
                if let Scalar::Aggregate(_) = s {
                    return Ok(ptrs.clone());
                }
                let size = s.size();
                let mut out: Vals = smallvec![0; ptrs.len()];
                for (i, &p) in ptrs.iter().enumerate() {
                    match self.mem.load(p, size) {
                        Ok(raw) => out[i] = s.from_raw(raw),
                        Err(e) => return Err(self.mem_fault(e, span, fr, cx, lanes[i], false)),
                    }
                }
                if cx.mode == Mode::Sync {
                    if self.cfg.model == Model::Erew {
                        for (&p, &l) in ptrs.iter().zip(lanes) {
                            self.reads.push((p, fr.procs[l as usize], span));
                        }
                    }
                    if self.races.is_some() {
                        ptrs.iter()
                            .for_each(|&p| self.record_access(p, false, span));
                    }
                }
                Ok(out)
            }
        }
    }

    /// Stores `vals` (one per lane). In a synchronous region memory writes are buffered until
    /// the step ends; private columns are written at once (no other processor reads them).
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        place: &Place,
        s: Scalar,
        lanes: &[u32],
        vals: &[u64],
        span: Span,
    ) -> R<()> {
        let ptrs = match place {
            Place::Col(slot) => {
                let col = fr.col_mut(*slot);
                for (&l, &v) in lanes.iter().zip(vals) {
                    col[l as usize] = v;
                }
                return Ok(());
            }
            Place::Mem(ptrs) => ptrs,
        };
        let sync = cx.mode == Mode::Sync;
        for (i, (&p, &v)) in ptrs.iter().zip(vals).enumerate() {
            let proc = fr.procs[lanes[i] as usize];
            let result = match s {
                Scalar::Aggregate(size) => self.store_aggregate(p, v, size, proc, span, sync),
                _ if sync => self.mem.locate(p, s.size()).map(|_| {
                    self.pending.push(Write {
                        ptr: p,
                        raw: s.to_raw(v),
                        size: s.size() as u8,
                        proc,
                        span,
                        by_group: false,
                    })
                }),
                _ => self.mem.store(p, s.size(), s.to_raw(v)),
            };
            if let Err(e) = result {
                return Err(self.mem_fault(e, span, fr, cx, lanes[i], true));
            }
            if sync && self.races.is_some() {
                self.record_access(p, true, span);
            }
        }
        Ok(())
    }

    /// Copies an aggregate from `src` to `dst` (buffered in 8-byte pieces when synchronous).
    fn store_aggregate(
        &mut self,
        dst: u64,
        src: u64,
        size: u64,
        proc: u32,
        span: Span,
        sync: bool,
    ) -> Result<(), MemError> {
        if !sync {
            return self.mem.copy(dst, src, size);
        }
        self.mem.locate(dst, size)?;
        let mut off = 0;
        while off < size {
            let piece = (size - off).min(8);
            let raw = self.mem.load(ptr_add(src, off as i64), piece)?;
            self.pending.push(Write {
                ptr: ptr_add(dst, off as i64),
                raw,
                size: piece as u8,
                proc,
                span,
                by_group: false,
            });
            off += piece;
        }
        Ok(())
    }

    /// Applies an initialiser to the object(s) at `place` (zero-filled before).
    pub fn init_object(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        place: &Place,
        init: &[InitElem],
        lanes: &[u32],
    ) -> R<()> {
        for elem in init {
            let vals = self.eval(fr, cx, &elem.value, lanes)?;
            let s = self.scalar(&elem.value.ty);
            let at = match place {
                Place::Col(slot) if elem.offset == 0 => Place::Col(*slot),
                Place::Col(_) => {
                    return Err(self.internal("initialiser offset in a register variable"))
                }
                Place::Mem(ptrs) => Place::Mem(
                    ptrs.iter()
                        .map(|&p| ptr_add(p, elem.offset as i64))
                        .collect(),
                ),
            };
            self.store(fr, cx, &at, s, lanes, &vals, elem.value.span)?;
        }
        Ok(())
    }
}

/// `f(lane)` for every lane (the hot path of column reads: no per-element capacity checks).
#[inline]
pub fn gather(lanes: &[u32], f: impl Fn(u32) -> u64) -> Vals {
    let mut out: Vals = smallvec![0; lanes.len()];
    for (slot, &l) in out.iter_mut().zip(lanes) {
        *slot = f(l);
    }
    out
}

/// The lanes whose mask entry equals `want`.
pub fn select(lanes: &[u32], mask: &[bool], want: bool) -> Lanes {
    lanes
        .iter()
        .zip(mask)
        .filter(|(_, &m)| m == want)
        .map(|(&l, _)| l)
        .collect()
}

/// Interleaves the values of the `true` lanes and the `false` lanes back in lane order.
pub fn merge(mask: &[bool], t: Vals, f: Vals) -> Vals {
    let (mut t, mut f) = (t.into_iter(), f.into_iter());
    mask.iter()
        .map(|&m| if m { t.next() } else { f.next() }.unwrap_or(0))
        .collect()
}
