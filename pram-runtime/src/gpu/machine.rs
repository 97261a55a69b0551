//! The host side of the GPU driver: runs the lowered host program
//! (`transform::host_program::walk`, shared with the CPU executor) by launching the Plan's
//! kernels and the runtime library's group kernels on the device. It does what the
//! host part of the standalone `.cu` (`cuda/fk_host.cuh`) does, with the same device calls
//! in the same order; the host keeps only a mirror of group sizes, offsets and `@`.

use super::abi::{
    self, descriptors, kernels, CType, Descriptor, FkCommon, FkCopies, FkDevice, FkGroup, FkLimits,
    FkMachine, FkRange, FkReadBack, FkSlotStacks, FkTrace, FkVar, FkWriters, FromLe, Kernel,
    Params, Ptr, ToLe, FK_ACTIVE, FK_BREAK, FK_CONTINUE, FK_RETURN,
};
use super::timeline::{self, HostRecorder, Timeline};
use super::{Config, GpuError, Limits, Memory, Stats};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, LaunchConfig,
};
use fork_frontend::hir::{MpOp, VarId};
use fork_frontend::source::Span;
use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};
use transform::emit_cuda::{Emitted, Schedule};
use transform::host_program::{self, HostMachine, LoopHeader, Pc};
use transform::plan::{
    HostFnId, KernelId, Plan, RegionKind, RegionNeeds, SharedFrameId, SplitKind,
};

/// Byte offsets of the regions in the one device arena.
#[derive(Default, Clone, Copy)]
struct Regions {
    members: u64,
    groups: u64,
    dollar: u64,
    status: u64,
    words: u64,
    keys: u64,
    counts: u64,
    cursor: u64,
    read_back: u64,
    strings: u64,
    shared_globals: u64,
    slots: u64,
    heap: u64,
    heap_top: u64,
    out: u64,
    out_top: u64,
    fault: u64,
    why: u64,
    frames: u64,
    total: u64,
}

/// Capacities (entries or bytes) of the stacks.
struct Caps {
    members: u64,
    words: u64,
    groups: u64,
    frames: u64,
    slots: u64,
    counts: u64,
    heap: u64,
    out: u64,
}

#[derive(Clone, Copy)]
struct HostGroup {
    size: i32,
    members: u64,
    at: i64,
}

#[derive(Clone, Copy)]
pub struct Tops {
    groups: usize,
    members: u64,
    words: u64,
    frames: u64,
}

/// Where the walk is; the group is an index into the device's group table.
type Ctx = host_program::Ctx<i32>;

pub struct Machine<'p> {
    plan: &'p Plan,
    procs: u64,
    stream: Arc<CudaStream>,
    /// The loaded program (its descriptors, `set_descriptor`).
    module: Arc<CudaModule>,
    arena: CudaSlice<u8>,
    base: u64,
    r: Regions,
    caps: Caps,
    functions: HashMap<String, CudaFunction>,
    /// Per grid region kernel: the blocks of it that are resident at once.
    grid_resident: HashMap<String, u64>,
    groups: Vec<HostGroup>,
    top: Tops,
    launches: u32,
    pub stats: Stats,
    timing: bool,
    /// `--crcw priority`: synchronous kernels run their members serially.
    priority: bool,
    kernel_events: Vec<(cudarc::driver::CudaEvent, cudarc::driver::CudaEvent)>,
    /// `--schedule device`: where its state lives in the arena.
    device: Option<DeviceRegions>,
    /// Timestamps of group instances (`--stats`, `--trace`), when asked for: where the
    /// `FkTraceRec`s and their count are in the arena (`fk_t`).
    trace: Option<(u64, u64)>,
    /// ... under the host schedule: its CUDA events, from the start of the walk.
    recorder: Option<HostRecorder>,
    /// `Config::region_groups` (`--trace`): also the asynchronous regions and barriers.
    region_groups: bool,
    /// Where the walk is (the instruction forming a group instance).
    pc: Pc,
    limits: Limits,
    /// The site of each host-program loop and call (`Emitted::span_sites`).
    span_sites: &'p HashMap<Span, usize>,
    /// `--crcw common`: the write logs, and the kernels checked after each launch.
    common: Option<(CommonRegions, &'p BTreeSet<String>)>,
    /// The calls the walk is in, innermost last (the recursion limit): the call's span and
    /// the caller's group.
    calls: Vec<(Span, i32)>,
    /// Why the walk stopped at a call (R0008).
    too_deep: Option<Depth>,
    start: Instant,
}

/// Byte offsets of the device schedule's state in the arena (`cuda/fk_schedule.cuh`).
#[derive(Clone, Copy)]
struct DeviceRegions {
    depth: i32,
    /// Threads per block of the persistent kernel (`Emitted::device_threads`).
    threads: u32,
    /// The program has a grid region (`Emitted::grid_regions`): fewer runners a block.
    grid_regions: bool,
    slot_stack_bytes: u64,
    procs: u64,
    results: u64,
    frames: u64,
    sync: u64,
    scratch: u64,
    frame_heap: u64,
    frame_heap_top: u64,
    error: u64,
    fault_key: u64,
    tasks: u64,
    task_posts: u64,
    idle: u64,
    runners_done: u64,
    slot_stacks: u64,
}

/// The most group instances the GPU stamps (48 bytes each).
const TRACE_RECORDS: u64 = 1 << 20;
/// Byte offsets of the `--crcw common` write logs in the arena (`FkCommon`).
#[derive(Clone, Copy)]
struct CommonRegions {
    writes: u64,
    count: u64,
    tag: u64,
    conflict: u64,
    writers: u64,
}

/// Threads of each block of the persistent kernel that run processors: the processors spread
/// over every block that can be resident (`resident`; a warp at least, half the block at
/// most, `FK_DEVICE_RUNNERS_GRID` in a program with a grid region, whose teams then run its
/// group of every processor), so that P = 4096 runs on 128 SMs rather than 16. The `.cu`'s
/// `fk_device_runners` (pram-runtime/cuda/fk_host_schedule.cuh) is the same.
fn device_runners(procs: u64, resident: u64, threads: u32, grid_regions: bool) -> u32 {
    let per_block = procs.div_ceil(resident.max(1));
    let warp = u64::from(abi::FK_WARP_THREADS);
    let most = if grid_regions {
        abi::FK_DEVICE_RUNNERS_GRID
    } else {
        threads / 2
    };
    per_block
        .div_ceil(warp)
        .saturating_mul(warp)
        .min(u64::from(most)) as u32
}

/// Threads of each block of a grid region's cooperative launch for a group of `members`: the
/// members spread over every SM (a warp at least, `FK_GRID_THREADS` at most), so that a group
/// of 1024 runs on 32 SMs rather than 4. The `.cu`'s `fk_grid_threads`
/// (pram-runtime/cuda/fk_host.cuh) is the same.
fn grid_threads(members: u64, sms: u64) -> u32 {
    let warp = u64::from(abi::FK_WARP_THREADS);
    (members.div_ceil(sms.max(1)).div_ceil(warp) * warp)
        .clamp(warp, u64::from(abi::FK_GRID_THREADS)) as u32
}

fn align(x: u64, a: u64) -> u64 {
    x.div_ceil(a) * a
}

/// The arena's bytes: each region 256-aligned, and the ABI arrays among them by field.
#[derive(Default)]
struct Arena {
    at: u64,
    /// `Struct.field` and the bytes of the array it points to.
    arrays: Vec<(&'static str, u64)>,
}

impl Arena {
    /// A region of `bytes` (at least 8): its offset.
    fn region(&mut self, bytes: u64) -> u64 {
        let o = self.at;
        self.at = align(self.at + bytes.max(8), 256);
        o
    }

    /// The region of an ABI array, from [`array!`].
    fn array(&mut self, (field, bytes): (&'static str, u64)) -> u64 {
        self.arrays.push((field, bytes));
        self.region(bytes)
    }
}

/// `array!(FkMachine, counts, n)`: the field's name and the bytes of `n` elements of the
/// array it points to (of the element type the ABI declares for it), for [`Arena::array`].
macro_rules! array {
    ($s:ident, $field:ident, $n:expr) => {
        (
            concat!(stringify!($s), ".", stringify!($field)),
            $s::array_bytes(|x| &x.$field, $n),
        )
    };
}

/// Where everything lives in the arena: what the machine allocates, computed without a GPU
/// (`super::arena_arrays`).
pub(super) struct Layout {
    caps: Caps,
    r: Regions,
    device: Option<DeviceRegions>,
    common: Option<CommonRegions>,
    /// `FkTraceRec`s and their count, with `timestamps`.
    trace: Option<(u64, u64)>,
    /// The ABI arrays: `Struct.field` and bytes, as the `.cu` must allocate them.
    pub(super) arrays: Vec<(&'static str, u64)>,
    /// The string literals, each NUL-terminated.
    strings: Vec<u8>,
}

impl Layout {
    /// The arena of `plan` as `emitted` for `procs` processors (`timestamps`: the
    /// `FkTraceRec`s).
    pub(super) fn new(
        plan: &Plan,
        emitted: &Emitted,
        procs: u64,
        timestamps: bool,
        memory: Memory,
    ) -> Layout {
        let main = plan.function(plan.main);
        let depth = abi::device_depth(procs) as u64;
        let device = emitted.schedule == Schedule::Device;
        let caps = Caps {
            members: abi::FK_STACK_PER_PROC * procs + abi::FK_STACK_EXTRA,
            words: abi::FK_STACK_PER_PROC * procs + abi::FK_STACK_EXTRA,
            // The device schedule's group ids: processor * (depth + 1) + frame height.
            groups: if device {
                (procs * (depth + 1)).max(abi::FK_GROUPS_MIN)
            } else {
                abi::FK_GROUPS_MIN
            },
            frames: abi::FK_FRAMES_BYTES,
            slots: abi::FK_SLOTS_BYTES_MIN.max(
                (plan.storage.private_globals_bytes + abi::FK_MAIN_ACTIVATIONS * main.frame_bytes)
                    * procs,
            ),
            counts: procs.max(abi::FK_COUNTS_MIN),
            heap: memory.heap_bytes,
            out: memory.out_bytes,
        };
        let strings: Vec<u8> = plan.program.strings.concat();
        let mut arena = Arena::default();
        let mut r = Regions {
            members: arena.array(array!(FkMachine, members, caps.members)),
            groups: arena.array(array!(FkMachine, groups, caps.groups)),
            dollar: arena.array(array!(FkMachine, dollar, procs)),
            status: arena.array(array!(FkMachine, status, procs)),
            words: arena.array(array!(FkMachine, words, caps.words)),
            keys: arena.array(array!(FkMachine, keys, procs)),
            counts: arena.array(array!(FkMachine, counts, caps.counts)),
            cursor: arena.array(array!(FkMachine, cursor, caps.counts)),
            read_back: arena.array(array!(FkMachine, read_back, 1)),
            strings: arena.array(array!(FkMachine, strings, strings.len() as u64)),
            shared_globals: arena.array(array!(
                FkMachine,
                shared_globals,
                plan.storage.shared_globals_bytes
            )),
            slots: arena.array(array!(FkMachine, slots, caps.slots)),
            heap: arena.array(array!(FkMachine, heap, caps.heap)),
            heap_top: arena.array(array!(FkMachine, heap_top, 1)),
            out: arena.array(array!(FkMachine, out, caps.out)),
            out_top: arena.array(array!(FkMachine, out_top, 1)),
            fault: arena.array(array!(FkMachine, fault, 1)),
            why: arena.array(array!(FkLimits, why, 1)),
            // Bytes: the host schedule's shared frames (`FkRange`s of FkCommon, `fk_h.frames`).
            frames: arena.region(caps.frames),
            total: 0,
        };
        let slot_stack_bytes = emitted.slot_stack_bytes;
        let device = device.then(|| DeviceRegions {
            depth: depth as i32,
            threads: emitted.device_threads,
            grid_regions: emitted.grid_regions,
            slot_stack_bytes,
            procs: arena.array(array!(FkDevice, procs, procs)),
            results: arena.array(array!(FkDevice, results, procs)),
            frames: arena.array(array!(FkDevice, frames, procs * depth)),
            sync: arena.array(array!(FkDevice, sync, procs * (depth + 1))),
            scratch: arena.array(array!(FkDevice, scratch, 2 * procs)),
            frame_heap: arena.array(array!(FkDevice, frame_heap, abi::FK_FRAME_HEAP_BYTES)),
            frame_heap_top: arena.array(array!(FkDevice, frame_heap_top, 1)),
            error: arena.array(array!(FkDevice, error, 1)),
            fault_key: arena.array(array!(FkDevice, fault_key, 1)),
            tasks: arena.array(array!(FkDevice, tasks, procs)),
            task_posts: arena.array(array!(FkDevice, task_posts, 1)),
            idle: arena.array(array!(FkDevice, idle, procs / 32 + 1)),
            runners_done: arena.array(array!(FkDevice, runners_done, 1)),
            slot_stacks: arena.array(array!(
                FkSlotStacks,
                base,
                procs * slot_stack_bytes * if emitted.slot_wide { 2 } else { 1 }
            )),
        });
        let trace = timestamps.then(|| {
            (
                arena.array(array!(FkTrace, recs, TRACE_RECORDS)),
                arena.array(array!(FkTrace, count, 1)),
            )
        });
        let common = emitted.check_common.then(|| CommonRegions {
            writes: arena.array(array!(FkCommon, writes, procs * abi::FK_WRITES)),
            count: arena.array(array!(FkCommon, count, procs)),
            tag: arena.array(array!(FkCommon, tag, procs)),
            conflict: arena.array(array!(FkCommon, conflict, 1)),
            writers: arena.array(array!(FkCommon, writers, 1)),
        });
        r.total = arena.at;
        Layout {
            caps,
            r,
            device,
            common,
            trace,
            arrays: arena.arrays,
            strings,
        }
    }
}

impl<'p> Machine<'p> {
    /// The machine for `plan` as `emitted` (its schedule, fault sites, checked kernels) under
    /// `config`.
    pub fn new(
        plan: &'p Plan,
        emitted: &'p Emitted,
        ctx: &Arc<CudaContext>,
        module: &Arc<CudaModule>,
        config: Config,
    ) -> Result<Machine<'p>, GpuError> {
        let Config {
            procs,
            priority,
            timing,
            timestamps,
            region_groups,
            limits,
            memory,
            // The code is compiled and loaded before the machine exists.
            no_cache: _,
        } = config;
        let span_sites = &emitted.span_sites;
        let stream = ctx.default_stream();
        let Layout {
            caps,
            r,
            device,
            common,
            trace,
            arrays: _,
            strings,
        } = Layout::new(plan, emitted, procs, timestamps, memory);
        let common = common.map(|regions| (regions, &emitted.common_kernels));
        let (free, _) = ctx
            .mem_get_info()
            .map_err(GpuError::driver("memory info"))?;
        if r.total > free as u64 {
            return Err(GpuError::Memory {
                needed: r.total,
                free: free as u64,
            });
        }
        let arena = stream
            .alloc_zeros::<u8>(r.total as usize)
            .map_err(|_| GpuError::Memory {
                needed: r.total,
                free: free as u64,
            })?;
        let base = arena.device_ptr(&stream).0;
        let mut functions = HashMap::new();
        let names = emitted
            .kernels
            .iter()
            .map(String::as_str)
            .chain(abi::MACHINE_KERNELS.iter().copied())
            .chain(
                match device {
                    None => abi::HOST_KERNELS,
                    Some(_) => abi::SCHEDULE_KERNELS,
                }
                .iter()
                .copied(),
            );
        for name in names {
            let f = module
                .load_function(name)
                .map_err(GpuError::driver("loading a kernel"))?;
            functions.insert(name.to_string(), f);
        }
        let mut m = Machine {
            plan,
            procs,
            stream,
            module: module.clone(),
            arena,
            base,
            r,
            caps,
            functions,
            grid_resident: HashMap::new(),
            groups: Vec::new(),
            top: Tops {
                groups: 0,
                members: 0,
                words: 0,
                frames: 0,
            },
            launches: 0,
            stats: Stats::default(),
            timing,
            priority,
            kernel_events: Vec::new(),
            device,
            trace,
            recorder: None,
            region_groups,
            pc: Pc(0),
            limits,
            span_sites,
            common,
            calls: Vec::new(),
            too_deep: None,
            start: Instant::now(),
        };
        if !strings.is_empty() {
            m.write(r.strings, &strings)?;
        }
        let desc = FkMachine {
            procs: procs as i32,
            members: Ptr::at(base + r.members),
            groups: Ptr::at(base + r.groups),
            dollar: Ptr::at(base + r.dollar),
            status: Ptr::at(base + r.status),
            words: Ptr::at(base + r.words),
            keys: Ptr::at(base + r.keys),
            counts: Ptr::at(base + r.counts),
            cursor: Ptr::at(base + r.cursor),
            read_back: Ptr::at(base + r.read_back),
            strings: Ptr::at(base + r.strings),
            shared_globals: Ptr::at(base + r.shared_globals),
            slots: Ptr::at(base + r.slots),
            heap: Ptr::at(base + r.heap),
            heap_bytes: m.caps.heap,
            heap_top: Ptr::at(base + r.heap_top),
            out: Ptr::at(base + r.out),
            out_bytes: m.caps.out,
            out_top: Ptr::at(base + r.out_top),
            fault: Ptr::at(base + r.fault),
        };
        m.set_descriptor(descriptors::MACHINE, &desc)?;
        if let Some((recs, count)) = trace {
            let t = FkTrace {
                recs: Ptr::at(base + recs),
                count: Ptr::at(base + count),
                cap: TRACE_RECORDS as u32,
                regions: region_groups.into(),
            };
            m.set_descriptor(descriptors::TRACE, &t)?;
        }
        let limits = FkLimits {
            max_steps: limits.max_steps,
            timeout_ns: limits.timeout.map_or(0, |t| t.as_nanos() as u64),
            why: Ptr::at(base + r.why),
        };
        m.set_descriptor(descriptors::LIMITS, &limits)?;
        if device.is_none() {
            m.warm_up_grid_regions()?;
        }
        m.launch(1, 1, &kernels::StartClock {})?;
        if let Some((c, _)) = common {
            // Shared memory: globals, the group frames (the device schedule's frame heap),
            // the heap.
            let range = |at: u64, bytes: u64| FkRange {
                lo: Ptr::at(base + at),
                hi: Ptr::at(base + at + bytes),
            };
            let desc = FkCommon {
                writes: Ptr::at(base + c.writes),
                count: Ptr::at(base + c.count),
                tag: Ptr::at(base + c.tag),
                globals: range(r.shared_globals, plan.storage.shared_globals_bytes),
                frames: match device {
                    Some(d) => range(d.frame_heap, abi::FK_FRAME_HEAP_BYTES),
                    None => range(r.frames, m.caps.frames),
                },
                heap: range(r.heap, m.caps.heap),
                conflict: Ptr::at(base + c.conflict),
                writers: Ptr::at(base + c.writers),
            };
            m.set_descriptor(descriptors::COMMON, &desc)?;
        }
        Ok(m)
    }

    // ---- memory ----

    /// Writes a descriptor into the program's constant memory.
    fn set_descriptor<T: ToLe>(&mut self, d: Descriptor<T>, value: &T) -> Result<(), GpuError> {
        let mut bytes = Vec::new();
        value.to_le(&mut bytes);
        let mut view = (self.module)
            .get_global(d.symbol, &self.stream)
            .map_err(GpuError::driver("finding a descriptor"))?;
        self.stream
            .memcpy_htod(&bytes, &mut view)
            .map_err(GpuError::driver("copying to the GPU"))?;
        self.stats.bytes_copied += bytes.len() as u64;
        Ok(())
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> Result<(), GpuError> {
        let mut view = self
            .arena
            .slice_mut(offset as usize..offset as usize + data.len());
        self.stream
            .memcpy_htod(data, &mut view)
            .map_err(GpuError::driver("copying to the GPU"))?;
        self.stats.bytes_copied += data.len() as u64;
        Ok(())
    }

    /// A blocking read-back.
    fn read(&mut self, offset: u64, len: usize) -> Result<Vec<u8>, GpuError> {
        let t = Instant::now();
        let mut out = vec![0u8; len];
        if len > 0 {
            let view = self.arena.slice(offset as usize..offset as usize + len);
            self.stream
                .memcpy_dtoh(&view, &mut out)
                .map_err(GpuError::driver("reading back"))?;
            self.stream
                .synchronize()
                .map_err(GpuError::driver("synchronising"))?;
        }
        self.stats.read_backs += 1;
        self.stats.bytes_copied += len as u64;
        self.stats.sync += t.elapsed();
        Ok(out)
    }

    /// A blocking read-back of one value of the ABI (a struct, a word).
    fn read_as<T: FromLe>(&mut self, offset: u64) -> Result<T, GpuError> {
        Ok(T::from_le(&self.read(offset, std::mem::size_of::<T>())?))
    }

    /// A blocking read-back of elements `at..at + n` of the array at arena offset `offset`,
    /// that `field` of an ABI struct points to: of the element type the field declares.
    fn read_array<S, T: CType + FromLe>(
        &mut self,
        offset: u64,
        // Only its type counts: it names the element type.
        _field: fn(&S) -> &Ptr<T>,
        at: u64,
        n: usize,
    ) -> Result<Vec<T>, GpuError> {
        let bytes = self.read(offset + at * T::BYTES, n * T::BYTES as usize)?;
        Ok(bytes
            .chunks_exact(T::BYTES as usize)
            .map(T::from_le)
            .collect())
    }

    /// [`Machine::read_array`] of one element.
    fn read_elem<S, T: CType + FromLe>(
        &mut self,
        offset: u64,
        field: fn(&S) -> &Ptr<T>,
        at: u64,
    ) -> Result<T, GpuError> {
        let mut one = self.read_array(offset, field, at, 1)?;
        one.pop()
            .ok_or_else(|| GpuError::Internal("a read-back came back short".into()))
    }

    fn zero(&mut self, offset: u64, len: u64) -> Result<(), GpuError> {
        if len == 0 {
            return Ok(());
        }
        let mut view = self
            .arena
            .slice_mut(offset as usize..(offset + len) as usize);
        self.stream
            .memset_zeros(&mut view)
            .map_err(GpuError::driver("zeroing"))
    }

    // ---- launches ----

    /// Kernel `name` with `args` (a Plan kernel, a region or a runtime kernel).
    fn launch_as<P: Params>(
        &mut self,
        name: &str,
        blocks: u32,
        threads: u32,
        args: &P,
    ) -> Result<(), GpuError> {
        self.launch_shaped(name, blocks, threads, args, false)
    }

    /// `launch_as`, cooperative where the kernel's grid barriers need every block resident
    /// (the persistent kernel, a grid region).
    fn launch_shaped<P: Params>(
        &mut self,
        name: &str,
        blocks: u32,
        threads: u32,
        args: &P,
        cooperative: bool,
    ) -> Result<(), GpuError> {
        let events = self.launch_timed(name, blocks, threads, args, cooperative, self.timing)?;
        if let Some(e) = events {
            self.kernel_events.push(e);
        }
        self.stats.launches += 1;
        Ok(())
    }

    /// `launch_shaped` without the statistics: with the events that time the kernel when
    /// `timed`.
    fn launch_timed<P: Params>(
        &self,
        name: &str,
        blocks: u32,
        threads: u32,
        args: &P,
        cooperative: bool,
        timed: bool,
    ) -> Result<Option<(cudarc::driver::CudaEvent, cudarc::driver::CudaEvent)>, GpuError> {
        let f = self
            .functions
            .get(name)
            .ok_or_else(|| GpuError::Internal(format!("no kernel `{name}`")))?;
        let mut b = self.stream.launch_builder(f);
        args.push(&mut abi::Launch(&mut b));
        let cfg = LaunchConfig {
            grid_dim: (blocks.max(1), 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        if timed {
            b.record_kernel_launch(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT);
        }
        // SAFETY: the arguments are those of the kernel's C signature, which the ABI
        // declares once (the C side is generated from it); the kernels touch only the arena.
        // A cooperative launch makes every block resident, which grid barriers need.
        unsafe {
            if cooperative {
                b.launch_cooperative(cfg)
            } else {
                b.launch(cfg)
            }
        }
        .map_err(GpuError::driver("launching a kernel"))
    }

    /// Launches every grid region of the host schedule once with `g = -1`, which returns at
    /// once (`fk_g_warm_up`), before the run: the driver's first cooperative launch of a
    /// function takes 0.1 to 0.3 ms of host time, later ones a few µs (H200,
    /// docs/performance.md), and the GPU would wait for it inside the timing of the
    /// function that first runs the region. Not counted in the statistics.
    fn warm_up_grid_regions(&mut self) -> Result<(), GpuError> {
        let plan = self.plan;
        let args = kernels::RegionKernel {
            g: -1,
            seq: 0,
            slot_base: 0,
            launch: 0,
            groups_top: 0,
            members_top: 0,
            words_top: 0,
            frames_top: 0,
        };
        for name in plan.host.grid_regions() {
            self.launch_timed(name, 1, abi::FK_WARP_THREADS, &args, true, false)?;
        }
        Ok(())
    }

    /// A runtime kernel.
    fn launch<K: Kernel>(&mut self, blocks: u32, threads: u32, args: &K) -> Result<(), GpuError> {
        self.launch_as(K::NAME, blocks, threads, args)
    }

    /// Kernel `name` with a thread for each of `n` members.
    fn members_as<P: Params>(&mut self, name: &str, n: u32, args: &P) -> Result<(), GpuError> {
        if n == 0 {
            return Ok(());
        }
        self.launch_as(
            name,
            n.div_ceil(abi::FK_BLOCK_THREADS),
            abi::FK_BLOCK_THREADS,
            args,
        )
    }

    /// A runtime kernel with a thread for each of `n` members.
    fn launch_members<K: Kernel>(&mut self, n: u32, args: &K) -> Result<(), GpuError> {
        self.members_as(K::NAME, n, args)
    }

    fn threads(&self, c: Ctx) -> u32 {
        let n = self.groups[c.group as usize].size.max(0) as u32;
        if c.seq {
            n.min(1)
        } else {
            n
        }
    }

    /// A Plan kernel (or `k_globals`) for the members of `c`'s group; under
    /// `--crcw priority` a synchronous one runs its members serially (`FK_KERNEL`).
    fn kernel(&mut self, name: &str, sync: bool, c: Ctx) -> Result<(), GpuError> {
        let n = self.threads(c);
        if n == 0 {
            return Ok(());
        }
        let launch = self.launches;
        self.launches += 1;
        let serial = (self.priority && sync) as i32;
        let args = kernels::PlanKernel {
            g: c.group,
            n: n as i32,
            slot_base: c.slot_base,
            launch,
            serial,
        };
        if serial == 1 {
            return self.launch_as(name, 1, 1, &args);
        }
        self.members_as(name, n, &args)?;
        if self
            .common
            .is_some_and(|(_, kernels)| kernels.contains(name))
        {
            let args = kernels::CommonCheckLaunch {
                g: c.group,
                n: n as i32,
                launch,
            };
            self.launch_members(n, &args)?;
        }
        Ok(())
    }

    /// A `--crcw common` conflict: the simulator's pair (the lowest processor that wrote the
    /// cell in the step, the lowest whose value differs) with their writes; None when the
    /// logs do not hold it.
    fn conflict(&mut self) -> Result<Option<[(usize, abi::FkWrite); 2]>, GpuError> {
        let Some((c, _)) = self.common else {
            return Ok(None);
        };
        for pass in 0..2i32 {
            self.launch_members(self.procs as u32, &kernels::CommonWriters { pass })?;
        }
        let writers: FkWriters = self.read_as(c.writers)?;
        let cell = self.read_as::<abi::FkConflict>(c.conflict)?.cell;
        let writers = [writers.first, writers.second];
        if writers.contains(&0) {
            return Ok(None);
        }
        let mut pair = [(0, abi::FkWrite::default()); 2];
        for (i, w) in writers.iter().enumerate() {
            let proc = (abi::FK_PROC_MAX - w) as u64;
            let n = self
                .read_elem(c.count, |c: &FkCommon| &c.count, proc)?
                .clamp(0, abi::FK_WRITES as i32);
            let log = self.read_array(
                c.writes,
                |c: &FkCommon| &c.writes,
                proc * abi::FK_WRITES,
                abi::FK_WRITES as usize,
            )?;
            let last = log.into_iter().take(n as usize).rfind(|w| w.addr == cell);
            match last {
                Some(write) => pair[i] = (proc as usize, write),
                None => return Ok(None),
            }
        }
        Ok(Some(pair))
    }

    // ---- stacks ----

    fn alloc_words(&mut self, n: u64) -> Result<u64, GpuError> {
        let at = self.top.words;
        if at + n > self.caps.words {
            return Err(GpuError::Capacity("word stack (groups nested too deeply)"));
        }
        self.top.words += n;
        Ok(at)
    }

    fn alloc_members(&mut self, n: u64) -> Result<u64, GpuError> {
        let at = self.top.members;
        if at + n > self.caps.members {
            return Err(GpuError::Capacity(
                "member stack (groups nested too deeply)",
            ));
        }
        self.top.members += n;
        Ok(at)
    }

    /// Shared-frame bytes on the stack, not zeroed (a block region zeroes its own); their
    /// device address.
    fn reserve_frames(&mut self, bytes: u64) -> Result<u64, GpuError> {
        let at = align(self.top.frames, 8);
        if at + bytes > self.caps.frames {
            return Err(GpuError::Capacity(
                "shared-frame stack (groups nested too deeply)",
            ));
        }
        self.top.frames = at + bytes;
        Ok(self.base + self.r.frames + at)
    }

    /// Zeroed shared frames; their device address.
    fn alloc_frames(&mut self, bytes: u64) -> Result<u64, GpuError> {
        let address = self.reserve_frames(bytes)?;
        self.zero(address - self.base, bytes)?;
        Ok(address)
    }

    fn alloc_groups(&mut self, k: usize) -> Result<usize, GpuError> {
        let first = self.top.groups;
        if (first + k) as u64 > self.caps.groups {
            return Err(GpuError::Capacity("group stack (groups nested too deeply)"));
        }
        self.top.groups += k;
        self.groups.resize(
            self.top.groups,
            HostGroup {
                size: 0,
                members: 0,
                at: 0,
            },
        );
        Ok(first)
    }

    fn pop(&mut self, t: Tops) {
        self.top = t;
        self.groups.truncate(t.groups);
    }

    /// A group of every processor in `__PROC_NR__` order (main's, a `start`'s) under `parent`.
    fn group_of_all(&mut self, parent: i32, shared_frame: SharedFrameId) -> Result<i32, GpuError> {
        let members = self.alloc_members(self.procs)?;
        let p = self.procs as i32;
        self.launch_members(
            p as u32,
            &kernels::Start {
                procs: p,
                base: members,
            },
        )?;
        self.push_group(parent, p, members, 0, shared_frame)
    }

    fn push_group(
        &mut self,
        parent: i32,
        size: i32,
        members: u64,
        at: i64,
        frame: SharedFrameId,
    ) -> Result<i32, GpuError> {
        let (g, desc) = self.new_group(parent, size, members, at, frame)?;
        self.launch(1, 1, &kernels::SetGroup { g, desc })?;
        Ok(g)
    }

    /// A group on the host's stack and its descriptor, which the caller sets on the device.
    fn new_group(
        &mut self,
        parent: i32,
        size: i32,
        members: u64,
        at: i64,
        frame: SharedFrameId,
    ) -> Result<(i32, FkGroup), GpuError> {
        let g = self.alloc_groups(1)?;
        let bytes = self.plan.storage.shared_frames[frame.0 as usize].bytes;
        let desc = FkGroup {
            at,
            parent,
            size,
            members,
            frame_id: frame.0 as i32,
            frame: self.alloc_frames(bytes)?,
        };
        self.groups[g] = HostGroup { size, members, at };
        Ok((g as i32, desc))
    }

    fn var(&self, v: VarId) -> Result<FkVar, GpuError> {
        FkVar::of(self.plan, v).ok_or_else(|| {
            GpuError::Internal(format!(
                "the host reads `{}`, which lives in a register",
                self.plan.program.var(v).name
            ))
        })
    }

    /// The value of `v` for the first active member, or None when no member is active.
    fn read_first(&mut self, c: Ctx, v: VarId) -> Result<Option<i32>, GpuError> {
        let var = self.var(v)?;
        let n = self.threads(c) as i32;
        let args = kernels::ReadFirst {
            g: c.group,
            n,
            slot_base: c.slot_base,
            v: var,
        };
        self.launch(1, 1, &args)?;
        let r: FkReadBack = self.read_as(self.r.read_back)?;
        Ok((r.first_truth >= 0).then_some(r.first))
    }

    // ---- timestamps of the host schedule ----

    /// Group `g` (a new instance) begins now; a split's subgroup comes with its split's
    /// instruction, index and collective, the others form at the walk's instruction. Whether
    /// it is stamped (an instance without members is not).
    fn stamp_enter(&mut self, g: i32, split: Option<(Pc, i64, u64)>) -> Result<bool, GpuError> {
        let HostGroup { size, at, .. } = self.groups[g as usize];
        let Some(r) = self.recorder.as_mut() else {
            return Ok(false);
        };
        if size <= 0 {
            return Ok(false);
        }
        let (pc, index, event) = split.unwrap_or_else(|| (self.pc, 0, r.split()));
        r.enter(&self.stream, Some(pc), index, at, size as u32, event)
            .map_err(GpuError::driver("recording a timestamp"))?;
        Ok(true)
    }

    /// The innermost stamped group ends now (when `stamped`).
    fn stamp_leave(&mut self, stamped: bool) -> Result<(), GpuError> {
        match self.recorder.as_mut() {
            Some(r) if stamped => r
                .leave(&self.stream)
                .map_err(GpuError::driver("recording a timestamp")),
            _ => Ok(()),
        }
    }

    // ---- the walk (`transform::host_program::walk` decides the order) ----

    pub fn run(&mut self) -> Result<(), GpuError> {
        let plan = self.plan;
        let main = plan.function(plan.main);
        let g = self.group_of_all(-1, main.shared_frame)?;
        if self.trace.is_some() && self.device.is_none() {
            let async_at = if self.region_groups {
                plan.async_at()
            } else {
                Vec::new()
            };
            let recorder = HostRecorder::new(&self.stream, self.procs as u32, async_at)
                .map_err(GpuError::driver("recording a timestamp"))?;
            self.recorder = Some(recorder);
        }
        let root = Ctx {
            group: g,
            slot_base: plan.storage.private_globals_bytes * self.procs,
            seq: false,
            func: plan.main,
        };
        self.kernel(abi::GLOBALS_KERNEL, true, root)?;
        match self.device {
            None => {
                let walked = host_program::walk(&plan.host, self, root);
                self.stopped_at_a_call(walked)
            }
            Some(d) => self.run_on_device(d),
        }
    }

    /// A walk that stopped at a call nested too deeply, or in a call when a runtime stack
    /// filled, is a fault of the innermost call (`fk_limit_hit`; R0008): the output before it
    /// is kept, as the simulator keeps it.
    fn stopped_at_a_call(&mut self, walked: Result<(), GpuError>) -> Result<(), GpuError> {
        let depth = match (&walked, self.calls.last()) {
            (Err(GpuError::TooDeep), _) => Depth::Calls(self.limits.max_depth),
            // The stack's name, without the guess at the cause.
            (Err(GpuError::Capacity(what)), Some(_)) => Depth::Full {
                what: what.split(" (").next().unwrap_or(what),
                calls: self.calls.len(),
            },
            _ => return walked,
        };
        let Some(&(span, group)) = self.calls.last() else {
            return walked;
        };
        let site = *self.span_sites.get(&span).ok_or_else(|| {
            GpuError::Internal("a call of the host program has no fault site".into())
        })? as i32;
        self.too_deep = Some(depth);
        let (launch, why) = (self.launches, abi::FK_LIMIT_DEPTH);
        let args = kernels::LimitHit {
            g: group,
            site,
            why,
            launch,
        };
        self.launch(1, 1, &args)
    }

    /// `--schedule device`: one cooperative launch of the persistent kernel, which runs the
    /// host program from every processor's own program point (the root group is group 0).
    fn run_on_device(&mut self, d: DeviceRegions) -> Result<(), GpuError> {
        let base = self.base;
        let desc = FkDevice {
            procs: Ptr::at(base + d.procs),
            results: Ptr::at(base + d.results),
            frames: Ptr::at(base + d.frames),
            sync: Ptr::at(base + d.sync),
            scratch: Ptr::at(base + d.scratch),
            frame_heap: Ptr::at(base + d.frame_heap),
            frame_heap_bytes: abi::FK_FRAME_HEAP_BYTES,
            frame_heap_top: Ptr::at(base + d.frame_heap_top),
            depth: d.depth,
            entry: self.plan.host.entry(self.plan.main).0 as i32,
            slot_stack_bytes: d.slot_stack_bytes,
            error: Ptr::at(base + d.error),
            fault_key: Ptr::at(base + d.fault_key),
            tasks: Ptr::at(base + d.tasks),
            task_posts: Ptr::at(base + d.task_posts),
            idle: Ptr::at(base + d.idle),
            runners_done: Ptr::at(base + d.runners_done),
        };
        let stacks = FkSlotStacks {
            base: Ptr::at(base + d.slot_stacks),
            stride: d.slot_stack_bytes,
        };
        self.set_descriptor(descriptors::DEVICE, &desc)?;
        self.set_descriptor(descriptors::SLOT_STACKS, &stacks)?;
        self.launch_members(self.procs as u32, &kernels::DeviceInit {})?;
        let run = kernels::DeviceRun::NAME;
        let f = self
            .functions
            .get(run)
            .ok_or_else(|| GpuError::Internal(format!("no kernel `{run}`")))?
            .clone();
        let per_sm = f
            .occupancy_max_active_blocks_per_multiprocessor(d.threads, 0, None)
            .map_err(GpuError::driver("the persistent kernel's occupancy"))?;
        let resident = per_sm.max(1) as u64 * self.sms()?;
        let runners = device_runners(self.procs, resident, d.threads, d.grid_regions);
        let blocks = resident.min(self.procs.div_ceil(runners.into())) as u32;
        let args = kernels::DeviceRun {
            runners: runners as i32,
        };
        self.launch_shaped(run, blocks, d.threads, &args, true)
    }

    /// The GPU's SMs.
    fn sms(&self) -> Result<u64, GpuError> {
        let sms = self
            .stream
            .context()
            .attribute(
                cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
            .map_err(GpuError::driver("the GPU's SM count"))?;
        Ok(sms.max(1) as u64)
    }

    /// A grid region's kernel (`transform::regions`, `RegionKind::Grid`) for a group of `n`
    /// members, as one cooperative launch.
    fn launch_grid_region(
        &mut self,
        name: &str,
        n: u64,
        args: &kernels::RegionKernel,
    ) -> Result<(), GpuError> {
        let f = self
            .functions
            .get(name)
            .ok_or_else(|| GpuError::Internal(format!("no kernel `{name}`")))?
            .clone();
        let resident = match self.grid_resident.get(name) {
            Some(r) => *r,
            None => {
                let per_sm = f
                    .occupancy_max_active_blocks_per_multiprocessor(abi::FK_GRID_THREADS, 0, None)
                    .map_err(GpuError::driver("a grid region's occupancy"))?;
                let r = per_sm.max(1) as u64 * self.sms()?;
                self.grid_resident.insert(name.to_string(), r);
                r
            }
        };
        // At least as many blocks of fewer threads are resident as of FK_GRID_THREADS; no
        // more than one per `threads` members, so that every block has a member.
        let threads = grid_threads(n, self.sms()?);
        let blocks = resident.min(n.div_ceil(threads.into())) as u32;
        self.launch_shaped(name, blocks, threads, args, true)
    }

    /// LoopExitUpdate and the all-exited test: whether a participant is still active.
    fn exit_update(
        &mut self,
        parent: Ctx,
        n: i32,
        marks: u64,
        cond: Option<VarId>,
        cond_group: i32,
    ) -> Result<bool, GpuError> {
        self.zero(self.r.read_back, FkReadBack::BYTES)?;
        let (has, var) = match cond {
            Some(v) => (1i32, self.var(v)?),
            None => (0, FkVar::default()),
        };
        let args = kernels::LoopExit {
            g: parent.group,
            n,
            slot_base: parent.slot_base,
            marks,
            has_cond: has,
            cond: var,
            cond_group,
        };
        self.launch_members(n as u32, &args)?;
        Ok(self.read_as::<FkReadBack>(self.r.read_back)?.staying > 0)
    }

    fn marked_status(
        &mut self,
        c: Ctx,
        n: i32,
        marks: u64,
        from: i32,
        to: i32,
    ) -> Result<(), GpuError> {
        let args = kernels::MarkedStatus {
            g: c.group,
            n,
            marks,
            from,
            to,
        };
        self.launch_members(n as u32, &args)
    }

    /// A call's entry (`entry`: the callee's group and its descriptor, set on the device
    /// with the members' marks) or its result: one launch per FK_COPIES_MAX variables, each
    /// pair copied from `src`'s frames to `dst`'s by the marked members of `c`'s group.
    fn call_copies(
        &mut self,
        c: Ctx,
        n: i32,
        marks: u64,
        entry: Option<(i32, FkGroup)>,
        (src, dst): (Ctx, Ctx),
        pairs: &[(VarId, VarId)],
    ) -> Result<(), GpuError> {
        let (mut entry, mut rest) = (entry, pairs);
        while entry.is_some() || !rest.is_empty() {
            let (chunk, more) = rest.split_at(rest.len().min(abi::FK_COPIES_MAX as usize));
            rest = more;
            let mut vars = FkCopies {
                count: chunk.len() as i32,
                ..FkCopies::default()
            };
            for (i, (s, d)) in chunk.iter().enumerate() {
                vars.src[i] = self.var(*s)?;
                vars.dst[i] = self.var(*d)?;
            }
            let (set, desc) = entry.take().unwrap_or((-1, FkGroup::default()));
            let args = kernels::CallCopies {
                g: c.group,
                n,
                marks,
                mark: (set >= 0) as i32,
                set,
                desc,
                src_group: src.group,
                src_base: src.slot_base,
                dst_group: dst.group,
                dst_base: dst.slot_base,
                vars,
            };
            // At the entry a thread is launched even for no members: it sets the descriptor.
            let threads = if set >= 0 { n.max(1) } else { n };
            self.launch_members(threads as u32, &args)?;
        }
        Ok(())
    }

    // ---- the end ----

    /// Waits for the device; reads the printf records and the fault word; sums kernel time.
    pub fn finish(&mut self) -> Result<Finished, GpuError> {
        let t = Instant::now();
        self.stream
            .synchronize()
            .map_err(GpuError::driver("running the kernels"))?;
        self.stats.sync += t.elapsed();
        let top = self.read_elem(self.r.out_top, |m: &FkMachine| &m.out_top, 0)?;
        let overflow = top > self.caps.out;
        let records = self.read(self.r.out, top.min(self.caps.out) as usize)?;
        let f: abi::FkFault = self.read_as(self.r.fault)?;
        let why: abi::FkWhy = self.read_as(self.r.why)?;
        let conflict = match (f.site, why.limit) {
            (0, _) => None,
            (_, abi::FK_CONFLICT) => self.conflict()?,
            _ => None,
        };
        let mut fault = (f.site != 0).then(|| Fault {
            site: (f.site - 1) as usize,
            // A limit names the lowest processor still in the loop (`fk_limit`).
            proc: match why.proc {
                0 => f.proc as u32,
                w => (abi::FK_PROC_MAX - w) as u32,
            },
            rank: f.rank as u32,
            at: f.at as i64,
            value: f.value,
            object: f.object,
            size: f.size as i64,
            cut: vec![f.launch, f.sub],
            conflict: conflict.map(|[(a, wa), (b, wb)]| Conflict {
                procs: (a, b),
                values: (wa.value(), wb.value()),
                site: wb.site as usize,
            }),
            limit: match why.limit {
                abi::FK_LIMIT_STEPS => Some(Limit::Steps(self.limits.max_steps)),
                abi::FK_LIMIT_TIME => self.limits.timeout.map(Limit::Time),
                abi::FK_LIMIT_DEPTH => {
                    Some(Limit::Depth(self.too_deep.unwrap_or(Depth::DeviceFrames {
                        frames: self.device.map_or(0, |d| d.depth),
                        slot_bytes: self.device.map_or(0, |d| d.slot_stack_bytes),
                    })))
                }
                _ => None,
            },
        });
        if let Some(d) = self.device {
            let error: abi::FkError = self.read_as(d.error)?;
            if error.code != 0 {
                return Err(GpuError::Schedule {
                    code: error.code,
                    proc: error.proc as usize,
                    depth: d.depth,
                    frame_heap_bytes: abi::FK_FRAME_HEAP_BYTES,
                });
            }
            if let Some(f) = fault.as_mut() {
                let key: abi::FkFaultKey = self.read_as(d.fault_key)?;
                let pairs = (key.pairs as usize).min(abi::FK_KEY_MAX as usize);
                f.cut = abi::FkKeyPair::words(&key.key[..pairs]);
            }
        }
        for (start, end) in self.kernel_events.drain(..) {
            if let Ok(ms) = start.elapsed_ms(&end) {
                self.stats.kernels += Duration::from_secs_f64(ms as f64 / 1000.0);
            }
        }
        let timeline = self.timeline()?;
        Ok(Finished {
            records,
            fault,
            overflow,
            timeline,
        })
    }

    /// The group instances' timestamps, when they were asked for: under the host schedule
    /// the walk's events with the records of its block regions.
    fn timeline(&mut self) -> Result<Option<Timeline>, GpuError> {
        let Some((recs, count)) = self.trace else {
            return Ok(None);
        };
        if let Some(r) = self.recorder.as_mut() {
            r.stop(&self.stream)
                .map_err(GpuError::driver("recording a timestamp"))?;
        }
        let formed = u64::from(self.read_elem(count, |t: &FkTrace| &t.count, 0)?);
        let kept = formed.min(TRACE_RECORDS);
        let bytes = self.read(recs, (kept * abi::FkTraceRec::BYTES) as usize)?;
        match self.recorder.take() {
            Some(recorder) => recorder
                .finish(&self.stream, &bytes, formed)
                .map(Some)
                .map_err(GpuError::driver("reading the timestamps")),
            None => Ok(Some(timeline::decode_device(&bytes, formed))),
        }
    }
}

/// The first device fault: where, who, and the order key from which output is dropped
/// (host schedule: the launch and segment of a block region; device schedule: the faulting
/// step's key).
pub struct Fault {
    pub site: usize,
    pub proc: u32,
    /// `$$` and `@` of the faulting processor.
    pub rank: u32,
    pub at: i64,
    /// The values the site's message names (`fk_fault_v`): a value, the object (-1/-2 a
    /// private/shared heap block, -3 a variable the checks do not look up) and a heap
    /// block's size.
    pub value: i64,
    pub object: i32,
    pub size: i64,
    pub cut: Vec<u32>,
    /// The fault is a limit the loop at `site` passed.
    pub limit: Option<Limit>,
    /// The fault is a `--crcw common` conflict the write logs name.
    pub conflict: Option<Conflict>,
}

/// `--crcw common`: two processors wrote these values into one cell in one step (R0004);
/// `site` is the second's write.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conflict {
    pub procs: (usize, usize),
    pub values: (i64, i64),
    pub site: usize,
}

/// A limit that stopped a run (docs/gpu-limits.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Limit {
    /// More iterations of one loop than `--max-steps`.
    Steps(u64),
    /// `--timeout`.
    Time(Duration),
    /// A call nested deeper than the run holds (R0008).
    Depth(Depth),
}

/// What a too deep call ran into.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Depth {
    /// The limit on nested calls (host schedule).
    Calls(usize),
    /// A runtime stack of the host schedule filled, this many calls deep.
    Full { what: &'static str, calls: usize },
    /// The device schedule's frames or slot stack of the processor.
    DeviceFrames { frames: i32, slot_bytes: u64 },
}

/// What the device left at the end of a run.
pub struct Finished {
    /// The printf record buffer.
    pub records: Vec<u8>,
    /// The first fault.
    pub fault: Option<Fault>,
    /// The record buffer overflowed (records are missing).
    pub overflow: bool,
    /// The group instances' timestamps (`Config::timestamps`).
    pub timeline: Option<Timeline>,
}

/// A split's stack tops, and the `$` to put back after a `fork` that renumbered it.
pub struct SplitSaved {
    tops: Tops,
    restore_dollar: Option<(i32, u64)>,
}

/// A loop's or a call's stack tops, the members of the enclosing group and their marks,
/// whether its group instance is timestamped; a loop's iterations so far.
pub struct Marked {
    tops: Tops,
    n: i32,
    marks: u64,
    stamped: bool,
    iterations: Cell<u64>,
}

/// A subgroup a split formed: its group, and for timestamps its subgroup index, the split's
/// collective and the split's instruction.
pub struct Sub {
    group: i32,
    index: i64,
    event: u64,
    pc: Pc,
}

impl HostMachine for Machine<'_> {
    type Group = i32;
    type Sub = Sub;
    type SplitSaved = SplitSaved;
    type LoopSaved = Marked;
    type CallSaved = Marked;
    type StartSaved = Tops;
    type Error = GpuError;

    fn at(&mut self, pc: Pc) {
        self.pc = pc;
        if let Some(r) = self.recorder.as_mut() {
            r.at(pc);
        }
    }

    fn launch(&mut self, k: KernelId, c: &Ctx) -> Result<(), GpuError> {
        let k = self.plan.kernel(k);
        let size = self.groups[c.group as usize].size.max(0) as u32;
        let (stream, pc) = (&self.stream, self.pc);
        if let Some(r) = self.recorder.as_mut() {
            r.before_launch(stream, pc)
                .map_err(GpuError::driver("recording a timestamp"))?;
        }
        self.kernel(&k.name, k.mode == fork_frontend::hir::Mode::Sync, *c)?;
        let (stream, pc) = (&self.stream, self.pc);
        match self.recorder.as_mut() {
            Some(r) => r
                .after_launch(stream, pc, size)
                .map_err(GpuError::driver("recording a timestamp")),
            None => Ok(()),
        }
    }

    fn branch(&mut self, cond: VarId, c: &Ctx) -> Result<Option<bool>, GpuError> {
        Ok(self.read_first(*c, cond)?.map(|v| v != 0))
    }

    fn split(
        &mut self,
        kind: &SplitKind,
        shared_frames: &[SharedFrameId],
        c: &Ctx,
    ) -> Result<(Vec<(Sub, usize)>, SplitSaved), GpuError> {
        let c = *c;
        let tops = self.top;
        let n = self.threads(c) as i32;
        let (if_split, key, k, dollar) = match kind {
            SplitKind::If { cond, .. } => (true, *cond, 2i64, None),
            SplitKind::Fork { count, at, dollar } => {
                let k = self.read_first(c, *count)?.unwrap_or(0).max(0) as i64;
                (false, *at, k, *dollar)
            }
        };
        if k as u64 > self.caps.counts {
            return Err(GpuError::Capacity(
                "subgroup table (fork into too many subgroups)",
            ));
        }
        let key = self.var(key)?;
        let (set_dollar, dollar_var) = match dollar {
            Some(d) => (1i32, self.var(d)?),
            None => (0, FkVar::default()),
        };
        let saved = self.alloc_words(n as u64)?;
        let k32 = k as i32;
        let kind_code = if if_split {
            abi::FK_SPLIT_IF
        } else {
            abi::FK_SPLIT_FORK
        };
        let args = kernels::SplitCount {
            g: c.group,
            n,
            slot_base: c.slot_base,
            kind: kind_code,
            key,
            k: k32,
            set_dollar,
            dollar: dollar_var,
            saved,
        };
        self.launch_members(n as u32, &args)?;
        let sizes = if k > 0 {
            self.read_array(self.r.counts, |m: &FkMachine| &m.counts, 0, k as usize)?
        } else {
            Vec::new()
        };
        let total: u64 = sizes.iter().map(|s| *s as u64).sum();
        let member_base = self.alloc_members(total)?;
        let frame = |i: usize| shared_frames.get(i).copied().unwrap_or(SharedFrameId(0));
        let bytes = |f: SharedFrameId| self.plan.storage.shared_frames[f.0 as usize].bytes;
        let (f0, f1) = (frame(0), frame(if if_split { 1 } else { 0 }));
        let stride = align(bytes(f0).max(bytes(f1)), 8);
        let frames = self.alloc_frames(stride * k as u64)?;
        let first = self.alloc_groups(k as usize)? as i32;
        if k > 0 {
            let inherit = if_split as i32;
            let (f0i, f1i) = (f0.0 as i32, f1.0 as i32);
            let args = kernels::SplitRank {
                g: c.group,
                n,
                k: k32,
                first,
                member_base,
                inherit_at: inherit,
                frame0: f0i,
                frame1: f1i,
                frame_base: frames,
                frame_stride: stride,
            };
            self.launch(1, abi::FK_SCAN_THREADS, &args)?;
        }
        let parent_at = self.groups[c.group as usize].at;
        let event = self.recorder.as_mut().map_or(0, |r| r.split());
        let mut off = 0;
        let mut subs = Vec::new();
        for (i, size) in sizes.iter().enumerate() {
            self.groups[first as usize + i] = HostGroup {
                size: *size,
                members: member_base + off,
                at: if if_split { parent_at } else { i as i64 },
            };
            off += *size as u64;
            if *size > 0 {
                let sub = Sub {
                    group: first + i as i32,
                    index: i as i64,
                    event,
                    pc: self.pc,
                };
                subs.push((sub, if if_split { i } else { 0 }));
            }
        }
        let restore_dollar = (set_dollar == 1 && n > 0).then_some((n, saved));
        Ok((
            subs,
            SplitSaved {
                tops,
                restore_dollar,
            },
        ))
    }

    fn enter_subgroup(&mut self, sub: &Sub, _c: &Ctx) -> Result<i32, GpuError> {
        self.stamp_enter(sub.group, Some((sub.pc, sub.index, sub.event)))?;
        Ok(sub.group)
    }

    fn leave_subgroup(&mut self, _sub: &Sub, _inner: &Ctx) -> Result<(), GpuError> {
        self.stamp_leave(true)
    }

    fn restore(&mut self, saved: SplitSaved, c: &Ctx) -> Result<(), GpuError> {
        if let Some((n, words)) = saved.restore_dollar {
            let args = kernels::RestoreDollar {
                g: c.group,
                n,
                saved: words,
            };
            self.launch_members(n as u32, &args)?;
        }
        self.pop(saved.tops);
        Ok(())
    }

    fn loop_begin(&mut self, _l: &LoopHeader, c: &Ctx) -> Result<Marked, GpuError> {
        let tops = self.top;
        let n = self.threads(*c) as i32;
        let marks = self.alloc_words(n as u64)?;
        let args = kernels::MarkActive {
            g: c.group,
            n,
            marks,
        };
        self.launch_members(n as u32, &args)?;
        Ok(Marked {
            tops,
            n,
            marks,
            stamped: false,
            iterations: Cell::new(0),
        })
    }

    fn loop_enter(
        &mut self,
        l: &LoopHeader,
        m: &mut Marked,
        c: &Ctx,
    ) -> Result<(i32, bool), GpuError> {
        let c = *c;
        let (n, marks) = (m.n, m.marks);
        let mut running = None;
        if l.test_first {
            running = Some(self.exit_update(c, n, marks, l.cond, c.group)?);
        }
        let bytes = self.plan.storage.shared_frames[l.shared_frame.0 as usize].bytes;
        let inner = if l.forms_group {
            let args = kernels::LoopKeys {
                g: c.group,
                n,
                marks,
            };
            self.launch_members(n as u32, &args)?;
            let size = self.read_elem(self.r.counts, |m: &FkMachine| &m.counts, 0)?;
            let members = self.alloc_members(size as u64)?;
            let frames = self.alloc_frames(bytes)?;
            let g = self.alloc_groups(1)? as i32;
            let f = l.shared_frame.0 as i32;
            let args = kernels::SplitRank {
                g: c.group,
                n,
                k: 1,
                first: g,
                member_base: members,
                inherit_at: 1,
                frame0: f,
                frame1: f,
                frame_base: frames,
                frame_stride: 0,
            };
            self.launch(1, abi::FK_SCAN_THREADS, &args)?;
            let at = self.groups[c.group as usize].at;
            self.groups[g as usize] = HostGroup { size, members, at };
            running = Some(size > 0);
            g
        } else {
            let p = self.groups[c.group as usize];
            let g = self.push_group(c.group, p.size, p.members, p.at, l.shared_frame)?;
            if running.is_none() {
                running = Some(self.exit_update(c, n, marks, None, c.group)?);
            }
            g
        };
        m.stamped = self.stamp_enter(inner, None)?;
        Ok((inner, running.unwrap_or(false)))
    }

    fn loop_next(&mut self, m: &Marked, c: &Ctx) -> Result<(), GpuError> {
        self.marked_status(*c, m.n, m.marks, FK_CONTINUE, FK_ACTIVE)
    }

    /// A passed limit is a fault of the loop group (`fk_limit_hit`), after which every loop
    /// ends; the fault is reported at the end of the run.
    fn loop_latch(
        &mut self,
        l: &LoopHeader,
        m: &Marked,
        c: &Ctx,
        inner: &Ctx,
    ) -> Result<bool, GpuError> {
        m.iterations.set(m.iterations.get() + 1);
        let why = if self.limits.max_steps > 0 && m.iterations.get() > self.limits.max_steps {
            abi::FK_LIMIT_STEPS
        } else if self
            .limits
            .timeout
            .is_some_and(|t| self.start.elapsed() > t)
        {
            abi::FK_LIMIT_TIME
        } else {
            0
        };
        if why != 0 {
            let site = *self.span_sites.get(&l.span).ok_or_else(|| {
                GpuError::Internal("a loop of the host program has no fault site".into())
            })? as i32;
            let launch = self.launches;
            let args = kernels::LimitHit {
                g: inner.group,
                site,
                why,
                launch,
            };
            self.launch(1, 1, &args)?;
        }
        self.exit_update(*c, m.n, m.marks, l.cond, inner.group)
    }

    fn loop_end(&mut self, m: Marked, c: &Ctx) -> Result<(), GpuError> {
        self.stamp_leave(m.stamped)?;
        self.marked_status(*c, m.n, m.marks, FK_BREAK, FK_ACTIVE)?;
        self.pop(m.tops);
        Ok(())
    }

    fn call(
        &mut self,
        callee: HostFnId,
        args: &[VarId],
        span: Span,
        c: &Ctx,
    ) -> Result<Option<(Ctx, Marked)>, GpuError> {
        let c = *c;
        self.calls.push((span, c.group));
        if self.calls.len() > self.limits.max_depth {
            return Err(GpuError::TooDeep);
        }
        let plan = self.plan;
        let f = plan.function(callee);
        let tops = self.top;
        let n = self.threads(c) as i32;
        let marks = self.alloc_words(n as u64)?;
        let base = c.slot_base + plan.function(c.func).frame_bytes * self.procs;
        let need = base + f.frame_bytes * self.procs;
        if need > self.caps.slots {
            return Err(GpuError::Capacity(
                "call stack of spilled slots (recursion too deep?)",
            ));
        }
        let p = self.groups[c.group as usize];
        let (g, desc) = self.new_group(c.group, p.size, p.members, p.at, f.shared_frame)?;
        let stamped = self.stamp_enter(g, None)?;
        let inner = Ctx {
            group: g,
            slot_base: base,
            seq: c.seq,
            func: callee,
        };
        let params = &plan.program.func(f.func).params;
        let pairs: Vec<(VarId, VarId)> = args.iter().copied().zip(params.iter().copied()).collect();
        self.call_copies(c, n, marks, Some((g, desc)), (c, inner), &pairs)?;
        Ok(Some((
            inner,
            Marked {
                tops,
                n,
                marks,
                stamped,
                iterations: Cell::new(0),
            },
        )))
    }

    fn ret(
        &mut self,
        result: Option<VarId>,
        m: Marked,
        inner: &Ctx,
        c: &Ctx,
    ) -> Result<(), GpuError> {
        self.stamp_leave(m.stamped)?;
        self.marked_status(*c, m.n, m.marks, FK_RETURN, FK_ACTIVE)?;
        if let (Some(r), Some(ret)) = (result, self.plan.function(inner.func).ret) {
            self.call_copies(*c, m.n, m.marks, None, (*inner, *c), &[(ret, r)])?;
        }
        self.pop(m.tops);
        self.calls.pop();
        Ok(())
    }

    fn start(&mut self, shared_frame: SharedFrameId, c: &Ctx) -> Result<(i32, Tops), GpuError> {
        let tops = self.top;
        let g = self.group_of_all(c.group, shared_frame)?;
        self.stamp_enter(g, None)?;
        Ok((g, tops))
    }

    fn seq_begin(&mut self, c: &Ctx) -> Result<(), GpuError> {
        let at = self.groups[c.group as usize].at;
        let Some(r) = self.recorder.as_mut() else {
            return Ok(());
        };
        let event = r.split();
        r.enter(&self.stream, Some(self.pc), 0, at, 1, event)
            .map_err(GpuError::driver("recording a timestamp"))
    }

    fn seq_end(&mut self) -> Result<(), GpuError> {
        self.stamp_leave(true)
    }

    fn start_end(&mut self, tops: Tops, _c: &Ctx) -> Result<(), GpuError> {
        self.stamp_leave(true)?;
        self.pop(tops);
        Ok(())
    }

    fn multiprefix(
        &mut self,
        op: MpOp,
        [ptr, value]: [VarId; 2],
        result: Option<VarId>,
        _span: Span,
        c: &Ctx,
    ) -> Result<(), GpuError> {
        let n = self.threads(*c) as i32;
        if n == 0 {
            return Ok(());
        }
        let (ptr, value) = (self.var(ptr)?, self.var(value)?);
        let (has, res) = match result {
            Some(r) => (1i32, self.var(r)?),
            None => (0, FkVar::default()),
        };
        let args = kernels::Multiprefix {
            g: c.group,
            n,
            slot_base: c.slot_base,
            op: abi::mp_code(op),
            ptr,
            value,
            has_result: has,
            result: res,
        };
        self.launch(1, abi::FK_SCAN_THREADS, &args)
    }

    /// A block region as one kernel of one block (`transform::regions`), with the stack
    /// space its nested groups take reserved above the tops; false when the group does not
    /// fit one block (or `--crcw priority` serialises members).
    fn region(
        &mut self,
        name: &str,
        needs: RegionNeeds,
        kind: RegionKind,
        c: &Ctx,
    ) -> Result<bool, GpuError> {
        let n = self.groups[c.group as usize].size;
        let fits = kind == RegionKind::Grid || n as u32 <= abi::FK_REGION_MAX;
        if self.priority || n <= 0 || !fits {
            return Ok(false);
        }
        let tops = self.top;
        let first = self.alloc_groups(needs.groups as usize)? as i32;
        let members = self.alloc_members(needs.member_lists as u64 * n as u64)?;
        let words = self.alloc_words(needs.word_lists as u64 * n as u64)?;
        let frames = self.reserve_frames(needs.frame_bytes)?;
        let launch = self.launches;
        self.launches += 1;
        if let Some(r) = self.recorder.as_mut() {
            r.region(&self.stream, launch)
                .map_err(GpuError::driver("recording a timestamp"))?;
        }
        let seq = c.seq as i32;
        let args = kernels::RegionKernel {
            g: c.group,
            seq,
            slot_base: c.slot_base,
            launch,
            groups_top: first,
            members_top: members,
            words_top: words,
            frames_top: frames,
        };
        match kind {
            RegionKind::Block => {
                let threads = (n as u32).div_ceil(abi::FK_WARP_THREADS) * abi::FK_WARP_THREADS;
                self.launch_as(name, 1, threads, &args)?;
            }
            RegionKind::Grid => self.launch_grid_region(name, n as u64, &args)?,
        }
        self.stats.regions += 1;
        self.pop(tops);
        // A grid region never declines (fk_g_begin), so nothing is read back.
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::{device_runners, grid_threads};

    #[test]
    fn the_processors_spread_over_every_resident_block_in_whole_warps() {
        use super::abi::{FK_DEVICE_THREADS_GRID as GRID, FK_DEVICE_THREADS_TASKS as TASKS};
        // An H100: 132 SMs, one block of the persistent kernel each.
        assert_eq!(device_runners(4096, 132, TASKS, false), 32);
        assert_eq!(device_runners(1024, 132, TASKS, false), 32);
        assert_eq!(device_runners(8448, 132, TASKS, false), 64);
        assert_eq!(device_runners(8449, 132, TASKS, false), 96);
        assert_eq!(device_runners(1, 132, TASKS, false), 32);
        // At most half a block (of 640 threads); the blocks then run several processors a
        // thread.
        assert_eq!(device_runners(1 << 20, 132, TASKS, false), 320);
        // With a grid region, at most 128: the other 256 threads run its members.
        assert_eq!(device_runners(8449, 132, GRID, true), 96);
        assert_eq!(device_runners(65536, 132, GRID, true), 128);
    }

    #[test]
    fn a_grid_region_spreads_its_members_over_every_sm_in_whole_warps() {
        assert_eq!(grid_threads(1024, 132), 32);
        assert_eq!(grid_threads(8, 132), 32);
        assert_eq!(grid_threads(8448, 132), 64);
        assert_eq!(grid_threads(65536, 132), 256);
        assert_eq!(grid_threads(1 << 20, 132), 256);
    }
}
