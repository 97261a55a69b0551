//! Asynchronous regions (`main` before `start`, `farm`, an `async` function called by a group):
//! the processors run independently, scheduled deterministically round-robin, one statement
//! per processor per turn, so a processor spinning on a flag that another sets makes progress.
//!
//! Each processor is a small-step machine: a stack of call levels, each with a stack of
//! continuations (the rest of a block, a loop to test again, switch cases to fall into).
//! Simple statements are executed whole by the vectorised interpreter on that one lane; a call
//! that is a whole statement (`f(x);`, `v = f(x);`, `int v = f(x);`) is entered step by step,
//! and so is a call of a function that synchronises inside a larger expression: it runs before
//! the rest of its statement, which then runs with the call's value (docs/language.md §8,
//! `fork_frontend::sync_calls`). Other calls inside expressions run to completion within their
//! statement.

use crate::eval::Place;
use crate::exec::Flow;
use crate::machine::{Ctx, Frame, Lanes, Machine, R};
use crate::value::truth;
use fork_frontend::hir::{Expr, ExprKind, FuncId, Mode, Stmt, StmtKind, SwitchCase, VarId};
use fork_frontend::source::Span;

/// What remains to be done at one call level.
#[derive(Clone, Copy)]
enum Cont<'p> {
    /// The statements from the index on.
    Stmts(&'p [Stmt], usize),
    /// A loop whose body just ended: its step, its test, the next iteration.
    Loop(&'p Stmt),
    /// Switch case bodies from the index on (fall-through).
    Cases(&'p [SwitchCase], usize),
}

/// Where a returned value goes.
enum Target<'p> {
    Discard,
    /// `place = f(x)`: the place, and its address when it was evaluated before the call (a
    /// call that does not synchronise: the place comes first, as everywhere else); a
    /// synchronising call runs before the rest of its statement, place included.
    Place(&'p Expr, Option<Place>),
    Var(VarId),
    /// A synchronising call inside a larger expression: its value for the statement's run.
    First(&'p Expr),
}

struct Level<'p> {
    /// The callee's frame (lane 0); None at the region's own level (the region frame).
    frame: Option<Frame>,
    cx: Ctx,
    conts: Vec<Cont<'p>>,
    mark: usize,
    target: Target<'p>,
    /// The call expression and its callee (None at the region's own level).
    call: Option<(&'p Expr, FuncId)>,
    span: Span,
}

#[derive(Clone, Copy)]
enum State<'p> {
    Running,
    AtBarrier(Span),
    /// At a `start` or `seq` (docs/language.md §8): it runs for the processors waiting at it
    /// once the others wait too or have left the region.
    AtGroup(&'p Stmt),
    Finished,
    Returned,
}

struct Thread<'p> {
    /// The lane in the region frame.
    lane: u32,
    levels: Vec<Level<'p>>,
    state: State<'p>,
    /// This processor's PRAM clock.
    clock: u64,
    /// The value of the synchronising call that ran before the rest of the next statement.
    ran_first: Option<(&'p Expr, u64)>,
}

/// A `start` or `seq` that processors wait at: the statement and the calls (from the region's
/// body inwards) each reached it through. Those that reached one statement through other
/// calls wait at another stop, as each call compiled in place has its own copy in the Plan.
struct Stop<'p> {
    stmt: &'p Stmt,
    calls: Vec<&'p Expr>,
}

impl Stop<'_> {
    fn same(&self, other: &Stop) -> bool {
        std::ptr::eq(self.stmt, other.stmt)
            && self.calls.len() == other.calls.len()
            && self
                .calls
                .iter()
                .zip(&other.calls)
                .all(|(a, b)| std::ptr::eq(*a, *b))
    }

    /// Program order: by the call sites, outermost first, then the statement.
    fn order(&self) -> Vec<(u32, u32)> {
        self.calls
            .iter()
            .map(|c| (c.span.lo, c.span.hi))
            .chain([(self.stmt.span.lo, self.stmt.span.hi)])
            .collect()
    }
}

impl<'p> Thread<'p> {
    fn stop(&self) -> Option<Stop<'p>> {
        match self.state {
            State::AtGroup(stmt) => Some(Stop {
                stmt,
                calls: self
                    .levels
                    .iter()
                    .filter_map(|l| l.call.map(|c| c.0))
                    .collect(),
            }),
            _ => None,
        }
    }
}

/// A resumable call: `f(x)`, `place = f(x)`.
fn statement_call(e: &Expr) -> Option<(&Expr, FuncId, Target<'_>)> {
    match &e.kind {
        ExprKind::Call { func, .. } => Some((e, *func, Target::Discard)),
        ExprKind::Assign { place, value } => match &value.kind {
            ExprKind::Call { func, .. } => Some((value, *func, Target::Place(place, None))),
            _ => None,
        },
        _ => None,
    }
}

impl<'p> Machine<'p> {
    /// Runs `body` asynchronously for `lanes` of `fr`; the region ends when every processor
    /// has left it (a barrier of the group).
    pub fn run_async(
        &mut self,
        fr: &mut Frame,
        cx: &Ctx,
        body: &'p [Stmt],
        lanes: Lanes,
    ) -> R<Flow> {
        let acx = Ctx {
            mode: Mode::Async,
            ..*cx
        };
        let start = self.clock;
        self.trace_async(body.first().map_or(Span::default(), |s| s.span));
        let mut threads: Vec<Thread<'p>> = lanes
            .iter()
            .map(|&lane| Thread {
                lane,
                levels: vec![Level {
                    frame: None,
                    cx: acx,
                    conts: vec![Cont::Stmts(body, 0)],
                    mark: self.undo.len(),
                    target: Target::Discard,
                    call: None,
                    span: Span::default(),
                }],
                state: State::Running,
                clock: start,
                ran_first: None,
            })
            .collect();
        loop {
            let mut ran = false;
            for t in threads
                .iter_mut()
                .filter(|t| matches!(t.state, State::Running))
            {
                ran = true;
                self.clock = t.clock;
                self.async_step(fr, t)?;
                t.clock = self.clock;
            }
            if ran {
                continue;
            }
            // Nobody can run: everyone left, or waits at a barrier or at `start`.
            let now = threads.iter().map(|t| t.clock).max().unwrap_or(start);
            let waiting: Lanes = threads
                .iter()
                .filter(|t| matches!(t.state, State::AtBarrier(_) | State::AtGroup(_)))
                .map(|t| t.lane)
                .collect();
            if waiting.is_empty() {
                break;
            }
            self.flush_async_output();
            self.clock = now;
            if let Some(span) = threads.iter().find_map(|t| match t.state {
                State::AtBarrier(span) => Some(span),
                _ => None,
            }) {
                self.trace_barrier(waiting.len() as u32, span);
            }
            self.run_stops(&mut threads, fr)?;
            for t in threads.iter_mut() {
                if matches!(t.state, State::AtBarrier(_) | State::AtGroup(_)) {
                    t.state = State::Running;
                }
                t.clock = self.clock;
            }
        }
        self.clock = threads.iter().map(|t| t.clock).max().unwrap_or(start);
        self.trace_leave();
        self.flush_async_output();
        let mut flow = Flow::default();
        for t in &threads {
            match t.state {
                State::Returned => flow.exits_mut().ret.push(t.lane),
                _ => flow.normal.push(t.lane),
            }
        }
        Ok(flow)
    }

    /// Runs the `start`s and `seq`s that processors wait at, each for the processors waiting
    /// at it, in program order; those waiting at a `barrier` are released with them
    /// (docs/language.md §8).
    fn run_stops(&mut self, threads: &mut [Thread<'p>], fr: &mut Frame) -> R<()> {
        let mut stops: Vec<Stop<'p>> = threads.iter().filter_map(Thread::stop).collect();
        stops.sort_by_cached_key(Stop::order);
        stops.dedup_by(|a, b| a.same(b));
        for stop in stops {
            let at: Vec<usize> = (0..threads.len())
                .filter(|&i| threads[i].stop().is_some_and(|s| s.same(&stop)))
                .collect();
            self.start_for(threads, &at, fr, stop.stmt)?;
        }
        Ok(())
    }

    /// Runs the `start` (or the `seq`, as `start { seq S }`: docs/language.md §8) `stop` for
    /// the processors `at` waiting at it. Each has its variables of the `start`'s function in
    /// its own call's frame, or in the region's: they are gathered into one frame of the
    /// group and scattered back after the body.
    fn start_for(
        &mut self,
        threads: &mut [Thread<'p>],
        at: &[usize],
        fr: &mut Frame,
        stop: &'p Stmt,
    ) -> R<()> {
        let Some(level) = threads[at[0]].levels.last() else {
            return Err(self.internal("a finished processor at a `start`"));
        };
        let cx = Ctx {
            mode: Mode::Sync,
            ..level.cx
        };
        let k = at.len();
        let slots = self.slots[cx.func.0 as usize] as usize;
        let mut group = {
            let parts: Vec<(&Frame, usize)> = at
                .iter()
                .map(|&i| {
                    let t = &threads[i];
                    match t.levels.last().and_then(|l| l.frame.as_ref()) {
                        Some(f) => (f, 0),
                        None => (&*fr, t.lane as usize),
                    }
                })
                .collect();
            let mut group = self.frame(cx.func, parts.iter().map(|(f, l)| f.procs[*l]).collect());
            for (i, (f, l)) in parts.iter().enumerate() {
                let n = f.procs.len();
                for s in 0..slots {
                    group.cols[s * k + i] = f.cols[s * n + l];
                }
            }
            group
        };
        let body = match &stop.kind {
            StmtKind::Start(body) => &**body,
            _ => stop,
        };
        self.exec_start(&mut group, &cx, stop.span, body, (0..k as u32).collect())?;
        for (i, &ti) in at.iter().enumerate() {
            let t = &mut threads[ti];
            let lane = t.lane as usize;
            let (f, l) = match t.levels.last_mut().and_then(|l| l.frame.as_mut()) {
                Some(f) => (f, 0),
                None => (&mut *fr, lane),
            };
            let n = f.procs.len();
            for s in 0..slots {
                f.cols[s * n + l] = group.cols[s * k + i];
            }
        }
        // The private objects declared in the body end with it (its scope).
        for &p in &group.owned {
            self.mem.release(p, crate::memory::State::Ended);
        }
        Ok(())
    }

    /// Advances one processor by one statement (or until it must wait).
    fn async_step(&mut self, fr: &mut Frame, t: &mut Thread<'p>) -> R<()> {
        loop {
            let Some(level) = t.levels.last_mut() else {
                t.state = State::Finished;
                return Ok(());
            };
            let Some(cont) = level.conts.last_mut() else {
                // Fell off the end of a function or of the region.
                return self.finish_level(fr, t, None);
            };
            match *cont {
                Cont::Stmts(stmts, i) if i < stmts.len() => {
                    *cont = Cont::Stmts(stmts, i + 1);
                    return self.async_stmt(fr, t, &stmts[i]);
                }
                Cont::Cases(cases, i) if i < cases.len() => {
                    *cont = Cont::Cases(cases, i + 1);
                    level.conts.push(Cont::Stmts(&cases[i].body, 0));
                }
                Cont::Stmts(..) | Cont::Cases(..) => {
                    level.conts.pop();
                }
                Cont::Loop(s) => {
                    let StmtKind::Loop {
                        cond, step, body, ..
                    } = &s.kind
                    else {
                        return Err(self.internal("a loop continuation on a non-loop"));
                    };
                    if let Some(step) = step {
                        self.on_lane(fr, t, |m, frame, cx, lanes| {
                            m.count_step(frame, cx, step.span, lanes)?;
                            m.eval(frame, cx, step, lanes).map(drop)
                        })?;
                    }
                    if self.holds(fr, t, s.span, cond.as_ref())? {
                        push(t, Cont::Stmts(std::slice::from_ref(&**body), 0));
                    } else if let Some(level) = t.levels.last_mut() {
                        level.conts.pop();
                    }
                    return Ok(());
                }
            }
        }
    }

    /// Executes (or begins) one statement of a processor. A synchronising call inside its
    /// expression is entered first, step by step; the statement runs again after it returns,
    /// with the call's value in place of the call.
    fn async_stmt(&mut self, fr: &mut Frame, t: &mut Thread<'p>, s: &'p Stmt) -> R<()> {
        if t.ran_first.is_none() {
            if let Some(call) = self.sync_calls.embedded(s) {
                push(t, Cont::Stmts(std::slice::from_ref(s), 0));
                return self.push_call(fr, t, call, Target::First(call), s.span);
            }
        }
        self.ran_first = t.ran_first.take();
        let done = self.async_stmt_now(fr, t, s);
        self.ran_first = None;
        done
    }

    fn async_stmt_now(&mut self, fr: &mut Frame, t: &mut Thread<'p>, s: &'p Stmt) -> R<()> {
        match &s.kind {
            StmtKind::Expr(e) => match statement_call(e) {
                Some((call, func, mut target))
                    if self.prog.func(func).kind != fork_frontend::hir::FnKind::Sync =>
                {
                    let synchronises = self.sync_calls.synchronises(func);
                    self.on_lane(fr, t, |m, frame, cx, lanes| {
                        m.count_step(frame, cx, s.span, lanes)?;
                        if let Target::Place(place, at) = &mut target {
                            if !synchronises {
                                *at = Some(m.place(frame, cx, place, lanes)?);
                            }
                        }
                        Ok(())
                    })?;
                    self.push_call(fr, t, call, target, s.span)
                }
                _ => self.on_lane(fr, t, |m, frame, cx, lanes| {
                    m.count_step(frame, cx, s.span, lanes)?;
                    m.eval(frame, cx, e, lanes)?;
                    m.end_step(cx)
                }),
            },
            StmtKind::Decl { var, init } => {
                let call = match init.as_deref() {
                    Some([elem]) if elem.offset == 0 => match &elem.value.kind {
                        ExprKind::Call { .. } => Some(&elem.value),
                        _ => None,
                    },
                    _ => None,
                };
                match call {
                    Some(call) => {
                        self.on_lane(fr, t, |m, frame, cx, lanes| {
                            m.count_step(frame, cx, s.span, lanes)?;
                            m.declare(frame, cx, *var, None, lanes, s.span)
                        })?;
                        self.push_call(fr, t, call, Target::Var(*var), s.span)
                    }
                    None => self.on_lane(fr, t, |m, frame, cx, lanes| {
                        m.count_step(frame, cx, s.span, lanes)?;
                        m.declare(frame, cx, *var, init.as_deref(), lanes, s.span)?;
                        m.end_step(cx)
                    }),
                }
            }
            StmtKind::Block(b) => {
                push(t, Cont::Stmts(&b.stmts, 0));
                Ok(())
            }
            StmtKind::Farm(body) => {
                push(t, Cont::Stmts(std::slice::from_ref(&**body), 0));
                Ok(())
            }
            StmtKind::If { cond, then, els } => {
                if self.holds(fr, t, s.span, Some(cond))? {
                    push(t, Cont::Stmts(std::slice::from_ref(&**then), 0));
                } else if let Some(els) = els {
                    push(t, Cont::Stmts(std::slice::from_ref(&**els), 0));
                }
                Ok(())
            }
            StmtKind::Loop {
                cond,
                body,
                test_first,
                ..
            } => {
                if !*test_first || self.holds(fr, t, s.span, cond.as_ref())? {
                    push(t, Cont::Loop(s));
                    push(t, Cont::Stmts(std::slice::from_ref(&**body), 0));
                }
                Ok(())
            }
            StmtKind::Switch { cond, cases } => {
                let v = self.on_lane(fr, t, |m, frame, cx, lanes| {
                    m.count_step(frame, cx, s.span, lanes)?;
                    let v = m.eval(frame, cx, cond, lanes)?;
                    m.end_step(cx)?;
                    Ok(v.first().copied().unwrap_or(0))
                })?;
                let entry = cases
                    .iter()
                    .position(|c| c.value == Some(v as i64))
                    .or_else(|| cases.iter().position(|c| c.value.is_none()));
                if let Some(i) = entry {
                    push(t, Cont::Cases(cases, i));
                }
                Ok(())
            }
            StmtKind::Break => {
                if let Some(level) = t.levels.last_mut() {
                    while let Some(c) = level.conts.pop() {
                        if matches!(c, Cont::Loop(_) | Cont::Cases(..)) {
                            break;
                        }
                    }
                }
                Ok(())
            }
            StmtKind::Continue => {
                if let Some(level) = t.levels.last_mut() {
                    while let Some(c) = level.conts.last() {
                        if matches!(c, Cont::Loop(_)) {
                            break;
                        }
                        level.conts.pop();
                    }
                }
                Ok(())
            }
            StmtKind::Return(value) => {
                let v = self.on_lane(fr, t, |m, frame, cx, lanes| {
                    m.count_step(frame, cx, s.span, lanes)?;
                    match value {
                        Some(e) => {
                            let v = m.eval(frame, cx, e, lanes)?;
                            m.end_step(cx)?;
                            Ok(v.first().copied().unwrap_or(0))
                        }
                        None => Ok(0),
                    }
                })?;
                self.finish_level(fr, t, Some(v))
            }
            StmtKind::Barrier => {
                self.on_lane(fr, t, |m, frame, cx, lanes| {
                    m.count_step(frame, cx, s.span, lanes)
                })?;
                t.state = State::AtBarrier(s.span);
                Ok(())
            }
            StmtKind::Start(_) | StmtKind::Seq(_) => {
                t.state = State::AtGroup(s);
                Ok(())
            }
            StmtKind::Fork { .. } => {
                Err(self.internal("a synchronous construct in asynchronous code"))
            }
        }
    }

    /// Runs `f` on the processor's current frame and lane, in its level's context.
    fn on_lane<T>(
        &mut self,
        fr: &mut Frame,
        t: &mut Thread<'p>,
        f: impl FnOnce(&mut Self, &mut Frame, &Ctx, &[u32]) -> R<T>,
    ) -> R<T> {
        let lane = t.lane;
        let Some(level) = t.levels.last_mut() else {
            return Err(self.internal("a finished processor stepped"));
        };
        let cx = level.cx;
        match &mut level.frame {
            Some(frame) => f(self, frame, &cx, &[0]),
            None => f(self, fr, &cx, &[lane]),
        }
    }

    /// Evaluates a condition (one step); a missing one holds.
    fn holds(
        &mut self,
        fr: &mut Frame,
        t: &mut Thread<'p>,
        span: Span,
        cond: Option<&Expr>,
    ) -> R<bool> {
        self.on_lane(fr, t, |m, frame, cx, lanes| {
            m.count_step(frame, cx, span, lanes)?;
            let Some(cond) = cond else {
                return Ok(true);
            };
            let v = m.eval(frame, cx, cond, lanes)?;
            m.end_step(cx)?;
            let s = m.scalar(&cond.ty);
            Ok(v.first().is_some_and(|&x| truth(s, x)))
        })
    }

    /// Enters a user function step by step (`call` is a call expression).
    fn push_call(
        &mut self,
        fr: &mut Frame,
        t: &mut Thread<'p>,
        call: &'p Expr,
        target: Target<'p>,
        span: Span,
    ) -> R<()> {
        let ExprKind::Call { func, args } = &call.kind else {
            return Err(self.internal("entering a call that is not a call"));
        };
        let func = *func;
        let (callee, cx, mark) = self.on_lane(fr, t, |m, frame, cx, lanes| {
            m.enter_call(frame, cx, func, args, lanes, span)
        })?;
        let body = &self.prog.func(func).body.stmts;
        t.levels.push(Level {
            frame: Some(callee),
            cx: Ctx {
                mode: Mode::Async,
                ..cx
            },
            conts: vec![Cont::Stmts(body, 0)],
            mark,
            target,
            call: Some((call, func)),
            span,
        });
        Ok(())
    }

    /// Leaves the current level, by `return` with a value or by falling off its end: a call
    /// returns to its caller, the region's own level ends the processor's part of the region.
    fn finish_level(&mut self, fr: &mut Frame, t: &mut Thread<'p>, returned: Option<u64>) -> R<()> {
        let Some(level) = t.levels.pop() else {
            return Ok(());
        };
        let mut value = smallvec::smallvec![returned.unwrap_or(0)];
        let Some(callee) = level.frame else {
            t.state = match returned {
                Some(v) => {
                    fr.ret[t.lane as usize] = v;
                    State::Returned
                }
                None => State::Finished,
            };
            return Ok(());
        };
        if let Some((call, func)) = level.call {
            self.on_lane(fr, t, |m, frame, cx, lanes| {
                m.keep_returned(frame, cx, call, func, lanes, &mut value)
            })?;
        }
        let value = value[0];
        self.leave_call(&level.cx, &callee, level.mark)?;
        let span = level.span;
        match level.target {
            Target::Discard => Ok(()),
            Target::First(call) => {
                t.ran_first = Some((call, value));
                Ok(())
            }
            Target::Place(place, at) => self.on_lane(fr, t, |m, frame, cx, lanes| {
                let p = match at {
                    Some(p) => p,
                    None => m.place(frame, cx, place, lanes)?,
                };
                let s = m.scalar(&place.ty);
                m.store(frame, cx, &p, s, lanes, &[value], span)?;
                m.end_step(cx)
            }),
            Target::Var(var) => self.on_lane(fr, t, |m, frame, cx, lanes| {
                let ty = &m.prog.var(var).ty;
                let s = m.scalar(ty);
                let p = match m.storage[var.0 as usize] {
                    crate::machine::Storage::Column(slot) => crate::eval::Place::Col(slot),
                    _ => m.var_place(frame, cx, var, lanes, span)?,
                };
                m.store(frame, cx, &p, s, lanes, &[value], span)?;
                m.end_step(cx)
            }),
        }
    }
}

fn push<'p>(t: &mut Thread<'p>, c: Cont<'p>) {
    if let Some(level) = t.levels.last_mut() {
        level.conts.push(c);
    }
}
