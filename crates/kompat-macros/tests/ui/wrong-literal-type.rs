//! Values of the wrong type.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = 1.27, stage = Alpha, default = "false"))]
    WatchList,
    #[kompat(name = KMSv1, spec(version = "1.0", stage = "GA", default = true, locked = 1))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
