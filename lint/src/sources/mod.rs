//! Sources beyond declaration files. Rust code is read by `kompat-project`
//! while loading (declarations through `#[derive(FeatureGates)]`, every
//! reference to a gate); deployment material (`--feature-gates` flags and
//! `featureGates:` maps) is read here.

pub mod deploy;

pub use kompat_project::rust::RustScan;

use kompat_project::Location;

/// A gate set in deployment material (`--feature-gates=Gate=true`).
#[derive(Debug, Clone)]
pub struct GateSetting {
    pub gate: String,
    pub value: bool,
    pub location: Location,
}
