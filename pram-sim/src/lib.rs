//! pram-sim: the reference PRAM machine. It interprets a checked `hir::Program` with the exact
//! semantics of docs/language.md and is the oracle every other backend is compared with.
//!
//! Design (for speed): vectorised interpretation. A statement is executed for all active
//! members of a group at once: every HIR node is evaluated over a vector of lanes (one lane per
//! processor), so dispatch is paid once per node per group. Values are 64-bit words (`value`),
//! private scalars live in per-lane columns, everything addressable lives in bounds-checked
//! objects reached through fat pointers (`memory`). Memory writes of a synchronous statement are
//! buffered and applied at each sequence point with the CRCW check (`step`).
//!
//! Entry points: `run`, and `run_traced` to also record the group tree over time (`trace`).
//!
//! Where docs/language.md leaves a choice, the simulator decides (and every other backend
//! should agree or be compared modulo the choice):
//! - `--crcw arbitrary`: the writer with the lowest `__PROC_NR__` wins (priority: the highest).
//! - A synchronous statement runs in lockstep steps from one sequence point to the next (`,`,
//!   `&&`, `||`, `?:`, a call, the end of the statement): every read of a step sees memory as it
//!   was when the step began, and the step's writes are applied at its end (`x = 1, y = x + 10`
//!   gives 11 for a shared `x`). Private columns are written at once. Multiprefix operations
//!   update their cell at once, ordered by `__PROC_NR__`. The step counter (`--max-steps`,
//!   `Stats`) counts statements executed by a group, not these steps.
//! - A `sh` argument is one write by the calling group: no concurrent write under
//!   `--model crew`/`erew`; the CRCW rule picks the value.
//! - `shmalloc(n)` executed by several members of a group in one synchronous step with the same
//!   n returns one block to all of them (so `a = shmalloc(n)` on a shared `a` is one write);
//!   `shfree` of that block by the same members frees it once. In asynchronous code every call
//!   allocates its own block.
//! - A private `switch` splits the group into one subgroup per entry case, run in case order.
//! - `seq S` runs S on the member with the smallest `$$` among those present.
//! - Asynchronous regions are scheduled round-robin, one statement per processor per turn in
//!   `__PROC_NR__` order (`async_exec`), so a processor spinning on a flag makes progress while
//!   another sets it. A call inside a larger expression runs to completion within its statement.
//! - "PRAM step N" in a fault is the number of group steps executed so far, the faulting one
//!   included (the unit of `--max-steps`); `Stats::time` is the critical path.

mod async_exec;
mod builtins;
mod eval;
mod eval_one;
mod exec;
pub mod fault;
mod format;
mod machine;
pub mod memory;
pub mod stats;
mod step;
mod trace;
pub mod value;

pub use fault::{Fault, CODES};

/// The most processors the simulator runs: it holds about 600 bytes per simulated processor
/// (Hillis–Steele at P = 2^20 peaked at 620 MB), so 2^20 keeps a run under 1 GB on a shared
/// machine.
pub const MAX_PROCS: u32 = 1 << 20;
pub use stats::Stats;
pub use trace::{TraceOptions, DEFAULT_LIMIT};

use fork_frontend::hir::Program;

pub use fork_frontend::machine::Crcw;

/// Which concurrent accesses the machine forbids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Model {
    /// Exclusive read, exclusive write.
    Erew,
    /// Concurrent read, exclusive write.
    Crew,
    #[default]
    Crcw,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// P, the number of processors (`-p`).
    pub procs: u32,
    pub crcw: Crcw,
    pub model: Model,
    /// `--check races`: report sibling subgroups touching one shared cell, one writing.
    pub check_races: bool,
    /// The limit on group steps (statements executed by a group, loop tests included).
    pub max_steps: u64,
    /// The limit on nested calls.
    pub max_depth: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            procs: 1,
            crcw: Crcw::default(),
            model: Model::default(),
            check_races: false,
            max_steps: 1_000_000_000,
            max_depth: 10_000,
        }
    }
}

/// What a run produced: the program's output (also when it faulted), the fault, the statistics.
#[derive(Debug)]
pub struct Outcome {
    pub output: Vec<u8>,
    pub fault: Option<Box<Fault>>,
    pub stats: Stats,
    /// The recorded run, when `run_traced` asked for it (also when it faulted).
    pub trace: Option<pram_trace::Trace>,
}

/// Runs `program` on `config.procs` processors.
pub fn run(program: &Program, config: &Config) -> Outcome {
    run_on_thread(program, config, None)
}

/// Runs `program` and records its trace (`Outcome::trace`).
pub fn run_traced(program: &Program, config: &Config, options: &TraceOptions) -> Outcome {
    run_on_thread(program, config, Some(options))
}

/// Deep recursion of the simulated program uses the host stack, so the machine runs on a
/// thread with a large stack.
fn run_on_thread(program: &Program, config: &Config, trace: Option<&TraceOptions>) -> Outcome {
    const STACK: usize = 1 << 30;
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("pram-sim".into())
            .stack_size(STACK)
            .spawn_scoped(scope, || {
                machine::Machine::new(program, config, trace).run()
            });
        match worker {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|_| internal("the simulator panicked")),
            Err(err) => internal(&format!("cannot start the simulator thread: {err}")),
        }
    })
}

fn internal(what: &str) -> Outcome {
    Outcome {
        output: Vec::new(),
        fault: Some(Box::new(Fault::new(
            &fault::R0013,
            Default::default(),
            format!("internal simulator error: {what}"),
        ))),
        stats: Stats::default(),
        trace: None,
    }
}
