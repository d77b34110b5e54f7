//! The integration tests of `xtask`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p xtask --test it MODULE::`.

mod cli;
mod fuzz;
mod generate;
mod go_reader;
mod table;
