//! Version literals that are not versions.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.x", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "v1.27", stage = "Alpha", default = false))]
    Dra,
    #[kompat(spec(version = "1", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.2", stage = "Beta", default = false, min_compatibility = "1.02"))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
