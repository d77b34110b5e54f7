//! A key given twice.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(crate = "kompat", crate = "kompat")]
pub enum Feature {
    #[kompat(spec(version = "1.27", version = "1.28", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(name = "A", name = "B")]
    #[kompat(ratchet(tolerated_since = "1.31"), ratchet(tolerated_since = "1.32"))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
