//! The CPU Plan executor (`forkcc run --backend cpu-plan`): runs a `transform::plan::Plan`
//! exactly as the GPU would — the host walks the control graph, each kernel is a loop over
//! its threads (one per active PRAM processor of the launched group) in a chosen order, and
//! private values cross kernels only through the spilled slots. A missing cut shows as a
//! different output under `--order reverse` or `shuffle:SEED`; a missing spill as a fault.

mod machine;
mod memory;
pub use memory::Crcw;
// C printf formatting, shared with the GPU driver (it formats the device's printf records).
pub(crate) mod printf;
mod thread;

use fork_frontend::diag::{Code, Diagnostic};
use fork_frontend::source::Span;
use transform::plan::Plan;

/// The order in which a kernel's threads run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Forward,
    Reverse,
    /// A fresh permutation per launch, from this seed.
    Shuffle(u64),
}

impl std::str::FromStr for Order {
    type Err = String;

    fn from_str(s: &str) -> Result<Order, String> {
        match s {
            "forward" => Ok(Order::Forward),
            "reverse" => Ok(Order::Reverse),
            _ => s
                .strip_prefix("shuffle:")
                .and_then(|seed| seed.parse().ok())
                .map(Order::Shuffle)
                .ok_or_else(|| {
                    format!("`{s}` is not an order; use forward, reverse or shuffle:SEED (SEED a number)")
                }),
        }
    }
}

/// What a run produced.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Output {
    pub stdout: Vec<u8>,
    /// Kernel launches.
    pub launches: u64,
    /// Values the host had to read back to decide the next launch (split sizes, shared
    /// branch conditions, loop-exit flags).
    pub read_backs: u64,
}

/// A runtime fault: where, which processor, what; its code is the simulator's R-code where the
/// simulator has one for it (R0001 out of bounds, R0003 division by zero, ...), R0502 for an
/// inconsistent Plan, R0501 otherwise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    pub code: &'static Code,
    pub span: Span,
    pub proc: Option<usize>,
    pub message: String,
    /// What the program printed before the faulting kernel (the simulator keeps the output
    /// before the faulting step).
    pub stdout: Vec<u8>,
}

impl Fault {
    pub fn to_diagnostic(&self) -> Diagnostic {
        let code = self.code;
        let who = self
            .proc
            .map(|p| format!(" on processor {p}"))
            .unwrap_or_default();
        let d =
            Diagnostic::error(code, self.span, format!("{}{who}", self.message)).with_label("here");
        if code == &R0502 {
            d.with_help(
                "the Plan does not keep lockstep here: a transform bug; `forkcc sim` runs the \
                 program in lockstep",
            )
        } else if self.message == transform::plan::STACK_FULL {
            // A limit of the Plan's backends, not a fault of the program.
            d.with_help(format!(
                "the Plan's backends keep at most {} frames of an asynchronous recursive call \
                 that synchronises, fewer with a `start` or `seq` inside (docs/gpu-limits.md); \
                 `forkcc sim` recurses deeper",
                transform::plan::STACK_FRAMES
            ))
        } else {
            d.with_help("fix the program; `forkcc sim` reports the same fault with the step")
        }
    }
}

pub const R0501: Code = Code {
    id: "R0501",
    title: "a runtime fault in the CPU Plan executor",
    explain: "`forkcc run --backend cpu-plan` stopped on a fault the simulator has no code of its \
own for (a `printf` it cannot format). Faults the simulator knows (out of bounds, null \
pointer, division by zero, assertion, step limit, ...) carry the simulator's R-code. The \
message names the processor and the source location.\n\nFix the program; `forkcc sim` \
reports the same fault with the PRAM step.",
};

pub const R0502: Code = Code {
    id: "R0502",
    title: "the Plan is inconsistent (a transform bug)",
    explain: "The CPU Plan executor found that the Plan does not keep the program's meaning: \
a private value read in a kernel after a cut although no spilled slot kept it, or two \
processors touching one shared cell in one kernel, one of them writing, where lockstep \
execution would order the accesses. `forkcc sim` runs the program in lockstep.",
};

pub const CODES: &[&Code] = &[&R0501, &R0502];

/// How a run executes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// P, the number of processors.
    pub procs: usize,
    pub order: Order,
    pub crcw: Crcw,
    /// The most kernel statements the run may execute (over all threads).
    pub max_steps: u64,
}

/// Runs the Plan.
pub fn run(plan: &Plan, config: Config) -> Result<Output, Fault> {
    machine::Machine::new(plan, config).run()
}
