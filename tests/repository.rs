//! What a fresh clone promises: the documents and comments point only into the repository,
//! and the Rust version the manifest and README state is the one the locked dependencies need.

use std::path::{Path, PathBuf};

/// The `.md` and `.rs` files of the repository, build outputs aside.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if !matches!(
                name.to_str(),
                Some("target" | ".git" | "corpus" | "artifacts")
            ) {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "md" || e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn documents_name_only_pages_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(root, &mut files);
    assert!(files.len() > 50, "{} files", files.len());
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let name = file
            .strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string();
        if text.contains(concat!("/work", "/")) {
            wrong.push(format!("{name}: an absolute path outside the repository"));
        }
        for (at, _) in text.match_indices("docs/") {
            let page: String = text[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || "/._-".contains(*c))
                .collect();
            let page = page.trim_end_matches('.');
            if page.ends_with(".md") && !root.join(page).is_file() {
                wrong.push(format!("{name}: `{page}` does not exist"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// `(major, minor)` of a version such as `1.88` or `1.88.0`.
fn version(text: &str) -> (u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn the_stated_rust_version_is_what_the_locked_dependencies_need() {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    let needed = packages
        .iter()
        .filter(|p| p["source"].is_string())
        .filter_map(|p| p["rust_version"].as_str())
        .map(version)
        .max()
        .expect("dependencies declare a rust-version");
    let stated = packages
        .iter()
        .find(|p| p["name"] == "forkcc")
        .and_then(|p| p["rust_version"].as_str())
        .map(version)
        .expect("forkcc declares rust-version");
    assert_eq!(stated, needed, "Cargo.toml's rust-version");
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let said = format!("Rust {}.{} or later", needed.0, needed.1);
    assert!(readme.contains(&said), "the README does not say \"{said}\"");
}
