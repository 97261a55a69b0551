//! The documents and comments point only into the repository: every `docs/...` page they name
//! exists, and none names a path outside it (a user has only the clone).

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
