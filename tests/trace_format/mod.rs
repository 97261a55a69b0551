//! The trace-event format's rules, checked on a trace of the simulator (PRAM steps) or of the
//! GPU (microseconds): shared by tests/trace.rs and tests/gpu_trace.rs.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub fn u64_of(e: &Value, key: &str) -> u64 {
    e[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is not a count in {e}"))
}

/// A time of the trace: PRAM steps as they are; microseconds (a GPU's trace, `otherData`
/// has `duration_us`) as whole nanoseconds, which they are.
fn time_of(e: &Value, key: &str, real_time: bool) -> u64 {
    if !real_time {
        return u64_of(e, key);
    }
    let us = e[key]
        .as_f64()
        .unwrap_or_else(|| panic!("`{key}` is not a time in {e}"));
    assert!(us >= 0.0, "negative `{key}` in {e}");
    (us * 1e3).round() as u64
}

/// Checks the trace-event format: every event has a known `ph`, `pid`, `tid` and a name;
/// metadata names the process and every track used; complete events (`X`) have times and
/// durations within the run and nest on each track; instant events have a scope; each flow
/// has one start and one end, in that order. Returns the document.
pub fn check_trace_events(json: &str) -> Value {
    let doc: Value = serde_json::from_str(json).expect("the trace is JSON");
    let events = doc["traceEvents"]
        .as_array()
        .expect("traceEvents is a list");
    let real_time = doc["otherData"].get("duration_us").is_some();
    let t = |e: &Value, key: &str| time_of(e, key, real_time);
    let steps = if real_time {
        t(&doc["otherData"], "duration_us")
    } else {
        u64_of(&doc["otherData"], "steps")
    };
    let mut named = BTreeSet::new();
    let mut used = BTreeSet::new();
    let mut slices: BTreeMap<u64, Vec<(u64, u64)>> = BTreeMap::new();
    let mut flows: BTreeMap<u64, (Option<u64>, Option<u64>)> = BTreeMap::new();
    for e in events {
        let name = e["name"].as_str().expect("every event has a name");
        assert!(!name.is_empty(), "empty name: {e}");
        assert_eq!(u64_of(e, "pid"), 1, "one process: {e}");
        let tid = u64_of(e, "tid");
        match e["ph"].as_str() {
            Some("M") => {
                match name {
                    "process_name" => assert_eq!(tid, 0),
                    "thread_name" => assert!(named.insert(tid), "track {tid} named twice"),
                    "thread_sort_index" => {}
                    other => panic!("unknown metadata `{other}`"),
                }
                assert!(e["args"].is_object(), "metadata without args: {e}");
            }
            Some("X") => {
                let (ts, dur) = (t(e, "ts"), t(e, "dur"));
                assert!(ts + dur <= steps, "{e} ends after the run's {steps} steps");
                assert!(e["cat"].is_string(), "no category: {e}");
                slices.entry(tid).or_default().push((ts, ts + dur));
                used.insert(tid);
            }
            Some("i") => {
                assert!(t(e, "ts") <= steps, "{e} after the run");
                match e["s"].as_str() {
                    Some("t") => {
                        used.insert(tid);
                    }
                    Some("g" | "p") => {}
                    _ => panic!("an instant event without a scope: {e}"),
                }
            }
            Some(ph @ ("s" | "f")) => {
                assert!(t(e, "ts") <= steps, "{e} after the run");
                let flow = flows.entry(u64_of(e, "id")).or_default();
                let end = if ph == "s" { &mut flow.0 } else { &mut flow.1 };
                assert!(end.replace(t(e, "ts")).is_none(), "flow end twice: {e}");
                used.insert(tid);
            }
            _ => panic!("unknown phase: {e}"),
        }
    }
    for (id, flow) in flows {
        match flow {
            (Some(from), Some(to)) => assert!(from <= to, "flow {id} goes back in time"),
            _ => panic!("flow {id} lacks an end: {flow:?}"),
        }
    }
    assert!(
        used.is_subset(&named),
        "tracks without a name: {:?}",
        used.difference(&named).collect::<Vec<_>>()
    );
    for (tid, mut spans) in slices {
        // Outer slices first: by begin, then the longer one.
        spans.sort_by_key(|&(b, e)| (b, std::cmp::Reverse(e)));
        let mut open: Vec<(u64, u64)> = Vec::new();
        for (b, e) in spans {
            while open
                .last()
                .is_some_and(|&(_, end)| end <= b && !(end == b && b == e))
            {
                open.pop();
            }
            if let Some(&(ob, oe)) = open.last() {
                assert!(
                    e <= oe,
                    "track {tid}: slice {b}..{e} overlaps {ob}..{oe} without nesting"
                );
            }
            open.push((b, e));
        }
    }
    doc
}
