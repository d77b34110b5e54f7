//! kompat's analysis engine: registration validation of feature declarations,
//! API declarations and which versions a server serves and stores, the
//! StorageVersion API's agreement, the discovery hash, upgrade-plan
//! simulation, and the changes between two versions (`diff`).
//!
//! The model these work on (versions, stages, specs, the runtime feature
//! gate, the typed gate and the API traits) is `kompat-runtime`'s, named by
//! its own paths (`kompat_runtime::gate::FeatureGate`, ...); this crate
//! re-exports only the model's most used types at its root
//! (`kompat_runtime::Version`, ...), never the runtime's modules.
//!
//! Registration validation and API declarations are always built; serving,
//! storage, the agreement, the hash, plans and diffs need the `analysis` feature (on
//! by default), which `kompat-macros` leaves off so that the derive's
//! dependency chain stays short (no sha2; issue 18).
//!
//! **Architecture Invariant:** this crate does no I/O and knows nothing of
//! files, terminals or output formats. Its inputs are plain values; its errors
//! are values (never panics) that carry Kubernetes' exact message texts.

pub mod api;
#[cfg(feature = "analysis")]
pub mod diff;
pub mod feature;
mod kinds;
#[cfg(feature = "analysis")]
pub mod plan;
pub mod validate;

pub use feature::{FeatureDecl, SpecDecl, StoredBeforeWritten};
pub use validate::{validate, Field, Problem, ProblemKind, Validated};
