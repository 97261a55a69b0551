//! The whole front end (preprocess, parse, check, render) on arbitrary input must never panic.
//! Run: `cargo +nightly fuzz run front_end -- -max_total_time=600`
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Includes resolve to a small fixed header, so fuzz inputs never touch the file system.
fn read_include(_path: &str) -> std::io::Result<String> {
    Ok("#define N 8\nsh int shared_table[N];\n".to_string())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let options = fork_frontend::Options::default();
    match fork_frontend::check_source_with("fuzz.fork", &text, &read_include, &options) {
        Ok(checked) => {
            fork_frontend::diag::render(&checked.sources, &checked.warnings, false);
            fork_frontend::pretty::print_program(&checked.program);
        }
        Err(failed) => {
            fork_frontend::diag::render(&failed.sources, &failed.diagnostics, false);
        }
    }
});
