//! The integration tests of `kompat-engine`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-engine --test it MODULE::`.

#[path = "../api_common/mod.rs"]
mod api_common;
#[path = "../common/mod.rs"]
mod common;

mod api_lifecycle;
#[cfg(feature = "analysis")]
mod api_serving;
#[cfg(feature = "analysis")]
mod api_storage;
mod gate;
mod registration;
