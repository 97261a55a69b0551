//! The GPU driver (`forkcc run --backend gpu`): compiles the Plan's kernels and the runtime
//! library's device part with NVRTC for the GPU's architecture once (the CUBIN cached on disk,
//! `cuda::cache`), loads them with cudarc, walks the host control graph (`machine`), then formats the printf records in the
//! order of docs/language.md §7 with the same C printf formatting as the other backends.
//!
//! Nothing here panics on a missing GPU or NVRTC: `available` says whether both load, and
//! every driver failure is a `GpuError` with a message.

mod abi;
mod machine;
pub mod timeline;

pub use machine::{Depth, Limit};

use crate::cpu::printf::{self, Arg};
use crate::cuda::cache::{self, Cache, Origin};
use crate::cuda::{self, nvrtc, nvrtc::CompileError};
use std::fmt;
use std::time::{Duration, Instant};
pub use timeline::{FunctionTime, Timeline};
use transform::emit_cuda::{Emitted, Schedule};
use transform::plan::Plan;

/// What `--stats` prints.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub launches: u64,
    /// Of the launches, block-region kernels (each runs many Plan kernels in one block).
    pub regions: u64,
    pub read_backs: u64,
    pub bytes_copied: u64,
    /// GPU time of the Plan's kernels and the runtime kernels (CUDA events; only with stats).
    pub kernels: Duration,
    /// Host time blocked in read-backs and the final synchronisation.
    pub sync: Duration,
    /// Host time in the control-graph walk outside synchronisation.
    pub host: Duration,
    /// NVRTC's time, or the cache's when `cached`.
    pub compile: Duration,
    pub cached: bool,
    pub total: Duration,
    /// Device time per Fork function, from the group instances' timestamps (`--stats`).
    pub functions: Vec<FunctionTime>,
    /// Records made after the timestamp buffer was full: group instances (their calls are
    /// missing from `functions`) and, with `--trace`, asynchronous regions and barriers.
    pub unstamped: u64,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "kernels launched {} ({} of them block regions), host read-backs {}, bytes copied {}\n\
             time: kernels {:.3} ms, synchronisation {:.3} ms, host-side group management {:.3} ms, \
             NVRTC {:.3} ms{}, total {:.3} ms",
            self.launches,
            self.regions,
            self.read_backs,
            self.bytes_copied,
            ms(self.kernels),
            ms(self.sync),
            ms(self.host),
            ms(self.compile),
            if self.cached { " (cached)" } else { "" },
            ms(self.total)
        )?;
        if self.functions.is_empty() {
            return Ok(());
        }
        let width = self
            .functions
            .iter()
            .map(|f| f.name.len())
            .max()
            .unwrap_or(0);
        write!(
            f,
            "\ndevice time per function (inclusive, from group formation to the last member's return):"
        )?;
        for t in &self.functions {
            write!(
                f,
                "\n  {:<width$}  {:>6} call{}  {:>12.3} ms",
                t.name,
                t.calls,
                if t.calls == 1 { " " } else { "s" },
                t.nanos as f64 / 1e6
            )?;
        }
        if self.unstamped > 0 {
            write!(
                f,
                "\n  ({} group instances (with --trace: and asynchronous regions and barriers) recorded after the timestamp buffer was full are not counted)",
                self.unstamped
            )?;
        }
        Ok(())
    }
}

#[derive(Debug)]
pub enum GpuError {
    NoDriver,
    Compile(CompileError),
    Driver(String),
    /// The run needs more GPU memory than is free.
    Memory {
        needed: u64,
        free: u64,
    },
    /// A runtime stack of the library is full.
    Capacity(&'static str),
    /// The device schedule ran out of one of its limits (`abi::FK_ERR_*`).
    Schedule {
        code: i32,
        proc: usize,
        depth: i32,
        frame_heap_bytes: u64,
    },
    /// A device fault, as the simulator reports it (rendered by the caller with the sources).
    Fault(Box<fork_frontend::fault::Fault>),
    /// A loop passed a limit (R0006): the loop's site (`the loop at f.fork:3:5`), the processor
    /// ($$ 0 of the loop's group, or the processor running a loop inside a kernel).
    Limit {
        limit: Limit,
        site: String,
        proc: usize,
    },
    /// The printf records outgrew their buffer of `bytes` (`Memory::out_bytes`), so the output
    /// misses lines; `faulted`: the run also stopped at a fault or a limit, which is not
    /// reported, since the output before it is not whole.
    OutputOverflow {
        bytes: u64,
        faulted: bool,
    },
    /// `--crcw priority` under the device schedule, which runs a step's members in no fixed
    /// order.
    PriorityNeedsHostSchedule,
    /// The host schedule's walk stops at a call nested deeper than `Limits::max_depth`
    /// (`Machine::run` makes it a fault of the call).
    TooDeep,
    Internal(String),
}

impl GpuError {
    /// The simulator's fault code of the error, where it has one.
    pub fn code(&self) -> Option<&'static str> {
        match self {
            GpuError::Limit {
                limit: Limit::Depth(_),
                ..
            } => Some("R0008"),
            GpuError::Limit { .. } => Some("R0006"),
            _ => None,
        }
    }

    fn driver(what: &'static str) -> impl Fn(cudarc::driver::DriverError) -> GpuError {
        move |e| GpuError::Driver(format!("{what}: {e:?}"))
    }
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver => write!(
                f,
                "no CUDA driver (libcuda.so) or no GPU; use `--backend sim` or `--backend cpu-plan`"
            ),
            GpuError::Compile(e) => write!(f, "{e}"),
            GpuError::Driver(m) => write!(f, "CUDA: {m}"),
            GpuError::Memory { needed, free } => write!(
                f,
                "the run needs {needed} bytes of GPU memory ({:.1} MiB) but only {free} bytes are \
                 free; use fewer processors",
                *needed as f64 / (1 << 20) as f64
            ),
            GpuError::Capacity(what) => write!(f, "the runtime's {what} is full"),
            GpuError::Schedule {
                code,
                proc,
                depth,
                frame_heap_bytes,
            } => match *code {
                abi::FK_ERR_FRAMES => write!(
                    f,
                    "the device schedule: processor {proc} nested groups deeper than {depth} \
                     frames (recursion too deep?); `--schedule host` has no such limit"
                ),
                abi::FK_ERR_FRAME_HEAP => write!(
                    f,
                    "the device schedule: the {frame_heap_bytes}-byte heap of shared frames is \
                     full (processor {proc})"
                ),
                _ => write!(
                    f,
                    "the device schedule: runtime error {code} (processor {proc})"
                ),
            },
            GpuError::Fault(fault) => write!(f, "[{}] {}", fault.code.id, fault.message()),
            GpuError::Limit { limit, site, proc } => match limit {
                Limit::Steps(n) => write!(
                    f,
                    "{site} ran more than {n} iterations (the step limit, `--max-steps`) on \
                     processor {proc}"
                ),
                Limit::Time(t) => write!(
                    f,
                    "{site} was still running when the time limit of {} s ran out \
                     (`--timeout N`; `--timeout 0` for a long run) on processor {proc}",
                    t.as_secs_f64()
                ),
                Limit::Depth(Depth::Calls(n)) => write!(
                    f,
                    "{site} nests more than {n} calls (the recursion limit; check the \
                     recursion's base case) on processor {proc}"
                ),
                Limit::Depth(Depth::Full { what, calls }) => write!(
                    f,
                    "{site}, {calls} calls deep, found the runtime's {what} full (check the \
                     recursion's base case) on processor {proc}"
                ),
                Limit::Depth(Depth::DeviceFrames { frames, slot_bytes }) => write!(
                    f,
                    "{site} nests deeper than the device schedule holds ({frames} frames and a \
                     {slot_bytes}-byte slot stack per processor; `--schedule host` holds more) \
                     on processor {proc}"
                ),
            },
            GpuError::OutputOverflow { bytes, faulted } => {
                write!(
                    f,
                    "the printf record buffer ({} MiB) overflowed, so the output misses lines; \
                     raise it with `--printf-mib N` (a `.cu`: `-DFK_OUT_BYTES=N`)",
                    bytes >> 20
                )?;
                if *faulted {
                    write!(
                        f,
                        "; the run also stopped at a fault or a limit, which a run with a \
                         larger buffer reports"
                    )?;
                }
                Ok(())
            }
            GpuError::PriorityNeedsHostSchedule => write!(
                f,
                "`--crcw priority` needs `--schedule host`: the device schedule runs the members \
                 of a step in no fixed order, so it cannot let the highest __PROC_NR__ win"
            ),
            GpuError::TooDeep => write!(f, "calls nested too deeply"),
            GpuError::Internal(m) => write!(f, "internal error of the GPU driver: {m}"),
        }
    }
}

/// Whether a CUDA driver with at least one GPU and NVRTC can be loaded.
pub fn available() -> bool {
    // SAFETY: only tries to load the shared libraries.
    let driver = unsafe { cudarc::driver::sys::is_culib_present() };
    driver
        && crate::cuda::nvrtc::nvrtc_present()
        && cudarc::driver::CudaContext::device_count().is_ok_and(|n| n > 0)
}

/// A finished run: the program's output (what it printed before a fault, too) and the stats.
pub struct GpuRun {
    pub stdout: Vec<u8>,
    pub stats: Stats,
    pub error: Option<GpuError>,
    /// The group instances' timestamps (`Config::timestamps`).
    pub timeline: Option<Timeline>,
}

/// How a run is set up.
#[derive(Debug, Clone, Copy, Default)]
pub struct Config {
    pub procs: u64,
    /// `--crcw priority`: of concurrent writes, the highest `__PROC_NR__`'s wins (synchronous
    /// kernels run their members serially in that order). `common` and `arbitrary` need
    /// nothing: some writer wins.
    pub priority: bool,
    /// Measure kernel time with CUDA events (`--stats`).
    pub timing: bool,
    /// Timestamp every group instance (`--stats`' time per function, `--trace`):
    /// `%globaltimer` in the device schedule, CUDA events in the host schedule.
    pub timestamps: bool,
    /// With `timestamps`, also the groups and `seq`s that block regions form, and the
    /// asynchronous regions and barriers (`--trace`).
    /// `--stats` and the bench need only the calls, which no region holds, and the records
    /// cost time in a region's loops (sieve 10^7 on the device schedule: 265 -> 258 ms).
    pub region_groups: bool,
    pub limits: Limits,
    pub memory: Memory,
    /// Compile with NVRTC even when the compile cache holds the code, and store nothing
    /// (`--no-cache`).
    pub no_cache: bool,
}

/// The sizes of the program's memory a run may raise (`--heap-mib`, `--printf-mib`; the
/// `.cu`: `-DFK_HEAP_BYTES`, `-DFK_OUT_BYTES`); the ABI's by default.
#[derive(Debug, Clone, Copy)]
pub struct Memory {
    /// The heap of `malloc` and `shmalloc` (under the checks a fifth of it is the shadow map,
    /// and freed blocks are not reused).
    pub heap_bytes: u64,
    /// The printf records.
    pub out_bytes: u64,
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            heap_bytes: abi::FK_HEAP_BYTES,
            out_bytes: abi::FK_OUT_BYTES,
        }
    }
}

/// What stops a run that does not end (docs/gpu-limits.md): a fault with R0006 at the loop
/// that passed a limit.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Iterations of one loop: per processor for a loop inside a kernel, per group for a loop
    /// of group steps. Each is at least one of the simulator's group steps, so the GPU stops
    /// no earlier than the simulator with the same `--max-steps`. 0: none.
    pub max_steps: u64,
    /// Wall-clock time from the start of the run.
    pub timeout: Option<Duration>,
    /// Nested calls of `sync` functions (R0008; the host schedule counts them).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_steps: transform::emit_cuda::DEFAULT_MAX_STEPS,
            timeout: None,
            max_depth: transform::emit_cuda::DEFAULT_MAX_DEPTH,
        }
    }
}

/// The arrays of the ABI's structs in the driver's arena for `plan` as `emitted` on `procs`
/// processors: `Struct.field` and bytes, without a GPU. The standalone `.cu` allocates the same
/// (`tests/emulated.rs` compares them): both sides take each element size from the ABI.
pub fn arena_arrays(plan: &Plan, emitted: &Emitted, procs: u64) -> Vec<(&'static str, u64)> {
    machine::Layout::new(plan, emitted, procs, false, Memory::default()).arrays
}

/// Runs the Plan on GPU 0, under the schedule it was emitted for.
pub fn run(plan: &Plan, emitted: &Emitted, config: Config) -> Result<GpuRun, GpuError> {
    let start = Instant::now();
    // Refused before anything is loaded, so the message is the same with or without a GPU.
    if config.priority && emitted.schedule == Schedule::Device {
        return Err(GpuError::PriorityNeedsHostSchedule);
    }
    if !available() {
        return Err(GpuError::NoDriver);
    }
    let ctx = cudarc::driver::CudaContext::new(0).map_err(GpuError::driver("opening GPU 0"))?;
    let loaded = load(&ctx, &cuda::device_source(emitted), config.no_cache)?;
    let module = loaded.module;
    if emitted.stack_bytes > 0 {
        ctx.set_limit(
            cudarc::driver::sys::CUlimit::CU_LIMIT_STACK_SIZE,
            emitted.stack_bytes as usize,
        )
        .map_err(GpuError::driver("setting the stack size"))?;
    }
    let mut m = machine::Machine::new(plan, emitted, &ctx, &module, config)?;
    let walk = Instant::now();
    let walked = m.run();
    let walk_time = walk.elapsed();
    // `finish` adds the final synchronisation to `sync`; it is not part of the walk.
    let sync_in_walk = m.stats.sync;
    let machine::Finished {
        records,
        fault,
        overflow,
        timeline,
    } = m.finish()?;
    walked?;
    let mut stats = m.stats.clone();
    stats.host = walk_time.saturating_sub(sync_in_walk);
    stats.compile = loaded.compile;
    stats.cached = loaded.origin == Origin::Cached;
    if let Some(t) = &timeline {
        stats.functions = t.functions(plan);
        stats.unstamped = t.dropped;
    }
    // The simulator stops at a faulting step: no output from that step on.
    let stdout = format_records(
        plan,
        &records,
        emitted.schedule,
        fault.as_ref().map(|f| f.cut.as_slice()),
    )?;
    stats.total = start.elapsed();
    // Missing records come first: the output before a fault would not be whole.
    let error = match fault {
        _ if overflow => Some(GpuError::OutputOverflow {
            bytes: config.memory.out_bytes,
            faulted: fault.is_some(),
        }),
        Some(f) => Some(match (f.conflict, f.limit) {
            (Some(conflict), _) => conflict_report(emitted, &conflict)?,
            (None, Some(limit)) => GpuError::Limit {
                limit,
                site: site_text(emitted, f.site),
                proc: f.proc as usize,
            },
            (None, None) => fault_report(emitted, &f)?,
        }),
        None => None,
    };
    Ok(GpuRun {
        stdout,
        stats,
        error,
        timeline,
    })
}

/// A device source compiled and loaded into a context.
pub struct Loaded {
    pub module: std::sync::Arc<cudarc::driver::CudaModule>,
    /// The time to compile it, or to read it from the compile cache.
    pub compile: Duration,
    pub origin: Origin,
}

/// Compiles `source` for the context's GPU (through the compile cache unless `no_cache`) and
/// loads it: the one way device code reaches the GPU, so the Fork programs and the bench's
/// hand-written CUDA are compiled alike.
pub fn load(
    ctx: &std::sync::Arc<cudarc::driver::CudaContext>,
    source: &str,
    no_cache: bool,
) -> Result<Loaded, GpuError> {
    let (major, minor) = ctx
        .compute_capability()
        .map_err(GpuError::driver("reading the compute capability"))?;
    let target = nvrtc::Target::for_device(major, minor, &nvrtc::supported_archs());
    let cache = if no_cache { None } else { Cache::from_env() };
    let t = Instant::now();
    let (code, origin) =
        cache::compile(source, &target, cache.as_ref()).map_err(GpuError::Compile)?;
    let compile = t.elapsed();
    let image = match target.output {
        nvrtc::Output::Cubin => cudarc::nvrtc::Ptx::from_binary(code),
        nvrtc::Output::Ptx => {
            cudarc::nvrtc::Ptx::from_src(String::from_utf8_lossy(&code).into_owned())
        }
    };
    let module = ctx
        .load_module(image)
        .map_err(GpuError::driver("loading the compiled kernels"))?;
    Ok(Loaded {
        module,
        compile,
        origin,
    })
}

/// A limit's site as its message names it (`the loop at f.fork:3:5`).
fn site_text(emitted: &Emitted, site: usize) -> String {
    emitted
        .sites
        .get(site)
        .map_or_else(|| format!("runtime fault at site {site}"), |s| s.place())
}

/// A device fault as the simulator's report: the site's code, span and message with the
/// device's values, the processor; no step (the GPU does not count PRAM steps).
fn fault_report(emitted: &Emitted, f: &machine::Fault) -> Result<GpuError, GpuError> {
    let site = fault_site(emitted, f.site)?;
    let object = object_name(&emitted.objects, f.object, f.size);
    let mut fault =
        fork_frontend::fault::Fault::new(site.code, site.span, site.message(f.value, &object));
    fault.who = Some(fork_frontend::fault::Who {
        proc: f.proc,
        in_group: Some((f.rank, f.at)),
    });
    if let Some(help) = site.help {
        fault = fault.with_help(help);
    }
    Ok(GpuError::Fault(Box::new(fault)))
}

/// A `--crcw common` conflict as the simulator reports it: located at the second writer's
/// write, naming the first writer (by its number: the write logs hold no group).
fn conflict_report(emitted: &Emitted, c: &machine::Conflict) -> Result<GpuError, GpuError> {
    let site = fault_site(emitted, c.site)?;
    let (a, b) = c.procs;
    let (x, y) = c.values;
    let mut fault = fork_frontend::fault::Fault::new(
        &fork_frontend::fault::R0004,
        site.span,
        format!(
            "concurrent write conflict (CRCW common): processors {a} and {b} wrote {x} and {y} \
             into one cell in one step"
        ),
    )
    .with_help(fork_frontend::fault::CONFLICT_HELP);
    fault.who = Some(fork_frontend::fault::Who {
        proc: a as u32,
        in_group: None,
    });
    Ok(GpuError::Fault(Box::new(fault)))
}

fn fault_site(emitted: &Emitted, site: usize) -> Result<&transform::emit_cuda::Site, GpuError> {
    emitted
        .sites
        .get(site)
        .ok_or_else(|| GpuError::Internal(format!("a fault at unknown site {site}")))
}

/// The object a fault names (the standalone `.cu`'s twin: `fk_object_name` in
/// cuda/fk_host.cuh).
fn object_name(objects: &[String], object: i32, size: i64) -> String {
    match object {
        abi::FK_OBJECT_MALLOC | abi::FK_OBJECT_SHMALLOC => format!(
            "a {} heap block of {size} bytes",
            if object == abi::FK_OBJECT_SHMALLOC {
                "shared"
            } else {
                "private"
            }
        ),
        abi::FK_OBJECT_VARIABLE => "a variable".into(),
        o => usize::try_from(o)
            .ok()
            .and_then(|o| objects.get(o))
            .cloned()
            .unwrap_or_else(|| "an unknown object".into()),
    }
}

/// One printf record of the device buffer (layouts in `cuda/fk_device.cuh` and
/// `cuda/fk_schedule.cuh`).
struct Record<'a> {
    /// What orders records (docs/language.md §7): (launch, segment, key, seq) under the host
    /// schedule, the order key's (step, index) pairs and seq under the device schedule.
    order: Vec<u32>,
    format: u32,
    args: &'a [u8],
}

/// Bytes of a record's header.
const RECORD_HEADER: usize = abi::FkRecordHeader::BYTES as usize;

/// The records before `cut` (the faulting step: host schedule (launch, segment), device
/// schedule its order key), sorted and formatted (docs/language.md §7).
fn format_records(
    plan: &Plan,
    buf: &[u8],
    schedule: Schedule,
    cut: Option<&[u32]>,
) -> Result<Vec<u8>, GpuError> {
    let mut records = Vec::new();
    let mut at = 0;
    while at + RECORD_HEADER <= buf.len() {
        let h = abi::FkRecordHeader::from_bytes(&buf[at..at + RECORD_HEADER]);
        let bytes = h.bytes as usize;
        if bytes < RECORD_HEADER || at + bytes > buf.len() {
            break;
        }
        let (key, seq, args_at) = match schedule {
            Schedule::Host => (vec![h.launch, h.sub], [h.key, h.seq], RECORD_HEADER),
            Schedule::Device => {
                let pair = abi::FkKeyPair::BYTES as usize;
                let args_at = RECORD_HEADER + pair * h.pairs as usize;
                let pairs: Vec<abi::FkKeyPair> = buf[at + RECORD_HEADER..at + args_at.min(bytes)]
                    .chunks_exact(pair)
                    .map(abi::FkKeyPair::from_bytes)
                    .collect();
                (abi::FkKeyPair::words(&pairs), [0, h.seq], args_at)
            }
        };
        if cut.is_some_and(|cut| key.as_slice() >= cut) || args_at > bytes {
            at += bytes;
            continue;
        }
        let mut order = key;
        order.extend(seq);
        records.push(Record {
            order,
            format: h.format,
            args: &buf[at + args_at..at + bytes],
        });
        at += bytes;
    }
    records.sort_by(|a, b| a.order.cmp(&b.order));
    let mut out = Vec::new();
    for r in records {
        let fmt = plan
            .program
            .strings
            .get(r.format as usize)
            .ok_or_else(|| GpuError::Internal(format!("printf format {} unknown", r.format)))?;
        let fmt = fmt.strip_suffix(&[0]).unwrap_or(fmt);
        let (args, strings) = decode_args(fmt, r.args);
        let string_at = |i: u64| {
            strings
                .get(i as usize)
                .cloned()
                .ok_or_else(|| "`%s` argument missing".to_string())
        };
        let text = printf::format(fmt, &args, &string_at).map_err(GpuError::Internal)?;
        out.extend(text);
    }
    Ok(out)
}

/// The arguments of a record, typed by the conversions of its format: floats for
/// `%f %e %g`, inline strings for `%s` (an `Arg::Int` indexing the returned strings).
fn decode_args(fmt: &[u8], mut bytes: &[u8]) -> (Vec<Arg>, Vec<Vec<u8>>) {
    let mut args = Vec::new();
    let mut strings = Vec::new();
    // One argument's slot (`abi::FK_ARG_BYTES`, as many as an `i64`'s or an `f64`'s).
    const SLOT: usize = abi::FK_ARG_BYTES as usize;
    let next = |b: &mut &[u8]| -> [u8; SLOT] {
        let mut w = [0u8; SLOT];
        let n = b.len().min(SLOT);
        w[..n].copy_from_slice(&b[..n]);
        *b = &b[n..];
        w
    };
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        while i < fmt.len() && b"-+ 0#.123456789l".contains(&fmt[i]) {
            i += 1;
        }
        match fmt.get(i) {
            Some(b'%') | None => {}
            Some(b'f' | b'F' | b'e' | b'E' | b'g' | b'G') => {
                args.push(Arg::Float(f64::from_le_bytes(next(&mut bytes))));
            }
            Some(b's') => {
                let len = u64::from_le_bytes(next(&mut bytes)) as usize;
                let len = len.min(bytes.len());
                strings.push(bytes[..len].to_vec());
                let skip = (len.div_ceil(SLOT) * SLOT).min(bytes.len());
                bytes = &bytes[skip..];
                args.push(Arg::Int(strings.len() as i64 - 1));
            }
            Some(_) => args.push(Arg::Int(i64::from_le_bytes(next(&mut bytes)))),
        }
        i += 1;
    }
    (args, strings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(launch: u32, key: u32, seq: u32, format: u32, args: &[u8]) -> Vec<u8> {
        record_in(launch, 0, key, seq, format, args)
    }

    fn record_in(launch: u32, sub: u32, key: u32, seq: u32, format: u32, args: &[u8]) -> Vec<u8> {
        let header = abi::FkRecordHeader {
            bytes: (RECORD_HEADER + args.len()) as u32,
            launch,
            sub,
            key,
            seq,
            format,
            ..Default::default()
        };
        [header.to_bytes(), args.to_vec()].concat()
    }

    fn plan_with_strings(strings: &[&str]) -> Plan {
        let src = "sync void main(void) { }";
        let checked = fork_frontend::check_source("t.fork", src, &Default::default())
            .unwrap_or_else(|_| panic!("checks"));
        let mut plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        plan.program.strings = strings
            .iter()
            .map(|s| [s.as_bytes(), &[0]].concat())
            .collect();
        plan
    }

    /// Records come back in launch, then key ($$ or __PROC_NR__), then program order, and
    /// are formatted with C's rules (`%5.1f`, `%s` from the inline copy, `%x`).
    #[test]
    fn records_are_ordered_and_formatted_like_c() {
        let plan = plan_with_strings(&["%d|", "[%5.1f %s %x]"]);
        let mut args = 2.25f64.to_le_bytes().to_vec();
        args.extend(3u64.to_le_bytes());
        args.extend(b"abc\0\0\0\0\0");
        args.extend(255i64.to_le_bytes());
        let mut buf = Vec::new();
        buf.extend(record(1, 0, 0, 1, &args));
        buf.extend(record(0, 2, 1, 0, &7i64.to_le_bytes()));
        buf.extend(record(0, 2, 0, 0, &6i64.to_le_bytes()));
        buf.extend(record(0, 1, 0, 0, &(-5i64).to_le_bytes()));
        let out =
            format_records(&plan, &buf, Schedule::Host, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(String::from_utf8_lossy(&out), "-5|6|7|[  2.2 abc ff]");
    }

    /// After a fault, the output of the faulting launch and later ones is dropped.
    #[test]
    fn records_from_the_faulting_launch_on_are_dropped() {
        let plan = plan_with_strings(&["%d\n"]);
        let mut buf = record(0, 0, 0, 0, &1i64.to_le_bytes());
        buf.extend(record(2, 0, 0, 0, &3i64.to_le_bytes()));
        buf.extend(record(1, 0, 0, 0, &2i64.to_le_bytes()));
        let out = format_records(&plan, &buf, Schedule::Host, Some(&[1, 0]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, b"1\n");
    }

    /// In a block region, segments order records before keys; a fault in segment 2 of launch
    /// 1 keeps the earlier segments' output.
    #[test]
    fn region_segments_order_records_and_cut_at_the_faulting_segment() {
        let plan = plan_with_strings(&["%d\n"]);
        let mut buf = record_in(1, 1, 0, 0, 0, &2i64.to_le_bytes());
        buf.extend(record_in(1, 0, 5, 0, 0, &1i64.to_le_bytes()));
        buf.extend(record_in(1, 2, 0, 0, 0, &3i64.to_le_bytes()));
        buf.extend(record_in(0, 0, 9, 0, 0, &0i64.to_le_bytes()));
        let out = format_records(&plan, &buf, Schedule::Host, Some(&[1, 2]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, b"0\n1\n2\n");
    }

    /// A device-schedule record: its order key's (step, index) pairs after the header.
    fn keyed(key: &[u32], seq: u32, args: &[u8]) -> Vec<u8> {
        let pairs: Vec<u8> = key
            .chunks_exact(2)
            .flat_map(|w| {
                let pair = abi::FkKeyPair {
                    step: w[0],
                    index: w[1],
                };
                pair.to_bytes()
            })
            .collect();
        let header = abi::FkRecordHeader {
            bytes: (RECORD_HEADER + pairs.len() + args.len()) as u32,
            seq,
            pairs: key.len() as u32 / 2,
            ..Default::default()
        };
        [header.to_bytes(), pairs, args.to_vec()].concat()
    }

    /// Under the device schedule records sort by their order keys: a subgroup's records
    /// (path element (step 3, subgroup 1)) come after the then-group's (3, 0) and before the
    /// parent's next step (5, ...), however they were written; a fault at the else-group's
    /// step 2 drops it and everything after it in that order.
    #[test]
    fn device_records_sort_by_order_key_and_cut_at_the_faulting_step() {
        let plan = plan_with_strings(&["%d\n"]);
        let mut buf = keyed(&[5, 0], 0, &4i64.to_le_bytes());
        buf.extend(keyed(&[3, 1, 2, 0], 0, &3i64.to_le_bytes()));
        buf.extend(keyed(&[3, 0, 1, 1], 0, &2i64.to_le_bytes()));
        buf.extend(keyed(&[3, 0, 1, 0], 1, &1i64.to_le_bytes()));
        buf.extend(keyed(&[3, 0, 1, 0], 0, &0i64.to_le_bytes()));
        let out =
            format_records(&plan, &buf, Schedule::Device, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, b"0\n1\n2\n3\n4\n");
        let out = format_records(&plan, &buf, Schedule::Device, Some(&[3, 1, 2, 0]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, b"0\n1\n2\n");
    }

    /// `--crcw priority` under the device schedule is refused with a message naming the way out.
    #[test]
    fn priority_under_the_device_schedule_is_refused() {
        let plan = plan_with_strings(&[]);
        let checked =
            fork_frontend::check_source("t.fork", "sync void main(void) { }", &Default::default())
                .unwrap_or_else(|_| panic!("checks"));
        let options = transform::emit_cuda::EmitOptions {
            schedule: Schedule::Device,
            ..Default::default()
        };
        let emitted = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let config = Config {
            procs: 4,
            priority: true,
            timing: false,
            timestamps: false,
            ..Config::default()
        };
        let Err(e) = run(&plan, &emitted, config) else {
            panic!("the run was not refused");
        };
        assert!(
            e.to_string()
                .contains("`--crcw priority` needs `--schedule host`"),
            "{e}"
        );
    }

    /// A full heap and an overflowing printf buffer name their size and how to raise them,
    /// on the driver (`--heap-mib`, `--printf-mib`) and in a `.cu` (`-DFK_*_BYTES`).
    #[test]
    fn the_heap_and_the_printf_buffer_say_how_to_raise_them() {
        let overflow = GpuError::OutputOverflow {
            bytes: 256 << 20,
            faulted: false,
        }
        .to_string();
        assert!(
            overflow.contains("(256 MiB)")
                && overflow.contains("misses lines")
                && overflow.contains("--printf-mib")
                && overflow.contains("-DFK_OUT_BYTES")
                && !overflow.contains("fault"),
            "{overflow}"
        );
        let overflow = GpuError::OutputOverflow {
            bytes: 256 << 20,
            faulted: true,
        }
        .to_string();
        assert!(
            overflow.contains("also stopped at a fault or a limit"),
            "{overflow}"
        );
        let src = "sync void main(void) { pr int *p = malloc(8); free(p); }";
        let checked = fork_frontend::check_source("t.fork", src, &Default::default())
            .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let emitted = transform::emit_cuda::emit(&plan, &checked.sources)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let full = emitted
            .sites
            .iter()
            .find(|s| s.what.contains("the GPU's heap is full"))
            .expect("the site of a full heap");
        let help = full.help.unwrap_or_default();
        assert!(
            help.contains("--heap-mib") && help.contains("-DFK_HEAP_BYTES"),
            "{help}"
        );
    }

    /// What the device reports for `p[$$ * 1000] = 5` through `sh int *p = a` on processor 1
    /// becomes the simulator's fault, without the step: code, span, message, processor,
    /// help; rendered by the same code (fork_frontend's ariadne report).
    #[test]
    fn a_device_fault_is_the_simulators_fault_without_the_step() {
        let src =
            "sh int a[8];\nsh int b[1000];\n\nsync void main(void)\n{\n    sh int *p = a;\n    \
                   p[$$ * 1000] = 5;\n}\n";
        let checked = fork_frontend::check_source("pointer.fork", src, &Default::default())
            .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let emitted = transform::emit_cuda::emit(&plan, &checked.sources)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let site = emitted
            .sites
            .iter()
            .position(|s| s.code.id == "R0001" && s.what.starts_with("write"))
            .expect("a checked write");
        let object = emitted
            .objects
            .iter()
            .position(|o| o == "`a` (32 bytes)")
            .expect("`a` is known");
        let device = machine::Fault {
            site,
            proc: 1,
            rank: 1,
            at: 0,
            value: 4000,
            object: object as i32,
            size: 32,
            cut: Vec::new(),
            limit: None,
            conflict: None,
        };
        let Ok(GpuError::Fault(gpu)) = fault_report(&emitted, &device) else {
            panic!("a fault report");
        };
        let sim = simulator_fault(&checked, 2);
        assert_eq!(*gpu, pram_sim::Fault { step: None, ..*sim });
        let rendered = fork_frontend::diag::render(&checked.sources, &[gpu.to_diagnostic()], false);
        insta::assert_snapshot!(rendered);
    }

    /// The simulator's fault of `checked` on `procs` processors.
    fn simulator_fault(checked: &fork_frontend::Checked, procs: u32) -> Box<pram_sim::Fault> {
        let config = pram_sim::Config {
            procs,
            ..Default::default()
        };
        pram_sim::run(&checked.program, &config)
            .fault
            .expect("the simulator faults")
    }

    /// A `--crcw common` conflict the write logs found is the simulator's fault: its code,
    /// the second writer's write, the first writer, the help; rendered by the same report.
    #[test]
    fn a_conflict_is_reported_as_the_simulator_reports_it() {
        let src = "sh int x;\n\nsync void main(void)\n{\n    x = __PROC_NR__;\n}\n";
        let checked = fork_frontend::check_source("conflict.fork", src, &Default::default())
            .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let options = transform::emit_cuda::EmitOptions {
            check_common: true,
            ..Default::default()
        };
        let emitted = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let site = emitted
            .sites
            .iter()
            .position(|s| s.code.id == "R0004")
            .expect("a logged write");
        let conflict = machine::Conflict {
            procs: (0, 1),
            values: (0, 1),
            site,
        };
        let Ok(GpuError::Fault(gpu)) = conflict_report(&emitted, &conflict) else {
            panic!("a fault report");
        };
        let sim = simulator_fault(&checked, 2);
        assert_eq!(
            (gpu.code.id, gpu.span, gpu.who.map(|w| w.proc), &gpu.help),
            (sim.code.id, sim.span, sim.who.map(|w| w.proc), &sim.help)
        );
        let rendered = fork_frontend::diag::render(&checked.sources, &[gpu.to_diagnostic()], false);
        insta::assert_snapshot!(rendered);
    }

    /// The objects a fault may name: the program's, heap blocks by kind and size.
    #[test]
    fn fault_objects_are_named_as_the_simulator_names_them() {
        let objects = vec!["`a` (32 bytes)".to_string()];
        assert_eq!(object_name(&objects, 0, 0), "`a` (32 bytes)");
        assert_eq!(
            object_name(&objects, abi::FK_OBJECT_MALLOC, 12),
            "a private heap block of 12 bytes"
        );
        assert_eq!(
            object_name(&objects, abi::FK_OBJECT_SHMALLOC, 4),
            "a shared heap block of 4 bytes"
        );
        assert_eq!(object_name(&objects, 7, 0), "an unknown object");
    }

    /// The messages of the limits and checks (docs/gpu-limits.md), as `forkcc run` prints
    /// them after `error[CODE]: `.
    #[test]
    fn limit_messages_name_the_code_the_place_and_the_processor() {
        let limit = |limit: Limit, site: &str| GpuError::Limit {
            limit,
            site: site.into(),
            proc: 0,
        };
        let errors = [
            limit(Limit::Steps(5000), "the loop at f.fork:12:5"),
            limit(
                Limit::Time(Duration::from_secs(30)),
                "the loop at f.fork:12:5",
            ),
            limit(
                Limit::Depth(Depth::Calls(10_000)),
                "the call of `depth` at f.fork:11:12",
            ),
            limit(
                Limit::Depth(Depth::Full {
                    what: "word stack",
                    calls: 2113,
                }),
                "the call of `depth` at f.fork:11:12",
            ),
            limit(
                Limit::Depth(Depth::DeviceFrames {
                    frames: 64,
                    slot_bytes: 4096,
                }),
                "the call of `depth` at f.fork:11:12",
            ),
        ];
        let text: Vec<String> = errors
            .iter()
            .map(|e| format!("error[{}]: {e}", e.code().unwrap_or("-")))
            .collect();
        insta::assert_snapshot!(text.join("\n"));
    }

    /// `--stats` marks a compile the cache answered; the line is otherwise the same.
    #[test]
    fn stats_mark_a_cached_compile() {
        let stats = |cached| Stats {
            compile: Duration::from_micros(1500),
            cached,
            ..Stats::default()
        };
        let compiled = stats(false).to_string();
        let cached = stats(true).to_string();
        assert!(compiled.contains("NVRTC 1.500 ms, total"), "{compiled}");
        assert_eq!(
            cached,
            compiled.replace("NVRTC 1.500 ms", "NVRTC 1.500 ms (cached)")
        );
    }

    #[test]
    fn a_truncated_buffer_ends_the_records() {
        let plan = plan_with_strings(&["%d\n"]);
        let mut buf = record(0, 0, 0, 0, &1i64.to_le_bytes());
        buf.extend(&record(0, 1, 0, 0, &2i64.to_le_bytes())[..28]);
        let out =
            format_records(&plan, &buf, Schedule::Host, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, b"1\n");
    }
}
