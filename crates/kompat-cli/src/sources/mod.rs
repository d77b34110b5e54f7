//! Sources beyond declaration files. Rust code is read by `kompat-project`
//! while loading (declarations through `#[derive(FeatureGates)]`, every
//! reference to a gate); deployment material (`--feature-gates` flags and
//! `featureGates:` maps) is scanned by `kompat_formats::deploy` and located by
//! `kompat-project`; Kubernetes manifests are checked against the API set a
//! server of the target version serves ([`manifests`]).

pub mod manifests;
