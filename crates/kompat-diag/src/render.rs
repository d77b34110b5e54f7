//! Diagnostics as text for people, rustc style (through
//! codespan-reporting, over the [`FileTable`] of their locations): the one
//! rendering of the `kompat` binary's stderr and of `kompat_gen::Builder`'s
//! errors in build scripts, so both read the same. Colour (ANSI) only when
//! the caller asks; deciding whether a terminal wants it is the caller's.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity};
use codespan_reporting::term::termcolor::{Buffer, ColorSpec, WriteColor};
use codespan_reporting::term::{self, Chars, Config};

use crate::{Diagnostic, FileTable, Severity};

/// The rendering configuration every human-readable output uses.
fn term_config() -> Config {
    Config { chars: Chars::ascii(), ..Config::default() }
}

/// rustc-style text of `diags`; `color` adds ANSI colours. A diagnostic with a
/// span shows the offending line; one located at a whole file names it on an
/// `-->` line.
pub fn render(diags: &[Diagnostic], color: bool) -> String {
    let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
    let files = FileTable::of(diags);
    let config = term_config();
    for d in diags {
        if emit(&mut buffer, &config, &files, d).is_err() {
            // The snippet could not be rendered: fall back to one line.
            buffer.clear();
            return diags.iter().map(|d| format!("{}\n", short_line(d))).collect();
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

fn emit(
    out: &mut Buffer,
    config: &Config,
    files: &FileTable,
    d: &Diagnostic,
) -> Result<(), codespan_reporting::files::Error> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
        Severity::Note => CsSeverity::Note,
    };
    let mut diag = CsDiagnostic::new(severity).with_message(&d.message);
    if let Some(code) = d.code {
        diag = diag.with_code(code);
    }
    let mut notes = d.notes.clone();
    let mut labels = Vec::new();
    // A diagnostic without a span to show is written as rustc writes one:
    // the header, the `-->` line when there is a file, the notes.
    let mut plain = true;
    let mut arrow = None;
    if let Some(loc) = &d.location {
        match (files.get(loc), loc.range()) {
            (Some(file), Some(span)) => {
                labels.push(CsLabel::primary(file, span.start..span.end));
                plain = false;
            }
            _ => arrow = Some(loc.display()),
        }
    }
    for label in &d.labels {
        match (files.get(&label.location), label.location.range()) {
            (Some(file), Some(span)) => {
                labels.push(CsLabel::secondary(file, span.start..span.end).with_message(&label.message))
            }
            _ => notes.push(format!("{}: {}", label.location.display(), label.message)),
        }
    }
    if let Some(subject) = &d.subject {
        notes.push(format!("subject: {subject}"));
    }
    if plain {
        plain_diagnostic(out, d, arrow.as_deref(), &notes).map_err(codespan_reporting::files::Error::Io)
    } else {
        term::emit_to_write_style(out, config, files, &diag.with_labels(labels).with_notes(notes))
    }
}

fn plain_diagnostic(out: &mut Buffer, d: &Diagnostic, place: Option<&str>, notes: &[String]) -> std::io::Result<()> {
    use std::io::Write;
    let mut spec = ColorSpec::new();
    spec.set_bold(true).set_intense(true).set_fg(Some(match d.severity {
        Severity::Error => codespan_reporting::term::termcolor::Color::Red,
        Severity::Warning => codespan_reporting::term::termcolor::Color::Yellow,
        Severity::Note => codespan_reporting::term::termcolor::Color::Green,
    }));
    out.set_color(&spec)?;
    match d.code {
        Some(code) => write!(out, "{}[{code}]", d.severity.as_str())?,
        None => write!(out, "{}", d.severity.as_str())?,
    }
    out.reset()?;
    out.set_color(ColorSpec::new().set_bold(true))?;
    writeln!(out, ": {}", d.message)?;
    out.reset()?;
    if let Some(place) = place {
        writeln!(out, "  --> {place}")?;
    }
    for note in notes {
        writeln!(out, "  = {note}")?;
    }
    Ok(())
}

/// `file:line:col: severity[code]: message`, the short form.
pub fn short_line(d: &Diagnostic) -> String {
    let place = d.location.as_ref().map(|l| format!("{}: ", l.display())).unwrap_or_default();
    match d.code {
        Some(code) => format!("{place}{}[{code}]: {}", d.severity.as_str(), d.message),
        None => format!("{place}{}: {}", d.severity.as_str(), d.message),
    }
}
