//! kompat's text formats: Kubernetes' `versioned_feature_list.yaml` and
//! kompat TOML, parsed into `kompat-engine` declarations with byte spans, and
//! rendered back (the Kubernetes YAML byte for byte); upgrade plan files
//! (`plan`); gate settings in deployment material (`deploy`); RBAC roles
//! (`rbac`). A kompat TOML file is parsed once ([`parse_toml`]) and every
//! error of it reported.
//!
//! **Architecture Invariant:** every function here takes text and returns
//! values. No file access, no panics on any input; every error carries the
//! span of the text it is about when there is one.

pub mod api_toml;
pub mod deploy;
mod features_toml;
mod features_yaml;
mod kompat_toml;
pub mod manifest;
pub mod plan;
pub mod rbac;
mod render;
pub mod seen;
mod skim;
pub mod span;
mod subset;
mod toml_fast;
pub mod window;
pub mod yaml;

use kompat_engine::{FeatureDecl, Field};

pub use features_yaml::{k8s_yaml_in, parse_k8s_yaml};
use kompat_span::Span;
#[doc(hidden)]
pub use kompat_toml::parse_toml_general;
pub use kompat_toml::{parse_toml, TOP_LEVEL_KEYS};
pub use render::{render_k8s_yaml, render_specs_toml, render_toml};
pub use span::ParseError;

/// Where each part of a spec is written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpecSpans {
    pub spec: Span,
    pub version: Option<Span>,
    pub stage: Option<Span>,
    pub default: Option<Span>,
    pub lock_to_default: Option<Span>,
    pub min_compatibility_version: Option<Span>,
}

/// Where each part of a feature declaration is written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeatureSpans {
    pub entry: Span,
    pub name: Span,
    pub specs: Vec<SpecSpans>,
    pub dependencies: Vec<Span>,
}

/// The features of one file, in declaration order, with their spans. Each
/// declaration comes with its spans: they are added together ([`push`]) and
/// never apart.
///
/// [`push`]: FeatureFile::push
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeatureFile {
    features: Vec<FeatureDecl>,
    /// Parallel to `features`.
    spans: Vec<FeatureSpans>,
}

impl FeatureFile {
    /// Appends a declaration with where it is written.
    pub fn push(&mut self, decl: FeatureDecl, spans: FeatureSpans) {
        self.features.push(decl);
        self.spans.push(spans);
    }

    /// The declarations, in file order.
    pub fn features(&self) -> &[FeatureDecl] {
        &self.features
    }

    /// The declarations, to edit in place (a slice: none can be added or
    /// removed apart from its spans).
    pub fn features_mut(&mut self) -> &mut [FeatureDecl] {
        &mut self.features
    }

    /// Where declaration `decl` is written.
    pub fn spans(&self, decl: usize) -> Option<&FeatureSpans> {
        self.spans.get(decl)
    }

    /// Every declaration with where it is written, in file order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&FeatureDecl, &FeatureSpans)> {
        self.features.iter().zip(&self.spans)
    }

    pub fn len(&self) -> usize {
        self.features.len()
    }

    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// The declarations, without their spans.
    pub fn into_features(self) -> Vec<FeatureDecl> {
        self.features
    }

    /// The most precise span for a problem about `decl` (and optionally one
    /// of its specs and fields), falling back to the spec, then the entry.
    pub fn span_of(&self, decl: usize, spec: Option<usize>, field: Field) -> Option<Span> {
        let spans = self.spans.get(decl)?;
        if let Field::Dependency(i) = field {
            return spans.dependencies.get(i).copied().or(Some(spans.name));
        }
        if field == Field::Feature {
            return Some(spans.name);
        }
        let Some(spec_spans) = spec.and_then(|i| spans.specs.get(i)) else {
            return Some(spans.name);
        };
        let precise = match field {
            Field::Version => spec_spans.version,
            Field::Stage => spec_spans.stage,
            Field::Default => spec_spans.default,
            Field::LockToDefault => spec_spans.lock_to_default,
            Field::MinCompatibilityVersion => spec_spans.min_compatibility_version,
            Field::Spec | Field::Feature | Field::Dependency(_) => None,
        };
        Some(precise.unwrap_or(spec_spans.spec))
    }
}

/// Everything a kompat TOML file declares.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DeclFile {
    pub features: FeatureFile,
    /// `[[stored_before_written]]` entries with the span of each.
    pub stored_before_written: Vec<(kompat_engine::StoredBeforeWritten, Span)>,
    /// `[[api]]`, `[groups]` and `[storage_overrides]`.
    pub apis: api_toml::ApiFile,
}
