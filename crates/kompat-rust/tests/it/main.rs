//! The integration tests of `kompat-rust`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-rust --test it MODULE::`.

mod alias_scope;
mod derive_ui;
mod fuzz;
mod prefilter;
mod references;
