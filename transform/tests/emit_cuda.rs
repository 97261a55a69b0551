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

/// Ranged loops (`emit_cuda::ranged`): an innermost loop `for (; k < n; k += s)` whose index
/// only its step changes runs a copy of its body without the checks of the accesses (of an
/// array variable, or through a pointer the loop does not change) whose indexes are built
/// from `k` by adding and subtracting what the loop does not change, or do not change, when
/// the checks made before it pass (`fk_in<site>`); every other loop, and every other access,
/// stays checked.
#[test]
fn ranged_loops_check_monotone_array_accesses_before_the_loop() {
    let loop_with = |body: &str| {
        let src = format!(
            "sh int a[64];\nsync void main(void)\n{{\n    pr int k, s = 0, n = 8;\n    pr int *q = a;\n{body}\n    a[$$] = s;\n}}\n"
        );
        let checked = fork_frontend::check_source("r.fork", &src, &Options::default())
            .unwrap_or_else(|_| panic!("checks: {src}"));
        let plan = transform::transform(&checked.program).unwrap_or_else(|_| panic!("transforms"));
        transform::emit_cuda::emit(&plan, &checked.sources)
            .unwrap_or_else(|e| panic!("{}", e.message))
            .device
    };
    let ranged = |device: &str| device.contains("if (fk_in");
    for body in [
        "    for (k = 0; k < n; k++) s += a[k];",
        "    for (k = 1; k <= n; k++) s += a[k - 1] + a[63 - k];",
        "    for (k = $$; k < 64; k += groupsize()) s += a[k];",
        "    for (k = 0; k < n; k += 2) s += a[n] * a[k + 1];",
        "    for (k = 0; k < n; k++) s += q[k] + q[n - k] + q[k + n - 1];",
    ] {
        let device = loop_with(body);
        assert!(ranged(&device), "{body}\n{device}");
    }
    for body in [
        // The index changes in the body, is not monotone, or the stride may change.
        "    for (k = 0; k < n; k++) { s += a[k]; k += s & 1; }",
        "    for (k = 0; k < 8; k++) s += a[k * k];",
        "    for (k = 0; k < 8; k += n) { s += a[k]; n = 1; }",
        "    for (k = 0; k < n; k++) { s += q[k]; q = &a[1]; }",
        // Not innermost: the inner loop is ranged, the outer is not.
        "    for (n = 0; n < 8; n++) for (k = 0; k < 8; k++) s += a[n];",
        // The index is shared, or an unsigned type, or the test is not `<` / `<=`.
        "    for (k = 8; k > 0; k--) s += a[k];",
    ] {
        let device = loop_with(body);
        let loops = device.matches("if (fk_in").count();
        let expected = usize::from(body.contains("for (n = 0"));
        assert_eq!(loops, expected, "{body}\n{device}");
    }
    // A condition that guards an access bounds the index from below where it holds (the
    // checks before the loop start that access's range at the larger of `k` and 3: `k > 2`
    // bounds it by 3), and where it does not hold, nothing.
    for (body, guarded) in [
        (
            "    for (k = 0; k < n; k++) s += k >= 3 ? a[k - 3] : 0;",
            true,
        ),
        ("    for (k = 0; k < n; k++) s += 3 <= k && a[k - 3];", true),
        (
            "    for (k = 0; k < n; k++) if (k < 3) s += a[8 - k]; else s += a[k - 3];",
            true,
        ),
        (
            "    for (k = 0; k < n; k++) s += k > 2 ? a[k - 3] : 0;",
            true,
        ),
        (
            "    for (k = 0; k < n; k++) s += k <= 2 ? 0 : a[k - 3];",
            true,
        ),
        ("    for (k = 0; k < n; k++) s += k < 3 ? a[k] : 0;", false),
        ("    for (k = 0; k < n; k++) s += k >= n ? a[k] : 0;", true),
        ("    for (k = 0; k < n; k++) s += k >= s ? a[k] : 0;", false),
    ] {
        let device = loop_with(body);
        assert!(ranged(&device), "{body}\n{device}");
        let bounded = device.contains(") > (3) ? (") || device.contains(") > (n_");
        assert_eq!(bounded, guarded, "{body}\n{device}");
    }
}
