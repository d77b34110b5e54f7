//! The integration tests of `kompat-crd`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-crd --test it MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod fuzz;
mod parse;
mod plan;
mod rules;
mod single;
mod skimmed;
mod upgrade;
