//! The on-disk compile cache: NVRTC compiles a device source once; later runs of the same
//! program load what it produced. An entry is named by a SHA-256 of everything that shapes
//! NVRTC's output (the source text, the options with the target architecture, the output form,
//! NVRTC's version, forkcc's version) and holds a SHA-256 of its contents, so a damaged entry
//! reads as a miss and is compiled and written again. Entries are written to a temporary file
//! and renamed into place, so a parallel run reads a whole entry or none.
//!
//! The cache only saves time: a folder that cannot be made, read or written means compiling.
//!
//! Folder: `$FORKCC_CACHE_DIR`, else the user's cache folder (`$XDG_CACHE_HOME`, else
//! `~/.cache`, on Linux) + `forkcc`.

use super::nvrtc::{self, CompileError, Output, Target};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What an entry starts with; a new layout gets a new tag (and so new names: the tag is part
/// of the key).
const MAGIC: &[u8] = b"forkcc compile cache 1\n";

/// The variable that names the cache folder.
pub const DIR_VARIABLE: &str = "FORKCC_CACHE_DIR";

/// Where entries live.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: PathBuf,
}

/// Whether the compiled code came from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    Cached,
    Compiled,
}

/// An entry's name: the SHA-256 of its parts, each preceded by its length (so no two lists of
/// parts give the same bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key(String);

impl Key {
    pub fn of(parts: &[&[u8]]) -> Key {
        let mut hash = Sha256::new();
        for part in parts {
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part);
        }
        Key(hex(&hash.finalize()))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    /// `$FORKCC_CACHE_DIR` when set and not empty, else the user's cache folder + `forkcc`;
    /// None when there is neither.
    pub fn from_env() -> Option<Cache> {
        Cache::named(std::env::var_os(DIR_VARIABLE))
    }

    /// The cache `$FORKCC_CACHE_DIR` (`named`) chooses.
    fn named(named: Option<std::ffi::OsString>) -> Option<Cache> {
        named
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .or_else(|| dirs::cache_dir().map(|d| d.join("forkcc")))
            .map(Cache::new)
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The entry of `key` with extension `ext`, or what `compile` returns, stored under `key`
    /// (when the folder takes it; a failed write is no error).
    pub fn get_or_compile<E>(
        &self,
        key: &Key,
        ext: &str,
        compile: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<(Vec<u8>, Origin), E> {
        let path = self.dir.join(format!("{}.{ext}", key.0));
        if let Some(bytes) = read_entry(&path) {
            return Ok((bytes, Origin::Cached));
        }
        let bytes = compile()?;
        let _ = self.write_entry(&path, &bytes);
        Ok((bytes, Origin::Compiled))
    }

    /// Written beside its place and renamed into it: readers see the old entry, none, or the
    /// new one whole (a rename within a folder is atomic).
    fn write_entry(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let mut file = tempfile::NamedTempFile::new_in(&self.dir)?;
        file.write_all(MAGIC)?;
        file.write_all(&Sha256::digest(bytes))?;
        file.write_all(bytes)?;
        file.persist(path)?;
        Ok(())
    }
}

/// An entry's contents, if the file is there and whole (its tag and checksum agree).
fn read_entry(path: &Path) -> Option<Vec<u8>> {
    let mut file = std::fs::read(path).ok()?;
    let header = MAGIC.len() + 32;
    if file.len() < header || !file.starts_with(MAGIC) {
        return None;
    }
    let bytes = file.split_off(header);
    (Sha256::digest(&bytes).as_slice() == &file[MAGIC.len()..]).then_some(bytes)
}

/// The key of `source` compiled for `target` by the loaded NVRTC (`version`).
fn key(source: &str, target: &Target, version: (i32, i32)) -> Key {
    let options = nvrtc::options(target);
    let nvrtc = format!("NVRTC {}.{}", version.0, version.1);
    let mut parts: Vec<&[u8]> = vec![
        MAGIC,
        concat!("forkcc ", env!("CARGO_PKG_VERSION")).as_bytes(),
        nvrtc.as_bytes(),
        extension(target.output).as_bytes(),
    ];
    parts.extend(options.iter().map(|o| o.as_bytes()));
    parts.push(source.as_bytes());
    Key::of(&parts)
}

fn extension(output: Output) -> &'static str {
    match output {
        Output::Ptx => "ptx",
        Output::Cubin => "cubin",
    }
}

/// `source` compiled for `target`: from `cache` when it holds it, else by NVRTC (and then
/// stored there). NVRTC's warnings are not kept: the compile tests hold the emitted CUDA free
/// of them.
pub fn compile(
    source: &str,
    target: &Target,
    cache: Option<&Cache>,
) -> Result<(Vec<u8>, Origin), CompileError> {
    let compile = || nvrtc::compile(source, target).map(|(bytes, _log)| bytes);
    match (cache, nvrtc::version()) {
        (Some(cache), Some(version)) => cache.get_or_compile(
            &key(source, target, version),
            extension(target.output),
            compile,
        ),
        _ => compile().map(|bytes| (bytes, Origin::Compiled)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A compiler that counts its calls and returns `bytes`.
    fn counting<'a>(
        calls: &'a Cell<u32>,
        bytes: &'a [u8],
    ) -> impl Fn() -> Result<Vec<u8>, ()> + 'a {
        move || {
            calls.set(calls.get() + 1);
            Ok(bytes.to_vec())
        }
    }

    #[test]
    fn a_second_compile_of_a_key_is_a_hit_with_the_same_bytes() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let cache = Cache::new(dir.path().join("nested/forkcc"));
        let calls = Cell::new(0);
        let key = Key::of(&[b"source"]);
        let first = cache.get_or_compile(&key, "cubin", counting(&calls, b"\x7fELF code"));
        let second = cache.get_or_compile(&key, "cubin", counting(&calls, b"other"));
        assert_eq!(first, Ok((b"\x7fELF code".to_vec(), Origin::Compiled)));
        assert_eq!(second, Ok((b"\x7fELF code".to_vec(), Origin::Cached)));
        assert_eq!(calls.get(), 1);
        // One entry, no temporary file left behind.
        assert_eq!(
            std::fs::read_dir(cache.dir()).map(|d| d.count()).ok(),
            Some(1)
        );
    }

    #[test]
    fn another_key_or_extension_is_a_miss() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let cache = Cache::new(dir.path());
        let calls = Cell::new(0);
        let _ = cache.get_or_compile(&Key::of(&[b"a", b"b"]), "cubin", counting(&calls, b"1"));
        let other = cache.get_or_compile(&Key::of(&[b"ab"]), "cubin", counting(&calls, b"2"));
        let ptx = cache.get_or_compile(&Key::of(&[b"a", b"b"]), "ptx", counting(&calls, b"3"));
        assert_eq!(other, Ok((b"2".to_vec(), Origin::Compiled)));
        assert_eq!(ptx, Ok((b"3".to_vec(), Origin::Compiled)));
        assert_eq!(calls.get(), 3);
    }

    /// A truncated entry, one with a flipped byte and one of another layout are compiled
    /// again and overwritten.
    #[test]
    fn a_damaged_entry_is_compiled_again_and_overwritten() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let cache = Cache::new(dir.path());
        let key = Key::of(&[b"source"]);
        let path = dir.path().join(format!("{}.cubin", key.0));
        let calls = Cell::new(0);
        let _ = cache.get_or_compile(&key, "cubin", counting(&calls, b"machine code"));
        let whole = std::fs::read(&path).expect("the entry");
        let mut flipped = whole.clone();
        *flipped.last_mut().expect("bytes") ^= 1;
        let damaged = [
            whole[..whole.len() - 3].to_vec(),
            flipped,
            [b"forkcc compile cache 0\n", &whole[MAGIC.len()..]].concat(),
            Vec::new(),
        ];
        for (i, bytes) in damaged.iter().enumerate() {
            std::fs::write(&path, bytes).expect("damage the entry");
            let again = cache.get_or_compile(&key, "cubin", counting(&calls, b"machine code"));
            assert_eq!(
                again,
                Ok((b"machine code".to_vec(), Origin::Compiled)),
                "damage {i}"
            );
            assert_eq!(std::fs::read(&path).ok(), Some(whole.clone()), "damage {i}");
        }
        assert_eq!(calls.get(), 1 + damaged.len() as u32);
    }

    /// A folder that cannot be made (a file is in the way) compiles every time, without error.
    #[test]
    fn an_unusable_folder_compiles_every_time() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let file = dir.path().join("file");
        std::fs::write(&file, "").expect("a file");
        let cache = Cache::new(file.join("forkcc"));
        let calls = Cell::new(0);
        for _ in 0..2 {
            let run = cache.get_or_compile(&Key::of(&[b"s"]), "cubin", counting(&calls, b"x"));
            assert_eq!(run, Ok((b"x".to_vec(), Origin::Compiled)));
        }
        assert_eq!(calls.get(), 2);
    }

    /// A compile error is returned and nothing is stored.
    #[test]
    fn a_failed_compile_stores_nothing() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let cache = Cache::new(dir.path());
        let failed = cache.get_or_compile(&Key::of(&[b"s"]), "cubin", || Err::<Vec<u8>, _>("no"));
        assert_eq!(failed, Err("no"));
        assert_eq!(
            std::fs::read_dir(dir.path()).map(|d| d.count()).ok(),
            Some(0)
        );
    }

    /// Each part of the key changes it: the source, the architecture, the output form, the
    /// optimisation, NVRTC's version.
    #[test]
    fn every_input_of_the_compile_changes_the_key() {
        let cubin = |arch: &str| Target {
            arch: arch.into(),
            output: Output::Cubin,
            fast_compile: false,
        };
        let base = key("src", &cubin("sm_90"), (13, 0));
        let others = [
            key("src ", &cubin("sm_90"), (13, 0)),
            key("src", &cubin("sm_100"), (13, 0)),
            key("src", &Target::ptx(), (13, 0)),
            key(
                "src",
                &Target {
                    fast_compile: true,
                    ..cubin("sm_90")
                },
                (13, 0),
            ),
            key("src", &cubin("sm_90"), (13, 1)),
        ];
        for other in others {
            assert_ne!(base, other);
        }
        assert_eq!(base, key("src", &cubin("sm_90"), (13, 0)));
    }

    /// `$FORKCC_CACHE_DIR` names the folder; unset or empty, the user's cache folder's
    /// `forkcc` is used.
    #[test]
    fn the_variable_names_the_folder() {
        let dir = |named: Option<&str>| Cache::named(named.map(Into::into)).map(|c| c.dir);
        assert_eq!(dir(Some("/tmp/fk")), Some(PathBuf::from("/tmp/fk")));
        let default = dirs::cache_dir().map(|d| d.join("forkcc"));
        assert_eq!(dir(Some("")), default);
        assert_eq!(dir(None), default);
    }

    #[test]
    fn a_gpu_gets_its_own_cubin_where_nvrtc_knows_its_architecture() {
        let supported = [75, 80, 86, 89, 90, 100, 120];
        let target = Target::for_device(9, 0, &supported);
        assert_eq!(
            (target.arch.as_str(), target.output),
            ("sm_90", Output::Cubin)
        );
        let target = Target::for_device(8, 9, &supported);
        assert_eq!(
            (target.arch.as_str(), target.output),
            ("sm_89", Output::Cubin)
        );
        // A GPU newer than NVRTC: the PTX, which its driver compiles.
        assert_eq!(Target::for_device(13, 0, &supported), Target::ptx());
    }
}
