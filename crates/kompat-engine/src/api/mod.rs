//! API lifecycles: declarations of API versions and their completion by
//! prerelease-lifecycle-gen's defaults, Kubernetes' version priority, which
//! group-versions and resources an API server serves at an emulation version,
//! which version each resource is stored in, the discovery storage-version
//! hash, and the StorageVersion API's agreement on a common encoding version.
//! The names and the `ApiLifecycle` trait are `kompat-runtime`'s, re-exported.
//!
//! Everything here is a pure function of declarations and versions; the
//! message texts of errors are Kubernetes' own where Kubernetes has one.
//!
//! Serving, storage, the hash and the agreement are the `analysis` feature's
//! (on by default); the derive needs only the declarations, their names and
//! version order, and builds the core without it.

#[cfg(feature = "analysis")]
pub mod agreement;
pub mod decl;
pub mod entries;
#[cfg(feature = "analysis")]
pub mod hash;
pub mod names;
pub mod order;
#[cfg(feature = "analysis")]
pub mod serving;
#[cfg(feature = "analysis")]
pub mod storage;

#[cfg(feature = "analysis")]
pub use agreement::{
    common_encoding_version, encoding_condition, storage_version_agreement, ApiServer, ConditionStatus,
    EncodingCondition, ResourceAgreement, ServerStorageVersion,
};
pub use decl::{
    complete_lifecycle, parse_replacement, Api, ApiConfig, ApiDecl, ApiField, ApiProblem, ApiProblemKind, ApiSet,
    Lifecycle,
};
#[cfg(feature = "analysis")]
pub use hash::storage_version_hash;
pub use names::{kube_plural, GroupResource, GroupVersionResource};
pub use order::{compare_kube_aware, is_alpha, is_beta, is_ga, sort_kube_aware, KubeVersion, Stability};
#[cfg(feature = "analysis")]
pub use serving::{served_apis, RuntimeConfig, ServeError, ServeOptions, Served};
#[cfg(feature = "analysis")]
pub use storage::{storage_version_for, storage_versions, ResourceStorage, StorageSource};
