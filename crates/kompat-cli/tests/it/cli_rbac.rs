//! `fixtures/rbac/`: a kubebuilder controller's `config/` whose ClusterRole
//! still grants `extensions` `ingresses`, linted end to end: nothing to say
//! at Kubernetes 1.21 (the grants of the controller's own resources match
//! its CRD in `config/crd/`), both rules about removed resources at 1.22
//! (the human output is a snapshot), a `missing-input` note naming them
//! without a Kubernetes version.

use std::path::{Path, PathBuf};

use crate::common::{findings_on_stderr, kompat_in};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/rbac")
}

/// The JSON findings of `kompat lint config ARGS` as
/// `code subject file:line:column`, and the exit code.
fn findings(args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["lint", "config", "--format", "json"];
    all.extend(args);
    let (code, stdout, stderr) = kompat_in(&root(), &all);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stdout}{stderr}"));
    let found = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            format!(
                "{} {} {}:{}:{}",
                d["code"].as_str().unwrap_or("-"),
                d["subject"].as_str().unwrap_or("-"),
                d["file"].as_str().unwrap_or("-"),
                d["line"],
                d["column"]
            )
        })
        .collect();
    (code, found)
}

#[test]
fn kubebuilder_role_before_and_after_the_removal() {
    let (code, found) = findings(&["--kubernetes-version", "1.21"]);
    assert_eq!((code, found), (0, Vec::<String>::new()));

    let (code, found) = findings(&["--kubernetes-version", "1.22"]);
    assert_eq!(code, 0, "warnings only");
    assert_eq!(
        found,
        [
            "rbac-missing-replacement networking.k8s.io/ingresses/status config/rbac/role.yaml:5:9",
            "rbac-missing-replacement networking.k8s.io/ingresses config/rbac/role.yaml:5:9",
            "rbac-removed-resource extensions/ingresses config/rbac/role.yaml:42:5",
            "rbac-removed-resource extensions/ingresses/status config/rbac/role.yaml:54:5",
        ]
    );

    let args = ["lint", "config", "--kubernetes-version", "1.22", "--format", "human"];
    let (_, human, _) = findings_on_stderr(kompat_in(&root(), &args));
    insta::assert_snapshot!("kubebuilder_role_1_22", human);
}

#[test]
fn without_a_kubernetes_version_the_note_names_the_rules() {
    let (_, stdout, stderr) = kompat_in(&root(), &["lint", "config", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stderr}"));
    let notes: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["subject"] == "kubernetes-version")
        .filter_map(|d| d["message"].as_str())
        .collect();
    assert_eq!(notes.len(), 1, "{stdout}");
    assert!(notes[0].contains("`rbac-missing-replacement`, `rbac-removed-resource`"), "{}", notes[0]);
}
