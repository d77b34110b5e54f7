//! Running the built `kompat` binary from end-to-end tests.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs kompat in `dir` (no colour, no inherited `OUT_DIR`) and returns
/// (exit code, stdout, stderr).
pub fn kompat_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("OUT_DIR")
        .args(args)
        .output()
        .expect("run kompat");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `files` into a fresh directory and returns it.
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

/// A `kompat lint` run in a human-readable format, its findings moved from
/// stderr (where they go, as rustc's do) into the stdout slot, without the
/// closing `kompat lint: ...` summary line.
pub fn findings_on_stderr((code, _stdout, stderr): (i32, String, String)) -> (i32, String, String) {
    let findings = stderr.lines().filter(|l| !l.starts_with("kompat lint: ")).map(|l| format!("{l}\n")).collect();
    (code, findings, stderr)
}
