//! A lock change at the same version (lock-change-same-version).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.37", stage = "GA", default = true))]
    #[kompat(spec(version = "1.37", stage = "GA", default = true, locked = true, min_compatibility = "1.37"))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
