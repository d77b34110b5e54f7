//! Keys of the enum on a variant and vice versa.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
pub enum Feature {
    #[kompat(crate = "kompat")]
    #[kompat(version = "1.27")]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
}

fn main() {
    let _ = Feature::NAMES;
}
