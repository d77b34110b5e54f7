//! A variant registering the built-in `AllBeta` gate.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(name = "AllBeta", spec(version = "0.0", stage = "Beta", default = false))]
    Everything,
}

fn main() {
    let _ = Feature::NAMES;
}
