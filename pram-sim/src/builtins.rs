//! Built-in functions: `printf`, multiprefix operations, heaps, `assert`, `ilog2`, math.

use crate::fault::{self, Fault};
use crate::format::{self, Arg};
use crate::machine::{Ctx, Frame, Machine, Vals, R};
use crate::memory::{object_of, offset_of, Origin, State};
use crate::value::{f, fw, mp_combine, norm_int, truth, Scalar};
use fork_frontend::hir::{Builtin, Expr, ExprKind, Mode};
use smallvec::smallvec;

impl Machine<'_> {
    #[inline(never)]
    pub fn builtin(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        op: Builtin,
        args: &[Expr],
        lanes: &[u32],
        e: &Expr,
    ) -> R<Vals> {
        let arity_ok = match op {
            Builtin::Printf => !args.is_empty(),
            Builtin::Multiprefix(_) | Builtin::SyncUpdate(_) | Builtin::Pow => args.len() == 2,
            _ => args.len() == 1,
        };
        if !arity_ok {
            return Err(self.internal(format!("{op:?} with {} arguments", args.len())));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(fr, cx, a, lanes)?);
        }
        let arg = |i: usize| -> &[u64] { vals.get(i).map_or(&[][..], |v| &v[..]) };
        let n = lanes.len();
        let span = e.span;
        Ok(match op {
            Builtin::Printf => self.printf(fr, cx, args, &vals, lanes)?,
            Builtin::Multiprefix(mp) | Builtin::SyncUpdate(mp) => {
                let Some(Scalar::Int(k)) = args[0].ty.pointee().map(|t| self.scalar(t)) else {
                    return Err(self.internal("multiprefix on a non-integer cell"));
                };
                let size = k.bytes();
                let (ptrs, values) = (arg(0), arg(1));
                let mut order: Vec<usize> = (0..n).collect();
                order.sort_by_key(|&i| (ptrs[i], fr.procs[lanes[i] as usize]));
                let mut result = smallvec![0; n];
                for run in order.chunk_by(|&a, &b| ptrs[a] == ptrs[b]) {
                    let p = ptrs[run[0]];
                    let mut acc = match self.mem.load(p, size) {
                        Ok(raw) => norm_int(k, raw),
                        Err(err) => {
                            return Err(self.mem_fault(err, span, fr, cx, lanes[run[0]], false))
                        }
                    };
                    for &i in run {
                        result[i] = acc;
                        acc = mp_combine(mp, k, acc, values[i]);
                    }
                    if let Err(err) = self.mem.store(p, size, acc) {
                        return Err(self.mem_fault(err, span, fr, cx, lanes[run[0]], true));
                    }
                    if cx.mode == Mode::Sync && self.races.is_some() {
                        self.record_access(p, true, span);
                    }
                }
                if matches!(op, Builtin::SyncUpdate(_)) {
                    smallvec![0; n]
                } else {
                    result
                }
            }
            Builtin::Ilog2 => {
                let s = self.scalar(&args[0].ty);
                let mut out = Vals::with_capacity(n);
                for (i, &x) in arg(0).iter().enumerate() {
                    let positive = match s {
                        Scalar::Int(k) if k.signed() => (x as i64) > 0,
                        _ => x != 0,
                    };
                    if !positive {
                        let shown = if matches!(s, Scalar::Int(k) if k.signed()) {
                            (x as i64).to_string()
                        } else {
                            x.to_string()
                        };
                        let fault = Fault::new(
                            &fault::R0012,
                            args[0].span,
                            format!("ilog2 of {shown}, which is not positive"),
                        );
                        return Err(self.fault(fault, fr, cx, lanes[i]));
                    }
                    out.push(63 - x.leading_zeros() as u64);
                }
                out
            }
            Builtin::Shmalloc | Builtin::Malloc => {
                let shared = op == Builtin::Shmalloc;
                let s = self.scalar(&args[0].ty);
                let sizes = arg(0);
                if let Some(i) = sizes
                    .iter()
                    .position(|&x| matches!(s, Scalar::Int(k) if k.signed()) && (x as i64) < 0)
                {
                    let fault = Fault::new(
                        &fault::R0012,
                        args[0].span,
                        format!("allocation of a negative size ({})", sizes[i] as i64),
                    );
                    return Err(self.fault(fault, fr, cx, lanes[i]));
                }
                let origin = Origin::Heap { span };
                // A group allocates together: members asking for the same size in one step
                // share one block (so `sh int *a = shmalloc(n);` is one write).
                let collective = shared && cx.mode == Mode::Sync;
                let mut blocks: Vec<(u64, u64)> = Vec::new();
                let mut out = Vals::with_capacity(n);
                for (i, &size) in sizes.iter().enumerate() {
                    let p = match blocks.iter().find(|b| collective && b.0 == size) {
                        Some(b) => b.1,
                        None => match self.mem.alloc(size, shared, origin) {
                            Ok(p) => p,
                            Err(e) => return Err(self.mem_fault(e, span, fr, cx, lanes[i], true)),
                        },
                    };
                    blocks.push((size, p));
                    out.push(p);
                }
                out
            }
            Builtin::Shfree | Builtin::Free => {
                let shared = op == Builtin::Shfree;
                let mut ptrs: Vec<(u64, u32)> =
                    arg(0).iter().copied().zip(lanes.iter().copied()).collect();
                if shared && cx.mode == Mode::Sync {
                    // The group frees a block it allocated together once.
                    ptrs.sort_by_key(|&(p, _)| p);
                    ptrs.dedup_by_key(|&mut (p, _)| p);
                }
                for (p, lane) in ptrs {
                    if p == 0 {
                        continue;
                    }
                    let block = self
                        .mem
                        .object(object_of(p))
                        .map(|o| (o.state, o.shared, o.origin));
                    let problem = match block {
                        Some((State::Live, sh, Origin::Heap { .. }))
                            if sh == shared && offset_of(p) == 0 =>
                        {
                            None
                        }
                        Some((State::Freed, _, Origin::Heap { .. })) => {
                            Some((&fault::R0009, "a block that was already freed".to_string()))
                        }
                        Some((State::Live, sh, Origin::Heap { .. })) if sh == shared => Some((
                            &fault::R0010,
                            format!("a pointer {} bytes into a heap block", offset_of(p)),
                        )),
                        Some(_) => Some((
                            &fault::R0010,
                            format!(
                                "{}, which is not a {} heap block",
                                self.describe(object_of(p)),
                                if shared {
                                    "shared (`shmalloc`)"
                                } else {
                                    "private (`malloc`)"
                                }
                            ),
                        )),
                        None => Some((&fault::R0002, "an invalid pointer".to_string())),
                    };
                    if let Some((code, what)) = problem {
                        let name = if shared { "shfree" } else { "free" };
                        let fault = Fault::new(code, span, format!("`{name}` of {what}"));
                        return Err(self.fault(fault, fr, cx, lane));
                    }
                    self.mem.release(p, State::Freed);
                }
                smallvec![0; n]
            }
            Builtin::StackRoom => return Err(self.internal("the transform's stack check")),
            Builtin::Assert => {
                let s = self.scalar(&args[0].ty);
                if let Some(i) = arg(0).iter().position(|&x| !truth(s, x)) {
                    let fault = Fault::new(&fault::R0007, span, "assertion failed");
                    return Err(self.fault(fault, fr, cx, lanes[i]));
                }
                smallvec![0; n]
            }
            Builtin::Abs | Builtin::Labs => {
                let Scalar::Int(k) = self.scalar(&e.ty) else {
                    return Err(self.internal("abs of a non-integer"));
                };
                arg(0)
                    .iter()
                    .map(|&x| norm_int(k, (x as i64).wrapping_abs() as u64))
                    .collect()
            }
            Builtin::Pow => {
                let round = self.scalar(&e.ty) == Scalar::F32;
                arg(0)
                    .iter()
                    .zip(arg(1))
                    .map(|(&x, &y)| rounded(f(x).powf(f(y)), round))
                    .collect()
            }
            Builtin::Fabs
            | Builtin::Sqrt
            | Builtin::Exp
            | Builtin::Log
            | Builtin::Sin
            | Builtin::Cos
            | Builtin::Floor
            | Builtin::Ceil => {
                let round = self.scalar(&e.ty) == Scalar::F32;
                let g: fn(f64) -> f64 = match op {
                    Builtin::Fabs => f64::abs,
                    Builtin::Sqrt => f64::sqrt,
                    Builtin::Exp => f64::exp,
                    Builtin::Log => f64::ln,
                    Builtin::Sin => f64::sin,
                    Builtin::Cos => f64::cos,
                    Builtin::Floor => f64::floor,
                    _ => f64::ceil,
                };
                arg(0).iter().map(|&x| rounded(g(f(x)), round)).collect()
            }
        })
    }

    /// `printf` for every lane in lane (`$$`) order; returns the byte counts.
    fn printf(
        &mut self,
        fr: &Frame,
        cx: &Ctx,
        args: &[Expr],
        vals: &[Vals],
        lanes: &[u32],
    ) -> R<Vals> {
        let fmt = match args.first().map(|a| &a.kind) {
            Some(ExprKind::Str(id)) => {
                let s = self.prog.string(*id);
                s.strip_suffix(&[0]).unwrap_or(s)
            }
            _ => return Err(self.internal("printf without a literal format")),
        };
        let scalars: Vec<Scalar> = args[1..].iter().map(|a| self.scalar(&a.ty)).collect();
        let mut counts = Vals::with_capacity(lanes.len());
        for (i, &lane) in lanes.iter().enumerate() {
            let row: Vec<Arg> = vals[1..]
                .iter()
                .zip(&scalars)
                .map(|(v, &s)| (v[i], s))
                .collect();
            let mem = &self.mem;
            match format::printf(fmt, &row, &|p| mem.c_string(p)) {
                Ok(text) => {
                    counts.push(text.len() as u64);
                    let proc = fr.procs[lane as usize];
                    if let Err(limit) = self.emit(cx.mode, proc, &text) {
                        let fault = Fault::new(
                            &fault::R0012,
                            args[0].span,
                            format!("the program printed more than {limit} bytes"),
                        )
                        .with_help("print less; the simulator holds the output in memory");
                        return Err(self.fault(fault, fr, cx, lane));
                    }
                }
                Err(format::FormatError::String(index, err)) => {
                    let span = args.get(index + 1).map_or(args[0].span, |a| a.span);
                    return Err(self.mem_fault(err, span, fr, cx, lane, false));
                }
                Err(format::FormatError::FieldTooWide(width)) => {
                    let fault = Fault::new(
                        &fault::R0012,
                        args[0].span,
                        format!(
                            "`printf` field of width {width}, wider than the simulator prints ({})",
                            format::MAX_FIELD
                        ),
                    );
                    return Err(self.fault(fault, fr, cx, lane));
                }
            }
        }
        Ok(counts)
    }
}

fn rounded(x: f64, to_f32: bool) -> u64 {
    fw(if to_f32 { x as f32 as f64 } else { x })
}
