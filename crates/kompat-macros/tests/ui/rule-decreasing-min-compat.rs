//! Min-compatibility versions out of order (decreasing-min-compat).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.36", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.36", stage = "Beta", default = true, min_compatibility = "1.36"))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.37", stage = "GA", default = true, min_compatibility = "1.35"))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
