//! The derives' expansions name everything by absolute path: they compile in
//! a module without the prelude and where common names (`Option`, `Some`,
//! `Arc`, `Vec`, `str`-like items) are shadowed by the user's own items.

#[no_implicit_prelude]
mod shadowed {
    #![allow(dead_code)]

    // Items a user may well have under these names.
    pub struct Option;
    pub struct Some;
    pub struct None;
    pub struct Arc;
    pub struct Vec;
    pub struct OnceLock;
    pub struct Ok;
    pub struct Err;
    pub mod kompat {}
    pub mod std {}
    pub mod core {}

    #[derive(::core::clone::Clone, ::core::marker::Copy, ::kompat::FeatureGates)]
    pub enum Feature {
        #[kompat(name = "Alpha1", spec(version = "1.30", stage = "Alpha", default = false))]
        Alpha1,
        #[kompat(spec(version = "1.30", stage = "Beta", default = true))]
        Beta1,
    }

    #[derive(::kompat::ApiLifecycle)]
    #[kompat(api(
        group = "batch",
        version = "v1beta1",
        resource = "cronjobs",
        introduced = "1.8",
        deprecated = "1.21",
        removed = "1.25",
        replacement = "batch/v1/CronJob"
    ))]
    pub struct CronJob;
}

#[test]
fn expansion_compiles_without_the_prelude_and_with_shadowed_names() {
    // The inherent items and the trait's, without importing the trait.
    assert_eq!(shadowed::Feature::NAMES, ["Alpha1", "Beta1"]);
    assert_eq!(<shadowed::Feature as kompat::FeatureGates>::NAMES, ["Alpha1", "Beta1"]);
    assert_eq!(shadowed::Feature::from_name("Beta1").map(|f| f as usize), Some(1));
    let gate = kompat::TypedGate::<shadowed::Feature>::new(kompat::Version::new(1, 30), None);
    assert_eq!((gate.enabled(shadowed::Feature::Alpha1), gate.enabled(shadowed::Feature::Beta1)), (false, true));
    use kompat::ApiLifecycle;
    assert_eq!(shadowed::CronJob::REMOVED, Some(kompat::Version::new(1, 25)));
}
