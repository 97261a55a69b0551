//! Recording a run for `--trace`: the group tree over time, timed by the PRAM clock (the
//! critical-path step count of `--stats`, so sibling subgroups overlap as on a PRAM). The
//! machine calls these hooks where groups split and end, functions are called, asynchronous
//! regions begin and end; each is one branch when tracing is off.

use crate::machine::Machine;
use fork_frontend::hir::FuncId;
use fork_frontend::source::{SourceMap, Span};
use pram_trace::{Construct, Recorder};

/// What to record and how to name places.
#[derive(Debug, Clone, Copy)]
pub struct TraceOptions<'a> {
    /// Shown as the trace's title.
    pub title: &'a str,
    /// The most events (group instances, slices, marks) recorded before the trace is cut.
    pub limit: usize,
    /// To name sites `file:line:col`.
    pub sources: &'a SourceMap,
}

/// The default bound on events: a JSON trace of a few MB (6 MB for a cut quicksort run; up
/// to about 15 MB if nearly all events are group instances, which take five lines each).
pub const DEFAULT_LIMIT: usize = 20_000;

pub struct Tracer<'a> {
    pub rec: Recorder,
    sources: &'a SourceMap,
}

impl<'a> Tracer<'a> {
    pub fn new(options: &TraceOptions<'a>, procs: u32) -> Tracer<'a> {
        Tracer {
            rec: Recorder::new(options.title, procs, options.limit),
            sources: options.sources,
        }
    }

    pub fn site(&self, span: Span) -> String {
        self.sources.location(span).unwrap_or_default()
    }
}

impl Machine<'_> {
    /// A group instance of the processors `members` begins now.
    pub fn trace_group(
        &mut self,
        construct: Construct,
        at: i64,
        members: impl IntoIterator<Item = u32>,
        func: FuncId,
        span: Span,
    ) {
        let Some(t) = &mut self.trace else { return };
        let site = t.site(span);
        let name = &self.prog.func(func).name;
        t.rec
            .enter_group(self.clock, construct, at, members, name, &site);
    }

    /// The executing group splits now (by `construct` at `span`).
    pub fn trace_split(&mut self, construct: Construct, span: Span) {
        let Some(t) = &mut self.trace else { return };
        let site = t.site(span);
        t.rec.enter_split(self.clock, construct, &site);
    }

    /// The executing group calls `func` now.
    pub fn trace_call(&mut self, func: FuncId, span: Span) {
        let Some(t) = &mut self.trace else { return };
        let site = t.site(span);
        t.rec
            .enter_call(self.clock, &self.prog.func(func).name, &site);
    }

    /// The executing group's members run asynchronously from now.
    pub fn trace_async(&mut self, span: Span) {
        let Some(t) = &mut self.trace else { return };
        let site = t.site(span);
        t.rec.enter_async(self.clock, &site);
    }

    /// `processors` members met at the barrier at `span` now.
    pub fn trace_barrier(&mut self, processors: u32, span: Span) {
        let Some(t) = &mut self.trace else { return };
        let site = t.site(span);
        t.rec.barrier(self.clock, processors, &site);
    }

    /// The innermost group, call, split or asynchronous region ends now.
    pub fn trace_leave(&mut self) {
        if let Some(t) = &mut self.trace {
            t.rec.leave(self.clock);
        }
    }
}
