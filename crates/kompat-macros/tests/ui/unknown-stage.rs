//! Stages that are not Alpha, Beta, GA or Deprecated.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "beta", default = false))]
    WatchList,
    #[kompat(spec(version = "1.27", stage = "Stable", default = true))]
    Dra,
    #[kompat(spec(version = "1.27", stage = "Preview", default = false))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
