//! Bounded, deterministic mutation fuzzing of the Go reader with the shared
//! mutator: no mutation of a declaring file (or of code using its gates) may
//! make reading it panic, every error is located inside the text, and what
//! parses still folds and validates; read with unversioned maps too, the
//! same holds.

use kompat_testkit::mutate;

use std::collections::BTreeSet;

use mutate::{mutate, Rng};

const SEED: &str = r#"package features

import (
	"k8s.io/apimachinery/pkg/util/version"
	genericfeatures "k8s.io/apiserver/pkg/features"
	fg "k8s.io/component-base/featuregate"
)

const (
	// Docs of A.
	A fg.Feature = "A"
	on = true
	locked = on
)

var gates = map[fg.Feature]fg.VersionedSpecs{
	A: {
		{Version: version.MustParse("1.31"), Default: false, PreRelease: fg.Alpha},
		{Version: version.MajorMinor(1, 32), Default: on, LockToDefault: locked, PreRelease: fg.Beta, MinCompatibilityVersion: version.MustParse("1.31")},
	},
	genericfeatures.B: {{Version: version.MustParse("1.0"), Default: true, PreRelease: fg.GA}},
}

func more() map[fg.Feature]fg.VersionedSpecs {
	return map[fg.Feature]fg.VersionedSpecs{A: {{Version: version.MustParse("1.31"), PreRelease: fg.Alpha}}}
}

var old = map[fg.Feature]fg.FeatureSpec{
	A: {Default: locked, PreRelease: fg.Beta, LockToDefault: true},
	genericfeatures.C: {Default: false, PreRelease: fg.Deprecated},
}

func use() bool {
	return features.Enabled(features.A) && genericfeatures.Check(genericfeatures.B)
}
"#;

#[test]
fn go_reader_never_panics() {
    let package = kompat_go::GatePackage {
        package: "features".to_owned(),
        gates: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
        own: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
    };
    let mut rng = Rng(0x6b6f_6d70_6174_0601);
    let (mut parsed, mut with_features, mut with_unversioned) = (0, 0, 0);
    let release = kompat_runtime::VersionLit::parse("1.31").unwrap_or_else(|err| panic!("{err}"));
    for _ in 0..2000 {
        let input = mutate(SEED, &mut rng);
        match kompat_go::parse_file(&input) {
            Ok(file) => {
                parsed += 1;
                if !file.features.is_empty() {
                    with_features += 1;
                }
                let (kept, _) = kompat_go::merge(&[&file, &file]);
                let _ = kompat_engine::validate(kept[0].features());
            }
            Err(errors) => {
                assert!(!errors.is_empty());
                for error in errors {
                    let span = error.span.unwrap_or_else(|| panic!("unlocated error {error:?} for\n{input}"));
                    assert!(span.start <= span.end && span.end <= input.len(), "{error:?} outside\n{input}");
                }
            }
        }
        // Also with unversioned maps read: their errors are located too.
        match kompat_go::parse_file_at_release(&input, &release) {
            Ok(file) => {
                if !file.unversioned.is_empty() {
                    with_unversioned += 1;
                }
                assert!(file
                    .unversioned
                    .features()
                    .iter()
                    .all(|f| f.specs.len() == 1 && f.specs[0].version.as_ref() == Some(&release)));
            }
            Err(errors) => {
                for error in errors {
                    let span = error.span.unwrap_or_else(|| panic!("unlocated error {error:?} for\n{input}"));
                    assert!(span.start <= span.end && span.end <= input.len(), "{error:?} outside\n{input}");
                }
            }
        }
        // As component-base registers: every map, unversioned specs at 0.0.
        match kompat_go::parse_declarations(&input) {
            Ok(file) => {
                let zero = kompat_runtime::VersionLit::parse("0.0").ok();
                assert!(file.unversioned.features().iter().all(|f| f.specs.len() == 1 && f.specs[0].version == zero));
            }
            Err(errors) => {
                for error in errors {
                    let span = error.span.unwrap_or_else(|| panic!("unlocated error {error:?} for\n{input}"));
                    assert!(span.start <= span.end && span.end <= input.len(), "{error:?} outside\n{input}");
                }
            }
        }
        let refs = kompat_go::references(&input, |_| Some(&package)).unwrap_or_default();
        assert!(refs.iter().all(|r| r.span.end <= input.len() && package.gates.contains(&r.gate)));
        let own = kompat_go::own_references(&input, &package).unwrap_or_default();
        assert!(own.iter().all(|r| r.span.end <= input.len() && package.own.contains(&r.gate)));
    }
    assert!(
        parsed > 200 && with_features > 200 && with_unversioned > 200,
        "too few mutations parse: {parsed}, {with_features}, {with_unversioned}"
    );
}
