//! Inputs the fuzzer (`fuzz/`, `cargo +nightly fuzz run front_end`) found crashing, kept so
//! they stay fixed. Each goes through the whole front end and the renderer like the fuzz target.

use std::path::Path;

fn no_include(_path: &str) -> std::io::Result<String> {
    Ok("#define N 8\nsh int shared_table[N];\n".to_string())
}

#[test]
fn fuzz_crashes_stay_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("fuzz_regressions folder") {
        let path = entry.expect("directory entry").path();
        let bytes = std::fs::read(&path).expect("regression input");
        let text = String::from_utf8_lossy(&bytes);
        let options = fork_frontend::Options::default();
        let rendered =
            match fork_frontend::check_source_with("fuzz.fork", &text, &no_include, &options) {
                Ok(checked) => {
                    fork_frontend::diag::render(&checked.sources, &checked.warnings, false)
                }
                Err(failed) => {
                    fork_frontend::diag::render(&failed.sources, &failed.diagnostics, false)
                }
            };
        assert!(
            !rendered.is_empty() || text.is_empty(),
            "{}",
            path.display()
        );
        count += 1;
    }
    assert!(count > 0, "no regression inputs found");
}
