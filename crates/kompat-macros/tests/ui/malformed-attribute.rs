//! Attributes that are not `#[kompat(key = value, ...)]`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat = "spec"]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "1.27" stage = "Alpha", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
