//! Input errors: one or more error [`Diagnostic`]s (no code), each with a
//! message and, where known, a file and a span in it. Every such error ends a
//! `kompat` run with exit code 2.

use std::fmt;
use std::path::Path;

use kompat_diag::{Diagnostic, Location};

/// One or more diagnostics: usage errors, unreadable or malformed input, I/O
/// errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub diagnostics: Vec<Diagnostic>,
}

impl Error {
    pub fn msg(message: impl Into<String>) -> Error {
        Error { diagnostics: vec![Diagnostic::error(message.into())] }
    }

    pub fn in_file(path: &Path, message: impl Into<String>) -> Error {
        Error::at(Location::file(path), message)
    }

    /// An error at `location`.
    pub fn at(location: Location, message: impl Into<String>) -> Error {
        Error { diagnostics: vec![Diagnostic::error(message.into()).at(location)] }
    }

    pub fn io(path: &Path, err: &std::io::Error) -> Error {
        Error::in_file(path, format!("cannot read {}: {}", path.display(), io_reason(err)))
    }
}

/// An I/O error's reason without Rust's "(os error N)" suffix.
pub fn io_reason(err: &std::io::Error) -> String {
    let text = err.to_string();
    match text.find(" (os error") {
        Some(idx) => text[..idx].to_owned(),
        None => text,
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (idx, diag) in self.diagnostics.iter().enumerate() {
            if idx > 0 {
                writeln!(f)?;
            }
            f.write_str(&diag.one_line())?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
