//! A spec that changes nothing (transition-without-change).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.28", stage = "Alpha", default = false))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
