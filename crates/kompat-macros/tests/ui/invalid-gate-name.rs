//! Gate names that `--feature-gates` could not address.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(name = "Watch List", spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(name = "", spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
