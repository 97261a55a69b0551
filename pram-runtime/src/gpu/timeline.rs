//! Device time per group instance (`--trace`, `--stats` of the `gpu` backend). Both schedules
//! produce the same `Timeline`: every group instance with the instruction that formed it and
//! its time on the GPU's clock, from when it formed to when its last member left it.
//!
//! - device schedule: `%globaltimer` in the persistent kernel (`cuda/fk_schedule.cuh`,
//!   `FkTraceRec`): stamped by the leader action that forms a group, ended by an `atomicMax`
//!   of each member leaving it; only when the driver sets `fk_t`;
//! - host schedule: CUDA events recorded in the stream where the host walk enters and leaves a
//!   group instance (`HostRecorder`), so they time the GPU's work between them, the host's
//!   round trips included; the groups a block region forms inside its kernel are
//!   `FkTraceRec`s as under the device schedule, their times counted from the kernel's start
//!   (`%globaltimer`) and placed at the event recorded before its launch.
//!
//! From a timeline come the time of each Fork function (the group instances its calls
//! formed, inclusive) and a `pram_trace::Trace` in real time.

use super::abi::FkTraceRec;
use cudarc::driver::{CudaEvent, CudaStream};
use fork_frontend::source::{SourceMap, Span};
use pram_trace::{Clock, Construct, Recorder, Trace};
use transform::host_program::{Instr, Pc};
use transform::plan::{AsyncAt, Call, Plan, SplitKind};

/// One group instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The instance it formed in; None for the root group.
    pub parent: Option<usize>,
    /// The host instruction that formed it (a split, a loop's entry, a call, `start`, `seq`); None
    /// for the root group.
    pub pc: Option<Pc>,
    /// A split's subgroup: 0 for `then`, 1 for `else`, the fork's `@`.
    pub index: i64,
    pub at: i64,
    pub size: u32,
    /// The parent's collective that formed it: subgroups of one split share it.
    pub event: u64,
    /// Nanoseconds from the root group's formation.
    pub begin: u64,
    pub end: u64,
}

/// The group instances of a run, in the order they formed (parents before their subgroups).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    pub instances: Vec<Instance>,
    /// The instances' asynchronous regions (`--trace`).
    pub asyncs: Vec<AsyncRun>,
    /// The barriers where an instance's members met (`--trace`).
    pub barriers: Vec<Barrier>,
    /// Records made after the record buffer was full: not in the timeline.
    pub dropped: u64,
}

/// An asynchronous region that a group instance ran: from its previous collective's end to
/// the end of the region's last one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsyncRun {
    pub instance: usize,
    /// Its index in `Plan::traced_asyncs`.
    pub region: usize,
    pub begin: u64,
    pub end: u64,
}

/// The members of a group instance met at a `barrier`: at the end of the kernel launched at
/// `pc`, which ends there, or (a kernel of barrier phases) at its `stop`-th stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Barrier {
    pub instance: usize,
    pub pc: Pc,
    /// Barrier phases: where the first member that stopped at a barrier waits; else 0.
    pub stop: u32,
    pub processors: u32,
    pub time: u64,
}

/// The time of one Fork function: its calls (group instances formed by a call of it; `main`
/// is the root group) and their inclusive time on the GPU's clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionTime {
    pub name: String,
    pub calls: u64,
    pub nanos: u64,
}

/// Bytes of an `FkTraceRec`.
const REC: usize = super::abi::FkTraceRec::BYTES as usize;

/// The device schedule's records (`FkTraceRec`) of `formed` instances and asynchronous
/// regions and barriers, as many as `bytes` holds. Times become nanoseconds from the root's
/// formation; an instance a fault left open ends where the run's last one ended.
pub fn decode_device(bytes: &[u8], formed: u64) -> Timeline {
    use transform::emit_cuda::abi::{FK_REC_ASYNC, FK_REC_BARRIER};
    let kept = (bytes.len() / REC).min(formed as usize);
    let recs: Vec<FkTraceRec> = (0..kept)
        .map(|i| FkTraceRec::from_bytes(&bytes[i * REC..(i + 1) * REC]))
        .collect();
    let origin = recs.first().map_or(0, |r| r.begin);
    let last = recs
        .iter()
        .map(|r| r.begin.max(r.end))
        .max()
        .unwrap_or(origin);
    let time = |t: u64| t.saturating_sub(origin);
    let mut t = Timeline {
        dropped: formed.saturating_sub(kept as u64),
        ..Timeline::default()
    };
    // Record number -> instance. A parent is recorded before what it holds: a larger
    // number is a bad record.
    let mut number: Vec<Option<usize>> = vec![None; kept];
    for (i, r) in recs.iter().enumerate() {
        let parent = usize::try_from(r.parent)
            .ok()
            .filter(|&p| p < i)
            .and_then(|p| number[p]);
        match (r.size, parent) {
            (FK_REC_ASYNC, Some(instance)) => t.asyncs.push(AsyncRun {
                instance,
                region: r.index.max(0) as usize,
                begin: time(r.begin),
                end: time(r.end.max(r.begin)),
            }),
            (FK_REC_BARRIER, Some(instance)) => t.barriers.push(Barrier {
                instance,
                pc: Pc(r.pc.max(0) as u32),
                stop: r.index.max(0) as u32,
                processors: r.at.max(0) as u32,
                time: time(r.begin),
            }),
            (size, _) if size >= 0 => {
                number[i] = Some(t.instances.len());
                t.instances.push(Instance {
                    parent,
                    pc: (r.pc >= 0).then_some(Pc(r.pc as u32)),
                    index: r.index as i64,
                    at: r.at,
                    size: size as u32,
                    event: r.event as u64,
                    begin: time(r.begin),
                    end: time(if r.end == 0 { last } else { r.end.max(r.begin) }),
                });
            }
            _ => {}
        }
    }
    t
}

/// The host schedule's timestamps: CUDA events in the stream where the walk forms and leaves
/// group instances (the walk is nested, so a stack says which instance a leave ends).
pub struct HostRecorder {
    start: CudaEvent,
    instances: Vec<(Instance, CudaEvent, Option<CudaEvent>)>,
    open: Vec<usize>,
    /// Collectives that formed subgroups so far: a split's `event`.
    splits: u64,
    /// The block regions' launches: launch number, the event before it, the instance the
    /// walk was in.
    regions: Vec<(u32, CudaEvent, Option<usize>)>,
    /// The walk's end ([`HostRecorder::stop`]).
    end: Option<CudaEvent>,
    /// `Plan::async_at` (`--trace`; empty: no asynchronous regions and barriers).
    async_at: Vec<AsyncAt>,
    /// The asynchronous regions: instance, region, the event before its first launch and
    /// after its last one.
    asyncs: Vec<(usize, usize, CudaEvent, CudaEvent)>,
    /// Each instance's open asynchronous region (an index into `asyncs`).
    open_async: Vec<Option<usize>>,
    /// The barriers: instance, the launch's instruction, processors, the event after it.
    barriers: Vec<(usize, Pc, u32, CudaEvent)>,
}

/// A block region's launch under the host schedule, for [`with_region_records`].
#[derive(Debug, Clone, Copy)]
pub struct RegionLaunch {
    /// Its launch number (`FkRegion::launch`).
    pub launch: u32,
    /// When the event before its launch completed, in ns from the start.
    pub at: u64,
    /// The instance the walk was in.
    pub parent: Option<usize>,
}

/// The host walk's timeline (its instances, their asynchronous regions and barriers) with
/// the group instances its block regions formed: the `FkTraceRec`s of `formed` (as many as
/// `bytes` holds), in launches' order (ascending launch numbers). A record's times count
/// from its region kernel's start, which is placed at the event recorded before the launch
/// (the kernel starts a little after it: the times are as early as that gap); its parent is
/// an earlier record, or (-1) the instance the walk was in. Each region collective's `event`
/// is numbered after the walk's `splits`. The result is in the order the instances formed,
/// parents first.
pub fn with_region_records(
    walk: Timeline,
    splits: u64,
    launches: &[RegionLaunch],
    bytes: &[u8],
    formed: u64,
) -> Timeline {
    let Timeline {
        mut instances,
        mut asyncs,
        mut barriers,
        ..
    } = walk;
    use transform::emit_cuda::abi::{FK_REC_ASYNC, FK_REC_BARRIER};
    let kept = (bytes.len() / REC).min(formed as usize);
    // Record number -> instance.
    let mut number: Vec<Option<usize>> = vec![None; kept];
    for i in 0..kept {
        let r = FkTraceRec::from_bytes(&bytes[i * REC..(i + 1) * REC]);
        let launch = r.launch.checked_sub(1).and_then(|l| {
            launches
                .binary_search_by_key(&l, |x| x.launch)
                .ok()
                .map(|k| launches[k])
        });
        let Some(launch) = launch else { continue };
        let parent = match usize::try_from(r.parent) {
            Ok(p) if p < i => number[p],
            Ok(_) => None,
            Err(_) => launch.parent,
        };
        let begin = launch.at + r.begin;
        // A region's asynchronous region or barrier (fk_r_trace_async).
        match (r.size, parent) {
            (FK_REC_ASYNC, Some(instance)) => asyncs.push(AsyncRun {
                instance,
                region: r.index.max(0) as usize,
                begin,
                end: launch.at + r.end.max(r.begin),
            }),
            (FK_REC_BARRIER, Some(instance)) => barriers.push(Barrier {
                instance,
                pc: Pc(r.pc.max(0) as u32),
                stop: r.index.max(0) as u32,
                processors: r.at.max(0) as u32,
                time: begin,
            }),
            _ => {}
        }
        if r.size < 0 {
            continue;
        }
        instances.push(Instance {
            parent,
            pc: (r.pc >= 0).then_some(Pc(r.pc as u32)),
            index: r.index as i64,
            at: r.at,
            size: r.size as u32,
            event: splits + 1 + u64::from(r.event),
            begin,
            end: launch.at + r.end.max(r.begin),
        });
        number[i] = Some(instances.len() - 1);
    }
    // In the order they formed: by begin, the walk's first where one is as early (a parent
    // begins no later than its subgroups, and comes first then).
    let mut order: Vec<usize> = (0..instances.len()).collect();
    order.sort_by_key(|&i| instances[i].begin);
    let mut place = vec![0; instances.len()];
    for (k, &i) in order.iter().enumerate() {
        place[i] = k;
    }
    let instances = order
        .iter()
        .map(|&i| Instance {
            parent: instances[i].parent.map(|p| place[p]),
            ..instances[i].clone()
        })
        .collect();
    for a in &mut asyncs {
        a.instance = place[a.instance];
    }
    for b in &mut barriers {
        b.instance = place[b.instance];
    }
    Timeline {
        instances,
        asyncs,
        barriers,
        dropped: formed.saturating_sub(kept as u64),
    }
}

type Driver<T> = Result<T, cudarc::driver::DriverError>;

fn event(stream: &CudaStream) -> Driver<CudaEvent> {
    stream.record_event(Some(cudarc::driver::sys::CUevent_flags::CU_EVENT_DEFAULT))
}

impl HostRecorder {
    /// Starts the clock and the root group of `procs` processors; with `async_at`
    /// (`Plan::async_at`), also its asynchronous regions and barriers.
    pub fn new(stream: &CudaStream, procs: u32, async_at: Vec<AsyncAt>) -> Driver<HostRecorder> {
        let start = event(stream)?;
        let mut r = HostRecorder {
            start,
            instances: Vec::new(),
            open: Vec::new(),
            splits: 0,
            regions: Vec::new(),
            end: None,
            async_at,
            asyncs: Vec::new(),
            open_async: Vec::new(),
            barriers: Vec::new(),
        };
        r.enter(stream, None, 0, 0, procs, 0)?;
        Ok(r)
    }

    /// A new collective that forms subgroups: their shared `event`.
    pub fn split(&mut self) -> u64 {
        self.splits += 1;
        self.splits
    }

    /// An instance formed at `pc` begins now, inside the innermost open one.
    pub fn enter(
        &mut self,
        stream: &CudaStream,
        pc: Option<Pc>,
        index: i64,
        at: i64,
        size: u32,
        event_id: u64,
    ) -> Driver<()> {
        let instance = Instance {
            parent: self.open.last().copied(),
            pc,
            index,
            at,
            size,
            event: event_id,
            begin: 0,
            end: 0,
        };
        self.instances.push((instance, event(stream)?, None));
        self.open.push(self.instances.len() - 1);
        self.open_async.push(None);
        Ok(())
    }

    /// The walk is at `pc` in the innermost open instance: outside the instance's open
    /// asynchronous region, that region has ended (with its last launch).
    pub fn at(&mut self, pc: Pc) {
        let (Some(a), Some(&i)) = (self.async_at.get(pc.0 as usize), self.open.last()) else {
            return;
        };
        if let Some(k) = self.open_async[i] {
            if Some(self.asyncs[k].1) != a.region {
                self.open_async[i] = None;
            }
        }
    }

    /// The kernel at `pc` is launched next: where the instance runs its asynchronous region
    /// first, the region begins.
    pub fn before_launch(&mut self, stream: &CudaStream, pc: Pc) -> Driver<()> {
        let (Some(a), Some(&i)) = (self.async_at.get(pc.0 as usize), self.open.last()) else {
            return Ok(());
        };
        if let (Some(region), None, true) = (a.region, self.open_async[i], a.opens) {
            let begin = event(stream)?;
            let end = event(stream)?;
            self.asyncs.push((i, region, begin, end));
            self.open_async[i] = Some(self.asyncs.len() - 1);
        }
        Ok(())
    }

    /// The kernel at `pc` was launched for a group of `size`: the instance's region goes on
    /// to here; a kernel that ends at a `barrier` is where the members met.
    pub fn after_launch(&mut self, stream: &CudaStream, pc: Pc, size: u32) -> Driver<()> {
        let (Some(a), Some(&i)) = (self.async_at.get(pc.0 as usize), self.open.last()) else {
            return Ok(());
        };
        if a.barrier {
            self.barriers.push((i, pc, size, event(stream)?));
        }
        if let Some(k) = self.open_async[i] {
            self.asyncs[k].3 = event(stream)?;
        }
        Ok(())
    }

    /// The innermost open instance ends now.
    pub fn leave(&mut self, stream: &CudaStream) -> Driver<()> {
        if let Some(i) = self.open.pop() {
            self.instances[i].2 = Some(event(stream)?);
        }
        Ok(())
    }

    /// Block region `launch` is launched next, inside the innermost open instance.
    pub fn region(&mut self, stream: &CudaStream, launch: u32) -> Driver<()> {
        self.regions
            .push((launch, event(stream)?, self.open.last().copied()));
        Ok(())
    }

    /// The walk ends now: before the block regions' records are read back.
    pub fn stop(&mut self, stream: &CudaStream) -> Driver<()> {
        self.end = Some(event(stream)?);
        Ok(())
    }

    /// After the stream finished: the times, with the group instances the block regions
    /// recorded (`FkTraceRec`s of `formed`, as many as `bytes` holds). What is still open
    /// (the root; more after a fault stopped the walk) ends at the walk's end.
    pub fn finish(mut self, stream: &CudaStream, bytes: &[u8], formed: u64) -> Driver<Timeline> {
        let end = match self.end.take() {
            Some(end) => end,
            None => event(stream)?,
        };
        let nanos = |e: &CudaEvent| -> Driver<u64> {
            Ok((self.start.elapsed_ms(e)?.max(0.0) as f64 * 1e6) as u64)
        };
        let last = nanos(&end)?;
        let mut instances = Vec::with_capacity(self.instances.len());
        for (mut i, begin, e) in self.instances.drain(..) {
            i.begin = nanos(&begin)?;
            i.end = match &e {
                Some(e) => nanos(e)?.max(i.begin),
                None => last.max(i.begin),
            };
            instances.push(i);
        }
        let mut launches = Vec::with_capacity(self.regions.len());
        for (launch, e, parent) in &self.regions {
            launches.push(RegionLaunch {
                launch: *launch,
                at: nanos(e)?,
                parent: *parent,
            });
        }
        let mut asyncs = Vec::with_capacity(self.asyncs.len());
        for (instance, region, begin, end) in &self.asyncs {
            let begin = nanos(begin)?;
            asyncs.push(AsyncRun {
                instance: *instance,
                region: *region,
                begin,
                end: nanos(end)?.max(begin),
            });
        }
        let mut barriers = Vec::with_capacity(self.barriers.len());
        for (instance, pc, processors, time) in &self.barriers {
            barriers.push(Barrier {
                instance: *instance,
                pc: *pc,
                stop: 0,
                processors: *processors,
                time: nanos(time)?,
            });
        }
        let walk = Timeline {
            instances,
            asyncs,
            barriers,
            dropped: 0,
        };
        Ok(with_region_records(
            walk,
            self.splits,
            &launches,
            bytes,
            formed,
        ))
    }
}

/// What formed an instance, read from its instruction.
enum Origin {
    Root,
    Call(transform::plan::HostFnId),
    Group(Construct),
}

impl Timeline {
    fn origin(&self, plan: &Plan, i: &Instance) -> Origin {
        let Some(pc) = i.pc else {
            return Origin::Root;
        };
        match plan.host.code.get(pc.0 as usize) {
            Some(Instr::Call(Call { callee, .. })) => Origin::Call(*callee),
            Some(Instr::Split {
                kind: SplitKind::If {
                    loop_group: true, ..
                },
                ..
            }) => Origin::Group(Construct::Loop),
            Some(Instr::Split {
                kind: SplitKind::If { .. },
                ..
            }) if i.index == 1 => Origin::Group(Construct::Else),
            Some(Instr::Split {
                kind: SplitKind::If { .. },
                ..
            }) => Origin::Group(Construct::If),
            Some(Instr::Split { .. }) => Origin::Group(Construct::Fork),
            Some(Instr::StartBegin { .. }) => Origin::Group(Construct::Start),
            Some(Instr::SeqBegin { .. }) => Origin::Group(Construct::Seq),
            _ => Origin::Group(Construct::Loop),
        }
    }

    /// Whether instance `i` is a group of the simulator's trace. The GPU also forms a group
    /// where the simulator's has none, and the trace leaves it out (its subgroups belong to
    /// its parent): the loop group of a loop whose condition is shared (`forms_group` unset:
    /// the same members, for the loop's shared frame), and the subgroup of an empty arm of an
    /// `if` (the members of an `if` without `else` whose condition is false).
    fn shown(&self, plan: &Plan, i: &Instance) -> bool {
        let Some(pc) = i.pc else { return true };
        match plan.host.code.get(pc.0 as usize) {
            Some(Instr::LoopEnter) => plan.host.loop_of(pc).is_none_or(|(h, _)| h.forms_group),
            Some(Instr::Split {
                kind: SplitKind::If { .. },
                arms,
                ..
            }) => arms.get(i.index as usize).is_none_or(|arm| {
                !matches!(plan.host.code.get(arm.0 as usize), Some(Instr::SubgroupEnd))
            }),
            _ => true,
        }
    }

    /// Calls and inclusive time of every Fork function that formed a group instance (`main`
    /// and the `sync` functions the host program calls), in the Plan's order of functions.
    /// A call inside another call of the same function (recursion) counts as a call but not
    /// for time: its time is already in the outer call's.
    pub fn functions(&self, plan: &Plan) -> Vec<FunctionTime> {
        let mut times: Vec<FunctionTime> = plan
            .functions
            .iter()
            .map(|f| FunctionTime {
                name: f.name.clone(),
                calls: 0,
                nanos: 0,
            })
            .collect();
        for i in &self.instances {
            let f = match self.origin(plan, i) {
                Origin::Root => plan.main,
                Origin::Call(f) => f,
                Origin::Group(_) => continue,
            };
            let t = &mut times[f.0 as usize];
            t.calls += 1;
            if !self.inside_call_of(plan, i, f) {
                t.nanos += i.end - i.begin;
            }
        }
        times.retain(|t| t.calls > 0);
        times
    }

    /// Whether instance `i` formed inside a call of `f` (an ancestor is one).
    fn inside_call_of(&self, plan: &Plan, i: &Instance, f: transform::plan::HostFnId) -> bool {
        let mut up = i.parent;
        while let Some(k) = up {
            let a = &self.instances[k];
            if matches!(self.origin(plan, a), Origin::Call(g) if g == f) {
                return true;
            }
            up = a.parent;
        }
        false
    }

    /// The run as a trace in real time (nanoseconds, written as microseconds): each group
    /// instance a track, calls as slices of the calling group, the subgroups of one split
    /// (or a loop's group, or `start`'s) inside a split slice from the first subgroup's
    /// formation to the last one's end. Sibling subgroups that ran at the same time overlap.
    /// A fault (its message and processor) is marked where the run ended.
    pub fn trace(
        &self,
        plan: &Plan,
        sources: &SourceMap,
        title: &str,
        limit: usize,
        fault: Option<(&str, u32)>,
    ) -> Trace {
        let procs = self.instances.first().map_or(0, |r| r.size);
        let mut rec = Recorder::with_clock(title, procs, limit, Clock::Nanoseconds);
        let shown: Vec<bool> = self.instances.iter().map(|i| self.shown(plan, i)).collect();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); self.instances.len()];
        for (id, i) in self.instances.iter().enumerate() {
            if !shown[id] {
                continue;
            }
            // The nearest shown ancestor.
            let mut p = i.parent;
            while let Some(k) = p.filter(|&k| !shown[k]) {
                p = self.instances[k].parent;
            }
            if let Some(p) = p {
                children[p].push(id);
            }
        }
        // An instance's asynchronous regions and barriers, in time order; those of an
        // instance the trace leaves out are its nearest shown ancestor's.
        let nearest_shown = |mut i: usize| {
            while !shown[i] {
                match self.instances[i].parent {
                    Some(p) => i = p,
                    None => break,
                }
            }
            i
        };
        // The executors' regions, and each asynchronous function's: the whole time of the
        // group instance that runs it (the root for `main`, a call's group).
        let mut runs = self.asyncs.clone();
        for (id, i) in self.instances.iter().enumerate() {
            let f = match self.origin(plan, i) {
                Origin::Root => plan.main,
                Origin::Call(f) => f,
                Origin::Group(_) => continue,
            };
            let region = plan.async_regions.iter().position(
                |r| matches!(r.within, transform::plan::AsyncWithin::Function(g) if g == f),
            );
            if let Some(region) = region {
                runs.push(AsyncRun {
                    instance: id,
                    region,
                    begin: i.begin,
                    end: i.end,
                });
            }
        }
        let mut marks: Vec<Vec<(u64, Mark)>> = vec![Vec::new(); self.instances.len()];
        for (k, a) in runs.iter().enumerate() {
            marks[nearest_shown(a.instance)].push((a.begin, Mark::Async(k)));
        }
        for (k, b) in self.barriers.iter().enumerate() {
            marks[nearest_shown(b.instance)].push((b.time, Mark::Barrier(k)));
        }
        for m in &mut marks {
            m.sort_by_key(|(t, _)| *t);
        }
        let end = self.instances.iter().map(|i| i.end).max().unwrap_or(0);
        if let Some(root) = self.instances.first() {
            let main = plan.function(plan.main);
            let site = sources
                .location(plan.program.func(main.func).span)
                .unwrap_or_default();
            rec.enter_group_sized(0, Construct::Main, 0, root.size, &main.name, &site);
            let replay = Replay {
                timeline: self,
                plan,
                sources,
                children: &children,
                marks: &marks,
                runs: &runs,
                asyncs: &plan.traced_asyncs(),
            };
            replay.children(&mut rec, 0, root.begin, root.end);
            rec.leave(root.end);
        }
        if let Some((message, proc)) = fault {
            rec.fault(end, "on the GPU", message, Some(proc), "");
        }
        rec.finish(end)
    }
}

/// An asynchronous region or a barrier of an instance (`Replay::runs`, `Timeline::barriers`).
#[derive(Debug, Clone, Copy)]
enum Mark {
    Async(usize),
    Barrier(usize),
}

/// Where an instance's marks stand while its children are replayed.
#[derive(Default)]
struct Marks {
    next: usize,
    /// The open asynchronous region: its end and how many slices it opened (with the call
    /// of an `async` function: 2).
    open: Option<(u64, usize)>,
    /// The end of the last child replayed: the open region ends no earlier.
    floor: u64,
}

/// Feeds a `Recorder` depth-first: each instance's subgroups and calls inside it, a split's
/// subgroups one after the other (the Recorder nests), each with its own real times; its
/// asynchronous regions around the children that formed in them, and its barriers.
struct Replay<'a> {
    timeline: &'a Timeline,
    plan: &'a Plan,
    sources: &'a SourceMap,
    children: &'a [Vec<usize>],
    marks: &'a [Vec<(u64, Mark)>],
    /// The asynchronous regions the marks name.
    runs: &'a [AsyncRun],
    asyncs: &'a [transform::plan::TracedAsync],
}

impl Replay<'_> {
    fn location(&self, span: Span) -> String {
        self.sources.location(span).unwrap_or_default()
    }

    /// Replays instance `id`'s marks up to time `t` (all of them for `u64::MAX`), kept
    /// inside `[begin, end]`: a region that ended before `t` ends.
    fn marks_until(&self, rec: &mut Recorder, id: usize, t: u64, m: &mut Marks, end: u64) {
        let marks = &self.marks[id];
        let close = |rec: &mut Recorder, m: &mut Marks| {
            if let Some((e, depth)) = m.open.take() {
                for _ in 0..depth {
                    rec.leave(e.max(m.floor).min(end));
                }
            }
        };
        loop {
            let next = marks.get(m.next).map(|(time, _)| *time);
            if let Some((e, _)) = m.open {
                if e < t && next.is_none_or(|n| e <= n) {
                    close(rec, m);
                    continue;
                }
            }
            let Some(at) = next.filter(|&n| n <= t) else {
                break;
            };
            let at = at.min(end);
            match marks[m.next].1 {
                Mark::Async(k) => {
                    close(rec, m);
                    let run = &self.runs[k];
                    let Some(region) = self.asyncs.get(run.region) else {
                        m.next += 1;
                        continue;
                    };
                    let mut depth = 1;
                    if let Some((f, call)) = region.call {
                        let name = &self.plan.program.func(f).name;
                        rec.enter_call(at, name, &self.location(call));
                        depth = 2;
                    }
                    rec.enter_async(at, &self.location(region.span));
                    let run_end = if region.whole_function { end } else { run.end };
                    m.open = Some((run_end.clamp(at, end), depth));
                    m.floor = at;
                }
                Mark::Barrier(k) => {
                    let b = &self.timeline.barriers[k];
                    let span = match self.plan.host.code.get(b.pc.0 as usize) {
                        Some(Instr::Launch(k)) => match self.plan.kernel(*k).ends {
                            transform::plan::CutReason::Barrier(span) => span,
                            _ => self
                                .plan
                                .phase_barriers
                                .iter()
                                .filter(|p| p.kernel == *k)
                                .flat_map(|p| &p.barriers)
                                .find(|(stop, _)| *stop == b.stop)
                                .map(|(_, span)| *span),
                        },
                        _ => None,
                    };
                    let site = span.map(|s| self.location(s)).unwrap_or_default();
                    rec.barrier(at, b.processors, &site);
                }
            }
            m.next += 1;
        }
        if t == u64::MAX {
            close(rec, m);
        }
    }

    fn site(&self, pc: Option<Pc>) -> String {
        let span = match pc.and_then(|pc| self.plan.host.code.get(pc.0 as usize)) {
            Some(
                Instr::Split { span, .. }
                | Instr::Call(Call { span, .. })
                | Instr::SeqBegin { span }
                | Instr::StartBegin { span, .. },
            ) => Some(*span),
            Some(Instr::LoopEnter) => pc
                .and_then(|pc| self.plan.host.loop_of(pc))
                .map(|(h, _)| h.span),
            _ => pc.map(|pc| self.function_span(pc)),
        };
        span.and_then(|s| self.sources.location(s))
            .unwrap_or_default()
    }

    fn function_span(&self, pc: Pc) -> Span {
        let f = self.plan.function(self.plan.host.function_at(pc));
        self.plan.program.func(f.func).span
    }

    fn function(&self, pc: Option<Pc>) -> String {
        let f = pc.map_or(self.plan.main, |pc| self.plan.host.function_at(pc));
        self.plan.function(f).name.clone()
    }

    /// The subgroups and calls of instance `id`, kept inside its `[begin, end]` (timestamps
    /// of different threads may disagree by a little).
    fn children(&self, rec: &mut Recorder, id: usize, begin: u64, end: u64) {
        let instances = &self.timeline.instances;
        let inside = |t: u64| t.clamp(begin, end);
        let kids = &self.children[id];
        let mut marks = Marks::default();
        let mut k = 0;
        while k < kids.len() {
            let first = &instances[kids[k]];
            self.marks_until(rec, id, inside(first.begin), &mut marks, end);
            let construct = match self.timeline.origin(self.plan, first) {
                Origin::Call(callee) => {
                    let (b, e) = (inside(first.begin), inside(first.end));
                    rec.enter_call(b, &self.plan.function(callee).name, &self.site(first.pc));
                    self.children(rec, kids[k], b, e);
                    rec.leave(e);
                    marks.floor = marks.floor.max(e);
                    k += 1;
                    continue;
                }
                Origin::Group(c) => c,
                Origin::Root => Construct::Main,
            };
            // The subgroups one collective formed: the same instruction and parent step.
            let n = kids[k..]
                .iter()
                .take_while(|&&c| {
                    let i = &instances[c];
                    i.pc == first.pc && i.event == first.event
                })
                .count();
            let subs = &kids[k..k + n];
            let split_begin = inside(subs.iter().map(|&c| instances[c].begin).min().unwrap_or(0));
            let split_end = inside(subs.iter().map(|&c| instances[c].end).max().unwrap_or(0));
            let site = self.site(first.pc);
            let function = self.function(first.pc);
            let split_construct = match construct {
                Construct::Else => Construct::If,
                c => c,
            };
            rec.enter_split(split_begin, split_construct, &site);
            for &c in subs {
                let i = &instances[c];
                let (b, e) = (inside(i.begin), inside(i.end));
                let construct = match self.timeline.origin(self.plan, i) {
                    Origin::Group(c) => c,
                    _ => construct,
                };
                rec.enter_group_sized(b, construct, i.at, i.size, &function, &site);
                self.children(rec, c, b, e);
                rec.leave(e);
            }
            rec.leave(split_end);
            marks.floor = marks.floor.max(split_end);
            k += n;
        }
        self.marks_until(rec, id, u64::MAX, &mut marks, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "sync int twice(sh int k) { return 2 * k; }
sync void main(void) {
    int r;
    if ($$ % 2) { r = twice(1); } else { r = 0; }
    fork (2; @ = $$ % 2; $ = $$) { r = twice(@); }
}
";

    fn plan() -> (fork_frontend::Checked, Plan) {
        let checked = fork_frontend::check_source("t.fork", SOURCE, &Default::default())
            .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        (checked, plan)
    }

    /// The pc of the n-th instruction `is` accepts.
    fn pc(plan: &Plan, n: usize, is: impl Fn(&Instr) -> bool) -> i32 {
        let found = plan.host.code.iter().enumerate().filter(|(_, i)| is(i));
        found
            .map(|(pc, _)| pc as i32)
            .nth(n)
            .expect("the instruction")
    }

    /// One `FkTraceRec`: begin, end, @, parent, pc, index, size, event.
    #[allow(clippy::too_many_arguments)]
    fn rec(begin: u64, end: u64, at: i64, parent: i32, pc: i32, index: i32, size: i32) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend(begin.to_le_bytes());
        r.extend(end.to_le_bytes());
        r.extend(at.to_le_bytes());
        for w in [parent, pc, index, size, 7, 0] {
            r.extend(w.to_le_bytes());
        }
        r
    }

    /// What a device-schedule run of SOURCE on 4 processors leaves: the root; the `if`'s two
    /// subgroups at once (the odd members call `twice`); the fork's two subgroups, each
    /// calling `twice`. Times in ns from 1,000,000 on; one record more was formed than kept.
    fn records(plan: &Plan) -> Vec<u8> {
        let split = |n| pc(plan, n, |i| matches!(i, Instr::Split { .. }));
        let call = |n| pc(plan, n, |i| matches!(i, Instr::Call(_)));
        let t = |ns: u64| 1_000_000 + ns;
        [
            rec(t(0), t(9_000), 0, -1, -1, 0, 4),
            rec(t(1_000), t(4_000), 0, 0, split(0), 0, 2),
            rec(t(1_010), t(2_500), 0, 0, split(0), 1, 2),
            rec(t(1_500), t(3_900), 0, 1, call(0), 0, 2),
            rec(t(5_000), t(8_000), 0, 0, split(1), 0, 2),
            rec(t(5_000), t(8_700), 1, 0, split(1), 1, 2),
            rec(t(5_200), t(7_500), 0, 4, call(1), 0, 2),
            // Left open by a fault: ends where the run's last instance ended.
            rec(t(5_300), 0, 1, 5, call(1), 0, 2),
        ]
        .concat()
    }

    #[test]
    fn device_records_decode_relative_to_the_root() {
        let (_, plan) = plan();
        let t = decode_device(&records(&plan), 9);
        assert_eq!(t.instances.len(), 8);
        assert_eq!(t.dropped, 1);
        assert_eq!((t.instances[0].begin, t.instances[0].end), (0, 9_000));
        assert_eq!(t.instances[0].parent, None);
        assert_eq!(t.instances[3].parent, Some(1));
        assert_eq!(t.instances[5].at, 1);
        assert_eq!(
            t.instances[7].end, 9_000,
            "an open instance ends with the run"
        );
    }

    #[test]
    fn functions_sum_their_calls() {
        let (_, plan) = plan();
        let t = decode_device(&records(&plan), 8);
        let times = t.functions(&plan);
        let time = |name: &str| {
            times
                .iter()
                .find(|f| f.name == name)
                .map(|f| (f.calls, f.nanos))
        };
        assert_eq!(time("main"), Some((1, 9_000)));
        assert_eq!(time("twice"), Some((3, 2_400 + 2_300 + 3_700)));
    }

    /// A recursive call's time is inside its caller's: counted once (quicksort's calls
    /// summed 176 s of a 13 s run before).
    #[test]
    fn a_recursive_call_counts_as_a_call_but_not_twice_for_time() {
        let (_, plan) = plan();
        let mut t = decode_device(&records(&plan), 8);
        let call = t.instances[3].clone();
        t.instances.push(Instance {
            parent: Some(3),
            begin: call.begin + 100,
            end: call.end - 100,
            ..call
        });
        let twice = t.functions(&plan).into_iter().find(|f| f.name == "twice");
        assert_eq!(
            twice.map(|f| (f.calls, f.nanos)),
            Some((4, 2_400 + 2_300 + 3_700))
        );
    }

    /// The trace of the records: tracks per group instance, calls on the calling group's
    /// track, each split around its subgroups, times in microseconds.
    #[test]
    fn device_records_become_trace_events() {
        let (checked, plan) = plan();
        let t = decode_device(&records(&plan), 8);
        let trace = t.trace(
            &plan,
            &checked.sources,
            "t.fork -p 4",
            100,
            Some(("division by zero at t.fork:5:40", 3)),
        );
        insta::assert_snapshot!(pram_trace::json::write(&trace));
    }

    /// A `seq` is an instance of one processor (formed by its `seq begin`), as the simulator
    /// traces it.
    #[test]
    fn a_seq_is_a_group_of_one_processor() {
        let checked = fork_frontend::check_source(
            "s.fork",
            "sync void main(void) { sh int x; seq x = 1; }",
            &Default::default(),
        )
        .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let seq = pc(&plan, 0, |i| matches!(i, Instr::SeqBegin { .. }));
        let records = [
            rec(1_000, 9_000, 0, -1, -1, 0, 4),
            rec(2_000, 5_000, 0, 0, seq, 0, 1),
        ]
        .concat();
        let t = decode_device(&records, 2);
        let trace = t.trace(&plan, &checked.sources, "s.fork -p 4", 100, None);
        let json = pram_trace::json::write(&trace);
        assert!(
            json.contains("\"name\":\"split: seq (1 subgroup)\""),
            "{json}"
        );
        assert!(json.contains("\"construct\":\"seq\""), "{json}");
        assert!(json.contains("\"size\":1"), "{json}");
    }

    /// One `FkTraceRec` of a block region: begin, end (from the kernel's start), parent,
    /// pc, index, size, event, 1 + launch.
    #[allow(clippy::too_many_arguments)]
    fn region_rec(
        b: u64,
        e: u64,
        parent: i32,
        pc: i32,
        index: i32,
        size: i32,
        event: u32,
        launch: u32,
    ) -> Vec<u8> {
        let mut r = rec(b, e, 0, parent, pc, index, size);
        r[40..44].copy_from_slice(&event.to_le_bytes());
        r[44..48].copy_from_slice(&launch.to_le_bytes());
        r
    }

    /// The host schedule's block regions: their records join the walk's instances, each
    /// placed at its launch's event, a record with parent -1 inside the instance the walk
    /// was in, the others inside their region parents; all in the order they formed, and the
    /// regions' collectives numbered after the walk's splits. Their asynchronous regions and
    /// barriers, and the walk's, follow their instances into that order.
    #[test]
    fn region_records_join_the_host_walk() {
        use transform::emit_cuda::abi::{FK_REC_ASYNC, FK_REC_BARRIER};
        let (_, plan) = plan();
        let split = pc(&plan, 0, |i| matches!(i, Instr::Split { .. }));
        let walk = |parent, begin, end| Instance {
            parent,
            pc: None,
            index: 0,
            at: 0,
            size: 4,
            event: 1,
            begin,
            end,
        };
        // The root, and a call's group (from 1,000 to 9,000 ns) in which region launch 7 ran
        // from 2,000 ns on; region launch 3 ran in the root at 500 ns.
        let instances = vec![walk(None, 0, 10_000), walk(Some(0), 1_000, 9_000)];
        let launches = [
            RegionLaunch {
                launch: 3,
                at: 500,
                parent: Some(0),
            },
            RegionLaunch {
                launch: 7,
                at: 2_000,
                parent: Some(1),
            },
        ];
        let records = [
            // Launch 7: an if's two subgroups (records 0, 1), a loop group in the first (2).
            region_rec(100, 900, -1, split, 0, 3, 0, 8),
            region_rec(100, 400, -1, split, 1, 1, 0, 8),
            region_rec(200, 800, 0, split, 0, 3, 2, 8),
            // Launch 3.
            region_rec(10, 50, -1, split, 0, 4, 3, 4),
            // Launch 7: an asynchronous region of the `if`'s first subgroup (record 0);
            // launch 3: a barrier of the root's members (-1: the walk's instance).
            region_rec(300, 700, 0, split, 2, FK_REC_ASYNC, 0, 8),
            region_rec(20, 20, -1, split, 0, FK_REC_BARRIER, 0, 4),
        ]
        .concat();
        // The walk's own asynchronous region, of the call's group (walk instance 1).
        let run = AsyncRun {
            instance: 1,
            region: 1,
            begin: 1_100,
            end: 1_900,
        };
        let walk = Timeline {
            instances,
            asyncs: vec![run],
            ..Timeline::default()
        };
        let t = with_region_records(walk, 5, &launches, &records, 7);
        let runs: Vec<(usize, usize, u64, u64)> = t
            .asyncs
            .iter()
            .map(|a| (a.instance, a.region, a.begin, a.end))
            .collect();
        assert_eq!(runs, [(2, 1, 1_100, 1_900), (3, 2, 2_300, 2_700)]);
        let barriers: Vec<(usize, u64)> = t.barriers.iter().map(|b| (b.instance, b.time)).collect();
        assert_eq!(barriers, [(0, 520)]);
        assert_eq!(t.dropped, 1);
        let got: Vec<(Option<usize>, u64, u64, u64, u32)> = t
            .instances
            .iter()
            .map(|i| (i.parent, i.begin, i.end, i.event, i.size))
            .collect();
        assert_eq!(
            got,
            [
                (None, 0, 10_000, 1, 4),
                (Some(0), 510, 550, 9, 4),
                (Some(0), 1_000, 9_000, 1, 4),
                (Some(2), 2_100, 2_900, 6, 3),
                (Some(2), 2_100, 2_400, 6, 1),
                (Some(3), 2_200, 2_800, 8, 3),
            ]
        );
    }

    /// A group's asynchronous region and barrier (device schedule, `--trace`): records that
    /// are no group instance (`size` FK_REC_ASYNC, FK_REC_BARRIER) of their parent's time,
    /// numbered among the instances; the trace has the region as an `async` slice of the
    /// group at the simulator's site (the `farm`'s body) and the barrier as an instant at
    /// the `barrier` statement.
    #[test]
    fn asynchronous_regions_and_barriers_decode_onto_their_group() {
        use transform::emit_cuda::abi::{FK_REC_ASYNC, FK_REC_BARRIER};
        let checked = fork_frontend::check_source(
            "f.fork",
            "sh int a[4];\nsync void main(void) {\n    farm { a[$$] = 1; barrier; a[$$] = 2; }\n    if ($$ % 2) a[$$] = 3;\n}\n",
            &Default::default(),
        )
        .unwrap_or_else(|_| panic!("checks"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("plan"));
        let launch = |n| pc(&plan, n, |i| matches!(i, Instr::Launch(_)));
        let split = pc(&plan, 0, |i| matches!(i, Instr::Split { .. }));
        let mark = |kind: i32, begin: u64, end: u64, at: i64, pc: i32, index: i32| {
            let mut r = rec(begin, end, at, 0, pc, index, kind);
            r[40..44].copy_from_slice(&0u32.to_le_bytes());
            r
        };
        let records = [
            rec(1_000, 9_000, 0, -1, -1, 0, 4),
            mark(FK_REC_BARRIER, 2_000, 2_000, 4, launch(0), 0),
            mark(FK_REC_ASYNC, 1_100, 3_000, 0, launch(0), 0),
            rec(4_000, 5_000, 0, 0, split, 0, 2),
        ]
        .concat();
        let t = decode_device(&records, 4);
        assert_eq!(t.instances.len(), 2, "{t:?}");
        assert_eq!(t.instances[1].parent, Some(0));
        assert_eq!(
            t.asyncs,
            [AsyncRun {
                instance: 0,
                region: 0,
                begin: 100,
                end: 2_000
            }]
        );
        assert_eq!(
            t.barriers,
            [Barrier {
                instance: 0,
                pc: Pc(launch(0) as u32),
                stop: 0,
                processors: 4,
                time: 1_000
            }]
        );
        let trace = t.trace(&plan, &checked.sources, "f.fork -p 4", 100, None);
        let json = pram_trace::json::write(&trace);
        assert!(
            json.contains("\"site\":\"f.fork:3:10\"},\"cat\":\"async\""),
            "{json}"
        );
        assert!(
            json.contains(
                "{\"args\":{\"processors\":4,\"site\":\"f.fork:3:23\"},\"cat\":\"barrier\""
            ),
            "{json}"
        );
        // The region ends before the `if` splits the group.
        let region = trace
            .slices
            .iter()
            .find(|s| s.kind == pram_trace::SliceKind::Async)
            .expect("the region");
        assert_eq!((region.begin, region.end), (100, 2_000));
    }

    #[test]
    fn the_event_limit_cuts_the_trace() {
        let (checked, plan) = plan();
        let t = decode_device(&records(&plan), 8);
        let trace = t.trace(&plan, &checked.sources, "t", 4, None);
        assert!(trace
            .cut_text()
            .is_some_and(|s| s.contains("limit of 4 events") && s.contains(" us")));
    }
}
