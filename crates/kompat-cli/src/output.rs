//! Rendering findings for machines and for `--format short`: the contract's
//! JSON, SARIF 2.1.0 and `file:line:col: severity[code]: message` lines. The
//! human format is [`kompat_diag::render`], the one renderer for people.

use kompat_cli::{Suppressed, SuppressionKind};
use kompat_diag::{Diagnostic, Location, Rule, Severity};
use kompat_project::{Error, Result};
use serde::Serialize;

#[derive(Serialize)]
struct JsonReport<'a> {
    diagnostics: Findings<'a>,
    summary: Summary,
    /// The findings an allowance suppressed, with why: an extension of the
    /// contract's shape (the fields above keep their meaning).
    allowed: Vec<JsonAllowed<'a>>,
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

/// A suppressed finding: the diagnostic's fields, where the allowance is
/// written (`inSource` or `external`, as SARIF's `suppression.kind`) and its
/// reason.
#[derive(Serialize)]
struct JsonAllowed<'a> {
    #[serde(flatten)]
    diagnostic: JsonDiagnostic<'a>,
    kind: &'static str,
    justification: &'a str,
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

fn json_diagnostic(d: &Diagnostic) -> JsonDiagnostic<'_> {
    // Found once (a location finds its line in its file's index).
    let at = d.location.as_ref().and_then(Location::line_col);
    JsonDiagnostic {
        code: code_of(d),
        severity: d.severity.as_str(),
        message: &d.message,
        file: d.location.as_ref().map(|l| l.path().display().to_string()),
        line: at.map(|(l, _)| l),
        column: at.map(|(_, c)| c),
        subject: d.subject.as_deref(),
    }
}

/// The diagnostics, each made a [`JsonDiagnostic`] as it is written: the
/// report streams, however many there are.
struct Findings<'a>(&'a [Diagnostic]);

impl Serialize for Findings<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(json_diagnostic))
    }
}

/// SARIF's name of a suppression's kind.
fn suppression_kind(kind: SuppressionKind) -> &'static str {
    match kind {
        SuppressionKind::InSource => "inSource",
        SuppressionKind::External => "external",
    }
}

/// The contract's JSON report of `diags`, and the `suppressed` findings
/// under `allowed`, sorted as the diagnostics are (file, line, column, code,
/// then message; then justification).
pub fn json(diags: &[Diagnostic], suppressed: &[Suppressed]) -> Result<String> {
    let mut out = Vec::new();
    write_json(&mut out, diags, suppressed).map_err(|e| Error::msg(format!("cannot write the JSON report: {e}")))?;
    // serde_json writes UTF-8.
    String::from_utf8(out).map_err(|e| Error::msg(format!("cannot write the JSON report: {e}")))
}

/// [`json`], written to `out` as it is made (the diagnostics are not
/// gathered into a document first).
pub fn write_json(
    out: &mut dyn std::io::Write,
    diags: &[Diagnostic],
    suppressed: &[Suppressed],
) -> std::io::Result<()> {
    let mut allowed: Vec<&Suppressed> = suppressed.iter().collect();
    allowed.sort_by_cached_key(|s| {
        let d = &s.diagnostic;
        let place = d.location.as_ref().map(|l| (l.path().display().to_string(), l.line_col().unwrap_or((0, 0))));
        (place.is_none(), place, d.code(), d.message.clone(), s.justification.clone())
    });
    let report = JsonReport {
        diagnostics: Findings(diags),
        summary: summary(diags),
        allowed: allowed
            .into_iter()
            .map(|s| JsonAllowed {
                diagnostic: json_diagnostic(&s.diagnostic),
                kind: suppression_kind(s.kind),
                justification: &s.justification,
            })
            .collect(),
    };
    // A serialization error (serde_json's, which these plain structs never
    // give) is an error, never an empty document.
    serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

pub fn short(diags: &[Diagnostic]) -> String {
    diags.iter().map(|d| format!("{}\n", kompat_diag::short_line(d))).collect()
}

/// The base every relative artifact URI is resolved against.
const SRCROOT: &str = "%SRCROOT%";

/// SARIF 2.1.0 for GitHub code scanning: one run, every rule's metadata (its
/// documentation in `help`, as `kompat explain` prints it: the project has no
/// home page to link to), and per result a fingerprint from code, subject and file that
/// survives edits elsewhere in the file. Relative paths are relative to the
/// working directory, named `%SRCROOT%` in `originalUriBaseIds`. Findings in
/// `suppressed` are results too, with a `suppressions` entry saying why;
/// input errors are results of `input-error` and make the invocation fail.
/// GitHub refuses a result without a location, so a diagnostic about no file
/// is a notification of the invocation instead: `missing-input` (rules that
/// did not run) a tool configuration notification, an input error a tool
/// execution notification.
pub fn sarif(diags: &[Diagnostic], suppressed: &[Suppressed], rules: &[&Rule]) -> Result<String> {
    let mut out = Vec::new();
    write_sarif(&mut out, diags, suppressed, rules)
        .map_err(|e| Error::msg(format!("cannot write the SARIF log: {e}")))?;
    // serde_json writes UTF-8.
    String::from_utf8(out).map_err(|e| Error::msg(format!("cannot write the SARIF log: {e}")))
}

/// [`sarif`], written to `out` as it is made: each result is made as it is
/// written, never the whole log at once (a run may have hundreds of
/// thousands of results).
pub fn write_sarif(
    out: &mut dyn std::io::Write,
    diags: &[Diagnostic],
    suppressed: &[Suppressed],
    rules: &[&Rule],
) -> std::io::Result<()> {
    use serde_json::json;
    let all = diags.iter().map(|d| (d, None)).chain(suppressed.iter().map(|s| (&s.diagnostic, Some(s))));
    let (located, unlocated): (Vec<_>, Vec<_>) = all.partition(|(d, _)| d.location.is_some());
    let mut configuration = Vec::new();
    let mut execution = Vec::new();
    for (d, _) in unlocated {
        let mut notification = json!({
            "level": level(d.severity),
            "message": { "text": d.message.as_str() },
            "descriptor": { "id": code_of(d) },
        });
        match rule_index(rules, d.code()) {
            Some(i) => {
                notification["associatedRule"] = json!({ "id": d.code(), "index": i });
                configuration.push(notification);
            }
            None => execution.push(notification),
        }
    }
    let rule_metadata: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            let help = crate::cmd::explain::text(r);
            json!({
                "id": r.code,
                "shortDescription": { "text": r.summary },
                "fullDescription": { "text": r.summary },
                "help": { "text": help, "markdown": help },
                "defaultConfiguration": { "level": level(r.severity) },
            })
        })
        .collect();
    // The members of each object in the order `serde_json::Value` writes
    // them (sorted): the log is the one a `Value` of it would print.
    let log = SarifLog {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        runs: [SarifRun {
            column_kind: "unicodeCodePoints",
            invocations: json!([{
                "executionSuccessful": !diags.iter().any(|d| d.code.is_none()),
                "toolConfigurationNotifications": configuration,
                "toolExecutionNotifications": execution,
            }]),
            original_uri_base_ids: json!({ SRCROOT: { "uri": srcroot() } }),
            results: SarifResults { located, rules },
            tool: json!({ "driver": {
                "name": "kompat",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rule_metadata,
            }}),
        }],
        version: "2.1.0",
    };
    serde_json::to_writer_pretty(&mut *out, &log).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

#[derive(Serialize)]
struct SarifLog<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    runs: [SarifRun<'a>; 1],
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun<'a> {
    column_kind: &'static str,
    invocations: serde_json::Value,
    original_uri_base_ids: serde_json::Value,
    results: SarifResults<'a>,
    tool: serde_json::Value,
}

/// The results, each made a `Value` as it is written.
struct SarifResults<'a> {
    located: Vec<(&'a Diagnostic, Option<&'a Suppressed>)>,
    rules: &'a [&'a Rule],
}

impl Serialize for SarifResults<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.collect_seq(self.located.iter().map(|&(d, why)| sarif_result(d, why, self.rules)))
    }
}

/// SARIF's level of a severity.
fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The index of a rule in the log's `rules`.
fn rule_index(rules: &[&Rule], code: &str) -> Option<usize> {
    rules.iter().position(|r| r.code == code)
}

/// One SARIF result: a located finding, suppressed or not.
fn sarif_result(d: &Diagnostic, why: Option<&Suppressed>, rules: &[&Rule]) -> serde_json::Value {
    use serde_json::json;
    let mut result = json!({
        "ruleId": code_of(d),
        "level": level(d.severity),
        "message": { "text": d.message.as_str() },
        "partialFingerprints": { "kompatFingerprint/v1": fingerprint(d) },
    });
    if let Some(i) = rule_index(rules, d.code()) {
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
    if let Some(s) = why {
        result["suppressions"] = json!([{ "kind": suppression_kind(s.kind), "justification": s.justification }]);
    }
    result
}

/// A SARIF physical location: the file, and the region when known (SARIF
/// columns are 1-based characters, as ours are).
fn physical(loc: &kompat_diag::Location) -> serde_json::Value {
    let artifact = if loc.path().is_absolute() {
        serde_json::json!({ "uri": file_uri(loc.path()) })
    } else {
        serde_json::json!({ "uri": uri(loc.path()), "uriBaseId": SRCROOT })
    };
    let mut physical = serde_json::json!({ "artifactLocation": artifact });
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

/// Forward slashes, relative as given, percent-encoded where a URI needs it.
fn uri(path: &std::path::Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// A `file://` URI for an absolute path.
fn file_uri(path: &std::path::Path) -> String {
    let encoded = uri(path);
    if encoded.starts_with('/') {
        format!("file://{encoded}")
    } else {
        format!("file:///{encoded}")
    }
}

/// The working directory as a `file://` URI ending in `/`: what `%SRCROOT%`
/// stands for.
fn srcroot() -> String {
    let cwd = std::env::current_dir().unwrap_or_default();
    let mut root = file_uri(&cwd);
    if !root.ends_with('/') {
        root.push('/');
    }
    root
}

/// The code a finding is reported under; input errors are `input-error`.
pub fn code_of(d: &Diagnostic) -> &'static str {
    d.code.unwrap_or(INPUT_ERROR)
}

/// The code of input errors (unreadable or malformed input) in JSON, SARIF
/// and rustc-JSON output.
pub const INPUT_ERROR: &str = "input-error";

/// One rustc JSON diagnostic per line (`--format rustc-json`), the format
/// rust-analyzer's `check.overrideCommand` reads, so findings show inline in
/// the editor.
pub fn rustc_json(diags: &[Diagnostic]) -> String {
    use serde_json::json;
    let mut out = String::new();
    for d in diags {
        let span = |loc: &kompat_diag::Location, primary: bool, label: Option<&str>| {
            let (Some((line, column)), Some(range)) = (loc.line_col(), loc.range()) else { return None };
            let text = loc.snippet().unwrap_or("");
            let end_line = line + text.matches('\n').count();
            let end_column = match text.rfind('\n') {
                Some(i) => text[i + 1..].chars().count() + 1,
                None => column + text.chars().count(),
            };
            Some(json!({
                "file_name": loc.path().display().to_string(),
                "byte_start": range.start,
                "byte_end": range.end,
                "line_start": line,
                "line_end": end_line,
                "column_start": column,
                "column_end": end_column,
                "is_primary": primary,
                "text": [],
                "label": label,
                "suggested_replacement": null,
                "suggestion_applicability": null,
                "expansion": null,
            }))
        };
        let mut spans: Vec<serde_json::Value> = Vec::new();
        if let Some(loc) = &d.location {
            spans.extend(span(loc, true, None));
        }
        for label in &d.labels {
            spans.extend(span(&label.location, false, Some(&label.message)));
        }
        let mut children: Vec<serde_json::Value> = d
            .notes
            .iter()
            .map(|n| json!({ "message": n, "code": null, "level": "note", "spans": [], "children": [], "rendered": null }))
            .collect();
        if let Some(loc) = d.location.as_ref().filter(|l| l.range().is_none()) {
            children.push(json!({ "message": format!("in {}", loc.display()), "code": null, "level": "note", "spans": [], "children": [], "rendered": null }));
        }
        let rendered = kompat_diag::render(std::slice::from_ref(d), false);
        let line = json!({
            "$message_type": "diagnostic",
            "message": d.message.as_str(),
            "code": { "code": code_of(d), "explanation": null },
            "level": d.severity.as_str(),
            "spans": spans,
            "children": children,
            "rendered": rendered,
        });
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// A stable hash (FNV-1a, 64 bits) of code, subject and file.
fn fingerprint(d: &Diagnostic) -> String {
    let file = d.location.as_ref().map(|l| uri(l.path())).unwrap_or_default();
    let key = format!("{}\u{0}{}\u{0}{}", code_of(d), d.subject.as_deref().unwrap_or(&d.message), file);
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}
