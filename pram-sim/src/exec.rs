//! Statements and the group tree. A statement runs for a sorted list of lanes; it returns where
//! each lane went (`Flow`): on to the next statement, or out by `break`, `continue`, `return`.
//! A private condition in a synchronous region splits the group: the subgroups are siblings
//! that run one after the other, each to completion, in canonical order (docs/language.md §4).

use crate::fault::{self, Fault};
use crate::machine::{Binding, Ctx, Frame, Lanes, Machine, Storage, Vals, R};
use crate::memory::{Origin, State};
use crate::step::Siblings;
use crate::value::{truth, Scalar};
use fork_frontend::hir::{
    Expr, FnKind, FuncId, InitElem, Mode, Sharity, Stmt, StmtKind, SwitchCase, VarId,
};
use fork_frontend::source::Span;
use pram_trace::Construct;
use smallvec::smallvec;

use crate::eval::Place;

/// Where the lanes of a statement went.
#[derive(Debug, Default)]
pub struct Flow {
    pub normal: Lanes,
    /// The lanes that left by `break`, `continue` or `return` (rare, so boxed).
    pub exits: Option<Box<Exits>>,
}

#[derive(Debug, Default)]
pub struct Exits {
    pub brk: Lanes,
    pub cont: Lanes,
    pub ret: Lanes,
}

impl Flow {
    fn normal(lanes: Lanes) -> Flow {
        Flow {
            normal: lanes,
            exits: None,
        }
    }

    fn exiting(exits: Exits) -> Flow {
        Flow {
            normal: Lanes::new(),
            exits: Some(Box::new(exits)),
        }
    }

    pub fn exits_mut(&mut self) -> &mut Exits {
        self.exits.get_or_insert_with(Box::default)
    }

    /// Adds exits of another path (they leave the same construct).
    fn add_exits(&mut self, other: Option<Box<Exits>>) {
        if let Some(o) = other {
            let e = self.exits_mut();
            append(&mut e.brk, o.brk);
            append(&mut e.cont, o.cont);
            append(&mut e.ret, o.ret);
        }
    }

    /// Adds the lanes of `other` (both went through alternative paths of one statement).
    fn join(mut self, other: Flow) -> Flow {
        append(&mut self.normal, other.normal);
        self.normal.sort_unstable();
        self.add_exits(other.exits);
        self
    }
}

/// Moves `from` to the end of `into` (most flows are empty: skip them cheaply).
#[inline]
fn append(into: &mut Lanes, from: Lanes) {
    if into.is_empty() {
        *into = from;
    } else if !from.is_empty() {
        into.extend_from_slice(&from);
    }
}

impl<'p> Machine<'p> {
    pub fn exec_block(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        stmts: &'p [Stmt],
        lanes: Lanes,
    ) -> R<Flow> {
        let mut out = Flow::default();
        let mut cur = lanes;
        for s in stmts {
            if cur.is_empty() {
                break;
            }
            let f = self.exec(fr, cx, s, cur)?;
            cur = f.normal;
            out.add_exits(f.exits);
        }
        out.normal = cur;
        Ok(out)
    }

    pub fn exec(&mut self, fr: &mut Frame, cx: &Ctx, s: &'p Stmt, lanes: Lanes) -> R<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.count_step(fr, cx, s.span, &lanes)?;
                self.eval(fr, cx, e, &lanes)?;
                self.end_step(cx)?;
                Ok(Flow::normal(lanes))
            }
            StmtKind::Decl { var, init } => {
                self.count_step(fr, cx, s.span, &lanes)?;
                self.declare(fr, cx, *var, init.as_deref(), &lanes, s.span)?;
                self.end_step(cx)?;
                Ok(Flow::normal(lanes))
            }
            StmtKind::Block(b) => self.exec_block(fr, cx, &b.stmts, lanes),
            StmtKind::If { cond, then, els } => {
                self.exec_if(fr, cx, s.span, cond, then, els.as_deref(), lanes)
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => self.exec_loop(
                fr,
                cx,
                s.span,
                cond.as_ref(),
                step.as_ref(),
                body,
                *test_first,
                lanes,
            ),
            StmtKind::Switch { cond, cases } => {
                self.exec_switch(fr, cx, s.span, cond, cases, lanes)
            }
            StmtKind::Break => Ok(Flow::exiting(Exits {
                brk: lanes,
                ..Exits::default()
            })),
            StmtKind::Continue => Ok(Flow::exiting(Exits {
                cont: lanes,
                ..Exits::default()
            })),
            StmtKind::Return(value) => {
                self.count_step(fr, cx, s.span, &lanes)?;
                if let Some(e) = value {
                    let v = self.eval(fr, cx, e, &lanes)?;
                    for (&l, v) in lanes.iter().zip(v) {
                        fr.ret[l as usize] = v;
                    }
                    self.end_step(cx)?;
                }
                Ok(Flow::exiting(Exits {
                    ret: lanes,
                    ..Exits::default()
                }))
            }
            StmtKind::Fork {
                count,
                at,
                dollar,
                body,
            } => self.exec_fork(fr, cx, s.span, count, at, dollar.as_ref(), body, lanes),
            StmtKind::Start(body) => self.exec_start(fr, cx, s.span, body, lanes),
            StmtKind::Farm(body) => {
                let farm = Ctx {
                    mode: Mode::Async,
                    ..*cx
                };
                match cx.mode {
                    Mode::Sync => self.run_async(fr, &farm, std::slice::from_ref(&**body), lanes),
                    Mode::Async => self.exec(fr, &farm, body, lanes),
                }
            }
            StmtKind::Seq(body) => {
                self.count_step(fr, cx, s.span, &lanes)?;
                let Some((&first, rest)) = lanes.split_first() else {
                    return Ok(Flow::default());
                };
                // Not a split of the machine's group tree, but drawn as one: the others wait.
                self.trace_split(Construct::Seq, s.span);
                let proc = fr.procs[first as usize];
                self.trace_group(Construct::Seq, cx.at, [proc], cx.func, s.span);
                let flow = self.exec(fr, cx, body, smallvec![first])?;
                self.trace_leave();
                self.trace_leave();
                Ok(flow.join(Flow::normal(Lanes::from_slice(rest))))
            }
            StmtKind::Barrier => {
                self.count_step(fr, cx, s.span, &lanes)?;
                if cx.mode == Mode::Async {
                    self.flush_async_output();
                }
                Ok(Flow::normal(lanes))
            }
        }
    }

    /// Evaluates a condition (one step); returns the lanes where it holds and the others.
    fn test(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        cond: Option<&Expr>,
        lanes: Lanes,
    ) -> R<(Lanes, Lanes)> {
        self.count_step(fr, cx, span, &lanes)?;
        let Some(cond) = cond else {
            return Ok((lanes, Lanes::new()));
        };
        let v = self.eval(fr, cx, cond, &lanes)?;
        self.end_step(cx)?;
        let s = self.scalar(&cond.ty);
        let (mut holds, mut fails) = (Lanes::new(), Lanes::new());
        for (&l, &x) in lanes.iter().zip(&v) {
            if truth(s, x) {
                holds.push(l);
            } else {
                fails.push(l);
            }
        }
        Ok((holds, fails))
    }

    /// Whether a condition splits the group (docs/language.md §4).
    fn splits(cx: &Ctx, cond: &Expr) -> bool {
        cx.mode == Mode::Sync && cond.sharity == Sharity::Private
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_if(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        cond: &Expr,
        then: &'p Stmt,
        els: Option<&'p Stmt>,
        lanes: Lanes,
    ) -> R<Flow> {
        let (t, f) = self.test(fr, cx, span, Some(cond), lanes)?;
        let run = |m: &mut Self, fr: &mut Frame, cx: &Ctx, body: Option<&'p Stmt>, lanes: Lanes| {
            match body {
                Some(body) if !lanes.is_empty() => m.exec(fr, cx, body, lanes),
                _ => Ok(Flow::normal(lanes)),
            }
        };
        if !Self::splits(cx, cond) {
            let ft = run(self, fr, cx, Some(then), t)?;
            let ff = run(self, fr, cx, els, f)?;
            return Ok(ft.join(ff));
        }
        let mut sib = self.siblings_begin(Construct::If, span);
        let ft = self.run_sibling(fr, cx, &mut sib, t, cx.at, None, |m, fr, cx, l| {
            run(m, fr, cx, Some(then), l)
        })?;
        sib.construct = Construct::Else;
        let ff = match els {
            Some(_) => self.run_sibling(fr, cx, &mut sib, f, cx.at, None, |m, fr, cx, l| {
                run(m, fr, cx, els, l)
            })?,
            None => Flow::normal(f),
        };
        self.siblings_end(sib);
        Ok(ft.join(ff))
    }

    /// Runs `body` for `lanes` as a new subgroup (fresh `$$` and `groupsize()`, `@` = `at`,
    /// `$` from `dollar` when given, its own shared locals), one sibling of `sib`.
    #[allow(clippy::too_many_arguments)]
    fn run_sibling(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        sib: &mut Siblings,
        lanes: Lanes,
        at: i64,
        dollar: Option<&[i64]>,
        body: impl FnOnce(&mut Self, &mut Frame, &Ctx, Lanes) -> R<Flow>,
    ) -> R<Flow> {
        if lanes.is_empty() {
            return Ok(Flow::default());
        }
        self.sibling_enter(sib);
        // The whole group in one subgroup (all members present, so in `$$` order): `$$` and
        // `$` stay what they are; only the shared-local scope is new.
        let renumber = lanes.len() != cx.size as usize || dollar.is_some();
        let procs: smallvec::SmallVec<[usize; 4]> = match renumber {
            true => lanes
                .iter()
                .map(|&l| fr.procs[l as usize] as usize)
                .collect(),
            false => smallvec::SmallVec::new(),
        };
        let saved_rank: Lanes = procs.iter().map(|&p| self.rank[p]).collect();
        let saved_dollar: smallvec::SmallVec<[i64; 4]> =
            procs.iter().map(|&p| self.dollar[p]).collect();
        for (i, &p) in procs.iter().enumerate() {
            self.rank[p] = i as u32;
            if let Some(d) = dollar {
                self.dollar[p] = d[i];
            }
        }
        let sub = Ctx {
            size: lanes.len() as u32,
            at,
            group: self.new_group(),
            ..*cx
        };
        let members = lanes.iter().map(|&l| fr.procs[l as usize]);
        self.trace_group(sib.construct, at, members, cx.func, sib.span);
        let mark = self.undo.len();
        self.group_depth += 1;
        self.stats.max_group_depth = self.stats.max_group_depth.max(self.group_depth);
        let flow = body(self, fr, &sub, lanes)?;
        self.trace_leave();
        self.group_depth -= 1;
        self.end_scope(mark);
        for (i, &p) in procs.iter().enumerate() {
            self.rank[p] = saved_rank[i];
            self.dollar[p] = saved_dollar[i];
        }
        self.sibling_leave(sib)?;
        Ok(flow)
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_loop(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &'p Stmt,
        test_first: bool,
        lanes: Lanes,
    ) -> R<Flow> {
        let (active, skipped) = if test_first {
            self.test(fr, cx, span, cond, lanes)?
        } else {
            (lanes, Lanes::new())
        };
        let iterate = |m: &mut Self, fr: &mut Frame, cx: &Ctx, lanes: Lanes| {
            m.iterate(fr, cx, span, cond, step, body, lanes)
        };
        let flow = if active.is_empty() {
            Flow::default()
        } else if cond.is_some_and(|c| Self::splits(cx, c)) {
            let mut sib = self.siblings_begin(Construct::Loop, span);
            let flow = self.run_sibling(fr, cx, &mut sib, active, cx.at, None, iterate)?;
            self.siblings_end(sib);
            flow
        } else {
            iterate(self, fr, cx, active)?
        };
        Ok(flow.join(Flow::normal(skipped)))
    }

    /// The iterations of a loop: members leave as their condition fails or they `break`; the
    /// loop ends when the last member has left.
    #[allow(clippy::too_many_arguments)]
    fn iterate(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        cond: Option<&Expr>,
        step: Option<&Expr>,
        body: &'p Stmt,
        lanes: Lanes,
    ) -> R<Flow> {
        let mut out = Flow::default();
        let mut active = lanes;
        loop {
            let f = self.exec(fr, cx, body, active)?;
            let mut next = f.normal;
            if let Some(e) = f.exits {
                append(&mut out.normal, e.brk);
                append(&mut out.exits_mut().ret, e.ret);
                append(&mut next, e.cont);
                next.sort_unstable();
            }
            if next.is_empty() {
                break;
            }
            if let Some(step) = step {
                self.count_step(fr, cx, step.span, &next)?;
                self.eval(fr, cx, step, &next)?;
                self.end_step(cx)?;
            }
            let (stay, leave) = self.test(fr, cx, span, cond, next)?;
            out.normal.extend(leave);
            if stay.is_empty() {
                break;
            }
            active = stay;
        }
        out.normal.sort_unstable();
        Ok(out)
    }

    fn exec_switch(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        cond: &Expr,
        cases: &'p [SwitchCase],
        lanes: Lanes,
    ) -> R<Flow> {
        self.count_step(fr, cx, span, &lanes)?;
        let v = self.eval(fr, cx, cond, &lanes)?;
        self.end_step(cx)?;
        let default = cases.iter().position(|c| c.value.is_none());
        let mut entries: Vec<(usize, u32)> = Vec::new();
        let mut unmatched = Lanes::new();
        for (&l, &x) in lanes.iter().zip(&v) {
            match cases
                .iter()
                .position(|c| c.value == Some(x as i64))
                .or(default)
            {
                Some(case) => entries.push((case, l)),
                None => unmatched.push(l),
            }
        }
        let flow = if Self::splits(cx, cond) {
            // One subgroup per entry case, in case order.
            entries.sort_by_key(|&(case, _)| case);
            let mut sib = self.siblings_begin(Construct::Switch, span);
            let mut flow = Flow::default();
            for group in entries.chunk_by(|a, b| a.0 == b.0) {
                let lanes = group.iter().map(|&(_, l)| l).collect();
                let f =
                    self.run_sibling(fr, cx, &mut sib, lanes, cx.at, None, |m, fr, cx, _| {
                        m.run_cases(fr, cx, cases, group)
                    })?;
                flow = flow.join(f);
            }
            self.siblings_end(sib);
            flow
        } else {
            self.run_cases(fr, cx, cases, &entries)?
        };
        Ok(flow.join(Flow::normal(unmatched)))
    }

    /// Case bodies in order; lanes enter at their case and fall through until `break`.
    fn run_cases(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        cases: &'p [SwitchCase],
        entries: &[(usize, u32)],
    ) -> R<Flow> {
        let mut out = Flow::default();
        let mut cur = Lanes::new();
        for (i, case) in cases.iter().enumerate() {
            let before = cur.len();
            cur.extend(entries.iter().filter(|e| e.0 == i).map(|e| e.1));
            if cur.len() != before {
                cur.sort_unstable();
            }
            if cur.is_empty() {
                continue;
            }
            let f = self.exec_block(fr, cx, &case.body, std::mem::take(&mut cur))?;
            if let Some(e) = f.exits {
                append(&mut out.normal, e.brk);
                let exits = out.exits_mut();
                append(&mut exits.cont, e.cont);
                append(&mut exits.ret, e.ret);
            }
            cur = f.normal;
        }
        out.normal.extend(cur);
        out.normal.sort_unstable();
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_fork(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        count: &Expr,
        at: &Expr,
        dollar: Option<&Expr>,
        body: &'p Stmt,
        lanes: Lanes,
    ) -> R<Flow> {
        self.count_step(fr, cx, span, &lanes)?;
        let k = self
            .eval(fr, cx, count, &lanes)?
            .first()
            .map_or(0, |&k| k as i64);
        let ats = self.eval(fr, cx, at, &lanes)?;
        let dollars = match dollar {
            Some(d) => self.eval(fr, cx, d, &lanes)?,
            None => lanes
                .iter()
                .map(|&l| self.dollar[fr.procs[l as usize] as usize] as u64)
                .collect(),
        };
        self.end_step(cx)?;
        let mut members: Vec<(i64, u32, i64)> = Vec::new();
        let mut skipped = Lanes::new();
        for (i, &l) in lanes.iter().enumerate() {
            let a = ats[i] as i64;
            if (0..k).contains(&a) {
                members.push((a, l, dollars[i] as i64));
            } else {
                skipped.push(l);
            }
        }
        members.sort_by_key(|m| m.0);
        let mut sib = self.siblings_begin(Construct::Fork, span);
        let mut flow = Flow::normal(skipped);
        for group in members.chunk_by(|a, b| a.0 == b.0) {
            let lanes = group.iter().map(|m| m.1).collect();
            let ds: Vec<i64> = group.iter().map(|m| m.2).collect();
            let f = self.run_sibling(
                fr,
                cx,
                &mut sib,
                lanes,
                group[0].0,
                Some(&ds),
                |m, fr, cx, l| m.exec(fr, cx, body, l),
            )?;
            flow = flow.join(f);
        }
        self.siblings_end(sib);
        Ok(flow)
    }

    /// `start S`: a barrier of all processors, which then form the root group and run S
    /// synchronously (`@` = 0, `$` = `$$` = `__PROC_NR__`).
    pub fn exec_start(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        span: Span,
        body: &'p Stmt,
        lanes: Lanes,
    ) -> R<Flow> {
        self.count_step(fr, cx, span, &lanes)?;
        self.flush_async_output();
        let sync = Ctx {
            mode: Mode::Sync,
            ..*cx
        };
        let dollars: Vec<i64> = lanes.iter().map(|&l| fr.procs[l as usize] as i64).collect();
        let mut sib = self.siblings_begin(Construct::Start, span);
        let flow = self.run_sibling(
            fr,
            &sync,
            &mut sib,
            lanes,
            0,
            Some(&dollars),
            |m, fr, cx, l| m.exec(fr, cx, body, l),
        )?;
        self.siblings_end(sib);
        Ok(flow)
    }

    /// A declaration: a fresh zero-filled instance (per lane, or per group for a shared local),
    /// then the initialiser.
    pub fn declare(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        var: VarId,
        init: Option<&[InitElem]>,
        lanes: &[u32],
        span: Span,
    ) -> R<()> {
        let prog = self.prog;
        let size = prog.var(var).ty.size(&prog.structs);
        let place = match self.storage[var.0 as usize] {
            Storage::Column(slot) => {
                let col = fr.col_mut(slot);
                lanes.iter().for_each(|&l| col[l as usize] = 0);
                Place::Col(slot)
            }
            Storage::PrivObj(slot) => {
                let mut ptrs = Vals::with_capacity(lanes.len());
                for &l in lanes {
                    let p = fr.col_mut(slot)[l as usize];
                    let p = if p != 0 && self.mem.is_live(p) {
                        self.mem.clear(p);
                        p
                    } else {
                        let p = self
                            .mem
                            .alloc(size, false, Origin::Var(var))
                            .map_err(|e| self.mem_fault(e, span, fr, cx, l, true))?;
                        fr.owned.push(p);
                        fr.col_mut(slot)[l as usize] = p;
                        p
                    };
                    ptrs.push(p);
                }
                Place::Mem(ptrs)
            }
            Storage::SharedLocal => {
                let b = self.bound[var.0 as usize];
                let ptr = if b.group == cx.group && self.mem.is_live(b.ptr) {
                    self.mem.clear(b.ptr);
                    b.ptr
                } else {
                    let lane = lanes.first().copied().unwrap_or(0);
                    let p = self
                        .mem
                        .alloc(size, true, Origin::Var(var))
                        .map_err(|e| self.mem_fault(e, span, fr, cx, lane, true))?;
                    self.undo.push((var, b));
                    self.bound[var.0 as usize] = Binding {
                        ptr: p,
                        group: cx.group,
                    };
                    p
                };
                Place::Mem(smallvec![ptr; lanes.len()])
            }
            Storage::SharedGlobal(_) | Storage::PrivGlobal(_) => {
                return Err(self.internal("a global declared as a local"));
            }
        };
        match init {
            Some(init) => self.init_object(fr, cx, &place, init, lanes),
            None => Ok(()),
        }
    }

    /// A call by the lanes `lanes`: a new frame whose lane i is the caller's lane `lanes[i]`.
    #[inline(never)]
    pub fn call(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        site: &Expr,
        func: FuncId,
        args: &[Expr],
        lanes: &[u32],
    ) -> R<Vals> {
        let span = site.span;
        let body = &self.prog.func(func).body.stmts;
        let (mut callee, inner, mark) = self.enter_call(fr, cx, func, args, lanes, span)?;
        // Calls by a group, from when its arguments are evaluated (calls among them come
        // first); a processor's calls in asynchronous code are not traced.
        let traced = cx.mode == Mode::Sync;
        if traced {
            self.trace_call(func, span);
        }
        let all: Lanes = (0..lanes.len() as u32).collect();
        if inner.mode == Mode::Async && cx.mode == Mode::Sync {
            // Like `farm`: the members run the function asynchronously, then meet again.
            self.run_async(&mut callee, &inner, body, all)?;
        } else {
            self.exec_block(&mut callee, &inner, body, all)?;
        }
        let mut ret = std::mem::take(&mut callee.ret);
        self.keep_returned(fr, cx, site, func, lanes, &mut ret)?;
        self.leave_call(&inner, &callee, mark)?;
        if traced {
            self.trace_leave();
        }
        Ok(ret)
    }

    /// A struct value is the address of its object, and the callee's objects end with the
    /// call: the value a call of a struct-returning function returns moves into an object of
    /// the caller's frame, one per call expression and lane, reused each time the expression
    /// is evaluated again. A function that falls off its end returns a zeroed struct, as a
    /// scalar one returns 0.
    pub fn keep_returned(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        site: &Expr,
        func: FuncId,
        lanes: &[u32],
        vals: &mut Vals,
    ) -> R<()> {
        let Scalar::Aggregate(size) = self.scalar(&self.prog.func(func).ret) else {
            return Ok(());
        };
        let key = site as *const Expr as usize;
        for (v, &l) in vals.iter_mut().zip(lanes) {
            let kept = match fr.returned.iter().find(|r| r.0 == key && r.1 == l) {
                Some(&(_, _, p)) => p,
                None => {
                    let p = self
                        .mem
                        .alloc(size, false, Origin::Return(func))
                        .map_err(|e| self.mem_fault(e, site.span, fr, cx, l, true))?;
                    fr.owned.push(p);
                    fr.returned.push((key, l, p));
                    p
                }
            };
            match *v {
                0 => self.mem.clear(kept),
                src => self
                    .mem
                    .copy(kept, src, size)
                    .map_err(|e| self.mem_fault(e, site.span, fr, cx, l, false))?,
            }
            *v = kept;
        }
        Ok(())
    }

    /// Evaluates the arguments, checks the depth, makes the callee's frame and binds the
    /// parameters. Returns the frame, the callee's context and the shared-scope mark.
    pub fn enter_call(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        func: FuncId,
        args: &[Expr],
        lanes: &[u32],
        span: Span,
    ) -> R<(Frame, Ctx, usize)> {
        let prog = self.prog;
        let f = prog.func(func);
        let mut argv: smallvec::SmallVec<[Vals; 4]> = smallvec::SmallVec::new();
        for a in args {
            argv.push(self.eval(fr, cx, a, lanes)?);
        }
        // The caller's writes so far happen before the callee's first step.
        self.end_step(cx)?;
        if self.depth >= self.cfg.max_depth {
            let fault = Fault::new(
                &fault::R0008,
                span,
                format!(
                    "recursion deeper than {} nested calls (calling `{}`)",
                    self.cfg.max_depth, f.name
                ),
            )
            .with_help("check the recursion's base case");
            return Err(self.fault(fault, fr, cx, lanes.first().copied().unwrap_or(0)));
        }
        self.depth += 1;
        let procs = lanes.iter().map(|&l| fr.procs[l as usize]).collect();
        let mut callee = self.frame(func, procs);
        let inner = Ctx {
            mode: match f.kind {
                FnKind::Sync => Mode::Sync,
                FnKind::Async => Mode::Async,
                FnKind::Straight => cx.mode,
            },
            group: self.new_group(),
            func,
            ..*cx
        };
        let mark = self.undo.len();
        let all: Lanes = (0..lanes.len() as u32).collect();
        for (&param, vals) in f.params.iter().zip(&argv) {
            let s = self.scalar(&prog.var(param).ty);
            self.declare(&mut callee, &inner, param, None, &all, span)?;
            let place = match self.storage[param.0 as usize] {
                Storage::Column(slot) => Place::Col(slot),
                _ => self.var_place(&mut callee, &inner, param, &all, span)?,
            };
            let first = self.pending.len();
            self.store(&mut callee, &inner, &place, s, &all, vals, span)?;
            if prog.var(param).sharity == Sharity::Shared {
                // The calling group writes a `sh` argument once (docs/language.md §3).
                self.pending[first..]
                    .iter_mut()
                    .for_each(|w| w.by_group = true);
            }
        }
        self.end_step(&inner)?;
        self.stats.functions[func.0 as usize].calls += 1;
        Ok((callee, inner, mark))
    }

    /// Ends a call: its shared locals and private objects end.
    pub fn leave_call(&mut self, inner: &Ctx, callee: &Frame, mark: usize) -> R<()> {
        self.end_step(inner)?;
        self.end_scope(mark);
        for &p in &callee.owned {
            self.mem.release(p, State::Ended);
        }
        self.depth -= 1;
        Ok(())
    }
}
