//! kompat's runtime: what a program that derives or generates feature gates
//! needs at run time, and nothing else.
//!
//! - `MAJOR.MINOR` [`Version`]s with numeric ordering and the version
//!   literals of declarations ([`VersionLit`]);
//! - feature [`Stage`]s, versioned [`FeatureSpec`]s and their resolution at an
//!   (emulation, min-compatibility) version ([`spec_at`]);
//! - Kubernetes' effective versions ([`WindowPolicy`], [`EffectiveVersion`]);
//! - the runtime [`FeatureGate`] over a [`FeatureSet`], with Kubernetes'
//!   `--feature-gates` rules and messages;
//! - the [`FeatureGates`] trait that `#[derive(FeatureGates)]` implements and
//!   the [`TypedGate`] indexed by it;
//! - the [`ApiLifecycle`] trait that `#[derive(ApiLifecycle)]` implements, its
//!   registry entry [`ApiEntry`] and Kubernetes' deprecation warning.
//!
//! Users reach it through the `kompat` facade crate. The analysis engine
//! (validation, serving, storage, agreement, upgrade plans) is `kompat-engine`,
//! which builds on this crate.
//!
//! - [`suggest::did_you_mean`], the one "did you mean" helper of the
//!   workspace.
//!
//! **Architecture Invariant:** no I/O, no panics on input; errors are values
//! carrying Kubernetes' message texts. One dependency, `strsim` (itself
//! dependency-free), for the hints.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod api;
pub mod effective;
pub mod feature;
pub mod gate;
pub mod gofmt;
pub mod suggest;
pub mod typed;
pub mod version;

pub use api::{is_deprecated, warning_message, ApiEntry, ApiLifecycle, GroupVersion, GroupVersionKind, StaticGvk};
pub use effective::{EffectiveVersion, WindowPolicy};
pub use feature::{spec_at, FeatureSpec, Ratchet, Stage};
pub use gate::{
    parse_feature_gates, Feature, FeatureGate, FeatureSet, FeatureSetError, FeatureState, GateError, UnknownFeature,
};
#[doc(hidden)]
pub use typed::__private;
pub use typed::{FeatureGates, GateFlags, TypedGate};
pub use version::{Version, VersionError, VersionLit, VersionRange};
