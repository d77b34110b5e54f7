//! `allow(...)` needs a code and a non-empty reason.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(allow(code = "orphaned-gate"))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(allow(code = "orphaned-gate", reason = "  "))]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    Dra,
    #[kompat(allow(code = "Orphaned Gate", reason = "kept for rollback"))]
    #[kompat(allow(reason = "kept for rollback"))]
    #[kompat(allow())]
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
