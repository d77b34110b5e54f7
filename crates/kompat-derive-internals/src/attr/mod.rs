//! Parsing of `#[kompat(...)]` attributes into typed values, one file per job:
//! the keys (`symbol`), `#[derive(FeatureGates)]`'s attributes (`feature`),
//! `#[derive(ApiLifecycle)]`'s (`api`) with kube-rs' `#[kube(...)]` read for
//! defaults (`kube`), the values of keys and their typed literals (`lit`), unknown keys and "did you
//! mean" hints (`suggest`), and rustc's `#[derive]` and doc attributes
//! (`builtin`).
//!
//! Note that none of these functions return a `Result`: unknown, malformed or
//! duplicated keys are recorded in the [`Ctxt`](crate::ctxt::Ctxt) with the
//! span of the offending token and otherwise ignored, so the user sees every
//! attribute mistake of the item at once rather than just the first
//! (serde_derive's contract). Local checks (one attribute at a time) live
//! here; checks that need the whole enum live in the macro's `valid.rs`.

mod api;
mod builtin;
mod feature;
mod kube;
mod lit;
mod suggest;
mod symbol;

pub use api::{ApiAttr, ApiContainer};
pub use builtin::{derives, doc_comment};
pub use feature::{Allow, Container, RatchetAttr, Spec, Variant};
pub use kube::KubeAttrs;
pub use lit::{ReleaseAttr, StageAttr, VersionAttr};
pub use symbol::Symbol;
