//! A Beta gate depending on an Alpha gate (dependency-less-stable).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(depends_on(WatchList))]
    #[kompat(spec(version = "1.30", stage = "Beta", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
