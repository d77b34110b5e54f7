//! kompat: versioned feature gates and API lifecycles with Kubernetes'
//! compatibility-version semantics (KEP-4330).
//!
//! This is the facade crate users depend on. By default it re-exports the
//! runtime (`kompat-runtime`): versions, stages and specs, the runtime and
//! typed feature gates, and the API lifecycle traits; with the `derive`
//! feature, the derive macros; with the `engine` feature, the analysis engine
//! (`kompat-engine`: validation, serving, storage, agreement, upgrade plans) as
//! `kompat::engine`.
//!
//! The traits [`FeatureGates`] and [`ApiLifecycle`] share their names with
//! the derive macros, in different namespaces (like serde's `Serialize`):
//! `use kompat::FeatureGates;` imports both the trait and the derive.
#![cfg_attr(all(feature = "derive", feature = "engine"), doc = "")]
#![cfg_attr(all(feature = "derive", feature = "engine"), doc = include_str!("../README.md"))]
#![warn(missing_docs)]

pub use kompat_runtime::{
    is_deprecated, parse_feature_gates, spec_at, warning_message, ApiEntry, ApiLifecycle, EffectiveVersion, Feature,
    FeatureGate, FeatureGates, FeatureSet, FeatureSetError, FeatureSpec, FeatureState, GateError, GateFlags,
    GroupVersion, GroupVersionKind, Ratchet, Stage, StaticGvk, TypedGate, UnknownFeature, Version, VersionError,
    VersionLit, WindowPolicy,
};

/// Paths used by the code the derives generate. Not public API.
#[doc(hidden)]
pub use kompat_runtime::__private;

/// The analysis engine, `kompat-engine` (feature `engine`): registration
/// validation, which API versions a server serves and stores, the
/// StorageVersion API's agreement, the discovery hash and upgrade-plan
/// simulation. The runtime items it works with are this crate's own (`kompat::Version`, ...).
#[cfg(feature = "engine")]
pub use kompat_engine as engine;

/// `#[derive(FeatureGates)]`: see the crate documentation.
#[cfg(feature = "derive")]
pub use kompat_macros::FeatureGates;

/// `#[derive(ApiLifecycle)]`: see the crate documentation.
#[cfg(feature = "derive")]
pub use kompat_macros::ApiLifecycle;
