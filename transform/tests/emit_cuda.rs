//! The emitter's fault sites. The emitted text of every corpus program is a snapshot of
//! `tests/corpus.rs` (`tests/out/cuda-host`, `tests/out/cuda-device`).

use fork_frontend::Options;

/// The checks (on by default): an element of an array variable is checked against the whole
/// variable (`fk_elem`, one offset for all its indexes), an access through a pointer against the pointer's object (`fk_at_seen`, with the object the body's accesses found last), each with
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
    assert_eq!(e.device.matches("fk_elem(").count(), 1, "{}", e.device);
    assert!(e.device.contains("fk_at_seen(p_"), "{}", e.device);
    let options = transform::emit_cuda::EmitOptions {
        checks: false,
        ..Default::default()
    };
    let unchecked = transform::emit_cuda::emit_with(&plan, &checked.sources, options)
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(!unchecked.checks && e.checks);
    assert_eq!(unchecked.device, e.device);
}
