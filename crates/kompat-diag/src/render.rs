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
    // Each diagnostic renders on its own: many are rendered on every core,
    // in runs of consecutive diagnostics whose texts are joined in order,
    // over one table of their files.
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let run = diags.len().div_ceil(cores).max(MIN_RUN);
    let files = FileTable::of(diags);
    let files = &files;
    // The lines of the files shown are found first, the largest file first,
    // by every thread before its run: a run that met the large files would
    // otherwise find their lines alone while the others wait.
    let to_index = if diags.len() > run { shown_files(diags, files) } else { Vec::new() };
    let next = std::sync::atomic::AtomicUsize::new(0);
    let index = || {
        while let Some(lines) = to_index.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
            lines.line_starts();
        }
    };
    let index = &index;
    let runs: Vec<Option<Vec<u8>>> = std::thread::scope(|scope| {
        let mut pending = Vec::new();
        for (i, diags) in diags.chunks(run).enumerate() {
            // The first run is this thread's, and so is any run no thread
            // could be started for.
            let started = (i > 0)
                .then(|| {
                    let work = move || {
                        index();
                        render_run(diags, files, color)
                    };
                    std::thread::Builder::new().spawn_scoped(scope, work).ok()
                })
                .flatten();
            pending.push(started.ok_or(diags));
        }
        pending
            .into_iter()
            .map(|run| match run {
                Ok(thread) => thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                Err(diags) => {
                    index();
                    render_run(diags, files, color)
                }
            })
            .collect()
    });
    match runs.into_iter().collect::<Option<Vec<_>>>() {
        // Joined once; rendered text is UTF-8 but for a lossy source's bytes.
        Some(runs) => String::from_utf8(runs.concat())
            .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned()),
        // A snippet could not be rendered: every diagnostic on one line.
        None => diags.iter().map(|d| format!("{}\n", short_line(d))).collect(),
    }
}

/// The line indexes of the files whose lines `diags` show (a span in them),
/// each once, the largest first.
fn shown_files<'a>(diags: &[Diagnostic], files: &'a FileTable) -> Vec<&'a kompat_span::LineIndex> {
    let mut ids = std::collections::BTreeSet::new();
    for d in diags {
        for loc in d.location.iter().chain(d.labels.iter().map(|l| &l.location)) {
            if loc.range().is_some() {
                ids.extend(files.get(loc));
            }
        }
    }
    let mut shown: Vec<_> = ids.into_iter().filter_map(|id| files.lines(id)).collect();
    shown.sort_by_key(|lines| std::cmp::Reverse(lines.text().len()));
    shown
}

/// The fewest diagnostics a thread of [`render`] renders: fewer are not
/// worth starting a thread for.
const MIN_RUN: usize = 64;

/// The text of a run of diagnostics, `None` when a snippet could not be
/// rendered.
fn render_run(diags: &[Diagnostic], files: &FileTable, color: bool) -> Option<Vec<u8>> {
    let mut buffer = if color { Buffer::ansi() } else { Buffer::no_color() };
    let config = term_config();
    for d in diags {
        emit(&mut buffer, &config, files, d).ok()?;
    }
    Some(buffer.into_inner())
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use kompat_span::{LineIndex, Span};

    use super::{render, MIN_RUN};
    use crate::{Diagnostic, Location};

    /// `count` diagnostics over three files, each at a line of its file, one
    /// in five with a label in the next file and one in seven at a whole file;
    /// the lines of no file found yet.
    fn diagnostics(count: usize) -> Vec<Diagnostic> {
        let files: Vec<(String, Arc<str>)> = (0..3)
            .map(|f| {
                let text: String = (0..50).map(|l| format!("key{l}: value {f}/{l}\n")).collect();
                (format!("dir/file{f}.yaml"), Arc::from(text))
            })
            .collect();
        let at = |i: usize, f: usize| {
            let (path, text) = &files[f % files.len()];
            // The location's index is left to the render to build.
            let start = LineIndex::shared(text.clone()).line_starts()[i % 50];
            let lines = LineIndex::shared(text.clone());
            Location::span(path, text.clone(), &lines, Span::new(start, start + 5))
        };
        (0..count)
            .map(|i| {
                let f = i * files.len() / count;
                let d = Diagnostic::error(format!("finding {i}"));
                let d = if i % 7 == 0 { d.at(Location::file(&files[f].0)) } else { d.at(at(i, f)) };
                if i % 5 == 0 {
                    d.with_label(at(i + 3, f + 1), "see here")
                } else {
                    d
                }
            })
            .collect()
    }

    #[test]
    fn many_diagnostics_render_as_each_alone_in_order() {
        for count in [0, 1, MIN_RUN - 1, MIN_RUN, MIN_RUN + 1, 3 * MIN_RUN + 5, 1000] {
            let diags = diagnostics(count);
            for color in [false, true] {
                let each: String = diags.iter().map(|d| render(std::slice::from_ref(d), color)).collect();
                assert_eq!(render(&diags, color), each, "{count} diagnostics, color {color}");
            }
        }
    }
}
