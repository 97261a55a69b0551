//! The end of a synchronous step (a sequence point, docs/language.md §4): buffered writes are
//! applied with the CRCW rule and the EREW/CREW checks; the step counter and limit; the PRAM clock of sibling subgroups (they
//! overlap in time); the `--check races` log of sibling subgroups' shared accesses.

use crate::fault::{self, Fault, Who};
use crate::machine::{Ctx, Frame, Machine, Write, R};
use crate::memory::{object_of, offset_of};
use crate::{Crcw, Model};
use fork_frontend::source::Span;
use std::collections::HashMap;

#[derive(Debug, Clone, Copy)]
pub struct Access {
    pub write: bool,
    pub span: Span,
}

/// Shared cells touched by each running sibling subgroup (innermost last).
#[derive(Debug, Default)]
pub struct RaceLog {
    stack: Vec<HashMap<u64, Access>>,
}

impl RaceLog {
    fn merge(into: &mut HashMap<u64, Access>, from: HashMap<u64, Access>) {
        for (addr, acc) in from {
            let slot = into.entry(addr).or_insert(acc);
            if acc.write && !slot.write {
                *slot = acc;
            }
        }
    }
}

/// Sibling subgroups of one split, run one after the other but overlapping in PRAM time.
pub struct Siblings {
    start: u64,
    end: u64,
    seen: HashMap<u64, Access>,
    /// What made the subgroups and where, for `--trace`.
    pub construct: pram_trace::Construct,
    pub span: Span,
}

impl Machine<'_> {
    /// Counts one group step of `lanes` and enforces the step limit.
    pub fn count_step(&mut self, fr: &Frame, cx: &Ctx, span: Span, lanes: &[u32]) -> R<()> {
        let n = lanes.len() as u64;
        self.stats.group_steps += 1;
        self.stats.work += n;
        self.clock += 1;
        let f = &mut self.stats.functions[cx.func.0 as usize];
        f.steps += 1;
        f.work += n;
        if self.stats.group_steps > self.cfg.max_steps {
            let fault = Fault::new(
                &fault::R0006,
                span,
                format!("step limit of {} group steps exceeded", self.cfg.max_steps),
            )
            .with_help("the program may not terminate; if it is just long, raise the limit with `--max-steps N`");
            return Err(self.fault(fault, fr, cx, lanes.first().copied().unwrap_or(0)));
        }
        Ok(())
    }

    /// Records a shared access for `--check races` (only inside sibling subgroups).
    pub fn record_access(&mut self, ptr: u64, write: bool, span: Span) {
        let shared = self.mem.object(object_of(ptr)).is_some_and(|o| o.shared);
        if let (true, Some(log)) = (shared, &mut self.races) {
            if let Some(top) = log.stack.last_mut() {
                RaceLog::merge(top, HashMap::from([(ptr, Access { write, span })]));
            }
        }
    }

    /// A group splits into subgroups (made by `construct` at `span`) that run as siblings.
    pub fn siblings_begin(&mut self, construct: pram_trace::Construct, span: Span) -> Siblings {
        self.stats.splits += 1;
        self.trace_split(construct, span);
        Siblings {
            start: self.clock,
            end: self.clock,
            seen: HashMap::new(),
            construct,
            span,
        }
    }

    pub fn sibling_enter(&mut self, s: &Siblings) {
        self.clock = s.start;
        if let Some(log) = &mut self.races {
            log.stack.push(HashMap::new());
        }
    }

    pub fn sibling_leave(&mut self, s: &mut Siblings) -> R<()> {
        s.end = s.end.max(self.clock);
        let Some(mine) = self.races.as_mut().and_then(|log| log.stack.pop()) else {
            return Ok(());
        };
        let race = mine.iter().find_map(|(addr, acc)| {
            s.seen
                .get(addr)
                .filter(|prev| prev.write || acc.write)
                .map(|prev| (*addr, *prev, *acc))
        });
        if let Some((addr, prev, acc)) = race {
            let kind = |a: &Access| if a.write { "written" } else { "read" };
            let fault = Fault::new(
                &fault::R0011,
                acc.span,
                format!(
                    "race between sibling subgroups on byte offset {} of {}",
                    offset_of(addr),
                    self.describe(object_of(addr))
                ),
            )
            .with_note(
                prev.span,
                format!("{} here by an earlier sibling subgroup", kind(&prev)),
            )
            .with_help(format!(
                "the cell is {} here by a later sibling; their order is not defined on a PRAM",
                kind(&acc)
            ));
            return Err(Box::new(Fault {
                step: Some(self.stats.group_steps),
                ..fault
            }));
        }
        RaceLog::merge(&mut s.seen, mine);
        Ok(())
    }

    pub fn siblings_end(&mut self, s: Siblings) {
        self.clock = s.end;
        self.trace_leave();
        if let Some(top) = self.races.as_mut().and_then(|log| log.stack.last_mut()) {
            RaceLog::merge(top, s.seen);
        }
    }

    /// Applies the writes of the step that ends now, checking the PRAM model and the CRCW rule.
    pub fn end_step(&mut self, cx: &Ctx) -> R<()> {
        if !self.reads.is_empty() {
            let mut reads = std::mem::take(&mut self.reads);
            reads.sort_unstable();
            if let Some(pair) = reads
                .windows(2)
                .find(|w| w[0].0 == w[1].0 && w[0].1 != w[1].1)
            {
                let (addr, a, b, span) = (pair[0].0, pair[0].1, pair[1].1, pair[1].2);
                self.pending.clear();
                return Err(self.access_fault(cx, addr, a, b, "read", span));
            }
        }
        match self.pending.len() {
            0 => return Ok(()),
            1 => {
                let w = self.pending[0];
                self.pending.clear();
                return self.apply(w);
            }
            _ => {}
        }
        let mut writes = std::mem::take(&mut self.pending);
        writes.sort_by_key(|w| (w.ptr, w.proc));
        let mut i = 0;
        while i < writes.len() {
            let mut j = i + 1;
            while j < writes.len() && writes[j].ptr == writes[i].ptr {
                j += 1;
            }
            let run = &writes[i..j];
            let winner = if run.len() == 1 {
                run[0]
            } else {
                self.resolve(cx, run)?
            };
            self.apply(winner)?;
            i = j;
        }
        writes.clear();
        self.pending = writes;
        Ok(())
    }

    fn apply(&mut self, w: Write) -> R<()> {
        self.mem
            .store(w.ptr, w.size as u64, w.raw)
            .map_err(|e| self.internal(format!("buffered write failed: {e:?}")))
    }

    /// The value that a run of concurrent writes of one cell (sorted by processor) leaves.
    fn resolve(&mut self, cx: &Ctx, run: &[Write]) -> R<Write> {
        let (first, last) = (run[0], run[run.len() - 1]);
        if self.cfg.model != Model::Crcw && !run.iter().all(|w| w.by_group) {
            return Err(self.access_fault(
                cx,
                first.ptr,
                first.proc,
                run[1].proc,
                "write",
                run[1].span,
            ));
        }
        match self.cfg.crcw {
            Crcw::Arbitrary => Ok(first),
            Crcw::Priority => Ok(last),
            Crcw::Common => match run.iter().find(|w| w.raw != first.raw) {
                None => Ok(first),
                Some(other) => {
                    let shown = |w: &Write| {
                        let bits = w.size as u32 * 8;
                        ((w.raw << (64 - bits)) as i64 >> (64 - bits)).to_string()
                    };
                    let fault = Fault::new(
                        &fault::R0004,
                        other.span,
                        format!(
                            "concurrent write conflict (CRCW common): processors {} and {} wrote {} and {} into byte offset {} of {} in one step",
                            first.proc,
                            other.proc,
                            shown(&first),
                            shown(other),
                            offset_of(first.ptr),
                            self.describe(object_of(first.ptr))
                        ),
                    )
                    .with_help(fault::CONFLICT_HELP);
                    let fault = if first.span != other.span {
                        fault.with_note(first.span, format!("processor {} wrote here", first.proc))
                    } else {
                        fault
                    };
                    Err(self.proc_fault(fault, cx, first.proc))
                }
            },
        }
    }

    fn access_fault(
        &self,
        cx: &Ctx,
        addr: u64,
        a: u32,
        b: u32,
        access: &str,
        span: Span,
    ) -> Box<Fault> {
        let model = match self.cfg.model {
            Model::Erew => "EREW",
            Model::Crew => "CREW",
            Model::Crcw => "CRCW",
        };
        let fault = Fault::new(
            &fault::R0005,
            span,
            format!(
                "concurrent {access} of byte offset {} of {} by processors {a} and {b} in one step, forbidden by the {model} model",
                offset_of(addr),
                self.describe(object_of(addr))
            ),
        )
        .with_help("spread the accesses over several steps, or run with `--model crcw`");
        self.proc_fault(fault, cx, a)
    }

    fn proc_fault(&self, f: Fault, cx: &Ctx, proc: u32) -> Box<Fault> {
        Box::new(Fault {
            who: Some(Who {
                proc,
                in_group: Some((self.rank[proc as usize], cx.at)),
            }),
            step: Some(self.stats.group_steps),
            ..f
        })
    }
}
