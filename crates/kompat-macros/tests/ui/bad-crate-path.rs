//! The `crate` value must be a path.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(crate = "not a path")]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
