//! API lifecycles: declarations of API versions and their completion by
//! prerelease-lifecycle-gen's defaults, Kubernetes' version priority, which
//! group-versions and resources an API server serves at an emulation version,
//! which version each resource is stored in, the discovery storage-version
//! hash, and the StorageVersion API's agreement on a common encoding version.
//! The names and the `ApiLifecycle` trait are `kompat-runtime`'s, re-exported.
//!
//! Everything here is a pure function of declarations and versions; the
//! message texts of errors are Kubernetes' own where Kubernetes has one.

pub mod agreement;
pub mod decl;
pub mod entries;
pub mod hash;
pub mod names;
pub mod order;
pub mod serving;
pub mod storage;
pub use kompat_runtime::api::typed;

pub use agreement::{
    common_encoding_version, encoding_condition, storage_version_agreement, ApiServer, ConditionStatus,
    EncodingCondition, ResourceAgreement, ServerStorageVersion,
};
pub use decl::{
    complete_lifecycle, parse_replacement, Api, ApiConfig, ApiDecl, ApiField, ApiProblem, ApiProblemKind, ApiSet,
    Lifecycle,
};
pub use hash::storage_version_hash;
pub use names::{kube_plural, GroupResource, GroupVersion, GroupVersionKind, GroupVersionResource};
pub use order::{compare_kube_aware, is_alpha, is_beta, is_ga, sort_kube_aware, KubeVersion, Stability};
pub use serving::{served_apis, RuntimeConfig, ServeError, ServeOptions, Served};
pub use storage::{storage_version_for, storage_versions, ResourceStorage, StorageSource};
pub use typed::{is_deprecated, warning_message, ApiEntry, ApiLifecycle, StaticGvk};
