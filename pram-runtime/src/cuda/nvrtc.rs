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

/// The NVRTC options for `target`: its architecture (`sm_90`) and C++17 (fold expressions in
/// `fk_printf`); NVRTC's warnings are on by default and come back in the log.
pub fn options(target: &Target) -> Vec<String> {
    let mut options = vec![
        format!("--gpu-architecture={}", target.arch),
        "--std=c++17".into(),
        "-Xptxas=--suppress-stack-size-warning".into(),
    ];
    if target.fast_compile {
        options.push("--Ofast-compile=max".into());
    }
    options
}

/// What NVRTC hands back: PTX text, which the driver compiles for its GPU when loading it, or
/// a CUBIN, machine code for exactly the target architecture, which it loads as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    Ptx,
    Cubin,
}

/// The architecture and the form NVRTC compiles for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub arch: String,
    pub output: Output,
    /// NVRTC's `--Ofast-compile=max`: most optimisations off, for a compile that only checks
    /// that a source compiles cleanly (the compile tests); a fifth of the time.
    pub fast_compile: bool,
}

impl Target {
    /// The PTX of `build --emit ptx` and the compile tests: for [`super::ARCH`].
    pub fn ptx() -> Target {
        Target {
            arch: super::ARCH.into(),
            output: Output::Ptx,
            fast_compile: false,
        }
    }

    /// For a GPU of compute capability `major.minor`: its own CUBIN when NVRTC knows the
    /// architecture (`supported`, as `nvrtcGetSupportedArchs` lists them: 90 for sm_90), so
    /// the driver compiles nothing; else [`Target::ptx`], which a newer GPU's driver compiles.
    pub fn for_device(major: i32, minor: i32, supported: &[i32]) -> Target {
        let arch = major * 10 + minor;
        if supported.contains(&arch) {
            Target {
                arch: format!("sm_{arch}"),
                output: Output::Cubin,
                fast_compile: false,
            }
        } else {
            Target::ptx()
        }
    }
}

/// NVRTC's version (`nvrtcVersion`), None without the library.
pub fn version() -> Option<(i32, i32)> {
    if !nvrtc_present() {
        return None;
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: the library is present; nvrtcVersion writes the two integers.
    let status = unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) };
    (status == cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS).then_some((major, minor))
}

/// The architectures NVRTC compiles for (90 for sm_90); empty without the library.
pub fn supported_archs() -> Vec<i32> {
    use cudarc::nvrtc::sys;
    if !nvrtc_present() {
        return Vec::new();
    }
    let mut count = 0;
    // SAFETY: the library is present; the first call writes the count, the second fills a
    // buffer of that many integers.
    unsafe {
        if sys::nvrtcGetNumSupportedArchs(&mut count) != sys::nvrtcResult::NVRTC_SUCCESS {
            return Vec::new();
        }
        let mut archs = vec![0; count.max(0) as usize];
        if sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) != sys::nvrtcResult::NVRTC_SUCCESS {
            return Vec::new();
        }
        archs
    }
}

/// PTX for `source` (for [`super::ARCH`]), and NVRTC's log (its warnings; empty when clean).
pub fn compile_ptx(source: &str) -> Result<(String, String), CompileError> {
    let (ptx, log) = compile(source, &Target::ptx())?;
    Ok((String::from_utf8_lossy(&ptx).into_owned(), log))
}

/// `source` compiled for `target` (PTX without its closing NUL, or the CUBIN), and NVRTC's
/// log (its warnings; empty when clean).
pub fn compile(source: &str, target: &Target) -> Result<(Vec<u8>, String), CompileError> {
    use cudarc::nvrtc::{result, sys};
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
    // and the PTX are NUL-terminated buffers NVRTC filled, the CUBIN a buffer of the size
    // NVRTC reported.
    unsafe {
        let compiled = result::compile_program(prog, &options(target));
        let log = result::get_program_log(prog)
            .map(|raw| {
                CStr::from_ptr(raw.as_ptr())
                    .to_string_lossy()
                    .trim()
                    .to_string()
            })
            .unwrap_or_default();
        let output = compiled.and_then(|_| match target.output {
            Output::Ptx => {
                result::get_ptx(prog).map(|raw| CStr::from_ptr(raw.as_ptr()).to_bytes().to_vec())
            }
            Output::Cubin => {
                let mut size = 0;
                sys::nvrtcGetCUBINSize(prog, &mut size).result()?;
                let mut cubin = vec![0u8; size];
                sys::nvrtcGetCUBIN(prog, cubin.as_mut_ptr().cast()).result()?;
                Ok(cubin)
            }
        });
        let _ = result::destroy_program(prog);
        match output {
            Ok(bytes) => Ok((bytes, log)),
            Err(e) => Err(CompileError::Rejected(if log.is_empty() {
                format!("{e:?}")
            } else {
                log
            })),
        }
    }
}
