//! `forkcc bench`: runs a benchmark suite (the `bench` crate) and writes its results.

use bench::report::{self, Results};
use bench::run::{self, Backend, Settings};
use bench::{host::Host, plot, suite};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The suite: study (all), sieve, quicksort, matmul, prefix, list_ranking.
    #[arg(default_value = "study")]
    pub suite: String,
    /// Comma-separated backends: gpu, sim, seq, cuda-hand.
    #[arg(long, value_delimiter = ',', default_value = "gpu,sim,seq,cuda-hand")]
    pub backends: Vec<String>,
    /// Timed runs per configuration, after one warm-up run.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub runs: u32,
    /// Where results.json, results.csv and the SVG plots go (created if missing).
    #[arg(long, default_value = "bench-results")]
    pub out: PathBuf,
    /// Only these sizes N of the suite (repeat the flag for several), e.g. to keep one
    /// invocation within a time limit.
    #[arg(long = "n", value_name = "N")]
    pub sizes: Vec<i64>,
    /// Tiny sizes: checks that the harness works end to end.
    #[arg(long)]
    pub quick: bool,
}

pub fn bench(args: &BenchArgs) -> ExitCode {
    let Some(cases) = suite::cases(&args.suite, args.quick) else {
        eprintln!(
            "error: no suite `{}`; the suites are {}",
            args.suite,
            suite::SUITES.join(", ")
        );
        return ExitCode::FAILURE;
    };
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| args.sizes.is_empty() || args.sizes.contains(&c.n))
        .collect();
    if cases.is_empty() {
        eprintln!(
            "error: suite `{}` has no case with N in {:?}",
            args.suite, args.sizes
        );
        return ExitCode::FAILURE;
    }
    let mut backends = Vec::new();
    for name in &args.backends {
        match Backend::parse(name.trim()) {
            Some(b) => backends.push(b),
            None => {
                eprintln!(
                    "error: no backend `{name}` in --backends; use gpu, sim, seq or cuda-hand"
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
    let rows = run::run(&cases, &settings, |row| {
        eprintln!(
            "  {} N={} P={} {}: {}",
            row.program,
            row.n,
            row.procs.map_or("-".into(), |p| p.to_string()),
            row.backend,
            row.status
        )
    });
    print!("{}", report::table(&rows));
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let results = Results::new(command, host, rows);
    if let Err(e) = report::write_files(&results, &args.out) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    eprintln!(
        "wrote results.json and results.csv into {}",
        args.out.display()
    );
    for program in ["sieve", "quicksort"] {
        match plot::time_against_procs(&results.rows, program, &args.out) {
            Ok(Some(path)) => eprintln!("wrote {}", path.display()),
            Ok(None) => {}
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
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
