//! One kernel thread: runs a kernel body (HIR) for one PRAM processor, as a GPU thread would.
//! Variables live where `Storage` says; private locals without a home are registers in the
//! scratch segment, which starts empty for every thread of every launch.

use super::memory::{self, AccessError, Memory};
use super::printf::{self, Arg};
use super::Fault;
use fork_frontend::diag::Code;
use fork_frontend::fault;
use fork_frontend::hir::{
    BinOp, Builtin, CompoundOp, Expr, ExprKind, FloatKind, FuncId, IntKind, MpOp, Stmt, StmtKind,
    Type, UnOp, VarId, VarKind,
};
use fork_frontend::source::Span;
use std::collections::HashMap;
use transform::emit_cuda::abi;
use transform::plan::{Home, Plan, SharedFrameId};

/// Device calls deeper than this fault instead of overflowing the executor's stack.
const MAX_CALL_DEPTH: usize = 2000;

/// What the thread knows about itself and its group.
pub struct Env<'a> {
    pub proc: usize,
    pub procs: usize,
    pub dollar: i64,
    pub rank: usize,
    pub group_size: usize,
    pub at: i64,
    /// Base of the current activation's private frame in the slot segment.
    pub slot_base: u64,
    /// Shared frames visible to the group, innermost last.
    pub frames: &'a [(SharedFrameId, u64)],
}

#[derive(Debug, Clone, PartialEq)]
pub enum V {
    I(i64),
    F(f64),
    /// A struct value (its bytes).
    Agg(Vec<u8>),
}

/// How a statement ended.
pub enum Flow {
    Normal,
    Break,
    Continue,
    Return(Option<V>),
}

pub struct Thread<'a> {
    pub plan: &'a Plan,
    pub mem: &'a mut Memory,
    pub env: Env<'a>,
    /// Statements this run may still execute (all threads together): a program that does
    /// not terminate stops with a fault instead of hanging.
    steps_left: &'a mut u64,
    /// The text this thread printed in this launch.
    pub out: Vec<u8>,
    /// The simple statement running (its source offset): writes of one statement by several
    /// processors are concurrent writes, writes of different statements are ordered.
    site: u32,
    /// Register homes per device-call depth (depth 0: the kernel's function).
    regs: Vec<HashMap<VarId, u64>>,
    /// The functions of the device calls running, innermost last.
    device_fns: Vec<FuncId>,
    /// How far the thread is in its step: a synchronous kernel's top-level statement (the
    /// high 32 bits, `exec_steps`) and the iterations of loops inside it begun so far. In
    /// lockstep a later statement, and a later iteration of one, is a later step, so of the
    /// faults of one launch the one with the least comes first.
    pub iters: u64,
}

impl<'a> Thread<'a> {
    pub fn new(
        plan: &'a Plan,
        mem: &'a mut Memory,
        env: Env<'a>,
        steps_left: &'a mut u64,
    ) -> Thread<'a> {
        mem.clear_scratch();
        Thread {
            plan,
            steps_left,
            mem,
            env,
            out: Vec::new(),
            site: 0,
            regs: vec![HashMap::new()],
            device_fns: Vec::new(),
            iters: 0,
        }
    }

    /// A fault without a simulator code: R0502 for a plan error, else R0501.
    fn fault(&self, span: Span, message: impl Into<String>) -> Fault {
        let message = message.into();
        let code = if message.starts_with("plan error") {
            &super::R0502
        } else {
            &super::R0501
        };
        self.fault_code(code, span, message)
    }

    /// A fault the simulator reports with `code`.
    fn fault_code(&self, code: &'static Code, span: Span, message: impl Into<String>) -> Fault {
        Fault {
            code,
            span,
            proc: Some(self.env.proc),
            message: message.into(),
            stdout: Vec::new(),
        }
    }

    fn access(&self, err: AccessError, span: Span) -> Fault {
        match err {
            AccessError::OutOfBounds => {
                self.fault_code(&fault::R0001, span, "memory access out of bounds")
            }
            AccessError::Null => {
                self.fault_code(&fault::R0002, span, "memory access through a null pointer")
            }
            AccessError::Freed => self.fault_code(
                &fault::R0009,
                span,
                "use of a heap block after it was freed",
            ),
            AccessError::BadFree => self.fault_code(
                &fault::R0010,
                span,
                "`free`/`shfree` of a pointer that is not the start of a heap block of its kind",
            ),
            // As the simulator, name the lower writer. (The simulator's pair is the cell's
            // lowest writer and the lowest that differs from it; this executor knows the two
            // it caught, so with three or more writers the pair follows the thread order.)
            AccessError::Conflict { other } => {
                let (lo, hi) = (other.min(self.env.proc), other.max(self.env.proc));
                Fault {
                    proc: Some(lo),
                    ..self.fault_code(
                        &fault::R0004,
                        span,
                        format!(
                            "concurrent write conflict (CRCW common): processors {lo} and {hi} \
                             wrote different values into one cell in one step"
                        ),
                    )
                }
            }
            AccessError::Hazard { other } => {
                let other = match other {
                    usize::MAX => "other processors".to_string(),
                    p => format!("processor {p}"),
                };
                self.fault(
                    span,
                    format!(
                        "plan error: this access and one of {other} touch the same shared \
                         memory in one kernel, one of them writing; lockstep orders them, the \
                         kernel does not (a missing cut)"
                    ),
                )
            }
            AccessError::Undefined => self.fault(
                span,
                "plan error: a private value is read in a kernel after a cut but was not \
                 saved in a spilled slot",
            ),
        }
    }

    // ---- statements ----

    pub fn exec(&mut self, s: &Stmt) -> Result<Flow, Fault> {
        if *self.steps_left == 0 {
            return Err(self.fault_code(
                &fault::R0006,
                s.span,
                "step limit reached: the program may not terminate; raise `--max-steps`",
            ));
        }
        *self.steps_left -= 1;
        if matches!(
            s.kind,
            StmtKind::Expr(_) | StmtKind::Decl { .. } | StmtKind::Return(_)
        ) {
            self.site = s.span.lo;
        }
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
                Ok(Flow::Normal)
            }
            StmtKind::Decl { var, init } => {
                // The whole initial value (zeros, then the initialiser's scalars) in one
                // store: every member of a group writes the same value of a shared local.
                let ty = self.plan.program.var(*var).ty.clone();
                let mut bytes = vec![0; self.size(&ty) as usize];
                for elem in init.iter().flatten() {
                    let v = self.eval(&elem.value)?;
                    let size = self.size(&elem.value.ty);
                    let at = elem.offset as usize;
                    bytes[at..at + size as usize].copy_from_slice(&encode(
                        &v,
                        &elem.value.ty,
                        size,
                    ));
                }
                let a = self.var_addr(*var, s.span)?;
                self.mem
                    .write_by(self.env.proc, self.site, a, &bytes)
                    .map_err(|e| self.access(e, s.span))?;
                Ok(Flow::Normal)
            }
            StmtKind::Block(b) => self.exec_all(&b.stmts),
            StmtKind::If { cond, then, els } => {
                if self.truth(cond)? {
                    self.exec(then)
                } else if let Some(e) = els {
                    self.exec(e)
                } else {
                    Ok(Flow::Normal)
                }
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => {
                let mut first = true;
                loop {
                    if !first || *test_first {
                        if let Some(c) = cond {
                            if !self.truth(c)? {
                                return Ok(Flow::Normal);
                            }
                        }
                    }
                    first = false;
                    self.iters += 1;
                    match self.exec(body)? {
                        Flow::Break => return Ok(Flow::Normal),
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        Flow::Normal | Flow::Continue => {}
                    }
                    if let Some(st) = step {
                        self.eval(st)?;
                    }
                }
            }
            StmtKind::Switch { cond, cases } => {
                let v = self.int(cond)?;
                let start = cases
                    .iter()
                    .position(|c| c.value == Some(v))
                    .or_else(|| cases.iter().position(|c| c.value.is_none()));
                for case in cases.iter().skip(start.unwrap_or(cases.len())) {
                    match self.exec_all(&case.body)? {
                        Flow::Normal => {}
                        Flow::Break => return Ok(Flow::Normal),
                        other => return Ok(other),
                    }
                }
                Ok(Flow::Normal)
            }
            StmtKind::Break => Ok(Flow::Break),
            StmtKind::Continue => Ok(Flow::Continue),
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => Some(self.eval(e)?),
                    None => None,
                };
                Ok(Flow::Return(v))
            }
            StmtKind::Barrier => Ok(Flow::Normal),
            StmtKind::Fork { .. } | StmtKind::Start(_) | StmtKind::Farm(_) | StmtKind::Seq(_) => {
                Err(self.fault(s.span, "plan error: a group construct inside a kernel"))
            }
        }
    }

    /// A synchronous kernel's body: its `k`-th statement is the `k`-th step of the kernel
    /// (`iters`).
    pub fn exec_steps(&mut self, stmts: &[Stmt]) -> Result<Flow, Fault> {
        self.exec_each(stmts, true)
    }

    pub fn exec_all(&mut self, stmts: &[Stmt]) -> Result<Flow, Fault> {
        self.exec_each(stmts, false)
    }

    /// The statements in order until one leaves; `steps`: each one's index into `iters`.
    fn exec_each(&mut self, stmts: &[Stmt], steps: bool) -> Result<Flow, Fault> {
        for (k, s) in stmts.iter().enumerate() {
            if steps {
                self.iters = (k as u64) << abi::FK_ITERS_STATEMENT_SHIFT;
            }
            match self.exec(s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    // ---- memory ----

    fn size(&self, ty: &Type) -> u64 {
        ty.size(&self.plan.program.structs)
    }

    pub fn var_addr(&mut self, var: VarId, span: Span) -> Result<u64, Fault> {
        let ty = &self.plan.program.var(var).ty;
        let size = self.size(ty);
        let procs = self.env.procs as u64;
        let proc = self.env.proc as u64;
        // A device call's own parameters and locals are registers of the call, even where the
        // function also runs on the host (a `straight` function that needs lockstep) and
        // `Storage` gives them slots of its host frame.
        let own = match self.plan.program.var(var).kind {
            VarKind::Local { func } | VarKind::Param { func, .. } => {
                self.device_fns.last() == Some(&func)
            }
            VarKind::Global => false,
        };
        let home = if own {
            None
        } else {
            self.plan.storage.home(var)
        };
        let phys = match home {
            Some(Home::Shared { offset }) => memory::phys(memory::SHARED_GLOBALS, offset),
            Some(Home::PrivateGlobal { offset }) => {
                memory::phys(memory::SLOTS, offset * procs + proc * size)
            }
            Some(Home::Slot { offset }) => memory::phys(
                memory::SLOTS,
                self.env.slot_base + offset * procs + proc * size,
            ),
            Some(Home::SharedFrame { frame, offset }) => {
                let base = self
                    .env
                    .frames
                    .iter()
                    .rev()
                    .find(|(f, _)| *f == frame)
                    .map(|(_, b)| *b)
                    .ok_or_else(|| {
                        self.fault(span, "plan error: a shared local outside its group's frame")
                    })?;
                base + offset
            }
            None => {
                let align = ty.align(&self.plan.program.structs);
                let regs = self.regs.last_mut().ok_or_else(|| Fault {
                    code: &super::R0502,
                    span,
                    proc: None,
                    message: "plan error: no register frame".into(),
                    stdout: Vec::new(),
                })?;
                return Ok(match regs.get(&var) {
                    Some(p) => *p,
                    None => {
                        let p = self.mem.alloc(memory::SCRATCH, size, align);
                        regs.insert(var, p);
                        p
                    }
                });
            }
        };
        Ok(self.mem.place(phys, size))
    }

    pub fn load(&mut self, a: u64, ty: &Type, span: Span) -> Result<V, Fault> {
        let size = self.size(ty);
        match self.mem.read_by(self.env.proc, a, size) {
            Ok(bytes) => Ok(decode(bytes, ty)),
            Err(e) => Err(self.access(e, span)),
        }
    }

    pub fn store(&mut self, a: u64, ty: &Type, v: V, span: Span) -> Result<(), Fault> {
        let bytes = encode(&v, ty, self.size(ty));
        self.mem
            .write_by(self.env.proc, self.site, a, &bytes)
            .map_err(|e| self.access(e, span))
    }

    // ---- expressions ----

    fn truth(&mut self, e: &Expr) -> Result<bool, Fault> {
        Ok(match self.eval(e)? {
            V::I(v) => v != 0,
            V::F(f) => f != 0.0,
            V::Agg(_) => true,
        })
    }

    fn int(&mut self, e: &Expr) -> Result<i64, Fault> {
        Ok(match self.eval(e)? {
            V::I(v) => v,
            V::F(f) => f as i64,
            V::Agg(_) => 0,
        })
    }

    /// The address an lvalue denotes.
    pub fn lvalue(&mut self, e: &Expr) -> Result<u64, Fault> {
        match &e.kind {
            ExprKind::Var(v) => self.var_addr(*v, e.span),
            ExprKind::Deref(p) => Ok(self.int(p)? as u64),
            ExprKind::Member { base, field } => {
                let a = self.lvalue(base)?;
                let Type::Struct(id) = &base.ty else {
                    return Err(self.fault(e.span, "plan error: member of a non-struct"));
                };
                Ok(a + self.plan.program.structs[id.0 as usize].fields[*field].offset)
            }
            _ => Err(self.fault(e.span, "plan error: not an lvalue")),
        }
    }

    pub fn eval(&mut self, e: &Expr) -> Result<V, Fault> {
        let span = e.span;
        Ok(match &e.kind {
            ExprKind::IntConst(v) => V::I(norm(*v, &e.ty)),
            ExprKind::FloatConst(f) => V::F(round_float(*f, &e.ty)),
            ExprKind::Str(id) => V::I(self.string_addr(*id) as i64),
            ExprKind::Var(_) | ExprKind::Deref(_) | ExprKind::Member { .. } => {
                let a = self.lvalue(e)?;
                self.load(a, &e.ty, span)?
            }
            ExprKind::AddrOf(x) | ExprKind::Decay(x) => V::I(self.lvalue(x)? as i64),
            ExprKind::Convert(x) => {
                let v = self.eval(x)?;
                convert(v, &x.ty, &e.ty)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                match (op, v) {
                    (UnOp::Neg, V::I(v)) => V::I(norm(v.wrapping_neg(), &e.ty)),
                    (UnOp::Neg, V::F(f)) => V::F(-f),
                    (UnOp::BitNot, V::I(v)) => V::I(norm(!v, &e.ty)),
                    (UnOp::LogNot, V::I(v)) => V::I((v == 0) as i64),
                    (UnOp::LogNot, V::F(f)) => V::I((f == 0.0) as i64),
                    _ => return Err(self.fault(span, "plan error: bad unary operand")),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                self.binary(*op, x, y, &a.ty, &e.ty, span)?
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                let p = self.int(ptr)?;
                let i = self.int(index)?;
                V::I(p.wrapping_add(i.wrapping_mul(*elem_size as i64)))
            }
            ExprKind::PtrDiff { a, b, elem_size } => {
                let d = self.int(a)?.wrapping_sub(self.int(b)?);
                V::I(d / (*elem_size).max(1) as i64)
            }
            ExprKind::LogAnd(a, b) => V::I((self.truth(a)? && self.truth(b)?) as i64),
            ExprKind::LogOr(a, b) => V::I((self.truth(a)? || self.truth(b)?) as i64),
            ExprKind::Cond(c, a, b) => {
                if self.truth(c)? {
                    self.eval(a)?
                } else {
                    self.eval(b)?
                }
            }
            ExprKind::Assign { place, value } => {
                let a = self.lvalue(place)?;
                let v = self.eval(value)?;
                self.store(a, &place.ty, v.clone(), span)?;
                v
            }
            ExprKind::CompoundAssign {
                place,
                op,
                rhs,
                op_ty,
            } => {
                let a = self.lvalue(place)?;
                let old = self.load(a, &place.ty, span)?;
                let r = self.eval(rhs)?;
                let new = match op {
                    CompoundOp::Arith(bop) => {
                        let x = convert(old, &place.ty, op_ty);
                        let v = self.binary(*bop, x, r, op_ty, op_ty, span)?;
                        convert(v, op_ty, &place.ty)
                    }
                    CompoundOp::PtrAdd { elem_size } | CompoundOp::PtrSub { elem_size } => {
                        let (V::I(p), V::I(n)) = (old, r) else {
                            return Err(self.fault(span, "plan error: bad pointer step"));
                        };
                        let step = n.wrapping_mul(*elem_size as i64);
                        let step = if matches!(op, CompoundOp::PtrSub { .. }) {
                            step.wrapping_neg()
                        } else {
                            step
                        };
                        V::I(p.wrapping_add(step))
                    }
                };
                self.store(a, &place.ty, new.clone(), span)?;
                new
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let a = self.lvalue(place)?;
                let old = self.load(a, &place.ty, span)?;
                let new = match (&old, &place.ty) {
                    (V::I(p), Type::Ptr(t)) => {
                        let s = self.size(t) as i64;
                        V::I(if *inc {
                            p.wrapping_add(s)
                        } else {
                            p.wrapping_sub(s)
                        })
                    }
                    (V::I(v), ty) => V::I(norm(
                        if *inc {
                            v.wrapping_add(1)
                        } else {
                            v.wrapping_sub(1)
                        },
                        ty,
                    )),
                    (V::F(f), ty) => V::F(round_float(if *inc { f + 1.0 } else { f - 1.0 }, ty)),
                    (V::Agg(_), _) => return Err(self.fault(span, "plan error: ++ on a struct")),
                };
                self.store(a, &place.ty, new.clone(), span)?;
                if *prefix {
                    new
                } else {
                    old
                }
            }
            ExprKind::Comma(a, b) => {
                self.eval(a)?;
                self.eval(b)?
            }
            ExprKind::Call { func, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a)?);
                }
                self.device_call(*func, vals, span)?
            }
            ExprKind::Builtin { op, args } => self.builtin(*op, args, &e.ty, span)?,
            ExprKind::ProcNr => V::I(self.env.proc as i64),
            ExprKind::StartedProcs => V::I(self.env.procs as i64),
            ExprKind::Dollar => V::I(self.env.dollar),
            ExprKind::DollarDollar => V::I(self.env.rank as i64),
            ExprKind::At => V::I(self.env.at),
            ExprKind::GroupSize => V::I(self.env.group_size as i64),
        })
    }

    fn string_addr(&mut self, id: fork_frontend::hir::StrId) -> u64 {
        let strings = &self.plan.program.strings;
        let offset: usize = strings[..id.0 as usize].iter().map(|s| s.len()).sum();
        let len = strings[id.0 as usize].len() as u64;
        self.mem
            .place(memory::phys(memory::STRINGS, offset as u64), len)
    }

    /// `op` on two values of type `ty` (pointers for comparisons), result of type `res`.
    fn binary(&self, op: BinOp, x: V, y: V, ty: &Type, res: &Type, span: Span) -> Result<V, Fault> {
        if let (V::F(a), V::F(b)) = (&x, &y) {
            let (a, b) = (*a, *b);
            return Ok(match op {
                BinOp::Add => V::F(round_float(a + b, res)),
                BinOp::Sub => V::F(round_float(a - b, res)),
                BinOp::Mul => V::F(round_float(a * b, res)),
                BinOp::Div => V::F(round_float(a / b, res)),
                BinOp::Lt => V::I((a < b) as i64),
                BinOp::Le => V::I((a <= b) as i64),
                BinOp::Gt => V::I((a > b) as i64),
                BinOp::Ge => V::I((a >= b) as i64),
                BinOp::Eq => V::I((a == b) as i64),
                BinOp::Ne => V::I((a != b) as i64),
                _ => return Err(self.fault(span, "plan error: integer operator on floats")),
            });
        }
        let (V::I(a), V::I(b)) = (x, y) else {
            return Err(self.fault(span, "plan error: bad binary operands"));
        };
        let unsigned = match ty {
            Type::Int(k) => !k.signed(),
            _ => true,
        };
        let bits = match ty {
            Type::Int(k) => k.bytes() * 8,
            _ => 64,
        };
        let (ua, ub) = (a as u64, b as u64);
        let ord = if unsigned { ua.cmp(&ub) } else { a.cmp(&b) };
        let v = match op {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div | BinOp::Rem => {
                if b == 0 {
                    return Err(self.fault_code(&fault::R0003, span, "division by zero"));
                }
                match (op, unsigned) {
                    (BinOp::Div, true) => (ua / ub) as i64,
                    (BinOp::Div, false) => a.wrapping_div(b),
                    (_, true) => (ua % ub) as i64,
                    (_, false) => a.wrapping_rem(b),
                }
            }
            BinOp::Shl => a.wrapping_shl((b as u64 % bits) as u32),
            BinOp::Shr => {
                let s = (b as u64 % bits) as u32;
                if unsigned {
                    (ua >> s) as i64
                } else {
                    a >> s
                }
            }
            BinOp::BitAnd => a & b,
            BinOp::BitOr => a | b,
            BinOp::BitXor => a ^ b,
            BinOp::Lt => return Ok(V::I(ord.is_lt() as i64)),
            BinOp::Le => return Ok(V::I(ord.is_le() as i64)),
            BinOp::Gt => return Ok(V::I(ord.is_gt() as i64)),
            BinOp::Ge => return Ok(V::I(ord.is_ge() as i64)),
            BinOp::Eq => return Ok(V::I((a == b) as i64)),
            BinOp::Ne => return Ok(V::I((a != b) as i64)),
        };
        Ok(V::I(norm(v, res)))
    }

    /// A `straight` or barrier-free `async` function, run inside the kernel.
    fn device_call(&mut self, func: FuncId, args: Vec<V>, span: Span) -> Result<V, Fault> {
        if self.regs.len() > MAX_CALL_DEPTH {
            return Err(self.fault_code(
                &fault::R0008,
                span,
                "call depth limit reached (unbounded recursion?)",
            ));
        }
        let f = self.plan.program.func(func);
        self.regs.push(HashMap::new());
        self.device_fns.push(func);
        for (p, v) in f.params.iter().zip(args) {
            let a = self.var_addr(*p, span)?;
            let ty = self.plan.program.var(*p).ty.clone();
            self.store(a, &ty, v, span)?;
        }
        let flow = self.exec_all(&f.body.stmts);
        self.device_fns.pop();
        self.regs.pop();
        let flow = flow?;
        Ok(match flow {
            Flow::Return(Some(v)) => v,
            _ => V::I(0),
        })
    }

    fn builtin(&mut self, op: Builtin, args: &[Expr], ty: &Type, span: Span) -> Result<V, Fault> {
        if op == Builtin::Printf {
            return self.printf(args, span);
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let f = |i: usize| match vals.get(i) {
            Some(V::F(f)) => *f,
            Some(V::I(v)) => *v as f64,
            _ => 0.0,
        };
        let i = |i: usize| match vals.get(i) {
            Some(V::I(v)) => *v,
            Some(V::F(f)) => *f as i64,
            _ => 0,
        };
        Ok(match op {
            Builtin::Printf => V::I(0),
            Builtin::Multiprefix(mp) | Builtin::SyncUpdate(mp) => {
                // An atomic fetch-and-op: in asynchronous code, and a synchronous update in an
                // order-free loop (the other synchronous ones are host ops).
                let cell = i(0) as u64;
                let size = self.size(&Type::INT);
                let old = match self.mem.read(cell, size) {
                    Ok(bytes) => decode(bytes, &Type::INT),
                    Err(e) => return Err(self.access(e, span)),
                };
                let old = match old {
                    V::I(v) => v,
                    _ => 0,
                };
                let new = encode(&V::I(combine(mp, old, i(1))), &Type::INT, size);
                self.mem
                    .write_atomic(cell, &new)
                    .map_err(|e| self.access(e, span))?;
                V::I(old)
            }
            Builtin::Ilog2 => {
                let x = i(0);
                if x <= 0 {
                    return Err(self.fault_code(
                        &fault::R0012,
                        span,
                        format!("ilog2 of {x}: the argument must be positive"),
                    ));
                }
                V::I(63 - x.leading_zeros() as i64)
            }
            Builtin::Shmalloc => {
                V::I(self.mem.alloc(memory::SHARED_HEAP, i(0).max(0) as u64, 8) as i64)
            }
            Builtin::Malloc => {
                V::I(self.mem.alloc(memory::PRIVATE_HEAP, i(0).max(0) as u64, 8) as i64)
            }
            Builtin::Shfree | Builtin::Free => {
                let shared = op == Builtin::Shfree;
                self.mem
                    .free(i(0) as u64, shared)
                    .map_err(|e| self.access(e, span))?;
                V::I(0)
            }
            Builtin::StackRoom => {
                if i(0) == 0 {
                    return Err(self.fault_code(&fault::R0008, span, transform::plan::STACK_FULL));
                }
                V::I(0)
            }
            Builtin::Assert => {
                let holds = match vals.first() {
                    Some(V::I(v)) => *v != 0,
                    Some(V::F(x)) => *x != 0.0,
                    _ => true,
                };
                if !holds {
                    return Err(self.fault_code(&fault::R0007, span, "assertion failed"));
                }
                V::I(0)
            }
            Builtin::Abs => V::I(norm(i(0).wrapping_abs(), ty)),
            Builtin::Labs => V::I(i(0).wrapping_abs()),
            Builtin::Fabs => V::F(f(0).abs()),
            Builtin::Sqrt => V::F(f(0).sqrt()),
            Builtin::Pow => V::F(f(0).powf(f(1))),
            Builtin::Exp => V::F(f(0).exp()),
            Builtin::Log => V::F(f(0).ln()),
            Builtin::Sin => V::F(f(0).sin()),
            Builtin::Cos => V::F(f(0).cos()),
            Builtin::Floor => V::F(f(0).floor()),
            Builtin::Ceil => V::F(f(0).ceil()),
        })
    }

    fn printf(&mut self, args: &[Expr], span: Span) -> Result<V, Fault> {
        let Some((fmt, rest)) = args.split_first() else {
            return Err(self.fault(span, "printf without a format"));
        };
        let fmt_addr = self.int(fmt)? as u64;
        let fmt = self
            .mem
            .c_string(fmt_addr)
            .map_err(|e| self.access(e, span))?;
        let mut vals = Vec::with_capacity(rest.len());
        for a in rest {
            vals.push(match self.eval(a)? {
                V::F(f) => Arg::Float(f),
                V::I(v) => Arg::Int(v),
                V::Agg(_) => return Err(self.fault(a.span, "printf of a struct")),
            });
        }
        let mem = &*self.mem;
        let string_at = |a: u64| {
            mem.c_string(a)
                .map_err(|_| "`%s` of an invalid pointer".to_string())
        };
        let text = printf::format(&fmt, &vals, &string_at).map_err(|m| self.fault(span, m))?;
        let n = text.len();
        self.out.extend(text);
        Ok(V::I(n as i64))
    }
}

pub fn combine(op: MpOp, a: i64, b: i64) -> i64 {
    let v = match op {
        MpOp::Add => a.wrapping_add(b),
        MpOp::Max => a.max(b),
        MpOp::Min => a.min(b),
        MpOp::And => a & b,
        MpOp::Or => a | b,
    };
    v as i32 as i64
}

/// Truncates to the integer type's width and extends by its signedness.
pub fn norm(v: i64, ty: &Type) -> i64 {
    match ty {
        Type::Int(k) => match k {
            IntKind::I8 => v as i8 as i64,
            IntKind::U8 => v as u8 as i64,
            IntKind::I16 => v as i16 as i64,
            IntKind::U16 => v as u16 as i64,
            IntKind::I32 => v as i32 as i64,
            IntKind::U32 => v as u32 as i64,
            IntKind::I64 | IntKind::U64 => v,
        },
        _ => v,
    }
}

fn round_float(f: f64, ty: &Type) -> f64 {
    match ty {
        Type::Float(FloatKind::F32) => f as f32 as f64,
        _ => f,
    }
}

pub fn convert(v: V, from: &Type, to: &Type) -> V {
    match (v, to) {
        (V::I(i), Type::Float(_)) => {
            let unsigned = matches!(from, Type::Int(k) if !k.signed());
            let f = if unsigned { i as u64 as f64 } else { i as f64 };
            V::F(round_float(f, to))
        }
        (V::F(f), Type::Int(k)) => {
            let i = if k.signed() {
                f as i64
            } else {
                f as u64 as i64
            };
            V::I(norm(i, to))
        }
        (V::F(f), Type::Float(_)) => V::F(round_float(f, to)),
        (V::F(f), _) => V::I(f as i64),
        (V::I(i), _) => V::I(norm(i, to)),
        (agg, _) => agg,
    }
}

fn decode(bytes: &[u8], ty: &Type) -> V {
    let mut b = [0u8; 8];
    let n = bytes.len().min(8);
    b[..n].copy_from_slice(&bytes[..n]);
    match ty {
        Type::Float(FloatKind::F32) => V::F(f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64),
        Type::Float(FloatKind::F64) => V::F(f64::from_le_bytes(b)),
        Type::Int(_) | Type::Ptr(_) => V::I(norm(i64::from_le_bytes(b), ty)),
        _ => V::Agg(bytes.to_vec()),
    }
}

fn encode(v: &V, ty: &Type, size: u64) -> Vec<u8> {
    let size = size as usize;
    match (v, ty) {
        (V::F(f), Type::Float(FloatKind::F32)) => (*f as f32).to_le_bytes().to_vec(),
        (V::F(f), _) => f.to_le_bytes()[..size.min(8)].to_vec(),
        (V::I(i), _) => i.to_le_bytes()[..size.min(8)].to_vec(),
        (V::Agg(b), _) => b.clone(),
    }
}
