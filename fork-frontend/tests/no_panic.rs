//! Robustness: every corpus file, truncated at every 7th byte and mutated a few hundred
//! times (seeded, deterministic), goes through the whole front end without a panic.

use fork_frontend::{check_source, Options};
use std::path::{Path, PathBuf};

fn corpus_files() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for kind in ["valid", "invalid"] {
        let dir = PathBuf::from("tests/corpus").join(kind);
        for entry in std::fs::read_dir(&dir).expect("corpus directory") {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|e| e == "fork") {
                let text = std::fs::read_to_string(&path).expect("corpus file");
                files.push((path, text));
            }
        }
    }
    files.sort();
    files
}

/// A small deterministic generator (64-bit LCG), so every run tests the same inputs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

/// Bytes that tend to break C-like syntax in interesting ways.
const NOISE: &[u8] = b"{}()[];,*&$@#\"'\\\n0 9az+-/=<>!?.:%~^|_";

fn run(path: &Path, text: &str) {
    // The name is the real path, so `#include "..."` next to the file still resolves.
    let _ = check_source(&path.display().to_string(), text, &Options::default());
}

#[test]
fn truncations_never_panic() {
    for (path, text) in corpus_files() {
        for cut in (0..text.len())
            .step_by(7)
            .filter(|i| text.is_char_boundary(*i))
        {
            run(&path, &text[..cut]);
        }
    }
}

/// Replaces one identifier-like word with another, so the result often still parses and
/// reaches the checker with wrong names, types or Fork constructs.
fn swap_word(text: &str, rng: &mut Lcg) -> String {
    const POOL: &[&str] = &[
        "sh",
        "pr",
        "sync",
        "async",
        "straight",
        "int",
        "char",
        "double",
        "void",
        "struct",
        "start",
        "farm",
        "seq",
        "fork",
        "barrier",
        "return",
        "break",
        "printf",
        "mpadd",
        "groupsize",
        "main",
        "x",
        "0",
        "1",
    ];
    let words: Vec<(usize, usize)> = text
        .char_indices()
        .filter(|(i, c)| {
            c.is_ascii_alphanumeric()
                && !text[..*i].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_')
        })
        .map(|(i, _)| {
            (
                i,
                i + text[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(text.len() - i),
            )
        })
        .collect();
    if words.is_empty() {
        return text.to_string();
    }
    let (lo, hi) = words[rng.next(words.len())];
    let replacement = if rng.next(2) == 0 {
        POOL[rng.next(POOL.len())].to_string()
    } else {
        let (a, b) = words[rng.next(words.len())];
        text[a..b].to_string()
    };
    format!("{}{replacement}{}", &text[..lo], &text[hi..])
}

#[test]
fn word_swaps_never_panic() {
    let mut rng = Lcg(0xf04c_c0de);
    for (path, text) in &corpus_files() {
        for _ in 0..8 {
            let mut mutated = text.clone();
            for _ in 0..=rng.next(2) {
                mutated = swap_word(&mutated, &mut rng);
            }
            run(path, &mutated);
        }
    }
}

#[test]
fn mutations_never_panic() {
    let mut rng = Lcg(0x5eed_f04c);
    let files = corpus_files();
    for (path, text) in &files {
        for _ in 0..8 {
            let mut bytes = text.as_bytes().to_vec();
            for _ in 0..=rng.next(3) {
                let at = rng.next(bytes.len());
                let noise = NOISE[rng.next(NOISE.len())];
                match rng.next(3) {
                    0 => bytes[at] = noise,
                    1 => bytes.insert(at, noise),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            // Only ASCII bytes are replaced or removed next to ASCII, so this rarely fails;
            // a mutation that breaks UTF-8 is skipped (check_source takes text).
            if let Ok(mutated) = String::from_utf8(bytes) {
                run(path, &mutated);
            }
        }
    }
}
