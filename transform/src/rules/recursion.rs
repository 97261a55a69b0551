//! Calls of *recursive* asynchronous functions that synchronise, compiled in place of the call
//! as a state machine over a per-processor call stack (docs/language.md §8). A recursive
//! callee cannot be inlined (its copies would not end), and a host call of the whole group
//! pairs its barriers otherwise than the simulator, which pairs them with whichever stop each
//! other processor meets. So the callee's body becomes the cases of a `switch (%pc)` in a
//! `do … while (%pc != 0)` loop: a self-call saves the caller's variables and the return
//! point on per-processor stacks (private arrays) and jumps to the entry; a `return` jumps to
//! the pop case, which resumes at the return point (or ends the loop), and the return point
//! restores the variables. Control
//! flow around a self-call (`if`, loops, `switch`, `break`, `continue`) becomes jumps between
//! cases; the rest of the body stays structured inside its case. The loop and its barriers,
//! `start`s and `seq`s are then ordinary asynchronous code, which `phases` turns into barrier
//! phases: a processor resumes at its stop's case, with its stack in slot memory.
//!
//! A `start` or `seq` stop is its statement and the calls it was reached through (pram-sim's
//! `Stop`): processors at one stop through different call chains form different groups, run
//! in program order of their chains. The state machine keeps a number of the running frame's
//! chain (`Chain`), and `phases` runs the groups in its order (`chain_order`).
//!
//! The functions of one recursion (the callee and those it calls that call it) share one
//! state machine, a range of cases each; a call saves the caller's variables, its return
//! point restores them. A call of another recursion inside is a state machine of its own
//! that goes on with the chain number.
//!
//! The variables of a frame: a scalar or struct whose address is not taken is saved by value
//! at a call and restored at its return point. An array, or a variable whose address is
//! taken (`&v`, an array used as a pointer), lives in a *home* per frame instead: a stack of
//! places indexed by `%sp`, where every use of it goes (`Home`). A pointer into the running
//! frame then stays valid while the frame runs, in the frames it calls too, which is C's
//! lifetime (one into a frame that has returned dangles, as in C); saving by value would
//! leave it pointing at the deeper frame's copy. A declaration of such a variable declares a
//! scratch copy (zeroes, then the initialiser) that the home takes whole: an array is the
//! only field of a struct there, so that this is one assignment.
//!
//! The recursion is that of the frames (`inline::frame_calls`): a call in a group construct's
//! body (a `start` or `seq` of the function) is made by the group it forms, in synchronous
//! code a host call of that group (`HostOp::Call`, exact as any call from synchronous code),
//! whose host function compiles its own frame's calls as a state machine again; no state
//! machine holds it.
//!
//! What is compiled so (`flattenable`): a recursion whose functions are `async` or `straight`
//! (so it has no `sh` variable, E0402 and E0403, no `fork`, E0407, and its `farm`s are
//! blocks; a `straight` one runs as its asynchronous caller's code, each processor alone). A
//! `start` through whose body (a `seq` or `farm` in it, compiled apart from the machine) the
//! recursion comes back is a call of the body's own `sync` function by the group it forms
//! (`outline`), so the machine's copies of the callees in place end.

use super::inline::{frame_calls, is_group_construct, Renaming};
use super::*;
use fork_frontend::hir::{
    BinOp, Block, Builtin, Field, FuncId, Function, Stmt, StructDef, StructId, SwitchCase, VarId,
};
use fork_frontend::sync_calls::{any_stmt, children};

use crate::plan::STACK_FRAMES;

/// A call chain as a number that orders chains as the simulator does (pram-sim's
/// `Stop::order`: by the call sites, outermost first, then the statement). The calls into
/// the recursion and the stops of each of its functions (those of the callees compiled in
/// place in it included, which no chain goes on from) and its calls of other recursions
/// are its *places*, numbered 1, 2, ... in source order, which is the order of the state
/// machine's text; a chain of a stop at depth `d` is the places
/// of its `d` calls and of the stop, written as digits in base `base` from the highest of
/// `frames + 1` digits down (lower digits 0). No chain is a prefix of another (each ends at
/// a stop, which is no call site), so numeric order is chain order. `%prefix` holds the running frame's calls' digits, `%scale` the
/// value of its own digit. `phases` finds a state machine with stops by its loop's `%pc`
/// (`Builder::machines`).
#[derive(Debug, Clone)]
pub(crate) struct Chain {
    /// The state machine's `%pc`.
    pub id: VarId,
    pub prefix: VarId,
    pub scale: VarId,
    /// The digit of each stop, in the order of the state machine's text (pre-order).
    pub stops: Vec<i64>,
}

/// Where a variable of the recursion whose address is taken, or an array, lives: its place in
/// each frame on the processor's stack (`Builder::home`), so that a pointer into a frame stays
/// valid while the frame runs, also in the deeper frames it calls.
#[derive(Debug, Clone)]
pub(super) struct Home {
    stack: VarId,
    sp: VarId,
    /// The variable's type.
    ty: Type,
    /// An array, the field of a struct on the stack.
    wrapped: bool,
}

/// The case numbers: 0 ends the loop.
const ENTRY: i64 = 1;
const POP: i64 = 2;

/// A function of the recursion a state machine runs.
struct Member {
    func: FuncId,
    /// Its first case.
    entry: i64,
    /// Where its parameters live: renamed locals or homes.
    params: Vec<Expr>,
    /// Its variables saved by value (renamed) and their stacks.
    saved: Vec<(VarId, VarId)>,
    result: Option<VarId>,
}

/// One state machine under construction.
struct Flat {
    /// The functions of the recursion: the callee and those it calls that call it.
    members: Vec<Member>,
    /// The member whose body is being compiled.
    current: usize,
    pc: VarId,
    sp: VarId,
    /// The return point's stack.
    returns: VarId,
    /// How many frames the stack holds.
    frames: i64,
    /// The chain number's variables and base (with stops in the function); its stops'
    /// digits are filled in as they are met.
    chain: Option<(Chain, i64)>,
    /// The places (`Chain`) met so far.
    places: i64,
    /// The digits of the calls of other recursive functions among them, whose state
    /// machines go on with the same chain number.
    nested: Vec<i64>,
    cases: Vec<(i64, Vec<Stmt>)>,
    case: i64,
    open: Vec<Stmt>,
    next: i64,
    /// The cases a `break` and a `continue` go to, innermost last (`None`: a `switch`).
    targets: Vec<(i64, Option<i64>)>,
    span: Span,
}

impl Builder<'_> {
    /// The statements of one call of the recursive `func` (module docs); `result` receives
    /// its value.
    pub(super) fn flattened_call(
        &mut self,
        func: FuncId,
        args: Vec<Expr>,
        result: Option<VarId>,
        span: Span,
    ) -> Vec<Stmt> {
        let funcs = recursion_of(&self.program, func);
        let pc = self.temp(Type::INT, "pc", span);
        // Inside another recursive call's state machine: its chain goes on here, after the
        // digit of this call.
        let outer = self.chain_parents.last_mut().map(|p| {
            let digit = p.2.get(p.3).copied().unwrap_or(0);
            p.3 += 1;
            (p.0, p.1, digit)
        });
        let originals: Vec<Vec<Stmt>> = funcs
            .iter()
            .map(|&g| self.program.func(g).body.stmts.clone())
            .collect();
        let (chain, frames) = self.chain(&originals, &funcs, pc, outer, span);
        let sp = self.temp(Type::INT, "sp", span);
        let mut names = Renaming::default();
        for &g in &funcs {
            for v in frame_vars(self.program.func(g)) {
                let var = self.program.var(v);
                if var.addr_taken || matches!(var.ty, Type::Array(..)) {
                    let home = self.home(g, v, frames, sp, span);
                    names.homes.insert(v, home);
                }
            }
        }
        let mut bodies = Vec::new();
        let mut frames_of = Vec::new();
        for (&g, mut body) in funcs.iter().zip(originals) {
            let f = self.program.func(g).clone();
            let params: Vec<Expr> = f
                .params
                .iter()
                .map(|p| match names.homes.get(p) {
                    Some(home) => self.home_place(home, span),
                    None => {
                        let local = self.renamed(*p, g, &mut names);
                        self.var_expr(local, span)
                    }
                })
                .collect();
            for s in &mut body {
                self.rename_stmt(s, g, &mut names);
            }
            // The variables of the running frame that are saved by value: those of a group
            // construct's body end there, before any call of the recursion; those with a
            // home stay in it.
            let mut own: Vec<VarId> = frame_vars(&f)
                .iter()
                .filter(|v| !names.homes.contains_key(v))
                .filter_map(|v| names.names.get(v).copied())
                .collect();
            own.sort();
            bodies.push(body);
            frames_of.push((params, own, f.ret.clone()));
        }
        let mut members = Vec::new();
        for (i, (&g, (params, mut own, ret))) in funcs.iter().zip(frames_of).enumerate() {
            // The chain number is the running frame's too: a return restores the caller's.
            if let Some((c, _)) = &chain {
                own.extend([c.prefix, c.scale]);
            }
            let saved = own
                .into_iter()
                .map(|v| {
                    let ty = Type::Array(Box::new(self.var_ty(v)), frames as u64);
                    let name = format!("{}_stack", self.program.var(v).name);
                    (v, self.stack_temp(ty, name, span))
                })
                .collect();
            let result = match (i, result) {
                (0, Some(r)) => Some(r),
                _ => (ret != Type::Void).then(|| self.temp(ret, "res", span)),
            };
            members.push(Member {
                func: g,
                entry: if i == 0 { ENTRY } else { POP + i as i64 },
                params,
                saved,
                result,
            });
        }
        let returns = self.stack_temp(
            Type::Array(Box::new(Type::INT), frames as u64),
            format!("%{}_returns", self.program.func(func).name),
            span,
        );
        let next = POP + members.len() as i64;
        let mut flat = Flat {
            members,
            current: 0,
            pc,
            sp,
            returns,
            frames,
            chain: chain.clone(),
            places: 0,
            nested: Vec::new(),
            cases: Vec::new(),
            case: ENTRY,
            open: Vec::new(),
            next,
            targets: Vec::new(),
            span,
        };
        for (i, body) in bodies.iter().enumerate() {
            flat.current = i;
            flat.places = 0;
            flat.open_case(flat.members[i].entry);
            for s in body {
                flat.stmt(self, s);
            }
            flat.jump(self, POP);
        }
        let pop = flat.pop(self);
        flat.cases.push((POP, pop));
        // The outermost frame's parameters, in their homes at `%sp` 0 where they have one.
        let mut stmts = vec![asg(self, sp, int(0, span), span)];
        stmts.extend(
            flat.members[0]
                .params
                .iter()
                .zip(args)
                .map(|(p, a)| store(p.clone(), a, span)),
        );
        let mut after = Vec::new();
        if let Some((c, base)) = &flat.chain {
            match outer {
                None => {
                    stmts.push(asg(self, c.prefix, int(0, span), span));
                    stmts.push(asg(self, c.scale, int(base.pow(frames as u32), span), span));
                }
                Some((_, _, digit)) => {
                    // The outer machine's number, restored when this call ends.
                    for v in [c.prefix, c.scale] {
                        let copy = self.temp(Type::INT, "outer_chain", span);
                        stmts.push(asg(self, copy, self.var_expr(v, span), span));
                        after.push(asg(self, v, self.var_expr(copy, span), span));
                    }
                    stmts.push(room(self, c, *base, None, span));
                    stmts.extend(deeper(self, c, *base, digit, span));
                }
            }
            self.chain_parents
                .push((c.prefix, c.scale, std::mem::take(&mut flat.nested), 0));
        }
        stmts.push(asg(self, pc, int(ENTRY, span), span));
        let cases = std::mem::take(&mut flat.cases)
            .into_iter()
            .map(|(value, body)| SwitchCase {
                value: Some(value),
                // The calls of functions outside the recursion (`inline`).
                body: self.inline_async_calls(&body),
                span,
            })
            .collect();
        if let Some((c, _)) = flat.chain.take() {
            self.chain_parents.pop();
            self.machines.insert(pc, c);
        }
        let switch = st(
            StmtKind::Switch {
                cond: self.var_expr(pc, span),
                cases,
            },
            span,
        );
        stmts.push(st(
            StmtKind::Loop {
                cond: Some(compare(self, pc, BinOp::Ne, 0, span)),
                step: None,
                body: Box::new(block(vec![switch], span)),
                test_first: false,
            },
            span,
        ));
        stmts.extend(after);
        stmts
    }

    /// The chain numbers of a call of the recursion `funcs` through whose `bodies` stops are
    /// reached (`Chain`), with their base, and the number of frames the stack holds: as many
    /// as the chain's digits allow, at most `STACK_FRAMES`. `outer`: the chain number's
    /// variables of the state machine this call is in, and this call's digit there.
    fn chain(
        &mut self,
        bodies: &[Vec<Stmt>],
        funcs: &[FuncId],
        pc: VarId,
        outer: Option<(VarId, VarId, i64)>,
        span: Span,
    ) -> (Option<(Chain, i64)>, i64) {
        let mut stops = false;
        // One base for every member: the most places of one of them, plus one.
        let mut most = 0;
        for body in bodies {
            let mut places = Vec::new();
            body.iter()
                .for_each(|s| places_of(&self.program, self.summaries, s, funcs, &mut places));
            stops |= has_stops(&self.program, self.summaries, &places);
            let mut calls = Vec::new();
            body.iter().for_each(|s| frame_calls(s, &mut calls));
            let sites = calls.iter().filter(|c| funcs.contains(c)).count();
            most = most.max(places.len() + sites);
        }
        if !stops {
            return (None, STACK_FRAMES as i64);
        }
        let base = most as i64 + 1;
        // The most digits whose largest number stays below `i32::MAX` (no chain).
        let mut digits = 0;
        let mut value: i64 = 1;
        while value * base <= i32::MAX as i64 {
            value *= base;
            digits += 1;
        }
        let frames = (digits - 1).min(STACK_FRAMES as i64);
        let (prefix, scale) = match outer {
            Some((prefix, scale, _)) => (prefix, scale),
            None => (
                self.temp(Type::INT, "chain_prefix", span),
                self.temp(Type::INT, "chain_scale", span),
            ),
        };
        let chain = Chain {
            id: pc,
            prefix,
            scale,
            stops: Vec::new(),
        };
        (Some((chain, base)), frames)
    }

    /// The home of `func`'s variable `v` in each frame: a stack of `frames + 1` places, the
    /// running frame's at `%sp` (module docs). An array is the only field of a struct there,
    /// so that its declaration can copy its initial value in one assignment.
    fn home(&mut self, func: FuncId, v: VarId, frames: i64, sp: VarId, span: Span) -> Home {
        let var = self.program.var(v).clone();
        let name = format!("{}_{}", self.program.func(func).name, var.name);
        let wrapped = matches!(var.ty, Type::Array(..));
        let elem = if wrapped {
            let structs = &mut self.program.structs;
            structs.push(StructDef {
                name: format!("frame_{name}"),
                fields: vec![Field {
                    name: var.name.clone(),
                    ty: var.ty.clone(),
                    offset: 0,
                }],
                size: var.ty.size(structs),
                align: var.ty.align(structs),
                span,
            });
            Type::Struct(StructId(structs.len() as u32 - 1))
        } else {
            var.ty.clone()
        };
        let ty = Type::Array(Box::new(elem), frames as u64 + 1);
        let stack = self.stack_temp(ty, format!("%{name}_frames"), span);
        Home {
            stack,
            sp,
            ty: var.ty,
            wrapped,
        }
    }

    /// The variable that lives in `home`, in the running frame.
    pub(super) fn home_place(&self, home: &Home, span: Span) -> Expr {
        let frame = self.top(home.stack, home.sp, span);
        if !home.wrapped {
            return frame;
        }
        let base = Box::new(frame);
        mk(ExprKind::Member { base, field: 0 }, home.ty.clone(), span)
    }

    /// The declaration `decl` of a variable that lives in `home`: it declares `scratch`
    /// instead (of the home's type), whose value the home then takes.
    pub(super) fn declared_home(&mut self, home: &Home, scratch: VarId, decl: Stmt) -> Stmt {
        let span = decl.span;
        let place = self.top(home.stack, home.sp, span);
        self.program.vars[scratch.0 as usize].ty = place.ty.clone();
        let copy = store(place, self.var_expr(scratch, span), span);
        block(vec![decl, copy], span)
    }

    /// A private array temporary (a stack of the state machine), addressed by index.
    fn stack_temp(&mut self, ty: Type, name: String, span: Span) -> VarId {
        let v = self.temp(ty, "stack", span);
        let var = &mut self.program.vars[v.0 as usize];
        var.name = name;
        var.addr_taken = true;
        v
    }

    /// `stack[%sp]`.
    fn top(&self, stack: VarId, sp: VarId, span: Span) -> Expr {
        let Type::Array(elem, _) = self.var_ty(stack) else {
            unreachable!("a stack is an array")
        };
        let ptr = Type::Ptr(elem.clone());
        let decay = mk(
            ExprKind::Decay(Box::new(self.var_expr(stack, span))),
            ptr.clone(),
            span,
        );
        let index = mk(
            ExprKind::Convert(Box::new(self.var_expr(sp, span))),
            Type::LONG,
            span,
        );
        let at = mk(
            ExprKind::PtrOffset {
                ptr: Box::new(decay),
                index: Box::new(index),
                elem_size: elem.size(&self.program.structs),
            },
            ptr,
            span,
        );
        mk(ExprKind::Deref(Box::new(at)), *elem, span)
    }
}

impl Flat {
    fn label(&mut self) -> i64 {
        self.next += 1;
        self.next
    }

    /// Ends the open case with `%pc = to` and starts no other.
    fn jump(&mut self, b: &Builder, to: i64) {
        let span = self.span;
        self.open.push(asg(b, self.pc, int(to, span), span));
        self.open.push(st(StmtKind::Break, span));
        self.close();
    }

    fn close(&mut self) {
        let body = std::mem::take(&mut self.open);
        self.cases.push((self.case, body));
    }

    /// Opens the case `label`.
    fn open_case(&mut self, label: i64) {
        self.case = label;
    }

    fn stmt(&mut self, b: &mut Builder, s: &Stmt) {
        let funcs: Vec<FuncId> = self.members.iter().map(|m| m.func).collect();
        if !calls(s, &funcs) {
            // Its places, once the calls in it are compiled in place, are the next ones.
            let mut places = Vec::new();
            places_of(&b.program, b.summaries, s, &funcs, &mut places);
            for place in places {
                self.places += 1;
                if let Some((c, _)) = &mut self.chain {
                    match place {
                        Place::Stop => c.stops.push(self.places),
                        Place::Call(_) => self.nested.push(self.places),
                    }
                }
            }
            let plain = self.plain(b, s, false, false);
            self.open.push(plain);
            return;
        }
        let span = s.span;
        if let Some((call, callee, args)) = site(s, &funcs) {
            let callee = funcs.iter().position(|&f| f == callee).unwrap_or(0);
            self.call(b, callee, args.to_vec(), span);
            if let Some(rest) = b.after_call(s, call, self.members[callee].result) {
                self.stmt(b, &rest);
            }
            return;
        }
        match &s.kind {
            StmtKind::Block(blk) => blk.stmts.iter().for_each(|s| self.stmt(b, s)),
            StmtKind::If { cond, then, els } => {
                let (t, join) = (self.label(), self.label());
                let e = if els.is_some() { self.label() } else { join };
                self.branch(b, cond.clone(), t, e, span);
                self.open_case(t);
                self.stmt(b, then);
                self.jump(b, join);
                if let Some(els) = els {
                    self.open_case(e);
                    self.stmt(b, els);
                    self.jump(b, join);
                }
                self.open_case(join);
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => {
                let (head, start, exit) = (self.label(), self.label(), self.label());
                let next = if step.is_some() { self.label() } else { head };
                self.jump(b, if *test_first { head } else { start });
                self.open_case(head);
                match cond {
                    Some(c) => self.branch(b, c.clone(), start, exit, span),
                    None => self.jump(b, start),
                }
                self.open_case(start);
                self.targets.push((exit, Some(next)));
                self.stmt(b, body);
                self.targets.pop();
                self.jump(b, next);
                if let Some(step) = step {
                    self.open_case(next);
                    self.open.push(st(StmtKind::Expr(step.clone()), span));
                    self.jump(b, head);
                }
                self.open_case(exit);
            }
            StmtKind::Switch { cond, cases } => {
                let labels: Vec<i64> = cases.iter().map(|_| self.label()).collect();
                let exit = self.label();
                let default = cases
                    .iter()
                    .zip(&labels)
                    .find(|(c, _)| c.value.is_none())
                    .map_or(exit, |(_, l)| *l);
                let select = cases
                    .iter()
                    .zip(&labels)
                    .filter(|(c, _)| c.value.is_some())
                    .map(|(c, l)| SwitchCase {
                        value: c.value,
                        body: vec![
                            asg(b, self.pc, int(*l, span), span),
                            st(StmtKind::Break, span),
                        ],
                        span: c.span,
                    })
                    .collect();
                self.open.push(asg(b, self.pc, int(default, span), span));
                self.open.push(st(
                    StmtKind::Switch {
                        cond: cond.clone(),
                        cases: select,
                    },
                    span,
                ));
                self.open.push(st(StmtKind::Break, span));
                self.close();
                self.targets.push((exit, None));
                for (i, c) in cases.iter().enumerate() {
                    self.open_case(labels[i]);
                    c.body.iter().for_each(|s| self.stmt(b, s));
                    // Falling through into the next case.
                    self.jump(b, labels.get(i + 1).copied().unwrap_or(exit));
                }
                self.targets.pop();
                self.open_case(exit);
            }
            // `flattenable` admits no self-call elsewhere.
            _ => unreachable!("a self-call in {:?}", s.kind),
        }
    }

    /// Ends the open case: `%pc = cond ? yes : no`.
    fn branch(&mut self, b: &Builder, cond: Expr, yes: i64, no: i64, span: Span) {
        let pick = mk(
            ExprKind::Cond(
                Box::new(truth(&cond)),
                Box::new(int(yes, span)),
                Box::new(int(no, span)),
            ),
            Type::INT,
            span,
        );
        self.open.push(asg(b, self.pc, pick, span));
        self.open.push(st(StmtKind::Break, span));
        self.close();
    }

    /// A call of the member `callee` with `args`: saves the frame, enters the callee's body;
    /// the open case after it is the return point, which restores the frame.
    fn call(&mut self, b: &mut Builder, callee: usize, args: Vec<Expr>, span: Span) {
        let back = self.label();
        // The arguments are evaluated in the caller's frame, before any parameter changes.
        let values: Vec<VarId> = args
            .into_iter()
            .map(|a| {
                let t = b.temp(a.ty.clone(), "arg", span);
                self.open.push(asg(b, t, a, span));
                t
            })
            .collect();
        let frames = compare(b, self.sp, BinOp::Lt, self.frames, span);
        let check = match &self.chain {
            Some((c, base)) => room(b, c, *base, Some(frames), span),
            None => room_check(frames, span),
        };
        self.open.push(check);
        let top = b.top(self.returns, self.sp, span);
        self.open.push(store(top, int(back, span), span));
        for &(v, stack) in &self.members[self.current].saved {
            let top = b.top(stack, self.sp, span);
            self.open.push(store(top, b.var_expr(v, span), span));
        }
        self.open
            .push(asg(b, self.sp, add(b, self.sp, 1, span), span));
        // `%sp` is the callee's frame: parameters with a home go there.
        for (p, t) in self.members[callee].params.clone().into_iter().zip(values) {
            self.open.push(store(p, b.var_expr(t, span), span));
        }
        // The chain: this site's digit in the running frame's place, the callee's one lower.
        self.places += 1;
        let chain = self.chain.as_ref().map(|(c, base)| (c.clone(), *base));
        if let Some((c, base)) = &chain {
            self.open.extend(deeper(b, c, *base, self.places, span));
        }
        self.jump(b, self.members[callee].entry);
        self.open_case(back);
        // The pop case has made `%sp` the index of this frame.
        for &(v, stack) in &self.members[self.current].saved {
            let value = b.top(stack, self.sp, span);
            self.open.push(asg(b, v, value, span));
        }
    }

    /// The pop case: the end of the outermost frame ends the loop; another resumes at its
    /// return point.
    fn pop(&self, b: &Builder) -> Vec<Stmt> {
        let span = self.span;
        let restore = vec![
            asg(b, self.sp, add(b, self.sp, -1, span), span),
            asg(b, self.pc, b.top(self.returns, self.sp, span), span),
        ];
        let outermost = st(
            StmtKind::If {
                cond: compare(b, self.sp, BinOp::Eq, 0, span),
                then: Box::new(asg(b, self.pc, int(0, span), span)),
                els: Some(Box::new(block(restore, span))),
            },
            span,
        );
        vec![outermost, st(StmtKind::Break, span)]
    }

    /// `s`, which makes no self-call, in a case: each `return` stores the result and jumps to
    /// the pop case; a `break` or `continue` of a loop or `switch` made of cases jumps to its
    /// target case. `nested`: inside a loop or `switch` of `s`, which the `return` leaves by
    /// `break` and `%pc == POP` after it.
    fn plain(&self, b: &Builder, s: &Stmt, in_loop: bool, in_switch: bool) -> Stmt {
        let span = s.span;
        let jump = |to: i64| {
            block(
                vec![
                    asg(b, self.pc, int(to, span), span),
                    st(StmtKind::Break, span),
                ],
                span,
            )
        };
        let had_return = returns(s);
        let continue_to = self.targets.iter().rev().find_map(|t| t.1).unwrap_or(POP);
        let had_continue = !in_loop && continues(s);
        let mut s = s.clone();
        match &mut s.kind {
            StmtKind::Return(value) => {
                let mut stmts = Vec::new();
                match (self.members[self.current].result, value.take()) {
                    (Some(r), Some(v)) => stmts.push(asg(b, r, v, span)),
                    (None, Some(v)) => stmts.push(st(StmtKind::Expr(v), span)),
                    (_, None) => {}
                }
                stmts.push(asg(b, self.pc, int(POP, span), span));
                stmts.push(st(StmtKind::Break, span));
                return block(stmts, span);
            }
            StmtKind::Break if !in_loop && !in_switch => {
                return jump(self.targets.last().map_or(POP, |t| t.0));
            }
            // Inside a `switch` of `s`, the `break` leaves that `switch`, and the test after
            // it the case (below).
            StmtKind::Continue if !in_loop => return jump(continue_to),
            StmtKind::Block(blk) => {
                for x in &mut blk.stmts {
                    *x = self.plain(b, x, in_loop, in_switch);
                }
            }
            StmtKind::If { then, els, .. } => {
                **then = self.plain(b, then, in_loop, in_switch);
                if let Some(els) = els {
                    **els = self.plain(b, els, in_loop, in_switch);
                }
            }
            StmtKind::Loop { body, .. } => **body = self.plain(b, body, true, in_switch),
            StmtKind::Switch { cases, .. } => {
                for x in cases.iter_mut().flat_map(|c| &mut c.body) {
                    *x = self.plain(b, x, in_loop, true);
                }
            }
            _ => return s,
        }
        let mut leave = Vec::new();
        if matches!(s.kind, StmtKind::Loop { .. } | StmtKind::Switch { .. }) && had_return {
            leave.push(POP);
        }
        if matches!(s.kind, StmtKind::Switch { .. }) && had_continue {
            leave.push(continue_to);
        }
        if !leave.is_empty() {
            // Returned or continued a loop of cases inside: leave the construct around this
            // one too.
            let left = leave
                .into_iter()
                .map(|to| compare(b, self.pc, BinOp::Eq, to, span))
                .reduce(|a, c| mk(ExprKind::LogOr(Box::new(a), Box::new(c)), Type::INT, span))
                .unwrap_or_else(|| int(0, span));
            let test = st(
                StmtKind::If {
                    cond: left,
                    then: Box::new(st(StmtKind::Break, span)),
                    els: None,
                },
                span,
            );
            return block(vec![s, test], span);
        }
        s
    }
}

/// Whether calls of `func` are compiled as a state machine (module docs).
pub(crate) fn flattenable(program: &Program, summaries: &Summaries, func: FuncId) -> bool {
    let funcs = recursion_of(program, func);
    super::inline::recursive(program, func)
        && funcs.iter().all(|&g| {
            let f = program.func(g);
            matches!(f.kind, FnKind::Async | FnKind::Straight) && summaries.is_host_fn(g)
        })
}

/// The variables of a frame of `f`: its parameters and the locals of its asynchronous code
/// (those of a group construct's body end there, before any call of the recursion).
fn frame_vars(f: &Function) -> Vec<VarId> {
    let mut vars = f.params.clone();
    f.body.stmts.iter().for_each(|s| decls(s, &mut vars));
    vars
}

/// The functions of `func`'s recursion: `func` first, then those it may call that may call
/// it, in the program's order, all in their frames (`inline::frame_calls`).
fn recursion_of(program: &Program, func: FuncId) -> Vec<FuncId> {
    let mut seen = Vec::new();
    let mut next = vec![func];
    while let Some(f) = next.pop() {
        let mut callees = Vec::new();
        for s in &program.func(f).body.stmts {
            frame_calls(s, &mut callees);
        }
        for c in callees {
            if !seen.contains(&c) {
                seen.push(c);
                next.push(c);
            }
        }
    }
    let mut others: Vec<FuncId> = seen
        .into_iter()
        .filter(|&c| c != func && super::inline::reaches(program, c, func, &mut Vec::new()))
        .collect();
    others.sort();
    std::iter::once(func).chain(others).collect()
}

/// A place of a chain (`Chain`) besides the self-calls.
enum Place {
    /// A `start` or `seq`.
    Stop,
    /// A call of another recursive function, compiled as a state machine of its own.
    Call(FuncId),
}

/// The places of `s` in the order of the text, once the calls in it other than of `funcs` are
/// compiled in place (`inline::inline_site`: a statement with such a call becomes the
/// callee's body and the statement).
fn places_of(
    program: &Program,
    summaries: &Summaries,
    s: &Stmt,
    funcs: &[FuncId],
    out: &mut Vec<Place>,
) {
    match &s.kind {
        StmtKind::Start(_) | StmtKind::Seq(_) => return out.push(Place::Stop),
        StmtKind::Fork { .. } | StmtKind::Farm(_) => return,
        _ => {}
    }
    // The callee's body runs before the rest of the statement.
    match super::inline::inline_site(program, summaries, s) {
        Some((_, g, _)) if !funcs.contains(&g) && super::inline::recursive(program, g) => {
            out.push(Place::Call(g))
        }
        Some((_, g, _)) if !funcs.contains(&g) => program
            .func(g)
            .body
            .stmts
            .iter()
            .for_each(|s| places_of(program, summaries, s, funcs, out)),
        _ => {}
    }
    children(s)
        .into_iter()
        .for_each(|c| places_of(program, summaries, c, funcs, out));
}

/// Whether stops are reached through `places`.
fn has_stops(program: &Program, summaries: &Summaries, places: &[Place]) -> bool {
    places.iter().any(|p| match p {
        Place::Stop => true,
        Place::Call(g) => {
            let funcs = recursion_of(program, *g);
            let mut inner = Vec::new();
            for &f in &funcs {
                for s in &program.func(f).body.stmts {
                    places_of(program, summaries, s, &funcs, &mut inner);
                }
            }
            has_stops(program, summaries, &inner)
        }
    })
}

/// R0008 unless the chain has room for the digits of one more frame of base `base` (and
/// `frames`: the stack for one more frame).
fn room(b: &Builder, c: &Chain, base: i64, frames: Option<Expr>, span: Span) -> Stmt {
    let digits = mk(
        ExprKind::Binary(
            BinOp::Ge,
            Box::new(b.var_expr(c.scale, span)),
            Box::new(int(base, span)),
        ),
        Type::INT,
        span,
    );
    let holds = match frames {
        Some(f) => mk(
            ExprKind::LogAnd(Box::new(f), Box::new(digits)),
            Type::INT,
            span,
        ),
        None => digits,
    };
    room_check(holds, span)
}

fn room_check(holds: Expr, span: Span) -> Stmt {
    let check = ExprKind::Builtin {
        op: Builtin::StackRoom,
        args: vec![holds],
    };
    st(StmtKind::Expr(mk(check, Type::INT, span)), span)
}

/// Entering a deeper frame from the place `digit`: its digit in the running frame's
/// position, the next position `base` times lower.
fn deeper(b: &Builder, c: &Chain, base: i64, digit: i64, span: Span) -> Vec<Stmt> {
    let scaled = mul(b.var_expr(c.scale, span), int(digit, span), span);
    let lower = mk(
        ExprKind::Binary(
            BinOp::Div,
            Box::new(b.var_expr(c.scale, span)),
            Box::new(int(base, span)),
        ),
        Type::INT,
        span,
    );
    vec![
        asg(
            b,
            c.prefix,
            plus(b.var_expr(c.prefix, span), scaled, span),
            span,
        ),
        asg(b, c.scale, lower, span),
    ]
}

/// The variables `s` declares outside group constructs' bodies.
fn decls(s: &Stmt, out: &mut Vec<VarId>) {
    match &s.kind {
        StmtKind::Decl { var, .. } => out.push(*var),
        _ if is_group_construct(s) => {}
        _ => children(s).into_iter().for_each(|c| decls(c, out)),
    }
}

/// Whether `s` calls one of `funcs` in its frame (`inline::frame_calls`).
fn calls(s: &Stmt, funcs: &[FuncId]) -> bool {
    let mut c = Vec::new();
    frame_calls(s, &mut c);
    c.iter().any(|f| funcs.contains(f))
}

/// The call of one of `funcs` that `s` makes before the rest of the statement
/// (`inline::inline_site`).
fn site<'s>(s: &'s Stmt, funcs: &[FuncId]) -> Option<(&'s Expr, FuncId, &'s [Expr])> {
    super::inline::first_call(s, &|f| funcs.contains(&f))
}

/// Whether `s` holds a `continue` of a loop around it.
fn continues(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Continue => true,
        StmtKind::Loop { .. } => false,
        _ => children(s).into_iter().any(continues),
    }
}

fn returns(s: &Stmt) -> bool {
    any_stmt(s, &|s| matches!(s.kind, StmtKind::Return(_)))
}

fn st(kind: StmtKind, span: Span) -> Stmt {
    Stmt {
        kind,
        mode: Mode::Async,
        span,
    }
}

fn block(stmts: Vec<Stmt>, span: Span) -> Stmt {
    st(StmtKind::Block(Block { stmts, span }), span)
}

fn int(v: i64, span: Span) -> Expr {
    mk(ExprKind::IntConst(v), Type::INT, span)
}

fn asg(b: &Builder, var: VarId, value: Expr, span: Span) -> Stmt {
    Stmt {
        mode: Mode::Async,
        ..assign_stmt(b, var, value, span)
    }
}

fn store(place: Expr, value: Expr, span: Span) -> Stmt {
    let ty = place.ty.clone();
    let e = mk(
        ExprKind::Assign {
            place: Box::new(place),
            value: Box::new(value),
        },
        ty,
        span,
    );
    st(StmtKind::Expr(e), span)
}

fn compare(b: &Builder, v: VarId, op: BinOp, k: i64, span: Span) -> Expr {
    mk(
        ExprKind::Binary(op, Box::new(b.var_expr(v, span)), Box::new(int(k, span))),
        Type::INT,
        span,
    )
}

fn add(b: &Builder, v: VarId, k: i64, span: Span) -> Expr {
    plus(b.var_expr(v, span), int(k, span), span)
}

fn plus(a: Expr, c: Expr, span: Span) -> Expr {
    mk(
        ExprKind::Binary(BinOp::Add, Box::new(a), Box::new(c)),
        Type::INT,
        span,
    )
}

fn mul(a: Expr, c: Expr, span: Span) -> Expr {
    mk(
        ExprKind::Binary(BinOp::Mul, Box::new(a), Box::new(c)),
        Type::INT,
        span,
    )
}
