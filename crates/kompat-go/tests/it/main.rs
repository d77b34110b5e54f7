//! The integration tests of `kompat-go`, one test binary (each module was
//! its own binary; one links once). Run one module with
//! `cargo test -p kompat-go --test it MODULE::`.

mod common;

mod declarations;
mod extract;
mod fuzz;
mod lexed;
mod refs;
mod unversioned;
