//! kompat's analysis engine: registration validation of feature declarations,
//! API declarations and which versions a server serves and stores, the
//! StorageVersion API's agreement, the discovery hash, and upgrade-plan
//! simulation.
//!
//! The model these work on (versions, stages, specs, the runtime feature
//! gate, the typed gate and the API traits) is `kompat-runtime`'s; this crate
//! re-exports it at the same paths (`kompat_core::Version`,
//! `kompat_core::gate::FeatureGate`, ...), so tools use one crate.
//!
//! **Architecture Invariant:** this crate does no I/O and knows nothing of
//! files, terminals or output formats. Its inputs are plain values; its errors
//! are values (never panics) that carry Kubernetes' exact message texts.

pub mod api;
pub mod feature;
pub mod plan;
pub mod validate;

pub use kompat_runtime::{effective, gate, gofmt, suggest, typed, version};

pub use api::{ApiEntry, ApiLifecycle};
pub use effective::{EffectiveVersion, WindowPolicy};
pub use feature::{spec_at, FeatureDecl, FeatureSpec, Ratchet, SpecDecl, Stage, StoredBeforeWritten};
pub use gate::{Feature, FeatureGate, FeatureSet, FeatureSetError, FeatureState, GateError, UnknownFeature};
#[doc(hidden)]
pub use kompat_runtime::__private;
pub use typed::{FeatureGates, LintAllow, TypedGate};
pub use validate::{validate, Field, Problem, ProblemKind, Validated};
pub use version::{Version, VersionError, VersionLit};
