//! The parsing half of kompat's derives, shared by the proc macros
//! (`kompat-macros`) and kompat's source reader (`kompat-project`), so that
//! `kompat lint` reads a `#[derive(FeatureGates)]` enum or a
//! `#[derive(ApiLifecycle)]` type exactly as the compiler does (like serde's
//! `serde_derive_internals`).
//!
//! Phases (thiserror's split, serde's error accumulator): [`ast`] (the typed
//! IR of an item, linked to its `syn` input for spans, and its conversion into
//! `kompat-engine` declarations) is built by [`attr`] (attribute parsing and
//! local checks), with every mistake recorded in a [`ctxt::Ctxt`]; [`valid`]
//! validates the result with `kompat-engine`'s rules, so the macros and the
//! reader report the same errors at the same spans; [`expand`] writes the
//! derives' code (with `fallback`, the stub impl next to errors).
//!
//! The expansion lives here, not in the proc-macro crate, so that
//! `kompat-macros` is a thin shim: in a user's clean build the proc-macro
//! crate is the last unit before the user's own crate, often compiled when
//! nothing else is left to run beside it, so everything it does not have to
//! compile itself shortens the build (issue 29).
//!
//! Uses only `syn`/`proc_macro2`, never `proc_macro`, so it runs outside a
//! proc macro too. Not a stable API: versioned with the derives.

pub mod ast;
pub mod attr;
pub mod ctxt;
pub mod expand;
mod fallback;
pub mod valid;
