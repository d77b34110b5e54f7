//! `kompat crd-plan` end to end: the four-step removal plan for a CRD pair,
//! and its errors.

use std::path::{Path, PathBuf};

use crate::common::{dir_with, kompat_in};

fn crd_fixture(rel: &str) -> String {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/crd").join(rel);
    path.to_string_lossy().into_owned()
}

fn plan(rel_dir: &str, format: &str) -> (i32, String, String) {
    let old = crd_fixture(&format!("{rel_dir}/old.yaml"));
    let new = crd_fixture(&format!("{rel_dir}/new.yaml"));
    kompat_in(Path::new(env!("CARGO_MANIFEST_DIR")), &["crd-plan", &old, &new, "--format", format])
}

#[test]
fn plans_the_removal_of_an_old_version() {
    let (code, text, stderr) = plan("upgrade/remove-v1alpha1", "text");
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("remove_v1alpha1_text", text);
    let (code, markdown, stderr) = plan("upgrade/remove-v1alpha1", "markdown");
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("remove_v1alpha1_markdown", markdown);
}

#[test]
fn plans_name_the_current_storage_version() {
    // `v1beta1` is stored today and stays: the flip is from it, not from the
    // removed `v1alpha1`.
    let (code, text, stderr) = plan("upgrade/remove-v1alpha1-stored-v1beta1", "text");
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("remove_v1alpha1_stored_v1beta1_text", text);
}

#[test]
fn nothing_to_remove_is_one_line_and_success() {
    let (code, stdout, stderr) = plan("upgrade/compatible", "text");
    assert_eq!((code, stderr.as_str()), (0, ""));
    let old = crd_fixture("upgrade/compatible/old.yaml");
    let new = crd_fixture("upgrade/compatible/new.yaml");
    assert_eq!(
        stdout,
        format!("nothing to remove: `gadgets.example.io` in {new} still serves every version it serves in {old}\n")
    );
}

#[test]
fn different_crds_are_refused() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let gadgets = crd_fixture("upgrade/remove-v1alpha1/old.yaml");
    let gizmos = crd_fixture("upgrade/remove-v1alpha1-stored-v1beta1/new.yaml");
    let (code, stdout, stderr) = kompat_in(dir, &["crd-plan", &gadgets, &gizmos]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        "error: the new manifest's `gizmos.example.io` is not in the old manifest, which holds `gadgets.example.io`: `kompat crd-plan` compares two releases of the same CRD"
    );
    assert!(stderr.contains("remove-v1alpha1-stored-v1beta1/new.yaml:5:9"), "{stderr}");
    assert!(stderr.contains("the old manifest's CRD"), "{stderr}");
    // A CRD dropped from the new manifest is refused too.
    let both = dir_with(&[(
        "both.yaml",
        &format!(
            "{}---\n{}",
            std::fs::read_to_string(&gadgets).unwrap_or_default(),
            std::fs::read_to_string(&gizmos).unwrap_or_default()
        ),
    )]);
    let both = both.path().join("both.yaml");
    let (code, _, stderr) = kompat_in(dir, &["crd-plan", &both.to_string_lossy(), &gadgets]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("error: the old manifest's `gizmos.example.io` is not in the new manifest"), "{stderr}");
}

#[test]
fn json_manifests_are_read() {
    // `kubectl get crd -o json` output: read like YAML (JSON is YAML 1.2).
    let (code, text, stderr) = plan_files("json/old.json", "json/new.json", "text");
    assert_eq!(code, 0, "{stderr}");
    assert!(text.starts_with("Removing v1alpha1 from widgets.example.io\nKind Widget, group example.io, resource widgets; the storage version is v1alpha1 and becomes v1.\n"), "{text}");
}

fn plan_files(old: &str, new: &str, format: &str) -> (i32, String, String) {
    let (old, new) = (crd_fixture(old), crd_fixture(new));
    kompat_in(Path::new(env!("CARGO_MANIFEST_DIR")), &["crd-plan", &old, &new, "--format", format])
}

#[test]
fn malformed_manifests_are_located() {
    let bad = crd_fixture("malformed/unclosed-flow.yaml");
    let good = crd_fixture("upgrade/compatible/new.yaml");
    let (code, stdout, stderr) = kompat_in(Path::new(env!("CARGO_MANIFEST_DIR")), &["crd-plan", &bad, &good]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(stderr.contains("unclosed-flow.yaml:"), "{stderr}");
    let (code, _, stderr) = kompat_in(Path::new(env!("CARGO_MANIFEST_DIR")), &["crd-plan", "missing.yaml", &good]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: cannot read missing.yaml"), "{stderr}");
}

#[test]
fn directories_are_read_as_lint_reads_a_baseline() {
    let read = |rel: &str| std::fs::read_to_string(crd_fixture(rel)).unwrap_or_default();
    let dir = dir_with(&[
        ("old/crds/gadgets.yaml", &read("upgrade/remove-v1alpha1/old.yaml")),
        ("old/README.md", "not a manifest"),
        ("new/crds/gadgets.yaml", &read("upgrade/remove-v1alpha1/new.yaml")),
    ]);
    let (code, from_dirs, stderr) = kompat_in(dir.path(), &["crd-plan", "old", "new"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, from_files, stderr) = plan("upgrade/remove-v1alpha1", "text");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(from_dirs, from_files);
    // A directory without CRDs is an input error.
    let empty = dir_with(&[("old/README.md", "no CRDs"), ("new/crds/gadgets.yaml", "kind: ConfigMap\n")]);
    let (code, _, stderr) = kompat_in(empty.path(), &["crd-plan", "old", "new/crds/gadgets.yaml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("old holds no CustomResourceDefinition"), "{stderr}");
}
