//! Output and errors shared by kompat's binaries (the `kompat` CLI and the
//! maintainers' `xtask`): printing to stdout, writing a file atomically,
//! collecting every error of a list of inputs, reading a version flag.

use kompat_project::{Error, Result};
use kompat_runtime::{Version, VersionRange};

/// Applies `f` to every item and keeps going after a failure, so that one
/// run reports every bad argument: all the results, or the diagnostics of
/// every failure.
pub fn try_each<I: IntoIterator, T>(items: I, mut f: impl FnMut(I::Item) -> Result<T>) -> Result<Vec<T>> {
    let mut out = Vec::new();
    let mut diagnostics = Vec::new();
    for item in items {
        match f(item) {
            Ok(value) => out.push(value),
            Err(err) => diagnostics.extend(err.diagnostics),
        }
    }
    if diagnostics.is_empty() {
        Ok(out)
    } else {
        Err(Error { diagnostics })
    }
}

/// Parses a version given in a flag (`1.31`, `v1.31`, `1.31.0`).
pub fn flag_version(flag: &str, value: &str) -> Result<Version> {
    Version::parse_flag(value).map_err(|err| Error::msg(format!("invalid value for --{flag}: {err}")))
}

/// A version flag that also takes an upgrade path `A..B`
/// (`--kubernetes-version 1.30..1.34`).
pub fn flag_range(flag: &str, value: &str) -> Result<VersionRange> {
    VersionRange::parse_with(value, Version::parse_flag)
        .map_err(|err| Error::msg(format!("invalid value for --{flag}: {err}")))
}

/// Writes `text` to stdout; a closed pipe is not an error.
pub fn print_stdout(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(Error::msg(format!("cannot write to stdout: {err}"))),
    }
}

/// Writes to stdout through `write` (buffered), as [`print_stdout`] does: a
/// closed pipe is not an error.
pub fn print_stdout_with(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(err) => Err(Error::msg(format!("cannot write to stdout: {err}"))),
    }
}

/// Writes one output file the way `kompat gen` writes (atomically, nothing
/// left behind on error).
pub fn write_file(path: &std::path::Path, contents: String) -> Result<()> {
    let file = kompat_gen::GeneratedFile { path: path.to_path_buf(), contents };
    kompat_gen::write_files(std::slice::from_ref(&file)).map_err(kompat_gen::file_error)?;
    Ok(())
}

/// Writes one output file through `write` as the contents are made,
/// atomically as [`write_file`] does (nothing left behind on error).
pub fn write_file_with(
    path: &std::path::Path,
    mut write: impl FnMut(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<()> {
    kompat_gen::write_file_with(path, &mut write).map_err(kompat_gen::file_error)?;
    Ok(())
}

/// Writes `text` to `output` when one is given (`--output`), else prints it.
pub fn write_or_print(output: Option<&std::path::Path>, text: String) -> Result<()> {
    match output {
        Some(path) => write_file(path, text),
        None => print_stdout(&text),
    }
}
