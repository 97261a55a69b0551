//! Compiling the device source to PTX with NVRTC (through cudarc), with a clear error when the
//! library is missing (cudarc panics when it cannot load a library, so look first).

use std::fmt;

/// Why no PTX came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CompileError {
    /// The NVRTC library cannot be loaded.
    NoNvrtc,
    /// NVRTC rejected the source; the log says why.
    Rejected(String),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::NoNvrtc => write!(
                f,
                "the NVRTC library (libnvrtc.so) cannot be found; install the CUDA toolkit or \
                 the `nvidia-cuda-nvrtc` wheel and put its lib folder on LD_LIBRARY_PATH"
            ),
            CompileError::Rejected(log) => write!(f, "NVRTC rejected the generated CUDA:\n{log}"),
        }
    }
}

/// Whether the NVRTC library can be loaded.
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to load the shared library; no NVRTC call is made.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// The NVRTC options: the target and C++17 (fold expressions in `fk_printf`); NVRTC's
/// warnings are on by default and come back in the log.
pub fn options() -> Vec<String> {
    vec![
        format!("--gpu-architecture={}", super::ARCH),
        "--std=c++17".into(),
        "-Xptxas=--suppress-stack-size-warning".into(),
    ]
}

/// PTX for `source`, and NVRTC's log (its warnings; empty when clean).
pub fn compile_ptx(source: &str) -> Result<(String, String), CompileError> {
    use cudarc::nvrtc::result;
    use std::ffi::{CStr, CString};
    if !nvrtc_present() {
        return Err(CompileError::NoNvrtc);
    }
    let src = CString::new(source)
        .map_err(|_| CompileError::Rejected("the source contains a NUL byte".into()))?;
    let name = CString::new("forkcc.cu").map_err(|_| CompileError::NoNvrtc)?;
    let failed =
        |what: &str, e: result::NvrtcError| CompileError::Rejected(format!("{what}: {e:?}"));
    let prog = result::create_program(&src, Some(&name)).map_err(|e| failed("create", e))?;
    // SAFETY: `prog` is a live program from create_program, destroyed once below; the log
    // and the PTX are NUL-terminated buffers NVRTC filled.
    unsafe {
        let compiled = result::compile_program(prog, &options());
        let log = result::get_program_log(prog)
            .map(|raw| {
                CStr::from_ptr(raw.as_ptr())
                    .to_string_lossy()
                    .trim()
                    .to_string()
            })
            .unwrap_or_default();
        let ptx = compiled.and_then(|_| result::get_ptx(prog));
        let _ = result::destroy_program(prog);
        match ptx {
            Ok(raw) => Ok((
                CStr::from_ptr(raw.as_ptr()).to_string_lossy().into_owned(),
                log,
            )),
            Err(e) => Err(CompileError::Rejected(if log.is_empty() {
                format!("{e:?}")
            } else {
                log
            })),
        }
    }
}
