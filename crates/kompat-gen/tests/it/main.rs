//! The integration tests of `kompat-gen`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-gen --test it MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod apis;
mod chromium;
mod doc_recipe;
mod files;
mod fixture;
mod generated_compiles;
mod render;
mod shared_data;
mod svg;
