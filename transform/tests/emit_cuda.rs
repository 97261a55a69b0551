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

/// `--check bounds`: an index into a declared array is checked against its length and names
/// its location; `&a[i]` (no access) and accesses through pointers are not checked.
#[test]
fn check_bounds_guards_array_indexes_with_their_location() {
    let src = "sh int a[4];\nsync void main(void)\n{\n    sh int *p;\n    a[$$] = 1;\n    p = &a[4];\n    p[-1] = 2;\n}\n";
    let checked = fork_frontend::check_source("b.fork", src, &Options::default())
        .unwrap_or_else(|_| panic!("checks"));
    let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("transforms"));
    let options = transform::emit_cuda::EmitOptions {
        check_bounds: true,
        ..Default::default()
    };
    let e = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert_eq!(
        e.sites
            .iter()
            .filter(|s| s.starts_with("array index out of bounds at "))
            .collect::<Vec<_>>(),
        ["array index out of bounds at b.fork:5:5"],
        "one checked access, at a[$$]"
    );
    assert_eq!(e.device.matches("fk_index(").count(), 1, "{}", e.device);
    let unchecked = transform::emit_cuda::emit(&plan, &checked.sources)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(!unchecked.device.contains("fk_index("));
}
