//! The integration tests of `kompat-formats`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-formats --test it MODULE::`.

mod api_override_until;
mod api_toml;
mod block;
mod fuzz;
mod parse;
mod plan;
mod skim;
mod toml_located;
