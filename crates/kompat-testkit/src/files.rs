//! Projects written to a fresh temporary directory for end-to-end tests, and
//! the files of a directory that tests read.

use std::path::{Path, PathBuf};

/// Writes `files` (path relative to the directory, text) into a fresh
/// directory and returns it; it is removed when dropped.
pub fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create dir");
        }
        std::fs::write(path, text).expect("write input");
    }
    dir
}

/// Every YAML and JSON file below `dir`, in sorted order (what the
/// manifests' readers are compared on).
pub fn yaml_files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files_below(&path, out);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "yaml" | "yml" | "json")) {
            out.push(path);
        }
    }
}
