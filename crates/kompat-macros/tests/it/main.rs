//! The integration tests of `kompat-macros`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-macros --test it MODULE::`.

mod api_lifecycle;
mod compiletest;
mod derive;
mod shim;
