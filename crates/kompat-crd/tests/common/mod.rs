//! Shared helpers of the kompat-crd tests: fixture loading and a compact
//! form of findings (code, subject, the text their span covers).

#![allow(dead_code)]

use std::path::PathBuf;

use kompat_crd::{parse_conversions, parse_manifests, Conversions, Crd, Finding};
use kompat_formats::ParseError;

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd")
}

pub fn fixture(path: &str) -> String {
    let full = fixtures().join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}

pub fn show_errors(text: &str, errors: &[ParseError]) -> String {
    let lines: Vec<String> = errors.iter().map(|e| format!("{} @ {:?}", e.message, span_text(text, e.span))).collect();
    lines.join("\n")
}

/// The CRDs of a fixture that must parse.
pub fn crds(path: &str) -> (String, Vec<Crd>) {
    let text = fixture(path);
    match parse_manifests(&text) {
        Ok(crds) => (text, crds),
        Err(errors) => panic!("{path}:\n{}", show_errors(&text, &errors)),
    }
}

/// The only CRD of a fixture.
pub fn crd(path: &str) -> (String, Crd) {
    let (text, mut crds) = crds(path);
    assert_eq!(crds.len(), 1, "{path}: expected one CRD");
    let crd = crds.remove(0);
    (text, crd)
}

pub fn conversions(path: &str) -> (String, Conversions) {
    let text = fixture(path);
    match parse_conversions(&text) {
        Ok(c) => (text, c),
        Err(errors) => panic!("{path}:\n{}", show_errors(&text, &errors)),
    }
}

pub fn span_text(text: &str, span: Option<kompat_span::Span>) -> String {
    span.and_then(|s| text.get(s.start..s.end)).unwrap_or("<none>").to_owned()
}

/// `(code, subject, spanned text)` of each finding.
pub fn compact(text: &str, findings: &[Finding]) -> Vec<(String, String, String)> {
    findings
        .iter()
        .map(|f| (f.rule.code().to_owned(), f.subject.clone().unwrap_or_default(), span_text(text, f.span)))
        .collect()
}

pub fn expected(items: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    items.iter().map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned())).collect()
}

/// Every finding as text, for snapshots.
pub fn render(text: &str, findings: &[Finding]) -> String {
    let mut out = String::new();
    for f in findings {
        out.push_str(&format!(
            "{}[{}] {}\n  subject: {}\n  at: {:?}\n",
            f.rule.rule().severity.as_str(),
            f.rule.code(),
            f.message,
            f.subject.as_deref().unwrap_or("-"),
            span_text(text, f.span)
        ));
        for note in &f.notes {
            out.push_str(&format!("  = note: {note}\n"));
        }
    }
    out
}
