//! Gates depending on each other (dependency-cycle).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(depends_on(Dra))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(depends_on(WatchList))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
