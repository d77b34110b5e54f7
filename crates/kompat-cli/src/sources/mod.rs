//! Sources beyond declaration files. Rust code is read by `kompat-rust`
//! while `kompat-project` loads (declarations through `#[derive(FeatureGates)]`, every
//! reference to a gate); deployment material (`--feature-gates` flags and
//! `featureGates:` maps) is scanned by `kompat_formats::deploy` and located by
//! `kompat-project`; Kubernetes manifests are checked against the API set a
//! server of the target version serves ([`manifests`]), and the RBAC roles
//! among them against Kubernetes' API table ([`rbac`]).

/// What code says about gates, for the reference rules: how many Rust and
/// Go sources were read, and every reference to a gate in them (the Rust
/// reader's, `kompat-rust`, and the Go reader's).
#[derive(Debug, Default, Clone)]
pub struct CodeReferences {
    pub files: usize,
    pub refs: Vec<kompat_rust::GateRef>,
}

pub mod manifests;
pub mod rbac;
