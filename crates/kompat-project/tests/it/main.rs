//! The integration tests of `kompat-project`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-project --test it MODULE::`.

mod deep;
mod fuzz;
mod inputs;
mod released;
mod render;
mod reread;
mod walk;
