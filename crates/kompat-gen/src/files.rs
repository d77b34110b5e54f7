//! Writing generated files, and checking checked-in ones for staleness.
//!
//! **Invariant:** a run writes every file or none. Each changed file is first
//! written to a temporary file in its own directory; only when all of them are
//! written are they renamed over their targets. Files whose contents are
//! already right are not touched (their modification time stays, so build
//! scripts do not trigger rebuilds).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use similar::TextDiff;

/// One rendered output and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: PathBuf,
    pub contents: String,
}

/// What [`write_files`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteReport {
    /// Files created or rewritten.
    pub written: Vec<PathBuf>,
    /// Files that already had the right contents.
    pub unchanged: Vec<PathBuf>,
}

/// A checked-in file that differs from what generation produces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stale {
    pub path: PathBuf,
    /// The file does not exist at all.
    pub missing: bool,
    /// A unified diff from the file on disk to the generated contents.
    pub diff: String,
}

/// An I/O failure on one file. Nothing has been written when it is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for FileError {}

/// Writes every file whose contents differ, atomically as a set (see the
/// module documentation).
pub fn write_files(files: &[GeneratedFile]) -> Result<WriteReport, FileError> {
    let mut report = WriteReport::default();
    let mut pending: Vec<(PathBuf, &GeneratedFile)> = Vec::new();
    let mut created_dirs: Vec<PathBuf> = Vec::new();

    let staged = (|| {
        for file in files {
            if is_current(&file.path, &file.contents)? {
                report.unchanged.push(file.path.clone());
                continue;
            }
            let temp = stage(file, &mut created_dirs)?;
            pending.push((temp, file));
        }
        Ok(())
    })();
    if let Err(err) = staged {
        discard(&pending, &created_dirs);
        return Err(err);
    }

    for (idx, (temp, file)) in pending.iter().enumerate() {
        if let Err(err) = fs::rename(temp, &file.path) {
            discard(&pending[idx..], &[]);
            return Err(file_error(&file.path, "cannot write", &err));
        }
        report.written.push(file.path.clone());
    }
    Ok(report)
}

/// Compares every file with its generated contents (line ends normalized to
/// `\n`) and returns the stale ones, with diffs. Writes nothing.
pub fn check_files(files: &[GeneratedFile]) -> Result<Vec<Stale>, FileError> {
    let mut stale = Vec::new();
    for file in files {
        if is_current(&file.path, &file.contents)? {
            continue;
        }
        let current = current_contents(&file.path)?;
        let old = current.as_deref().unwrap_or("");
        // Git's `a/` and `b/` prefixes, for relative paths.
        let shown = file.path.display().to_string();
        let (before, after) = match file.path.is_absolute() {
            true => (shown.clone(), shown),
            false => (format!("a/{shown}"), format!("b/{shown}")),
        };
        let diff = TextDiff::from_lines(old, file.contents.as_str())
            .unified_diff()
            .context_radius(3)
            .header(&before, &after)
            .to_string();
        stale.push(Stale { path: file.path.clone(), missing: current.is_none(), diff });
    }
    Ok(stale)
}

/// Whether the file at `path` holds `contents` (`\r\n` read as `\n`):
/// compared chunk by chunk as it is read, so that an up-to-date file (the
/// usual case) is never held whole. A file with a `\r` is compared through
/// [`current_contents`].
fn is_current(path: &Path, contents: &str) -> Result<bool, FileError> {
    use std::io::Read;
    if contents.is_empty() {
        return Ok(current_contents(path)?.as_deref() == Some(contents));
    }
    let mut file = match fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(err) => return Err(file_error(path, "cannot read", &err)),
    };
    let expected = contents.as_bytes();
    let mut chunk = [0u8; 8192];
    let mut at = 0;
    loop {
        let read = match file.read(&mut chunk) {
            Ok(0) => return Ok(at == expected.len()),
            Ok(read) => &chunk[..read],
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(file_error(path, "cannot read", &err)),
        };
        if read.contains(&b'\r') {
            return Ok(current_contents(path)?.as_deref() == Some(contents));
        }
        if expected.get(at..at + read.len()) != Some(read) {
            return Ok(false);
        }
        at += read.len();
    }
}

/// The file's contents with `\r\n` read as `\n` (a checkout may have
/// converted line ends), or `None` when it does not exist.
fn current_contents(path: &Path) -> Result<Option<String>, FileError> {
    match fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            // A byte search first: most files have no `\r` to replace.
            Ok(text) if !text.contains('\r') => Ok(Some(text)),
            Ok(text) => Ok(Some(text.replace("\r\n", "\n"))),
            // Not text: certainly not what we generate.
            Err(_) => Ok(Some(String::new())),
        },
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(file_error(path, "cannot read", &err)),
    }
}

/// Writes `file` to a fresh temporary file next to its target, creating
/// missing directories (recorded in `created_dirs`, outermost first).
fn stage(file: &GeneratedFile, created_dirs: &mut Vec<PathBuf>) -> Result<PathBuf, FileError> {
    stage_with(&file.path, created_dirs, &mut |out| io::Write::write_all(out, file.contents.as_bytes()))
}

/// Writes one file atomically from `write`, which fills a temporary file
/// beside it as the contents are made (a report of hundreds of thousands of
/// findings is never held whole): renamed over `path` when `write` succeeds;
/// on failure nothing is left behind. The file is written even when it
/// already holds the same contents.
pub fn write_file_with(
    path: &Path,
    write: &mut dyn FnMut(&mut dyn io::Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let mut created_dirs = Vec::new();
    let temp = match stage_with(path, &mut created_dirs, write) {
        Ok(temp) => temp,
        Err(err) => {
            discard(&[], &created_dirs);
            return Err(err);
        }
    };
    if let Err(err) = fs::rename(&temp, path) {
        let _ = fs::remove_file(&temp);
        discard(&[], &created_dirs);
        return Err(file_error(path, "cannot write", &err));
    }
    Ok(())
}

/// Writes a temporary file beside `path` through `write` (creating the
/// missing directories, recorded in `created_dirs`), and returns its path.
fn stage_with(
    path: &Path,
    created_dirs: &mut Vec<PathBuf>,
    write: &mut dyn FnMut(&mut dyn io::Write) -> io::Result<()>,
) -> Result<PathBuf, FileError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    };
    let mut missing = Vec::new();
    let mut ancestor = Some(dir.as_path());
    while let Some(a) = ancestor.filter(|a| !a.as_os_str().is_empty() && !a.exists()) {
        missing.push(a.to_owned());
        ancestor = a.parent();
    }
    for missing_dir in missing.into_iter().rev() {
        fs::create_dir(&missing_dir).map_err(|err| file_error(&missing_dir, "cannot create directory", &err))?;
        created_dirs.push(missing_dir);
    }
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("output");
    let temp = dir.join(format!(".{name}.kompat-gen-{}.tmp", std::process::id()));
    let written = fs::File::create(&temp).and_then(|file| {
        let mut out = io::BufWriter::with_capacity(1 << 16, file);
        write(&mut out)?;
        io::Write::flush(&mut out)
    });
    written.map_err(|err| {
        let _ = fs::remove_file(&temp);
        file_error(path, "cannot write", &err)
    })?;
    Ok(temp)
}

/// Removes staged temporary files and the directories created for them.
fn discard(pending: &[(PathBuf, &GeneratedFile)], created_dirs: &[PathBuf]) {
    for (temp, _) in pending {
        let _ = fs::remove_file(temp);
    }
    for dir in created_dirs.iter().rev() {
        let _ = fs::remove_dir(dir);
    }
}

fn file_error(path: &Path, what: &str, err: &io::Error) -> FileError {
    let text = err.to_string();
    let reason = match text.find(" (os error") {
        Some(idx) => &text[..idx],
        None => &text,
    };
    FileError { path: path.to_owned(), message: format!("{what} {}: {reason}", path.display()) }
}
