//! `check_crd` on one fixture per rule: the findings' codes, subjects and
//! the text their spans cover.

use crate::common::{compact, conversions, crd, expected};
use kompat_crd::check_crd;

/// `(code, subject, spanned text)` of each expected finding.
type Expected<'a> = &'a [(&'a str, &'a str, &'a str)];

fn check(fixture: &str, conversions_file: Option<&str>, want: &[(&str, &str, &str)]) {
    let (text, crd) = crd(fixture);
    let conv = conversions_file.map(|p| conversions(p).1);
    let got = compact(&text, &check_crd(&crd, conv.as_ref()));
    assert_eq!(got, expected(want), "{fixture} with {conversions_file:?}");
}

#[test]
fn clean_crds_have_no_findings() {
    check("single/clean.yaml", None, &[]);
    // A version written as `<<: *version` plus overrides has the merged schema.
    check("single/merge-key-versions.yaml", None, &[]);
    check("single/preserved.yaml", None, &[]);
    check("kube-rs/widget-v1.yaml", None, &[]);
}

#[test]
fn storage_version_count() {
    check("single/storage-version-count.yaml", None, &[("storage-version-count", "gadgets.example.io", "true")]);
    check("single/no-storage-version.yaml", None, &[("storage-version-count", "gadgets.example.io", "versions")]);
}

#[test]
fn unserved_storage_version() {
    check(
        "single/unserved-storage-version.yaml",
        None,
        &[("unserved-storage-version", "gadgets.example.io/v1alpha1", "false")],
    );
}

#[test]
fn duplicate_version_name() {
    check("single/duplicate-version-name.yaml", None, &[("duplicate-version-name", "gadgets.example.io/v1", "v1")]);
}

#[test]
fn conversion_webhook_stops_the_conversion_checks() {
    let webhook = |id| ("conversion-webhook", id, "Webhook");
    let skipped = |id| ("conversion-checks-skipped", id, "Webhook");
    let g = "gadgets.example.io";
    let m = "machines.cluster.example.io";
    check("single/conversion-webhook.yaml", None, &[webhook(g), skipped(g)]);
    // The kubebuilder pattern: versions that differ, no preserved unknown
    // fields, no conversions file; the webhook converts.
    check("single/webhook-kubebuilder.yaml", None, &[webhook(m), skipped(m)]);
}

#[test]
fn versions_neither_served_nor_stored_are_not_judged() {
    check("single/unserved-unstored-version.yaml", None, &[]);
}

#[test]
fn preserve_unknown_fields_true() {
    check(
        "single/preserve-unknown-fields-true.yaml",
        None,
        &[("preserve-unknown-fields-true", "gadgets.example.io", "true")],
    );
}

#[test]
fn deprecated_without_warning() {
    check(
        "single/deprecated-without-warning.yaml",
        None,
        &[("deprecated-without-warning", "gadgets.example.io/v1beta1", "true")],
    );
}

#[test]
fn missing_schema() {
    check("single/missing-schema.yaml", None, &[("missing-schema", "gadgets.example.io/v1", "v1")]);
}

#[test]
fn v1beta1_crds_are_left_to_the_manifest_checks() {
    // Whether `apiextensions.k8s.io/v1beta1` is served depends on the target
    // version: `removed-api-version` (a manifest check) judges it there.
    check("single/v1beta1.yaml", None, &[]);
}

#[test]
fn missing_preserve_unknown_fields() {
    // An added optional field needs no conversion, but the older version prunes it.
    check(
        "single/missing-preserve-unknown-fields.yaml",
        None,
        &[("missing-preserve-unknown-fields", "gadgets.example.io/v1beta1#.spec", "spec")],
    );
    // A version neither served nor stored holds no objects: nothing of it
    // is pruned. One the cluster still stores counts.
    check("single/unserved-pair.yaml", None, &[]);
    check(
        "single/unserved-stored-pair.yaml",
        None,
        &[("missing-preserve-unknown-fields", "gadgets.example.io/v1#.spec", "spec")],
    );
}

#[test]
fn undeclared_conversion() {
    check(
        "single/undeclared-conversion.yaml",
        None,
        &[
            ("undeclared-conversion", "gadgets.example.io/v1beta1->v1#.spec.legacy", "legacy"),
            ("undeclared-conversion", "gadgets.example.io/v1beta1->v1#.spec.size", "size"),
            ("undeclared-conversion", "gadgets.example.io/v1beta1->v1#.spec.owner", "owner"),
        ],
    );
    check("single/undeclared-conversion.yaml", Some("single/undeclared-conversion.conversions.toml"), &[]);
    // A file for another CRD declares nothing for this one.
    let (_, other) = conversions("conversions/other-crd.toml");
    let (_, gadgets) = crd("single/undeclared-conversion.yaml");
    assert_eq!(check_crd(&gadgets, Some(&other)).len(), 3);
}

#[test]
fn kube_rs_merge_crds_output() {
    let pruned = [
        ("missing-preserve-unknown-fields", "widgets.example.io/v1#.spec", "spec"),
        ("missing-preserve-unknown-fields", "widgets.example.io/v1alpha1#.spec", "spec"),
    ];
    let mut all = pruned.to_vec();
    all.push(("undeclared-conversion", "widgets.example.io/v1alpha1->v1#.spec.tls", "tls"));
    check("kube-rs/widget-merged.yaml", None, &all);
    check("kube-rs/widget-merged.yaml", Some("kube-rs/widget-merged.conversions.toml"), &pruned);
    check("kube-rs/widget-merged-preserved.yaml", Some("kube-rs/widget-merged.conversions.toml"), &[]);
}

#[test]
fn experimental_channel_needs_reverse_conversions() {
    check(
        "kube-rs/widget-merged-preserved.yaml",
        Some("kube-rs/widget-merged.experimental.toml"),
        &[("missing-reverse-conversion", "widgets.example.io/v1->v1alpha1#.spec.tls", "tls")],
    );
    check("kube-rs/widget-merged-preserved.yaml", Some("kube-rs/widget-merged.bidirectional.toml"), &[]);
}

#[test]
fn experimental_channel_from_the_gateway_annotation() {
    let (text, _) = crd("kube-rs/widget-merged-preserved.yaml");
    let annotated = text.replace(
        "  name: widgets.example.io\n",
        "  name: widgets.example.io\n  annotations:\n    gateway.networking.k8s.io/channel: experimental\n",
    );
    let crds = kompat_crd::parse_manifests(&annotated).unwrap_or_default();
    let (_, conv) = conversions("kube-rs/widget-merged.conversions.toml");
    let codes: Vec<&str> = crds.iter().flat_map(|c| check_crd(c, Some(&conv))).map(|f| f.rule.code()).collect();
    assert_eq!(codes, ["missing-reverse-conversion"]);
}

#[test]
fn conversion_mismatch_points_into_the_conversions_file() {
    let (_, gadgets) = crd("single/undeclared-conversion.yaml");
    let cases: [(&str, Expected<'_>); 3] = [
        ("single/undeclared-conversion.conversions.toml", &[]),
        (
            "conversions/mismatch.toml",
            &[
                ("conversion-mismatch", "gadgets.example.io/v1beta1->v1#.spec.sise", "\"spec.sise\""),
                ("conversion-mismatch", "gadgets.example.io/v1beta1->v1#.spec.sise", "\"spec.size2\""),
                ("conversion-mismatch", "gadgets.example.io/v1beta1->v1#.spec.size", "\"spec.size\""),
                ("conversion-mismatch", "gadgets.example.io/v1beta1->v1#.spec.color", "\"spec.color\""),
                ("conversion-mismatch", "gadgets.example.io/v1beta1->v1#.spec.legacy", "\"spec.legacy\""),
                ("conversion-mismatch", "gadgets.example.io/v2", "\"v2\""),
            ],
        ),
        ("conversions/other-crd.toml", &[("conversion-mismatch", "gadgets.example.io", "\"widgets.example.io\"")]),
    ];
    for (file, want) in cases {
        let (text, conv) = conversions(file);
        let got = compact(&text, &kompat_crd::check_conversions(&gadgets, &conv));
        assert_eq!(got, expected(want), "{file}");
    }
}

/// The full text of every finding of the single-CRD fixtures, notes
/// included.
#[test]
fn messages_snapshot() {
    let mut out = String::new();
    let cases = [
        ("single/storage-version-count.yaml", None),
        ("single/no-storage-version.yaml", None),
        ("single/unserved-storage-version.yaml", None),
        ("single/duplicate-version-name.yaml", None),
        ("single/conversion-webhook.yaml", None),
        ("single/webhook-kubebuilder.yaml", None),
        ("single/preserve-unknown-fields-true.yaml", None),
        ("single/deprecated-without-warning.yaml", None),
        ("single/missing-schema.yaml", None),
        ("single/missing-preserve-unknown-fields.yaml", None),
        ("single/undeclared-conversion.yaml", None),
        ("kube-rs/widget-merged-preserved.yaml", Some("kube-rs/widget-merged.experimental.toml")),
    ];
    for (fixture, conv) in cases {
        let (text, crd) = crd(fixture);
        let conv = conv.map(|p| conversions(p).1);
        out.push_str(&format!("--- {fixture}\n{}", crate::common::render(&text, &check_crd(&crd, conv.as_ref()))));
    }
    insta::assert_snapshot!("single_messages", out);
}

#[test]
fn merged_versions_read_as_written() {
    let (text, crd) = crd("single/merge-key-versions.yaml");
    let names: Vec<(&str, bool, bool)> =
        crd.versions.iter().map(|v| (v.name.value.as_str(), v.served.value, v.storage.value)).collect();
    assert_eq!(names, [("v1beta2", true, true), ("v1beta1", true, false)]);
    // The merged schema points at where it is written (in the anchored version).
    let schema = crd.versions[1].schema.as_ref().map(|s| s.span());
    let first = crd.versions[0].schema.as_ref().map(|s| s.span());
    assert!(schema.is_some() && schema == first, "{schema:?}");
    assert!(schema.is_some_and(|s| text[s.start..s.end].starts_with("type: object")));
}
