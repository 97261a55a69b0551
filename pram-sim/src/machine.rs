//! The machine state: memory, per-processor group identity, shared-local bindings, output,
//! counters. Statements are executed in `exec`, expressions in `eval`, steps closed in `step`.

use crate::fault::{self, Fault, Who};
use crate::memory::{ptr_add, MemError, Memory, Origin, State};
use crate::stats::{FuncStats, Stats};
use crate::value::Scalar;
use crate::{Config, Outcome};
use fork_frontend::hir::{Expr, FnKind, FuncId, Mode, Program, Sharity, Type, VarId, VarKind};
use fork_frontend::source::Span;

pub type R<T> = Result<T, Box<Fault>>;

/// One word per lane. Inline for small groups: most groups deep in a recursion are small.
pub type Vals = smallvec::SmallVec<[u64; 2]>;
/// Lane numbers of a frame, ascending.
pub type Lanes = smallvec::SmallVec<[u32; 4]>;

/// Where a variable lives.
#[derive(Debug, Clone, Copy)]
pub enum Storage {
    /// A private scalar whose address is never taken: a per-lane column of the frame.
    Column(u32),
    /// A private array, struct or addressed scalar: one object per lane; the column holds the
    /// pointer.
    PrivObj(u32),
    /// A shared local or shared parameter: one object per group instance (`Machine::bound`).
    SharedLocal,
    SharedGlobal(u64),
    /// Index into `Machine::private_globals` (one object per processor).
    PrivGlobal(u32),
}

/// The locals of one call of a function by a group (or a single processor): lane `l` is
/// processor `procs[l]`.
pub struct Frame {
    pub procs: Lanes,
    /// `slot * lanes + lane` for the slots of `Storage::Column`/`PrivObj`.
    pub cols: smallvec::SmallVec<[u64; 8]>,
    /// Return values by lane.
    pub ret: Vals,
    /// Private objects created by this call, ended when it returns.
    pub owned: Vec<u64>,
    /// The objects holding the values of struct-returning calls made by this call: the call
    /// expression's address, the lane, the object (`Machine::keep_returned`).
    pub returned: Vec<(usize, u32, u64)>,
}

impl Frame {
    pub fn col(&self, slot: u32) -> &[u64] {
        let n = self.procs.len();
        &self.cols[slot as usize * n..][..n]
    }

    pub fn col_mut(&mut self, slot: u32) -> &mut [u64] {
        let n = self.procs.len();
        &mut self.cols[slot as usize * n..][..n]
    }
}

/// The executing group (or, in asynchronous mode, the set of processors running together).
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    pub mode: Mode,
    /// `groupsize()`.
    pub size: u32,
    /// `@`.
    pub at: i64,
    /// Identifies the group instance that owns shared locals declared now.
    pub group: u64,
    pub func: FuncId,
}

/// A shared local's current instance and the group instance that created it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Binding {
    pub ptr: u64,
    pub group: u64,
}

/// A write of a synchronous step, applied when the step ends.
#[derive(Debug, Clone, Copy)]
pub struct Write {
    pub ptr: u64,
    pub raw: u64,
    pub size: u8,
    pub proc: u32,
    pub span: Span,
    /// Part of one write by the whole group (a `sh` argument): the members' copies are one
    /// access under `--model crew`/`erew`; the CRCW rule still picks the value.
    pub by_group: bool,
}

/// The most output a run may print.
pub const MAX_OUTPUT: u64 = 1 << 30;

/// Why an allocation was refused.
pub fn too_large_text(e: &MemError) -> String {
    match e {
        MemError::TooLarge { size } => format!(
            "{size} bytes would exceed the simulator's memory ({} bytes per object, {} in all)",
            crate::memory::MAX_OBJECT,
            crate::memory::MAX_TOTAL
        ),
        MemError::TooMany => format!(
            "the run created more than {} objects (variables, heap blocks)",
            crate::memory::MAX_OBJECTS
        ),
        other => format!("{other:?}"),
    }
}

pub struct Machine<'p> {
    pub prog: &'p Program,
    pub cfg: &'p Config,
    pub storage: Vec<Storage>,
    pub slots: Vec<u32>,
    pub mem: Memory,
    /// `$$` by processor.
    pub rank: Vec<u32>,
    /// `$` by processor.
    pub dollar: Vec<i64>,
    pub bound: Vec<Binding>,
    /// Bindings replaced by declarations, restored when their group ends.
    pub undo: Vec<(VarId, Binding)>,
    pub private_globals: Vec<Vec<u64>>,
    pub strings: Vec<u64>,
    pub pending: Vec<Write>,
    /// Reads of this step (address, processor, where), recorded under `--model erew`.
    pub reads: Vec<(u64, u32, Span)>,
    pub out: Vec<u8>,
    /// Output of asynchronous code by processor, emitted in `__PROC_NR__` order at barriers.
    pub async_out: Vec<Vec<u8>>,
    /// Bytes printed so far.
    pub output_bytes: u64,
    pub next_group: u64,
    pub depth: u32,
    pub group_depth: u32,
    /// The PRAM clock of the executing group.
    pub clock: u64,
    pub stats: Stats,
    pub races: Option<crate::step::RaceLog>,
    /// Set under `--trace`.
    pub trace: Option<crate::trace::Tracer<'p>>,
    /// Which functions synchronise (`async_exec` runs their calls step by step).
    pub sync_calls: fork_frontend::sync_calls::SyncCalls,
    /// The value of a synchronising call that ran before the rest of its statement, while that
    /// statement is evaluated (`async_exec`): the call expression stands for it.
    pub ran_first: Option<(&'p Expr, u64)>,
}

impl<'p> Machine<'p> {
    pub fn new(
        prog: &'p Program,
        cfg: &'p Config,
        trace: Option<&crate::TraceOptions<'p>>,
    ) -> Machine<'p> {
        let mut slots = vec![0u32; prog.funcs.len()];
        let storage = prog
            .vars
            .iter()
            .map(|v| match (v.kind, v.sharity) {
                (VarKind::Global, _) => Storage::PrivGlobal(0),
                (_, Sharity::Shared) => Storage::SharedLocal,
                (VarKind::Local { func } | VarKind::Param { func, .. }, Sharity::Private) => {
                    let slot = &mut slots[func.0 as usize];
                    *slot += 1;
                    if v.addr_taken || !v.ty.is_scalar() {
                        Storage::PrivObj(*slot - 1)
                    } else {
                        Storage::Column(*slot - 1)
                    }
                }
            })
            .collect();
        let p = cfg.procs as usize;
        Machine {
            prog,
            cfg,
            storage,
            slots,
            mem: Memory::default(),
            rank: (0..cfg.procs).collect(),
            dollar: (0..cfg.procs as i64).collect(),
            bound: vec![Binding::default(); prog.vars.len()],
            undo: Vec::new(),
            private_globals: Vec::new(),
            strings: Vec::new(),
            pending: Vec::new(),
            reads: Vec::new(),
            out: Vec::new(),
            async_out: vec![Vec::new(); p],
            output_bytes: 0,
            next_group: 1,
            depth: 0,
            group_depth: 0,
            clock: 0,
            stats: Stats {
                functions: prog
                    .funcs
                    .iter()
                    .map(|f| FuncStats {
                        name: f.name.clone(),
                        ..FuncStats::default()
                    })
                    .collect(),
                ..Stats::default()
            },
            races: cfg.check_races.then(crate::step::RaceLog::default),
            trace: trace.map(|options| crate::trace::Tracer::new(options, cfg.procs)),
            sync_calls: fork_frontend::sync_calls::SyncCalls::new(&prog.funcs),
            ran_first: None,
        }
    }

    pub fn run(mut self) -> Outcome {
        let started = std::time::Instant::now();
        let result = self.setup().and_then(|()| self.run_main());
        self.flush_async_output();
        self.stats.seconds = started.elapsed().as_secs_f64();
        self.stats.time = self.clock;
        self.stats.peak_shared_bytes = self.mem.peak_shared_bytes;
        let clock = self.clock;
        let trace = self.trace.map(|mut t| {
            if let Err(f) = &result {
                let site = t.site(f.span);
                // The trace's time is the PRAM clock; the diagnostic's "PRAM step" counts the
                // group steps executed (as `--max-steps` does): name it so they are not mixed.
                let message = match &f.who {
                    Some(who) => format!("{}, by {who}", f.what),
                    None => f.what.clone(),
                };
                let message = format!(
                    "{message}, in group step {} of the run",
                    f.step.unwrap_or_default()
                );
                t.rec
                    .fault(clock, f.code.id, &message, f.who.map(|w| w.proc), &site);
            }
            t.rec.finish(clock)
        });
        Outcome {
            output: self.out,
            fault: result.err(),
            stats: self.stats,
            trace,
        }
    }

    #[inline]
    pub fn scalar(&self, ty: &Type) -> Scalar {
        Scalar::of(ty, &self.prog.structs)
    }

    /// Allocates string literals and globals (zero-filled), then applies global initialisers.
    fn setup(&mut self) -> R<()> {
        let prog = self.prog;
        for s in &prog.strings {
            let p = self
                .mem
                .alloc(s.len() as u64, true, Origin::Str)
                .map_err(|e| self.internal(format!("{e:?}")))?;
            for (i, &b) in s.iter().enumerate() {
                self.mem
                    .store(ptr_add(p, i as i64), 1, b as u64)
                    .map_err(|e| self.internal(format!("{e:?}")))?;
            }
            self.strings.push(p);
        }
        let procs = self.cfg.procs;
        for g in &self.prog.globals {
            let var = self.prog.var(g.var);
            let size = var.ty.size(&self.prog.structs);
            let origin = Origin::Var(g.var);
            let too_large = |e: MemError| {
                Box::new(
                    Fault::new(
                        &fault::R0012,
                        var.span,
                        format!("cannot allocate `{}`: {}", var.name, too_large_text(&e)),
                    )
                    .with_help(
                        "make the array smaller, or use fewer processors for a private array",
                    ),
                )
            };
            self.storage[g.var.0 as usize] = match var.sharity {
                Sharity::Shared => {
                    Storage::SharedGlobal(self.mem.alloc(size, true, origin).map_err(too_large)?)
                }
                Sharity::Private => {
                    let objs = (0..procs)
                        .map(|_| self.mem.alloc(size, false, origin))
                        .collect::<Result<_, _>>()
                        .map_err(too_large)?;
                    self.private_globals.push(objs);
                    Storage::PrivGlobal(self.private_globals.len() as u32 - 1)
                }
            };
        }
        let main = self.prog.main;
        let mut frame = self.frame(main, (0..procs).collect());
        let cx = Ctx {
            mode: Mode::Async,
            size: procs,
            at: 0,
            group: 0,
            func: main,
        };
        let lanes: Lanes = (0..procs).collect();
        for g in &self.prog.globals {
            if let Some(init) = &g.init {
                let place =
                    self.var_place(&mut frame, &cx, g.var, &lanes, self.prog.var(g.var).span)?;
                self.init_object(&mut frame, &cx, &place, init, &lanes)?;
            }
        }
        Ok(())
    }

    fn run_main(&mut self) -> R<()> {
        let main = self.prog.main;
        let procs = self.cfg.procs;
        let f = self.prog.func(main);
        let cx = Ctx {
            mode: if f.kind == FnKind::Sync {
                Mode::Sync
            } else {
                Mode::Async
            },
            size: procs,
            at: 0,
            group: self.new_group(),
            func: main,
        };
        let mut frame = self.frame(main, (0..procs).collect());
        self.stats.functions[main.0 as usize].calls += 1;
        self.trace_group(pram_trace::Construct::Main, 0, 0..procs, main, f.span);
        let all = (0..procs).collect();
        match cx.mode {
            Mode::Sync => self.exec_block(&mut frame, &cx, &f.body.stmts, all)?,
            Mode::Async => self.run_async(&mut frame, &cx, &f.body.stmts, all)?,
        };
        self.end_step(&cx)?;
        self.trace_leave();
        Ok(())
    }

    pub fn frame(&self, func: FuncId, procs: Lanes) -> Frame {
        let n = procs.len();
        Frame {
            cols: smallvec::smallvec![0; n * self.slots[func.0 as usize] as usize],
            ret: smallvec::smallvec![0; n],
            procs,
            owned: Vec::new(),
            returned: Vec::new(),
        }
    }

    pub fn new_group(&mut self) -> u64 {
        self.next_group += 1;
        self.next_group
    }

    /// Ends the shared locals declared since `mark` (their group ended).
    pub fn end_scope(&mut self, mark: usize) {
        while self.undo.len() > mark {
            if let Some((var, old)) = self.undo.pop() {
                let cur = self.bound[var.0 as usize];
                self.mem.release(cur.ptr, State::Ended);
                self.bound[var.0 as usize] = old;
            }
        }
    }

    /// Who lane `lane` of `fr` is, for a fault.
    pub fn who(&self, fr: &Frame, cx: &Ctx, lane: u32) -> Who {
        let proc = fr.procs[lane as usize];
        Who {
            proc,
            in_group: Some((self.rank[proc as usize], cx.at)),
        }
    }

    /// Completes a fault with the processor and the step.
    pub fn fault(&self, f: Fault, fr: &Frame, cx: &Ctx, lane: u32) -> Box<Fault> {
        Box::new(Fault {
            who: Some(self.who(fr, cx, lane)),
            step: Some(self.stats.group_steps),
            ..f
        })
    }

    /// A memory error of lane `lane` at `span` as a fault.
    pub fn mem_fault(
        &self,
        e: MemError,
        span: Span,
        fr: &Frame,
        cx: &Ctx,
        lane: u32,
        write: bool,
    ) -> Box<Fault> {
        let access = if write { "write" } else { "read" };
        let f = match e {
            MemError::Null => Fault::new(
                &fault::R0002,
                span,
                format!("{access} through a null pointer"),
            ),
            MemError::Invalid => Fault::new(
                &fault::R0002,
                span,
                format!("{access} through an invalid pointer (it points at no object)"),
            ),
            MemError::OutOfBounds { obj, offset, size } => Fault::new(
                &fault::R0001,
                span,
                format!(
                    "{access} out of bounds: {size} byte{} at byte offset {offset} of {}",
                    if size == 1 { "" } else { "s" },
                    self.describe(obj)
                ),
            )
            .with_help("check the index against the object's size"),
            MemError::TooLarge { .. } | MemError::TooMany => Fault::new(
                &fault::R0012,
                span,
                format!("cannot allocate: {}", too_large_text(&e)),
            ),
            MemError::Dead { obj } => {
                let why = match self.mem.object(obj).map(|o| o.state) {
                    Some(State::Freed) => "it was freed",
                    _ => "its scope ended",
                };
                Fault::new(
                    &fault::R0009,
                    span,
                    format!("{access} of {} after {why}", self.describe(obj)),
                )
            }
        };
        self.fault(f, fr, cx, lane)
    }

    /// `` `a` (40 bytes) `` or `a heap block of 40 bytes`.
    pub fn describe(&self, obj: u32) -> String {
        match self.mem.object(obj) {
            Some(o) => match o.origin {
                Origin::Var(v) => format!("`{}` ({} bytes)", self.prog.var(v).name, o.size),
                Origin::Heap { .. } => format!(
                    "a {} heap block of {} bytes",
                    if o.shared { "shared" } else { "private" },
                    o.size
                ),
                Origin::Str => format!("a string literal ({} bytes)", o.size),
                Origin::Return(f) => format!(
                    "the value returned by `{}` ({} bytes)",
                    self.prog.func(f).name,
                    o.size
                ),
            },
            None => "an unknown object".into(),
        }
    }

    pub fn internal(&self, what: impl std::fmt::Display) -> Box<Fault> {
        Box::new(Fault::new(
            &fault::R0013,
            Span::default(),
            format!("internal simulator error: {what}"),
        ))
    }

    /// Appends the output of processor `proc`.
    /// Fails when the program's output would pass `MAX_OUTPUT` (it is held in memory).
    pub fn emit(&mut self, mode: Mode, proc: u32, text: &[u8]) -> Result<(), u64> {
        self.output_bytes += text.len() as u64;
        if self.output_bytes > MAX_OUTPUT {
            return Err(MAX_OUTPUT);
        }
        match mode {
            Mode::Sync => self.out.extend_from_slice(text),
            Mode::Async => self.async_out[proc as usize].extend_from_slice(text),
        }
        Ok(())
    }

    /// A barrier of asynchronous code: buffered lines appear in `__PROC_NR__` order.
    pub fn flush_async_output(&mut self) {
        for buf in &mut self.async_out {
            self.out.append(buf);
        }
    }
}
