//! An operator's `main.rs`: it uses the gates its library declares and
//! imports nothing but the enum and `Version`, not the `FeatureGates` trait.
//! Every call below is the derive's inherent API; before it, rustc failed
//! with E0599 and suggested `use kompat_runtime::typed::FeatureGates;`, a
//! crate this binary cannot name (E0433).

use kompat::Version;
use kompat_tests::Feature;

fn main() {
    let gate = Feature::gate(Version::new(1, 32), None);
    assert!(gate.enabled(Feature::WidgetCache));
    assert_eq!(Feature::WidgetCache.name(), "WidgetCache");
    assert_eq!(Feature::from_name("StrictNames"), Some(Feature::StrictNames));
    assert_eq!(Feature::from_index(1), Some(Feature::StrictNames));
    assert_eq!(Feature::StrictNames.index(), 1);
    assert_eq!(Feature::ALL, [Feature::WidgetCache, Feature::StrictNames]);
    assert_eq!(Feature::NAMES, ["WidgetCache", "StrictNames"]);
    assert_eq!(Feature::WidgetCache.spec_list().len(), 2);
    assert_eq!(Feature::feature_set().features().len(), 2);
}
