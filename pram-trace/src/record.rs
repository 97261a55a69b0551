//! Building a `Trace` from begin/end events as they happen. Groups and slices nest (a split's
//! subgroups run inside it, a call inside its group), so the recorder keeps a stack of what is
//! open; `leave` closes the innermost. A bound on the number of events keeps a trace of a long
//! run small: at the bound everything open is closed, the cut is noted, and the rest of the run
//! is not recorded (except a fault, which is always kept).

use crate::{Clock, Construct, Cut, Group, GroupId, Mark, MarkKind, Slice, SliceKind, Trace};
use std::ops::Range;

#[derive(Debug, Clone, Copy)]
enum Open {
    Group(GroupId),
    Slice(usize),
}

#[derive(Debug)]
pub struct Recorder {
    trace: Trace,
    open: Vec<Open>,
    limit: usize,
}

impl Recorder {
    /// A recorder for a run of `procs` processors keeping at most `limit` events (groups,
    /// slices and marks).
    pub fn new(title: &str, procs: u32, limit: usize) -> Recorder {
        Recorder::with_clock(title, procs, limit, Clock::Steps)
    }

    /// A recorder whose times count `clock`'s units.
    pub fn with_clock(title: &str, procs: u32, limit: usize, clock: Clock) -> Recorder {
        Recorder {
            trace: Trace {
                title: title.into(),
                procs,
                clock,
                end: 0,
                groups: Vec::new(),
                slices: Vec::new(),
                marks: Vec::new(),
                cut: None,
            },
            open: Vec::new(),
            limit,
        }
    }

    fn events(&self) -> usize {
        self.trace.groups.len() + self.trace.slices.len() + self.trace.marks.len()
    }

    /// Whether one more event may be recorded; cuts the trace when not.
    fn room(&mut self, time: u64) -> bool {
        if self.trace.cut.is_some() {
            return false;
        }
        if self.events() < self.limit {
            return true;
        }
        self.close_all(time);
        self.trace.cut = Some(Cut {
            time,
            limit: self.limit,
        });
        false
    }

    fn close_all(&mut self, time: u64) {
        while !self.open.is_empty() {
            self.leave(time);
        }
    }

    /// The innermost open group.
    fn current(&self) -> Option<GroupId> {
        self.open.iter().rev().find_map(|o| match o {
            Open::Group(g) => Some(*g),
            Open::Slice(_) => None,
        })
    }

    /// A group instance begins: a subgroup of the innermost open group (the root when none is
    /// open). `members` are its processors' numbers.
    pub fn enter_group(
        &mut self,
        time: u64,
        construct: Construct,
        at: i64,
        members: impl IntoIterator<Item = u32>,
        function: &str,
        site: &str,
    ) {
        let mut procs: Vec<u32> = members.into_iter().collect();
        procs.sort_unstable();
        let size = procs.len() as u32;
        self.enter_group_of(time, construct, at, (size, ranges(&procs)), function, site);
    }

    /// A group instance of `size` processors whose numbers are not known begins (see
    /// `enter_group`).
    pub fn enter_group_sized(
        &mut self,
        time: u64,
        construct: Construct,
        at: i64,
        size: u32,
        function: &str,
        site: &str,
    ) {
        self.enter_group_of(time, construct, at, (size, Vec::new()), function, site);
    }

    fn enter_group_of(
        &mut self,
        time: u64,
        construct: Construct,
        at: i64,
        (size, members): (u32, Vec<Range<u32>>),
        function: &str,
        site: &str,
    ) {
        if !self.room(time) {
            return;
        }
        let mut split = None;
        if let Some(&Open::Slice(s)) = self.open.last() {
            if let SliceKind::Split { subgroups, .. } = &mut self.trace.slices[s].kind {
                *subgroups += 1;
                split = Some(s);
            }
        }
        let parent = self.current();
        let group = Group {
            parent,
            split,
            depth: parent.map_or(0, |p| self.trace.groups[p].depth + 1),
            construct,
            at,
            size,
            members,
            function: function.into(),
            site: site.into(),
            begin: time,
            end: time,
        };
        self.trace.groups.push(group);
        self.open.push(Open::Group(self.trace.groups.len() - 1));
    }

    fn enter_slice(&mut self, time: u64, kind: SliceKind, site: &str) {
        if !self.room(time) {
            return;
        }
        let Some(group) = self.current() else {
            return;
        };
        self.trace.slices.push(Slice {
            group,
            kind,
            site: site.into(),
            begin: time,
            end: time,
        });
        self.open.push(Open::Slice(self.trace.slices.len() - 1));
    }

    /// The innermost group calls `function`.
    pub fn enter_call(&mut self, time: u64, function: &str, site: &str) {
        let kind = SliceKind::Call {
            function: function.into(),
        };
        self.enter_slice(time, kind, site);
    }

    /// The innermost group splits; its subgroups are the groups entered until the matching
    /// `leave` (the restore).
    pub fn enter_split(&mut self, time: u64, construct: Construct, site: &str) {
        let kind = SliceKind::Split {
            construct,
            subgroups: 0,
        };
        self.enter_slice(time, kind, site);
    }

    /// The innermost group's members run asynchronously until the matching `leave`.
    pub fn enter_async(&mut self, time: u64, site: &str) {
        self.enter_slice(time, SliceKind::Async, site);
    }

    /// Ends the innermost open group or slice.
    pub fn leave(&mut self, time: u64) {
        match self.open.pop() {
            Some(Open::Group(g)) => self.trace.groups[g].end = time,
            Some(Open::Slice(s)) => self.trace.slices[s].end = time,
            None => {}
        }
    }

    /// `processors` members of the innermost group met at a barrier.
    pub fn barrier(&mut self, time: u64, processors: u32, site: &str) {
        if !self.room(time) {
            return;
        }
        let mark = Mark {
            group: self.current(),
            time,
            site: site.into(),
            kind: MarkKind::Barrier { processors },
        };
        self.trace.marks.push(mark);
    }

    /// The run stopped with a fault; recorded even when the trace was cut.
    pub fn fault(
        &mut self,
        time: u64,
        code: &str,
        message: &str,
        processor: Option<u32>,
        site: &str,
    ) {
        let mark = Mark {
            group: self.current(),
            time,
            site: site.into(),
            kind: MarkKind::Fault {
                code: code.into(),
                message: message.into(),
                processor,
            },
        };
        self.trace.marks.push(mark);
    }

    /// The run ended at step `time`: what is still open ends there.
    pub fn finish(mut self, time: u64) -> Trace {
        self.close_all(time);
        self.trace.end = time;
        self.trace
    }
}

/// Sorted processor numbers as ascending disjoint ranges.
fn ranges(procs: &[u32]) -> Vec<Range<u32>> {
    let mut out: Vec<Range<u32>> = Vec::new();
    for &p in procs {
        match out.last_mut() {
            Some(r) if r.end == p => r.end += 1,
            Some(r) if r.end > p => {}
            _ => out.push(p..p + 1),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_become_ranges() {
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8]), vec![0..3, 5..6, 7..9]);
        assert_eq!(ranges(&[3, 3, 4]), vec![3..5]);
        assert_eq!(ranges(&[]), Vec::<Range<u32>>::new());
    }

    #[test]
    fn subgroups_nest_and_are_counted() {
        let mut r = Recorder::new("t", 4, 100);
        r.enter_group(0, Construct::Main, 0, 0..4, "main", "a:1:1");
        r.enter_split(2, Construct::If, "a:2:1");
        r.enter_group(2, Construct::If, 0, [0, 1], "main", "a:2:1");
        r.leave(5);
        r.enter_group(2, Construct::Else, 0, [3, 2], "main", "a:2:1");
        r.leave(9);
        r.leave(9);
        let t = r.finish(10);
        assert_eq!(t.groups[1].parent, Some(0));
        assert_eq!(t.groups[1].split, Some(0));
        assert_eq!(t.groups[0].split, None);
        assert_eq!(t.groups[2].members, vec![2..4]);
        assert_eq!(t.groups[2].depth, 1);
        assert_eq!((t.groups[0].begin, t.groups[0].end), (0, 10));
        assert_eq!(
            t.slices[0].kind,
            SliceKind::Split {
                construct: Construct::If,
                subgroups: 2
            }
        );
        assert_eq!((t.slices[0].begin, t.slices[0].end), (2, 9));
        assert!(t.cut.is_none());
    }

    #[test]
    fn the_limit_cuts_the_trace_and_closes_what_is_open() {
        let mut r = Recorder::new("t", 2, 2);
        r.enter_group(0, Construct::Main, 0, 0..2, "main", "a:1:1");
        r.enter_call(1, "f", "a:2:1");
        r.enter_call(3, "g", "a:3:1");
        r.leave(4);
        r.leave(6);
        r.fault(7, "R0003", "division by zero", Some(1), "a:4:1");
        let t = r.finish(8);
        assert_eq!(t.cut, Some(Cut { time: 3, limit: 2 }));
        assert_eq!(t.groups[0].end, 3);
        assert_eq!(t.slices.len(), 1);
        assert_eq!(t.slices[0].end, 3);
        assert_eq!(t.marks.len(), 1, "the fault is kept after the cut");
        assert_eq!(t.end, 8);
        assert!(t
            .cut_text()
            .is_some_and(|s| s.contains("limit of 2 events")));
    }
}
