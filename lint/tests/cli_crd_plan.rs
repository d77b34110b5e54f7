//! `kompat crd-plan` end to end: the four-step removal plan for a CRD pair,
//! and its errors.

mod common;

use std::path::{Path, PathBuf};

use common::kompat_in;

fn crd_fixture(rel: &str) -> String {
    let path: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/crd").join(rel);
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
fn nothing_to_remove_is_an_error() {
    let (code, stdout, stderr) = plan("upgrade/compatible", "text");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.starts_with("error: nothing to remove: every version"), "{stderr}");
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
