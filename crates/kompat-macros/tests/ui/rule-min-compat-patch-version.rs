//! A patch min-compatibility version (min-compat-patch-version).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = true, min_compatibility = "1.36.1"))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
