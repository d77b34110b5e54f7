//! The CRD reader's fast path against the full parse: for every input,
//! [`parse_manifests`] (each document skimmed, only CRDs and lists parsed)
//! and [`parse_manifests_seen`] (a CRD met again copied, not parsed) give
//! [`parse_manifests_whole`]'s CRDs and errors, spans included, and so
//! does [`parse_manifests_read`] after `read_stream`: on small
//! cases, on every YAML and JSON fixture, on mutated bundles, and on large
//! CRDs repeated across files.

use std::path::Path;

use kompat_crd::{
    parse_manifests, parse_manifests_read, parse_manifests_read_shared, parse_manifests_seen, parse_manifests_whole,
    SeenCrds,
};
use kompat_formats::manifest::read_stream;
use kompat_testkit::manifests::large_crd;
use kompat_testkit::mutate::{self, mutate, Rng};

/// Both paths agree on `text`, and so does the path through `seen` (met
/// once, then again, then known: each read of it takes another branch).
#[track_caller]
fn agree(name: &str, text: &str, seen: &SeenCrds) {
    let whole = parse_manifests_whole(text);
    assert_eq!(parse_manifests(text), whole, "{name}:\n{text}");
    for round in 0..3 {
        assert_eq!(parse_manifests_seen(text, seen), whole, "{name}, read {round} through `seen`:\n{text}");
    }
    // With the documents the objects' reader parsed (or the whole text,
    // when it parsed that), as `kompat lint` reads CRD manifests.
    let stream = read_stream(text).ok();
    assert_eq!(parse_manifests_read(text, stream.as_ref(), seen), whole, "{name}, after read_stream:\n{text}");
    let shared: std::sync::Arc<str> = text.into();
    let read = parse_manifests_read_shared(&shared, stream.as_ref(), seen);
    assert_eq!(read, whole, "{name}, its text shared, after read_stream:\n{text}");
    assert_eq!(parse_manifests_read_shared(&shared, None, seen), whole, "{name}, its text shared:\n{text}");
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\n  annotations:\n    a: b\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n  - name: v2\n    served: false\n    storage: false\n    deprecated: true\n";

const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n";

#[test]
fn small_cases() {
    let bad_version = CRD.replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v2");
    let beta = CRD.replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1");
    let no_spec = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x\n";
    let list = format!("apiVersion: v1\nkind: List\nitems:\n- {}", CRD.replace('\n', "\n  ").trim_end());
    let cases = [
        CRD.to_owned(),
        format!("{DEPLOYMENT}---\n{CRD}---\n{DEPLOYMENT}"),
        format!("---\n# only a comment\n---\n{CRD}---\n---\n"),
        format!("{DEPLOYMENT}---\n{bad_version}"),
        format!("{beta}---\n{CRD}"),
        format!("{no_spec}---\n{CRD}"),
        format!("{DEPLOYMENT}---\n{list}\n"),
        format!("{DEPLOYMENT}---\n- a\n- b\n---\n{CRD}"),
        format!("{DEPLOYMENT}---\njust text\n---\n{CRD}"),
        format!("{DEPLOYMENT}---\nkind: [CustomResourceDefinition]\n---\n{CRD}"),
        format!("{DEPLOYMENT}---\nkind: \"CustomResourceDefinition\"\napiVersion: apiextensions.k8s.io/v1\n"),
        format!("{DEPLOYMENT}---\nkind:\n  CustomResourceDefinition\napiVersion: apiextensions.k8s.io/v1\n"),
        format!("{DEPLOYMENT}---\nmetadata: &m\n  name: a\nother: *m\n---\n{CRD}"),
        format!("{DEPLOYMENT}  bad: [\n---\n{CRD}"),
        format!("{CRD}---\n{DEPLOYMENT}metadata:\n  name: twice\n"),
        format!("%YAML 1.2\n---\n{CRD}"),
        format!("{{{{ .Values.x }}}}\n---\n{CRD}"),
        format!("{CRD}...\n"),
        "{\"apiVersion\": \"apiextensions.k8s.io/v1\", \"kind\": \"CustomResourceDefinition\"}".to_owned(),
        String::new(),
    ];
    for (i, text) in cases.iter().enumerate() {
        agree(&format!("case {i}"), text, &SeenCrds::default());
    }
}

/// Large CRDs (those `SeenCrds` keeps) repeated across bundles, at other
/// offsets, among other documents; and an error in one.
#[test]
fn repeated_large_crds() {
    let (a, b) = (large_crd("Alpha", 40_000), large_crd("Beta", 20_000));
    let broken = large_crd("Gamma", 20_000).replace("  scope: Namespaced\n", "  scope: Everywhere\n");
    let seen = SeenCrds::default();
    let files = [
        a.clone(),
        format!("{DEPLOYMENT}---\n{a}---\n{b}"),
        format!("{b}---\n{CRD}---\n{a}"),
        format!("{DEPLOYMENT}---\n{DEPLOYMENT}---\n{b}---\n{broken}"),
        format!("{broken}---\n{a}"),
        // The same CRDs after comment and blank lines (a bundle's header),
        // taking the readings of the copies without them, and the other way.
        format!("# This is an auto-generated file. DO NOT EDIT\n{a}---\n{b}"),
        format!("\n  # indented\n\n#\n{b}---\n# a comment with a tab:\there\n{a}"),
        format!("# a comment\n{broken}"),
    ];
    for (i, text) in files.iter().enumerate() {
        agree(&format!("file {i}"), text, &seen);
    }
    for (i, text) in files.iter().enumerate() {
        agree(&format!("file {i}, again"), text, &seen);
    }
    // Met first in a shared text (kept as that text), then in others.
    let seen = SeenCrds::default();
    for round in 0..2 {
        for (i, text) in files.iter().enumerate() {
            let shared: std::sync::Arc<str> = text.as_str().into();
            let stream = read_stream(text).ok();
            let read = parse_manifests_read_shared(&shared, stream.as_ref(), &seen);
            assert_eq!(read, parse_manifests_whole(text), "file {i}, its text shared, round {round}");
            agree(&format!("file {i}, after its text shared, round {round}"), text, &seen);
        }
    }
}

/// The same large CRDs read by many threads at once through one
/// `SeenCrds` (a thread that meets a CRD another is reading waits for it),
/// each file in another order; one of them does not parse.
#[test]
fn repeated_large_crds_on_threads() {
    let (a, b) = (large_crd("Alpha", 40_000), large_crd("Beta", 20_000));
    let unparsable = format!("{}  bad: [\n", large_crd("Delta", 20_000));
    let files = [
        a.clone(),
        format!("{DEPLOYMENT}---\n{a}---\n{b}"),
        format!("{b}---\n{CRD}---\n{a}"),
        format!("{DEPLOYMENT}---\n{unparsable}"),
        format!("{unparsable}---\n{a}"),
    ];
    let expected: Vec<_> = files.iter().map(|text| parse_manifests_whole(text)).collect();
    let shared: Vec<std::sync::Arc<str>> = files.iter().map(|text| text.as_str().into()).collect();
    for _ in 0..4 {
        let seen = SeenCrds::default();
        std::thread::scope(|scope| {
            for thread in 0..6 {
                let (files, shared, expected, seen) = (&files, &shared, &expected, &seen);
                scope.spawn(move || {
                    for round in 0..3 {
                        for i in (0..files.len()).map(|i| (i + thread + round) % files.len()) {
                            let stream = read_stream(&files[i]).ok();
                            // Half the threads with the files' texts shared.
                            let read = if thread % 2 == 0 {
                                parse_manifests_read_shared(&shared[i], stream.as_ref(), seen)
                            } else {
                                parse_manifests_read(&files[i], stream.as_ref(), seen)
                            };
                            assert_eq!(read, expected[i], "file {i}, thread {thread}, round {round}");
                        }
                    }
                });
            }
        });
    }
}

#[test]
fn every_fixture() {
    let mut files = Vec::new();
    kompat_testkit::files::yaml_files_below(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"), &mut files);
    assert!(files.len() > 50, "{} fixtures", files.len());
    let seen = SeenCrds::default();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        agree(&path.display().to_string(), &text, &seen);
    }
}

/// Mutated bundles: a CRD among other documents.
#[test]
fn mutations_agree() {
    let seed = format!("{DEPLOYMENT}---\n{CRD}---\napiVersion: v1\nkind: List\nitems: []\n");
    let mut rng = Rng(0x6b6f_6d70_6174_0c4d);
    let mut crds = 0;
    for i in 0..mutate::iterations(3000) {
        let input = mutate(&seed, &mut rng);
        agree(&format!("mutation {i}"), &input, &SeenCrds::default());
        crds += usize::from(parse_manifests(&input).is_ok_and(|c| !c.is_empty()));
    }
    assert!(crds > 100, "{crds} mutations with CRDs");
}
