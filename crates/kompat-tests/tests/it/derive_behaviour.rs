//! The derive against the core on a few hundred generated gates (see
//! `crates/kompat-tests/build.rs`): the tables the macro computed at compile time must equal
//! `kompat_engine::validate` on the same declarations, and every gate must
//! resolve identically through `TypedGate` and the untyped `FeatureGate` at
//! every emulation version and several min-compatibility versions.

use std::sync::Arc;

use kompat::engine::{FeatureDecl, SpecDecl};
use kompat::{FeatureGate, FeatureGates, GateFlags, Stage, Version, VersionLit};

include!(concat!(env!("OUT_DIR"), "/big_enum.rs"));

type SpecRow = (&'static str, &'static str, bool, bool, Option<&'static str>);

fn lit(s: &str) -> VersionLit {
    VersionLit::parse(s).unwrap_or_else(|err| panic!("test data: {err}"))
}

fn decl(name: &str, specs: &[SpecRow], deps: &[&str], description: Option<&str>) -> FeatureDecl {
    FeatureDecl {
        name: name.to_owned(),
        specs: specs
            .iter()
            .map(|&(version, stage, default, locked, mcv)| SpecDecl {
                version: Some(lit(version)),
                default,
                lock_to_default: locked,
                stage: Stage::from_name(stage).unwrap_or(Stage::PreAlpha),
                min_compatibility_version: mcv.map(lit),
            })
            .collect(),
        dependencies: deps.iter().map(|d| (*d).to_owned()).collect(),
        description: description.map(str::to_owned),
        ratchet: None,
    }
}

#[test]
fn tables_equal_core_validation() {
    let decls = big_decls();
    assert!(decls.len() >= 300, "a few hundred gates");
    assert_eq!(decls.len(), Big::ALL.len());
    assert_eq!(<<Big as FeatureGates>::Flags as GateFlags>::LEN, Big::ALL.len(), "the typed gate's inline flags");
    let validated = kompat::engine::validate(&decls);
    assert_eq!(validated.problems, vec![], "the generated declarations are valid");
    assert_eq!(*Big::feature_set(), validated.set);
    let deps: usize = Big::dependencies().iter().map(|d| d.len()).sum();
    assert!(deps > 50, "the data exercises dependencies ({deps})");
    for (idx, feature) in validated.set.features().iter().enumerate() {
        let variant = Big::from_index(idx).unwrap_or_else(|| panic!("no variant {idx}"));
        assert_eq!(variant.name(), feature.name);
        assert_eq!(Big::from_name(&feature.name), Some(variant));
        // No other string of any length resolves: the name with one byte
        // replaced (no gate name has `_`), shortened or lengthened.
        for pos in 0..feature.name.len() {
            let mut other = feature.name.clone().into_bytes();
            other[pos] = b'_';
            let other = String::from_utf8_lossy(&other).into_owned();
            assert_eq!(Big::from_name(&other), None, "{other}");
        }
        assert_eq!(Big::from_name(&feature.name[..feature.name.len() - 1]), None);
        assert_eq!(Big::from_name(&format!("{}s", feature.name)), None);
        assert_eq!(variant.spec_list(), feature.specs.as_slice(), "{}", feature.name);
        assert_eq!(Big::dependencies()[idx], feature.dependencies.as_slice(), "{}", feature.name);
        assert_eq!(Big::descriptions()[idx], feature.description.as_deref(), "{}", feature.name);
    }
}

#[test]
fn resolution_equals_untyped_gate() {
    let validated = kompat::engine::validate(&big_decls());
    let set = Arc::new(validated.set);
    let mut checked = 0;
    for minor in 0..=45 {
        let emu = Version::new(1, minor);
        let mut min_compats = vec![None, Some(emu)];
        min_compats.extend((1..=3).map(|back| Some(emu.subtract_minor(back))));
        for mc in min_compats {
            let untyped = FeatureGate::new(set.clone(), emu, mc);
            let typed = Big::gate(emu, mc);
            for &variant in Big::ALL {
                let idx = variant.index();
                assert_eq!(typed.state(variant), untyped.state(idx), "{} at ({emu}, {mc:?})", variant.name());
                assert_eq!(typed.enabled(variant), untyped.enabled(idx));
                assert_eq!(typed.enabled_by_name(variant.name()), Ok(untyped.enabled(idx)));
                checked += 1;
            }
            assert_eq!(typed.untyped().known_features(), untyped.known_features());
            assert!(typed.enabled_by_name("NoSuchGate").is_err());
        }
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn setting_gates_matches_untyped_gate() {
    let validated = kompat::engine::validate(&big_decls());
    let set = Arc::new(validated.set);
    let emu = Version::new(1, 30);
    for &variant in Big::ALL.iter().step_by(3) {
        for value in [true, false] {
            let flag = format!("{}={value}", variant.name());
            let mut untyped = FeatureGate::new(set.clone(), emu, None);
            let mut typed = Big::gate(emu, None);
            assert_eq!(typed.set(&flag), untyped.set(&flag), "{flag}");
            assert_eq!(typed.enabled(variant), untyped.enabled(variant.index()), "{flag}");
        }
    }
}
