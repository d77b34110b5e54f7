//! Unknown keys without a close match list the accepted keys.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(colour = "blue")]
pub enum Feature {
    #[kompat(owner = "sig-node")]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false, owner = "x"))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
