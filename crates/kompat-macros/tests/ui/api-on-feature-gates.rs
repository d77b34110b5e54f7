//! `api(...)` belongs to `#[derive(ApiLifecycle)]`, not to a gate enum.

use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
#[kompat(api(group = "batch", version = "v1", resource = "jobs", introduced = "1.21"))]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    WatchList,
}

fn main() {}
