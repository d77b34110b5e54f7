//! Two versions kept apart, end to end: `kompat init` reads the project's
//! version and the cluster's Kubernetes version where the project states
//! them, and `kompat lint` judges each setting against its component's
//! gates at its component's version (fixtures/versions/: a Go operator, a
//! Rust operator, a chart with a sidecar).

use std::path::{Path, PathBuf};

use crate::common::{dir_with, findings_on_stderr, kompat_in, kompat_in_env};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/versions").join(name)
}

/// The files of a fixture project, relative to it.
fn files(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut dirs = vec![root.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("below the fixture").to_string_lossy().replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&path).expect("fixture file")));
            }
        }
    }
    out.sort();
    out
}

/// A copy of fixture `name` in a temporary directory, with `extra` files.
fn project(name: &str, extra: &[(&str, &str)]) -> tempfile::TempDir {
    let files = files(&fixture(name));
    let mut all: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    all.extend_from_slice(extra);
    dir_with(&all)
}

/// `kompat init` in `dir`: the kompat.toml written.
/// Runs with no renderer on `PATH`, so the `[render]` table it writes does
/// not depend on the machine.
fn init(dir: &Path) -> String {
    let (code, _, stderr) = kompat_in_env(dir, &["init"], &[("PATH", "".as_ref())]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::read_to_string(dir.join("kompat.toml")).expect("kompat.toml written")
}

/// `kompat lint ARGS` in `dir`: exit code and the human output.
fn lint(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut all = vec!["lint"];
    all.extend_from_slice(args);
    let (code, human, stderr) = findings_on_stderr(kompat_in(dir, &all));
    assert!(code == 0 || code == 1, "{stderr}");
    (code, human)
}

/// A Go controller at 1.8 building against Kubernetes 1.35: the kind
/// configuration's gates are Kubernetes', judged at 1.35; the manager's
/// flags the project's, judged at 1.8; the CSI sidecar's and the exporter's
/// nobody's, said once; the commented flag is not a setting.
#[test]
fn a_go_operator() {
    let dir = project("go-operator", &[]);
    let written = init(dir.path());
    insta::assert_snapshot!("go_operator_kompat_toml", written);
    // hack/ is listed for its kind configuration (deployment material),
    // test/ never (its Ingress is not the project's).
    assert!(written.contains("\ndecls = [\"cmd\", \"config\", \"hack\", \"pkg\"]\n"), "{written}");
    let (code, human) = lint(dir.path(), &[]);
    assert_eq!(code, 1, "{human}");
    insta::assert_snapshot!("go_operator_lint", human);
}

/// The same project without the Kubernetes version: Kubernetes components'
/// settings are not judged at the project's 1.8, and the note counts them;
/// the project's version never stands in for the cluster's, but under the
/// Kubernetes profile.
#[test]
fn the_project_version_never_judges_kubernetes_settings() {
    let dir =
        project("go-operator", &[("kompat.toml", "binary_version = \"1.8\"\ndecls = [\"pkg\", \"cmd\", \"hack\"]\n")]);
    let (code, human) = lint(dir.path(), &["--format", "short"]);
    assert_eq!(code, 0, "{human}");
    assert!(!human.contains("kind-config.yaml"), "{human}");
    assert!(
        human.contains("note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Kubernetes manifests are not checked and 2 gate settings of Kubernetes components are not checked;"),
        "{human}"
    );
    // --binary-version is the project's version, not the cluster's.
    let (_, with_binary) = lint(dir.path(), &["--format", "short", "--binary-version", "1.35"]);
    assert!(!with_binary.contains("kind-config.yaml"), "{with_binary}");
    // --kubernetes-version judges them.
    let (code, with_kubernetes) = lint(dir.path(), &["--format", "short", "--kubernetes-version", "1.35"]);
    assert_eq!(code, 1, "{with_kubernetes}");
    assert!(
        with_kubernetes.contains("hack/kind-config.yaml:8:3: error[unknown-gate-setting]: a 1.35 component rejects this setting: unrecognized feature gate: NoSuchKubernetesGate"),
        "{with_kubernetes}"
    );
    // Under the Kubernetes profile one version sets both.
    let (_, profile) = lint(dir.path(), &["--format", "short", "--binary-version", "1.35", "--profile", "kubernetes"]);
    assert!(profile.contains("hack/kind-config.yaml:8:3: error[unknown-gate-setting]"), "{profile}");
}

/// `[project] images` names the project's images: the exporter becomes the
/// project's, and its gate is judged (unknown to the project).
#[test]
fn configured_project_images() {
    let config = "binary_version = \"1.8\"\ndecls = [\"pkg\", \"cmd\", \"config\"]\n\n[kubernetes]\nversion = \"1.35\"\n\n[project]\nimages = [\"registry.example.com/widget/widgetd\", \"example/metrics-exporter\"]\n";
    let dir = project("go-operator", &[("kompat.toml", config)]);
    let (code, human) = lint(dir.path(), &["--format", "short"]);
    assert_eq!(code, 1, "{human}");
    insta::assert_snapshot!("go_operator_configured_images", human);
}

/// A Rust operator: the version from Cargo.toml, the Kubernetes version
/// from k8s-openapi's feature, the feature list to generate.
#[test]
fn a_rust_operator() {
    let dir = project("rust-operator", &[]);
    let written = init(dir.path());
    insta::assert_snapshot!("rust_operator_kompat_toml", written);
    let (code, human) = lint(dir.path(), &[]);
    assert_eq!(code, 0, "{human}");
    insta::assert_snapshot!("rust_operator_lint", human);
}

/// A chart: the version from its appVersion, no Kubernetes version found
/// (commented, with where kompat looked); the controller's flags are the
/// project's, the sidecar's and the exporter's nobody's.
#[test]
fn a_chart_with_a_sidecar() {
    let dir = project("chart-project", &[]);
    let written = init(dir.path());
    insta::assert_snapshot!("chart_project_kompat_toml", written);
    let (code, human) = lint(dir.path(), &[]);
    assert_eq!(code, 1, "{human}");
    insta::assert_snapshot!("chart_project_lint", human);
}

/// Where nothing states a version: both lines commented, saying where
/// kompat looked; a crate without gates gets no `[[gen.output]]`.
#[test]
fn nothing_stated() {
    let dir = dir_with(&[
        ("Cargo.toml", "[package]\nname = \"plain\"\nedition = \"2021\"\n"),
        ("src/lib.rs", "//! Nothing gated.\n"),
    ]);
    let written = init(dir.path());
    assert!(written.contains("\n# binary_version = \"1.0\"\n"), "{written}");
    assert!(
        written.contains("# Not found in Cargo.toml, VERSION, TAG, a version.go, versions.mk, the Makefile,\n"),
        "{written}"
    );
    assert!(written.contains("\n# [kubernetes]\n# version = \"1.34\"\n"), "{written}");
    assert!(!written.contains("\n[[gen.output]]"), "{written}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 0, "{stderr}");
}

/// The newest release tag, read from `.git` as files.
#[test]
fn the_newest_release_tag() {
    let packed = "# pack-refs with: peeled fully-peeled sorted\naaaa refs/tags/v0.10.1\nbbbb refs/tags/v0.9.3\ncccc refs/tags/v0.11.0-rc.1\n";
    let dir = dir_with(&[
        ("go.mod", "module example.com/tagged\n"),
        ("pkg/a/a.go", "package a\n"),
        (".git/packed-refs", packed),
        (".git/refs/tags/v0.10.2", "dddd\n"),
    ]);
    let (code, out, stderr) = kompat_in(dir.path(), &["init", "--dry-run"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(out.contains("\nbinary_version = \"0.10\"   # from v0.10.2 in the newest release tag\n"), "{out}");
}

/// `kompat apis --kubernetes` serves Kubernetes' APIs at kompat.toml's
/// Kubernetes version, not at the project's own version.
#[test]
fn kubernetes_apis_at_the_kubernetes_version() {
    let config = "binary_version = \"0.3\"\n\n[kubernetes]\nversion = \"1.33\"\n";
    let dir = dir_with(&[("kompat.toml", config)]);
    let (code, configured, stderr) = kompat_in(dir.path(), &["apis", "--kubernetes", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let (code, flagged, stderr) =
        kompat_in(dir.path(), &["apis", "--kubernetes", "--binary-version", "1.33", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(configured, flagged);
    // resource.k8s.io/v1 is served from 1.34 on.
    let served = |json: &str| {
        let rows: serde_json::Value = serde_json::from_str(json).unwrap_or_else(|err| panic!("{err}: {json}"));
        rows.as_array().is_some_and(|rows| rows.iter().any(|r| r["group"] == "resource.k8s.io" && r["version"] == "v1"))
    };
    let (_, newer, _) =
        kompat_in(dir.path(), &["apis", "--kubernetes", "--binary-version", "1.34", "--format", "json"]);
    assert!(!served(&configured) && served(&newer), "{configured}");
}

/// A repository of several components, each with its own version (the
/// autoscaler repository's shape: the Vertical Pod Autoscaler at 1.8, the
/// Cluster Autoscaler at 1.34, and a Go library copied in under its import
/// path): no version is chosen, each is named; the copied library's never.
#[test]
fn several_components_state_several_versions() {
    let dir = dir_with(&[
        ("vertical-pod-autoscaler/go.mod", "module k8s.io/autoscaler/vertical-pod-autoscaler\n"),
        (
            "vertical-pod-autoscaler/deploy/admission.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vpa-admission-controller\n",
        ),
        ("vertical-pod-autoscaler/common/version.go", "package common\n\nconst versionCore = \"1.8.0\"\n"),
        ("vertical-pod-autoscaler/docs/features.md", "Run with `--feature-gates=InPlace=true`.\n"),
        ("cluster-autoscaler/go.mod", "module k8s.io/autoscaler/cluster-autoscaler\n"),
        ("cluster-autoscaler/version/version.go", "package version\n\nvar ClusterAutoscalerVersion = \"1.34.0\"\n"),
        (
            "cluster-autoscaler/cloudprovider/x/internal/github.com/x/sdk/version/version.go",
            "package version\n\nconst Version = \"0.86.0\"\n",
        ),
    ]);
    let written = init(dir.path());
    assert!(written.contains("# Several components state their own versions"), "{written}");
    assert!(written.contains("#   1.34 in cluster-autoscaler/version/version.go\n"), "{written}");
    assert!(written.contains("#   1.8 in vertical-pod-autoscaler/common/version.go\n"), "{written}");
    assert!(!written.contains("0.86"), "{written}");
    assert!(written.contains("\n# binary_version = \"1.0\"\n"), "{written}");
    // Documentation below a component is left out of the walk.
    assert!(written.contains("\nexclude = [\"docs/\"]\n"), "{written}");
    // One component alone: its version, whatever the copied library says.
    let dir = dir_with(&[
        ("go.mod", "module k8s.io/autoscaler/vertical-pod-autoscaler\n"),
        ("common/version.go", "package common\n\nconst versionCore = \"1.8.0\"\n"),
        ("pkg/internal/github.com/x/sdk/version/version.go", "package version\n\nconst Version = \"0.86.0\"\n"),
    ]);
    let written = init(dir.path());
    assert!(written.contains("binary_version = \"1.8\"   # from 1.8.0 in common/version.go\n"), "{written}");
}

/// A Go module that declares no gate (Kubernetes' `k8s.io/api`): its
/// packages are listed, and the first run says what did not run.
#[test]
fn a_go_module_without_gates() {
    let dir = dir_with(&[
        ("go.mod", "module k8s.io/api\n\ngo 1.24\n"),
        ("doc.go", "package api\n"),
        ("apps/v1/types.go", "package v1\n\ntype Deployment struct{}\n"),
        ("core/v1/types.go", "package v1\n\ntype Pod struct{}\n"),
        ("apps/v1/testdata/x.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n"),
    ]);
    let written = init(dir.path());
    assert!(written.contains("\ndecls = [\"apps\", \"core\"]\n"), "{written}");
    assert!(!written.contains("\n[[gen.output]]"), "{written}");
    let (code, _) = lint(dir.path(), &[]);
    assert_eq!(code, 0);
}

/// cert-manager's shape: its chart's version is a placeholder the release
/// tool fills, a test chart under `make/` has a version of its own: the
/// newest release tag is the project's.
#[test]
fn a_placeholder_chart_and_a_test_chart_give_way_to_the_tag() {
    let dir = dir_with(&[
        ("go.mod", "module github.com/cert-manager/cert-manager\n"),
        ("deploy/charts/cert-manager/Chart.yaml", "apiVersion: v2\nname: cert-manager\nversion: v0.0.0\nappVersion: v0.0.0\n"),
        ("deploy/charts/cert-manager/values.yaml", "replicaCount: 1\n"),
        ("make/config/pebble/chart/Chart.yaml", "apiVersion: v2\nname: pebble\nversion: 0.1.1\n"),
        (".git/packed-refs", "# pack-refs with: peeled fully-peeled sorted\n0000000000000000000000000000000000000001 refs/tags/v1.18.2\n0000000000000000000000000000000000000002 refs/tags/v1.19.0\n0000000000000000000000000000000000000003 refs/tags/v1.20.0-alpha.0\n"),
    ]);
    let written = init(dir.path());
    assert!(written.contains("binary_version = \"1.19\"   # from v1.19.0 in the newest release tag\n"), "{written}");
}
