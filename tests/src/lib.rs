//! Workspace-level integration tests of kompat. The library is empty; the
//! tests live in `tests/tests/`, and `build.rs` generates their larger inputs.
