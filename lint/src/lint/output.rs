//! Rendering findings: human (rustc style through codespan-reporting), short
//! (`file:line:col: severity[code]: message`) and the contract's JSON.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use serde::Serialize;

use super::{Diagnostic, Severity};
use crate::report::term_config;

#[derive(Serialize)]
struct JsonReport<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    subject: Option<&'a str>,
}

#[derive(Serialize, Default, Clone, Copy)]
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

pub fn summary(diags: &[Diagnostic]) -> Summary {
    let mut s = Summary::default();
    for d in diags {
        match d.severity {
            Severity::Error => s.errors += 1,
            Severity::Warning => s.warnings += 1,
            Severity::Note => s.notes += 1,
        }
    }
    s
}

pub fn json(diags: &[Diagnostic]) -> JsonReportOwned {
    JsonReportOwned(
        serde_json::to_string_pretty(&JsonReport {
            diagnostics: diags
                .iter()
                .map(|d| JsonDiagnostic {
                    code: d.code,
                    severity: d.severity,
                    message: &d.message,
                    file: d.location.as_ref().map(|l| l.path.display().to_string()),
                    line: d.location.as_ref().and_then(|l| l.line_col).map(|(l, _)| l),
                    column: d.location.as_ref().and_then(|l| l.line_col).map(|(_, c)| c),
                    subject: d.subject.as_deref(),
                })
                .collect(),
            summary: summary(diags),
        })
        .unwrap_or_default()
            + "\n",
    )
}

/// Rendered JSON text.
pub struct JsonReportOwned(pub String);

pub fn short(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let place = match &d.location {
            Some(loc) => match loc.line_col {
                Some((line, col)) => format!("{}:{line}:{col}: ", loc.path.display()),
                None => format!("{}: ", loc.path.display()),
            },
            None => String::new(),
        };
        out.push_str(&format!("{place}{}[{}]: {}\n", d.severity.as_str(), d.code, d.message));
    }
    out
}

/// rustc-style text; `color` adds ANSI colours.
pub fn human(diags: &[Diagnostic], color: bool) -> String {
    let mut buffer = codespan_reporting::term::termcolor::Buffer::no_color();
    if color {
        buffer = codespan_reporting::term::termcolor::Buffer::ansi();
    }
    let config = term_config();
    for d in diags {
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
            Severity::Note => CsSeverity::Note,
        };
        let mut files = SimpleFiles::new();
        let mut diag = CsDiagnostic::new(severity).with_code(d.code).with_message(&d.message);
        let mut notes = d.notes.clone();
        if let Some(loc) = &d.location {
            match (&loc.text, loc.range) {
                (Some(text), Some((start, end))) => {
                    let file = files.add(loc.path.display().to_string(), text.clone());
                    diag = diag.with_labels(vec![Label::primary(file, start..end)]);
                }
                _ => notes.insert(0, format!("in {}", loc.path.display())),
            }
        }
        if let Some(subject) = &d.subject {
            notes.push(format!("subject: {subject}"));
        }
        diag = diag.with_notes(notes);
        if term::emit_to_write_style(&mut buffer, &config, &files, &diag).is_err() {
            return short(diags);
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}
