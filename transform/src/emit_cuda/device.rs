//! Kernels and device functions: HIR statements and expressions as CUDA C.
//!
//! A variable is reached where `Storage::home` puts it: shared globals at
//! `fk_m.shared_globals + offset`, spilled slots through `fk_slot` (coalesced: processor `p`
//! at `base + offset * P + p * size`), shared locals in their group's frame (looked up once
//! per kernel, `fr_N`), and everything else as a C local of the kernel or device function.

use super::abi::{self, mp_name, GLOBALS_KERNEL};
use super::ctype::{
    bits, declare, field_name, float_literal, func_name, int_literal, pointer_to, struct_name,
    type_name, var_name,
};
use super::ranged::{self, Index};
use super::{EmitError, Objects, Sites};
use crate::effects::{exposed_address_reads, Summaries};
use crate::plan::{Home, Kernel, KernelId, Plan};
use crate::sequence::plain;
use fork_frontend::fault;
use fork_frontend::hir::{
    BinOp, Builtin, CompoundOp, Expr, ExprKind, FuncId, Mode, Program, Stmt, StmtKind, Type, UnOp,
    VarId, VarKind,
};
use fork_frontend::source::Span;
use fork_frontend::sync_calls::{any_stmt, children, own_exprs};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The sizes of the batches of a loop that loads ahead (`Kernel::loads_ahead`): the values of
/// so many iterations loaded together, the larger while that many are left. Hillis–Steele's
/// rounds at P = 1024 run 1024 iterations per member, one load's latency each when loaded in
/// turn: 16 rather than 8 took its algorithm from 3.95 to 2.24 ms there and from 540 to 488 µs
/// on the device schedule at P = 65,536 (H200, docs/performance.md, session 48). A member of
/// list ranking's loops at P = 65,536 runs 4. Fewer than the last left run as the loop that
/// does not load ahead, unrolled.
const LOADS_AHEAD: [usize; 2] = [16, 4];

/// How far the checked-ahead copy of a loop is unrolled: only the loads of more iterations in
/// flight hide their latency where few threads run the loop, as in a kernel of `seq` (one
/// thread: Hillis–Steele's check of 2^20 elements took 31.1 ms unrolled by 8, 19.5 by 16 and
/// 16.7 by 32, docs/results/h200-2026-11-29-s23/, run L), and in the device schedule's
/// interpreter, whose runner threads run about 100 members each in turn at matmul's P = N^2:
/// its product's algorithm took 27.1 ms by 8, 20.6 by 16, 18.0 by 32; the host schedule's
/// launch of a thread a member took 4.08, 3.65 and 3.54 ms (H200, session 54, run C).
const UNROLL: usize = 32;

/// Byte offset of each string literal in the strings region.
pub fn string_offsets(program: &Program) -> Vec<u64> {
    let mut at = 0;
    program
        .strings
        .iter()
        .map(|s| {
            let o = at;
            at += s.len() as u64;
            o
        })
        .collect()
}

/// What the code being emitted belongs to.
#[derive(Clone, Copy)]
enum Body {
    /// A kernel: leaving statements end the thread's part and set its status.
    Kernel { ret: Option<VarId> },
    /// A device function (`func`), or the globals kernel.
    Device { func: Option<FuncId> },
}

pub struct DeviceEmitter<'a, 's> {
    plan: &'a Plan,
    program: &'a Program,
    summaries: &'a Summaries,
    /// The body being emitted may free a heap block (`Effects::frees`; a device function's
    /// callers may, so for one it is true): a ranged loop then checks no heap block before
    /// it (`fk_pointer_range_in`).
    frees: bool,
    pub sites: &'a mut Sites<'s>,
    strings: Vec<u64>,
    /// Shared frames the current kernel uses (declared in its prologue).
    frames: BTreeSet<u32>,
    /// Register locals the current body uses.
    locals: BTreeSet<VarId>,
    /// Variables in memory the current body uses (bound to C++ references in its prologue).
    homed: BTreeSet<VarId>,
    /// Those of them a kernel keeps in registers (`kernel_registers`): loaded in its
    /// prologue, and those it assigns of its private slots stored back at its end.
    registers: BTreeSet<VarId>,
    /// The variables whose address the body being emitted takes (`addressed_vars`).
    addressed: BTreeSet<VarId>,
    stored_back: Vec<VarId>,
    /// The kernel being emitted leaves early (`goto fk_exit`, to store its registers back).
    exits: bool,
    body: Body,
    /// Enclosing loops and switches inside the current body.
    loops: usize,
    switches: usize,
    /// The access sites in loops of the body being emitted, each with the object it found
    /// last (`FkSeen fk_seen<site>`, fk_checks.cuh's `fk_at_seen`).
    seen: Vec<usize>,
    /// The body has access sites outside loops: they share the object found last
    /// (`FkSeen fk_seen`), as `swap`'s `*p` and `*q` into one array do.
    seen_outside_loops: bool,
    /// The ranged loop being emitted (an innermost loop: no loop is inside it).
    range: Option<RangeScope>,
    /// A variable read as other C than its name: a ranged loop's index at its last value.
    subst: Option<(VarId, String)>,
    /// Assignments that compute their place first (`place_first`) around the one being
    /// emitted, and the most the body nests: its `void *fk_placeN` temporaries.
    place_depth: usize,
    places: usize,
    /// Typed temporaries of the body being emitted (`temporary`), declared in its prologue.
    temporaries: Vec<String>,
    /// Device functions called so far (emitted after the kernels are known).
    pub called: BTreeSet<FuncId>,
    /// Device functions called by the body being emitted.
    pub body_calls: BTreeSet<FuncId>,
    /// The objects fault messages name.
    objects: &'a mut Objects,
    /// The current body runs in a synchronous region (a group frees a `shmalloc` block
    /// together: several members' `shfree` of it is one free).
    sync: bool,
    /// `--crcw common`: synchronous kernels log their writes to shared memory (`FK_W`) for the
    /// check of concurrent writes after each step.
    pub check_common: bool,
    /// The body being emitted logs its writes (a synchronous kernel, `check_common`) ...
    logging: bool,
    /// ... and has logged one.
    logged: bool,
    /// The kernel's loops whose stores never conflict (`Kernel::order_free`): not logged.
    order_free: Vec<Span>,
    /// Those whose iterations may load ahead (`Kernel::loads_ahead`).
    loads_ahead: Vec<Span>,
    /// The kernel's stores into cells that differ between members
    /// (`Kernel::distinct_stores`): not logged.
    distinct_stores: Vec<Span>,
    /// The kernels that log writes (checked after each run).
    pub common_kernels: BTreeSet<String>,
    /// The kernels a region launches (`Instr::Region`'s instructions), and the variables
    /// whose address some kernel takes: `region_registers`.
    region_launched: BTreeSet<KernelId>,
    addressed_anywhere: BTreeSet<VarId>,
    /// For each kernel a region launches, the private slots it takes as references from the
    /// region that keeps them in registers (`K_regs`), in order; empty: none.
    pub region_registers: BTreeMap<KernelId, Vec<VarId>>,
    /// The current kernel's: its prologue does not load them.
    params: BTreeSet<VarId>,
}

/// A ranged loop being emitted (`ranged`): the accesses of its body checked before it.
struct RangeScope {
    scope: ranged::Loop,
    /// The C type of the index.
    ty: String,
    /// The C of the index's last value.
    last: String,
    /// The C of the stride.
    stride: String,
    /// The check that stepping past the last value does not wrap the index.
    fits: String,
    /// The flag that says the checks before the loop passed (`bool fk_in<site>`).
    flag: String,
    /// The checks of the accesses found so far, but for those through pointers.
    checks: Vec<String>,
    /// The accesses through pointers found so far, by pointer.
    pointers: Vec<PointerAccesses>,
    /// The C of lower bounds on the index that hold where the code being emitted runs (the
    /// conditions that guard it, `under`).
    guards: Vec<String>,
    /// The body is being emitted a second time, for when the checks passed: its accesses
    /// that they cover run unchecked.
    ahead: bool,
    /// While a batch's values are emitted: one of them reads through a check made in its
    /// turn (`fk_at_seen`), which could fault ahead of it, so the loop does not load ahead.
    uncovered: bool,
    /// While a batch's values are emitted (`loads_ahead_batch`): the tests (`fk_elem_in`) of
    /// the elements of array variables that the checks before the loop do not cover, which
    /// the batch makes for all its iterations before it loads any of them unchecked.
    tests: Option<Vec<String>>,
}

impl RangeScope {
    /// The checks before the loop: the others, then one for each pointer, which finds the
    /// object it points into once for all the accesses through it (`heap`: the object may be
    /// a heap block, since the kernel frees none).
    fn all_checks(&self, heap: bool) -> Vec<String> {
        let pointers = self.pointers.iter().map(|p| {
            format!(
                "fk_pointer_range_in({}, {{{}}}, th, {})",
                p.base,
                p.accesses.join(", "),
                u8::from(heap)
            )
        });
        self.checks.iter().cloned().chain(pointers).collect()
    }
}

/// The accesses of a ranged loop through one pointer that the loop does not change, checked
/// before it with one call (`fk_pointer_range_in`).
struct PointerAccesses {
    /// The C of the pointer.
    base: String,
    /// Each access's `FkAccessRange`: `{at_entry, at_end, bytes}`.
    accesses: Vec<String>,
}

/// What an access in a ranged loop is checked against before the loop (`check_ahead`).
#[derive(Clone, Copy)]
enum Ahead<'e> {
    /// An element of an array variable of so many bytes.
    Array { object_bytes: u64 },
    /// The object a pointer that the loop does not change points into.
    Pointer(&'e Expr),
}

/// A batch of a loop that loads ahead (`loads_ahead_batch`), its lines indented from 0.
struct AheadBatch {
    /// What runs before the test of whether the batch runs (the tests of its elements).
    prelude: String,
    /// The C condition under which the batch runs.
    runs: String,
    /// The batch: its loads, then its stores.
    body: String,
}

/// `text` with each line indented by `levels` more levels of 4 spaces.
fn shift(text: &str, levels: usize) -> String {
    let pad = "    ".repeat(levels);
    text.lines().map(|l| format!("{pad}{l}\n")).collect()
}

/// How a place is accessed: where a fault there is reported and as what (the simulator's
/// spans: a plain assignment's write at the assignment, every read at the place).
#[derive(Clone, Copy)]
struct Access {
    span: Span,
    write: bool,
}

impl<'a, 's> DeviceEmitter<'a, 's> {
    pub fn new(
        plan: &'a Plan,
        summaries: &'a Summaries,
        sites: &'a mut Sites<'s>,
        objects: &'a mut Objects,
    ) -> DeviceEmitter<'a, 's> {
        DeviceEmitter {
            plan,
            program: &plan.program,
            summaries,
            frees: true,
            sites,
            strings: string_offsets(&plan.program),
            frames: BTreeSet::new(),
            locals: BTreeSet::new(),
            homed: BTreeSet::new(),
            registers: BTreeSet::new(),
            addressed: BTreeSet::new(),
            stored_back: Vec::new(),
            exits: false,
            body: Body::Device { func: None },
            loops: 0,
            switches: 0,
            seen: Vec::new(),
            seen_outside_loops: false,
            range: None,
            subst: None,
            place_depth: 0,
            places: 0,
            temporaries: Vec::new(),
            called: BTreeSet::new(),
            body_calls: BTreeSet::new(),
            objects,
            sync: true,
            check_common: false,
            logging: false,
            order_free: Vec::new(),
            loads_ahead: Vec::new(),
            distinct_stores: Vec::new(),
            logged: false,
            common_kernels: BTreeSet::new(),
            region_launched: plan.host.region_launches(),
            addressed_anywhere: plan
                .kernels
                .iter()
                .flat_map(|k| addressed_vars(&k.body))
                .collect(),
            region_registers: BTreeMap::new(),
            params: BTreeSet::new(),
        }
    }

    /// `__device__ void k0_main_body(FkThread *th)`, the code one member runs (the host
    /// schedule's entry point is `FK_KERNEL`, `super::kernel_entry`).
    pub fn kernel(&mut self, id: KernelId, out: &mut String) -> Result<(), EmitError> {
        let k = self.plan.kernel(id);
        self.frames.clear();
        self.locals.clear();
        self.homed.clear();
        let ret = self
            .plan
            .host_function_of(k.func)
            .and_then(|f| self.plan.function(f).ret);
        self.body = Body::Kernel { ret };
        self.frees = self.summaries.block(self.program, &k.body).frees;
        self.sync = k.mode == Mode::Sync;
        self.loops = 0;
        self.switches = 0;
        self.logging = self.check_common && k.mode == Mode::Sync;
        self.logged = false;
        self.order_free.clone_from(&k.order_free);
        self.loads_ahead.clone_from(&k.loads_ahead);
        self.distinct_stores.clone_from(&k.distinct_stores);
        self.addressed = addressed_vars(&k.body);
        (self.registers, self.stored_back) = self.kernel_registers(k, ret);
        let params = self.region_params(id);
        self.params = params.iter().copied().collect();
        self.exits = false;
        let mut body = String::new();
        for (i, s) in k.body.iter().enumerate() {
            // Each top-level statement of a synchronous kernel is a step of its group: a
            // fault's order counts it before the iterations of loops inside it
            // (`FkThread::iters`, fk_fault_precedes; at 0 when the step begins).
            if self.sync && i > 0 && !matches!(s.kind, StmtKind::Decl { init: None, .. }) {
                let _ = writeln!(body, "    th->iters = {i}ull << FK_ITERS_STATEMENT_SHIFT;");
            }
            self.stmt(s, 1, &mut body)?;
        }
        self.logging = false;
        if self.exits {
            body.push_str("fk_exit:\n");
        }
        for v in std::mem::take(&mut self.stored_back) {
            let ty = &self.program.var(v).ty;
            let _ = writeln!(
                body,
                "    *({}){} = {};",
                pointer_to(self.program, ty),
                self.address(v),
                var_name(self.program, v)
            );
        }
        let location = self.sites.location(k.span);
        let _ = writeln!(
            out,
            "// {} ({}): {location}; ends: {}",
            k.name,
            match k.mode {
                Mode::Sync => "sync",
                Mode::Async => "async",
            },
            // The cut's kind (a barrier's span is no reading for the comment).
            match k.ends {
                crate::plan::CutReason::Barrier(_) => "Barrier".to_string(),
                ends => format!("{ends:?}"),
            }
        );
        if params.is_empty() {
            let _ = writeln!(out, "__device__ void {}_body(FkThread *th) {{", k.name);
        } else {
            let refs: Vec<String> = params
                .iter()
                .map(|&v| {
                    let name = format!("&{}", var_name(self.program, v));
                    declare(self.program, &self.program.var(v).ty, &name)
                })
                .collect();
            let _ = writeln!(
                out,
                "__device__ __forceinline__ void {}_regs(FkThread *th, {}) {{",
                k.name,
                refs.join(", ")
            );
        }
        self.prologue(out);
        if self.logged {
            out.push_str("    FK_LOG_BEGIN();\n");
            self.common_kernels.insert(k.name.clone());
        }
        out.push_str(&body);
        out.push_str("}\n\n");
        if !params.is_empty() {
            // Outside a region, and in one whose members outnumber the team: the slots'
            // registers are the body's own.
            let _ = writeln!(out, "__device__ void {}_body(FkThread *th) {{", k.name);
            for &v in &params {
                let ty = &self.program.var(v).ty;
                let _ = writeln!(
                    out,
                    "    {} = *({}){};",
                    declare(self.program, ty, &var_name(self.program, v)),
                    pointer_to(self.program, ty),
                    self.address(v)
                );
            }
            let names: Vec<String> = params.iter().map(|&v| var_name(self.program, v)).collect();
            let _ = writeln!(out, "    {}_regs(th, {});\n}}\n", k.name, names.join(", "));
            self.region_registers.insert(id, params);
        }
        self.params.clear();
        Ok(())
    }

    /// The private slots that kernel `id`, launched by a region, keeps in registers
    /// (`kernel_registers`) and takes from the region as references: a region keeps a
    /// member's copies from one kernel to the next (`FK_R_LAUNCH_REGS`). Only those whose
    /// address no kernel takes: no store through a pointer changes them behind the copy.
    fn region_params(&self, id: KernelId) -> Vec<VarId> {
        if !self.region_launched.contains(&id) {
            return Vec::new();
        }
        self.registers
            .iter()
            .copied()
            .filter(|&v| {
                matches!(self.plan.storage.home(v), Some(Home::Slot { .. }))
                    && !self.addressed_anywhere.contains(&v)
            })
            .collect()
    }

    /// `k_globals`, launched once for the root group before `main`: member 0 applies the
    /// initialisers of shared globals, every member those of its private globals (memory
    /// starts zeroed).
    pub fn globals_kernel(&mut self, out: &mut String) -> Result<(), EmitError> {
        self.frames.clear();
        self.locals.clear();
        self.homed.clear();
        self.body = Body::Device { func: None };
        self.frees = true;
        let mut body = String::new();
        for g in &self.program.globals {
            let Some(init) = &g.init else { continue };
            let shared = self.program.var(g.var).sharity == fork_frontend::hir::Sharity::Shared;
            let lv = self.var(g.var);
            let _ = writeln!(
                body,
                "    if ({}) {{",
                if shared { "th->rank == 0" } else { "1" }
            );
            for elem in init {
                let value = self.expr(&elem.value)?;
                let _ = writeln!(
                    body,
                    "        *({})((char *)&{lv} + {}) = {value};",
                    pointer_to(self.program, &elem.value.ty),
                    elem.offset
                );
            }
            let _ = writeln!(body, "    }}");
        }
        let _ = writeln!(out, "// The initialisers of global variables.");
        let _ = writeln!(
            out,
            "__device__ void {}_body(FkThread *th) {{",
            GLOBALS_KERNEL
        );
        self.prologue(out);
        out.push_str(&body);
        let _ = writeln!(out, "}}\nFK_KERNEL({}, 1)\n", GLOBALS_KERNEL);
        Ok(())
    }

    /// The C prototype of a device function.
    pub fn prototype(&self, func: FuncId) -> String {
        let f = self.program.func(func);
        let mut params = vec!["FkThread *th".to_string()];
        for p in &f.params {
            params.push(declare(
                self.program,
                &self.program.var(*p).ty,
                &var_name(self.program, *p),
            ));
        }
        format!(
            "__device__ {}({})",
            declare(self.program, &f.ret, &func_name(self.program, func)),
            params.join(", ")
        )
    }

    /// A `straight` or barrier-free `async` function called inside kernels.
    pub fn device_function(&mut self, func: FuncId, out: &mut String) -> Result<(), EmitError> {
        let f = self.program.func(func);
        self.frames.clear();
        self.locals.clear();
        self.homed.clear();
        self.body = Body::Device { func: Some(func) };
        self.frees = true;
        self.addressed = addressed_vars(&f.body.stmts);
        // A device function may run in either mode: `shfree` is taken as collective.
        self.sync = true;
        self.loops = 0;
        self.switches = 0;
        let mut body = String::new();
        self.stmts(&f.body.stmts, 1, &mut body)?;
        let _ = writeln!(out, "// {}", self.sites.location(f.span));
        let _ = writeln!(out, "{} {{", self.prototype(func));
        for p in &f.params {
            self.locals.remove(p);
        }
        self.prologue(out);
        out.push_str(&body);
        out.push_str("}\n\n");
        Ok(())
    }

    /// Declarations of the body's shared frames, its variables in memory (as references to
    /// where `Storage` puts them) and its register locals.
    fn prologue(&mut self, out: &mut String) {
        let mut refs = String::new();
        let registers = std::mem::take(&mut self.registers);
        for v in std::mem::take(&mut self.homed) {
            if self.params.contains(&v) {
                continue;
            }
            let ty = &self.program.var(v).ty;
            let name = var_name(self.program, v);
            // A register is a copy of the variable's home; anything else, a reference to it.
            let declarator = if registers.contains(&v) {
                name
            } else if matches!(ty, Type::Array(..)) {
                format!("(&{name})")
            } else {
                format!("&{name}")
            };
            let _ = writeln!(
                refs,
                "    {} = *({}){};",
                declare(self.program, ty, &declarator),
                pointer_to(self.program, ty),
                self.address(v)
            );
        }
        for f in &self.frames {
            let _ = writeln!(out, "    char *fr_{f} = fk_th_frame(th, {f});");
        }
        // Each site starts from the thread's last lasting object, not empty: `swap`'s first
        // access then hits without a call (fk_checks.cuh's `fk_seen_miss`).
        for site in std::mem::take(&mut self.seen) {
            let _ = writeln!(out, "    FkSeen fk_seen{site} = th->seen;");
        }
        if std::mem::take(&mut self.seen_outside_loops) {
            out.push_str("    FkSeen fk_seen = th->seen;\n");
        }
        for temp in 0..std::mem::take(&mut self.places) {
            let _ = writeln!(out, "    void *fk_place{temp};");
        }
        for decl in std::mem::take(&mut self.temporaries) {
            let _ = writeln!(out, "    {decl};");
        }
        out.push_str(&refs);
        for v in &self.locals {
            let ty = &self.program.var(*v).ty;
            let _ = writeln!(
                out,
                "    {};",
                declare(self.program, ty, &var_name(self.program, *v))
            );
        }
    }

    // ---- statements ----

    fn stmts(&mut self, stmts: &[Stmt], depth: usize, out: &mut String) -> Result<(), EmitError> {
        for s in stmts {
            self.stmt(s, depth, out)?;
        }
        Ok(())
    }

    /// The log off for a statement the kernel lists as never conflicting (`listed`; `why`:
    /// the emitted comment). Returns the setting before, which the caller restores after the
    /// statement.
    fn unlogged(&mut self, listed: bool, why: &str, pad: &str, out: &mut String) -> bool {
        let logging = self.logging;
        if logging && listed {
            let _ = writeln!(out, "{pad}// {why} (--crcw common: not logged)");
            self.logging = false;
        }
        logging
    }

    fn stmt(&mut self, s: &Stmt, depth: usize, out: &mut String) -> Result<(), EmitError> {
        let pad = "    ".repeat(depth);
        match &s.kind {
            StmtKind::Expr(e) => {
                let listed = self.distinct_stores.contains(&s.span);
                let logging = self.unlogged(
                    listed,
                    "distinct cells: each member stores into its own",
                    &pad,
                    out,
                );
                // printf's value (the character count) is not known on the device; a
                // statement that discards it is fine.
                let code = match &e.kind {
                    ExprKind::Builtin {
                        op: Builtin::Printf,
                        args,
                    } => self.printf(args, e),
                    _ => self.expr(e),
                };
                self.logging = logging;
                let _ = writeln!(out, "{pad}{};", code?);
            }
            StmtKind::Decl { var, init } => {
                let lv = self.var(*var);
                let _ = writeln!(out, "{pad}fk_zero(&{lv}, sizeof({lv}));");
                for elem in init.iter().flatten() {
                    let value = self.expr(&elem.value)?;
                    let _ = writeln!(
                        out,
                        "{pad}*({})((char *)&{lv} + {}) = {value};",
                        pointer_to(self.program, &elem.value.ty),
                        elem.offset
                    );
                }
            }
            StmtKind::Block(b) => {
                let _ = writeln!(out, "{pad}{{");
                self.stmts(&b.stmts, depth + 1, out)?;
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::If { cond, then, els } => {
                let _ = writeln!(out, "{pad}if ({}) {{", self.truth_operand(cond)?);
                self.under(cond, true, |em| em.stmt(then, depth + 1, out))?;
                if let Some(e) = els {
                    let _ = writeln!(out, "{pad}}} else {{");
                    self.under(cond, false, |em| em.stmt(e, depth + 1, out))?;
                }
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::Loop {
                cond,
                step,
                body,
                test_first,
            } => {
                // The condition and the step run in every iteration too (`self.loops`).
                self.loops += 1;
                let listed = self.order_free.contains(&s.span);
                let logging = self.unlogged(
                    listed,
                    "order-free: no two members' stores conflict",
                    &pad,
                    out,
                );
                let cond_code = match cond {
                    Some(c) => self.truth_operand(c)?,
                    None => "1".into(),
                };
                let step_code = step.as_ref().map(|e| self.expr(e)).transpose()?;
                // The iterations, for the step and time limits (fk_spin).
                let site = self.sites.loop_site(s.span);
                let it = format!("fk_it{site}");
                let spin = format!("{pad}    if (fk_spin(&{it}, {site}, th)) break;\n");
                let range = match (cond, step) {
                    (Some(c), Some(st)) if !has_loop(body) => {
                        self.range_scope(c, st, body, site)?
                    }
                    _ => None,
                };
                // A ranged loop's body, checked, finds the checks its accesses can make
                // before the loop; where it has some, the body again without them.
                self.range = range;
                let mut inner = spin.clone();
                let checked = self.stmt(body, depth + 1, &mut inner);
                let mut unchecked = None;
                let mut batch = None;
                if let Some(r) = self
                    .range
                    .as_mut()
                    .filter(|r| !r.checks.is_empty() || !r.pointers.is_empty())
                {
                    r.ahead = true;
                    let mut fast = spin.clone();
                    let emitted = self.stmt(body, depth + 1, &mut fast);
                    unchecked = Some(emitted.map(|()| fast));
                    if *test_first && self.loads_ahead.contains(&s.span) {
                        batch = self.loads_ahead_batch(body, &spin, step_code.as_deref())?;
                    }
                }
                let range = self.range.take();
                self.logging = logging;
                checked?;
                let unchecked = unchecked.transpose()?;
                self.loops -= 1;
                // Declared in the prologue: a `goto fk_exit` may not cross its initialisation.
                // (A statement compiled more than once, a `switch` case that others fall
                // into, has one counter.)
                let decl = format!("fk_u64 {it}");
                if !self.temporaries.contains(&decl) {
                    self.temporaries.push(decl);
                }
                let _ = writeln!(out, "{pad}{it} = 0;");
                // The loop around a body emitted at `pad` + 4.
                let emit_loop = |out: &mut String, pad: &str, body: &str| match &step_code {
                    Some(step) if *test_first => {
                        let _ = writeln!(out, "{pad}for (; {cond_code}; {step}) {{");
                        out.push_str(body);
                        let _ = writeln!(out, "{pad}}}");
                    }
                    None if *test_first => {
                        let _ = writeln!(out, "{pad}while ({cond_code}) {{");
                        out.push_str(body);
                        let _ = writeln!(out, "{pad}}}");
                    }
                    // `continue` in a do-while jumps to the step and the test.
                    Some(step) => {
                        let _ = writeln!(out, "{pad}do {{");
                        out.push_str(body);
                        let _ = writeln!(out, "{pad}}} while (({step}), {cond_code});");
                    }
                    None => {
                        let _ = writeln!(out, "{pad}do {{");
                        out.push_str(body);
                        let _ = writeln!(out, "{pad}}} while ({cond_code});");
                    }
                };
                let Some((r, fast)) = range.zip(unchecked) else {
                    emit_loop(out, &pad, &inner);
                    return Ok(());
                };
                let decl = format!("bool {}", r.flag);
                if !self.temporaries.contains(&decl) {
                    self.temporaries.push(decl);
                }
                let checks = r.all_checks(!self.frees).join(" && ");
                let flag = r.flag;
                let _ = writeln!(out, "{pad}{flag} = {} && {checks};", r.fits);
                let indent = |body: &str| {
                    body.lines()
                        .map(|l| format!("    {l}\n"))
                        .collect::<String>()
                };
                let inner_pad = format!("{pad}    ");
                let _ = writeln!(
                    out,
                    "{pad}if ({flag}) {{ // every iteration's accesses lie in their objects"
                );
                // Unrolled, the copy's loads of several iterations are in flight at once
                // (UNROLL).
                let unrolled = |out: &mut String, pad: &str, body: &str| {
                    let _ = writeln!(out, "{pad}#pragma unroll {UNROLL}");
                    emit_loop(out, pad, body);
                };
                match batch {
                    // Batches of each size of LOADS_AHEAD while that many run, then the rest
                    // unrolled: a loop of fewer runs as one that does not load ahead.
                    Some(batches) => {
                        let sizes = LOADS_AHEAD.map(|n| n.to_string()).join(", then ");
                        let _ = writeln!(
                            out,
                            "{inner_pad}// loads ahead: {sizes} iterations' values at a time, then their stores"
                        );
                        // Each size's loop runs the next one where its batch does not run, and
                        // leaves: a size's loop runs only after the larger's, so the step
                        // counter stays a multiple of its size there and nvcc tests the step
                        // limit once a batch (fk_spin).
                        let mut level = depth + 1;
                        for batch in &batches {
                            let at = "    ".repeat(level);
                            let _ = writeln!(out, "{at}for (; {cond_code}; ) {{");
                            out.push_str(&shift(&batch.prelude, level + 1));
                            let _ = writeln!(out, "{at}    if (!{}) {{", batch.runs);
                            level += 2;
                        }
                        // `fast` is at depth + 1; its loop's body at level + 1.
                        let rest = shift(&fast, level - depth);
                        unrolled(out, &"    ".repeat(level), &rest);
                        for batch in batches.iter().rev() {
                            level -= 2;
                            let at = "    ".repeat(level);
                            let _ = writeln!(out, "{at}        break;");
                            let _ = writeln!(out, "{at}    }}");
                            out.push_str(&shift(&batch.body, level + 1));
                            let _ = writeln!(out, "{at}}}");
                        }
                    }
                    None => unrolled(out, &inner_pad, &indent(&fast)),
                }
                let _ = writeln!(out, "{pad}}} else {{");
                emit_loop(out, &inner_pad, &indent(&inner));
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::Switch { cond, cases } => {
                let _ = writeln!(out, "{pad}switch ({}) {{", self.expr(cond)?);
                self.switches += 1;
                for case in cases {
                    match case.value {
                        Some(v) => {
                            let _ = writeln!(
                                out,
                                "{pad}case {}: {{",
                                int_literal(self.program, v, &cond.ty)
                            );
                        }
                        None => {
                            let _ = writeln!(out, "{pad}default: {{");
                        }
                    }
                    self.stmts(&case.body, depth + 1, out)?;
                    let _ = writeln!(out, "{pad}}}");
                }
                self.switches -= 1;
                let _ = writeln!(out, "{pad}}}");
            }
            StmtKind::Break if self.loops + self.switches > 0 => {
                let _ = writeln!(out, "{pad}break;");
            }
            StmtKind::Continue if self.loops > 0 => {
                let _ = writeln!(out, "{pad}continue;");
            }
            StmtKind::Break | StmtKind::Continue => {
                if let Body::Device { .. } = self.body {
                    return Err(self.error(s, "a `break`/`continue` outside a loop"));
                }
                let status = if matches!(s.kind, StmtKind::Break) {
                    "FK_BREAK"
                } else {
                    "FK_CONTINUE"
                };
                let leave = self.leave_kernel();
                let _ = writeln!(out, "{pad}{{ fk_leave(th, {status}); {leave} }}");
            }
            StmtKind::Return(value) => match self.body {
                Body::Device { .. } => match value {
                    Some(v) => {
                        let _ = writeln!(out, "{pad}return {};", self.expr(v)?);
                    }
                    None => {
                        let _ = writeln!(out, "{pad}return;");
                    }
                },
                Body::Kernel { ret } => {
                    let _ = writeln!(out, "{pad}{{");
                    match (value, ret) {
                        (Some(v), Some(ret)) => {
                            let value = self.expr(v)?;
                            let _ = writeln!(out, "{pad}    {} = {value};", self.var(ret));
                        }
                        (Some(v), None) => {
                            let _ = writeln!(out, "{pad}    {};", self.expr(v)?);
                        }
                        _ => {}
                    }
                    let _ = writeln!(out, "{pad}    fk_leave(th, FK_RETURN);");
                    let _ = writeln!(out, "{pad}    {}", self.leave_kernel());
                    let _ = writeln!(out, "{pad}}}");
                }
            },
            StmtKind::Barrier => {
                let _ = writeln!(out, "{pad}/* barrier: the kernel ends here */");
            }
            StmtKind::Fork { .. } | StmtKind::Start(_) | StmtKind::Farm(_) | StmtKind::Seq(_) => {
                return Err(self.error(s, "a group construct inside a kernel (a transform bug)"));
            }
        }
        Ok(())
    }

    /// How a kernel body ends early: through its stores of registers when it has any.
    fn leave_kernel(&mut self) -> &'static str {
        if self.stored_back.is_empty() {
            "return;"
        } else {
            self.exits = true;
            "goto fk_exit;"
        }
    }

    /// The variables in memory that kernel `k` keeps in registers, and those of them it
    /// stores back (BSGP's rule, issue 10's lever 3). A scalar whose address is never taken
    /// changes only by assignments that name it: a private slot belongs to this processor
    /// (the host reads it after the kernel), so it is loaded once and, where the kernel
    /// assigns it, stored back at the end; a variable of a shared frame that the kernel does
    /// not assign keeps its value during the kernel (another member's write would be a cut),
    /// so it is loaded once. The rest stays in memory, as C++ references.
    fn kernel_registers(&self, k: &Kernel, ret: Option<VarId>) -> (BTreeSet<VarId>, Vec<VarId>) {
        let mut used = BTreeSet::new();
        let mut assigned = BTreeSet::new();
        for s in &k.body {
            kernel_vars(s, &mut used, &mut assigned);
        }
        if let Some(r) = ret.filter(|_| k.body.iter().any(returns)) {
            used.insert(r);
            assigned.insert(r);
        }
        let mut registers = BTreeSet::new();
        let mut stored_back = Vec::new();
        for v in used {
            let var = self.program.var(v);
            // A register copy's address would not be the variable's.
            if !var.ty.is_scalar() || self.address_taken(v) {
                continue;
            }
            match self.plan.storage.home(v) {
                Some(Home::Slot { .. }) => {
                    registers.insert(v);
                    if assigned.contains(&v) {
                        stored_back.push(v);
                    }
                }
                Some(Home::SharedFrame { .. }) if !assigned.contains(&v) => {
                    registers.insert(v);
                }
                _ => {}
            }
        }
        (registers, stored_back)
    }

    /// The scope of the loop `for (; cond; step) body` (loop site `site`) if it is a ranged
    /// loop (`ranged`).
    fn range_scope(
        &mut self,
        cond: &Expr,
        step: &Expr,
        body: &Stmt,
        site: usize,
    ) -> Result<Option<RangeScope>, EmitError> {
        let mut used = BTreeSet::new();
        let mut assigned = BTreeSet::new();
        kernel_vars(body, &mut used, &mut assigned);
        let Some((scope, range)) = ranged::ranged(cond, step, assigned, &|v| self.stable(v)) else {
            return Ok(None);
        };
        let ty = type_name(self.program, &range.bound.ty);
        let bound = self.expr(range.bound)?;
        // `b - 1` wraps only where the loop does not run (b is the least value).
        let last = match range.bound.kind {
            _ if range.inclusive => format!("({bound})"),
            ExprKind::IntConst(b) if b > i64::from(i32::MIN) => {
                int_literal(self.program, b - 1, &range.bound.ty)
            }
            _ => format!("(({ty})((unsigned long long)({bound}) - 1ull))"),
        };
        let stride = match range.stride {
            Some(s) => self.expr(s)?,
            None => "1".into(),
        };
        // The index starts in its range: a do-while runs its first iteration untested.
        let index = self.var(scope.index);
        Ok(Some(RangeScope {
            scope,
            fits: format!("fk_stride_fits<{ty}>({last}, {stride}) && {index} <= {last}"),
            ty,
            last,
            stride,
            flag: format!("fk_in{site}"),
            checks: Vec::new(),
            pointers: Vec::new(),
            guards: Vec::new(),
            ahead: false,
            uncovered: false,
            tests: None,
        }))
    }

    /// The batches of a loop that loads ahead (`Kernel::loads_ahead`), one for each size of
    /// `LOADS_AHEAD`: where that many iterations run, each one's values loaded at its index,
    /// then each one's `spin`, stores and step. An element of an array variable that a value
    /// loads and the checks before the loop do not cover (list ranking's `rank[next[v]]`) is
    /// tested for every iteration of the batch first (`fk_elem_in`, which cannot fault); where
    /// a test fails, the batch does not run, and the loop's checked rest faults in turn. None
    /// where a value reads through a check made in its turn (through a pointer the checks do
    /// not cover, `fk_at_seen`), which could fault ahead of it.
    fn loads_ahead_batch(
        &mut self,
        body: &Stmt,
        spin: &str,
        step: Option<&str>,
    ) -> Result<Option<Vec<AheadBatch>>, EmitError> {
        let (Some(stores), Some(step), Some(r)) =
            (crate::rules::stores(body), step, self.range.as_mut())
        else {
            return Ok(None);
        };
        r.tests = Some(Vec::new());
        // Store k's values in `fk_v` (the first) or `fk_v{k}`.
        let name = |k: usize| {
            if k == 0 {
                "fk_v".to_string()
            } else {
                format!("fk_v{k}")
            }
        };
        let mut loads = Vec::new();
        for (k, (_, _, value)) in stores.iter().enumerate() {
            loads.push(format!("{}[fk_j] = {}", name(k), self.expr(value)?));
        }
        let Some((tests, r)) = (self.range.as_mut())
            .and_then(|r| Some((r.tests.take()?, r)))
            .filter(|(_, r)| !r.uncovered)
        else {
            return Ok(None);
        };
        let (index, ty, last, stride) = (
            r.scope.index,
            r.ty.clone(),
            r.last.clone(),
            r.stride.clone(),
        );
        let mut writes = Vec::new();
        for (k, (e, place, _)) in stores.iter().enumerate() {
            let write = Access {
                span: e.span,
                write: true,
            };
            let lvalue = self.place(place, Some(write))?;
            writes.push(self.logged_write(place, e, &lvalue, "", &format!("{}[fk_j]", name(k))));
        }
        let index = self.var(index);
        // The lines of a loop in the batch.
        let inner = "    ";
        // Each statement on a line of its own at `pad`.
        let lines = |statements: &[String], pad: &str| {
            (statements.iter())
                .map(|l| format!("{pad}{l};\n"))
                .collect::<String>()
        };
        let loads = lines(&loads, inner);
        let writes = lines(&writes, inner);
        let spin = spin.trim();
        // The batch's `n` iterations, each at its index: `statements`, then the step.
        let each = |n: usize, statements: &str| {
            format!(
                "#pragma unroll\n\
                 for (int fk_j = 0; fk_j < {n}; fk_j++) {{\n\
                 {statements}\
                 {inner}{step};\n\
                 }}\n"
            )
        };
        let mut batches = Vec::new();
        for n in LOADS_AHEAD {
            let mut declared = Vec::new();
            for (k, (_, _, value)) in stores.iter().enumerate() {
                declared.push(declare(
                    self.program,
                    &value.ty,
                    &format!("{}[{n}]", name(k)),
                ));
            }
            let declared = lines(&declared, "");
            let runs = format!("fk_ahead<{ty}, {n}>({index}, {last}, {stride})");
            // The tests of an iteration in order (a test may load what one before it tested);
            // the iterations' with `&`, so that their loads are in flight together.
            let (prelude, runs) = if tests.is_empty() {
                (String::new(), runs)
            } else {
                let test = format!("{inner}fk_ok{n} = fk_ok{n} & ({});\n", tests.join(" && "));
                let tested = shift(&each(n, &test), 1);
                (
                    format!(
                        "bool fk_ok{n} = {runs};\n\
                         if (fk_ok{n}) {{\n\
                         {inner}const {ty} fk_k = {index};\n\
                         {tested}\
                         {inner}{index} = fk_k;\n\
                         }}\n"
                    ),
                    format!("fk_ok{n}"),
                )
            };
            let loaded = each(n, &loads);
            let body = format!(
                "const {ty} fk_k = {index};\n\
                 {declared}\
                 {loaded}\
                 {index} = fk_k;\n\
                 int fk_j = 0;\n\
                 #pragma unroll\n\
                 for (; fk_j < {n}; fk_j++) {{\n\
                 {inner}{spin}\n\
                 {writes}\
                 {inner}{step};\n\
                 }}\n\
                 if (fk_j < {n}) break;\n"
            );
            batches.push(AheadBatch {
                prelude,
                runs,
                body,
            });
        }
        Ok(Some(batches))
    }

    /// Whether `v`'s address is taken: by the program (the front end's `addr_taken`), or by
    /// the body being emitted (the transform's temporaries, `%rmw = &i`, which the front end
    /// never saw).
    fn address_taken(&self, v: VarId) -> bool {
        self.program.var(v).addr_taken || self.addressed.contains(&v)
    }

    /// Whether only an assignment that names `v` changes it: a private scalar whose address
    /// is never taken (a C local, a private slot, a variable the kernel keeps in a register).
    fn stable(&self, v: VarId) -> bool {
        self.program.var(v).ty.is_scalar()
            && !self.address_taken(v)
            && (self.registers.contains(&v)
                || matches!(self.home(v), None | Some(Home::Slot { .. })))
    }

    /// Whether an access inside a ranged loop is checked before the loop: an element of an
    /// array variable of `object_bytes` bytes, or `size` bytes through an invariant pointer
    /// `base` (`Ahead::Pointer`), at the sum of `steps` (indexes and their byte steps). In the
    /// body's first, checked emission its checks join the loop's; in the second it runs
    /// unchecked.
    fn check_ahead(
        &mut self,
        target: Ahead,
        steps: &[(&Expr, u64)],
        size: u64,
    ) -> Result<bool, EmitError> {
        let Some(r) = &self.range else {
            return Ok(false);
        };
        let stable = |v| self.stable(v);
        match target {
            Ahead::Array { object_bytes } if object_bytes < ranged::MAX_OBJECT_BYTES => {}
            Ahead::Pointer(base) if r.scope.invariant_pointer(base, &stable) => {}
            _ => return Ok(false),
        }
        let mut kinds = Vec::new();
        for (index, _) in steps {
            match r.scope.index(index, &stable) {
                Some(kind) => kinds.push(kind),
                None => return Ok(false),
            }
        }
        if r.ahead {
            return Ok(true);
        }
        let (index_var, last, guards) = (r.scope.index, r.last.clone(), r.guards.clone());
        // The least value of the index where the access runs: at entry, or a guard's bound
        // if that is larger (the index only grows).
        let mut least = self.var(index_var);
        for bound in guards {
            least = format!("(({least}) > ({bound}) ? ({least}) : ({bound}))");
        }
        let mut checks = Vec::new();
        let (mut first, mut last_offset) = (Vec::new(), Vec::new());
        for ((index, step), kind) in steps.iter().zip(kinds) {
            let at_entry = self.at_index(index_var, &least, index)?;
            let mut at_end = at_entry.clone();
            if let Index::Monotone(parts) = kind {
                at_end = self.at_index(index_var, &last, index)?;
                for (part, moves) in parts {
                    let entry = self.at_index(index_var, &least, part)?;
                    checks.push(format!("fk_small((long long)({entry}))"));
                    if moves {
                        let end = self.at_index(index_var, &last, part)?;
                        checks.push(format!("fk_small((long long)({end}))"));
                    }
                }
            }
            first.push(format!("(long long)({at_entry}) * {step}"));
            last_offset.push(format!("(long long)({at_end}) * {step}"));
        }
        let (first, last_offset) = (first.join(" + "), last_offset.join(" + "));
        let pointer = match target {
            Ahead::Array { object_bytes } => {
                checks.push(format!(
                    "fk_offsets_in({first}, {last_offset}, {size}, {object_bytes})"
                ));
                None
            }
            Ahead::Pointer(base) => Some(self.expr(base)?),
        };
        let Some(r) = &mut self.range else {
            unreachable!("the scope found above")
        };
        for check in checks {
            if !r.checks.contains(&check) {
                r.checks.push(check);
            }
        }
        if let Some(base) = pointer {
            let access = format!("{{{first}, {last_offset}, {size}}}");
            match r.pointers.iter_mut().find(|p| p.base == base) {
                Some(p) if p.accesses.contains(&access) => {}
                Some(p) => p.accesses.push(access),
                None => r.pointers.push(PointerAccesses {
                    base,
                    accesses: vec![access],
                }),
            }
        }
        Ok(false)
    }

    /// The C of `e` with the ranged loop's index `index` at the value `value` (C).
    fn at_index(&mut self, index: VarId, value: &str, e: &Expr) -> Result<String, EmitError> {
        self.subst = Some((index, value.to_string()));
        let text = self.expr(e);
        self.subst = None;
        text
    }

    /// `emit` for code that runs only where `cond` is `holds`: in a ranged loop, a lower
    /// bound that it puts on the index narrows the range `check_ahead` checks for the
    /// accesses `emit` meets (Hillis–Steele's `i >= d ? a[i - d] + a[i] : a[i]`).
    fn under<T>(
        &mut self,
        cond: &Expr,
        holds: bool,
        emit: impl FnOnce(&mut Self) -> Result<T, EmitError>,
    ) -> Result<T, EmitError> {
        let bound = self
            .range
            .as_ref()
            .and_then(|r| r.scope.lower_bound(cond, holds, &|v| self.stable(v)));
        let bound = match bound {
            None => return emit(self),
            Some(ranged::Bound::Const(b, ty)) => int_literal(self.program, b, ty),
            Some(ranged::Bound::Expr(e)) => self.expr(e)?,
        };
        if let Some(r) = &mut self.range {
            r.guards.push(bound);
        }
        let emitted = emit(self);
        if let Some(r) = &mut self.range {
            r.guards.pop();
        }
        emitted
    }

    fn error(&self, s: &Stmt, message: &str) -> EmitError {
        EmitError {
            span: s.span,
            message: message.to_string(),
        }
    }

    // ---- variables ----

    /// The C lvalue of a variable: its name (a register local, or a reference bound in the
    /// prologue to its home in memory).
    fn var(&mut self, v: VarId) -> String {
        if self.home(v).is_some() {
            self.homed.insert(v);
        } else {
            self.locals.insert(v);
        }
        var_name(self.program, v)
    }

    /// Where a variable lives in memory. A device function's own parameters and locals are
    /// C locals of each call, even where the function also runs on the host (a `straight`
    /// function that needs lockstep) and `Storage` gives them slots of its host frame.
    fn home(&self, v: VarId) -> Option<Home> {
        let own = match (self.body, self.program.var(v).kind) {
            (
                Body::Device { func: Some(f) },
                VarKind::Local { func } | VarKind::Param { func, .. },
            ) => f == func,
            _ => false,
        };
        if own {
            None
        } else {
            self.plan.storage.home(v)
        }
    }

    /// The address of a variable's home in memory.
    fn address(&mut self, v: VarId) -> String {
        let size = self.program.var(v).ty.size(&self.program.structs);
        match self.home(v) {
            Some(Home::Shared { offset }) => format!("(fk_m.shared_globals + {offset})"),
            Some(Home::PrivateGlobal { offset }) => {
                format!("fk_private_global({offset}, {size}, th->proc)")
            }
            Some(Home::Slot { offset }) => {
                format!("fk_slot(th->slot_base, {offset}, {size}, th->proc)")
            }
            Some(Home::SharedFrame { frame, offset }) => {
                let lookup = match self.body {
                    Body::Kernel { .. } => {
                        self.frames.insert(frame.0);
                        format!("fr_{}", frame.0)
                    }
                    Body::Device { .. } => format!("fk_th_frame(th, {})", frame.0),
                };
                format!("({lookup} + {offset})")
            }
            None => format!("&{}", var_name(self.program, v)),
        }
    }

    // ---- expressions ----

    fn site(&mut self, code: &'static fork_frontend::diag::Code, span: Span, what: &str) -> usize {
        self.sites.add(code, span, what)
    }

    /// The site of an access of `bytes` bytes out of its object (`fk_elem`), with the
    /// simulator's message.
    fn bounds_site(&mut self, access: Access, bytes: u64) -> usize {
        let what = if access.write { "write" } else { "read" };
        let plural = if bytes == 1 { "" } else { "s" };
        self.sites.add_with_help(
            &fault::R0001,
            access.span,
            &format!(
                "{what} out of bounds: {bytes} byte{plural} at byte offset {{value}} of {{object}}"
            ),
            Some("check the index against the object's size"),
        )
    }

    /// The four consecutive sites `fk_at` reports for an access of `bytes` bytes: out of
    /// bounds, null, invalid pointer, freed block (the simulator's messages).
    fn access_sites(&mut self, access: Access, bytes: u64) -> usize {
        let what = if access.write { "write" } else { "read" };
        let first = self.bounds_site(access, bytes);
        self.site(
            &fault::R0002,
            access.span,
            &format!("{what} through a null pointer"),
        );
        self.site(
            &fault::R0002,
            access.span,
            &format!("{what} through an invalid pointer (it points at no object)"),
        );
        self.site(
            &fault::R0009,
            access.span,
            &format!("{what} of {{object}} after it was freed"),
        );
        first
    }

    /// The C lvalue of a place; `access`: checked as that access (None: only its address is
    /// taken, `&p[i]`).
    fn place(&mut self, e: &Expr, access: Option<Access>) -> Result<String, EmitError> {
        match &e.kind {
            ExprKind::Deref(x) => self.deref(x, access),
            ExprKind::Member { base, field } => {
                let Type::Struct(id) = &base.ty else {
                    return Err(EmitError {
                        span: e.span,
                        message: "a member of a non-struct".into(),
                    });
                };
                let name = &self.program.structs[id.0 as usize].fields[*field].name;
                Ok(format!(
                    "{}.{}",
                    self.place(base, access)?,
                    field_name(name)
                ))
            }
            _ => self.expr(e),
        }
    }

    /// `*x` accessed as `access`: an element of an array variable checked against the whole
    /// variable (`fk_elem`), any other access through a pointer against the object the pointer
    /// points into (`fk_at`, pram-runtime/cuda/fk_checks.cuh).
    fn deref(&mut self, x: &Expr, access: Option<Access>) -> Result<String, EmitError> {
        let p = self.program;
        let pointee = x.ty.pointee().cloned().unwrap_or(Type::Void);
        let size = pointee.size(&p.structs);
        let (base, offset) = match &x.kind {
            // `*(a + i)` with a step of one element is `a[i]`.
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } if *elem_size == size && !matches!(pointee, Type::Void) => {
                if let (Some(access), Some((array, mut steps))) = (access, array_steps(ptr)) {
                    // An element of an array variable: one offset, checked against the whole
                    // variable (`fk_elem`), as the simulator checks it.
                    steps.push((index, *elem_size));
                    let ExprKind::Var(v) = array.kind else {
                        unreachable!("array_steps ends at a variable")
                    };
                    let first = format!("&{}{}", self.expr(array)?, "[0]".repeat(steps.len()));
                    let object_bytes = array.ty.size(&p.structs);
                    let ahead = self.check_ahead(Ahead::Array { object_bytes }, &steps, size)?;
                    let mut offset = Vec::new();
                    for (index, step) in steps {
                        offset.push(format!("(long long)({}) * {step}", self.expr(index)?));
                    }
                    let offset = offset.join(" + ");
                    let tests = self.range.as_mut().and_then(|r| r.tests.as_mut());
                    if ahead || tests.is_some() {
                        let test = format!("fk_elem_in({offset}, {size}, {object_bytes})");
                        if let Some(tests) = tests.filter(|t| !ahead && !t.contains(&test)) {
                            tests.push(test);
                        }
                        let ptr = pointer_to(p, &pointee);
                        return Ok(format!("(*({ptr})((char *){first} + {offset}))"));
                    }
                    let object = self.objects.var(p, v);
                    let site = self.bounds_site(access, size);
                    return Ok(format!(
                        "fk_elem({first}, {offset}, {object_bytes}, {object}, {site}, th)"
                    ));
                }
                let index_text = self.expr(index)?;
                if access.is_none() {
                    if let ExprKind::Decay(array) = &ptr.kind {
                        if matches!(array.kind, ExprKind::Var(_)) {
                            return Ok(format!("{}[{index_text}]", self.expr(array)?));
                        }
                    }
                }
                let base = self.expr(ptr)?;
                if access.is_none() {
                    return Ok(format!("{base}[{index_text}]"));
                }
                let offset = format!("(long long)({index_text}) * {elem_size}");
                if self.check_ahead(Ahead::Pointer(ptr), &[(&**index, *elem_size)], size)? {
                    let ptr = pointer_to(p, &pointee);
                    return Ok(format!("(*({ptr})((char *){base} + {offset}))"));
                }
                (base, offset)
            }
            _ => {
                let base = self.expr(x)?;
                // A place's address the transform computed ahead was checked there
                // (`Assign` below); it points into its object or at the runtime's scratch.
                let checked_ahead = matches!(&x.kind, ExprKind::Var(t)
                    if crate::sequence::place_access(&p.var(*t).name).is_some());
                if access.is_none() || checked_ahead {
                    return Ok(format!("(*{base})"));
                }
                (base, "0".to_string())
            }
        };
        let site = access.map_or(0, |a| self.access_sites(a, size));
        if let Some(r) = self.range.as_mut().filter(|r| r.tests.is_some()) {
            r.uncovered = true;
        }
        if self.loops > 0 {
            self.seen.push(site);
            return Ok(format!(
                "(*fk_at_seen({base}, {offset}, {site}, th, fk_seen{site}))"
            ));
        }
        self.seen_outside_loops = true;
        Ok(format!(
            "(*fk_at_seen({base}, {offset}, {site}, th, fk_seen))"
        ))
    }

    /// An operand tested for truth (`&&`, `||`, `!`, `?:`, `if`, loops): an assignment is
    /// compared with 0, which nvcc and NVRTC take without the "= for ==" warning.
    fn truth_operand(&mut self, e: &Expr) -> Result<String, EmitError> {
        let code = self.expr(e)?;
        Ok(match e.kind {
            ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } => format!("({code} != 0)"),
            _ => code,
        })
    }

    pub fn expr(&mut self, e: &Expr) -> Result<String, EmitError> {
        let p = self.program;
        Ok(match &e.kind {
            ExprKind::IntConst(v) => match &e.ty {
                Type::Ptr(_) => format!("(({}){v})", type_name(p, &e.ty)),
                ty => int_literal(p, *v, ty),
            },
            ExprKind::FloatConst(f) => match &e.ty {
                Type::Float(fork_frontend::hir::FloatKind::F32) => {
                    format!("((float){})", float_literal(*f))
                }
                _ => float_literal(*f),
            },
            ExprKind::Str(id) => format!(
                "((signed char *)(fk_m.strings + {}))",
                self.strings[id.0 as usize]
            ),
            ExprKind::Var(v) => match &self.subst {
                Some((x, text)) if x == v => text.clone(),
                _ => self.var(*v),
            },
            ExprKind::Deref(x) => self.deref(
                x,
                Some(Access {
                    span: e.span,
                    write: false,
                }),
            )?,
            ExprKind::Member { .. } => self.place(
                e,
                Some(Access {
                    span: e.span,
                    write: false,
                }),
            )?,
            // `&a[i]` is `a + i`: no access, so no check (one past the end is valid C).
            ExprKind::AddrOf(x) => format!("(&{})", self.place(x, None)?),
            ExprKind::Decay(x) => format!("(&{}[0])", self.expr(x)?),
            ExprKind::Convert(x) => {
                format!("(({}){})", type_name(p, &e.ty), self.expr(x)?)
            }
            ExprKind::Unary(op, x) => {
                let op = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => return Ok(format!("(!{})", self.truth_operand(x)?)),
                };
                format!("({op}{})", self.expr(x)?)
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.expr(a)?, self.expr(b)?);
                self.binary(*op, &x, &y, &a.ty, e)
            }
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => format!(
                "(({})((char *){} + (long long){} * {elem_size}))",
                type_name(p, &e.ty),
                self.expr(ptr)?,
                self.expr(index)?
            ),
            ExprKind::PtrDiff { a, b, elem_size } => format!(
                "((long long)((char *){} - (char *){}) / {elem_size})",
                self.expr(a)?,
                self.expr(b)?
            ),
            ExprKind::LogAnd(a, b) => format!(
                "({} && {})",
                self.truth_operand(a)?,
                self.under(a, true, |em| em.truth_operand(b))?
            ),
            ExprKind::LogOr(a, b) => format!(
                "({} || {})",
                self.truth_operand(a)?,
                self.under(a, false, |em| em.truth_operand(b))?
            ),
            ExprKind::Cond(c, a, b) => format!(
                "({} ? {} : {})",
                self.truth_operand(c)?,
                self.under(c, true, |em| em.expr(a))?,
                self.under(c, false, |em| em.expr(b))?
            ),
            ExprKind::Assign { place, value } => {
                // Inner assignments that compute their place first use the next temporary.
                let first = place_first(p, place, value).then(|| self.enter_place_first());
                let write = Access {
                    span: e.span,
                    write: true,
                };
                let value = match (&place.kind, &value.kind) {
                    // The address of a place the transform computes ahead of its access
                    // (`%addr = &p[i]`): checked here, where the base pointer is known.
                    (ExprKind::Var(t), ExprKind::AddrOf(x)) => {
                        match crate::sequence::place_access(&p.var(*t).name) {
                            Some(write) => {
                                let access = Access {
                                    span: value.span,
                                    write,
                                };
                                format!("(&{})", self.place(x, Some(access))?)
                            }
                            None => self.expr(value)?,
                        }
                    }
                    _ => self.expr(value)?,
                };
                let lvalue = self.place(place, Some(write))?;
                match first {
                    Some(temp) => {
                        let cell = self.leave_place_first(temp, place);
                        let store = self.logged_write(place, e, &cell, "", &value);
                        format!("(fk_place{temp} = (void *)&{lvalue}, {store})")
                    }
                    None => self.logged_write(place, e, &lvalue, "", &value),
                }
            }
            ExprKind::CompoundAssign { place, op, rhs, .. } => {
                // A value with an effect may write the cell: the simulator reads the old value
                // before it, so the old value and the value are held in temporaries and the old
                // one is put back before the operation (C++ reads the cell after the value).
                let held = !plain(rhs);
                let first = (held || place_first(p, place, rhs)).then(|| self.enter_place_first());
                let (lvalue, mut y) = (self.read_place(place)?, self.expr(rhs)?);
                let x = match first {
                    Some(temp) => self.leave_place_first(temp, place),
                    None => lvalue.clone(),
                };
                let mut hold = String::new();
                if held {
                    let old = self.temporary(&place.ty);
                    let value = self.temporary(&rhs.ty);
                    hold = format!("{old} = {x}, {value} = {y}, {x} = {old}, ");
                    y = value;
                }
                let store = match op {
                    CompoundOp::Arith(BinOp::Div) | CompoundOp::Arith(BinOp::Rem)
                        if !matches!(rhs.ty, Type::Float(_)) =>
                    {
                        let f = if matches!(op, CompoundOp::Arith(BinOp::Div)) {
                            "fk_div_assign"
                        } else {
                            "fk_rem_assign"
                        };
                        format!("{f}({x}, {y}, {}, th)", self.division_site(e))
                    }
                    CompoundOp::Arith(op @ (BinOp::Shl | BinOp::Shr)) => {
                        let y = format!("({y} & {})", bits(&rhs.ty) - 1);
                        self.logged_write(place, e, &x, op.symbol(), &y)
                    }
                    CompoundOp::Arith(op) => self.logged_write(place, e, &x, op.symbol(), &y),
                    CompoundOp::PtrAdd { elem_size } => {
                        format!("fk_ptr_step({x}, (long long){y} * {elem_size})")
                    }
                    CompoundOp::PtrSub { elem_size } => {
                        format!("fk_ptr_step({x}, -(long long){y} * {elem_size})")
                    }
                };
                match first {
                    Some(temp) => format!("(fk_place{temp} = (void *)&{lvalue}, {hold}{store})"),
                    None => store,
                }
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let x = self.read_place(place)?;
                let op = if *inc { "++" } else { "--" };
                match (*prefix, self.logs(place)) {
                    (true, _) => self.logged_write(place, e, &x, &op[..1], "1"),
                    (false, false) => format!("({x}{op})"),
                    // `x++` as `++x` logged, minus the step (an lvalue to log).
                    (false, true) => {
                        let written = self.logged_write(place, e, &x, &op[..1], "1");
                        let back = if *inc { "-" } else { "+" };
                        format!("(({})({written} {back} 1))", type_name(p, &e.ty))
                    }
                }
            }
            ExprKind::Comma(a, b) => format!("({}, {})", self.expr(a)?, self.expr(b)?),
            ExprKind::Call { func, args } => {
                self.called.insert(*func);
                self.body_calls.insert(*func);
                let mut list = vec!["th".to_string()];
                for a in args {
                    list.push(self.expr(a)?);
                }
                format!("{}({})", func_name(p, *func), list.join(", "))
            }
            ExprKind::Builtin { op, args } => self.builtin(*op, args, e)?,
            ExprKind::ProcNr => format!("(({})th->proc)", type_name(p, &e.ty)),
            ExprKind::StartedProcs => format!("(({})fk_m.procs)", type_name(p, &e.ty)),
            ExprKind::Dollar => format!("(({})th->dollar)", type_name(p, &e.ty)),
            ExprKind::DollarDollar => format!("(({})th->rank)", type_name(p, &e.ty)),
            ExprKind::At => format!("(({})th->at)", type_name(p, &e.ty)),
            ExprKind::GroupSize => format!("(({})th->size)", type_name(p, &e.ty)),
        })
    }

    /// A place read first (compound assignment, `++`): the simulator reports a fault there
    /// as a read at the place.
    fn read_place(&mut self, place: &Expr) -> Result<String, EmitError> {
        let read = Access {
            span: place.span,
            write: false,
        };
        self.place(place, Some(read))
    }

    fn division_site(&mut self, e: &Expr) -> usize {
        self.sites.add_with_help(
            &fault::R0003,
            e.span,
            "division by zero",
            Some("guard the division so the divisor cannot be 0"),
        )
    }

    /// Whether a write of `place` is logged: in a logging body, unless the place is a
    /// private variable (a pointer may point into shared memory: `fk_w` tests the address).
    fn logs(&self, place: &Expr) -> bool {
        fn may_be_shared(plan: &Plan, place: &Expr) -> bool {
            match &place.kind {
                ExprKind::Var(v) => matches!(
                    plan.storage.home(*v),
                    Some(Home::Shared { .. } | Home::SharedFrame { .. })
                ),
                ExprKind::Member { base, .. } => may_be_shared(plan, base),
                ExprKind::Deref(x) => match &x.kind {
                    ExprKind::PtrOffset { ptr, .. } => match &ptr.kind {
                        ExprKind::Decay(array) => may_be_shared(plan, array),
                        _ => true,
                    },
                    _ => true,
                },
                _ => true,
            }
        }
        self.logging && may_be_shared(self.plan, place)
    }

    /// The C++ assignment `lvalue op= value` (an lvalue) to `place` (`op` empty: a plain
    /// assignment), logged for the `--crcw common` check when `logs(place)`. The log takes the
    /// value this processor wrote, not the cell read back: the other writers of the step
    /// write it at the same time.
    fn logged_write(
        &mut self,
        place: &Expr,
        e: &Expr,
        lvalue: &str,
        op: &str,
        value: &str,
    ) -> String {
        if !self.logs(place) {
            return format!("({lvalue} {op}= {value})");
        }
        self.logged = true;
        let site = self.site(
            &fault::R0004,
            e.span,
            "concurrent write conflict (CRCW common)",
        );
        // fk_w's operator: the first character, `<` and `>` for the shifts.
        let op = op.chars().next().unwrap_or('=');
        format!("FK_W('{op}', {lvalue}, {value}, {site})")
    }

    /// An assignment that computes its place first begins: its temporary's number.
    fn enter_place_first(&mut self) -> usize {
        self.place_depth += 1;
        self.places = self.places.max(self.place_depth);
        self.place_depth - 1
    }

    /// A new temporary of type `ty` in the body being emitted: its name.
    fn temporary(&mut self, ty: &Type) -> String {
        let name = format!("fk_held{}", self.temporaries.len());
        self.temporaries.push(declare(self.program, ty, &name));
        name
    }

    /// Its subexpressions are emitted: the place, through its temporary.
    fn leave_place_first(&mut self, temp: usize, place: &Expr) -> String {
        self.place_depth -= 1;
        format!(
            "(*({} *)fk_place{temp})",
            type_name(self.program, &place.ty)
        )
    }

    fn binary(&mut self, op: BinOp, x: &str, y: &str, ty: &Type, e: &Expr) -> String {
        let integer = !matches!(ty, Type::Float(_));
        match op {
            // A non-zero constant divisor needs no check.
            BinOp::Div | BinOp::Rem if integer && !matches!(e_rhs_const(e), Some(v) if v != 0) => {
                let f = if op == BinOp::Div { "fk_div" } else { "fk_rem" };
                format!(
                    "{f}<{}>({x}, {y}, {}, th)",
                    type_name(self.program, ty),
                    self.division_site(e)
                )
            }
            // The shift count is taken modulo the width, as every backend does.
            BinOp::Shl | BinOp::Shr => {
                format!("({x} {} ({y} & {}))", op.symbol(), bits(ty) - 1)
            }
            _ => format!("({x} {} {y})", op.symbol()),
        }
    }

    fn builtin(&mut self, op: Builtin, args: &[Expr], e: &Expr) -> Result<String, EmitError> {
        let p = self.program;
        if op == Builtin::Printf {
            return Err(EmitError {
                span: e.span,
                message: "the value of `printf` (the number of characters) is not available \
                          on the GPU; call printf as a statement of its own"
                    .into(),
            });
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        let arg = |i: usize| vals.get(i).cloned().unwrap_or_else(|| "0".into());
        Ok(match op {
            Builtin::Printf => unreachable!("handled above"),
            Builtin::Multiprefix(mp) => format!(
                "fk_atomic_mp((int *){}, {}, {})",
                arg(0),
                arg(1),
                mp_name(mp)
            ),
            Builtin::SyncUpdate(mp) => format!(
                "((void)fk_atomic_mp((int *){}, {}, {}))",
                arg(0),
                arg(1),
                mp_name(mp)
            ),
            Builtin::Ilog2 => format!(
                "(({})fk_ilog2((long long){}, {}, th))",
                type_name(p, &e.ty),
                arg(0),
                self.site(
                    &fault::R0012,
                    args[0].span,
                    "ilog2 of {value}, which is not positive"
                )
            ),
            Builtin::Shmalloc | Builtin::Malloc => {
                // The sites: the heap is full, a negative size.
                let full = self.sites.add_with_help(
                    &fault::R0012,
                    e.span,
                    "cannot allocate {value} bytes: the GPU's heap is full",
                    Some(
                        "raise the heap (its blocks are not reused once freed) with `forkcc run \
                         --heap-mib N`, or build the `.cu` with `-DFK_HEAP_BYTES=N`",
                    ),
                );
                self.site(
                    &fault::R0012,
                    args[0].span,
                    "allocation of a negative size ({value})",
                );
                format!(
                    "(({})fk_alloc((long long){}, {}, {full}, th))",
                    type_name(p, &e.ty),
                    arg(0),
                    (op == Builtin::Shmalloc) as u8
                )
            }
            Builtin::Shfree | Builtin::Free => {
                let (name, kind) = if op == Builtin::Shfree {
                    ("shfree", "shared (`shmalloc`)")
                } else {
                    ("free", "private (`malloc`)")
                };
                let freed = self.site(
                    &fault::R0009,
                    e.span,
                    &format!("`{name}` of a block that was already freed"),
                );
                self.site(
                    &fault::R0010,
                    e.span,
                    &format!("`{name}` of a pointer {{value}} bytes into a heap block"),
                );
                self.site(
                    &fault::R0010,
                    e.span,
                    &format!("`{name}` of {{object}}, which is not a {kind} heap block"),
                );
                self.site(
                    &fault::R0002,
                    e.span,
                    &format!("`{name}` of an invalid pointer"),
                );
                // A group frees a block it allocated together once (docs/language.md §2).
                let kind = match (op, self.sync) {
                    (Builtin::Free, _) => abi::FK_FREE_PRIVATE,
                    (_, false) => abi::FK_FREE_SHARED,
                    (_, true) => abi::FK_FREE_SHARED_ONCE,
                };
                format!(
                    "fk_free({}, {}, {freed}, th)",
                    arg(0),
                    abi::c_name("FK_FREE_", kind.into())
                )
            }
            Builtin::StackRoom => format!(
                "fk_assert({} != 0, {}, th)",
                arg(0),
                self.site(&fault::R0008, e.span, crate::plan::STACK_FULL)
            ),
            Builtin::Assert => format!(
                "fk_assert({} != 0, {}, th)",
                arg(0),
                self.site(&fault::R0007, e.span, "assertion failed")
            ),
            Builtin::Abs => format!("abs({})", arg(0)),
            Builtin::Labs => format!("llabs({})", arg(0)),
            Builtin::Fabs => format!("fabs({})", arg(0)),
            Builtin::Sqrt => format!("sqrt({})", arg(0)),
            Builtin::Pow => format!("pow({}, {})", arg(0), arg(1)),
            Builtin::Exp => format!("exp({})", arg(0)),
            Builtin::Log => format!("log({})", arg(0)),
            Builtin::Sin => format!("sin({})", arg(0)),
            Builtin::Cos => format!("cos({})", arg(0)),
            Builtin::Floor => format!("floor({})", arg(0)),
            Builtin::Ceil => format!("ceil({})", arg(0)),
        })
    }

    /// `fk_printf(th, format, args...)`: a record for the host to format. The format is a
    /// string literal (the checker requires it); its id is its `StrId`.
    fn printf(&mut self, args: &[Expr], e: &Expr) -> Result<String, EmitError> {
        let Some((fmt, rest)) = args.split_first() else {
            return Err(EmitError {
                span: e.span,
                message: "printf without a format".into(),
            });
        };
        let Some(format) = string_literal(fmt) else {
            return Err(EmitError {
                span: fmt.span,
                message: "printf needs a string literal as its format".into(),
            });
        };
        let mut list = vec!["th".to_string(), format.to_string()];
        for a in rest {
            let v = self.expr(a)?;
            list.push(match &a.ty {
                Type::Float(_) => format!("(double){v}"),
                Type::Ptr(_) => format!("(const signed char *){v}"),
                _ => format!("(long long){v}"),
            });
        }
        Ok(format!("fk_printf({})", list.join(", ")))
    }
}

/// The divisor of a binary expression when it is an integer constant.
fn e_rhs_const(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Binary(_, _, b) => match b.kind {
            ExprKind::IntConst(v) => Some(v),
            _ => None,
        },
        _ => None,
    }
}

/// `ptr` as the first element of a row of an array variable: the variable and the
/// (index, byte step) of each index applied to it so far (`m[i]` decayed: `m`, `[(i, row)]`).
/// None when the array is not a variable's (a pointer, a struct member).
fn array_steps(ptr: &Expr) -> Option<(&Expr, Vec<(&Expr, u64)>)> {
    let ExprKind::Decay(array) = &ptr.kind else {
        return None;
    };
    match &array.kind {
        ExprKind::Var(_) if matches!(array.ty, Type::Array(..)) => Some((array, Vec::new())),
        ExprKind::Deref(row) => match &row.kind {
            // A decayed array steps by its element's size: `elem_size` is the row's.
            ExprKind::PtrOffset {
                ptr,
                index,
                elem_size,
            } => {
                let (var, mut steps) = array_steps(ptr)?;
                steps.push((index, *elem_size));
                Some((var, steps))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The `StrId` of a string literal, through conversions and decay.
fn string_literal(e: &Expr) -> Option<u32> {
    match &e.kind {
        ExprKind::Str(id) => Some(id.0),
        ExprKind::Convert(x) | ExprKind::Decay(x) => string_literal(x),
        _ => None,
    }
}

/// The struct definitions, in an order where a struct comes after the structs it contains.
pub fn structs(program: &Program, out: &mut String) {
    for i in 0..program.structs.len() {
        let _ = writeln!(out, "{};", struct_name(program, i as u32));
    }
    out.push('\n');
    let mut done = vec![false; program.structs.len()];
    for i in 0..program.structs.len() {
        emit_struct(program, i, &mut done, out);
    }
}

fn emit_struct(program: &Program, i: usize, done: &mut [bool], out: &mut String) {
    if done[i] {
        return;
    }
    done[i] = true;
    let s = &program.structs[i];
    for f in &s.fields {
        let mut t = &f.ty;
        while let Type::Array(elem, _) = t {
            t = elem;
        }
        if let Type::Struct(id) = t {
            emit_struct(program, id.0 as usize, done, out);
        }
    }
    let _ = writeln!(out, "{} {{", struct_name(program, i as u32));
    for f in &s.fields {
        let _ = writeln!(
            out,
            "    {};",
            declare(program, &f.ty, &field_name(&f.name))
        );
    }
    let _ = writeln!(out, "}};");
    let _ = writeln!(
        out,
        "static_assert(sizeof({}) == {}, \"C layout\");\n",
        struct_name(program, i as u32),
        s.size
    );
}

/// Whether an assignment must compute its place's address before its value: the simulator
/// evaluates the place first, C++17 the right operand of `=` and `op=` first, which differs
/// when either side has an effect the other's evaluation sees (`a[g()] = a[0]` with `g`
/// writing `a[0]`, `a[k] = f(&k)`). A variable's address needs no evaluation, and an address
/// that reads only private locals whose address is never taken changes only by an
/// assignment in the value (`effects::Exposed`). Such an assignment is
/// `(fk_placeN = &place, *fk_placeN = value)`: the comma orders them.
fn place_first(program: &Program, place: &Expr, value: &Expr) -> bool {
    let changeable = || exposed_address_reads(program, place).any() || assigns(value);
    !matches!(place.kind, ExprKind::Var(_)) && (!plain(place) || (!plain(value) && changeable()))
}

/// Whether `e` contains an assignment (`=`, `op=`, `++`, `--`).
fn assigns(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= x.assigned_place().is_some());
    found
}

/// The variables `s` names, and those it assigns (an assignment's place, a declaration).
fn kernel_vars(s: &Stmt, used: &mut BTreeSet<VarId>, assigned: &mut BTreeSet<VarId>) {
    if let StmtKind::Decl { var, .. } = &s.kind {
        used.insert(*var);
        assigned.insert(*var);
    }
    for e in own_exprs(s) {
        e.walk(&mut |x| {
            if let ExprKind::Var(v) = x.kind {
                used.insert(v);
            }
            if let Some(ExprKind::Var(v)) = x.assigned_place().map(|p| &p.kind) {
                assigned.insert(*v);
            }
        });
    }
    for c in children(s) {
        kernel_vars(c, used, assigned);
    }
}

/// The variables whose address `body` takes (`&v`, `&v.f`, `&a[i]`, an array decaying): the
/// front end's `addr_taken` does not see the addresses the transform takes itself (`%rmw =
/// &i` for `i++` on a shared local), so a body's own are found here.
fn addressed_vars(body: &[Stmt]) -> BTreeSet<VarId> {
    fn walk(s: &Stmt, addressed: &mut BTreeSet<VarId>) {
        for e in own_exprs(s) {
            e.walk(&mut |x| {
                if let ExprKind::AddrOf(place) | ExprKind::Decay(place) = &x.kind {
                    addressed.extend(crate::effects::root_var(place));
                }
            });
        }
        for c in children(s) {
            walk(c, addressed);
        }
    }
    let mut addressed = BTreeSet::new();
    body.iter().for_each(|s| walk(s, &mut addressed));
    addressed
}

/// Whether `s` contains a loop.
fn has_loop(s: &Stmt) -> bool {
    any_stmt(s, &|s| matches!(s.kind, StmtKind::Loop { .. }))
}

/// Whether `s` contains a `return`.
fn returns(s: &Stmt) -> bool {
    any_stmt(s, &|s| matches!(s.kind, StmtKind::Return(_)))
}
