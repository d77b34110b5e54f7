//! Rendering findings for machines and for `--format short`: the contract's
//! JSON, SARIF 2.1.0 and `file:line:col: severity[code]: message` lines. The
//! human format is [`crate::report::render`], the one renderer for people.

use kompat_lint::{Diagnostic, Rule, Severity};
use serde::Serialize;

#[derive(Serialize)]
struct JsonReport<'a> {
    diagnostics: Vec<JsonDiagnostic<'a>>,
    summary: Summary,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: &'static str,
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
                    code: d.code(),
                    severity: d.severity.as_str(),
                    message: &d.message,
                    file: d.location.as_ref().map(|l| l.path().display().to_string()),
                    line: d.location.as_ref().and_then(|l| l.line_col()).map(|(l, _)| l),
                    column: d.location.as_ref().and_then(|l| l.line_col()).map(|(_, c)| c),
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
    diags.iter().map(|d| format!("{}\n", crate::report::short_line(d))).collect()
}

/// SARIF 2.1.0 for GitHub code scanning: one run, every rule's metadata, and
/// per result a fingerprint from code, subject and file that survives edits
/// elsewhere in the file.
pub fn sarif(diags: &[Diagnostic], rules: &[&Rule]) -> String {
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
                "ruleId": d.code(),
                "level": level(d.severity),
                "message": { "text": d.message },
                "partialFingerprints": { "kompatFingerprint/v1": fingerprint(d) },
            });
            if let Some(i) = rule_index(d.code()) {
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
                "help": { "text": r.doc_text(), "markdown": r.doc_text() },
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
fn physical(loc: &kompat_lint::Location) -> serde_json::Value {
    let mut physical = serde_json::json!({ "artifactLocation": { "uri": uri(loc.path()) } });
    if let Some((line, column)) = loc.line_col() {
        let mut region = serde_json::json!({ "startLine": line, "startColumn": column });
        {
            if let Some(between) = loc.snippet() {
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
    let file = d.location.as_ref().map(|l| uri(l.path())).unwrap_or_default();
    let key = format!("{}\u{0}{}\u{0}{}", d.code(), d.subject.as_deref().unwrap_or(&d.message), file);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}
