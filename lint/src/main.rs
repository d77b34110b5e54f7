//! The `kompat` binary.
fn main() {}
