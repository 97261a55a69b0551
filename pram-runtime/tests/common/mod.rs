//! The programs the integration tests run: `.fork` files of the repository's example and
//! corpus folders, with the `-p` and `-D` words of their `//! run:` lines.

// Each test crate uses part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The faults the GPU's checks report.
pub const GPU_CHECKED: &[&str] = &[
    "R0001", "R0002", "R0003", "R0007", "R0009", "R0010", "R0012",
];

/// One run of a program.
pub struct Case {
    pub file: PathBuf,
    pub procs: usize,
    pub defines: Vec<(String, String)>,
    /// `--crcw MODE`, `common` when absent.
    pub crcw: String,
    /// The file says `//! expect-error:` (the front end or the run must reject it).
    pub expects_error: bool,
    /// The run line asks for `--check races`: a program whose sibling subgroups race on
    /// purpose, whose output depends on their order.
    pub races: bool,
}

// Each test binary uses part of this module.
#[allow(dead_code)]
impl Case {
    /// Whether the device schedule runs the case like the other executors: it runs sibling
    /// subgroups at the same time (a racing program may print otherwise) and refuses
    /// `--crcw priority`.
    pub fn device_schedule_agrees(&self) -> bool {
        !self.races && self.crcw != "priority"
    }

    /// The checked program and its Plan; None when the front end or the transform rejects it.
    pub fn plan(&self) -> Option<(fork_frontend::Checked, transform::plan::Plan)> {
        let options = fork_frontend::Options {
            defines: self.defines.clone(),
        };
        let checked = fork_frontend::check_file(&self.file, &options).ok()?;
        let plan = transform::transform(&checked.program).ok()?;
        Some((checked, plan))
    }

    /// The simulator's output and fault when the case stops with a fault the GPU's checks
    /// report (docs/gpu-faults.md; the others are the simulator's).
    pub fn simulator_fault(
        &self,
        checked: &fork_frontend::Checked,
    ) -> Option<(Vec<u8>, Box<pram_sim::Fault>)> {
        let config = pram_sim::Config {
            procs: self.procs as u32,
            crcw: self.crcw_mode(),
            max_steps: 1_000_000,
            ..Default::default()
        };
        let outcome = pram_sim::run(&checked.program, &config);
        let fault = outcome.fault?;
        GPU_CHECKED
            .contains(&fault.code.id)
            .then_some((outcome.output, fault))
    }

    /// The case's `--crcw` mode, for the simulator and the CPU Plan executor.
    pub fn crcw_mode(&self) -> fork_frontend::machine::Crcw {
        use fork_frontend::machine::Crcw;
        match self.crcw.as_str() {
            "priority" => Crcw::Priority,
            "arbitrary" => Crcw::Arbitrary,
            _ => Crcw::Common,
        }
    }
}

/// One case per `//! run:` line (a file without one: one case, `-p 1`, no defines), files
/// sorted by path.
pub fn cases(dirs: &[&str]) -> Vec<Case> {
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        files.extend(
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "fork")),
        );
    }
    files.sort();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let expects_error = text.lines().any(|l| l.starts_with("//! expect-error:"));
        let mut lines: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("//! run:"))
            .collect();
        if lines.is_empty() {
            lines.push("");
        }
        for line in lines {
            let (procs, defines, crcw) = parse_run_line(line);
            out.push(Case {
                file: file.clone(),
                procs,
                defines,
                crcw,
                expects_error,
                races: line.contains("--check races"),
            });
        }
    }
    out
}

fn parse_run_line(line: &str) -> (usize, Vec<(String, String)>, String) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut procs = 1;
    let mut crcw = "common".to_string();
    let mut defines = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let define = match w.strip_prefix("-D") {
            Some("") => next,
            Some(d) => d,
            None => {
                match *w {
                    "-p" => procs = next.parse().unwrap_or(1),
                    "--crcw" => crcw = next.to_string(),
                    _ => {}
                }
                continue;
            }
        };
        let (name, value) = define.split_once('=').unwrap_or((define, "1"));
        defines.push((name.to_string(), value.to_string()));
    }
    (procs, defines, crcw)
}

/// A test that needs `tool` (nvcc, NVRTC, a GPU, g++), named `[needs TOOL]` in the summary and
/// reported as ignored when the tool is missing, except under `CI=true`, where it runs and
/// fails: a CI machine must have it.
pub fn needing(tool: &str, present: bool, name: &str, test: fn()) -> libtest_mimic::Trial {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    libtest_mimic::Trial::test(name, move || {
        test();
        Ok(())
    })
    .with_kind(format!("needs {tool}"))
    .with_ignored_flag(!present && !ci)
}

/// A test that needs a GPU: ignored without one, also under `CI=true` (CI machines have no
/// GPU; `scripts/gpu-verify.sh` runs the same comparisons on one).
pub fn needing_gpu(present: bool, name: &str, test: fn()) -> libtest_mimic::Trial {
    libtest_mimic::Trial::test(name, move || {
        test();
        Ok(())
    })
    .with_kind("needs a GPU")
    .with_ignored_flag(!present)
}

/// Runs the trials as `cargo test` runs tests (filters, `--ignored`, `--list`).
pub fn run(trials: Vec<libtest_mimic::Trial>) {
    run_with(libtest_mimic::Arguments::from_args(), trials)
}

/// [`run`] with arguments the test binary adjusted.
pub fn run_with(args: libtest_mimic::Arguments, trials: Vec<libtest_mimic::Trial>) {
    libtest_mimic::run(&args, trials).exit()
}

/// `f` of every item (with its index), the items spread over the cores: each thread takes the
/// next item until none is left, so one slow item does not hold up the others. The results
/// come in the items' order. The compilers these tests run take most of their time.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            return done;
                        };
                        done.push((index, f(index, item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(index, _)| *index);
    done.into_iter().map(|(_, r)| r).collect()
}
