//! Two variants registering one gate name with different specs, and a different spec for the built-in `AllAlpha`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(name = "WatchList", spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(name = "WatchList", spec(version = "1.28", stage = "Alpha", default = false))]
    WatchListAgain,
    #[kompat(name = "AllAlpha", spec(version = "1.28", stage = "Alpha", default = false))]
    Everything,
}

fn main() {
    let _ = Feature::NAMES;
}
