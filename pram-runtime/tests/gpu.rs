//! GPU execution: every classroom example and semantics program (its `//! run:` cases) runs
//! on the GPU driver and prints the same bytes as the CPU Plan executor. Without a GPU (or
//! without NVRTC) it says "skipped: no GPU".

use pram_runtime::{cpu, gpu};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// (file, P, defines) per `//! run:` line.
fn cases() -> Vec<(PathBuf, usize, Vec<(String, String)>)> {
    let mut out = Vec::new();
    for dir in ["classroom-examples", "tests/semantics"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|x| x == "fork"))
        {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            for line in text.lines().filter_map(|l| l.strip_prefix("//! run:")) {
                let words: Vec<&str> = line.split_whitespace().collect();
                let mut procs = 1;
                let mut defines = Vec::new();
                for (i, w) in words.iter().enumerate() {
                    let next = words.get(i + 1).copied().unwrap_or("");
                    match *w {
                        "-p" => procs = next.parse().unwrap_or(1),
                        "-D" => {
                            let (n, v) = next.split_once('=').unwrap_or((next, "1"));
                            defines.push((n.to_string(), v.to_string()));
                        }
                        _ => {}
                    }
                }
                out.push((f.clone(), procs, defines));
            }
        }
    }
    out
}

#[test]
fn gpu_prints_what_the_cpu_plan_executor_prints() {
    if !gpu::available() {
        eprintln!("skipped: no GPU");
        return;
    }
    let mut differing = Vec::new();
    let mut compared = 0;
    for (file, procs, defines) in cases() {
        let options = fork_frontend::Options { defines };
        let Ok(checked) = fork_frontend::check_file(&file, &options) else {
            continue;
        };
        let Ok(plan) = transform::transform(&checked.program) else {
            continue;
        };
        let Ok(reference) = cpu::run(&plan, procs, cpu::Order::Forward) else {
            continue; // a faulting program: compared by scripts/gpu-verify.sh
        };
        let emitted = transform::emit_cuda::emit(&plan, &checked.sources).expect("emits");
        let run = gpu::run(&plan, &emitted, procs as u64, false)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        compared += 1;
        if run.stdout != reference.stdout || run.error.is_some() {
            differing.push(format!("{} -p {procs}", file.display()));
        }
    }
    assert!(compared > 0);
    assert!(differing.is_empty(), "GPU output differs: {differing:#?}");
}
