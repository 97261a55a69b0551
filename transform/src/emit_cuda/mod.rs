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

mod ctype;
mod device;
mod host;
mod region;
pub mod schedule;

pub use device::{mp_code, string_offsets};
pub use host::fk_var;

use crate::plan::{HostOp, Plan, Region};
use device::DeviceEmitter;
use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::hir::FuncId;
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

/// Source locations of the places that can fault at run time (division, `assert`, `ilog2`,
/// heap exhaustion), indexed by the site number the device code reports.
pub struct Sites<'a> {
    sources: &'a SourceMap,
    pub locations: Vec<String>,
    /// The site of each loop and call of the host program (its span), where the step and
    /// time limits and the recursion limit stop a run.
    pub spans: HashMap<Span, usize>,
}

impl<'a> Sites<'a> {
    fn new(sources: &'a SourceMap) -> Sites<'a> {
        Sites {
            sources,
            locations: Vec::new(),
            spans: HashMap::new(),
        }
    }

    /// The site of the loop at `span` ("the loop at f.fork:3:5"), one per loop.
    pub fn loop_site(&mut self, span: Span) -> usize {
        self.span_site(span, "the loop")
    }

    /// The site of a call of `callee` ("the call of `f` at f.fork:3:5"), one per call.
    pub fn call_site(&mut self, span: Span, callee: &str) -> usize {
        self.span_site(span, &format!("the call of `{callee}`"))
    }

    fn span_site(&mut self, span: Span, what: &str) -> usize {
        if let Some(&site) = self.spans.get(&span) {
            return site;
        }
        let site = self.add(span, what);
        self.spans.insert(span, site);
        site
    }

    pub fn location(&self, span: Span) -> String {
        self.sources
            .location(span)
            .unwrap_or_else(|| "<unknown>".into())
    }

    /// The site number of a fault `what` (a message: "division by zero") at `span`.
    pub fn add(&mut self, span: Span, what: &str) -> usize {
        let at = self.location(span);
        self.locations.push(format!("{what} at {at}"));
        self.locations.len() - 1
    }
}

/// The program-specific parts of the CUDA source.
#[derive(Debug, Clone)]
pub struct Emitted {
    pub device: String,
    pub host: String,
    /// The message of each fault site (`division by zero at f.fork:3:5`).
    pub sites: Vec<String>,
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

/// The name of the kernel that applies the global initialisers.
pub const GLOBALS_KERNEL: &str = "k_globals";

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
#[derive(Debug, Clone, Copy, Default)]
pub struct EmitOptions {
    /// `--check bounds`: array indexes fault with their location when out of bounds.
    pub check_bounds: bool,
    /// `--crcw common`: concurrent writes of different values to one cell are a fault
    /// (R0004); kernels log their shared writes (docs/gpu-limits.md).
    pub check_common: bool,
    pub schedule: Schedule,
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
    let mut calls = BTreeMap::new();
    let mut kernels = String::new();
    let mut functions = String::new();
    let mut prototypes = String::new();
    let common_kernels = {
        let mut dev = DeviceEmitter::new(plan, &mut sites, options.check_bounds);
        dev.check_common = options.check_common;
        dev.globals_kernel(&mut kernels)?;
        for k in &plan.kernels {
            dev.kernel(k, &mut kernels)?;
        }
        for f in &plan.functions {
            for r in regions_in(&f.body) {
                region::region_kernel(plan, r, dev.sites, &dev.common_kernels, &mut kernels)?;
            }
        }
        // Device functions, and the ones they call, until none is new.
        let mut done = BTreeSet::new();
        while let Some(f) = dev.called.difference(&done).next().copied() {
            done.insert(f);
            let _ = writeln!(prototypes, "{};", dev.prototype(f));
            dev.body_calls.clear();
            dev.device_function(f, &mut functions)?;
            calls.insert(f, std::mem::take(&mut dev.body_calls));
        }
        dev.common_kernels
    };
    let stack_bytes = if recursive(&calls) {
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
    if options.schedule == Schedule::Device {
        schedule::interpreter(plan, &mut sites, &common_kernels, &mut device)?;
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
    tables(plan, &sites.locations, stack_bytes, &mut host);
    Ok(Emitted {
        device,
        host,
        sites: sites.locations,
        span_sites: sites.spans,
        common_kernels,
        check_common: options.check_common,
        stack_bytes,
        schedule: options.schedule,
    })
}

/// The block regions in a host op list and the lists nested in it, in program order.
pub fn regions_in(ops: &[HostOp]) -> Vec<&Region> {
    let mut out = Vec::new();
    for op in ops {
        match op {
            HostOp::Region(r) => out.push(r),
            op => op
                .blocks()
                .into_iter()
                .for_each(|b| out.extend(regions_in(b))),
        }
    }
    out
}

/// The per-thread stack a program with recursive device functions asks for (CUDA's default
/// is 1 KiB; ptxas cannot bound a recursive call chain).
pub const RECURSION_STACK_BYTES: u64 = 16 << 10;

/// Whether the device call graph has a cycle.
fn recursive(calls: &BTreeMap<FuncId, BTreeSet<FuncId>>) -> bool {
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
        .any(|&f| reaches(calls, f, f, &mut BTreeSet::new()))
}

/// The host's tables and `main`.
fn tables(plan: &Plan, sites: &[String], stack_bytes: u64, out: &mut String) {
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
    let _ = writeln!(out, "static const char *const fk_sites[] = {{");
    for s in sites {
        let _ = writeln!(out, "    {},", c_string(s.as_bytes()));
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
