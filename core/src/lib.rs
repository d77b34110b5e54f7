//! kompat's core model: `MAJOR.MINOR` versions, feature gates with versioned
//! specs, their registration validation and resolution at an emulation and
//! min-compatibility version, effective versions, and the runtime feature gate.
//!
//! **Architecture Invariant:** this crate does no I/O and knows nothing of
//! files, terminals or output formats. Its inputs are plain values; its errors
//! are values (never panics) that carry Kubernetes' exact message texts.

pub mod api;
pub mod effective;
pub mod feature;
pub mod gate;
pub mod gofmt;
pub mod plan;
pub mod typed;
pub mod validate;
pub mod version;

pub use api::{ApiEntry, ApiLifecycle};
pub use effective::{EffectiveVersion, WindowPolicy};
pub use feature::{spec_at, FeatureDecl, FeatureSpec, Ratchet, SpecDecl, Stage, StoredBeforeWritten};
pub use gate::{Feature, FeatureGate, FeatureSet, FeatureState, GateError};
#[doc(hidden)]
pub use typed::__private;
pub use typed::{FeatureGates, LintAllow, TypedGate};
pub use validate::{validate, Field, Problem, ProblemKind, Validated};
pub use version::{Version, VersionError, VersionLit};
