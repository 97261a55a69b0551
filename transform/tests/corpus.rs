//! The per-backend expected-output corpus, as naga keeps `tests/in` and `tests/out/{backend}`:
//! what each stage makes of every program of the corpus folders, as reviewed snapshots under
//! `tests/out/{stage}/{folder}/{program}.snap` (docs/testing.md says how to review them).
//!
//! - `plan`: the text of `forkcc build --emit plan` (storage, host functions, the lowered host
//!   program, kernels); for a program the front end or the transform rejects, its diagnostics,
//!   and no CUDA stage.
//! - `cuda-host`: the program's part of `forkcc build --emit cuda` (the objects table, types,
//!   device functions, kernels, host program, tables), without the runtime's `.cuh` headers
//!   that the `.cu` carries unchanged.
//! - `cuda-device`: what `--schedule device` changes: the interpreter after the same kernels
//!   (checked equal here) and the host part; an emitter error shows as its diagnostic.
//!
//! `transform/tests/rules` has only the CUDA stages: `tests/rules.rs` keeps its Plan text
//! beside its source. Adding a `.fork` to a folder adds its snapshots.

use fork_frontend::{diag, Checked, Options};
use libtest_mimic::Trial;
use std::path::{Path, PathBuf};
use transform::emit_cuda::{self, EmitOptions, Emitted, Schedule};

/// The folders (from the workspace root), their names under `tests/out/{stage}/`, and whether
/// their Plan text is snapshotted here.
const FOLDERS: &[(&str, &str, bool)] = &[
    ("classroom-examples", "classroom-examples", true),
    ("tests/semantics", "semantics", true),
    ("transform/tests/rules", "rules", false),
];

#[derive(Clone, Copy)]
enum Stage {
    Plan,
    CudaHost,
    CudaDevice,
}

impl Stage {
    fn name(self) -> &'static str {
        match self {
            Stage::Plan => "plan",
            Stage::CudaHost => "cuda-host",
            Stage::CudaDevice => "cuda-device",
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the crate lies in the workspace")
}

/// `forkcc build --emit cuda`'s options (it checks `--crcw common`) under `schedule`.
fn emitted(checked: &Checked, schedule: Schedule) -> Result<Emitted, String> {
    let plan = transform::transform(&checked.program)
        .map_err(|errors| diag::render(&checked.sources, &errors, false))?;
    let options = EmitOptions {
        check_common: true,
        schedule,
        ..EmitOptions::default()
    };
    emit_cuda::emit_with(&plan, &checked.sources, options)
        .map_err(|e| diag::render(&checked.sources, &[e.to_diagnostic()], false))
}

/// Whether the front end and the transform accept the program (it has CUDA stages).
fn transforms(file: &Path) -> bool {
    fork_frontend::check_file(file, &Options::default())
        .is_ok_and(|checked| transform::transform(&checked.program).is_ok())
}

/// The stage's text (locations relative to the workspace, so that it does not depend on the
/// checkout); for a program rejected before the stage, the diagnostics.
fn stage_text(file: &Path, stage: Stage) -> String {
    absolute_text(file, stage).replace(&format!("{}/", root().display()), "")
}

fn absolute_text(file: &Path, stage: Stage) -> String {
    let checked = match fork_frontend::check_file(file, &Options::default()) {
        Ok(checked) => checked,
        Err(failed) => return diag::render(&failed.sources, &failed.diagnostics, false),
    };
    match stage {
        Stage::Plan => match transform::transform(&checked.program) {
            Ok(plan) => transform::print::print_plan(&plan),
            Err(errors) => diag::render(&checked.sources, &errors, false),
        },
        Stage::CudaHost => match emitted(&checked, Schedule::Host) {
            Ok(e) => format!("{}{}{}", e.objects_table, e.device, e.host),
            Err(rendered) => rendered,
        },
        Stage::CudaDevice => {
            match (
                emitted(&checked, Schedule::Host),
                emitted(&checked, Schedule::Device),
            ) {
                (Ok(host), Ok(device)) => {
                    // The schedule changes how the host program runs, never the kernels: the
                    // device schedule's device code is the host schedule's up to the host
                    // schedule's entry points and block regions, then the interpreter.
                    assert_eq!(host.objects_table, device.objects_table);
                    let shared = host
                        .device
                        .split(emit_cuda::HOST_SCHEDULE_KERNELS)
                        .next()
                        .unwrap_or_default();
                    assert!(host.device.contains(emit_cuda::HOST_SCHEDULE_KERNELS));
                    let interpreter = device.device.strip_prefix(shared);
                    let interpreter = interpreter.unwrap_or_else(|| {
                        panic!("the device schedule's device code starts with the host schedule's")
                    });
                    format!("{interpreter}{}", device.host)
                }
                (_, Err(rendered)) | (Err(rendered), _) => rendered,
            }
        }
    }
}

fn program_name(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .expect("a .fork file has a UTF-8 name")
        .to_string()
}

/// Where the stage's snapshots of a folder's programs are kept.
fn snapshot_dir(folder: &str, stage: Stage) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/out")
        .join(stage.name())
        .join(folder)
}

/// The snapshot file of `file`'s stage (insta names it after the program).
fn snapshot_path(folder: &str, file: &Path, stage: Stage) -> PathBuf {
    snapshot_dir(folder, stage).join(format!("{}.snap", program_name(file)))
}

fn trial(folder: &'static str, file: PathBuf, stage: Stage) -> Trial {
    let program = program_name(&file);
    Trial::test(format!("{}::{folder}/{program}", stage.name()), move || {
        let text = stage_text(&file, stage);
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(snapshot_dir(folder, stage));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_input_file(&file);
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(program, text));
        Ok(())
    })
}

/// Every snapshot under `tests/out/` belongs to a trial: one left by a program that was
/// renamed or removed (or no longer reaches the stage) fails, so that the corpus holds what
/// the folders hold and nothing else.
fn no_stale_snapshot(expected: Vec<PathBuf>) -> Trial {
    Trial::test("corpus::every_snapshot_has_its_program", move || {
        let mut stale = Vec::new();
        for &(_, folder, _) in FOLDERS {
            for stage in [Stage::Plan, Stage::CudaHost, Stage::CudaDevice] {
                let dir = snapshot_dir(folder, stage);
                let Ok(entries) = std::fs::read_dir(&dir) else {
                    continue;
                };
                for entry in entries {
                    let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
                    if path.extension().is_some_and(|x| x == "snap") && !expected.contains(&path) {
                        stale.push(path.display().to_string());
                    }
                }
            }
        }
        stale.sort();
        match stale.is_empty() {
            true => Ok(()),
            false => Err(format!(
                "snapshots of no corpus program (delete them): {}",
                stale.join(", ")
            )
            .into()),
        }
    })
}

fn main() {
    let mut trials = Vec::new();
    let mut expected = Vec::new();
    for &(dir, folder, with_plan) in FOLDERS {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|entry| entry.expect("a readable folder").path())
            .filter(|f| f.extension().is_some_and(|x| x == "fork"))
            .collect();
        files.sort();
        for file in files {
            let mut stages = Vec::new();
            if with_plan {
                stages.push(Stage::Plan);
            }
            if transforms(&file) {
                stages.extend([Stage::CudaHost, Stage::CudaDevice]);
            }
            for stage in stages {
                expected.push(snapshot_path(folder, &file, stage));
                trials.push(trial(folder, file.clone(), stage));
            }
        }
    }
    trials.push(no_stale_snapshot(expected));
    libtest_mimic::run(&libtest_mimic::Arguments::from_args(), trials).exit()
}
