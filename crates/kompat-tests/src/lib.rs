//! Workspace-level integration tests of kompat: the tests live in
//! `crates/kompat-tests/tests/`, and `build.rs` generates their larger inputs.
//!
//! The library plays an operator's library crate: it declares the gates
//! ([`Feature`]) that the binaries of `kompat-macros/tests/lib_and_bin/`
//! use, as an operator's `main.rs` uses its library's, without importing the
//! `FeatureGates` trait.

use kompat::FeatureGates;

/// An operator's feature gates, declared in its library crate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    /// Caches widgets between reconciles.
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true))]
    WidgetCache,
    /// Rejects widget names that are not DNS labels.
    #[kompat(spec(version = "1.31", stage = "GA", default = true, locked = true))]
    StrictNames,
}
