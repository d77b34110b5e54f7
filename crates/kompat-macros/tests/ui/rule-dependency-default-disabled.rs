//! A default-on gate depending on a default-off gate (dependency-default-disabled).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Beta", default = false))]
    WatchList,
    #[kompat(depends_on(WatchList))]
    #[kompat(spec(version = "1.30", stage = "Beta", default = true))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
