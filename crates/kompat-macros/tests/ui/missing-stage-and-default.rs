//! `stage` and `default` are required in every `spec(...)`.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", default = false))]
    WatchList,
    #[kompat(spec(version = "1.27", stage = "Alpha"))]
    Dra,
    #[kompat(spec)]
    KmsV1,
    #[kompat(spec())]
    Kep4330,
}

fn main() {
    let _ = Feature::NAMES;
}
