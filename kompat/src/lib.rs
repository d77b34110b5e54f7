//! kompat: versioned feature gates and API lifecycles with Kubernetes'
//! compatibility-version semantics (KEP-4330).
//!
//! This is the facade crate users depend on. It re-exports the core model and
//! the runtime feature gate, and, with the `derive` feature, the derive macros.
//!
//! The traits [`FeatureGates`] and [`ApiLifecycle`] share their names with
//! the derive macros, in different namespaces (like serde's `Serialize`):
//! `use kompat::FeatureGates;` imports both the trait and the derive.
#![cfg_attr(feature = "derive", doc = "")]
#![cfg_attr(feature = "derive", doc = include_str!("../../README.md"))]

pub use kompat_core::*;

/// `#[derive(FeatureGates)]`: see the crate documentation.
#[cfg(feature = "derive")]
pub use kompat_macros::FeatureGates;

/// `#[derive(ApiLifecycle)]`: see the crate documentation.
#[cfg(feature = "derive")]
pub use kompat_macros::ApiLifecycle;
