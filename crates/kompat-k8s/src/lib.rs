//! Kubernetes built in: its API lifecycles (and feature gates) as kompat
//! declarations, and the generator that reads the API lifecycles from
//! Kubernetes' own prerelease-lifecycle-gen output.
//!
//! The tables are generated, checked in under `data/` and embedded:
//!
//! - `data/apis.toml`: every built-in API type (group, version, kind,
//!   resource, introduced, deprecated, removed, replacement, enablement),
//!   written by `cargo xtask k8s-apis` from `k8s.io/api`,
//!   `k8s.io/apiextensions-apiserver` and `k8s.io/kube-aggregator` at every
//!   release tag since v0.19.0 (`scripts/gen-k8s-apis`), with
//!   `data/supplement.toml` for what no generated file says.
//! - `data/features.toml`: Kubernetes' feature gates with their versioned
//!   specs, the facts of its `versioned_feature_list.yaml` exported by
//!   `kompat export --format toml` (`scripts/gen-k8s-features`).
//! - `data/removed-features.toml`: the gates earlier releases declared and
//!   `features.toml` does not, with the release that removed each and its
//!   last specs ([`removed`]), written by `cargo xtask k8s-removed-features` from
//!   Kubernetes' Go feature files release by release
//!   (`scripts/gen-k8s-removed-features`).
//!
//! The generator's parts take text and return values (no file access): the
//! Go reader ([`lifecycle`], [`package`], on tree-sitter-go) and the union
//! ([`generate`]). The binary walks the sources.

pub mod removed;

use std::sync::OnceLock;

use kompat_engine::api::{ApiConfig, ApiSet};
use kompat_engine::FeatureDecl;
use kompat_formats::api_toml::ApiFile;
use kompat_formats::ParseError;

/// The built-in API table, as checked in.
pub const APIS_TOML: &str = include_str!("../data/apis.toml");

/// The declared supplement the API table was generated with.
pub const SUPPLEMENT_TOML: &str = include_str!("../data/supplement.toml");

/// Kubernetes' feature gates, as checked in.
pub const FEATURES_TOML: &str = include_str!("../data/features.toml");

/// The gates Kubernetes removed, as checked in.
pub const REMOVED_FEATURES_TOML: &str = include_str!("../data/removed-features.toml");

/// The file name the built-in feature table is shown under in messages.
pub const FEATURES_FILE_NAME: &str = "<built-in kubernetes features.toml>";

/// The file name the built-in API table is shown under in messages.
pub const APIS_FILE_NAME: &str = "<built-in kubernetes apis.toml>";

/// The built-in API table parsed, with spans (for locating problems).
pub fn api_file() -> Result<ApiFile, Vec<ParseError>> {
    kompat_formats::parse_toml(APIS_TOML).map(|file| file.apis)
}

/// The built-in API declarations.
pub fn api_config() -> &'static ApiConfig {
    static CONFIG: OnceLock<ApiConfig> = OnceLock::new();
    // The embedded table is checked by this crate's tests to parse and build.
    CONFIG.get_or_init(|| api_file().map(|f| f.into_config()).unwrap_or_default())
}

/// Kubernetes' built-in API set, validated and completed (`ApiSet::build`).
pub fn apis() -> &'static ApiSet {
    static SET: OnceLock<ApiSet> = OnceLock::new();
    // The embedded table is checked by this crate's tests to build.
    SET.get_or_init(|| ApiSet::build(api_config()).unwrap_or_default())
}

/// The built-in feature table parsed, with spans.
pub fn feature_file() -> Result<kompat_formats::FeatureFile, Vec<ParseError>> {
    kompat_formats::parse_toml(FEATURES_TOML).map(|file| file.features)
}

/// Kubernetes' feature gates (sorted by name), with their versioned specs.
pub fn features() -> &'static [FeatureDecl] {
    static FEATURES: OnceLock<Vec<FeatureDecl>> = OnceLock::new();
    // The embedded table is checked by this crate's tests to parse and validate.
    FEATURES.get_or_init(|| feature_file().map(|f| f.into_features()).unwrap_or_default())
}

/// The gates Kubernetes removed before the release of [`features()`], sorted
/// by name.
pub fn removed_features() -> &'static [removed::RemovedGate] {
    static REMOVED: OnceLock<Vec<removed::RemovedGate>> = OnceLock::new();
    // The embedded table is checked by this crate's tests to parse.
    REMOVED.get_or_init(|| removed::parse(REMOVED_FEATURES_TOML).unwrap_or_default())
}

/// The removed gate of that name, if Kubernetes removed one.
pub fn removed_feature(name: &str) -> Option<&'static removed::RemovedGate> {
    let gates = removed_features();
    gates.binary_search_by(|g| g.name.as_str().cmp(name)).ok().map(|idx| &gates[idx])
}
