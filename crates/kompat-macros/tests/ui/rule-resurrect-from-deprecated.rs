//! Leaving the Deprecated stage (resurrect-from-deprecated).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "GA", default = true))]
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = false))]
    #[kompat(spec(version = "1.29", stage = "GA", default = true))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
