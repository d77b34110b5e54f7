//! `parse_file_at_release`: unversioned `map[...]featuregate.FeatureSpec`
//! literals (how Kubernetes declared most gates before 1.32) read as the
//! state at the given release, one small Go file per case; `parse_file`
//! ignores them, as Kubernetes' tool does.

use crate::common::{errors, features};
use kompat_runtime::VersionLit;

const HEADER: &str = "package features\n\nimport (\n\t\"k8s.io/apimachinery/pkg/util/version\"\n\t\"k8s.io/component-base/featuregate\"\n)\n\n";

/// `versioned | unversioned` features read at release 1.31, or the errors as
/// `line:col: message`.
fn extract(text: &str) -> String {
    let release = VersionLit::parse("1.31").unwrap_or_else(|err| panic!("{err}"));
    match kompat_go::parse_file_at_release(text, &release) {
        Ok(file) => format!("{} | {}", features(&file.features, "\n"), features(&file.unversioned, "\n")),
        Err(found) => errors(text, &found),
    }
}

#[track_caller]
fn check(body: &str, expected: &str) {
    let text = format!("{HEADER}{body}");
    assert_eq!(extract(&text), expected, "\n--- input ---\n{text}");
}

#[test]
fn unversioned_maps_are_read_at_the_release() {
    // The shape of kube_features.go before 1.32: a var, keys local or from
    // another package, LockToDefault, every stage.
    check(
        "var defaultKubernetesFeatureGates = map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \tA: {Default: false, PreRelease: featuregate.Alpha},\n\
         \tgenericfeatures.B: {Default: true, PreRelease: featuregate.Beta},\n\
         \tC: {Default: true, PreRelease: featuregate.GA, LockToDefault: true}, // remove in 1.33\n\
         \tD: {Default: false, PreRelease: featuregate.Deprecated},\n\
         }\n",
        " | A: 1.31 Alpha false false\nB: 1.31 Beta true false\nC: 1.31 GA true true\nD: 1.31 Deprecated false false",
    );
    // Returned from a function (component-base/logs), with an alias, and
    // fields in any order.
    check(
        "func featureGates() map[featuregate.Feature]featuregate.FeatureSpec {\n\
         \treturn map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \t\tLoggingBetaOptions: {PreRelease: featuregate.Beta, Default: true},\n\
         \t}\n}\n",
        " | LoggingBetaOptions: 1.31 Beta true false",
    );
    // Default from a same-file const, as for versioned specs.
    check(
        "const on = true\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: on, PreRelease: featuregate.Beta},\n}\n",
        " | A: 1.31 Beta true false",
    );
    // An empty map, and a map of another value type, declare nothing.
    check("var m = map[featuregate.Feature]featuregate.FeatureSpec{}\n", " | ");
    check("var m = map[featuregate.Feature]bool{\n\tA: true,\n}\n", " | ");
}

#[test]
fn versioned_and_unversioned_maps_are_kept_apart() {
    check(
        "const (\n\t// A does a.\n\tA featuregate.Feature = \"A\"\n)\n\n\
         var versioned = map[featuregate.Feature]featuregate.VersionedSpecs{\n\
         \tA: {\n\t\t{Version: version.MustParse(\"1.29\"), Default: false, PreRelease: featuregate.Alpha},\n\
         \t\t{Version: version.MustParse(\"1.31\"), Default: true, PreRelease: featuregate.Beta},\n\t},\n}\n\n\
         var unversioned = map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \tA: {Default: true, PreRelease: featuregate.Beta},\n\tB: {Default: false, PreRelease: featuregate.Alpha},\n}\n",
        "A[A does a.]: 1.29 Alpha false false; 1.31 Beta true false | A[A does a.]: 1.31 Beta true false\nB: 1.31 Alpha false false",
    );
}

#[test]
fn unversioned_spec_errors_are_located() {
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: true},\n}\n",
        "9:5: FeatureSpec has no PreRelease",
    );
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: maybe, PreRelease: featuregate.Beta},\n}\n",
        "9:15: cannot parse maybe into bool",
    );
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: true, PreRelease: featuregate.Stable},\n}\n",
        "9:33: unknown PreRelease `featuregate.Stable`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`",
    );
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Version: version.MustParse(\"1.30\"), Default: true, PreRelease: featuregate.Beta},\n}\n",
        "9:15: an unversioned FeatureSpec has no Version field",
    );
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: featuregate.FeatureSpec(x),\n}\n",
        "9:5: expect FeatureSpec to be a CompositeLit",
    );
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\t\"A\": {Default: true, PreRelease: featuregate.Beta},\n}\n",
        "9:2: cannot read a feature name from this map key: expected the feature's constant (`MyFeature` or `features.MyFeature`)",
    );
}

/// The usual entry point reads only versioned maps, as Kubernetes' tool.
#[test]
fn parse_file_ignores_unversioned_maps() {
    let text = format!(
        "{HEADER}var m = map[featuregate.Feature]featuregate.FeatureSpec{{\n\tA: {{Default: true, PreRelease: featuregate.Beta}},\n\tB: {{Default: 1}},\n}}\n"
    );
    let file = kompat_go::parse_file(&text).unwrap_or_else(|errors| panic!("{errors:?}"));
    assert!(file.features.is_empty() && file.unversioned.is_empty());
    // The same file with unversioned maps read: B's spec is an error.
    assert_eq!(extract(&text), "10:15: cannot parse  into bool");
}

/// A file without the featuregate import declares nothing, either way.
#[test]
fn without_the_featuregate_import_nothing_is_read() {
    let text = "package features\n\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: true, PreRelease: featuregate.Beta},\n}\n";
    assert_eq!(extract(text), " | ");
}
