//! Located errors: a message, optionally with a file and a span in it. Every
//! such error ends a `kompat` run with exit code 2.

use std::fmt;
use std::path::Path;

pub use kompat_diag::Location;

/// One reported problem. A run that fails reports one or more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub message: String,
    pub location: Option<Location>,
}

/// One or more failures: usage errors, unreadable or malformed input, I/O
/// errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub failures: Vec<Failure>,
}

impl Error {
    pub fn msg(message: impl Into<String>) -> Error {
        Error { failures: vec![Failure { message: message.into(), location: None }] }
    }

    pub fn in_file(path: &Path, message: impl Into<String>) -> Error {
        Error { failures: vec![Failure { message: message.into(), location: Some(Location::file(path)) }] }
    }

    /// The failures as diagnostics, for rendering.
    pub fn diagnostics(&self) -> impl Iterator<Item = kompat_diag::Diagnostic> + '_ {
        self.failures.iter().map(|f| kompat_diag::Diagnostic::error(f.message.clone()).at(f.location.clone()))
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
        for (idx, failure) in self.failures.iter().enumerate() {
            if idx > 0 {
                writeln!(f)?;
            }
            match &failure.location {
                Some(location) => write!(f, "{}: {}", location.display(), failure.message)?,
                None => f.write_str(&failure.message)?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;
