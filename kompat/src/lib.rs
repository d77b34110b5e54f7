//! kompat: versioned feature gates and API lifecycles with Kubernetes'
//! compatibility-version semantics (KEP-4330).
//!
//! This is the facade crate users depend on. It re-exports the core model and
//! the runtime feature gate, and, with the `derive` feature, the derive macros.

pub use kompat_core::*;

#[cfg(feature = "derive")]
pub use kompat_macros::*;
