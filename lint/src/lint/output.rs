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
        let place = d.location.as_ref().map(place).unwrap_or_default();
        out.push_str(&format!("{place}{}[{}]: {}\n", d.severity.as_str(), d.code, d.message));
    }
    out
}

/// `file:line:col: `, or `file: ` without a position.
fn place(loc: &kompat_project::Location) -> String {
    match loc.line_col {
        Some((line, col)) => format!("{}:{line}:{col}: ", loc.path.display()),
        None => format!("{}: ", loc.path.display()),
    }
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
        let mut labels = Vec::new();
        if let Some(loc) = &d.location {
            match (&loc.text, loc.range) {
                (Some(text), Some((start, end))) => {
                    let file = files.add(loc.path.display().to_string(), text.clone());
                    labels.push(Label::primary(file, start..end));
                }
                _ => notes.insert(0, format!("in {}", loc.path.display())),
            }
        }
        for label in &d.labels {
            let loc = &label.location;
            match (&loc.text, loc.range) {
                (Some(text), Some((start, end))) => {
                    let file = files.add(loc.path.display().to_string(), text.clone());
                    labels.push(Label::secondary(file, start..end).with_message(&label.message));
                }
                _ => notes.push(format!("{}: {}", place(loc).trim_end_matches(": "), label.message)),
            }
        }
        diag = diag.with_labels(labels);
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

/// SARIF 2.1.0 for GitHub code scanning: one run, every rule's metadata, and
/// per result a fingerprint from code, subject and file that survives edits
/// elsewhere in the file.
pub fn sarif(diags: &[Diagnostic], rules: &[super::Rule]) -> String {
    use serde_json::json;
    let rule_index = |code: &str| rules.iter().position(|r| r.code == code);
    let level = |s: Severity| match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let results: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let mut result = json!({
                "ruleId": d.code,
                "level": level(d.severity),
                "message": { "text": d.message },
                "partialFingerprints": { "kompatFingerprint/v1": fingerprint(d) },
            });
            if let Some(i) = rule_index(d.code) {
                result["ruleIndex"] = json!(i);
            }
            if let Some(loc) = &d.location {
                result["locations"] = json!([{ "physicalLocation": physical(loc) }]);
            }
            if !d.labels.is_empty() {
                let related: Vec<serde_json::Value> = d
                    .labels
                    .iter()
                    .enumerate()
                    .map(|(id, label)| {
                        json!({
                            "id": id,
                            "physicalLocation": physical(&label.location),
                            "message": { "text": label.message },
                        })
                    })
                    .collect();
                result["relatedLocations"] = json!(related);
            }
            result
        })
        .collect();
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.summary },
                "help": { "text": r.doc, "markdown": r.doc },
                "defaultConfiguration": { "level": level(r.severity) },
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "kompat",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

/// A SARIF physical location: the file, and the region when known (SARIF
/// columns are 1-based characters, as ours are).
fn physical(loc: &kompat_project::Location) -> serde_json::Value {
    let mut physical = serde_json::json!({ "artifactLocation": { "uri": uri(&loc.path) } });
    if let Some((line, column)) = loc.line_col {
        let mut region = serde_json::json!({ "startLine": line, "startColumn": column });
        if let (Some(text), Some((start, end))) = (&loc.text, loc.range) {
            if let Some(between) = text.get(start..end) {
                let (end_line, end_column) = match between.rfind('\n') {
                    Some(i) => (line + between.matches('\n').count(), between[i + 1..].chars().count() + 1),
                    None => (line, column + between.chars().count()),
                };
                region["endLine"] = serde_json::json!(end_line);
                region["endColumn"] = serde_json::json!(end_column);
            }
        }
        physical["region"] = region;
    }
    physical
}

/// Forward slashes, relative as given.
fn uri(path: &std::path::Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// A stable hash (FNV-1a, 64 bits) of code, subject and file.
fn fingerprint(d: &Diagnostic) -> String {
    let file = d.location.as_ref().map(|l| uri(&l.path)).unwrap_or_default();
    let key = format!("{}\u{0}{}\u{0}{}", d.code, d.subject.as_deref().unwrap_or(&d.message), file);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}
