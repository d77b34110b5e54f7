//! Derive macros for kompat: `#[derive(FeatureGates)]` for feature gates and
//! `#[derive(ApiLifecycle)]` for API types.
//!
//! The derives validate declarations at compile time with `kompat-engine`'s own
//! registration validation (same rules, same message texts) and generate
//! `static` lookup tables. Use them through the `kompat` facade crate with its
//! `derive` feature; the attribute syntax is documented in `README.md`.
//!
//! Phases (thiserror's split, serde's error accumulator), all in
//! `kompat-derive-internals` (shared with kompat's source reader):
//! `ast` (typed IR) → `attr` (attribute parsing, local checks) → `valid`
//! (`kompat_engine::validate`, problems mapped to spans, so the reader
//! reports the same errors) → `expand` (code), with `fallback` (stub impl on
//! error) and `ctxt` (every error at once). This crate is only the
//! `proc_macro` entry points: as the last unit before a user's crate in a
//! clean build, it compiles as little as it can (issue 29).

use kompat_derive_internals::expand;

#[cfg(test)]
mod tests;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Implements `kompat::FeatureGates` for a fieldless enum, one feature gate
/// per variant, from `#[kompat(...)]` attributes. See the crate `README.md`.
#[proc_macro_derive(FeatureGates, attributes(kompat))]
pub fn derive_feature_gates(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive(&input).into()
}

/// Implements `kompat::ApiLifecycle` for an API type (one version of a kind)
/// from `#[kompat(api(...))]`, with prerelease-lifecycle-gen's defaults
/// applied at compile time. `group`, `version`, `kind` and the resource
/// default to those of kube-rs' `#[kube(...)]` on the same type (the helper
/// is declared here too, like serde's two derives share `serde`). See the
/// crate `README.md`.
#[proc_macro_derive(ApiLifecycle, attributes(kompat, kube))]
pub fn derive_api_lifecycle(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    expand::derive_api(&input).into()
}
