//! Front-end speed: preprocess + parse + check of a generated 10,000-line Fork program.
//! Target (issue 2): under 0.2 s on the 2-core CI machine.
//! Run: `cargo bench -p fork-frontend --bench check_10k`

use std::time::{Duration, Instant};

/// A program of `functions` sync functions, each ~25 lines mixing declarations, shared and
/// private arithmetic, a private split, a private loop, a fork, macros and printf.
fn generate(functions: usize) -> String {
    let mut src = String::from(
        "#include <fork.h>\n#define N 1024\n#define SQ(x) ((x) * (x))\n\
         #define MIN(a, b) ((a) < (b) ? (a) : (b))\n\
         struct pair { int key; double weight; };\nsh int data[N];\nsh struct pair pairs[N];\n",
    );
    for f in 0..functions {
        src.push_str(&format!(
            "sync int step{f}(sh int n, int seed)\n{{\n\
             \x20 sh int total;\n\
             \x20 int i, acc = seed;\n\
             \x20 double w = 0.5 * $$;\n\
             \x20 total = 0;\n\
             \x20 for (i = $$; i < n; i += groupsize()) {{\n\
             \x20   acc += SQ(data[i % N]) - MIN(i, {f});\n\
             \x20   w = w * 1.5 + pairs[i % N].weight;\n\
             \x20 }}\n\
             \x20 if ($$ % 2 == 0) {{\n\
             \x20   data[$$ % N] = acc;\n\
             \x20 }} else {{\n\
             \x20   pairs[$$ % N].key = acc + {f};\n\
             \x20 }}\n\
             \x20 fork (2; @ = $$ % 2; $ = $$ / 2) {{\n\
             \x20   int x = mpadd(&total, 1);\n\
             \x20   if (x < 0) printf(\"neg %d\\n\", x);\n\
             \x20 }}\n\
             \x20 while (acc > 100) {{\n\
             \x20   acc = acc / 2;\n\
             \x20 }}\n\
             \x20 seq {{ total = total + n; }}\n\
             \x20 return acc + total + (int)w;\n\
             }}\n\n"
        ));
    }
    src.push_str("sync int main(void)\n{\n  int r = 0;\n");
    for f in 0..functions {
        src.push_str(&format!("  r += step{f}(N, {f});\n"));
    }
    src.push_str("  return r;\n}\n");
    src
}

fn main() {
    // ~26 lines per function plus one call line each: 370 functions is ~10,000 lines.
    let src = generate(370);
    let lines = src.lines().count();
    let options = fork_frontend::Options::default();
    if let Err(failed) = fork_frontend::check_source("bench.fork", &src, &options) {
        eprint!(
            "{}",
            fork_frontend::diag::render(&failed.sources, &failed.diagnostics, false)
        );
        std::process::exit(1);
    }
    let mut times: Vec<Duration> = (0..11)
        .map(|_| {
            let start = Instant::now();
            let checked = fork_frontend::check_source("bench.fork", &src, &options);
            let elapsed = start.elapsed();
            assert!(checked.is_ok());
            elapsed
        })
        .collect();
    times.sort();
    println!(
        "check_10k: {lines} lines, median {:.1} ms (min {:.1} ms, max {:.1} ms) over {} runs",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times[0].as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3,
        times.len()
    );
}
