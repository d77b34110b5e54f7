//! An Alpha spec enabled by default (alpha-enabled-by-default).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = true))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
