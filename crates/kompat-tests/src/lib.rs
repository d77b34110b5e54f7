//! Workspace-level integration tests of kompat. The library is empty; the
//! tests live in `crates/kompat-tests/tests/`, and `build.rs` generates their larger inputs.
