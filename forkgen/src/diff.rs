//! The differential runner: one program on the reference simulator and on the CPU Plan
//! executor (through the transform) in several thread orders and processor counts; stdout
//! bytes and success must agree.

use fork_frontend::{diag, Options};
use pram_runtime::cpu::{self, Crcw, Order};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// How the programs are run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub procs: Vec<u32>,
    pub orders: Vec<Order>,
    /// The simulator's step limit; a program that reaches it is skipped, not compared.
    pub max_steps: u64,
}

impl RunConfig {
    pub fn new(procs: Vec<u32>) -> RunConfig {
        RunConfig {
            procs,
            orders: vec![Order::Forward, Order::Reverse, Order::Shuffle(1)],
            max_steps: 200_000,
        }
    }
}

/// What one backend printed: stdout and whether the run succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub stdout: Vec<u8>,
    pub ok: bool,
    /// The fault or panic, for the report (not compared).
    pub error: String,
}

/// The outcome of one program.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// Every run agreed with the simulator.
    Agree,
    /// The simulator reached its step limit: not compared.
    TooLong,
    /// `forkcc check` refused the program: a generator bug.
    Invalid(String),
    /// The simulator faulted (a CRCW conflict, a race, bounds): a generator or simulator bug.
    SimFault { procs: u32, message: String },
    /// The transform refused a valid program (E0501) or panicked.
    Refused(String),
    /// The CPU Plan executor differs from the simulator.
    Mismatch {
        procs: u32,
        order: Order,
        sim: Run,
        plan: Run,
    },
}

impl Verdict {
    /// Whether `other` is the same finding (the reducer keeps a candidate only then).
    pub fn same_kind(&self, other: &Verdict) -> bool {
        match (self, other) {
            (Verdict::Refused(a), Verdict::Refused(b)) => first_line(a) == first_line(b),
            (Verdict::SimFault { message: a, .. }, Verdict::SimFault { message: b, .. }) => {
                first_line(a) == first_line(b)
            }
            (Verdict::Mismatch { plan: a, .. }, Verdict::Mismatch { plan: b, .. }) => {
                // A fault of the executor stays a fault; a wrong output a wrong output.
                a.ok == b.ok && first_line(&a.error) == first_line(&b.error)
            }
            _ => false,
        }
    }

    /// A one-line description for reports.
    pub fn summary(&self) -> String {
        match self {
            Verdict::Agree => "agree".into(),
            Verdict::TooLong => "step limit".into(),
            Verdict::Invalid(m) => format!("invalid program: {}", first_line(m)),
            Verdict::SimFault { procs, message } => {
                format!("simulator fault at -p {procs}: {}", first_line(message))
            }
            Verdict::Refused(m) => format!("transform refused: {}", first_line(m)),
            Verdict::Mismatch {
                procs, order, plan, ..
            } => {
                let what = if plan.ok {
                    "different output".to_string()
                } else {
                    format!("executor fault: {}", first_line(&plan.error))
                };
                format!(
                    "cpu-plan differs at -p {procs} --order {}: {what}",
                    order_name(*order)
                )
            }
        }
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

pub fn order_name(order: Order) -> String {
    match order {
        Order::Forward => "forward".into(),
        Order::Reverse => "reverse".into(),
        Order::Shuffle(seed) => format!("shuffle:{seed}"),
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// Runs `text` on every backend, processor count and order of `config`.
pub fn run_program(text: &str, config: &RunConfig) -> Verdict {
    let checked = match fork_frontend::check_source("gen.fork", text, &Options::default()) {
        Ok(checked) => checked,
        Err(failed) => {
            return Verdict::Invalid(diag::render(&failed.sources, &failed.diagnostics, false))
        }
    };
    let render = |d: fork_frontend::diag::Diagnostic| diag::render(&checked.sources, &[d], false);
    let mut sims = Vec::new();
    for &procs in &config.procs {
        let outcome = pram_sim::run(
            &checked.program,
            &pram_sim::Config {
                procs,
                // Not `check_races`: it counts multiprefix combining into one cell by
                // sibling subgroups (the accumulators) as a race.
                max_steps: config.max_steps,
                ..pram_sim::Config::default()
            },
        );
        match outcome.fault {
            Some(fault) if fault.code.id == "R0006" => return Verdict::TooLong,
            Some(fault) => {
                return Verdict::SimFault {
                    procs,
                    message: render(fault.to_diagnostic()),
                }
            }
            None => sims.push(Run {
                stdout: outcome.output,
                ok: true,
                error: String::new(),
            }),
        }
    }
    let plan = match catch_unwind(AssertUnwindSafe(|| transform::transform(&checked.program))) {
        Ok(Ok(plan)) => plan,
        Ok(Err(diagnostics)) => {
            return Verdict::Refused(diag::render(&checked.sources, &diagnostics, false))
        }
        Err(payload) => {
            return Verdict::Refused(format!("transform panicked: {}", panic_message(payload)))
        }
    };
    for (&procs, sim) in config.procs.iter().zip(sims) {
        for &order in &config.orders {
            let run = catch_unwind(AssertUnwindSafe(|| {
                cpu::run(
                    &plan,
                    cpu::Config {
                        procs: procs as usize,
                        order,
                        crcw: Crcw::Common,
                        max_steps: config.max_steps * 1000,
                    },
                )
            }));
            let plan_run = match run {
                Ok(Ok(out)) => Run {
                    stdout: out.stdout,
                    ok: true,
                    error: String::new(),
                },
                Ok(Err(fault)) => Run {
                    stdout: Vec::new(),
                    ok: false,
                    error: render(fault.to_diagnostic()),
                },
                Err(payload) => Run {
                    stdout: Vec::new(),
                    ok: false,
                    error: format!("the executor panicked: {}", panic_message(payload)),
                },
            };
            if plan_run.stdout != sim.stdout || plan_run.ok != sim.ok {
                return Verdict::Mismatch {
                    procs,
                    order,
                    sim,
                    plan: plan_run,
                };
            }
        }
    }
    Verdict::Agree
}
