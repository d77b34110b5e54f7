//! `parse_declarations`: every map component-base registers, one small Go
//! file per case, as `tool | unversioned | inline` (the `VersionedSpecs`
//! maps Kubernetes' tool reads, unversioned `FeatureSpec` maps at 0.0, and
//! versioned maps inside function bodies).

use crate::common::{errors, features};

const HEADER: &str = "package features\n\nimport (\n\t\"k8s.io/apimachinery/pkg/util/version\"\n\tutilfeature \"k8s.io/apiserver/pkg/util/feature\"\n\t\"k8s.io/component-base/featuregate\"\n)\n\n";

fn extract(text: &str) -> String {
    match kompat_go::parse_declarations(text) {
        Ok(file) => {
            format!(
                "{} | {} | {}",
                features(&file.features, ", "),
                features(&file.unversioned, ", "),
                features(&file.inline, ", ")
            )
        }
        Err(found) => errors(text, &found),
    }
}

#[track_caller]
fn check(body: &str, expected: &str) {
    let text = format!("{HEADER}{body}");
    assert_eq!(extract(&text), expected, "\n--- input ---\n{text}");
}

#[test]
fn unversioned_maps_are_one_spec_at_zero() {
    // jobset's shape: constants, a var map, `Add` in init.
    check(
        "const (\n\t// InPlaceRestart restarts in place.\n\tInPlaceRestart featuregate.Feature = \"InPlaceRestart\"\n\tTLSOptions featuregate.Feature = \"TLSOptions\"\n)\n\n\
         func init() {\n\truntime.Must(utilfeature.DefaultMutableFeatureGate.Add(defaultFeatureGates))\n}\n\n\
         var defaultFeatureGates = map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \tInPlaceRestart: {Default: false, PreRelease: featuregate.Alpha},\n\
         \tTLSOptions: {Default: true, PreRelease: featuregate.GA, LockToDefault: true},\n}\n",
        " | InPlaceRestart[InPlaceRestart restarts in place.]: 0.0 Alpha false false, TLSOptions: 0.0 GA true true | ",
    );
    // Every stage; a key from another package is named by its identifier.
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \tA: {Default: false, PreRelease: featuregate.Alpha},\n\
         \tgenericfeatures.B: {Default: true, PreRelease: featuregate.Beta},\n\
         \tD: {Default: false, PreRelease: featuregate.Deprecated},\n}\n",
        " | A: 0.0 Alpha false false, B: 0.0 Beta true false, D: 0.0 Deprecated false false | ",
    );
    // `Add` overwrites a Version field with 0.0.
    check(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \tA: {Version: version.MustParse(\"1.2\"), Default: true, PreRelease: featuregate.Beta},\n}\n",
        " | A: 0.0 Beta true false | ",
    );
    // A bool from a constant, as for versioned specs.
    check(
        "const on = true\n\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: on, PreRelease: featuregate.GA},\n}\n",
        " | A: 0.0 GA true false | ",
    );
}

#[test]
fn maps_inside_functions_are_read() {
    // Inline in `AddVersioned(...)`: read, but not where the tool reads.
    check(
        "func init() {\n\truntime.Must(utilfeature.DefaultMutableFeatureGate.AddVersioned(map[featuregate.Feature]featuregate.VersionedSpecs{\n\
         \t\tA: {{Version: version.MajorMinor(1, 2), Default: false, PreRelease: featuregate.Alpha}},\n\t}))\n}\n",
        " |  | A: 1.2 Alpha false false",
    );
    // Inline in `Add(...)`.
    check(
        "func init() {\n\tutilfeature.DefaultMutableFeatureGate.Add(map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \t\tA: {Default: true, PreRelease: featuregate.Beta},\n\t})\n}\n",
        " | A: 0.0 Beta true false | ",
    );
    // Returned from a function: the tool reads a versioned one, component-base
    // registers an unversioned one.
    check(
        "func defaultFeatureGates() map[featuregate.Feature]featuregate.FeatureSpec {\n\
         \treturn map[featuregate.Feature]featuregate.FeatureSpec{\n\t\tA: {Default: false, PreRelease: featuregate.Alpha},\n\t}\n}\n\n\
         func versioned() map[featuregate.Feature]featuregate.VersionedSpecs {\n\
         \treturn map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\tB: {{Version: version.MajorMinor(1, 0), Default: true, PreRelease: featuregate.Beta}},\n\t}\n}\n",
        "B: 1.0 Beta true false | A: 0.0 Alpha false false | ",
    );
    // Returned from inside a block, assigned to a local: not where the tool
    // reads, read all the same.
    check(
        "func gates(on bool) map[featuregate.Feature]featuregate.VersionedSpecs {\n\
         \tif on {\n\t\treturn map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\t\tA: {{Version: version.MajorMinor(1, 0), Default: true, PreRelease: featuregate.Beta}},\n\t\t}\n\t}\n\
         \tm := map[featuregate.Feature]featuregate.FeatureSpec{B: {Default: false, PreRelease: featuregate.Alpha}}\n\treturn nil\n}\n",
        " | B: 0.0 Alpha false false | A: 1.0 Beta true false",
    );
    // A function literal at top level.
    check(
        "var register = func() error {\n\treturn utilfeature.DefaultMutableFeatureGate.Add(map[featuregate.Feature]featuregate.FeatureSpec{\n\
         \t\tA: {Default: false, PreRelease: featuregate.Alpha},\n\t})\n}\n",
        " | A: 0.0 Alpha false false | ",
    );
}

#[test]
fn every_kind_together_in_source_order() {
    check(
        "var v = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tV: {{Version: version.MajorMinor(1, 1), Default: false, PreRelease: featuregate.Alpha}},\n}\n\n\
         var u = map[featuregate.Feature]featuregate.FeatureSpec{\n\tU: {Default: false, PreRelease: featuregate.Alpha},\n}\n\n\
         func init() {\n\t_ = map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\tI: {{Version: version.MajorMinor(1, 3), Default: true, PreRelease: featuregate.Beta}},\n\t}\n}\n",
        "V: 1.1 Alpha false false | U: 0.0 Alpha false false | I: 1.3 Beta true false",
    );
}

#[test]
fn not_spec_maps_and_errors() {
    // Other maps and other types' FeatureSpec are not declarations.
    check(
        "func f() {\n\t_ = map[featuregate.Feature]bool{A: true}\n\t_ = map[string]other.FeatureSpec{\"A\": {}}\n}\n",
        " |  | ",
    );
    // Specs read with the tool's rules and messages, wherever the map is.
    check(
        "func init() {\n\t_ = map[featuregate.Feature]featuregate.FeatureSpec{\n\t\tA: {Default: yes, PreRelease: featuregate.Alpha},\n\t\tB: {Default: false},\n\t}\n}\n",
        "11:16: cannot parse yes into bool\n12:6: FeatureSpec has no PreRelease",
    );
    check(
        "func init() {\n\t_ = map[featuregate.Feature]featuregate.FeatureSpec{\n\t\tA: {Default: false, PreRelease: featuregate.Omega},\n\t}\n}\n",
        "11:35: unknown PreRelease `featuregate.Omega`, expected one of `Alpha`, `Beta`, `GA`, `Deprecated`",
    );
    // A file that does not import featuregate declares nothing.
    let text = "package x\n\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: false, PreRelease: featuregate.Alpha},\n}\n";
    assert_eq!(extract(text), " |  | ");
}

#[test]
fn parse_file_still_reads_what_the_tool_reads() {
    let text = format!(
        "{HEADER}func init() {{\n\t_ = map[featuregate.Feature]featuregate.VersionedSpecs{{\n\t\tA: {{{{Version: version.MajorMinor(1, 3), Default: true, PreRelease: featuregate.Beta}}}},\n\t}}\n}}\n\n\
         var u = map[featuregate.Feature]featuregate.FeatureSpec{{\n\tU: {{Default: false, PreRelease: featuregate.Alpha}},\n}}\n"
    );
    let file = kompat_go::parse_file(&text).unwrap_or_else(|errors| panic!("{errors:?}"));
    assert!(file.features.is_empty() && file.unversioned.is_empty() && file.inline.is_empty());
    let all = kompat_go::parse_declarations(&text).unwrap_or_else(|errors| panic!("{errors:?}"));
    assert_eq!((all.unversioned.len(), all.inline.len()), (1, 1));
    assert_eq!(all.bare_keys, ["U", "A"]);
}
