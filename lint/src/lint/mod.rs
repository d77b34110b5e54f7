//! The lint engine: rules over declarations, APIs and CRD manifests, each
//! with a stable kebab-case code, a default severity and a doc in clippy's
//! template; levels and allowances from `kompat.toml`; and the run that
//! collects every finding, sorted.

pub mod config;
pub mod output;
pub mod rules;
pub mod sources;

use kompat_core::api::ApiSet;
use kompat_core::{Validated, Version, WindowPolicy};
use kompat_project::{Decls, Location};
use serde::Serialize;

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: &'static str,
    pub severity: Severity,
    /// Lower-case start, no trailing period.
    pub message: String,
    pub location: Option<Location>,
    /// The feature, API (GROUP/VERSION/KIND) or CRD version concerned.
    pub subject: Option<String>,
    pub notes: Vec<String>,
    /// Other places the finding is about, such as the baseline's declaration
    /// of a removed gate.
    pub labels: Vec<SecondaryLabel>,
}

/// A secondary place of a finding, with what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecondaryLabel {
    pub location: Location,
    /// Lower-case start, no trailing period.
    pub message: String,
}

/// A rule's identity and documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub code: &'static str,
    pub severity: Severity,
    pub summary: String,
    /// Markdown in clippy's template: `### What it does`, `### Why is this
    /// bad?`, `### Example`, `### Use instead`.
    pub doc: String,
}

/// Everything the rules look at.
pub struct Context<'a> {
    pub decls: &'a Decls,
    pub validated: &'a Validated,
    /// The previously released declarations, when given.
    pub baseline: Option<&'a Decls>,
    pub binary: Option<Version>,
    pub window: WindowPolicy,
    pub apis: Option<&'a ApiSet>,
    pub crds: &'a [rules::crd::CrdInput],
    /// What Rust sources say, when some were scanned.
    pub rust: Option<&'a sources::RustScan>,
    /// Gate settings found in deployment material.
    pub settings: &'a [sources::GateSetting],
}

/// Runs every rule and returns the findings sorted by file, line, column,
/// code (findings without a file last).
pub fn run(cx: &Context<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for check in rules::CHECKS {
        check(cx, &mut out);
    }
    sort(&mut out);
    out
}

pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)).then_with(|| a.message.cmp(&b.message)));
}

fn sort_key(d: &Diagnostic) -> (bool, String, usize, usize, &'static str) {
    match &d.location {
        Some(loc) => {
            let (line, col) = loc.line_col.unwrap_or((0, 0));
            (false, loc.path.display().to_string(), line, col, d.code)
        }
        None => (true, String::new(), 0, 0, d.code),
    }
}
