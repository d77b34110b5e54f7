//! Structs are rejected.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub struct Feature {
    pub watch_list: bool,
}

fn main() {}
