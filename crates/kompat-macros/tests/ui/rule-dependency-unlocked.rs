//! A locked gate depending on an unlocked gate (dependency-unlocked).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "GA", default = true))]
    WatchList,
    #[kompat(depends_on(WatchList))]
    #[kompat(spec(version = "1.30", stage = "GA", default = true, locked = true))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
