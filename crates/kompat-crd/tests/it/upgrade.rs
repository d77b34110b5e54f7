//! `check_upgrade` on one old/new fixture pair per rule: the findings'
//! codes, subjects and the text their spans cover in the new manifest.

use crate::common::{compact, conversions, crd, expected};
use kompat_crd::check_upgrade;

fn check(dir: &str, conversions_file: Option<&str>, want: &[(&str, &str, &str)]) {
    let (_, old) = crd(&format!("upgrade/{dir}/old.yaml"));
    let (text, new) = crd(&format!("upgrade/{dir}/new.yaml"));
    let conv = conversions_file.map(|p| conversions(p).1);
    let got = compact(&text, &check_upgrade(&old, &new, conv.as_ref()));
    assert_eq!(got, expected(want), "{dir}");
}

const G: &str = "gadgets.example.io";

/// `(code, subject, spanned text)` with a computed subject.
type Owned<'a> = (&'a str, String, &'a str);

#[test]
fn compatible_changes_have_no_findings() {
    check("compatible", None, &[]);
    // An absent `x-kubernetes-list-type` is `atomic`: writing it out or
    // dropping it is no change (other list types stay unhandled changes).
    check("list-type-atomic", None, &[]);
    // Patterns are compared as languages: the same class written twice,
    // and a class widened, reject nothing stored.
    check("pattern-same-language", None, &[]);
    // A CEL rule and bounds on fields new in this release constrain nothing
    // stored.
    check("validation-new-fields", None, &[]);
}

#[test]
fn stored_version_removed() {
    check("stored-version-removed", None, &[("stored-version-removed", "gadgets.example.io/v1alpha1", "versions")]);
    // Without a status, the old storage version is what the API server recorded.
    check(
        "stored-version-inferred",
        None,
        &[
            ("stored-version-removed", "gadgets.example.io/v1beta1", "versions"),
            ("served-version-removed", "gadgets.example.io/v1beta1", "versions"),
        ],
    );
}

#[test]
fn stored_version_removed_has_the_api_servers_message() {
    let (_, old) = crd("upgrade/stored-version-removed/old.yaml");
    let (_, new) = crd("upgrade/stored-version-removed/new.yaml");
    let findings = check_upgrade(&old, &new, None);
    let messages: Vec<&str> = findings.iter().map(|f| f.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "status.storedVersions[0]: Invalid value: \"v1alpha1\": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions"
        ]
    );
}

#[test]
fn served_version_removed() {
    check("served-version-removed", None, &[("served-version-removed", "gadgets.example.io/v1beta1", "versions")]);
}

#[test]
fn identity_changes() {
    check("scope-changed", None, &[("scope-changed", G, "Cluster")]);
    check("group-changed", None, &[("group-changed", "gadgets.gadgets.example.io", "gadgets.example.io")]);
    check("plural-changed", None, &[("plural-changed", "gadgetz.example.io", "gadgetz")]);
    check(
        "kind-changed",
        None,
        &[("kind-changed", G, "Gizmo"), ("unhandled-change", G, "gizmo"), ("unhandled-change", G, "GizmoList")],
    );
}

#[test]
fn schema_changes() {
    let v1 = |path: &str| format!("gadgets.example.io/v1#{path}");
    let cases: [(&str, Vec<Owned<'_>>); 10] = [
        ("field-removed", vec![("field-removed", v1(".spec.tags"), "properties")]),
        ("type-changed", vec![("type-changed", v1(".spec.size"), "type: string")]),
        ("enum-value-removed", vec![("enum-value-removed", v1(".spec.mode"), "enum")]),
        (
            "new-required-field",
            vec![("new-required-field", v1(".spec.name"), "name"), ("new-required-field", v1(".spec.owner"), "owner")],
        ),
        (
            "bounds-tightened",
            vec![
                ("bounds-tightened", v1(".spec.size"), "maximum: 10"),
                ("bounds-tightened", v1(".spec.name"), "maxLength: 63"),
                ("bounds-tightened", v1(".spec.tags"), "minItems: 1"),
            ],
        ),
        ("pattern-changed", vec![("pattern-changed", v1(".spec.name"), "pattern: '^[a-z]+$'")]),
        ("pattern-narrowed", vec![("pattern-changed", v1(".spec.name"), "pattern: '^[a-z]+$'")]),
        ("default-changed", vec![("default-changed", v1(".spec.mode"), "default: Unmanaged")]),
        (
            "validation-tightened",
            vec![("validation-tightened", v1(".spec"), "rule: self.size <= 10\n              message: at most 10")],
        ),
        (
            "unhandled-change",
            vec![
                ("unhandled-change", v1(".spec.tags"), "x-kubernetes-list-type: set"),
                ("unhandled-change", "gadgets.example.io/v1".to_owned(), "subresources"),
            ],
        ),
    ];
    for (dir, want) in cases {
        let want: Vec<(&str, &str, &str)> = want.iter().map(|(a, b, c)| (*a, b.as_str(), *c)).collect();
        check(dir, None, &want);
    }
}

#[test]
fn versions_that_stop_being_served_need_conversions() {
    check(
        "unserve-undeclared",
        None,
        &[("undeclared-conversion", "gadgets.example.io/v1beta1->v1#.spec.legacy", "v1")],
    );
    check("unserve-undeclared", Some("upgrade/unserve-undeclared/conversions.toml"), &[]);
}

#[test]
fn a_webhook_converts_versions_that_stop_being_served() {
    let m = "machines.cluster.example.io";
    check("webhook-unserve", None, &[("conversion-checks-skipped", m, "Webhook")]);
}

#[test]
fn a_baseline_without_stored_versions_says_what_was_assumed() {
    let m = "machines.cluster.example.io";
    check("stored-versions-assumed", None, &[("stored-versions-assumed", m, "versions")]);
    // The cluster's record (`kubectl get crd NAME -o yaml`) decides.
    let (_, old) = crd("upgrade/stored-versions-assumed/cluster.yaml");
    let (text, new) = crd("upgrade/stored-versions-assumed/new.yaml");
    assert_eq!(
        compact(&text, &check_upgrade(&old, &new, None)),
        expected(&[("stored-version-removed", "machines.cluster.example.io/v1alpha1", "versions")])
    );
}

#[test]
fn an_unchanged_crd_has_no_findings() {
    for path in ["kube-rs/widget-v1.yaml", "kube-rs/widget-merged.yaml", "upgrade/stored-version-removed/old.yaml"] {
        let (_, crd) = crd(path);
        assert_eq!(check_upgrade(&crd, &crd, None), Vec::new(), "{path}");
    }
}

/// The full text of every finding of every upgrade fixture, notes included.
#[test]
fn messages_snapshot() {
    let mut dirs: Vec<String> = std::fs::read_dir(crate::common::fixtures().join("upgrade"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|d| d.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut out = String::new();
    for dir in dirs {
        let (_, old) = crd(&format!("upgrade/{dir}/old.yaml"));
        let (text, new) = crd(&format!("upgrade/{dir}/new.yaml"));
        out.push_str(&format!("--- {dir}\n{}", crate::common::render(&text, &check_upgrade(&old, &new, None))));
    }
    insta::assert_snapshot!("upgrade_messages", out);
}
