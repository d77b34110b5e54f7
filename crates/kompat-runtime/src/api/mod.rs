//! The API half of the runtime: group/version/kind names and the
//! [`ApiLifecycle`] trait that `#[derive(ApiLifecycle)]` implements, with
//! Kubernetes' deprecation warning.

pub mod names;
pub mod typed;

pub use names::{GroupVersion, GroupVersionKind};
pub use typed::{is_deprecated, warning_message, ApiEntry, ApiLifecycle, StaticGvk};
