//! Every mistake of the enum is reported in one compilation: attribute errors on some variants, validation problems on the others, and no follow-on errors at the uses of the trait.

use kompat::FeatureGates;

#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
pub enum Feature {
    #[kompat(spec(version = "1.27", stage = "Alpha", default = true))]
    #[kompat(spec(version = "1.26", stage = "Beta", default = true))]
    WatchList,
    #[kompat(spec(verison = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.28", stage = "Gamma", default = false))]
    Dra,
    #[kompat(depends_on(Missing, Dra))]
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = false))]
    KmsV1,
    Undeclared,
}

fn main() {
    let gate = Feature::gate(kompat::Version::new(1, 30), None);
    let _ = gate.enabled(Feature::WatchList);
    let _ = Feature::from_name("Dra").map(FeatureGates::name);
}
