//! Two variants registering one gate name with identical specs.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(name = "WatchList", spec(version = "1.27", stage = "Alpha", default = false))]
    WatchListToo,
}

fn main() {
    let _ = Feature::NAMES;
}
