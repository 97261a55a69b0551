//! Simulator speed: `cargo run --release -p pram-sim --example bench [-- KEYS PROCS]`.
//!
//! The unit is one simulated operation: one HIR expression node evaluated for one processor.
//! Workloads: a wide synchronous arithmetic loop (all P processors in one group), a narrow one
//! (groups of one processor, the worst case for vectorised interpretation), and the classroom
//! quicksort (default 10^6 keys on P = 4096), whose output must say `sorted: yes`.

use fork_frontend::{check_file, check_source, Options};
use std::path::Path;
use std::time::Instant;

const LOOP: &str = r#"
sh int table[1024];
sync void main(void)
{
    pr int i, s = 0;
    for (i = 0; i < ITER; i++) {
        s = s + (table[(i + $$) % 1024] ^ i) * 3 - (s >> 2);
        table[$$ % 1024] = s & 255;
    }
    seq printf("%d\n", table[0]);
}
"#;

enum Source<'a> {
    Text(&'a str),
    File(&'a Path),
}

fn run(name: &str, source: Source, procs: u32, defines: &[(&str, String)]) {
    let options = Options {
        defines: defines
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    };
    let checked = match source {
        Source::Text(text) => check_source(name, text, &options),
        Source::File(path) => check_file(path, &options),
    };
    let checked = match checked {
        Ok(checked) => checked,
        Err(failed) => {
            eprintln!(
                "{name}: the front end rejected the program: {:?}",
                failed.diagnostics
            );
            std::process::exit(1);
        }
    };
    let config = pram_sim::Config {
        procs,
        ..pram_sim::Config::default()
    };
    let started = Instant::now();
    let outcome = pram_sim::run(&checked.program, &config);
    let wall = started.elapsed().as_secs_f64();
    if let Some(fault) = outcome.fault {
        eprintln!("{name}: fault: {}", fault.message());
        std::process::exit(1);
    }
    let output = String::from_utf8_lossy(&outcome.output);
    let s = &outcome.stats;
    println!(
        "{name:<34} P={procs:<5} {wall:>7.2} s  {:>12} ops  {:>7.1} M ops/s  time {} work {}",
        s.ops,
        s.ops as f64 / wall / 1e6,
        s.time,
        s.work
    );
    if name.starts_with("quicksort") && !output.contains("sorted: yes") {
        eprintln!("{name}: not sorted: {output}");
        std::process::exit(1);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let keys: u64 = args
        .first()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let procs: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(4096);
    run(
        "wide loop (one group of P)",
        Source::Text(LOOP),
        4096,
        &[("ITER", "2000".into())],
    );
    run(
        "narrow loop (P = 1)",
        Source::Text(LOOP),
        1,
        &[("ITER", "2000000".into())],
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../classroom-examples/quicksort.fork");
    let name = format!("quicksort {keys} keys");
    run(
        &name,
        Source::File(&path),
        procs,
        &[("N", keys.to_string())],
    );
}
