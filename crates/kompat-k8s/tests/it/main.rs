//! The integration tests of `kompat-k8s`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-k8s --test it MODULE::`.

mod features;
mod fuzz;
mod removed;
mod table;
