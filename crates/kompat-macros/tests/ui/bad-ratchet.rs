//! `ratchet(...)` needs a `MAJOR.MINOR` `tolerated_since`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(ratchet)]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(ratchet(tolerated_since = "1.31.1"))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
    #[kompat(ratchet())]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
