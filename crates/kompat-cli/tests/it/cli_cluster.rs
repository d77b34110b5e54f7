//! `fixtures/cluster/`: cluster configuration in the shapes real clusters
//! use (kind with kubeadm patches and runtimeConfig, kubeadm v1beta3 and
//! v1beta4, kubelet, kube-proxy and scheduler configuration, a static pod,
//! Helm values, a start script), each linted alone against Kubernetes 1.37's
//! own gates and APIs. The rendered findings are snapshots; the exit code
//! and the codes each file must produce are asserted here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{findings_on_stderr, kompat_in};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/cluster")
}

/// Lints `file` with `--kubernetes-version 1.37`, snapshots the human output
/// under `name`, and checks the exit code and that exactly `codes` are
/// reported (the JSON output's codes). Each file is linted alone, so the
/// `missing-input` note about checking against Kubernetes' own gates would
/// be in every one: it is allowed here (its own fixture tests it).
#[track_caller]
fn check(name: &str, file: &str, exit: i32, codes: &[&str]) {
    let args = ["lint", file, "--kubernetes-version", "1.37", "-A", "missing-input"];
    let (code, human, stderr) = findings_on_stderr(kompat_in(&root(), &[&args[..], &["--format", "human"]].concat()));
    assert_eq!(code, exit, "{file}: {stderr}");
    insta::assert_snapshot!(name, human);

    let (_, stdout, stderr) = kompat_in(&root(), &[&args[..], &["--format", "json"]].concat());
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{file}: {err}\n{stdout}{stderr}"));
    let got: BTreeSet<&str> = report["diagnostics"]
        .as_array()
        .map(|d| d.iter().filter_map(|d| d["code"].as_str()).collect())
        .unwrap_or_default();
    let expected: BTreeSet<&str> = codes.iter().copied().collect();
    assert_eq!(got, expected, "{file}");
}

#[test]
fn kind_with_patches_and_runtime_config() {
    check(
        "kind",
        "kind.yaml",
        1,
        &[
            "deprecated-gate-setting",
            "ga-gate-setting",
            "invalid-gate-setting",
            "invalid-runtime-config",
            "locked-gate-setting",
            "unread-deployment-setting",
        ],
    );
}

#[test]
fn kubeadm_v1beta3() {
    check(
        "kubeadm-v1beta3",
        "kubeadm-v1beta3.yaml",
        1,
        &["deprecated-gate-setting", "invalid-gate-setting", "invalid-runtime-config"],
    );
}

#[test]
fn kubeadm_v1beta4() {
    check(
        "kubeadm-v1beta4",
        "kubeadm-v1beta4.yaml",
        1,
        &["deprecated-gate-setting", "invalid-gate-setting", "invalid-runtime-config", "unread-deployment-setting"],
    );
}

#[test]
fn kubelet_config_with_yaml_11_booleans() {
    check(
        "kubelet-config",
        "kubelet-config.yaml",
        1,
        &["deprecated-gate-setting", "ga-gate-setting", "invalid-gate-setting"],
    );
}

#[test]
fn kube_proxy_and_scheduler_configs() {
    check("kube-proxy-config", "kube-proxy-config.yaml", 0, &["ga-gate-setting"]);
    check("scheduler-config", "scheduler-config.yaml", 1, &["invalid-gate-setting"]);
}

#[test]
fn static_pod() {
    check(
        "static-pod",
        "manifests/kube-apiserver.yaml",
        1,
        &["deprecated-gate-setting", "invalid-runtime-config", "locked-gate-setting"],
    );
}

#[test]
fn helm_values() {
    check("helm-values", "chart/values.yaml", 1, &["ga-gate-setting", "invalid-gate-setting"]);
}

#[test]
fn start_script_with_invalid_values() {
    check("start-script", "start.sh", 1, &["invalid-gate-setting", "unread-deployment-setting"]);
}
