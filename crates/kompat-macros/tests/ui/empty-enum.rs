//! An enum without variants.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {}

fn main() {
    let _ = Feature::NAMES;
}
