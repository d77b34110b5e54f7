//! A dependency on something that is not a variant (unknown-dependency).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(depends_on(WatchLis))]
    Dra,
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
