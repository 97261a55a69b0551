//! The command line as a student meets it: a closed stdout (`| head`), argument errors, and
//! diagnostics for editors.

use std::process::{Command, Output};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn forkcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("forkcc runs")
}

/// Runs forkcc with its stdout a pipe whose reading end is already closed, as after
/// `forkcc ... | head -1` once `head` has exited.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .output()
        .expect("forkcc runs")
}

/// Every subcommand that writes to stdout says it cannot and exits 1; none panics (exit 101).
#[test]
fn a_closed_stdout_is_an_error_not_a_panic() {
    let example = "classroom-examples/groups.fork";
    let out_dir = tempfile::tempdir().expect("a temporary folder");
    let bench_out = out_dir.path().to_str().unwrap_or_default();
    let writers: &[&[&str]] = &[
        &["build", example, "--emit", "ast"],
        &["build", example, "--emit", "plan"],
        &["build", example, "--emit", "cuda"],
        &["sim", example, "-p", "4"],
        &["run", example, "-p", "4"],
        &["run", example, "-p", "4", "--backend", "sim"],
        &["run", example, "-p", "4", "--backend", "cpu-plan"],
        &["test", example],
        &["test", example, "--backend", "cpu-plan"],
        &[
            "test",
            example,
            "--backend",
            "cpu-plan",
            "--schedule",
            "device",
        ],
        &["explain", "E0401"],
        &[
            "bench",
            "sieve",
            "--quick",
            "--runs",
            "1",
            "--backends",
            "seq",
            "--out",
            bench_out,
        ],
    ];
    for args in writers {
        let out = with_closed_stdout(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "forkcc {args:?}: {stderr}");
        assert!(
            stderr.contains("error: cannot write to standard output")
                && !stderr.contains("panicked"),
            "forkcc {args:?}: {stderr}"
        );
    }
    // These write nothing to stdout (`--emit ptx` needs NVRTC, else it fails before printing)
    // or are clap's own (`--help`, `--version`): they must not panic either.
    let others: &[&[&str]] = &[
        &["check", example],
        &["build", example, "--emit", "ptx"],
        &["--help"],
        &["test", "--help"],
        &["--version"],
    ];
    for args in others {
        let out = with_closed_stdout(args);
        let stderr = text(&out.stderr);
        assert!(
            out.status.code().is_some_and(|c| c <= 2) && !stderr.contains("panicked"),
            "forkcc {args:?}: {:?} {stderr}",
            out.status
        );
    }
}

/// Above 2^20 processors the CPU backends refuse the run with their limit and point to the
/// GPU, which runs more (the bench runs matmul at P = 4,194,304).
#[test]
fn the_cpu_backends_name_their_processor_limit() {
    for (backend, name) in [("sim", "simulator"), ("cpu-plan", "CPU Plan executor")] {
        let args = [
            "run",
            "classroom-examples/groups.fork",
            "-p",
            "1048577",
            "--backend",
            backend,
        ];
        let out = forkcc(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{backend}: {stderr}");
        assert!(
            stderr.contains(&format!("the {name} runs at most 1048576 processors"))
                && stderr.contains("--backend gpu"),
            "{backend}: {stderr}"
        );
    }
}

/// `-p -1` is a bad P, not a flag: the message says what P may be, not "use `-- -1`".
#[test]
fn a_bad_processor_count_says_what_p_may_be() {
    for p in ["-1", "0", "x", "2147483648"] {
        let out = forkcc(&["sim", "classroom-examples/groups.fork", "-p", p]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "-p {p}: {stderr}");
        assert!(
            stderr.contains("P must be a number from 1 to 2147483647") && !stderr.contains("-- "),
            "-p {p}: {stderr}"
        );
    }
    let out = forkcc(&["bench", "--procs", "-1"]);
    assert!(text(&out.stderr).contains("P must be a number from 1 on"));
}

/// The GPU's heap and printf buffer are given in MiB, from 1 on; a bad size says so.
#[test]
fn a_bad_gpu_memory_size_is_refused() {
    for flag in ["--heap-mib", "--printf-mib"] {
        for size in ["0", "-1", "x"] {
            let out = forkcc(&[
                "run",
                "classroom-examples/groups.fork",
                "-p",
                "4",
                "--backend",
                "sim",
                flag,
                size,
            ]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{flag} {size}: {stderr}");
            assert!(
                stderr.contains(flag) && stderr.contains("a number from 1 to 1048576"),
                "{flag} {size}: {stderr}"
            );
        }
    }
}

/// An input error comes first, and alone: no note about the GPU for a run that never starts.
#[test]
fn run_reports_a_missing_file_before_choosing_a_backend() {
    let out = forkcc(&["run", "nonexistent.fork", "-p", "4"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.starts_with("error[E0001]: cannot read `nonexistent.fork`")
            && !stderr.contains("note:"),
        "{stderr}"
    );
}

/// Runs forkcc with `input` on its stdin.
fn forkcc_with_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_forkcc"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("forkcc runs");
    child
        .stdin
        .take()
        .expect("a stdin pipe")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("forkcc finishes")
}

const DIAGNOSTICS: &str = "tests/cli/diagnostics.fork";

#[test]
fn message_format_short_is_one_line_per_diagnostic() {
    let out = forkcc(&["check", DIAGNOSTICS, "--message-format", "short"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stderr));
}

#[test]
fn message_format_json_is_one_object_per_line() {
    let out = forkcc(&["check", DIAGNOSTICS, "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let objects: Vec<serde_json::Value> = text(&out.stderr)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    assert_eq!(objects.len(), 3);
    insta::assert_snapshot!(serde_json::to_string_pretty(&objects).expect("serialises"));
}

/// A runtime fault follows the format too: editors jump to the faulting line.
#[test]
fn message_format_short_covers_runtime_faults() {
    let out = forkcc(&[
        "sim",
        "tests/semantics/fault_out_of_bounds.fork",
        "-p",
        "5",
        "--message-format",
        "short",
    ]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stderr));
}

/// The Plan's stack of an asynchronous recursive call is a limit of the backend, not a fault
/// the simulator reports too: the help says so.
#[test]
fn the_recursive_async_stack_limit_says_it_is_the_backends() {
    let out = forkcc(&[
        "run",
        "tests/cli/recursive_async_stack.fork",
        "-p",
        "2",
        "--backend",
        "cpu-plan",
    ]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!(text(&out.stderr));
}

/// `check` takes several files and checks each, also after one with errors.
#[test]
fn check_takes_several_files() {
    let out = forkcc(&[
        "check",
        "nonexistent.fork",
        DIAGNOSTICS,
        "classroom-examples/groups.fork",
        "--message-format",
        "short",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with("error[E0001]: cannot read `nonexistent.fork`"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("tests/cli/diagnostics.fork:").count(),
        3,
        "{stderr}"
    );
    let out = forkcc(&[
        "check",
        "classroom-examples/groups.fork",
        "classroom-examples/quicksort.fork",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `-` reads the program from standard input, named `<stdin>` in diagnostics.
#[test]
fn a_dash_reads_standard_input() {
    let program = "sync void main(void)\n{\n    seq printf(\"%d\\n\", groupsize());\n}\n";
    let out = forkcc_with_stdin(&["sim", "-", "-p", "3"], program);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "3\n");
    let out = forkcc_with_stdin(
        &["check", "-", "--message-format", "short"],
        "sync void main(void)\n{\n    y = 1;\n}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "<stdin>:3:5: error[E0201]: variable `y` is not declared\n"
    );
}

/// The `--flag` words in `text`.
fn flags(text: &str) -> std::collections::BTreeSet<String> {
    text.match_indices("--")
        .filter(|&(at, _)| at == 0 || !text[..at].ends_with(|c: char| c.is_alphanumeric()))
        .map(|(at, _)| {
            let name: String = text[at + 2..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            format!("--{name}")
        })
        .filter(|flag| flag.len() > 2)
        .collect()
}

/// A subcommand's help mentions only flags that subcommand has (`test --help` once spoke of
/// `--order`, which only `run` has).
#[test]
fn help_mentions_only_flags_the_command_has() {
    for command in ["check", "build", "sim", "run", "test", "bench", "explain"] {
        let help = text(&forkcc(&[command, "--help"]).stdout);
        // Definitions are the lines that start with the flag: `  -p, --procs <P>`, `  --stats`.
        let defined = flags(
            &help
                .lines()
                .filter(|l| l.trim_start().starts_with('-'))
                .flat_map(|l| l.split_whitespace().take(2))
                .collect::<Vec<_>>()
                .join(" "),
        );
        let mentioned = flags(&help);
        let unknown: Vec<_> = mentioned.difference(&defined).collect();
        assert!(
            defined.contains("--help") && unknown.is_empty(),
            "`forkcc {command} --help` mentions {unknown:?}:\n{help}"
        );
    }
}

/// The `forkcc` lines of the README's "Using it" run word for word, from a folder holding the
/// classroom examples, with forkcc on the PATH. Lines that need a GPU or nvcc are left out.
#[test]
fn the_readme_commands_run_as_written() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let section = readme
        .split("\n## ")
        .find(|s| s.starts_with("Using it"))
        .expect("a \"Using it\" section");
    let lines: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("forkcc "))
        .filter(|l| !l.contains("--backend gpu") && !l.contains("nvcc"))
        .collect();
    assert!(lines.len() >= 10, "{lines:?}");
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink(
        root.join("classroom-examples"),
        dir.path().join("classroom-examples"),
    )
    .expect("a link to the examples");
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_forkcc"))
        .parent()
        .expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in lines {
        let out = Command::new("sh")
            .args(["-c", line])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        assert!(out.status.success(), "{line}\n{}", text(&out.stderr));
    }
}

/// The standalone `.cu` checks by default and says how to turn the checks off; `--unchecked`
/// emits it with the checks off (docs/gpu-faults.md). The fault table names the simulator's
/// R-codes at the program's locations.
#[test]
fn the_standalone_cu_checks_unless_unchecked() {
    let file = "tests/semantics/fault_pointer_out_of_bounds.fork";
    let checked = forkcc(&["build", file, "--emit", "cuda"]);
    assert!(checked.status.success());
    let source = text(&checked.stdout);
    assert!(
        source.contains("#ifndef FK_CHECKS\n#define FK_CHECKS 1\n#endif"),
        "{}",
        &source[..400.min(source.len())]
    );
    assert!(source.contains(
        "{\"tests/semantics/fault_pointer_out_of_bounds.fork:18:5\", \"R0001\", \"write out of bounds"
    ));
    let unchecked = forkcc(&["build", file, "--emit", "cuda", "--unchecked"]);
    assert!(unchecked.status.success());
    assert!(text(&unchecked.stdout).contains("#ifndef FK_CHECKS\n#define FK_CHECKS 0\n#endif"));
}
