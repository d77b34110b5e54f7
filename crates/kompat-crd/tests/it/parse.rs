//! `parse_manifests` and `parse_conversions`: what is read, with which spans,
//! every located error of malformed inputs, and no panic on any input.

use crate::common::{crd, crds, fixture, fixtures, span_text};
use kompat_crd::{
    check_conversions, check_crd, check_upgrade, migration_plan, parse_conversions, parse_manifests, ChangeKind,
    Channel,
};

/// `(message, spanned text)` of every error of a fixture that must not parse.
fn errors(path: &str, parse: fn(&str) -> Vec<kompat_formats::ParseError>) -> Vec<(String, String)> {
    let text = fixture(path);
    parse(&text).iter().map(|e| (e.message.clone(), span_text(&text, e.span))).collect()
}

fn manifest_errors(text: &str) -> Vec<kompat_formats::ParseError> {
    parse_manifests(text).err().unwrap_or_default()
}

fn conversion_errors(text: &str) -> Vec<kompat_formats::ParseError> {
    parse_conversions(text).err().unwrap_or_default()
}

fn check_errors(path: &str, parse: fn(&str) -> Vec<kompat_formats::ParseError>, want: &[(&str, &str)]) {
    let want: Vec<(String, String)> = want.iter().map(|(m, s)| ((*m).to_owned(), (*s).to_owned())).collect();
    assert_eq!(errors(path, parse), want, "{path}");
}

#[test]
fn multi_document_streams_keep_only_crds() {
    let (text, crds) = crds("multi-document.yaml");
    let names: Vec<(&str, &str, String)> = crds
        .iter()
        .map(|c| (c.name.value.as_str(), c.api_version.value.as_str(), span_text(&text, Some(c.name.span))))
        .collect();
    assert_eq!(
        names,
        [
            ("gadgets.example.io", "apiextensions.k8s.io/v1", "gadgets.example.io".to_owned()),
            ("gizmos.example.io", "apiextensions.k8s.io/v1", "gizmos.example.io".to_owned()),
            ("doohickeys.example.io", "apiextensions.k8s.io/v1beta1", "doohickeys.example.io".to_owned()),
        ]
    );
    assert_eq!(crds[1].scope.value, "Cluster");
    // The v1beta1 CRD's single `spec.version` becomes its only version.
    let legacy: Vec<(&str, bool, bool)> =
        crds[2].versions.iter().map(|v| (v.name.value.as_str(), v.served.value, v.storage.value)).collect();
    assert_eq!(legacy, [("v1", true, true)]);
}

#[test]
fn kube_rs_shapes() {
    let (text, widget) = crd("kube-rs/widget-v1.yaml");
    assert_eq!(
        (widget.id(), widget.kind.value.as_str(), widget.scope.value.as_str()),
        ("widgets.example.io".to_owned(), "Widget", "Namespaced")
    );
    let [v1] = widget.versions.as_slice() else { panic!("one version") };
    assert!(v1.served.value && v1.storage.value && !v1.is_deprecated());
    assert!(v1.schema.as_ref().is_some_and(|s| s.get("properties").is_some()));
    assert_eq!(span_text(&text, Some(v1.name.span)), "v1");
    assert!(widget.conversion_strategy.is_none() && widget.stored_versions.is_none());

    // merge_crds: the root version first, `storage` forced onto it.
    let (_, merged) = crd("kube-rs/widget-merged.yaml");
    let versions: Vec<(&str, bool, bool)> =
        merged.versions.iter().map(|v| (v.name.value.as_str(), v.served.value, v.storage.value)).collect();
    assert_eq!(versions, [("v1", true, true), ("v1alpha1", true, false)]);
    assert_eq!(merged.storage_version().map(|v| v.name.value.as_str()), Some("v1"));
}

#[test]
fn status_stored_versions_are_read_with_spans() {
    let (text, crd) = crd("upgrade/stored-version-removed/old.yaml");
    let stored: Vec<String> = crd
        .stored_versions
        .iter()
        .flat_map(|s| s.value.iter())
        .map(|v| format!("{}@{}", v.value, span_text(&text, Some(v.span))))
        .collect();
    assert_eq!(stored, ["v1alpha1@v1alpha1", "v1@v1"]);
    assert_eq!(crd.stored_or_storage(), (vec!["v1alpha1".to_owned(), "v1".to_owned()], true));
    let (_, fresh) = crate::common::crd("upgrade/stored-version-inferred/old.yaml");
    assert_eq!(fresh.stored_or_storage(), (vec!["v1beta1".to_owned()], false));
}

#[test]
fn malformed_manifests() {
    check_errors(
        "malformed/unclosed-flow.yaml",
        manifest_errors,
        &[("invalid YAML: while parsing a flow mapping, did not find expected ',' or '}'", "")],
    );
    check_errors(
        "malformed/bad-indentation.yaml",
        manifest_errors,
        &[("invalid YAML: mapping values are not allowed in this context", "")],
    );
    check_errors("malformed/duplicate-key.yaml", manifest_errors, &[("duplicate key `storage`", "storage")]);
    check_errors(
        "malformed/unknown-api-version.yaml",
        manifest_errors,
        &[(
            "unknown CustomResourceDefinition apiVersion `apiextensions.k8s.io/v2`, expected `apiextensions.k8s.io/v1`",
            "apiextensions.k8s.io/v2",
        )],
    );
    check_errors(
        "malformed/wrong-shapes.yaml",
        manifest_errors,
        &[
            ("`spec.names.plural` is required", "{kind: Gadget}"),
            ("`spec.scope` must be `Namespaced` or `Cluster`, not `Global`", "Global"),
            ("`spec.versions[0].served` must be a boolean, not a string", "\"yes\""),
            (
                "`spec.versions[0].storage` is required",
                "name: v1\n    served: \"yes\"\n    schema: {openAPIV3Schema: [type, object]}",
            ),
            ("`spec.versions[0].schema.openAPIV3Schema` must be a mapping, not a sequence", "[type, object]"),
            ("`spec.versions[1]` must be a mapping, not a string", "just-a-string"),
            ("`spec.versions` must have at least one version", "[]"),
            ("a manifest must be a mapping, not a sequence", "- a\n- sequence"),
        ],
    );
}

#[test]
fn yaml_error_positions() {
    let text = fixture("malformed/bad-indentation.yaml");
    let errors = manifest_errors(&text);
    let at = errors.first().and_then(|e| e.span).map(|s| s.start).unwrap_or_default();
    let line = text[..at].matches('\n').count() + 1;
    assert_eq!(line, 9, "the error is on the line of `served`");
}

/// `(kind, field, default, note, spanned field text)`.
type ChangeRow<'a> = (ChangeKind, &'a str, Option<&'a str>, Option<&'a str>, String);

#[test]
fn conversions_are_read() {
    let (text, conv) = crate::common::conversions("single/undeclared-conversion.conversions.toml");
    assert!(conv.crd.is_none() && conv.channel.is_none());
    let [c] = conv.conversions.as_slice() else { panic!("one conversion") };
    assert_eq!((c.from.value.as_str(), c.to.value.as_str()), ("v1beta1", "v1"));
    let changes: Vec<ChangeRow<'_>> = c
        .changes
        .iter()
        .map(|ch| {
            let default = ch.default.as_ref().map(|d| d.value.as_str());
            (ch.kind, ch.field.value.as_str(), default, ch.note.as_deref(), span_text(&text, Some(ch.field.span)))
        })
        .collect();
    assert_eq!(
        changes,
        [
            (ChangeKind::Removed, ".spec.legacy", None, Some("never implemented"), "\"spec.legacy\"".to_owned()),
            (
                ChangeKind::Changed,
                ".spec.size",
                None,
                Some("the integer becomes its decimal string"),
                "\"spec.size\"".to_owned()
            ),
            (ChangeKind::Added, ".spec.owner", Some("\"unknown\""), None, "\"spec.owner\"".to_owned()),
        ]
    );
    let (_, experimental) = crate::common::conversions("kube-rs/widget-merged.experimental.toml");
    assert_eq!(experimental.channel.map(|c| c.value), Some(Channel::Experimental));
    assert_eq!(experimental.crd.map(|c| c.value).as_deref(), Some("widgets.example.io"));
}

#[test]
fn malformed_conversions() {
    check_errors(
        "conversions/invalid-toml.toml",
        conversion_errors,
        &[("invalid TOML: invalid basic string, expected `\"`", "")],
    );
    check_errors(
        "conversions/wrong-entries.toml",
        conversion_errors,
        &[
            ("`channel` must be `standard` or `experimental`, not `beta`", "\"beta\""),
            ("unknown key `crds`, expected one of `crd`, `channel`, `conversion` (did you mean `crd`?)", "crds"),
            ("`.spec.a.b` and `.spec.c` have different parents; declare it as `moved`", "\"spec.c\""),
            ("`.spec.x` and `.spec.y` have the same parent; declare it as `renamed`", "\"spec.y\""),
            ("`default` is required in `added`", "{ field = \"spec.owner\" }"),
            ("`how` is required in `changed`", "{ field = \"spec.size\" }"),
            ("`spec..legacy` has an empty path segment", "\"spec..legacy\""),
            ("unknown key `reason`, expected one of `field`, `note`", "reason"),
            (
                "unknown key `dropped`, expected one of `from`, `to`, `renamed`, `moved`, `removed`, `added`, `changed`",
                "dropped",
            ),
            ("a conversion from `v1` to itself", "\"v1\""),
            ("`from` is required", "[[conversion]]"),
        ],
    );
}

/// Every fixture, cut short at many places and with bytes dropped, parses
/// or fails with located errors, and checking what parses never panics.
#[test]
fn no_panics_on_mutated_inputs() {
    let mut files = Vec::new();
    let mut dirs = vec![fixtures()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 40, "fixtures found: {}", files.len());
    let (_, reference) = crd("kube-rs/widget-merged.yaml");
    let mut runs = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(11).collect();
        for cut in cuts {
            let mut dropped = text.clone();
            if let Some(c) = dropped[cut..].chars().next() {
                dropped.replace_range(cut..cut + c.len_utf8(), "");
            }
            for variant in [&text[..cut], dropped.as_str()] {
                runs += 1;
                if let Ok(crds) = parse_manifests(variant) {
                    for crd in &crds {
                        let _ = check_crd(crd, None);
                        let _ = check_upgrade(&reference, crd, None);
                        let _ = check_upgrade(crd, &reference, None);
                        let _ = migration_plan(&reference, crd);
                    }
                }
                if let Ok(conv) = parse_conversions(variant) {
                    let _ = check_crd(&reference, Some(&conv));
                    let _ = check_conversions(&reference, &conv);
                }
            }
        }
    }
    assert!(runs > 1000);
}
