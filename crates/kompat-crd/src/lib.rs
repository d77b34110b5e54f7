//! kompat's CRD versioning checks: `apiextensions.k8s.io/v1`
//! CustomResourceDefinitions read from YAML with byte spans, checked on their
//! own ([`check_crd`]) and as an upgrade from an old manifest to a new one
//! ([`check_upgrade`]), against the conversions their authors declare in a
//! small TOML file ([`parse_conversions`]), and turned into a step-by-step
//! storage-migration plan for removing a version ([`migration_plan`]).
//!
//! The rules follow the API server (message texts included where it has one),
//! crdify's and crd-schema-checker's schema comparisons (failing closed on any
//! schema change not understood), and the Gateway API versioning guidance:
//! no conversion webhooks, `x-kubernetes-preserve-unknown-fields` so data
//! survives every served version, and a declared (within the experimental
//! channel: bidirectional) conversion for every semantic breaking change.
//!
//! **Architecture Invariant:** every function takes text or values and returns
//! values. No file access, no panics on any input, no output formats: the
//! findings are plain values that the `kompat` binary adapts to its
//! diagnostics. Findings of [`check_upgrade`] point into the *new* manifest.

mod checks;
mod conversions;
mod model;
mod pattern;
mod plan;
mod rules;
mod schema;
mod upgrade;
pub use checks::{check_conversions, check_crd};
pub use conversions::{orphan_conversions, parse_conversions, Change, ChangeKind, Channel, Conversion, Conversions};
pub use model::{
    parse_manifests, parse_manifests_read, parse_manifests_read_shared, parse_manifests_seen, parse_manifests_whole,
    Crd, CrdVersion, SeenCrds, Spanned, Tree,
};
pub use plan::{migration_plan, quoted_list, Action, MigrationPlan, MigrationState, MigrationStep, PlanError};
pub use rules::CrdRule;
pub use upgrade::{check_removed, check_upgrade};

// Severities are `kompat-diag`'s, shared with the linter; byte spans are
// `kompat-span`'s and parse errors `kompat-formats`', so every text format in
// kompat reports positions the same way.
use kompat_span::Span;

/// One problem found in a CRD or in an upgrade of one.
///
/// `rule` gives its code and default severity (`rule.code()`,
/// `rule.rule().severity`). `message` starts lower-case and has no trailing
/// period. `subject` names what the finding is about, stable across runs (a
/// baseline key together with the code): `<plural>.<group>` for the whole CRD, `<plural>.<group>/<version>`
/// for a version, `<plural>.<group>/<version>#<field path>` for a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: CrdRule,
    pub message: String,
    pub span: Option<Span>,
    pub subject: Option<String>,
    pub notes: Vec<String>,
}
