//! The Chrome / Perfetto trace-event JSON format (the "JSON Object Format" that
//! ui.perfetto.dev and chrome://tracing open). One process is the run; each group instance is a
//! thread (a track) named after its construct, `@` and size, ordered parents first. Groups,
//! calls, splits (until the restore) and asynchronous regions are complete events (`ph: X`);
//! barriers, the fault and a cut are instant events (`ph: i`); a flow (`ph: s` on the split,
//! `ph: f` on the subgroup) links each split to its subgroups. `ts` and `dur` count PRAM steps
//! (viewers show a step as 1 µs), or microseconds for a trace of real time (a GPU's, with
//! fractions down to the nanosecond). One event per line, so that traces diff well.

use crate::{Clock, Group, MarkKind, SliceKind, Trace};
use serde_json::{json, Value};

/// The run's process id.
const PID: u32 = 1;

/// The track of group `g` (tid 0 is left to the process itself).
fn tid(g: usize) -> usize {
    g + 1
}

pub fn write(trace: &Trace) -> String {
    let events = events(trace);
    let mut s = String::from("{\"traceEvents\":[\n");
    for (i, e) in events.iter().enumerate() {
        if i > 0 {
            s.push_str(",\n");
        }
        s.push_str(&e.to_string());
    }
    s.push_str("\n],\n\"otherData\":");
    let mut other = json!({
        "title": trace.title,
        "processors": trace.procs,
        "group_instances": trace.groups.len(),
    });
    match trace.clock {
        Clock::Steps => {
            other["time_unit"] = json!("PRAM step (shown as 1 us)");
            other["steps"] = json!(trace.end);
        }
        Clock::Nanoseconds => {
            other["time_unit"] = json!("microsecond (GPU timestamps)");
            other["duration_us"] = time(trace.clock, trace.end);
        }
    }
    if let Some(text) = trace.cut_text() {
        other["cut"] = Value::String(text);
    }
    s.push_str(&other.to_string());
    s.push_str("}\n");
    s
}

/// A time as a trace-event `ts` or `dur`: steps as they are, nanoseconds as microseconds.
fn time(clock: Clock, t: u64) -> Value {
    match clock {
        Clock::Steps => json!(t),
        Clock::Nanoseconds => json!(t as f64 / 1e3),
    }
}

/// `g3 fork @1 (8 processors) in qsort`.
fn track_name(id: usize, g: &Group) -> String {
    format!(
        "g{id} {} ({} processor{}) in {}",
        g.label(),
        g.size,
        if g.size == 1 { "" } else { "s" },
        g.function
    )
}

fn events(trace: &Trace) -> Vec<Value> {
    let t = |v: u64| time(trace.clock, v);
    let mut out = vec![json!({
        "name": "process_name", "ph": "M", "pid": PID, "tid": 0,
        "args": {"name": trace.title},
    })];
    for (id, g) in trace.groups.iter().enumerate() {
        out.push(json!({
            "name": "thread_name", "ph": "M", "pid": PID, "tid": tid(id),
            "args": {"name": track_name(id, g)},
        }));
        out.push(json!({
            "name": "thread_sort_index", "ph": "M", "pid": PID, "tid": tid(id),
            "args": {"sort_index": id},
        }));
    }
    for (id, g) in trace.groups.iter().enumerate() {
        let mut args = json!({
            "group": id,
            "construct": g.construct.name(),
            "@": g.at,
            "size": g.size,
            "function": g.function,
            "site": g.site,
        });
        if !g.members.is_empty() {
            args["processors"] = json!(g.members_text());
        }
        if let Some(p) = g.parent {
            args["parent"] = json!(p);
        }
        out.push(json!({
            "name": g.label(), "cat": "group", "ph": "X",
            "ts": t(g.begin), "dur": t(g.end - g.begin), "pid": PID, "tid": tid(id),
            "args": args,
        }));
    }
    // A flow arrow from each split to each of its subgroups, so viewers link the tracks.
    for (id, g) in trace.groups.iter().enumerate() {
        if let (Some(s), Some(parent)) = (g.split, g.parent) {
            out.push(json!({
                "name": "subgroup", "cat": "split", "ph": "s", "id": id,
                "ts": t(trace.slices[s].begin), "pid": PID, "tid": tid(parent),
            }));
            out.push(json!({
                "name": "subgroup", "cat": "split", "ph": "f", "bp": "e", "id": id,
                "ts": t(g.begin), "pid": PID, "tid": tid(id),
            }));
        }
    }
    for s in &trace.slices {
        let (cat, args) = match &s.kind {
            SliceKind::Call { function } => ("call", json!({"function": function, "site": s.site})),
            SliceKind::Split {
                construct,
                subgroups,
            } => (
                "split",
                json!({"construct": construct.name(), "subgroups": subgroups, "site": s.site}),
            ),
            SliceKind::Async => ("async", json!({"site": s.site})),
        };
        out.push(json!({
            "name": s.name(), "cat": cat, "ph": "X",
            "ts": t(s.begin), "dur": t(s.end - s.begin), "pid": PID, "tid": tid(s.group),
            "args": args,
        }));
    }
    for m in &trace.marks {
        let (name, cat, args) = match &m.kind {
            MarkKind::Barrier { processors } => (
                "barrier".to_string(),
                "barrier",
                json!({"processors": processors, "site": m.site}),
            ),
            MarkKind::Fault {
                code,
                message,
                processor,
            } => (
                format!("fault {code}"),
                "fault",
                json!({"code": code, "message": message, "processor": processor, "site": m.site}),
            ),
        };
        // A mark on a group is drawn on its track; one outside any group on the whole run.
        let (tid, scope) = match m.group {
            Some(g) => (tid(g), "t"),
            None => (0, "g"),
        };
        out.push(json!({
            "name": name, "cat": cat, "ph": "i", "s": scope,
            "ts": t(m.time), "pid": PID, "tid": tid, "args": args,
        }));
    }
    if let (Some(cut), Some(text)) = (trace.cut, trace.cut_text()) {
        out.push(json!({
            "name": "trace cut", "cat": "cut", "ph": "i", "s": "g",
            "ts": t(cut.time), "pid": PID, "tid": 0, "args": {"message": text},
        }));
    }
    out
}
