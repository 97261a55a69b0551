//! pram-trace: pictures of a PRAM run. The model is the group tree over time: group
//! instances (which processors, `@`, size, the construct that made them), and on each group
//! its slices (function calls, splits until the restore, asynchronous regions) and marks
//! (barriers, a fault), all timed in PRAM steps. Two writers read it: `json` (the Chrome /
//! Perfetto trace-event format) and `svg` (processors against steps, in the spirit of Fork's
//! `trv`).
//!
//! This crate knows nothing of the simulator: a `Recorder` is fed begin/end events in the
//! order they happen, so any executor that can time its groups (the simulator's step clock, a
//! GPU's timestamps) produces the same `Trace`. The `Clock` says what a unit of time is.

pub mod json;
mod record;
pub mod svg;

pub use record::Recorder;

use std::ops::Range;
use std::path::Path;

/// The construct that made a group instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Construct {
    /// The root group: all processors running `main`.
    Main,
    Start,
    /// The `then` branch of a private `if`.
    If,
    /// The `else` branch of a private `if`.
    Else,
    Loop,
    Switch,
    Fork,
    Seq,
}

impl Construct {
    pub fn name(self) -> &'static str {
        match self {
            Construct::Main => "main",
            Construct::Start => "start",
            Construct::If => "if",
            Construct::Else => "else",
            Construct::Loop => "loop",
            Construct::Switch => "switch",
            Construct::Fork => "fork",
            Construct::Seq => "seq",
        }
    }
}

/// Index into `Trace::groups`.
pub type GroupId = usize;

/// One group instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group it split from; None for the root.
    pub parent: Option<GroupId>,
    /// The split (an index into `Trace::slices`) that made it; None for the root and for
    /// groups made outside a recorded split.
    pub split: Option<usize>,
    /// 0 for the root.
    pub depth: u32,
    pub construct: Construct,
    /// `@`.
    pub at: i64,
    /// `groupsize()`.
    pub size: u32,
    /// Its processors (`__PROC_NR__`), as ascending disjoint ranges; empty when the executor
    /// knows only the size (the GPU).
    pub members: Vec<Range<u32>>,
    /// The function the group was made in.
    pub function: String,
    /// Where the construct is (`file:line:col`).
    pub site: String,
    pub begin: u64,
    pub end: u64,
}

impl Group {
    /// `fork @1`, `if @0`.
    pub fn label(&self) -> String {
        format!("{} @{}", self.construct.name(), self.at)
    }

    /// The members as text: `0-15`, `3`, `0-3, 8-11`, or `0-3, ... (40 ranges) ... 250-255`.
    pub fn members_text(&self) -> String {
        let range = |r: &Range<u32>| match r.end - r.start {
            1 => r.start.to_string(),
            _ => format!("{}-{}", r.start, r.end - 1),
        };
        match self.members.as_slice() {
            [] => String::new(),
            rs if rs.len() <= 4 => rs.iter().map(range).collect::<Vec<_>>().join(", "),
            rs => format!(
                "{}, ... ({} ranges) ... {}",
                range(&rs[0]),
                rs.len(),
                range(&rs[rs.len() - 1])
            ),
        }
    }
}

/// What a slice of a group's time is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SliceKind {
    /// The group runs a function it called.
    Call { function: String },
    /// The group is split into subgroups, from the split to the restore.
    Split {
        construct: Construct,
        subgroups: u32,
    },
    /// The group's members run asynchronously (`farm`, an `async` function, `main` before
    /// `start`); the slice ends at the barrier where they meet again.
    Async,
}

/// A stretch of one group's time; slices of one group nest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slice {
    pub group: GroupId,
    pub kind: SliceKind,
    pub site: String,
    pub begin: u64,
    pub end: u64,
}

impl Slice {
    pub fn name(&self) -> String {
        match &self.kind {
            SliceKind::Call { function } => function.clone(),
            SliceKind::Split {
                construct,
                subgroups,
            } => format!(
                "split: {} ({subgroups} subgroup{})",
                construct.name(),
                if *subgroups == 1 { "" } else { "s" }
            ),
            SliceKind::Async => "asynchronous".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkKind {
    /// Processors of an asynchronous region met at a barrier.
    Barrier { processors: u32 },
    /// The run stopped with a fault.
    Fault {
        code: String,
        message: String,
        processor: Option<u32>,
    },
}

/// A point in time on a group (or on the whole run, when `group` is None).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    pub group: Option<GroupId>,
    pub time: u64,
    pub site: String,
    pub kind: MarkKind,
}

/// What the times of a trace count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// PRAM steps (the simulator's critical-path clock).
    #[default]
    Steps,
    /// Nanoseconds of real time (a GPU's timestamps), from the run's start.
    Nanoseconds,
}

impl Clock {
    /// A time as text: `step 57`, `1.234 ms`.
    pub fn text(self, t: u64) -> String {
        match self {
            Clock::Steps => format!("step {t}"),
            Clock::Nanoseconds if t >= 1_000_000 => format!("{:.3} ms", t as f64 / 1e6),
            Clock::Nanoseconds => format!("{:.3} us", t as f64 / 1e3),
        }
    }
}

/// The recording stopped early: it reached its limit of events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    pub time: u64,
    pub limit: usize,
}

/// A recorded run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// What ran, e.g. `quicksort.fork, P = 32`.
    pub title: String,
    pub procs: u32,
    pub clock: Clock,
    /// The time the run ended at (also when the trace was cut before).
    pub end: u64,
    /// In the order they began: parents before their subgroups.
    pub groups: Vec<Group>,
    /// In the order they began.
    pub slices: Vec<Slice>,
    pub marks: Vec<Mark>,
    pub cut: Option<Cut>,
}

impl Trace {
    /// The sentence telling that the trace was cut, if it was.
    pub fn cut_text(&self) -> Option<String> {
        self.cut.map(|c| {
            format!(
                "the trace was cut at {}: it reached its limit of {} events; the run went on to {}",
                self.clock.text(c.time),
                c.limit,
                self.clock.text(self.end)
            )
        })
    }
}

/// The file formats a trace is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Chrome / Perfetto trace-event JSON.
    Json,
    /// A self-contained SVG picture.
    Svg,
}

impl Format {
    /// The format a file name asks for, by its extension.
    pub fn of_path(path: &Path) -> Result<Format, String> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        match ext.to_ascii_lowercase().as_str() {
            "json" => Ok(Format::Json),
            "svg" => Ok(Format::Svg),
            _ => Err(format!(
                "cannot tell the trace format of `{}`: name the file `*.json` (trace events for ui.perfetto.dev or chrome://tracing) or `*.svg` (a picture)",
                path.display()
            )),
        }
    }

    pub fn write(self, trace: &Trace) -> String {
        match self {
            Format::Json => json::write(trace),
            Format::Svg => svg::write(trace),
        }
    }
}
