//! Variants with fields.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList(u8),
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra { enabled: bool },
}

fn main() {
    let _ = Feature::NAMES;
}
