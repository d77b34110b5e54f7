//! The integration tests of `kompat-tests`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-tests --test it MODULE::`.

mod derive_behaviour;
mod derive_hygiene;
mod layers;
mod rust_api_fixture;
mod tidy;
