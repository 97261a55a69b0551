//! `forkcc bench`: runs a benchmark suite (the `bench` crate) and writes its results.

use bench::report::{self, Results};
use bench::run::{self, Backend, Settings};
use bench::{host::Host, plot, suite};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The suite: study (all), sieve, quicksort, matmul, prefix, list_ranking, or overhead (the
    /// cost of a barrier, a split and a loop iteration on the GPU schedules).
    #[arg(default_value = "study")]
    pub suite: String,
    /// Comma-separated backends: gpu (host schedule), gpu-device (device schedule), the same
    /// without the checks (gpu-unchecked, gpu-device-unchecked: the column checked/unchecked
    /// of the checked rows is the checks' cost), sim, seq, cuda-hand.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "gpu,gpu-device,gpu-unchecked,gpu-device-unchecked,sim,seq,cuda-hand"
    )]
    pub backends: Vec<String>,
    /// Timed runs per configuration, after one warm-up run.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000),
          allow_negative_numbers = true)]
    pub runs: u32,
    /// Where results.json, results.csv and the SVG plots go (created if missing).
    #[arg(long, default_value = "bench-results")]
    pub out: PathBuf,
    /// Only these programs of the suite (repeat the flag for several), e.g.
    /// `--program grid_barrier` of the overhead suite.
    #[arg(long = "program", value_name = "NAME")]
    pub programs: Vec<String>,
    /// Only these sizes N of the suite (repeat the flag for several), e.g. to keep one
    /// invocation within a time limit.
    #[arg(long = "n", value_name = "N")]
    pub sizes: Vec<i64>,
    /// Only these processor counts P of the suite (repeat the flag for several); a count
    /// the suite does not list for the sizes kept runs on each of them.
    #[arg(long = "procs", value_name = "P", value_parser = parse_procs,
          allow_negative_numbers = true)]
    pub procs: Vec<u64>,
    /// Tiny sizes: checks that the harness works end to end.
    #[arg(long)]
    pub quick: bool,
    /// Runs nothing: merges the results.json of earlier runs (e.g. the GPU rows from a GPU
    /// machine and the simulator rows from another) into one table, JSON, CSV and plots,
    /// with the ratios recomputed across them.
    #[arg(long, value_name = "RESULTS_JSON", num_args = 1..)]
    pub merge: Vec<PathBuf>,
}

/// `--procs P`: no upper bound here (the GPU rows go past the simulator's 2^20).
fn parse_procs(text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|&p| p >= 1)
        .ok_or_else(|| "P must be a number from 1 on".to_string())
}

/// What stdout gets: the table of rows, and the overhead suite's cost per step where it has
/// rows for it.
fn tables(rows: &[report::Row]) -> String {
    let mut text = report::table(rows);
    let steps = report::overhead_table(rows);
    if !steps.is_empty() {
        text.push_str("\ncost per step (overhead suite, docs/benchmarks.md):\n");
        text.push_str(&steps);
    }
    text
}

/// `--merge`: the rows of several results files as one result.
fn merge(args: &BenchArgs) -> ExitCode {
    let mut parts = Vec::new();
    for path in &args.merge {
        match Results::read(path) {
            Ok(results) => parts.push(results),
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let Some(first) = parts.first() else {
        return ExitCode::FAILURE;
    };
    let host = first.host.clone();
    let sources: Vec<String> = parts
        .iter()
        .map(|r| {
            format!(
                "{} ({}, {}: {})",
                r.command,
                r.date,
                r.host.cpu,
                r.host.gpu.as_deref().unwrap_or("no GPU")
            )
        })
        .collect();
    let mut rows: Vec<_> = parts.into_iter().flat_map(|r| r.rows).collect();
    rows.sort_by(|a, b| (&a.program, a.n).cmp(&(&b.program, b.n)));
    let mut start = 0;
    while start < rows.len() {
        let end = (start..rows.len())
            .find(|&i| (&rows[i].program, rows[i].n) != (&rows[start].program, rows[start].n))
            .unwrap_or(rows.len());
        run::add_ratios(&mut rows[start..end]);
        start = end;
    }
    let printed = crate::report::stdout(tables(&rows).as_bytes());
    let command = format!("merged from: {}", sources.join("; "));
    let results = Results::new(command, host, rows);
    if write_outputs(&results, &args.out) != ExitCode::SUCCESS {
        return ExitCode::FAILURE;
    }
    printed.err().unwrap_or(ExitCode::SUCCESS)
}

/// results.json, results.csv and the plots of time against P.
fn write_outputs(results: &Results, out: &std::path::Path) -> ExitCode {
    if let Err(e) = std::fs::create_dir_all(out)
        .map_err(|e| e.to_string())
        .and_then(|()| report::write_files(results, out))
    {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!("wrote results.json and results.csv into {}", out.display());
    for program in ["sieve", "quicksort"] {
        match plot::time_against_procs(&results.rows, program, out) {
            Ok(Some(path)) => eprintln!("wrote {}", path.display()),
            Ok(None) => {}
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

pub fn bench(args: &BenchArgs) -> ExitCode {
    if !args.merge.is_empty() {
        return merge(args);
    }
    let Some(cases) = suite::cases(&args.suite, args.quick) else {
        eprintln!(
            "error: no suite `{}`; the suites are {}",
            args.suite,
            suite::SUITES.join(", ")
        );
        return ExitCode::FAILURE;
    };
    if let Some(name) =
        (args.programs.iter()).find(|p| !cases.iter().any(|c| c.program.name() == *p))
    {
        let mut names: Vec<&str> = cases.iter().map(|c| c.program.name()).collect();
        names.dedup();
        eprintln!(
            "error: suite `{}` has no program `{name}`; its programs are {}",
            args.suite,
            names.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| args.programs.is_empty() || args.programs.iter().any(|p| p == c.program.name()))
        .filter(|c| args.sizes.is_empty() || args.sizes.contains(&c.n))
        .collect();
    // A P of --procs the kept cases list selects those; one they do not list is added.
    let unlisted: Vec<u64> = (args.procs.iter())
        .filter(|p| !cases.iter().any(|c| c.procs.contains(p)))
        .copied()
        .collect();
    let cases: Vec<_> = cases
        .into_iter()
        .map(|mut c| {
            c.procs
                .retain(|p| args.procs.is_empty() || args.procs.contains(p));
            c.procs.extend(&unlisted);
            c
        })
        .filter(|c| !c.procs.is_empty())
        .collect();
    if cases.is_empty() {
        eprintln!(
            "error: suite `{}` has no case with N in {:?} and P in {:?}",
            args.suite, args.sizes, args.procs
        );
        return ExitCode::FAILURE;
    }
    let mut backends = Vec::new();
    for name in &args.backends {
        match Backend::parse(name.trim()) {
            Some(b) => backends.push(b),
            None => {
                eprintln!(
                    "error: no backend `{name}` in --backends; use gpu, gpu-device, gpu-unchecked, gpu-device-unchecked, sim, seq or cuda-hand"
                );
                return ExitCode::FAILURE;
            }
        }
    }
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("error: cannot create `{}`: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    let host = Host::detect();
    eprintln!(
        "forkcc bench {}: CPU {} ({} threads), GPU {}",
        args.suite,
        host.cpu,
        host.cpus,
        host.gpu.as_deref().unwrap_or("none")
    );
    let settings = Settings {
        backends,
        runs: args.runs as usize,
    };
    let rows = run::run(&cases, &settings, |row| eprintln!("  {}", row.progress()));
    // The results files are written even when the table cannot be (`| head`).
    let printed = crate::report::stdout(tables(&rows).as_bytes());
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let results = Results::new(command, host, rows);
    if write_outputs(&results, &args.out) != ExitCode::SUCCESS {
        return ExitCode::FAILURE;
    }
    if let Err(code) = printed {
        return code;
    }
    let with = |prefix: &str| {
        (results.rows.iter())
            .filter(|r| r.status.starts_with(prefix))
            .count()
    };
    eprintln!(
        "{} rows: {} ok, {} skipped, {} errors, {} wrong answers",
        results.rows.len(),
        with("ok"),
        with("skipped"),
        with("error"),
        with("wrong answer")
    );
    if with("wrong answer") > 0 {
        eprintln!("error: a backend printed a different answer from the sequential baseline");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
