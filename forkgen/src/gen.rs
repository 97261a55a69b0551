//! The generator: from a seed, a valid, race-free, terminating Fork program that prints a
//! checksum of its memory at the end.
//!
//! Race freedom by construction (docs/language.md §4–§6):
//! - each processor writes only its own row `S[__PROC_NR__][..]` and record
//!   `R[__PROC_NR__]` (disjoint for all groups at all times);
//! - a `sh` variable is written only by the group that declared it (its *level*), with a
//!   shared value (CRCW-common: the same value from every member) or inside `seq`;
//! - a group array `T[$$]` is written once per member by its own group, and read only
//!   after that (in the next statement, or after a `barrier` in a `farm`), and only when
//!   every member of the group wrote it (no member left the group by a `break`, `continue`
//!   or `return`);
//! - the arrays `C0`..`C2` of cyclic loops (`cyclic-loop`, `gen/cyclic.rs`) are touched only
//!   by a group beside which no sibling group touches them (`Ctx::cyclic`); in a cyclic loop
//!   the members store at their own counters, one store a statement, so no two members store
//!   into one cell in one step;
//! - the accumulators `ACC[i]` are only combined into (`syncadd`, `mpmax`, ...: one
//!   operator per cell, so the final value does not depend on the order) and read at the
//!   end; `mpadd` results are used only on counters of the current group in synchronous
//!   code, where the order is fixed by `__PROC_NR__`.
//!
//! Termination: every loop counts a private or shared counter up to a bound below 4, and
//! recursion counts a depth parameter down from at most 2 (with `async-recursion`, an `async`
//! function's too: its callers pass 0 to 2, or `__PROC_NR__ % 3`, so that processors recurse
//! to different depths and meet at its barriers, `start`s and `seq`s at different depths).

use crate::ast::{Break, Case, Expr, Func, Program, Stmt};

mod cyclic;

/// SplitMix64: small, seedable, and the same sequence on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Constructs the generator can leave out (to keep a seeded run clear of a known open bug).
pub const FEATURES: &[&str] = &[
    "switch-break-inside",
    "farm-barrier",
    "async-barrier",
    "shmalloc",
    "recursion",
    "start",
    "shared-loop",
    "return",
    "shared-switch-locals",
    "fallthrough-locals",
    "break-then-loop",
    "call-in-condition",
    "barrier-under-condition",
    "straight-writes",
    "async-call-barrier",
    "async-call-in-expression",
    "farm-in-async",
    "start-in-async",
    "seq-in-async",
    "async-recursion",
    "recursion-frames",
    "recursion-in-start",
    "straight-recursion",
    "recursion-in-farm",
    "assignment-order",
    "order-free-loop",
    "cyclic-loop",
    "predicated-arms",
];

#[derive(Clone, Debug)]
pub struct Options {
    /// Statements per function body, roughly.
    pub stmts: usize,
    /// Processor counts each program is run with (each at most `MAXP` = 8).
    pub procs: Vec<u32>,
    /// Names from `FEATURES` not to generate.
    pub without: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            stmts: 14,
            procs: vec![1, 3, 8],
            without: Vec::new(),
        }
    }
}

impl Options {
    fn on(&self, feature: &str) -> bool {
        debug_assert!(FEATURES.contains(&feature), "unknown feature {feature}");
        !self.without.iter().any(|w| w == feature)
    }
}

/// The largest P a generated program supports (the row count of its per-processor arrays).
pub const MAXP: u32 = 8;
const ROW: i64 = 8;
/// Stored values stay in (-MOD, MOD): sums and products of a few of them fit an `int`.
const MOD: &str = " % 5000";
/// The accumulator cells, one combining operator each.
const ACC_OPS: &[&str] = &["add", "max", "min", "or", "and"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Sync,
    /// Inside `seq`: one member runs; it may write the current group's `sh` variables.
    Seq,
    Async,
    Straight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Sync,
    Async {
        barrier: bool,
    },
    Straight,
    /// A `sync` function with pointer parameters `p` and `q` (`sh int *`; `p` sometimes
    /// `pr int *`, `private`) that runs a cyclic loop through them (`cyclic-loop`).
    Cyclic {
        private: bool,
    },
}

struct FnInfo {
    name: String,
    kind: Kind,
    /// An `async` function with a `start` (`start-in-async`): called from synchronous code
    /// only (the simulator runs no `start` in a function called from asynchronous code).
    sync_only: bool,
    /// An `async` function with a depth parameter `d` that calls itself (`async-recursion`).
    recursive: bool,
    /// The cyclic loops' arrays (`cyclic::ARRAYS`' bits) it touches, its callees' included.
    cyclic: u8,
}

/// Where the statement being generated is.
#[derive(Clone)]
struct Ctx {
    mode: Mode,
    /// The group whose `sh` variables may be written here.
    level: u32,
    /// Every member of the current group runs every statement here (not in a loop body,
    /// no member left by `return`).
    clean: bool,
    can_break: bool,
    can_continue: bool,
    /// `Some(true)`: `return e;`, `Some(false)`: `return;`, None: no return here.
    ret: Option<bool>,
    depth: u32,
    /// The function being generated, for recursion.
    this: Option<usize>,
    /// `sh` locals may be declared here (not below the cases of a shared `switch` or a
    /// case entered by falling through, without the features `shared-switch-locals` and
    /// `fallthrough-locals`).
    sh_locals: bool,
    /// The cyclic loops' arrays (`cyclic::ARRAYS`' bits, and `cyclic::PARAMS`) the group may
    /// touch here: no sibling group running beside it touches them.
    cyclic: u8,
}

/// The names visible at a point, with the group level that may write them.
#[derive(Default, Clone)]
struct Scope {
    shared: Vec<(String, u32)>,
    /// Group arrays fully written: readable at any index below `groupsize()`.
    arrays: Vec<String>,
    /// Private variables statements may assign.
    privs: Vec<String>,
    /// Private values that are only read (loop counters, parameters).
    readonly: Vec<String>,
}

struct Gen<'a> {
    rng: Rng,
    opts: &'a Options,
    funcs: Vec<FnInfo>,
    scope: Scope,
    budget: usize,
    fresh: u32,
    /// A `return` was generated in the current function: later statements may run with
    /// fewer members than the group has.
    departed: bool,
    /// A `break` was generated in the block being generated or one nested in it (for
    /// `break-then-loop`).
    after_break: bool,
    /// The group level of the function being generated's own body.
    fn_level: u32,
    /// The recursive `async` functions (`async-recursion`), each callable from the others.
    recursive: Vec<String>,
    /// The function being generated calls an `async` function with a barrier (with
    /// `async-call-barrier`): it synchronises too.
    calls_barrier: bool,
    /// The cyclic loops' arrays the function being generated touches so far, and those it may
    /// still touch (fewer after a call of itself where it may not touch them all).
    cyclic_used: u8,
    cyclic_allowed: u8,
    /// The function being generated leaves no construct early and has no `switch` (whose
    /// `break`s count too), so that the transform takes all its members as present
    /// (`cyclic-loop`: only there are cyclic loops run in one kernel).
    plain: bool,
}

/// The program for `seed`.
pub fn generate(seed: u64, opts: &Options) -> Program {
    let mut g = Gen {
        rng: Rng::new(seed),
        opts,
        funcs: Vec::new(),
        scope: Scope::default(),
        budget: 0,
        fresh: 0,
        departed: false,
        after_break: false,
        calls_barrier: false,
        fn_level: 0,
        recursive: Vec::new(),
        cyclic_used: 0,
        cyclic_allowed: 0,
        plain: false,
    };
    let mut funcs = Vec::new();
    let straight = g.rng.below(3);
    let asyncs = g.rng.below(3);
    let syncs = g.rng.below(4);
    for _ in 0..straight {
        funcs.push(g.function(Kind::Straight, false));
    }
    // The recursive `async` functions are named before any is generated, so that each may
    // call the others (declared in the header): mutual recursion.
    let recursive: Vec<bool> = (0..asyncs)
        .map(|_| {
            opts.on("recursion")
                && opts.on("async-recursion")
                && opts.on("async-call-barrier")
                && g.rng.chance(50)
        })
        .collect();
    g.recursive = (0..asyncs)
        .filter(|&i| recursive[i])
        .map(|i| format!("a{}", straight + i))
        .collect();
    // A `straight` function on the recursion (`straight-recursion`): the recursive `async`
    // functions call it as they call each other, and it calls one of them back.
    let asyncs_of_recursion = g.recursive.clone();
    let bridge =
        (!asyncs_of_recursion.is_empty() && opts.on("straight-recursion") && g.rng.chance(50))
            .then(|| format!("b{}", straight + asyncs));
    g.recursive.extend(bridge.clone());
    for &recursive in &recursive {
        let barrier = opts.on("async-barrier") && g.rng.chance(40);
        funcs.push(g.function(Kind::Async { barrier }, recursive));
    }
    if let Some(name) = &bridge {
        let callee = g.rng.pick(&asyncs_of_recursion).clone();
        funcs.push(g.bridge(name, &callee));
    }
    if opts.on("cyclic-loop") {
        for _ in 0..g.rng.below(3) {
            let private = g.rng.chance(30);
            funcs.push(g.function(Kind::Cyclic { private }, false));
        }
    }
    for _ in 0..syncs {
        funcs.push(g.function(Kind::Sync, false));
    }
    funcs.push(g.main());
    let mut header = header(opts);
    for name in &asyncs_of_recursion {
        header.push_str(&format!("async int {name}(int x, int d);\n"));
    }
    if let Some(name) = &bridge {
        header.push_str(&format!("straight int {name}(int x, int d);\n"));
    }
    Program {
        seed,
        header,
        funcs,
        procs: opts.procs.clone(),
    }
}

fn header(opts: &Options) -> String {
    let mut h = format!(
        "#define MAXP {MAXP}\n#define K {ROW}\n\nstruct cell {{\n    int a;\n    int b;\n}};\n\n\
         sh int S[MAXP][K];\nsh struct cell R[MAXP];\nsh int ACC[{}];\nsh int G0, G1;\npr int *UP;\n",
        ACC_OPS.len()
    );
    if opts.on("assignment-order") {
        h.push_str(STEP);
    }
    if opts.on("order-free-loop") {
        h.push_str("sh int F[16];\n");
    }
    if opts.on("cyclic-loop") {
        h.push_str(&cyclic::declaration());
    }
    h
}

/// `assignment-order`: a call that changes a private variable through its address, for
/// statements whose place or earlier operands read that variable (docs/language.md §8: the
/// place first, then the value, left to right).
const STEP: &str =
    "\nstraight int step(int *k)\n{\n    *k = (*k * 3 + 1) % 11;\n    return *k + 2;\n}\n";

impl Gen<'_> {
    fn name(&mut self, prefix: &str) -> String {
        self.fresh += 1;
        format!("{prefix}{}", self.fresh)
    }

    fn level(&mut self) -> u32 {
        self.fresh += 1;
        self.fresh
    }

    fn function(&mut self, kind: Kind, recursive: bool) -> Func {
        let index = self.funcs.len();
        let name = match kind {
            Kind::Sync => format!("f{index}"),
            Kind::Async { .. } => format!("a{index}"),
            Kind::Straight => format!("g{index}"),
            Kind::Cyclic { .. } => format!("h{index}"),
        };
        let level = self.level();
        self.fn_level = level;
        let (prologue, mode, ret) = match kind {
            Kind::Sync => (
                "pr int v0 = x, v1 = d + $$, v2 = 0;",
                Mode::Sync,
                Some(true),
            ),
            Kind::Async { .. } => (
                "pr int v0 = x, v1 = __PROC_NR__, v2 = 0;",
                Mode::Async,
                Some(true),
            ),
            Kind::Straight => ("int v0 = x, v1 = d, v2 = 0;", Mode::Straight, Some(true)),
            Kind::Cyclic { .. } => (
                "pr int v0 = n, v1 = n + $$, v2 = 0;",
                Mode::Sync,
                Some(true),
            ),
        };
        self.scope = Scope {
            privs: vec!["v0".into(), "v1".into(), "v2".into()],
            readonly: match kind {
                Kind::Async { .. } if !recursive => vec!["x".into()],
                Kind::Cyclic { .. } => Vec::new(),
                _ => vec!["x".into(), "d".into()],
            },
            ..Scope::default()
        };
        match kind {
            Kind::Sync => self.scope.shared.push(("d".into(), 0)),
            Kind::Cyclic { .. } => self.scope.shared.push(("n".into(), 0)),
            _ => {}
        }
        self.cyclic_used = 0;
        self.cyclic_allowed = match kind {
            Kind::Sync => self.cyclic_arrays(),
            Kind::Cyclic { .. } => cyclic::ARRAYS | cyclic::PARAMS,
            _ => 0,
        };
        self.plain = self.cyclic_allowed != 0 && self.rng.chance(40);
        // The function is callable from its own body (recursion on `d`).
        self.funcs.push(FnInfo {
            name,
            kind,
            sync_only: false,
            recursive,
            cyclic: 0,
        });
        let ctx = Ctx {
            mode,
            level,
            clean: true,
            can_break: false,
            can_continue: false,
            ret,
            depth: 0,
            this: Some(index),
            sh_locals: true,
            cyclic: self.cyclic_allowed,
        };
        self.departed = false;
        self.calls_barrier = false;
        self.budget = self.opts.stmts;
        let mut body = vec![Stmt::raw(prologue, false)];
        if mode != Mode::Straight {
            body.push(pointers());
        }
        if recursive && self.frames() {
            body.push(Stmt::raw(FRAME, true));
            self.scope
                .privs
                .extend(["w[0]", "w[d & 3]", "*wp"].map(String::from));
        }
        if let Kind::Async { barrier: true } = kind {
            // Every member must reach the barrier: no `return` before it.
            body.extend(self.block(
                &Ctx {
                    ret: None,
                    ..ctx.clone()
                },
                3,
            ));
            body.push(self.barrier());
            body.extend(self.block(&ctx, 3));
        } else if let Kind::Cyclic { .. } = kind {
            body.extend(self.block(&ctx, 2));
            self.parameter_loop(&ctx, &mut body);
            body.extend(self.block(&ctx, 3));
        } else {
            body.extend(self.block(&ctx, 6));
        }
        if kind == (Kind::Async { barrier: false })
            && !self.calls_barrier
            && self.opts.on("start")
            && self.opts.on("start-in-async")
            && self.rng.chance(30)
        {
            body.push(self.start_under_condition(&ctx));
            self.funcs[index].sync_only = true;
        }
        if ret == Some(true) {
            let e = self.expr(&ctx, 2, false);
            body.push(Stmt::Simple {
                pre: "return (".into(),
                e: Some(e),
                post: format!("){MOD};"),
                keep: true,
            });
        }
        // A recursive `async` function may call another one generated later, with a
        // barrier: callers treat it as synchronising.
        if self.calls_barrier || recursive {
            self.funcs[index].kind = Kind::Async { barrier: true };
        }
        // Its callers account for the arrays its parameters point into.
        self.funcs[index].cyclic = self.cyclic_used & cyclic::ARRAYS;
        Func {
            signature: self.funcs[index].signature(),
            body,
            removable: true,
        }
    }

    /// The `straight` function `name` of a recursion (`straight-recursion`): it calls the
    /// recursive `callee` with its own depth (its callers count it down), as a whole
    /// statement or inside an expression, where the call runs first (docs/language.md §8).
    fn bridge(&mut self, name: &str, callee: &str) -> Func {
        let call = format!("{callee}((x + {}){MOD}, d)", self.rng.range(0, 9));
        let body = match self.rng.below(3) {
            0 => format!("return {call};"),
            1 => format!("int v0 = {call};\n    return (v0 * 2 + d){MOD};"),
            _ => format!("return (x + {call}){MOD};"),
        };
        Func {
            signature: format!("straight int {name}(int x, int d)"),
            body: vec![Stmt::raw(body, true)],
            removable: false,
        }
    }

    fn main(&mut self) -> Func {
        let level = self.level();
        self.scope = Scope {
            shared: vec![("G0".into(), level), ("G1".into(), level)],
            privs: vec!["v0".into(), "v1".into(), "v2".into()],
            ..Scope::default()
        };
        self.departed = false;
        self.budget = self.opts.stmts * 2;
        self.cyclic_used = 0;
        self.cyclic_allowed = self.cyclic_arrays();
        self.plain = self.cyclic_allowed != 0 && self.rng.chance(40);
        let sync = Ctx {
            mode: Mode::Sync,
            level,
            clean: true,
            can_break: false,
            can_continue: false,
            ret: None,
            depth: 0,
            this: None,
            sh_locals: true,
            cyclic: self.cyclic_allowed,
        };
        let mut body = vec![
            Stmt::raw("pr int v0 = __PROC_NR__ * 3, v1 = 1, v2 = 0;", false),
            pointers(),
        ];
        let with_start = self.opts.on("start") && self.rng.chance(30);
        let mut inner = self.block(&sync, 10);
        inner.push(Stmt::raw(
            "printf(\"P%d: %d %d %d\\n\", __PROC_NR__, v0, v1, v2);",
            false,
        ));
        inner.push(Stmt::raw(checksum(self.opts), false));
        let signature = if with_start {
            let prelude_ctx = Ctx {
                mode: Mode::Async,
                ..sync.clone()
            };
            self.budget += 4;
            body.extend(self.block(&prelude_ctx, 3));
            let mut start = Stmt::nest("start", None, "");
            if let Stmt::Nest { body, keep, .. } = &mut start {
                *body = inner;
                *keep = true;
            }
            body.push(start);
            "void main(void)"
        } else {
            body.extend(inner);
            "sync void main(void)"
        };
        Func {
            signature: signature.into(),
            body,
            removable: false,
        }
    }

    /// Up to `n` statements (fewer when the function's budget runs out).
    fn block(&mut self, ctx: &Ctx, n: usize) -> Vec<Stmt> {
        let saved = self.scope.clone();
        let saved_break = std::mem::replace(&mut self.after_break, false);
        let mut out = Vec::new();
        let n = 1 + self.rng.below(n);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.stmt(ctx, &mut out);
        }
        self.scope = saved;
        // A `break` nested in this block (`if (c) { if (d) break; }`) counts for the
        // enclosing blocks too.
        self.after_break |= saved_break;
        out
    }

    fn stmt(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        #[derive(Clone, Copy)]
        enum S {
            Own,
            Priv,
            Record,
            Pointer,
            Acc,
            ShDecl,
            ShWrite,
            Counter,
            CounterArms,
            Exchange,
            Shmalloc,
            If,
            SharedIf,
            Switch,
            Loop,
            SharedLoop,
            Break,
            Continue,
            Return,
            Fork,
            Seq,
            Farm,
            CallSync,
            CallAsync,
            Recurse,
            Print,
            Step,
            Fill,
            Cyclic,
            CallCyclic,
        }
        let sync = ctx.mode == Mode::Sync;
        let nest = ctx.depth < 3;
        let whole = ctx.clean && !self.departed;
        let writes = ctx.mode != Mode::Straight;
        let mut menu: Vec<(usize, S)> = vec![(3, S::Priv)];
        if writes {
            menu.extend([
                (2, S::Own),
                (1, S::Record),
                (1, S::Pointer),
                (2, S::Acc),
                (1, S::Print),
            ]);
            if self.opts.on("assignment-order") {
                menu.push((1, S::Step));
            }
            if nest && self.opts.on("order-free-loop") {
                menu.push((1, S::Fill));
            }
        } else if self.opts.on("straight-writes") {
            // Own cells and output: a synchronous caller runs them in lockstep, an
            // asynchronous one per processor.
            menu.extend([(2, S::Own), (1, S::Print)]);
        }
        let sh_locals = sync && ctx.sh_locals;
        if sh_locals {
            menu.extend([(1, S::ShDecl), (1, S::Counter)]);
            if nest && self.opts.on("predicated-arms") {
                menu.push((1, S::CounterArms));
            }
        }
        if (sync || ctx.mode == Mode::Seq) && self.writable_shared(ctx).is_some() {
            menu.push((2, S::ShWrite));
        }
        if sh_locals && whole {
            menu.push((2, S::Exchange));
            if self.opts.on("shmalloc") {
                menu.push((1, S::Shmalloc));
            }
        }
        // A loop after `if (c) break;` in the same body: an open transform bug.
        let loops = !self.after_break || self.opts.on("break-then-loop");
        if nest && ctx.mode != Mode::Seq {
            menu.push((3, S::If));
            if !self.plain {
                menu.push((2, S::Switch));
            }
            if loops {
                menu.push((3, S::Loop));
            }
        }
        // A `farm` in asynchronous code is a block (docs/language.md §8).
        if nest && ctx.mode == Mode::Async && self.opts.on("farm-in-async") {
            menu.push((1, S::Farm));
        }
        // A `seq` in asynchronous code is `start { seq S }`, a stop (docs/language.md §8): it
        // runs when nobody else runs, so its writes race with nothing. Only in an `async`
        // function: in a `farm` body with a barrier it could pair with that barrier, before
        // the group arrays it guards are written.
        if nest && ctx.mode == Mode::Async && self.in_async_fn(ctx) && self.opts.on("seq-in-async")
        {
            menu.push((1, S::Seq));
        }
        if nest && sync {
            menu.extend([(2, S::SharedIf), (2, S::Fork), (1, S::Seq), (1, S::Farm)]);
            if loops && sh_locals && self.opts.on("shared-loop") {
                menu.push((1, S::SharedLoop));
            }
            if loops && self.cyclic_mask(ctx) & cyclic::ARRAYS != 0 {
                menu.push((2, S::Cyclic));
            }
        }
        if ctx.can_break && !self.plain {
            menu.push((1, S::Break));
        }
        if ctx.can_continue && !self.plain {
            menu.push((1, S::Continue));
        }
        if ctx.ret.is_some() && self.opts.on("return") && !self.plain {
            menu.push((1, S::Return));
        }
        if sync && self.callable(ctx, |k| k == Kind::Sync).is_some() {
            menu.push((2, S::CallSync));
        }
        if sync
            && self.cyclic_mask(ctx) != 0
            && self
                .callable(ctx, |k| matches!(k, Kind::Cyclic { .. }))
                .is_some()
        {
            menu.push((2, S::CallCyclic));
        }
        let barrier_ok = self.barrier_callable(ctx, whole);
        if (sync || ctx.mode == Mode::Async)
            && self
                .callable(
                    ctx,
                    |k| matches!(k, Kind::Async { barrier } if !barrier || barrier_ok),
                )
                .is_some()
        {
            menu.push((2, S::CallAsync));
        }
        if let Some(this) = ctx.this {
            // Recursion counts `d` down: `sync` and `straight` functions have it.
            let kind = self.funcs[this].kind;
            // A `sync` one only where it may touch the cyclic arrays it touches so far.
            let sync_recursion =
                sync && kind == Kind::Sync && self.cyclic_used & !self.cyclic_mask(ctx) == 0;
            if self.opts.on("recursion") && (sync_recursion || kind == Kind::Straight) {
                menu.push((1, S::Recurse));
            }
            // A recursive `async` function calls itself in its asynchronous code, anywhere
            // (its barriers pair by count, `barrier_callable`); in a group it forms only as
            // `S::Recurse` wraps the call (`recursion-in-start`, `recursion-in-farm`).
            if self.funcs[this].recursive && ctx.mode == Mode::Async && ctx.level == self.fn_level {
                menu.push((2, S::Recurse));
            }
        }
        let total: usize = menu.iter().map(|(w, _)| w).sum();
        let mut roll = self.rng.below(total);
        let choice = menu
            .iter()
            .find(|(w, _)| {
                if roll < *w {
                    true
                } else {
                    roll -= w;
                    false
                }
            })
            .map(|(_, s)| *s)
            .expect("the roll is below the total weight");
        let inner = Ctx {
            depth: ctx.depth + 1,
            ..ctx.clone()
        };
        match choice {
            S::Own => {
                let i = self.expr(ctx, 1, false);
                let e = self.expr(ctx, 3, false);
                out.push(Stmt::Simple {
                    pre: String::new(),
                    e: Some(Expr::Bin(
                        "=",
                        Box::new(Expr::wrap("S[__PROC_NR__][(", i, ") & 7]")),
                        Box::new(Expr::wrap("(", e, format!("){MOD}"))),
                    )),
                    post: ";".into(),
                    keep: false,
                });
            }
            S::Priv => self.assign_priv(ctx, out),
            S::Step => self.assignment_order(ctx, out),
            S::Fill => self.order_free_loop(ctx, out),
            S::Cyclic => self.cyclic_loop(ctx, out),
            S::CallCyclic => self.cyclic_call(ctx, out),
            S::Record => {
                let target =
                    self.rng
                        .pick(&["R[__PROC_NR__].a", "R[__PROC_NR__].b", "pp->a", "(*pp).b"]);
                let e = self.expr(ctx, 3, false);
                out.push(Stmt::simple(format!("{target} = ("), e, format!("){MOD};")));
            }
            S::Pointer => {
                let e = self.expr(ctx, 3, false);
                if self.rng.chance(50) {
                    out.push(Stmt::simple("*ip = (", e, format!("){MOD};")));
                } else {
                    let i = self.expr(ctx, 1, false);
                    out.push(Stmt::Simple {
                        pre: String::new(),
                        e: Some(Expr::Bin(
                            "=",
                            Box::new(Expr::wrap("ip[(", i, ") & 7]")),
                            Box::new(Expr::wrap("(", e, format!("){MOD}"))),
                        )),
                        post: ";".into(),
                        keep: false,
                    });
                }
            }
            S::Acc => {
                let cell = self.rng.below(ACC_OPS.len());
                let op = ACC_OPS[cell];
                let e = self.expr(ctx, 2, false);
                // `mpadd` as a statement combines like `syncadd`; its result is unused.
                let func = if self.rng.chance(50) { "sync" } else { "mp" };
                out.push(Stmt::simple(
                    format!("{func}{op}(&ACC[{cell}], ("),
                    e,
                    ") % 100);",
                ));
            }
            S::ShDecl => {
                let name = self.name("c");
                let e = self.expr(ctx, 2, true);
                out.push(Stmt::Simple {
                    pre: format!("sh int {name} = ("),
                    e: Some(e),
                    post: format!("){MOD};"),
                    keep: false,
                });
                self.scope.shared.push((name, ctx.level));
            }
            S::ShWrite => {
                let name = self
                    .writable_shared(ctx)
                    .expect("in the menu only when some");
                // In `seq` one member writes: any value; else the whole group: a shared one.
                let e = self.expr(ctx, 3, ctx.mode == Mode::Sync);
                out.push(Stmt::simple(format!("{name} = ("), e, format!("){MOD};")));
            }
            // A counter that the arms of a private `if` combine into, each with its own
            // operator (the transform runs such an `if` predicated: a member that does not
            // take an arm adds the operator's identity), the then-arm's before the else-arm's.
            S::CounterArms => {
                let name = self.name("m");
                out.push(Stmt::raw(format!("sh int {name} = 0;"), false));
                let c = self.expr(ctx, 2, false);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let arm = |g: &mut Self| {
                    let op = *g.rng.pick(ACC_OPS);
                    let v = g.rng.pick(&["v0", "v1", "v2"]).to_string();
                    let e = g.expr(ctx, 2, false);
                    vec![Stmt::simple(
                        format!("{v} = mp{op}(&{name}, ("),
                        e,
                        ") % 50);",
                    )]
                };
                let body = arm(self);
                let alt = match self.rng.below(3) {
                    0 => None,
                    1 => Some(arm(self)),
                    _ => {
                        let c = self.expr(ctx, 2, false);
                        let mut inner = Stmt::nest("if (", Some(c), ")");
                        let body = arm(self);
                        set_body(&mut inner, body, None);
                        Some(vec![inner])
                    }
                };
                set_body(&mut s, body, alt);
                out.push(s);
                self.scope.shared.push((name, u32::MAX));
            }
            S::Counter => {
                let name = self.name("m");
                let op = *self.rng.pick(&["add", "max", "min"]);
                out.push(Stmt::raw(format!("sh int {name} = 0;"), false));
                let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
                let e = self.expr(ctx, 2, false);
                let mp = Expr::wrap(format!("mp{op}(&{name}, ("), e, ") % 50)");
                out.push(self.maybe_conditional(ctx, v, mp));
                // Readable later (every member sees the same total), written only by
                // multiprefix.
                self.scope.shared.push((name, u32::MAX));
            }
            S::Exchange => {
                let name = self.name("T");
                out.push(Stmt::raw(format!("sh int {name}[MAXP];"), false));
                // Removable: the array is zero where nobody wrote it.
                self.write_group_array(ctx, &name, false, out);
                let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
                let i = self.expr(ctx, 1, false);
                self.scope.arrays.push(name.clone());
                out.push(Stmt::simple(
                    format!("{v} = {name}[(("),
                    i,
                    ") & 7) % groupsize()];",
                ));
            }
            S::Shmalloc => {
                let name = self.name("H");
                out.push(Stmt::raw(format!("sh int *{name};"), false));
                out.push(Stmt::raw(
                    format!("seq {name} = shmalloc(groupsize() * sizeof(int));"),
                    true,
                ));
                // Kept: a heap block is not zeroed.
                self.write_group_array(ctx, &name, true, out);
                self.scope.arrays.push(name);
            }
            S::If => {
                let c = self.expr(ctx, 2, false);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let split = sync.then(|| self.level());
                let with_else = self.rng.chance(50);
                // The two branches' groups run side by side: one of them gets the arrays.
                let (then_cyclic, else_cyclic) = match with_else && sync && ctx.cyclic != 0 {
                    true if self.rng.chance(50) => (ctx.cyclic, 0),
                    true => (0, ctx.cyclic),
                    false => (ctx.cyclic, ctx.cyclic),
                };
                let then_ctx = Ctx {
                    level: split.unwrap_or(ctx.level),
                    cyclic: then_cyclic,
                    ..inner.clone()
                };
                let body = self.block(&then_ctx, 3);
                let alt = if with_else {
                    let else_ctx = Ctx {
                        level: if sync { self.level() } else { ctx.level },
                        cyclic: else_cyclic,
                        ..inner.clone()
                    };
                    Some(self.block(&else_ctx, 3))
                } else {
                    None
                };
                set_body(&mut s, body, alt);
                out.push(s);
            }
            S::SharedIf => {
                let c = self.expr(ctx, 2, true);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let body = self.block(&inner, 3);
                let alt = self.rng.chance(40).then(|| self.block(&inner, 2));
                set_body(&mut s, body, alt);
                out.push(s);
            }
            S::Switch => {
                // A shared scrutinee in synchronous code does not split the group.
                let shared = sync && self.rng.chance(30);
                let scrutinee = if shared {
                    Expr::wrap("(", self.expr(ctx, 2, true), ") % 4")
                } else {
                    Expr::wrap("(", self.expr(ctx, 2, false), " + __PROC_NR__) % 4")
                };
                let mut labels: Vec<String> = (0..4)
                    .filter(|_| self.rng.chance(50))
                    .map(|l| format!("case {l}"))
                    .collect();
                if labels.is_empty() || self.rng.chance(50) {
                    labels.push("default".into());
                }
                let case_ctx = Ctx {
                    can_break: false,
                    ..inner.clone()
                };
                let last = labels.len() - 1;
                let brks: Vec<Break> = (0..labels.len())
                    .map(|i| match self.rng.below(4) {
                        0 if i < last => Break::None,
                        1 if self.opts.on("switch-break-inside") => Break::Inside,
                        _ => Break::After,
                    })
                    .collect();
                let mut cases = Vec::new();
                for (i, label) in labels.into_iter().enumerate() {
                    let split = sync && !shared;
                    let level = if split { self.level() } else { ctx.level };
                    let entered_by_fall = i > 0 && brks[i - 1] == Break::None;
                    // Below a case that can be entered by falling through, or of a shared
                    // `switch`, no `sh` local at any depth (unless the feature is on).
                    let sh_locals = ctx.sh_locals
                        && if split {
                            !entered_by_fall || self.opts.on("fallthrough-locals")
                        } else {
                            self.opts.on("shared-switch-locals")
                        };
                    let body = self.block(
                        &Ctx {
                            level,
                            sh_locals,
                            // The cases' groups run side by side (and fall into each other).
                            cyclic: if split { 0 } else { ctx.cyclic },
                            ..case_ctx.clone()
                        },
                        2,
                    );
                    cases.push(Case {
                        label,
                        body,
                        brk: brks[i],
                    });
                }
                out.push(Stmt::Switch { scrutinee, cases });
            }
            S::Loop => {
                let i = self.name("i");
                out.push(Stmt::raw(format!("pr int {i} = 0;"), false));
                let body_ctx = Ctx {
                    clean: false,
                    can_break: true,
                    can_continue: true,
                    level: if sync { self.level() } else { ctx.level },
                    ..inner.clone()
                };
                let bound = self.expr(ctx, 2, false);
                self.scope.readonly.push(i.clone());
                let count = Stmt::raw(format!("{i}++;"), true);
                let mut s = match self.rng.below(3) {
                    0 => Stmt::nest(
                        format!("for ({i} = 0; {i} < ("),
                        Some(bound),
                        format!(") % 4; {i}++)"),
                    ),
                    1 => Stmt::nest(format!("while ({i} < ("), Some(bound), ") % 4)"),
                    _ => {
                        let mut s = Stmt::nest("do", None, "");
                        if let Stmt::Nest { tail, .. } = &mut s {
                            let mut t = String::new();
                            bound.render(&mut t);
                            *tail = format!(" while ({i} < ({t}) % 4);");
                        }
                        s
                    }
                };
                let mut body = self.block(&body_ctx, 3);
                if !matches!(&s, Stmt::Nest { pre, .. } if pre.starts_with("for")) {
                    body.insert(0, count);
                }
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::SharedLoop => {
                let name = self.name("s");
                out.push(Stmt::raw(format!("sh int {name} = 0;"), false));
                let bound = self.expr(ctx, 2, true);
                let body_ctx = Ctx {
                    clean: false,
                    can_break: true,
                    can_continue: true,
                    ..inner.clone()
                };
                self.scope.shared.push((name.clone(), u32::MAX));
                let mut s = Stmt::nest(
                    format!("for ({name} = 0; {name} < ("),
                    Some(bound),
                    format!(") % 4; {name}++)"),
                );
                let body = self.block(&body_ctx, 3);
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::Break | S::Continue => {
                let shared = sync && self.rng.chance(30);
                let c = self.expr(ctx, 2, shared);
                let word = if matches!(choice, S::Break) {
                    self.after_break = true;
                    "break;"
                } else {
                    "continue;"
                };
                let mut s = Stmt::nest("if (", Some(c), ")");
                set_body(&mut s, vec![Stmt::raw(word, false)], None);
                out.push(s);
            }
            S::Return => {
                let c = self.expr(ctx, 2, false);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let ret = if ctx.ret == Some(true) {
                    Stmt::simple("return (", self.expr(ctx, 2, false), format!("){MOD};"))
                } else {
                    Stmt::raw("return;", false)
                };
                set_body(&mut s, vec![ret], None);
                out.push(s);
                self.departed = true;
            }
            S::Fork => {
                let k = self.rng.range(1, 3);
                let at = self.expr(ctx, 1, false);
                let dollar = if self.rng.chance(50) {
                    format!("; $ = $$ + {}", self.rng.range(0, 5))
                } else {
                    String::new()
                };
                let mut s = Stmt::nest(
                    format!("fork ({k}; @ = ("),
                    Some(at),
                    format!(") % {k}{dollar})"),
                );
                let body_ctx = Ctx {
                    level: self.level(),
                    clean: whole,
                    can_break: false,
                    can_continue: false,
                    ret: None,
                    // Several subgroups run the body side by side.
                    cyclic: if k == 1 { ctx.cyclic } else { 0 },
                    ..inner.clone()
                };
                let body = self.block(&body_ctx, 4);
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::Seq => {
                if ctx.mode == Mode::Async {
                    // A stop: the `async` function synchronises, as with a barrier.
                    self.calls_barrier = true;
                }
                let mut s = Stmt::nest("seq", None, "");
                let body_ctx = Ctx {
                    mode: Mode::Seq,
                    can_break: false,
                    can_continue: false,
                    ret: None,
                    ..inner.clone()
                };
                let body = self.block(&body_ctx, 3);
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::Farm => {
                let body_ctx = Ctx {
                    mode: Mode::Async,
                    can_break: false,
                    can_continue: false,
                    ret: None,
                    ..inner.clone()
                };
                let barrier = sync
                    && whole
                    && ctx.sh_locals
                    && self.opts.on("farm-barrier")
                    && self.rng.chance(60);
                let mut body = self.block(&body_ctx, 2);
                if barrier {
                    let name = self.name("T");
                    out.push(Stmt::raw(format!("sh int {name}[MAXP];"), false));
                    let e = self.expr(&body_ctx, 2, false);
                    body.push(Stmt::simple(
                        format!("{name}[$$] = ("),
                        e,
                        format!("){MOD};"),
                    ));
                    body.push(self.barrier());
                    self.scope.arrays.push(name);
                    body.extend(self.block(&body_ctx, 2));
                }
                let mut s = Stmt::nest("farm", None, "");
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::CallSync => {
                let f = self
                    .callable(ctx, |k| k == Kind::Sync)
                    .expect("in the menu only when some");
                self.cyclic_used |= self.fn_cyclic(&f);
                let d = self.rng.range(0, 2);
                let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
                let e = self.expr(ctx, 2, false);
                let call = Expr::Call(f, vec![lit(d), e]);
                out.push(self.maybe_conditional(ctx, v, call));
            }
            S::CallAsync => {
                let barrier_ok = self.barrier_callable(ctx, whole);
                let f = self
                    .callable(
                        ctx,
                        |k| matches!(k, Kind::Async { barrier } if !barrier || barrier_ok),
                    )
                    .expect("in the menu only when some");
                if ctx.mode == Mode::Async
                    && self
                        .funcs
                        .iter()
                        .any(|g| g.name == f && g.kind == Kind::Async { barrier: true })
                {
                    self.calls_barrier = true;
                }
                let e = self.expr(ctx, 2, false);
                let call = self.async_call(f, e);
                if ctx.mode == Mode::Async && self.opts.on("async-call-in-expression") {
                    out.push(self.call_in_expression(ctx, call));
                } else {
                    out.push(Stmt::simple("", call, ";"));
                }
            }
            S::Recurse => {
                let this = &self.funcs[ctx.this.expect("recursion in a function")];
                let (mut name, kind, recursive) = (this.name.clone(), this.kind, this.recursive);
                if kind == Kind::Sync {
                    // The call touches all the function touches: from here on, only what it
                    // may touch here.
                    self.cyclic_allowed &= ctx.cyclic;
                }
                if recursive && self.rng.chance(40) {
                    // Another function of the recursion, maybe not generated yet.
                    name = self.rng.pick(&self.recursive).clone();
                }
                let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
                let e = self.expr(ctx, 2, false);
                let call = if kind == Kind::Sync {
                    Stmt::simple(format!("{v} = {name}(d - 1, "), e, ");")
                } else {
                    Stmt::simple(format!("{v} = {name}("), e, ", d - 1);")
                };
                let mut body = vec![call];
                if recursive && self.frames() {
                    // The callee adds to this frame's array through `UP` (`FRAME`).
                    let i = self.expr(ctx, 1, false);
                    body.insert(0, Stmt::simple("UP = &w[(", i, ") & 3];"));
                }
                if recursive && self.opts.on("recursion-in-start") && self.rng.chance(25) {
                    if self.opts.on("recursion-in-farm") && self.rng.chance(50) {
                        // A call by some processors of a `farm` of the `start`, the others
                        // at the `farm`'s end or at a `barrier` that pairs with the
                        // callee's (the `start`'s body is outlined, transform
                        // `rules::outline`).
                        let cond = self.rng.pick(&["(__PROC_NR__ + d) % 2", "__PROC_NR__ % 3"]);
                        let mut some = Stmt::nest(format!("if ({cond})"), None, "");
                        set_body(&mut some, body, None);
                        let mut farm_body = vec![some];
                        if self.rng.chance(50) {
                            farm_body.push(Stmt::raw("barrier;", false));
                        }
                        let mut farm = Stmt::nest("farm", None, "");
                        set_body(&mut farm, farm_body, None);
                        body = vec![farm];
                    }
                    // A call by the group a `start` forms: a host call of that group, not a
                    // frame of the state machine (docs/language.md §8).
                    let mut start = Stmt::nest("start", None, "");
                    set_body(&mut start, body, None);
                    body = vec![start];
                }
                let mut s = Stmt::nest("if (d > 0)", None, "");
                set_body(&mut s, body, None);
                out.push(s);
            }
            S::Print => {
                self.fresh += 1;
                let e = self.expr(ctx, 2, false);
                out.push(Stmt::simple(
                    format!("printf(\"L{} %d %d\\n\", __PROC_NR__, ", self.fresh),
                    e,
                    ");",
                ));
            }
        }
    }

    /// `v = g;` for a synchronous call or multiprefix `g`; with `call-in-condition`
    /// sometimes under `&&`, `||` or `?:` (the members whose condition selects it run it, in
    /// lockstep).
    fn maybe_conditional(&mut self, ctx: &Ctx, v: String, g: Expr) -> Stmt {
        let g = if self.opts.on("call-in-condition") && self.rng.chance(25) {
            let c = self.expr(ctx, 1, false);
            match self.rng.below(3) {
                0 => Expr::bin("&&", c, g),
                1 => Expr::bin("||", c, g),
                _ => Expr::Cond(Box::new(c), Box::new(g), Box::new(Expr::leaf(v.clone()))),
            }
        } else {
            g
        };
        Stmt::simple(format!("{v} = "), g, ";")
    }

    /// A statement of asynchronous code that makes the call `call` (of an `async` function,
    /// which may synchronise) as a whole statement or inside an expression, in one of the
    /// places where it runs before the rest of its statement (docs/language.md §8): an
    /// operand, the left operand of `||`, the condition of `?:`, an `if` condition, an
    /// argument, a `return`.
    fn call_in_expression(&mut self, ctx: &Ctx, call: Expr) -> Stmt {
        let v = self.rng.pick(&["v0", "v1", "v2"]).to_string();
        let k = lit(self.rng.range(-3, 9));
        let straight = self.callable(ctx, |k| k == Kind::Straight);
        match self.rng.below(7) {
            0 => Stmt::simple("", call, ";"),
            1 => Stmt::simple(
                format!("{v} = ("),
                Expr::bin("+", call, k),
                format!("){MOD};"),
            ),
            2 => Stmt::simple(
                format!("{v} = "),
                Expr::bin("||", Expr::bin(">", call, k), Expr::leaf(v.clone())),
                ";",
            ),
            3 => Stmt::simple(
                format!("{v} = "),
                Expr::Cond(
                    Box::new(Expr::bin("&", call, lit(1))),
                    Box::new(Expr::leaf(v.clone())),
                    Box::new(k),
                ),
                ";",
            ),
            4 => {
                let mut s = Stmt::nest("if (", Some(Expr::bin(">", call, k)), ")");
                set_body(
                    &mut s,
                    vec![Stmt::raw(format!("{v} = ({v} + 1){MOD};"), false)],
                    None,
                );
                s
            }
            5 if straight.is_some() => {
                let g = straight.unwrap_or_default();
                let depth = lit(self.rng.range(0, 2));
                Stmt::simple(format!("{v} = "), Expr::Call(g, vec![call, depth]), ";")
            }
            6 if ctx.ret == Some(true) && self.opts.on("return") => {
                let c = self.expr(ctx, 1, false);
                let mut s = Stmt::nest("if (", Some(c), ")");
                let ret =
                    Stmt::simple("return (", Expr::bin("*", call, lit(2)), format!("){MOD};"));
                set_body(&mut s, vec![ret], None);
                self.departed = true;
                s
            }
            _ => Stmt::simple(
                format!("{v} = "),
                Expr::bin("-", k, call),
                format!("{MOD};"),
            ),
        }
    }

    /// `barrier;`, with `barrier-under-condition` sometimes under a private condition that
    /// holds for every member, or in both arms of a private `if`: every member meets one
    /// barrier, the halves at different ones (so the code around stays race-free).
    fn barrier(&mut self) -> Stmt {
        let barrier = Stmt::raw("barrier;", true);
        if self.opts.on("barrier-under-condition") && self.rng.chance(30) {
            let (cond, alt) = if self.rng.chance(50) {
                ("if (__PROC_NR__ >= 0)", None)
            } else {
                ("if (__PROC_NR__ % 2)", Some(vec![barrier.clone()]))
            };
            let mut s = Stmt::nest(cond, None, "");
            set_body(&mut s, vec![barrier], alt);
            if let Stmt::Nest { keep, .. } = &mut s {
                *keep = true;
            }
            s
        } else {
            barrier
        }
    }

    /// `T[$$] = e;` by every member of the group.
    fn write_group_array(&mut self, ctx: &Ctx, name: &str, keep: bool, out: &mut Vec<Stmt>) {
        let e = self.expr(ctx, 2, false);
        out.push(Stmt::Simple {
            pre: format!("{name}[$$] = ("),
            e: Some(e),
            post: format!("){MOD};"),
            keep,
        });
    }

    /// `assignment-order`: an assignment whose place or left operand reads a private variable
    /// that its value's call of `step` changes.
    fn assignment_order(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        let v = self.rng.pick(&self.scope.privs).clone();
        let w = self.rng.pick(&self.scope.privs).clone();
        let own = format!("S[__PROC_NR__][({v}) & 7]");
        match self.rng.below(4) {
            0 => out.push(Stmt::raw(format!("{own} = step(&{v});"), false)),
            1 => {
                let e = self.expr(ctx, 2, false);
                out.push(Stmt::simple(
                    format!("{own} = ("),
                    e,
                    format!(" + step(&{v})){MOD};"),
                ));
            }
            2 => out.push(Stmt::raw(format!("{w} = ({v} + step(&{v})){MOD};"), false)),
            _ => out.push(Stmt::raw(format!("{v} += step(&{v});"), false)),
        }
    }

    /// `order-free-loop`: a loop whose only shared stores put 1 into cells of `F`, which only
    /// the checksum reads, and whose other shared effects are accumulator updates: the
    /// transform may run its iterations in one kernel, each member at its own pace
    /// (`transform::rules::loops`, `order_free`). 1 from every store, so the memory is the
    /// same in any order, also across sibling groups.
    fn order_free_loop(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        let f = self.name("f");
        out.push(Stmt::raw(format!("pr int {f};"), false));
        let start = *self.rng.pick(&["$$", "0", "__PROC_NR__"]);
        let step = *self.rng.pick(&["groupsize()", "1", "2"]);
        let bound = self.rng.range(1, 24);
        let mut body = Vec::new();
        if self.rng.chance(50) {
            let v = self.rng.pick(&self.scope.privs).clone();
            body.push(Stmt::raw(format!("{v} = ({v} + {f}){MOD};"), false));
        }
        let cell = Stmt::raw(
            format!("F[({f} * {}) & 15] = 1;", self.rng.range(1, 5)),
            false,
        );
        if self.rng.chance(50) {
            let c = self.expr(ctx, 1, false);
            let mut s = Stmt::nest("if (((", Some(c), format!(") + {f}) % 3 != 0)"));
            set_body(&mut s, vec![cell], None);
            body.push(s);
        } else {
            body.push(cell);
        }
        if self.rng.chance(40) {
            // An accumulator's update: in any order the same sum, maximum, ...
            let cell = self.rng.below(ACC_OPS.len());
            let e = self.expr(ctx, 1, false);
            body.push(Stmt::simple(
                format!("sync{}(&ACC[{cell}], (", ACC_OPS[cell]),
                e,
                format!(" + {f}) % 100);"),
            ));
        }
        if !self.plain && self.rng.chance(25) {
            let last = self.rng.range(2, 12);
            body.push(Stmt::raw(format!("if ({f} > {last}) break;"), false));
        }
        let mut s = Stmt::nest(
            format!("for ({f} = {start}; {f} < {bound}; {f} += {step})"),
            None,
            "",
        );
        set_body(&mut s, body, None);
        out.push(s);
    }

    fn assign_priv(&mut self, ctx: &Ctx, out: &mut Vec<Stmt>) {
        let v = self.rng.pick(&self.scope.privs).clone();
        let e = self.expr(ctx, 3, false);
        out.push(Stmt::simple(format!("{v} = ("), e, format!("){MOD};")));
    }

    /// A `sh` variable of the current group (None if it has none).
    fn writable_shared(&mut self, ctx: &Ctx) -> Option<String> {
        let mine: Vec<&String> = self
            .scope
            .shared
            .iter()
            .filter(|(_, l)| *l == ctx.level)
            .map(|(n, _)| n)
            .collect();
        (!mine.is_empty()).then(|| self.rng.pick(&mine).to_string())
    }

    /// Whether this context may call an `async` function with a barrier: a synchronous one
    /// where every member is present, or with `async-call-barrier` the body of an `async`
    /// function, anywhere (under private conditions, in loops the processors leave at
    /// different times: its barriers pair with the caller's by count). Not a `farm` body,
    /// whose group arrays are read after its barrier by every member.
    fn barrier_callable(&self, ctx: &Ctx, whole: bool) -> bool {
        (ctx.mode == Mode::Sync && whole)
            || (ctx.mode == Mode::Async
                && self.in_async_fn(ctx)
                && self.opts.on("async-call-barrier"))
    }

    /// A call of the `async` function `f` with the argument `e`, and for a recursive one its
    /// depth: 0 to 2, or `__PROC_NR__ % 3` (every processor its own).
    fn async_call(&mut self, f: String, e: Expr) -> Expr {
        let recursive = self.funcs.iter().any(|g| g.name == f && g.recursive);
        let mut args = vec![e];
        if recursive {
            args.push(if self.rng.chance(50) {
                Expr::leaf("__PROC_NR__ % 3")
            } else {
                lit(self.rng.range(0, 2))
            });
        }
        Expr::Call(f, args)
    }

    /// Whether recursive `async` functions have an array and a variable whose address is
    /// taken in each frame, and pass a pointer into it to the frames they call (`FRAME`).
    fn frames(&self) -> bool {
        self.opts.on("recursion-frames")
    }

    /// Whether `ctx` is in the body of an `async` function.
    fn in_async_fn(&self, ctx: &Ctx) -> bool {
        ctx.this
            .is_some_and(|i| matches!(self.funcs[i].kind, Kind::Async { .. }))
    }

    /// `if (c) start { ... }` at the end of an `async` function without barriers: the
    /// processors that skip it leave the function's region, those that reach it form its group
    /// (docs/language.md §8). Nothing after it may wait at a barrier, so it comes last.
    fn start_under_condition(&mut self, ctx: &Ctx) -> Stmt {
        self.budget += 3;
        let c = self.expr(ctx, 2, false);
        let body_ctx = Ctx {
            mode: Mode::Sync,
            level: self.level(),
            clean: true,
            can_break: false,
            can_continue: false,
            ret: None,
            depth: ctx.depth + 1,
            // Not callable from its own body (no recursion of an `async` function).
            this: ctx.this,
            sh_locals: true,
            // Called where other groups may run beside its group.
            cyclic: 0,
        };
        let body = self.block(&body_ctx, 4);
        let mut start = Stmt::nest("start", None, "");
        set_body(&mut start, body, None);
        let mut s = Stmt::nest("if (", Some(c), ")");
        set_body(&mut s, vec![start], None);
        s
    }

    /// A function this context may call (a callee defined earlier, not itself; one with a
    /// `start` from synchronous code only; a recursive `async` one from `main` only).
    fn callable(&mut self, ctx: &Ctx, want: impl Fn(Kind) -> bool) -> Option<String> {
        let names: Vec<String> = self
            .funcs
            .iter()
            .enumerate()
            .filter(|(i, f)| {
                Some(*i) != ctx.this
                    && want(f.kind)
                    && (!f.sync_only || ctx.mode == Mode::Sync)
                    // A recursive `async` function with a fresh depth only from `main`: a
                    // call from elsewhere could be on a cycle of calls that never ends.
                    && (!f.recursive || ctx.this.is_none())
                    // A function touching cyclic arrays only where its group may.
                    && f.cyclic & !self.cyclic_mask(ctx) == 0
            })
            .map(|(_, f)| f.name.clone())
            .collect();
        (!names.is_empty()).then(|| self.rng.pick(&names).clone())
    }

    /// An `int` expression of at most `depth` operator levels; `shared`: of shared sharity.
    fn expr(&mut self, ctx: &Ctx, depth: u32, shared: bool) -> Expr {
        if depth == 0 || self.rng.chance(30) {
            return self.leaf(ctx, shared);
        }
        let d = depth - 1;
        match self.rng.below(10) {
            0..=4 => {
                let op = *self.rng.pick(&[
                    "+", "-", "^", "&", "|", "<", "<=", "==", "!=", ">", "&&", "||",
                ]);
                let a = self.expr(ctx, d, shared);
                let b = self.expr(ctx, d, shared);
                Expr::bin(op, a, b)
            }
            5 => {
                let op = *self.rng.pick(&["*", "/", "%", ">>"]);
                let k = match op {
                    "*" => self.rng.range(-3, 7),
                    ">>" => self.rng.range(0, 3),
                    _ => self.rng.range(1, 9),
                };
                Expr::bin(op, self.expr(ctx, d, shared), lit(k))
            }
            6 => {
                let op = *self.rng.pick(&["-", "!", "~"]);
                Expr::Un(op, Box::new(self.expr(ctx, d, shared)))
            }
            7 => Expr::Cond(
                Box::new(self.expr(ctx, d, shared)),
                Box::new(self.expr(ctx, d, shared)),
                Box::new(self.expr(ctx, d, shared)),
            ),
            8 if !shared => {
                let straight = self.callable(ctx, |k| k == Kind::Straight);
                match straight {
                    Some(g) => {
                        let depth_arg = self.rng.range(0, 2);
                        Expr::Call(g, vec![self.expr(ctx, d, false), lit(depth_arg)])
                    }
                    None => self.leaf(ctx, shared),
                }
            }
            _ => self.leaf(ctx, shared),
        }
    }

    fn leaf(&mut self, ctx: &Ctx, shared: bool) -> Expr {
        let group = !matches!(ctx.mode, Mode::Straight);
        loop {
            match self.rng.below(if shared { 4 } else { 12 }) {
                0 => return lit(self.rng.range(-20, 100)),
                1 if !self.scope.shared.is_empty() && group => {
                    return Expr::leaf(self.rng.pick(&self.scope.shared).0.clone())
                }
                2 if group => {
                    return Expr::leaf(*self.rng.pick(&["groupsize()", "@", "__STARTED_PROCS__"]))
                }
                3 => return lit(self.rng.range(0, 9)),
                4 | 5 => return Expr::leaf(self.rng.pick(&self.scope.privs).clone()),
                6 if !self.scope.readonly.is_empty() => {
                    return Expr::leaf(self.rng.pick(&self.scope.readonly).clone())
                }
                7 => {
                    let ids: &[&str] = if group {
                        &["$$", "$", "__PROC_NR__"]
                    } else {
                        &["__PROC_NR__"]
                    };
                    return Expr::leaf(*self.rng.pick(ids));
                }
                8 => {
                    let i = self.leaf(ctx, false);
                    return Expr::wrap("S[__PROC_NR__][(", i, ") & 7]");
                }
                9 => {
                    return Expr::leaf(*self.rng.pick(&[
                        "R[__PROC_NR__].a",
                        "R[__PROC_NR__].b",
                        "S[__PROC_NR__][0]",
                    ]))
                }
                10 if group && !self.scope.arrays.is_empty() => {
                    let a = self.rng.pick(&self.scope.arrays).clone();
                    let i = self.leaf(ctx, false);
                    return Expr::wrap(format!("{a}[(("), i, ") & 7) % groupsize()]");
                }
                11 if group => return Expr::leaf(*self.rng.pick(&["*ip", "ip[3]", "pp->b"])),
                _ => {}
            }
        }
    }
}

impl FnInfo {
    fn signature(&self) -> String {
        match self.kind {
            Kind::Sync => format!("sync int {}(sh int d, pr int x)", self.name),
            Kind::Async { .. } if self.recursive => {
                format!("async int {}(int x, int d)", self.name)
            }
            Kind::Async { .. } => format!("async int {}(int x)", self.name),
            Kind::Straight => format!("straight int {}(int x, int d)", self.name),
            Kind::Cyclic { private } => format!(
                "sync int {}({} int *p, sh int *q, sh int n)",
                self.name,
                if private { "pr" } else { "sh" }
            ),
        }
    }
}

fn lit(k: i64) -> Expr {
    if k < 0 {
        Expr::leaf(format!("({k})"))
    } else {
        Expr::leaf(k.to_string())
    }
}

fn pointers() -> Stmt {
    Stmt::raw(
        "pr int *ip = &S[__PROC_NR__][0];\n    pr struct cell *pp = &R[__PROC_NR__];",
        false,
    )
}

fn set_body(s: &mut Stmt, new_body: Vec<Stmt>, new_alt: Option<Vec<Stmt>>) {
    if let Stmt::Nest { body, alt, .. } = s {
        *body = new_body;
        *alt = new_alt;
    }
}

/// The frame of a recursive `async` function (`recursion-frames`): an array and a variable
/// whose address is taken, which statements assign and read (`w[0]`, `w[d & 3]`, `*wp`); the
/// caller's frame pointed to by `UP` (set just before the call, so the caller's frame is
/// running) gets the argument added, which the caller reads after the call.
const FRAME: &str = "pr int w[4] = {x, d, 7};
    pr int *wp = &v1;
    if (UP) {
        *UP = (*UP + x) % 5000;
        UP = 0;
    }";

/// The end of `main`, run by the root group: a hash of all memory the program wrote.
fn checksum(opts: &Options) -> String {
    let mut fills = String::new();
    if opts.on("order-free-loop") {
        fills.push_str(
            "\n        for (i = 0; i < 16; i++)\n            h = h * 31u + (unsigned)F[i];",
        );
    }
    if opts.on("cyclic-loop") {
        fills.push_str(&cyclic::checksum());
    }
    format!(
        "seq {{
        pr int i, j;
        pr unsigned h = 17u;
        for (i = 0; i < MAXP; i++) {{
            for (j = 0; j < K; j++)
                h = h * 31u + (unsigned)S[i][j];
            h = h * 31u + (unsigned)R[i].a;
            h = h * 31u + (unsigned)R[i].b;
        }}
        for (i = 0; i < 5; i++)
            h = h * 31u + (unsigned)ACC[i];{fills}
        h = h * 31u + (unsigned)G0;
        h = h * 31u + (unsigned)G1;
        printf(\"checksum %u\\n\", h);
    }}"
    )
}
