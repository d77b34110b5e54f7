//! The lint engine of kompat: rules over declarations, APIs, CRD manifests,
//! Rust sources and deployment material, each declared once with a stable
//! kebab-case code, a default severity and a doc in clippy's template
//! ([`rules::all`] is the one registry); levels and allowances from
//! `kompat.toml` ([`config`]); and the run that collects every finding,
//! sorted.
//!
//! The `kompat` binary in this package parses arguments, loads the inputs and
//! renders what [`run`] returns; this library knows nothing of terminals or
//! output formats.

pub mod config;
pub mod rules;
pub mod sources;

use kompat_core::api::ApiSet;
use kompat_core::{Validated, Version, WindowPolicy};
use kompat_project::Decls;

pub use kompat_diag::{Diagnostic, Label, Location, Rule, Severity};

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
    for pass in rules::PASSES {
        if let Some(check) = pass.check {
            check(cx, &mut out);
        }
    }
    Diagnostic::sort(&mut out);
    out
}
