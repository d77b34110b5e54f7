//! `depends_on` takes variant names.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(depends_on("WatchList", crate::Feature::WatchList))]
    #[kompat(depends_on = "WatchList")]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
}

fn main() {
    let _ = Feature::NAMES;
}
