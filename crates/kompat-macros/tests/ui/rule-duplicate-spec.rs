//! Two specs at the same version (duplicate-spec).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.30", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.30", stage = "Beta", default = true))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
