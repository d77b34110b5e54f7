//! Projects written to a fresh temporary directory for end-to-end tests.

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
