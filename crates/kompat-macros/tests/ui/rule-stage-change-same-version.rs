//! A stage change at the same version (stage-change-same-version).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.37", stage = "GA", default = true, min_compatibility = "1.37"))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
