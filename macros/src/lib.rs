//! Derive macros for kompat (`#[derive(FeatureGates)]` and API lifecycles).
//!
//! The derives validate declarations at compile time with the same rules as
//! `kompat-core`'s registration validation and generate constant lookup tables.
//! Use them through the `kompat` facade crate with its `derive` feature.
