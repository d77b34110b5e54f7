//! Unlocking after locking to default (unlock-after-lock).

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.0", stage = "GA", default = true, locked = true))]
    #[kompat(spec(version = "1.30", stage = "Deprecated", default = true))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
