//! Running the built `kompat` binary from end-to-end tests.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

pub use kompat_testkit::files::dir_with;

/// Runs kompat in `dir` (no colour, no inherited `OUT_DIR`) and returns
/// (exit code, stdout, stderr).
pub fn kompat_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    kompat_in_env(dir, args, &[])
}

/// [`kompat_in`] with environment variables set (`PATH`, say).
pub fn kompat_in_env(dir: &Path, args: &[&str], env: &[(&str, &OsStr)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("OUT_DIR")
        .envs(env.iter().copied())
        .args(args)
        .output()
        .expect("run kompat");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A `kompat lint` run in a human-readable format, its findings moved from
/// stderr (where they go, as rustc's do) into the stdout slot, without the
/// closing `kompat lint: ...` summary line.
pub fn findings_on_stderr((code, _stdout, stderr): (i32, String, String)) -> (i32, String, String) {
    let findings = stderr.lines().filter(|l| !l.starts_with("kompat lint: ")).map(|l| format!("{l}\n")).collect();
    (code, findings, stderr)
}
