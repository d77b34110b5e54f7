//! Conventions the code follows, enforced: every Rust file opens with a `//!`
//! doc (generated files excepted: they open with their `@generated` header),
//! no test is marked to expect a panic or to be skipped, and each crate's
//! integration tests are one test binary (`tests/it/`).

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

/// Test binaries that must run alone: each installs a counting
/// `#[global_allocator]` and measures the peak heap of what it parses, which
/// other tests of the same process would disturb.
const ALONE: [&str; 3] = [
    "crates/kompat-cli/tests/findings_memory.rs",
    "crates/kompat-crd/tests/deep_schema.rs",
    "crates/kompat-formats/tests/alias_bomb.rs",
];

#[test]
fn each_crate_has_one_integration_test_binary() {
    let mut extra = Vec::new();
    let crates = std::fs::read_dir(root().join("crates")).expect("crates/");
    for entry in crates.flatten() {
        let tests = entry.path().join("tests");
        let Ok(files) = std::fs::read_dir(&tests) else { continue };
        for file in files.flatten() {
            let path = file.path();
            let rel = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
            let binary = path.extension().is_some_and(|e| e == "rs") || path.join("main.rs").is_file();
            if binary && !rel.ends_with("/tests/it") && !ALONE.contains(&rel.as_str()) {
                extra.push(rel);
            }
        }
    }
    extra.sort();
    assert!(
        extra.is_empty(),
        "test binaries beside tests/it/ (make each a module of tests/it/main.rs):\n{}",
        extra.join("\n")
    );
}
