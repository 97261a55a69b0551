//! The benchmark programs and the suites: the study's three applications at its sizes and
//! larger, plus prefix sums and list ranking; and the simulator's size table.

use crate::baselines::{self, Expected, Sort};

/// A sequential baseline: its backend name and the function computing the answer for N.
pub type Baseline = (&'static str, fn(i32) -> Expected);

/// A benchmarked Fork program (a classroom example, sized with `-D N=...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    Sieve,
    Quicksort,
    /// quicksort.fork with the processors shared out in proportion to the sides' sizes.
    QuicksortBalanced,
    Matmul,
    PrefixHillisSteele,
    PrefixBlelloch,
    ListRanking,
    /// `bench/overhead/`: N steps of one group operation, for its cost per step.
    OverheadBarrier,
    OverheadSplit,
    OverheadLoop,
    OverheadGridBarrier,
}

impl Program {
    pub fn name(self) -> &'static str {
        match self {
            Program::Sieve => "sieve",
            Program::Quicksort => "quicksort",
            Program::QuicksortBalanced => "quicksort_balanced",
            Program::Matmul => "matmul",
            Program::PrefixHillisSteele => "prefix_hillis_steele",
            Program::PrefixBlelloch => "prefix_blelloch",
            Program::ListRanking => "list_ranking",
            Program::OverheadBarrier => "barrier",
            Program::OverheadSplit => "split",
            Program::OverheadLoop => "loop",
            Program::OverheadGridBarrier => "grid_barrier",
        }
    }

    fn is_overhead(self) -> bool {
        matches!(
            self,
            Program::OverheadBarrier
                | Program::OverheadSplit
                | Program::OverheadLoop
                | Program::OverheadGridBarrier
        )
    }

    /// The source, relative to the repository checkout (the current directory).
    pub fn path(self) -> String {
        if self.is_overhead() {
            format!("bench/overhead/{}.fork", self.name())
        } else {
            format!("classroom-examples/{}.fork", self.name())
        }
    }

    /// What the program prints for N (with [`Expected::PROCS`] for P): the first sequential
    /// baseline's answer, or for an overhead program the count it ran.
    pub fn answer(self, n: i32) -> Expected {
        let steps = match self {
            Program::OverheadBarrier => "barriers",
            Program::OverheadSplit => "splits",
            Program::OverheadLoop => "iterations",
            Program::OverheadGridBarrier => "rounds",
            _ => return (self.baselines()[0].1)(n),
        };
        Expected::new(format!("{steps} {n}, P = {}, check {n}\n", Expected::PROCS))
    }

    /// The sequential baselines of this program: their names and what they compute (none for
    /// an overhead program: it measures the machine, not an algorithm).
    pub fn baselines(self) -> Vec<Baseline> {
        match self {
            Program::OverheadBarrier
            | Program::OverheadSplit
            | Program::OverheadLoop
            | Program::OverheadGridBarrier => vec![],
            Program::Sieve => vec![("seq", baselines::sieve)],
            // At P = 1 both programs run their sequential leaf: the baseline is that leaf.
            Program::Quicksort | Program::QuicksortBalanced => vec![
                ("seq", |n| baselines::quicksort(n, Sort::Quicksort)),
                ("seq-sort_unstable", |n| {
                    baselines::quicksort(n, Sort::StdUnstable)
                }),
            ],
            Program::Matmul => vec![("seq", baselines::matmul)],
            Program::PrefixHillisSteele => vec![("seq", baselines::prefix_inclusive)],
            Program::PrefixBlelloch => vec![("seq", baselines::prefix_exclusive)],
            Program::ListRanking => vec![("seq", baselines::list_ranking)],
        }
    }

    /// The largest N the simulator runs, decided up front from its measured speed (see
    /// docs/benchmarks.md): one run at any P of the suite takes at most about 100 s on the
    /// development machine, so a configuration's warm-up and five runs finish within 10
    /// minutes.
    pub fn sim_max_n(self) -> i64 {
        match self {
            Program::Sieve => 100_000_000,
            Program::Quicksort | Program::QuicksortBalanced => 1_000_000,
            Program::Matmul => 512,
            Program::PrefixHillisSteele => 1 << 24,
            Program::PrefixBlelloch => 1 << 24,
            Program::ListRanking => 1 << 18,
            // The simulator's time is not what the overhead suite measures: it runs only the
            // quick sizes (the harness's end-to-end check).
            Program::OverheadBarrier
            | Program::OverheadSplit
            | Program::OverheadLoop
            | Program::OverheadGridBarrier => 12,
        }
    }

    /// The Fork function that runs the algorithm (what the hand-written CUDA does), apart
    /// from `main`'s input generation and checks.
    pub fn algorithm(self) -> &'static str {
        match self {
            Program::Sieve => "sieve",
            Program::Quicksort | Program::QuicksortBalanced => "quicksort",
            Program::Matmul => "matmul",
            Program::PrefixHillisSteele => "hillis_steele_scan",
            Program::PrefixBlelloch => "blelloch_scan",
            Program::ListRanking => "pointer_jumping",
            // The overhead programs' steps are in `main`.
            Program::OverheadBarrier
            | Program::OverheadSplit
            | Program::OverheadLoop
            | Program::OverheadGridBarrier => "main",
        }
    }

    /// Bytes of the GPU's heap (`--heap-mib`) the program needs at N, where the default is
    /// too small: each quicksort group `shmalloc`s a buffer of its keys, and the heap does
    /// not reuse freed blocks (docs/gpu-faults.md), so a run takes 4 N bytes for each level
    /// of the recursion, and a fifth more for the checks' shadow map. 256 N bytes covers
    /// 48 levels (`quicksort_balanced.fork` at 10^6 and P = 4096 goes 32 deep).
    pub fn heap_bytes(self, n: i64) -> Option<u64> {
        match self {
            Program::Quicksort | Program::QuicksortBalanced => Some(256 * n.max(0) as u64),
            _ => None,
        }
    }

    /// Whether a hand-written CUDA version is part of the comparison.
    pub fn has_hand_cuda(self) -> bool {
        matches!(self, Program::Matmul | Program::PrefixHillisSteele)
    }
}

/// One program at one size, run at several processor counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub program: Program,
    pub n: i64,
    pub procs: Vec<u64>,
}

/// The named suites. `quick` shrinks every case to a size the simulator runs in
/// milliseconds (the CI check that the harness works end to end).
pub const SUITES: &[&str] = &[
    "study",
    "sieve",
    "quicksort",
    "quicksort_balanced",
    "matmul",
    "prefix",
    "list_ranking",
    "overhead",
];

fn case(program: Program, n: i64, procs: &[u64]) -> Case {
    Case {
        program,
        n,
        procs: procs.to_vec(),
    }
}

fn full(program: Program) -> Vec<Case> {
    const SIEVE_P: &[u64] = &[256, 1024, 4096, 16384, 65536];
    const SORT_P: &[u64] = &[1024, 4096, 16384];
    match program {
        Program::Sieve => vec![
            case(program, 10_000_000, SIEVE_P),
            case(program, 100_000_000, SIEVE_P),
        ],
        Program::Quicksort | Program::QuicksortBalanced => vec![
            case(program, 1_000_000, SORT_P),
            case(program, 10_000_000, SORT_P),
        ],
        // The study's Table 1 (N, P) pairs, P = N^2, and a size the simulator also runs.
        Program::Matmul => vec![
            case(program, 512, &[64, 128, 512 * 512]),
            case(program, 2048, &[64, 128, 2048 * 2048]),
            case(program, 4096, &[128, 4096 * 4096]),
        ],
        Program::PrefixHillisSteele | Program::PrefixBlelloch => vec![
            case(program, 1 << 20, &[1024, 65536, 1 << 20]),
            case(program, 1 << 24, &[1024, 65536, 1 << 24]),
        ],
        // list_ranking.fork computes 5 + k*7919 in int: N <= 271183 keeps it in range.
        Program::ListRanking => vec![
            case(program, 1 << 16, &[1024, 1 << 16]),
            case(program, 1 << 18, &[1024, 65536, 1 << 18]),
        ],
        // Two step counts: the cost of a step is the difference over the difference in steps
        // (report::overhead_table), without the run's fixed costs. Those vary by up to 0.3 ms
        // from run to run on the device schedule, so the groups of at most 1024, whose step
        // costs 1 to 10 us, take 10,000 steps between the two (1,000 left the cost per step
        // 0.3 us uncertain, session 44). A step of a group that spans the GPU costs 0.1 to
        // 10 ms, so those groups take a hundredth of the steps: the suite's 2^20 cases then
        // fit a few minutes. The grid barrier's step costs 5 to 150 us at every size (one
        // grid region), so it takes 1,000 steps between its sizes there (100 left the cost
        // per step at 65,536 1 us uncertain, session 45).
        Program::OverheadBarrier
        | Program::OverheadSplit
        | Program::OverheadLoop
        | Program::OverheadGridBarrier => {
            const FEW: &[u64] = &[1, 32, 1024];
            const MANY: &[u64] = &[65536, 1 << 20];
            let many_steps = if program == Program::OverheadGridBarrier {
                1010
            } else {
                110
            };
            vec![
                case(program, 100, FEW),
                case(program, 10100, FEW),
                case(program, 10, MANY),
                case(program, many_steps, MANY),
            ]
        }
    }
}

fn quick(program: Program) -> Vec<Case> {
    match program {
        Program::Sieve => vec![case(program, 1000, &[16, 64])],
        Program::Quicksort | Program::QuicksortBalanced => vec![case(program, 1000, &[8, 32])],
        Program::Matmul => vec![case(program, 16, &[16, 256])],
        Program::PrefixHillisSteele | Program::PrefixBlelloch => {
            vec![case(program, 64, &[8])]
        }
        Program::ListRanking => vec![case(program, 100, &[16])],
        Program::OverheadBarrier
        | Program::OverheadSplit
        | Program::OverheadLoop
        | Program::OverheadGridBarrier => {
            vec![case(program, 2, &[1, 4]), case(program, 12, &[1, 4])]
        }
    }
}

/// The cases of suite `name`; None for an unknown name.
pub fn cases(name: &str, quick_sizes: bool) -> Option<Vec<Case>> {
    let programs: &[Program] = match name {
        "study" => &[
            Program::Sieve,
            Program::Quicksort,
            Program::Matmul,
            Program::PrefixHillisSteele,
            Program::PrefixBlelloch,
            Program::ListRanking,
        ],
        "sieve" => &[Program::Sieve],
        "quicksort" => &[Program::Quicksort, Program::QuicksortBalanced],
        "quicksort_balanced" => &[Program::QuicksortBalanced],
        "matmul" => &[Program::Matmul],
        "prefix" => &[Program::PrefixHillisSteele, Program::PrefixBlelloch],
        "list_ranking" => &[Program::ListRanking],
        "overhead" => &[
            Program::OverheadBarrier,
            Program::OverheadSplit,
            Program::OverheadLoop,
            Program::OverheadGridBarrier,
        ],
        _ => return None,
    };
    let sized = if quick_sizes { quick } else { full };
    Some(programs.iter().flat_map(|&p| sized(p)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_suite_name_has_cases() {
        for name in SUITES {
            assert!(!cases(name, false).expect("known suite").is_empty());
            assert!(!cases(name, true).expect("known suite").is_empty());
        }
        assert!(cases("nope", false).is_none());
    }

    #[test]
    fn list_ranking_sizes_stay_inside_the_programs_int_range() {
        let largest = cases("list_ranking", false)
            .expect("suite")
            .iter()
            .map(|c| c.n)
            .max()
            .expect("cases");
        assert!(5 + (largest - 1) * 7919 <= i32::MAX as i64);
    }
}

#[cfg(test)]
mod full_sizes {
    //! The full suite's sizes compile: the front end accepts every program at every N, and
    //! the transform and the CUDA emission succeed (what the GPU machine would run).
    use super::*;

    /// The algorithm's function is a host function of the Plan: the GPU times it.
    #[test]
    fn every_programs_algorithm_is_a_timed_function() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for case in cases("study", true).expect("suite") {
            let options = fork_frontend::Options {
                defines: vec![("N".into(), case.n.to_string())],
            };
            let checked = fork_frontend::check_file(&root.join(case.program.path()), &options)
                .unwrap_or_else(|_| panic!("{}: front-end errors", case.program.name()));
            let plan = transform::transform(&checked.program)
                .unwrap_or_else(|_| panic!("{}: transform errors", case.program.name()));
            assert!(
                plan.functions
                    .iter()
                    .any(|f| f.name == case.program.algorithm()),
                "{}: no function `{}`",
                case.program.name(),
                case.program.algorithm()
            );
        }
    }

    #[test]
    fn every_full_size_checks_transforms_and_emits() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let all = cases("study", false)
            .into_iter()
            .chain(cases("overhead", false));
        for case in all.flatten() {
            let options = fork_frontend::Options {
                defines: vec![("N".into(), case.n.to_string())],
            };
            let what = format!("{} N={}", case.program.name(), case.n);
            let checked = fork_frontend::check_file(&root.join(case.program.path()), &options)
                .unwrap_or_else(|_| panic!("{what}: front-end errors"));
            let plan = transform::transform(&checked.program)
                .unwrap_or_else(|_| panic!("{what}: transform errors"));
            assert!(
                transform::emit_cuda::emit(&plan, &checked.sources).is_ok(),
                "{what}: CUDA emission failed"
            );
        }
    }
}
