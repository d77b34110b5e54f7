//! An explicit discriminant would break `self as usize`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList = 3,
}

fn main() {
    let _ = Feature::NAMES;
}
