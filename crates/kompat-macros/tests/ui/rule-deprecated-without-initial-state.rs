//! A gate introduced as Deprecated without a 1.0 entry.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = false))]
    LegacyThing,
}

fn main() {
    let _ = Feature::NAMES;
}
