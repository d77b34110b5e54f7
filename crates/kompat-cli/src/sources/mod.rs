//! Sources beyond declaration files. Rust code is read by `kompat-project`
//! while loading (declarations through `#[derive(FeatureGates)]`, every
//! reference to a gate); deployment material (`--feature-gates` flags and
//! `featureGates:` maps) is scanned by `kompat_formats::deploy` and located by
//! `kompat-project`; Kubernetes manifests are checked against the API set a
//! server of the target version serves ([`manifests`]).

pub use kompat_project::rust::RustScan;

/// A gate set in deployment material (`--feature-gates=Gate=true`), located
/// in its file.
pub type GateSetting = kompat_formats::deploy::GateSetting<kompat_diag::Location>;

pub mod manifests;
