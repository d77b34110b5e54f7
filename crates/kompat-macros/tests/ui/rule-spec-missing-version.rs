//! A spec without `version` (spec-missing-version).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(stage = "Alpha", default = false))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
