//! A declaring file with an alias and a type alias visible beyond it, read
//! by the reference pass's mutation test (crates/kompat-rust/tests/it/fuzz.rs) and its
//! fuzz target (fuzz/fuzz_targets/rust_references.rs).
#[derive(kompat::FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "1.0", stage = "Beta", default = true))]
    Other,
}
pub use self::Feature as Gate;
pub type Flag = Feature;
