//! The readers and the union behind `cargo xtask k8s-apis`: Kubernetes'
//! prerelease-lifecycle-gen output and package files through tree-sitter-go
//! (`go`, `lifecycle`, `package`), the declared supplement, and the union of
//! every module version read (`generate`).

pub mod generate;
pub mod git;
mod go;
pub mod lifecycle;
pub mod package;
pub mod supplement;

pub use go::MAX_FILE_BYTES;
