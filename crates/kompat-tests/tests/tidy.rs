//! Conventions the code follows, enforced: every Rust file opens with a `//!`
//! doc (generated files excepted: they open with their `@generated` header),
//! and no test is marked to expect a panic or to be skipped.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `.rs` file of the workspace outside `target/`, hidden folders and
/// fuzzing inputs (`fuzz/corpus`, `fuzz/artifacts`: data, not code).
fn rust_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            if dir.ends_with("fuzz") && (name == "corpus" || name == "artifacts") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_file_opens_with_a_module_doc() {
    let files = rust_files();
    assert!(files.len() > 100, "found only {} files under {}", files.len(), root().display());
    let missing: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            !text.starts_with("//!") && !text.starts_with("// @generated")
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a `//!` doc:\n{}", missing.join("\n"));
}

#[test]
fn no_test_expects_a_panic_or_is_skipped() {
    // Spelled in pieces so that this file does not match itself.
    let forbidden = [concat!("#[should", "_panic"), concat!("#[ig", "nore]"), concat!("#[ig", "nore =")];
    let mut found = Vec::new();
    for path in rust_files() {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for (idx, line) in text.lines().enumerate() {
            if forbidden.iter().any(|f| line.contains(f)) {
                found.push(format!("{}:{}: {}", path.display(), idx + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
