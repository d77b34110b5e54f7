//! Gate references in Go code: which selectors count, one small file per case.

use std::collections::BTreeSet;

use kompat_go::GatePackage;
use kompat_span::LineIndex;

/// The references as `line:col Gate`, for a package `example.io/app/features`
/// (package clause `features`) declaring gates A and B.
fn refs(text: &str) -> String {
    let package =
        GatePackage { package: "features".to_owned(), gates: BTreeSet::from(["A".to_owned(), "B".to_owned()]) };
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
