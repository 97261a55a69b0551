//! The front-end corpus: every valid program checks and its `--emit ast` text is snapshotted;
//! every invalid program yields at least one error, whose rendered diagnostics are
//! snapshotted (color off).

use fork_frontend::{check_file, diag, pretty, Options};
use std::path::{Path, PathBuf};

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new("tests/corpus").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "fork"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .expect("file name")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn valid_programs_check_and_print() {
    let files = corpus("valid");
    assert!(
        files.len() >= 40,
        "the valid corpus has {} programs",
        files.len()
    );
    let mut failures = Vec::new();
    for path in files {
        match check_file(&path, &Options::default()) {
            Ok(checked) => {
                let mut text = diag::render(&checked.sources, &checked.warnings, false);
                text.push_str(&pretty::print_program(&checked.program));
                insta::assert_snapshot!(format!("valid__{}", stem(&path)), text);
            }
            Err(failed) => failures.push(format!(
                "{} should check:\n{}",
                path.display(),
                diag::render(&failed.sources, &failed.diagnostics, false)
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn invalid_programs_report_errors() {
    let files = corpus("invalid");
    assert!(
        files.len() >= 25,
        "the invalid corpus has {} programs",
        files.len()
    );
    for path in files {
        match check_file(&path, &Options::default()) {
            Ok(_) => panic!("{} should not check", path.display()),
            Err(failed) => {
                assert!(failed
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == diag::Severity::Error));
                let text = diag::render(&failed.sources, &failed.diagnostics, false);
                insta::assert_snapshot!(format!("invalid__{}", stem(&path)), text);
            }
        }
    }
}
