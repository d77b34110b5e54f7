//! Gate references in Go code: which selectors count, one small file per case.

use std::collections::BTreeSet;

use kompat_go::GatePackage;
use kompat_span::LineIndex;

/// The references as `line:col Gate`, for a package `example.io/app/features`
/// (package clause `features`) declaring gates A and B.
fn refs(text: &str) -> String {
    let package = GatePackage {
        package: "features".to_owned(),
        gates: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
        ..GatePackage::default()
    };
    let lines = LineIndex::new(text);
    let found = kompat_go::references(text, |path| (path == "example.io/app/features").then_some(&package));
    match found {
        Ok(found) => found
            .iter()
            .map(|r| {
                let (line, col) = lines.line_col(r.span.start);
                format!("{line}:{col} {}", r.gate)
            })
            .collect::<Vec<_>>()
            .join(", "),
        Err(errors) => format!("{errors:?}"),
    }
}

fn check(imports: &str, body: &str, expected: &str) {
    let text = format!("package user\n\nimport (\n{imports}\n)\n\n{body}\n");
    assert_eq!(refs(&text), expected, "\n{text}");
}

const PLAIN: &str = "\t\"example.io/app/features\"\n\tutilfeature \"k8s.io/apiserver/pkg/util/feature\"";

#[test]
fn selectors_naming_declared_gates() {
    check(PLAIN, "func f() bool {\n\treturn utilfeature.DefaultFeatureGate.Enabled(features.A)\n}", "9:57 A");
    check(
        PLAIN,
        "func f() bool {\n\treturn features.Enabled(features.B) || features.Enabled(features.A)\n}",
        "9:35 B, 9:67 A",
    );
    check(PLAIN, "var gates = []string{string(features.A)}", "8:38 A");
}

#[test]
fn import_names() {
    // Under an alias, the package's own name is not the import.
    check(
        "\tfeats \"example.io/app/features\"",
        "func f() bool {\n\treturn feats.Enabled(feats.A) && features.Enabled(features.B)\n}",
        "8:29 A",
    );
    check("\t_ \"example.io/app/features\"", "var x = features.A", "");
    check("\t. \"example.io/app/features\"", "var x = features.A", "");
    check("\t\"example.io/other/features\"", "var x = features.A", "");
}

#[test]
fn what_is_not_a_reference() {
    // Undeclared names, a local variable's field, map keys of a VersionedSpecs
    // literal (declarations).
    check(PLAIN, "var x = features.Enabled\nvar y = features.C", "");
    check(PLAIN, "func f(features struct{ A int }) int {\n\treturn 0\n}", "");
    check(
        "\t\"example.io/app/features\"\n\t\"k8s.io/component-base/featuregate\"",
        "var m = map[featuregate.Feature]featuregate.VersionedSpecs{\n\tfeatures.A: {},\n}\nvar n = map[featuregate.Feature]bool{features.B: true}",
        "11:47 B",
    );
}

#[test]
fn code_with_newer_syntax_is_read_around_it() {
    // Go 1.26's `new(expr)` is not in the grammar yet: the rest still counts.
    check(PLAIN, "func f() *int {\n\t_ = features.Enabled(features.A)\n\treturn new(int32(5) + 1)\n}", "9:32 A");
}

#[test]
fn keys_of_unversioned_maps_are_declarations() {
    check(
        "\t\"example.io/app/features\"\n\t\"k8s.io/component-base/featuregate\"",
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tfeatures.A: {},\n}\nfunc f() {\n\t_ = map[featuregate.Feature]featuregate.FeatureSpec{features.B: {}}\n}",
        "",
    );
}

/// The references, as `line:col Gate`, in a file of the declaring package
/// (package clause `features`, own gates A and B).
fn own(text: &str) -> String {
    let package = GatePackage {
        package: "features".to_owned(),
        gates: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
        own: BTreeSet::from(["A".to_owned(), "B".to_owned()]),
    };
    let lines = LineIndex::new(text);
    match kompat_go::own_references(text, &package) {
        Ok(found) => found
            .iter()
            .map(|r| {
                let (line, col) = lines.line_col(r.span.start);
                format!("{line}:{col} {}", r.gate)
            })
            .collect::<Vec<_>>()
            .join(", "),
        Err(errors) => format!("{errors:?}"),
    }
}

#[track_caller]
fn check_own(body: &str, expected: &str) {
    let text = format!("package features\n\nimport \"k8s.io/component-base/featuregate\"\n\n{body}\n");
    assert_eq!(own(&text), expected, "\n{text}");
}

#[test]
fn bare_gates_in_the_declaring_package() {
    // The package calls its own gate, directly or through a helper.
    check_own("func f() bool {\n\treturn utilfeature.DefaultFeatureGate.Enabled(A)\n}", "6:48 A");
    check_own("func f() bool {\n\treturn Enabled(B) && !Enabled(A)\n}", "6:17 B, 6:32 A");
    // Assigned, converted, in a slice, as a value, as a key of a plain map.
    check_own("func f() {\n\tgate := A\n\t_ = gate\n}", "6:10 A");
    check_own("var names = []string{string(A)}", "5:29 A");
    check_own("var defaults = map[featuregate.Feature]bool{B: true}", "5:45 B");
    check_own("var alias = A", "5:13 A");
}

#[test]
fn what_is_not_an_own_reference() {
    // The constants' declarations and the keys of spec maps.
    check_own("const (\n\tA featuregate.Feature = \"A\"\n\tB featuregate.Feature = \"B\"\n)", "");
    check_own(
        "var m = map[featuregate.Feature]featuregate.FeatureSpec{\n\tA: {Default: false, PreRelease: featuregate.Alpha},\n}",
        "",
    );
    check_own("func init() {\n\t_ = map[featuregate.Feature]featuregate.VersionedSpecs{\n\t\tB: {},\n\t}\n}", "");
    // A parameter, local, range variable or result of the same name shadows
    // the constant.
    check_own("func f(A bool) bool {\n\treturn A\n}", "");
    check_own("func f() bool {\n\tA := true\n\treturn A\n}", "");
    check_own("func f(xs []int) {\n\tfor A := range xs {\n\t\t_ = A\n\t}\n}", "");
    check_own("func f() (A bool) {\n\treturn A\n}", "");
    check_own("func f() {\n\tvar B = 1\n\t_ = B\n}", "");
    check_own("func f() {\n\t_ = func(A int) int { return A }\n}", "");
    // Field names of struct literals, selectors' fields, labels, other names.
    check_own("var c = Config{A: 1}", "");
    check_own("func f(c Config) int {\n\treturn c.A\n}", "");
    check_own("func f() {\nA:\n\tfor {\n\t\tbreak A\n\t}\n}", "");
    check_own("var x = C", "");
}

#[test]
fn another_package_has_no_own_references() {
    let text = "package features_test\n\nfunc f() bool {\n\treturn Enabled(A)\n}\n";
    assert_eq!(own(text), "");
    let text = "package other\n\nvar x = A\n";
    assert_eq!(own(text), "");
}
