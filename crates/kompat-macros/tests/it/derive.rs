//! Passing derives through the facade: the README example (also a doctest of
//! the `kompat` crate), the generated tables, and the `crate` path override.

use kompat::{FeatureGates, Ratchet, Stage, TypedGate, Version};

// The README's enum, plus a second doc paragraph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
#[kompat(crate = "kompat")] // optional; the default is `::kompat`
pub enum Feature {
    /// Doc comments become the description.
    ///
    /// Second paragraph.
    #[kompat(spec(version = "1.27", stage = "Alpha", default = false))]
    #[kompat(spec(version = "1.32", stage = "Beta", default = true))]
    WatchList,

    #[kompat(name = "KMSv1")] // the gate name, when it differs from the variant
    #[kompat(spec(version = "1.0", stage = "GA", default = true))]
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = true))]
    #[kompat(spec(version = "1.29", stage = "Deprecated", default = false, locked = true))]
    KmsV1,

    #[kompat(depends_on(WatchList))]
    #[kompat(ratchet(tolerated_since = "1.31"))]
    #[kompat(allow(code = "orphaned-gate", reason = "read by the scheduler plugin, not this crate"))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = false))]
    #[kompat(spec(version = "1.37", stage = "Beta", default = true, min_compatibility = "1.37"))]
    Dra,
}

fn v(major: u32, minor: u32) -> Version {
    Version::new(major, minor)
}

#[test]
fn tables() {
    assert_eq!(Feature::ALL, [Feature::WatchList, Feature::KmsV1, Feature::Dra]);
    assert_eq!(Feature::NAMES, ["WatchList", "KMSv1", "Dra"]);
    assert_eq!(Feature::dependencies(), [&[][..], &[], &[0]]);
    assert_eq!(
        Feature::descriptions(),
        [Some("Doc comments become the description.\n\nSecond paragraph."), None, None]
    );
    assert_eq!(Feature::ratchets(), [None, None, Some(Ratchet { tolerated_since: v(1, 31) })]);
    let stages: Vec<(String, Stage, bool, bool, Option<Version>)> = Feature::KmsV1
        .spec_list()
        .iter()
        .map(|s| (s.version.to_string(), s.stage, s.default, s.lock_to_default, s.min_compatibility_version))
        .collect();
    assert_eq!(
        stages,
        [
            ("1.0".to_owned(), Stage::GA, true, false, None),
            ("1.28".to_owned(), Stage::Deprecated, true, false, None),
            ("1.29".to_owned(), Stage::Deprecated, false, true, None),
        ]
    );
    // Completed: the later spec carries its min-compatibility version.
    assert_eq!(Feature::Dra.spec_list()[1].min_compatibility_version, Some(v(1, 37)));
}

#[test]
fn lookups() {
    for (idx, f) in Feature::ALL.iter().enumerate() {
        assert_eq!(f.index(), idx);
        assert_eq!(Feature::from_index(idx), Some(*f));
        assert_eq!(Feature::from_name(f.name()), Some(*f));
    }
    assert_eq!(Feature::from_index(3), None);
    assert_eq!(Feature::from_name("KmsV1"), None, "the gate name, not the variant name");
    assert_eq!(Feature::from_name("AllAlpha"), None);
    let set = Feature::feature_set();
    assert!(std::sync::Arc::ptr_eq(&set, &Feature::feature_set()), "built once");
    assert_eq!(set.index_of("Dra"), Some(2));
    assert_eq!(set.get("Dra").map(|f| f.dependencies.clone()), Some(vec![0]));
}

#[test]
fn typed_gate() {
    let check = |emu: Version, mc: Option<Version>, expected: [bool; 3]| {
        let gate: TypedGate<Feature> = Feature::gate(emu, mc);
        let got: Vec<bool> = Feature::ALL.iter().map(|&f| gate.enabled(f)).collect();
        assert_eq!(got, expected, "at ({emu}, {mc:?})");
    };
    check(v(1, 26), None, [false, true, false]);
    check(v(1, 27), None, [false, true, false]);
    check(v(1, 28), None, [false, true, false]);
    check(v(1, 29), None, [false, false, false]);
    check(v(1, 32), None, [true, false, false]);
    check(v(1, 37), None, [true, false, false]);
    check(v(1, 37), Some(v(1, 37)), [true, false, true]);

    let mut gate = Feature::gate(v(1, 37), None);
    assert_eq!(gate.set_features(&[(Feature::Dra, true)]), Ok(vec![]));
    assert!(gate.enabled(Feature::Dra));
    assert!(gate.state(Feature::Dra).explicitly_set);
    let err = gate.set("WatchList=false").map_err(|e| e.to_string());
    assert_eq!(err, Err("Dra is enabled, but depends on features that are disabled: [WatchList]".to_owned()));
}

/// The generated code names kompat through `crate = "..."`.
mod core_only {
    use kompat::FeatureGates;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, FeatureGates)]
    #[kompat(crate = "kompat_runtime")]
    pub enum Gates {
        #[kompat(spec(version = "0.1", stage = "Alpha", default = false))]
        #[kompat(spec(version = "0.3", stage = "Beta", default = true))]
        Widgets,
    }

    #[test]
    fn crate_override() {
        assert_eq!(<Gates as kompat_runtime::typed::FeatureGates>::NAMES, ["Widgets"]);
        assert!(Gates::gate(kompat_runtime::version::Version::new(0, 3), None).enabled(Gates::Widgets));
        assert!(!Gates::gate(kompat_runtime::version::Version::new(0, 2), None).enabled(Gates::Widgets));
    }
}
