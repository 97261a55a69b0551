//! Cost statistics of a run (`--stats`): PRAM time along the critical path, work, group
//! structure, memory, a per-function table and the simulator's own speed.

use std::fmt::Write;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FuncStats {
    pub name: String,
    /// Calls by a group (a group calling once counts once, whatever its size).
    pub calls: u64,
    /// Group steps executed in the function's own body.
    pub steps: u64,
    /// Processor-steps in the function's own body.
    pub work: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Synchronous steps along the critical path (sibling subgroups overlap in time).
    pub time: u64,
    /// Processor-steps: each group step counts its active processors.
    pub work: u64,
    /// Group steps executed (what `--max-steps` limits).
    pub group_steps: u64,
    pub splits: u64,
    pub max_group_depth: u32,
    pub peak_shared_bytes: u64,
    /// Simulated operations: HIR expression nodes evaluated, times the lanes evaluating them.
    pub ops: u64,
    pub seconds: f64,
    pub functions: Vec<FuncStats>,
}

impl Stats {
    pub fn ops_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.ops as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// The human-readable report printed to stderr.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "PRAM time (critical path):  {} steps", self.time);
        let _ = writeln!(s, "work (processor-steps):     {}", self.work);
        let _ = writeln!(s, "group steps executed:       {}", self.group_steps);
        let _ = writeln!(s, "group splits:               {}", self.splits);
        let _ = writeln!(s, "maximum group depth:        {}", self.max_group_depth);
        let _ = writeln!(
            s,
            "peak shared memory:         {} bytes",
            self.peak_shared_bytes
        );
        let _ = writeln!(
            s,
            "simulated operations:       {} in {:.3} s ({:.1} M ops/s)",
            self.ops,
            self.seconds,
            self.ops_per_second() / 1e6
        );
        let _ = writeln!(
            s,
            "{:<24} {:>12} {:>14} {:>16}",
            "function", "calls", "steps", "work"
        );
        let mut funcs: Vec<&FuncStats> = self.functions.iter().filter(|f| f.calls > 0).collect();
        funcs.sort_by(|a, b| b.work.cmp(&a.work).then(a.name.cmp(&b.name)));
        for f in funcs {
            let _ = writeln!(
                s,
                "{:<24} {:>12} {:>14} {:>16}",
                f.name, f.calls, f.steps, f.work
            );
        }
        s
    }
}
