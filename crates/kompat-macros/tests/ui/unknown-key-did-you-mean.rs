//! Misspelled keys get a hint, including Kubernetes' YAML spellings.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(verison = "1.27", stage = "Alpha", default = false))]
    WatchList,
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false, lockToDefault = true))]
    Dra,
    #[kompat(nme = "KMSv1", spec(version = "1.0", stage = "GA", default = true))]
    KmsV1,
}

fn main() {
    let _ = Feature::NAMES;
}
