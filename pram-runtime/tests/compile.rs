//! Every classroom example and corpus program, emitted as CUDA, compiles without warnings:
//! the device source to PTX with NVRTC; the standalone `.cu` of the classroom examples and
//! the rule programs with nvcc, its host code whole and its device code through the front end
//! (the PTX is NVRTC's test); the compile cache keeps NVRTC's CUBIN. ptxas runs here only in
//! the cache test; on a GPU machine `scripts/gpu-verify.sh` compiles the programs it
//! runs (not the rule programs) in full.
//! Without the tool the test is reported as ignored, except under `CI=true`, where a missing
//! tool fails it.

mod common;

use pram_runtime::cuda::cache::{self, Cache, Origin};
use pram_runtime::cuda::{self, nvrtc};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use transform::emit_cuda::{EmitOptions, Schedule};

/// Every program: the classroom examples and the corpora.
const EVERY_PROGRAM: &[&str] = &[
    "classroom-examples",
    "tests/semantics",
    "tests/cpu_plan",
    "transform/tests/rules",
];

/// The programs whose standalone `.cu` nvcc compiles: the classroom examples, which users
/// build with `--emit cuda`, and the programs of the transformation rules, which exercise the
/// emitter rule by rule. (The other programs' host code is compiled by g++ in the emulated
/// tests, and their device code here by NVRTC; nvcc on them all took about 14 of CI's
/// minutes.)
const NVCC_PROGRAMS: &[&str] = &["classroom-examples", "transform/tests/rules"];

/// The emitted sources of every program in `dirs` the transform accepts, for both schedules;
/// the others are listed.
fn sources(dirs: &[&str], standalone: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cases = common::cases(dirs);
    // One compilation per program: the defines of its first run line.
    cases.dedup_by(|a, b| a.file == b.file);
    for case in cases {
        let file = case.file;
        let name = file
            .strip_prefix(common::root())
            .unwrap_or(&file)
            .display()
            .to_string();
        let options = fork_frontend::Options {
            defines: case.defines,
        };
        let Ok(checked) = fork_frontend::check_file(&file, &options) else {
            assert!(case.expects_error, "{name} does not check");
            continue;
        };
        let Ok(plan) = transform::transform(&checked.program) else {
            eprintln!("not emitted (the transform rejects it): {name}");
            continue;
        };
        for schedule in [Schedule::Host, Schedule::Device] {
            // With the `--crcw common` write logs, as `run --backend gpu` and `build --emit
            // cuda` emit them.
            let options = EmitOptions {
                schedule,
                check_common: true,
                ..EmitOptions::default()
            };
            let text = if standalone {
                cuda::standalone_source_with(&plan, &checked.sources, options)
            } else {
                transform::emit_cuda::emit_with(&plan, &checked.sources, options)
                    .map(|e| cuda::device_source(&e))
            };
            match text {
                Ok(text) => out.push((format!("{name} ({schedule:?} schedule)"), text)),
                Err(e) => panic!("{name}: cannot emit CUDA: {}", e.message),
            }
        }
    }
    assert!(out.len() >= 80, "only {} sources emitted", out.len());
    out
}

/// nvcc from `$NVCC`, or on PATH.
fn nvcc() -> Option<PathBuf> {
    let candidate = std::env::var_os("NVCC")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("nvcc"));
    Command::new(&candidate)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| candidate)
}

fn main() {
    // One test at a time. With the NVRTC test compiling at `--Ofast-compile=max` on other
    // threads, the cache test's two compiles of one source once gave different CUBINs (NVRTC
    // 13.0, a local CI run of 2026-12-01; another run passed): NVRTC seems not to keep the
    // options of concurrent compiles apart. Each test spreads its compiles over the cores.
    let mut args = libtest_mimic::Arguments::from_args();
    args.test_threads.get_or_insert(1);
    common::run_with(
        args,
        vec![
            common::needing(
                "NVRTC",
                nvrtc::nvrtc_present(),
                "every_program_compiles_with_nvrtc_without_warnings",
                every_program_compiles_with_nvrtc_without_warnings,
            ),
            common::needing(
                "NVRTC",
                nvrtc::nvrtc_present(),
                "the_compile_cache_returns_nvrtcs_cubin_for_the_same_source",
                the_compile_cache_returns_nvrtcs_cubin_for_the_same_source,
            ),
            common::needing(
                "nvcc",
                nvcc().is_some(),
                "the_examples_and_rule_programs_compile_with_nvcc_without_warnings",
                the_examples_and_rule_programs_compile_with_nvcc_without_warnings,
            ),
        ],
    );
}

/// NVRTC compiles separate programs on separate threads: the sources spread over the cores.
/// At `--Ofast-compile=max` (a fifth of the time): what is checked is that every kernel
/// compiles to PTX without warnings; the GPU runs optimise.
fn every_program_compiles_with_nvrtc_without_warnings() {
    let sources = sources(EVERY_PROGRAM, false);
    let target = nvrtc::Target {
        fast_compile: true,
        ..nvrtc::Target::ptx()
    };
    let failures: Vec<String> = common::parallel_map(&sources, |_, (name, source)| {
        match nvrtc::compile(source, &target) {
            Ok((_, log)) if !log.is_empty() => Some(format!("{name}: NVRTC warnings:\n{log}")),
            Ok((ptx, _)) if !String::from_utf8_lossy(&ptx).contains(".entry k_globals") => {
                Some(format!("{name}: no kernels in the PTX"))
            }
            Ok(_) => None,
            Err(e) => Some(format!("{name}: {e}")),
        }
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The device source of the first classroom example under the host schedule.
fn one_source() -> String {
    let case = common::cases(&["classroom-examples"])
        .into_iter()
        .next()
        .expect("a classroom example");
    let (checked, plan) = case.plan().expect("the example compiles");
    let emitted = transform::emit_cuda::emit(&plan, &checked.sources)
        .unwrap_or_else(|e| panic!("cannot emit CUDA: {}", e.message));
    cuda::device_source(&emitted)
}

/// Through the cache, NVRTC compiles a source once: the second compile is a hit with the bytes
/// NVRTC gave (an sm_90 CUBIN, as NVRTC gives it without the cache); another source is a
/// miss; a damaged entry is compiled again.
fn the_compile_cache_returns_nvrtcs_cubin_for_the_same_source() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let store = Cache::new(dir.path());
    let target = nvrtc::Target::for_device(9, 0, &nvrtc::supported_archs());
    assert_eq!(target.output, nvrtc::Output::Cubin, "NVRTC knows sm_90");
    let source = one_source();
    let compile = |source: &str| {
        cache::compile(source, &target, Some(&store)).unwrap_or_else(|e| panic!("{e}"))
    };
    let (cubin, origin) = compile(&source);
    assert_eq!(origin, Origin::Compiled);
    assert!(cubin.starts_with(b"\x7fELF"), "not a CUBIN");
    let (uncached, _log) = nvrtc::compile(&source, &target).unwrap_or_else(|e| panic!("{e}"));
    assert!(uncached == cubin, "the cache changed NVRTC's output");
    assert!(compile(&source) == (cubin.clone(), Origin::Cached));
    let other = format!("{source}\n__device__ int forkcc_cache_test;\n");
    let (other_cubin, origin) = compile(&other);
    assert_eq!(origin, Origin::Compiled);
    assert!(other_cubin != cubin);
    let entries: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the cache folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    assert_eq!(entries.len(), 2, "{entries:?}");
    for entry in &entries {
        std::fs::write(entry, b"damaged").expect("damage an entry");
    }
    assert!(compile(&source) == (cubin, Origin::Compiled));
}

fn the_examples_and_rule_programs_compile_with_nvcc_without_warnings() {
    let nvcc = nvcc().expect("nvcc on PATH or in $NVCC");
    let dir = tempfile::tempdir().expect("a temporary folder");
    // The CUDA headers next to nvcc (the PyPI wheels keep them in ../include).
    let include = nvcc
        .canonicalize()
        .ok()
        .and_then(|p| p.parent()?.parent().map(|d| d.join("include")));
    let sources = sources(NVCC_PROGRAMS, true);
    // One nvcc per core (each runs its stages one after another).
    let failures: Vec<String> = common::parallel_map(&sources, |i, (name, text)| {
        let cu = dir.path().join(format!("p{i}.cu"));
        std::fs::write(&cu, text).expect("write the .cu");
        let mut cmd = Command::new(&nvcc);
        // The device code stops after nvcc's front end (`-fdevice-syntax-only`: its errors
        // and warnings, no cicc or ptxas), since the NVRTC test compiles the same kernels to
        // PTX; cicc and ptxas took 4/5 of each nvcc run. `-O0` is the host code's level: gcc
        // at -O2 took half of what is left.
        cmd.args(["-O0", "-arch=sm_90", "-fdevice-syntax-only", "-c"])
            .arg(&cu)
            .arg("-o")
            .arg(dir.path().join(format!("p{i}.o")));
        if let Some(inc) = include.as_ref().filter(|d| d.is_dir()) {
            cmd.arg(format!("-I{}", inc.display()));
        }
        let out = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .expect("nvcc runs");
        let log = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        if !out.status.success() {
            return Some(format!("{name}: nvcc failed:\n{log}"));
        }
        let unexpected = log.lines().filter(|l| l.contains("warning")).count();
        (unexpected > 0).then(|| format!("{name}: nvcc warnings:\n{log}"))
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
