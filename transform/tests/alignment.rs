//! Every storage region is stacked or strided (call frames one after another, sibling groups'
//! shared frames, one processor's slots after another's), so its size is a multiple of 8 and
//! every variable sits at an offset aligned for its type. A 28-byte frame before an 8-byte
//! pointer gave CUDA_ERROR_MISALIGNED_ADDRESS on the GPU (reduce_fork with N = 37, P = 5).

use std::path::Path;
use transform::plan::Home;

#[test]
fn frames_and_homes_are_aligned_in_every_program() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    for dir in ["classroom-examples", "tests/semantics", "tests/cpu_plan"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("corpus folder") {
            let path = entry.expect("entry").path();
            if path.extension().is_none_or(|e| e != "fork") {
                continue;
            }
            // Odd sizes make odd frames: the defines of reduce_fork's second run line.
            let options = fork_frontend::Options {
                defines: vec![("N".into(), "37".into())],
            };
            let Ok(checked_program) = fork_frontend::check_file(&path, &options) else {
                continue;
            };
            let Ok(plan) = transform::transform(&checked_program.program) else {
                continue;
            };
            let name = path.display();
            let s = &plan.storage;
            assert_eq!(s.shared_globals_bytes % 8, 0, "{name}: shared globals");
            assert_eq!(s.private_globals_bytes % 8, 0, "{name}: private globals");
            for f in &s.shared_frames {
                assert_eq!(f.bytes % 8, 0, "{name}: shared frame {}", f.name);
            }
            for f in &plan.functions {
                assert_eq!(
                    f.frame_bytes % 8,
                    0,
                    "{name}: slot frame of a host function"
                );
            }
            for (var, home) in plan.program.vars.iter().zip(&s.home) {
                let offset = match home {
                    Some(Home::Shared { offset })
                    | Some(Home::PrivateGlobal { offset })
                    | Some(Home::Slot { offset })
                    | Some(Home::SharedFrame { offset, .. }) => *offset,
                    None => continue,
                };
                let align = var.ty.align(&plan.program.structs);
                assert_eq!(offset % align, 0, "{name}: `{}` at +{offset}", var.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} programs checked");
}
