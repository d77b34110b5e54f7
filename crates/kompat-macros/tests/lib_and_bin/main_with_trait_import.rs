//! The same binary with `use kompat::FeatureGates;`, as code written before
//! the inherent API has it: the inherent items and the trait's agree, and
//! the import is neither ambiguous nor unused (the trait's other items).

use kompat::{FeatureGates, Version};
use kompat_tests::Feature;

fn main() {
    let gate = Feature::gate(Version::new(1, 32), None);
    assert!(gate.enabled(Feature::WidgetCache));
    assert_eq!(<Feature as FeatureGates>::name(Feature::StrictNames), Feature::StrictNames.name());
    assert_eq!(<Feature as FeatureGates>::ALL, Feature::ALL);
    assert_eq!(Feature::descriptions()[0], Some("Caches widgets between reconciles."));
}
