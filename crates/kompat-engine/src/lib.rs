//! kompat's analysis engine: registration validation of feature declarations,
//! API declarations and which versions a server serves and stores, the
//! StorageVersion API's agreement, the discovery hash, and upgrade-plan
//! simulation.
//!
//! The model these work on (versions, stages, specs, the runtime feature
//! gate, the typed gate and the API traits) is `kompat-runtime`'s; this crate
//! re-exports it at the same paths (`kompat_engine::Version`,
//! `kompat_engine::gate::FeatureGate`, ...), so tools use one crate.
//!
//! Registration validation and API declarations are always built; serving,
//! storage, the agreement, the hash and plans need the `analysis` feature (on
//! by default), which `kompat-macros` leaves off so that the derive's
//! dependency chain stays short (no sha2; issue 18).
//!
//! **Architecture Invariant:** this crate does no I/O and knows nothing of
//! files, terminals or output formats. Its inputs are plain values; its errors
//! are values (never panics) that carry Kubernetes' exact message texts.

pub mod api;
pub mod feature;
mod kinds;
#[cfg(feature = "analysis")]
pub mod plan;
pub mod validate;

pub use kompat_runtime::{effective, gate, gofmt, suggest, typed, version};

pub use api::{ApiEntry, ApiLifecycle};
pub use effective::{EffectiveVersion, WindowPolicy};
pub use feature::{spec_at, FeatureDecl, FeatureSpec, Ratchet, SpecDecl, Stage, StoredBeforeWritten};
pub use gate::{Feature, FeatureGate, FeatureSet, FeatureSetError, FeatureState, GateError, UnknownFeature};
#[doc(hidden)]
pub use kompat_runtime::__private;
pub use typed::{FeatureGates, GateFlags, LintAllow, TypedGate};
pub use validate::{validate, Field, Problem, ProblemKind, Validated};
pub use version::{Version, VersionError, VersionLit};
