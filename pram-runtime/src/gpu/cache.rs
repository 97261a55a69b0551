//! The on-disk PTX cache: NVRTC runs once per (source, options); later runs load the PTX.
//! Entries live under `$XDG_CACHE_HOME/forkcc` (else `~/.cache/forkcc`), named by a hash of
//! the source and the options; the source is stored beside the PTX and compared on a hit, so
//! a hash collision cannot load the wrong code.

use crate::cuda::nvrtc::{self, CompileError};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("forkcc"))
}

fn key(source: &str, options: &[String]) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    source.hash(&mut h);
    options.hash(&mut h);
    env!("CARGO_PKG_VERSION").hash(&mut h);
    format!("{:016x}", h.finish())
}

/// Whether the PTX came from the cache.
pub enum Origin {
    Cached,
    Compiled,
}

/// The PTX of `source`, from the cache or compiled (and then stored; a cache that cannot be
/// written is skipped silently: it only saves time).
pub fn ptx(source: &str) -> Result<(String, Origin), CompileError> {
    let options = nvrtc::options();
    let entry = cache_dir().map(|d| d.join(key(source, &options)));
    if let Some(entry) = &entry {
        let cached = std::fs::read_to_string(entry.with_extension("cu"))
            .ok()
            .filter(|s| s == source)
            .and_then(|_| std::fs::read_to_string(entry.with_extension("ptx")).ok());
        if let Some(ptx) = cached {
            return Ok((ptx, Origin::Cached));
        }
    }
    let (ptx, _log) = nvrtc::compile_ptx(source)?;
    if let Some(entry) = &entry {
        if let Some(dir) = entry.parent() {
            let _ = std::fs::create_dir_all(dir)
                .and_then(|_| std::fs::write(entry.with_extension("ptx"), &ptx))
                .and_then(|_| std::fs::write(entry.with_extension("cu"), source));
        }
    }
    Ok((ptx, Origin::Compiled))
}
