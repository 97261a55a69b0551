//! CUDA C emission: a Plan becomes the program-specific part of a CUDA source.
//!
//! - [`Emitted::device`]: struct definitions, device functions (`straight` and barrier-free
//!   `async` functions called in kernels), the kernel `k_globals` that applies global
//!   initialisers, and one `extern "C" __global__` function per Plan kernel, each headed by a
//!   comment that names its source location and why it ends. NVRTC compiles it (after the
//!   runtime library's device part) for the GPU driver.
//! - [`Emitted::host`]: the lowered host program (`Plan::host`) as one C++ function with a
//!   case per instruction, calling the runtime library's host API, the tables the host needs
//!   (string literals, fault sites) and `main`.
//!
//! The runtime library itself (`.cuh` text) belongs to `pram-runtime`; the transform does not
//! depend on it. `pram_runtime::cuda::standalone_source` assembles the one self-contained
//! `.cu` of `forkcc build --emit cuda` from the library and these two parts.

pub mod abi;
mod ctype;
mod device;
mod host;
mod ranged;
mod region;
mod schedule;

pub use device::string_offsets;
pub use host::fk_var;

use crate::host_program::{self, Instr};
use crate::plan::{Home, KernelId, Plan, RegionKind};
use device::DeviceEmitter;
use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::fault;
use fork_frontend::hir::{FuncId, Program, VarId};
use fork_frontend::source::{SourceMap, Span};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

pub const E0591: Code = Code {
    id: "E0591",
    title: "the Plan cannot be emitted as CUDA",
    explain: "forkcc's CUDA emission met a Plan it cannot express (a group construct inside a \
kernel, a host read of a value kept in a register, a printf whose format is not a literal). \
This is a limitation or a bug of the transform; `forkcc sim` runs the program without it.",
};

/// A Plan the emitter cannot express, at a source location.
#[derive(Debug, Clone, PartialEq)]
pub struct EmitError {
    pub span: Span,
    pub message: String,
}

impl EmitError {
    pub fn to_diagnostic(&self) -> Diagnostic {
        Diagnostic::error(&E0591, self.span, self.message.clone()).with_label("here")
    }
}

/// A place that can fault at run time, with the simulator's R-code for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    pub code: &'static Code,
    pub span: Span,
    /// What went wrong; `{value}` and `{object}` stand for the values the device reports with
    /// the fault (a byte offset or an operand; the object accessed, `Emitted::objects`).
    pub what: String,
    pub help: Option<&'static str>,
    /// `file:line:col` of the span.
    pub location: String,
}

impl Site {
    /// The message with the device's values filled in.
    pub fn message(&self, value: i64, object: &str) -> String {
        self.what
            .replace("{value}", &value.to_string())
            .replace("{object}", object)
    }

    /// The message without the device's values, and where (`the loop at f.fork:3:5`): a
    /// limit's report names its loop or call so.
    pub fn place(&self) -> String {
        format!("{} at {}", self.what, self.location)
    }

    /// The message as a C printf format taking (const char *value, const char *object), in
    /// that order (the standalone `.cu` prints it; no message names the object first).
    fn c_format(&self) -> String {
        let format = self
            .what
            .replace('%', "%%")
            .replace("{value}", "%s")
            .replace("{object}", "%s");
        if self.what.contains("{value}") {
            format
        } else {
            // The value is not printed, but its argument comes first.
            format!("%.0s{format}")
        }
    }
}

/// The fault sites of a program, indexed by the site number the device code reports.
pub struct Sites<'a> {
    sources: &'a SourceMap,
    pub sites: Vec<Site>,
    /// The site of each loop and call of the host program (its span), where the step and
    /// time limits and the recursion limit stop a run.
    pub spans: HashMap<Span, usize>,
}

impl<'a> Sites<'a> {
    fn new(sources: &'a SourceMap) -> Sites<'a> {
        Sites {
            sources,
            sites: Vec::new(),
            spans: HashMap::new(),
        }
    }

    /// The site of the loop at `span` ("the loop at f.fork:3:5"), one per loop.
    pub fn loop_site(&mut self, span: Span) -> usize {
        self.span_site(&fault::R0006, span, "the loop")
    }

    /// The site of a call of `callee` ("the call of `f` at f.fork:3:5"), one per call.
    pub fn call_site(&mut self, span: Span, callee: &str) -> usize {
        self.span_site(&fault::R0008, span, &format!("the call of `{callee}`"))
    }

    fn span_site(&mut self, code: &'static Code, span: Span, what: &str) -> usize {
        if let Some(&site) = self.spans.get(&span) {
            return site;
        }
        let site = self.add(code, span, what);
        self.spans.insert(span, site);
        site
    }

    pub fn location(&self, span: Span) -> String {
        self.sources
            .location(span)
            .unwrap_or_else(|| "<unknown>".into())
    }

    /// The site number of a fault `what` with `code` at `span`.
    pub fn add(&mut self, code: &'static Code, span: Span, what: &str) -> usize {
        self.add_with_help(code, span, what, None)
    }

    pub fn add_with_help(
        &mut self,
        code: &'static Code,
        span: Span,
        what: &str,
        help: Option<&'static str>,
    ) -> usize {
        let location = self.location(span);
        self.sites.push(Site {
            code,
            span,
            what: what.to_string(),
            help,
            location,
        });
        self.sites.len() - 1
    }
}

/// The objects fault messages name (`` `a` (32 bytes) ``), by the index the device reports.
#[derive(Debug, Default)]
pub struct Objects {
    pub descriptions: Vec<String>,
    by_var: BTreeMap<VarId, usize>,
}

impl Objects {
    /// The index of a variable's object, as the simulator describes it.
    pub fn var(&mut self, program: &Program, v: VarId) -> usize {
        if let Some(&i) = self.by_var.get(&v) {
            return i;
        }
        let var = program.var(v);
        let size = var.ty.size(&program.structs);
        self.descriptions
            .push(format!("`{}` ({size} bytes)", var.name));
        self.by_var.insert(v, self.descriptions.len() - 1);
        self.descriptions.len() - 1
    }

    fn push(&mut self, description: String) -> usize {
        self.descriptions.push(description);
        self.descriptions.len() - 1
    }
}

/// The device's table of the objects the checks find by address (pram-runtime/cuda/
/// fk_checks.cuh): the string literals, then the shared globals, then the private globals,
/// then the shared locals of each shared frame (frame by frame), each run sorted by offset.
fn object_table(plan: &Plan, objects: &mut Objects, out: &mut String) {
    let program = &plan.program;
    let mut rows: Vec<(u64, u64, usize)> = Vec::new();
    for (s, offset) in program.strings.iter().zip(string_offsets(program)) {
        let object = objects.push(format!("a string literal ({} bytes)", s.len()));
        rows.push((offset, s.len() as u64, object));
    }
    let strings = rows.len();
    let mut globals = |shared: bool, rows: &mut Vec<(u64, u64, usize)>| {
        let mut run: Vec<(u64, u64, usize)> = program
            .globals
            .iter()
            .filter_map(|g| {
                let offset = match plan.storage.home(g.var)? {
                    Home::Shared { offset } if shared => offset,
                    Home::PrivateGlobal { offset } if !shared => offset,
                    _ => return None,
                };
                let size = program.var(g.var).ty.size(&program.structs);
                (size > 0).then(|| (offset, size, objects.var(program, g.var)))
            })
            .collect();
        run.sort();
        rows.extend(run);
        rows.len()
    };
    let shared = globals(true, &mut rows);
    let private = globals(false, &mut rows);
    // Shared locals: the run of frame f starts at frame_first[f].
    let frames = &plan.storage.shared_frames;
    let mut frame_first = Vec::with_capacity(frames.len() + 1);
    for f in 0..frames.len() {
        frame_first.push(rows.len());
        let mut run: Vec<(u64, u64, usize)> = (0..program.vars.len())
            .filter_map(|i| {
                let v = VarId(i as u32);
                match plan.storage.home(v)? {
                    Home::SharedFrame { frame, offset } if frame.0 as usize == f => {
                        let size = program.var(v).ty.size(&program.structs);
                        (size > 0).then(|| (offset, size, objects.var(program, v)))
                    }
                    _ => None,
                }
            })
            .collect();
        run.sort();
        rows.extend(run);
    }
    frame_first.push(rows.len());
    let count = rows.len();
    let _ = writeln!(
        out,
        "// ---- program: the objects the checks know ----
"
    );
    let _ = writeln!(
        out,
        "#define FK_STRINGS_BYTES {}ull",
        program.strings.concat().len()
    );
    let _ = writeln!(
        out,
        "#define FK_SHARED_GLOBALS_BYTES {}ull",
        plan.storage.shared_globals_bytes
    );
    let _ = writeln!(
        out,
        "#define FK_PRIVATE_GLOBALS_BYTES {}ull",
        plan.storage.private_globals_bytes
    );
    let _ = writeln!(out, "#define FK_OBJECTS_SHARED {strings}");
    let _ = writeln!(out, "#define FK_OBJECTS_PRIVATE {shared}");
    let _ = writeln!(out, "#define FK_OBJECTS_FRAMES {private}");
    let _ = writeln!(out, "#define FK_OBJECT_COUNT {count}");
    let _ = writeln!(out, "#define FK_FRAMES {}", frames.len());
    let list = |items: Vec<String>| items.join(", ");
    let _ = writeln!(
        out,
        "__device__ const fk_u64 fk_frame_bytes[] = {{{}}};",
        list(
            frames
                .iter()
                .map(|f| f.bytes.to_string())
                .chain(["0".into()])
                .collect()
        )
    );
    let _ = writeln!(
        out,
        "__device__ const int fk_frame_first[] = {{{}}};",
        list(frame_first.iter().map(|i| i.to_string()).collect())
    );
    let _ = writeln!(out, "__device__ const FkObject fk_objects[] = {{");
    for (offset, size, object) in &rows {
        let _ = writeln!(out, "    {{{offset}, {size}, {object}}},");
    }
    let _ = writeln!(
        out,
        "    {{0, 0, -1}},
}};
"
    );
}

/// The program-specific parts of the CUDA source.
#[derive(Debug, Clone)]
pub struct Emitted {
    /// The table of the objects the memory checks find by address; the runtime's checks
    /// (`fk_checks.cuh`) come after it, then `device`.
    pub objects_table: String,
    pub device: String,
    pub host: String,
    /// The fault sites (the device reports a fault by site number).
    pub sites: Vec<Site>,
    /// The program's kernels, which the host loads and launches by name: the globals
    /// kernel (`abi::GLOBALS_KERNEL`), and under the host schedule the Plan's kernels and the
    /// block regions.
    pub kernels: Vec<String>,
    /// Descriptions of the objects the checks know (`` `a` (32 bytes) ``), by the index the
    /// device reports.
    pub objects: Vec<String>,
    /// Checks on (`FK_CHECKS` 1): `--unchecked` turns them off.
    pub checks: bool,
    /// The site of each loop and call of the host program (by its span), for the limits the
    /// host checks.
    pub span_sites: HashMap<Span, usize>,
    /// `check_common`: the kernels whose writes are checked after each run.
    pub common_kernels: BTreeSet<String>,
    /// The emitted code logs writes for the `--crcw common` check.
    pub check_common: bool,
    /// The per-thread stack the kernels need (0: CUDA's default); non-zero when device
    /// functions recurse.
    pub stack_bytes: u64,
    pub schedule: Schedule,
    /// Device schedule: bytes of each processor's slot stack.
    pub slot_stack_bytes: u64,
    /// Device schedule: a spilled variable spans two granules of the slot stacks, which then
    /// have a contiguous area as well (`fk_slot`): twice the bytes.
    pub slot_wide: bool,
    /// The host program has a synchronous multiprefix: the device schedule's library
    /// compiles its leader action (`FK_USES_MULTIPREFIX`) only then, which is half the NVVM
    /// time of a small program.
    pub multiprefix: bool,
    /// Device schedule: threads per block of the persistent kernel (`FK_DEVICE_THREADS`).
    pub device_threads: u32,
    /// The host program has a grid region: the device schedule's runner warps then watch
    /// for their team running one (`FK_USES_GRID_REGIONS`, `fk_runner_idle`), which a
    /// program without one does not pay for.
    pub grid_regions: bool,
}

/// The step limit when none is given: the simulator's (`pram_sim::Config`; a test of the CLI
/// checks that they agree). On the GPU it bounds the iterations of one loop
/// (docs/gpu-limits.md).
pub const DEFAULT_MAX_STEPS: u64 = 1_000_000_000;

/// The limit on nested calls when none is given: the simulator's (`pram_sim::Config`; a test
/// of the CLI checks that they agree).
pub const DEFAULT_MAX_DEPTH: usize = 10_000;

/// The time limit of a GPU run when none is given, in seconds: it stops a loop of group steps
/// that the step limit would stop only after hours (docs/gpu-limits.md).
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 30;

/// How the GPU runs the host program.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Schedule {
    /// The 2012 study's design: the host walks the host program, launching kernels and
    /// reading back what decides splits and loop exits.
    #[default]
    Host,
    /// One persistent launch: every processor runs the host program from its own program
    /// point on the device (`schedule`, `pram-runtime/cuda/fk_schedule.cuh`).
    Device,
}

/// Choices that change the emitted code.
#[derive(Debug, Clone, Copy)]
pub struct EmitOptions {
    /// Memory and arithmetic checks (`FK_CHECKS`, on unless `--unchecked`): indexes and
    /// pointer accesses against their object, null and freed pointers, division by zero,
    /// heap exhaustion (docs/gpu-faults.md).
    pub checks: bool,
    /// `--crcw common`: concurrent writes of different values to one cell are a fault
    /// (R0004); kernels log their shared writes (docs/gpu-limits.md).
    pub check_common: bool,
    pub schedule: Schedule,
}

impl Default for EmitOptions {
    fn default() -> EmitOptions {
        EmitOptions {
            checks: true,
            check_common: false,
            schedule: Schedule::default(),
        }
    }
}

pub fn emit(plan: &Plan, sources: &SourceMap) -> Result<Emitted, EmitError> {
    emit_with(plan, sources, EmitOptions::default())
}

pub fn emit_with(
    plan: &Plan,
    sources: &SourceMap,
    options: EmitOptions,
) -> Result<Emitted, EmitError> {
    let mut sites = Sites::new(sources);
    let mut objects = Objects::default();
    let mut objects_table = String::new();
    object_table(plan, &mut objects, &mut objects_table);
    let mut calls = BTreeMap::new();
    let mut kernels = String::new();
    // The host schedule's entry points and block regions, after everything both schedules
    // share: the device schedule runs the Plan kernels' bodies and every host instruction in
    // its interpreter, and compiles faster without them.
    let mut host_only = String::new();
    // The device schedule's block regions (functions its persistent kernel calls).
    let mut regions = String::new();
    let mut functions = String::new();
    let mut prototypes = String::new();
    let mut kernel_names = vec![abi::GLOBALS_KERNEL.to_string()];
    let summaries = crate::effects::Summaries::new(&plan.program);
    let (common_kernels, recursive) = {
        let mut dev = DeviceEmitter::new(plan, &summaries, &mut sites, &mut objects);
        dev.check_common = options.check_common;
        let host = options.schedule == Schedule::Host;
        dev.globals_kernel(&mut kernels)?;
        for (i, k) in plan.kernels.iter().enumerate() {
            dev.kernel(KernelId(i as u32), &mut kernels)?;
            if host {
                kernel_entry(k, &mut host_only);
                kernel_names.push(k.name.clone());
            }
        }
        // Device functions, and the ones they call, until none is new.
        let mut done = Vec::new();
        while let Some(f) = dev.called.iter().find(|f| !done.contains(*f)).copied() {
            done.push(f);
            dev.body_calls.clear();
            dev.device_function(f, &mut functions)?;
            calls.insert(f, std::mem::take(&mut dev.body_calls));
        }
        // A recursive function is never inlined: NVVM would inline it into itself several
        // levels deep (quicksort's `seq_quicksort`: 37,000 PTX lines, 3x the compile time).
        let recursive = recursive_functions(&calls);
        for f in done {
            let proto = dev.prototype(f);
            let _ = match proto.strip_prefix("__device__ ") {
                Some(rest) if recursive.contains(&f) => {
                    writeln!(prototypes, "__device__ __noinline__ {rest};")
                }
                _ => writeln!(prototypes, "{proto};"),
            };
        }
        // Last, so that the fault sites of the shared code are numbered alike in both
        // schedules. The host schedule launches every region as a kernel; the device
        // schedule runs those that fit its blocks' stacks as functions (`schedule`).
        host_only.push('\n');
        if host {
            for (pc, instr) in plan.host.code.iter().enumerate() {
                let at = host_program::Pc(pc as u32);
                match instr {
                    Instr::Region {
                        name,
                        kind: RegionKind::Block,
                        ..
                    } => {
                        region::region_kernel(
                            plan,
                            at,
                            dev.sites,
                            &summaries,
                            &dev.common_kernels,
                            &dev.region_registers,
                            &mut host_only,
                        )?;
                        kernel_names.push(name.clone());
                    }
                    Instr::Region {
                        name,
                        kind: RegionKind::Grid,
                        ..
                    } => {
                        region::grid_region_kernel(
                            plan,
                            at,
                            name,
                            dev.sites,
                            &summaries,
                            &dev.common_kernels,
                            &mut host_only,
                        )?;
                        kernel_names.push(name.clone());
                    }
                    _ => {}
                }
            }
        } else {
            for at in schedule::region_tasks(plan) {
                region::region_kernel(
                    plan,
                    at,
                    dev.sites,
                    &summaries,
                    &dev.common_kernels,
                    &dev.region_registers,
                    &mut regions,
                )?;
            }
            for at in schedule::grid_tasks(plan) {
                let Instr::Region { name, .. } = &plan.host.code[at.0 as usize] else {
                    continue;
                };
                region::grid_region_kernel(
                    plan,
                    at,
                    &schedule::grid_name(name),
                    dev.sites,
                    &summaries,
                    &dev.common_kernels,
                    &mut regions,
                )?;
            }
        }
        (dev.common_kernels, recursive)
    };
    let stack_bytes = if !recursive.is_empty() {
        RECURSION_STACK_BYTES
    } else {
        0
    };
    let mut device = String::new();
    device.push_str("// ---- program: types ----\n\n");
    device::structs(&plan.program, &mut device);
    if !prototypes.is_empty() {
        device.push_str("// ---- program: device functions ----\n\n");
        device.push_str(&prototypes);
        device.push('\n');
        device.push_str(&functions);
    }
    device.push_str("// ---- program: kernels ----\n\n");
    device.push_str(&kernels);
    match options.schedule {
        Schedule::Host => {
            device.push_str(HOST_SCHEDULE_KERNELS);
            device.push_str(&host_only);
        }
        Schedule::Device => {
            if !regions.is_empty() {
                device.push_str("// ---- program: block regions (run by one block) ----\n\n");
                device.push_str(&regions);
            }
            schedule::interpreter(plan, &mut sites, &common_kernels, &mut device)?
        }
    }

    let mut host = String::new();
    match options.schedule {
        Schedule::Host => {
            host.push_str(
                "// ---- program: host program ----

",
            );
            host::host_program(plan, &mut sites, &common_kernels, &mut host)?;
        }
        Schedule::Device => schedule::host_launch(plan, &mut host),
    }
    tables(plan, &sites.sites, &objects, stack_bytes, &mut host);
    Ok(Emitted {
        objects_table,
        device,
        host,
        sites: sites.sites,
        kernels: kernel_names,
        objects: objects.descriptions,
        checks: options.checks,
        span_sites: sites.spans,
        common_kernels,
        check_common: options.check_common,
        stack_bytes,
        schedule: options.schedule,
        slot_stack_bytes: schedule::slot_stack_bytes(plan),
        slot_wide: schedule::slot_wide(plan),
        multiprefix: plan
            .host
            .code
            .iter()
            .any(|i| matches!(i, Instr::Multiprefix(_))),
        device_threads: schedule::device_threads(plan),
        grid_regions: schedule::has_grid_regions(plan),
    })
}

/// The heading of the host schedule's part of `Emitted::device`, which the device schedule's
/// source has not: the Plan kernels' entry points and the block regions.
pub const HOST_SCHEDULE_KERNELS: &str =
    "// ---- program: the host schedule's kernel entry points and block regions ----\n\n";

/// A Plan kernel's entry point `k0_main(int g, int n, fk_u64 slot_base, unsigned launch, int
/// serial)` (`FK_KERNEL`, runtime library): thread `t < n` runs member `t` (`$$`) of group
/// `g` unless it is inactive; with `serial`, one thread runs the members in `$$` order.
fn kernel_entry(k: &crate::plan::Kernel, out: &mut String) {
    let _ = writeln!(
        out,
        "FK_KERNEL({}, {})",
        k.name,
        (k.mode == fork_frontend::hir::Mode::Sync) as u8
    );
}

/// The per-thread stack a program with recursive device functions asks for (CUDA's default
/// is 1 KiB; ptxas cannot bound a recursive call chain).
const RECURSION_STACK_BYTES: u64 = 16 << 10;

/// The functions on a cycle of the device call graph.
fn recursive_functions(calls: &BTreeMap<FuncId, BTreeSet<FuncId>>) -> BTreeSet<FuncId> {
    fn reaches(
        calls: &BTreeMap<FuncId, BTreeSet<FuncId>>,
        from: FuncId,
        target: FuncId,
        seen: &mut BTreeSet<FuncId>,
    ) -> bool {
        calls.get(&from).is_some_and(|next| {
            next.iter()
                .any(|&g| g == target || (seen.insert(g) && reaches(calls, g, target, seen)))
        })
    }
    calls
        .keys()
        .copied()
        .filter(|&f| reaches(calls, f, f, &mut BTreeSet::new()))
        .collect()
}

/// The host's tables and `main`.
fn tables(plan: &Plan, sites: &[Site], objects: &Objects, stack_bytes: u64, out: &mut String) {
    let strings: Vec<u8> = plan.program.strings.concat();
    let _ = writeln!(
        out,
        "static const char fk_strings[] = {};",
        c_string(&strings)
    );
    let offsets: Vec<String> = string_offsets(&plan.program)
        .iter()
        .map(|o| o.to_string())
        .collect();
    // printf records name their format by string number; these are the formats' offsets.
    let _ = writeln!(
        out,
        "static const unsigned long long fk_string_offsets[] = {{{}}};",
        if offsets.is_empty() {
            "0".to_string()
        } else {
            offsets.join(", ")
        }
    );
    // A fault prints as `file:line:col: error[CODE]: message, by processor ...`, the short
    // form of the simulator's report.
    let _ = writeln!(out, "static const FkSite fk_sites[] = {{");
    for s in sites {
        let _ = writeln!(
            out,
            "    {{{}, {}, {}}},",
            c_string(s.location.as_bytes()),
            c_string(s.code.id.as_bytes()),
            c_string(s.c_format().as_bytes())
        );
    }
    let _ = writeln!(out, "    {{0, 0, 0}},\n}};");
    let _ = writeln!(out, "static const char *const fk_object_names[] = {{");
    for o in &objects.descriptions {
        let _ = writeln!(out, "    {},", c_string(o.as_bytes()));
    }
    let _ = writeln!(out, "    0,\n}};\n");
    let main = plan.function(plan.main);
    let frame = &plan.storage.shared_frames[main.shared_frame.0 as usize];
    let _ = writeln!(out, "int main(int argc, char **argv) {{");
    let _ = writeln!(out, "    FkProgram program;");
    let _ = writeln!(out, "    program.strings = fk_strings;");
    let _ = writeln!(out, "    program.strings_bytes = {};", strings.len());
    let _ = writeln!(out, "    program.string_offsets = fk_string_offsets;");
    let _ = writeln!(out, "    program.sites = fk_sites;");
    let _ = writeln!(out, "    program.objects = fk_object_names;");
    let _ = writeln!(
        out,
        "    program.shared_globals_bytes = {};",
        plan.storage.shared_globals_bytes
    );
    let _ = writeln!(
        out,
        "    program.private_globals_bytes = {};",
        plan.storage.private_globals_bytes
    );
    let _ = writeln!(out, "    program.main_frame_bytes = {};", main.frame_bytes);
    let _ = writeln!(
        out,
        "    program.main_shared_frame = {};",
        main.shared_frame.0
    );
    let _ = writeln!(out, "    program.main_shared_bytes = {};", frame.bytes);
    let _ = writeln!(out, "    program.stack_bytes = {stack_bytes};");
    let _ = writeln!(out, "    program.run = fk_run;");
    let _ = writeln!(out, "    return fk_main(argc, argv, &program);\n}}");
}

/// A C string literal with every byte outside printable ASCII escaped (octal, so that the
/// next character cannot extend the escape).
pub fn c_string(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'?' => s.push_str("\\?"),
            b' '..=b'~' => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}
