//! Snapshots of the CUDA C emitted for the study's three worked examples
//! (docs/transformation-rules.md): Figure 3 (write, then read: a cut), Figure 4 (an `if` on the
//! processor id: a split with then/else subgroups), Figure 5 (a loop whose body writes shared
//! memory: a host loop with the exit update).

use fork_frontend::Options;
use std::path::Path;

fn emitted(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    let checked = fork_frontend::check_file(&file, &Options::default())
        .unwrap_or_else(|_| panic!("{path} does not check"));
    let plan = transform::transform(&checked.program)
        .unwrap_or_else(|_| panic!("{path} does not transform"));
    let e = transform::emit_cuda::emit(&plan, &checked.sources)
        .unwrap_or_else(|e| panic!("{path}: {}", e.message));
    // Locations relative to the crate, so the snapshot does not depend on the checkout.
    let root = format!("{}/", env!("CARGO_MANIFEST_DIR"));
    format!("{}{}", e.device, e.host).replace(&root, "")
}

#[test]
fn fig3_write_then_read() {
    insta::assert_snapshot!(emitted("tests/rules/fig3_write_then_read.fork"));
}

#[test]
fn fig4_if_split() {
    insta::assert_snapshot!(emitted("tests/emit_cuda/fig4_if_split.fork"));
}

#[test]
fn fig5_loop() {
    insta::assert_snapshot!(emitted("tests/emit_cuda/fig5_loop.fork"));
}

/// A recursive `sync` function: a host branch on a shared condition, a `fork` whose arm calls
/// the function again, `seq`, shared parameters and locals in group frames, `return`.
#[test]
fn sync_recursion() {
    insta::assert_snapshot!(emitted("../tests/semantics/sync_recursion.fork"));
}

/// The checks (on by default): an index into a declared array is checked against its length
/// (`fk_index`), an access through a pointer against the pointer's object (`fk_at`), each with
/// the simulator's R-codes at its location; `&a[4]` (no access) is not checked. The text is
/// the same with `--unchecked`: the runtime's `FK_CHECKS` turns the checks off.
#[test]
fn checks_guard_indexes_and_pointer_accesses_with_their_location() {
    let src = "sh int a[4];\nsync void main(void)\n{\n    sh int *p;\n    a[$$] = 1;\n    p = &a[4];\n    p[-1] = 2;\n}\n";
    let checked = fork_frontend::check_source("b.fork", src, &Options::default())
        .unwrap_or_else(|_| panic!("checks"));
    let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("transforms"));
    let e = transform::emit_cuda::emit(&plan, &checked.sources)
        .unwrap_or_else(|e| panic!("{}", e.message));
    let sites: Vec<String> = e
        .sites
        .iter()
        .map(|s| format!("{} {} {}", s.location, s.code.id, s.what))
        .collect();
    insta::assert_snapshot!(sites.join("\n"));
    assert_eq!(e.device.matches("fk_index(").count(), 1, "{}", e.device);
    assert!(e.device.contains("fk_at("), "{}", e.device);
    let options = transform::emit_cuda::EmitOptions {
        checks: false,
        ..Default::default()
    };
    let unchecked = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(!unchecked.checks && e.checks);
    assert_eq!(unchecked.device, e.device);
}
