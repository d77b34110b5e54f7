//! A variant without any `spec(...)`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    /// Documented, but never specified.
    WatchList,
    #[kompat(name = "Dra2")]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
