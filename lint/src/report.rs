//! Rendering of errors and diagnostics for people: rustc-style through
//! codespan-reporting, in colour only when the stream is a terminal.

use std::io::{IsTerminal, Write};

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use codespan_reporting::term::{self, Chars, Config};

use kompat_project::{Error, Failure};

/// The rendering configuration every human-readable output uses.
pub fn term_config() -> Config {
    Config { chars: Chars::ascii(), ..Config::default() }
}

/// Prints every failure of `err` to stderr, rustc style.
pub fn print_error(err: &Error) {
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stream = StandardStream::stderr(if color { ColorChoice::Auto } else { ColorChoice::Never });
    let mut out = stream.lock();
    for failure in &err.failures {
        if emit_failure(&mut out, failure).is_err() {
            // The snippet could not be rendered: fall back to one line.
            let _ = writeln!(out, "error: {}", one_line(failure));
        }
    }
}

fn emit_failure(
    out: &mut codespan_reporting::term::termcolor::StandardStreamLock<'_>,
    failure: &Failure,
) -> Result<(), codespan_reporting::files::Error> {
    let Some(location) = &failure.location else {
        let _ = writeln!(out, "error: {}", failure.message);
        return Ok(());
    };
    match (&location.text, location.range) {
        (Some(text), Some((start, end))) => {
            let mut files = SimpleFiles::new();
            let file = files.add(location.path.display().to_string(), text.clone());
            let diag: Diagnostic<usize> =
                Diagnostic::error().with_message(&failure.message).with_labels(vec![Label::primary(file, start..end)]);
            term::emit_to_write_style(out, &term_config(), &files, &diag)
        }
        _ => {
            let _ = writeln!(out, "error: {}", failure.message);
            let _ = match location.line_col {
                Some((line, col)) => writeln!(out, "  --> {}:{line}:{col}", location.path.display()),
                None => writeln!(out, "  --> {}", location.path.display()),
            };
            Ok(())
        }
    }
}

fn one_line(failure: &Failure) -> String {
    match &failure.location {
        Some(loc) => match loc.line_col {
            Some((line, col)) => format!("{}:{line}:{col}: {}", loc.path.display(), failure.message),
            None => format!("{}: {}", loc.path.display(), failure.message),
        },
        None => failure.message.clone(),
    }
}
