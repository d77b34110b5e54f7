//! Kubernetes manifests, end to end: `kompat lint` on YAML, JSON, `List`s
//! and standard input, at a binary version and while emulating an older one
//! (KEP-4330's serving rules), in every output format, with its exit codes;
//! and gate settings checked against Kubernetes' own feature gates when
//! nothing declares features.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{dir_with, kompat_in};

const INGRESS: &str = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\n";
const POLICY: &str =
    "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata:\n  name: sidecar\n";

/// Runs kompat in `dir` with `stdin` piped in; (exit code, stdout, stderr).
fn kompat_piped(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kompat");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON findings as `code subject file:line:column`.
fn findings(stdout: &str) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(stdout).unwrap_or_else(|err| panic!("{err}: {stdout}"));
    report["diagnostics"]
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
        .collect()
}

#[test]
fn helm_template_output_on_stdin() {
    let dir = dir_with(&[]);
    let rendered = format!(
        "---\n# Source: web/templates/service.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\n# Source: web/templates/ingress.yaml\n{INGRESS}"
    );
    let (code, stdout, stderr) =
        kompat_piped(dir.path(), &["lint", "-", "--kubernetes-version", "1.37", "--format", "json"], &rendered);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(findings(&stdout), ["removed-api-version extensions/v1beta1/Ingress <stdin>:9:13"]);
    // Not YAML: a located input error, exit 2.
    let (code, stdout, stderr) = kompat_piped(dir.path(), &["lint", "-", "--kubernetes-version", "1.37"], "a: [\n");
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("<stdin>:"), "{stderr}");
}

#[test]
fn every_format_and_exit_code() {
    let dir = dir_with(&[("ingress.yaml", INGRESS)]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "ingress.yaml", "--kubernetes-version", "1.37", "--format", "sarif"]);
    assert_eq!(code, 1, "{stderr}");
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("sarif is json");
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "removed-api-version");
    assert_eq!(result["level"], "error");
    let region = &result["locations"][0]["physicalLocation"]["region"];
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(1), Some(13)));

    // Served at 1.21 (deprecated): a warning, exit 0.
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "ingress.yaml", "--kubernetes-version", "1.21", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(findings(&stdout), ["deprecated-api-version extensions/v1beta1/Ingress ingress.yaml:1:13"]);
    // `-D warnings` makes it an error.
    let (code, _, stderr) =
        kompat_in(dir.path(), &["lint", "ingress.yaml", "--kubernetes-version", "1.21", "-D", "warnings"]);
    assert_eq!(code, 1, "{stderr}");

    // Without a target version nothing is checked, and a note says so, in
    // every format; `require` in kompat.toml makes it an error.
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "ingress.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(findings(&stdout), ["missing-input kubernetes-version -:null:null"]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "ingress.yaml", "--format", "short"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("note[missing-input]: no Kubernetes version (--kubernetes-version, or `[kubernetes] version` in kompat.toml): Kubernetes manifests are not checked; `deprecated-api-version`, `removed-api-version`, `unknown-api-kind`, `unserved-api-version` did not run"), "{stderr}");
    std::fs::write(dir.path().join("kompat.toml"), "[lint]\nrequire = [\"kubernetes-version\"]\n").expect("write");
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "ingress.yaml", "--format", "sarif"]);
    assert_eq!(code, 1, "{stderr}");
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("sarif is json");
    // (GitHub refuses results without a location: the note is a notification.)
    let run = &log["runs"][0];
    assert_eq!(run["results"], serde_json::json!([]));
    let note = &run["invocations"][0]["toolConfigurationNotifications"][0];
    assert_eq!((&note["associatedRule"]["id"], &note["level"]), (&"missing-input".into(), &"error".into()));
    assert!(note["message"]["text"].as_str().is_some_and(|t| t.starts_with("no Kubernetes version")), "{note:#}");
}

#[test]
fn emulation_and_forward_compatibility() {
    let dir = dir_with(&[("policy.yaml", POLICY)]);
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "policy.yaml", "--kubernetes-version", "1.37", "--format", "json"];
        args.extend(extra);
        kompat_in(dir.path(), &args)
    };
    // A 1.37 binary serves admissionregistration.k8s.io/v1
    // MutatingAdmissionPolicy (introduced in 1.36).
    let (code, stdout, stderr) = lint(&[]);
    assert_eq!((code, findings(&stdout)), (0, vec![]), "{stderr}");
    // Emulating 1.35 it does not.
    let (code, stdout, stderr) = lint(&["--emulation-version", "1.35"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        ["unserved-api-version admissionregistration.k8s.io/v1/MutatingAdmissionPolicy policy.yaml:1:13"]
    );
    let message = &serde_json::from_str::<serde_json::Value>(&stdout).expect("json")["diagnostics"][0]["message"];
    assert_eq!(
        message,
        "no matches for kind \"MutatingAdmissionPolicy\" in version \"admissionregistration.k8s.io/v1\" on Kubernetes 1.37 emulating 1.35: introduced in 1.36"
    );
    // Forward compatibility alone is not enough: the beta versions of the
    // kind are off by default at 1.35.
    let (code, stdout, _) = lint(&["--emulation-version", "1.35", "--emulation-forward-compatible"]);
    assert_eq!((code, findings(&stdout).len()), (1, 1), "{stdout}");
    // With v1beta1 enabled at 1.35, KEP-4330 serves the newer v1 too.
    let (code, stdout, stderr) = lint(&[
        "--emulation-version",
        "1.35",
        "--runtime-config",
        "admissionregistration.k8s.io/v1beta1=true",
        "--emulation-forward-compatible",
    ]);
    assert_eq!((code, findings(&stdout)), (0, vec![]), "{stderr}");
    // The server's own flag validation is an input error.
    let (code, _, stderr) = lint(&["--emulation-forward-compatible"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("EmulationForwardCompatible cannot be set to true"), "{stderr}");
    // So is an emulation version outside the window (N-3).
    let (code, _, stderr) = lint(&["--emulation-version", "1.33"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("emulation version 1.33 is not between [1.34, 1.37.0]"), "{stderr}");
}

#[test]
fn directories_lists_json_and_custom_resources() {
    let dir = dir_with(&[
        ("deploy/a.yaml", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: batch/v1beta1\n  kind: CronJob\n"),
        ("deploy/b.json", "{\"apiVersion\": \"policy/v1beta1\", \"kind\": \"PodDisruptionBudget\"}\n"),
        ("deploy/c.yaml", "apiVersion: example.com/v1\nkind: Widget\n---\napiVersion: apps/v1\nkind: Deployment\n"),
        ("deploy/package.json", "{\"name\": \"not a manifest\"}\n"),
        ("deploy/templates/t.yaml", "apiVersion: {{ .Values.api }}\nkind: Ingress\n"),
    ]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "deploy", "--kubernetes-version", "1.37", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        [
            "removed-api-version batch/v1beta1/CronJob deploy/a.yaml:4:15",
            "removed-api-version policy/v1beta1/PodDisruptionBudget deploy/b.json:1:16",
        ]
    );
}

const V1BETA1_CRD: &str = "apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata:\n  name: gadgets.example.io\nspec:\n  group: example.io\n  version: v1\n  names: {kind: Gadget, plural: gadgets}\n  scope: Namespaced\n";

#[test]
fn v1beta1_crds_are_judged_at_the_target() {
    let dir = dir_with(&[("crds/gadget.yaml", V1BETA1_CRD)]);
    let lint = |version: &str| {
        kompat_in(dir.path(), &["lint", "crds/gadget.yaml", "--kubernetes-version", version, "--format", "json"])
    };
    // Served (deprecated since 1.16) up to 1.21, removed in 1.22.
    let (code, stdout, stderr) = lint("1.21");
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        findings(&stdout),
        ["deprecated-api-version apiextensions.k8s.io/v1beta1/CustomResourceDefinition crds/gadget.yaml:1:13"]
    );
    let (code, stdout, stderr) = lint("1.22");
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        ["removed-api-version apiextensions.k8s.io/v1beta1/CustomResourceDefinition crds/gadget.yaml:1:13"]
    );
}

#[test]
fn the_old_crd_code_is_an_alias_of_removed_api_version() {
    let levels = "[lint.levels]\nremoved-crd-api-version = \"warn\"\n";
    let dir = dir_with(&[("kompat.toml", levels), ("crds/gadget.yaml", V1BETA1_CRD)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "crds/gadget.yaml", "--kubernetes-version", "1.22"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("warning[removed-api-version]"), "{stderr}");
    assert!(
        stderr.contains("[lint.levels] in kompat.toml: `removed-crd-api-version` is now `removed-api-version`"),
        "{stderr}"
    );
    // `-A`, `-W` and `-D` accept it too.
    let dir = dir_with(&[("crds/gadget.yaml", V1BETA1_CRD)]);
    let lint = |flags: &[&str]| {
        let mut args = vec!["lint", "crds/gadget.yaml", "--kubernetes-version", "1.22", "--format", "json"];
        args.extend(flags);
        kompat_in(dir.path(), &args)
    };
    let (code, stdout, stderr) = lint(&["-A", "removed-crd-api-version"]);
    assert_eq!((code, findings(&stdout)), (0, Vec::<String>::new()), "{stderr}");
    let (code, _, stderr) = lint(&["-W", "removed-crd-api-version"]);
    assert_eq!(code, 0, "{stderr}");
    // `kompat explain` names the code it is now.
    let (code, stdout, stderr) = kompat_in(dir.path(), &["explain", "removed-crd-api-version"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("`removed-crd-api-version` is now `removed-api-version`"), "{stdout}");
    assert!(stdout.contains("# removed-api-version (error)"), "{stdout}");
    // It is no code of its own.
    let (_, list, _) = kompat_in(dir.path(), &["explain", "--list"]);
    assert!(!list.contains("removed-crd-api-version"), "{list}");
}

#[test]
fn unknown_kinds_of_builtin_groups_are_errors() {
    let dir = dir_with(&[(
        "deploy/app.yaml",
        "apiVersion: apps/v1\nkind: Deploymnet\n---\napiVersion: apps/v1beta1\nkind: ReplicaSet\n---\napiVersion: example.com/v1\nkind: Deploymnet\n---\napiVersion: v1\nkind: List\nitems: []\n",
    )]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "deploy", "--kubernetes-version", "1.35", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        [
            "unknown-api-kind apps/v1/Deploymnet deploy/app.yaml:1:13",
            "unknown-api-kind apps/v1beta1/ReplicaSet deploy/app.yaml:4:13",
        ]
    );
    let (_, _, human) = kompat_in(dir.path(), &["lint", "deploy", "--kubernetes-version", "1.35"]);
    assert!(
        human.contains("error[unknown-api-kind]: no matches for kind \"Deploymnet\" in version \"apps/v1\" on Kubernetes 1.35: apps/v1 has no kind Deploymnet (did you mean `Deployment`?)"),
        "{human}"
    );
}

#[test]
fn a_kubernetes_version_past_the_data_is_said_once() {
    let dir = dir_with(&[("web.yaml", "apiVersion: apps/v1\nkind: Deployment\n"), ("ingress.yaml", INGRESS)]);
    let (code, _, stderr) =
        kompat_in(dir.path(), &["lint", "web.yaml", "ingress.yaml", "--kubernetes-version", "1.40"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(stderr.matches("note[missing-input]: no Kubernetes data after 1.37").count(), 1, "{stderr}");
    assert!(stderr.contains("APIs removed after Kubernetes 1.37 are not known"), "{stderr}");
    assert!(stderr.contains("error[removed-api-version]"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "web.yaml", "--kubernetes-version", "1.37"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("no Kubernetes data after"), "{stderr}");
}

#[test]
fn declared_apis_are_used_for_their_groups() {
    let apis = "[[api]]\ngroup = \"example.com\"\nversion = \"v1alpha1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.30\"\nremoved = \"1.33\"\n";
    let dir = dir_with(&[("apis.toml", apis), ("widget.yaml", "apiVersion: example.com/v1alpha1\nkind: Widget\n")]);
    let (code, stdout, stderr) = kompat_in(
        dir.path(),
        &[
            "lint",
            "apis.toml",
            "widget.yaml",
            "--kubernetes-version",
            "1.37",
            "--format",
            "json",
            "-A",
            "api-deprecated-without-replacement",
        ],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        findings(&stdout).contains(&"removed-api-version example.com/v1alpha1/Widget widget.yaml:1:13".to_owned()),
        "{stdout}"
    );
}

#[test]
fn kubernetes_feature_gates_without_declarations() {
    let kind = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  InPlacePodVerticalScaling: false\n  APIResponseCompression: true\n  NoSuchGate: true\n";
    let dir = dir_with(&[("kind.yaml", kind)]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "kind.yaml", "--kubernetes-version", "1.37", "--format", "json"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        [
            "locked-gate-setting InPlacePodVerticalScaling kind.yaml:4:3",
            "unknown-gate-setting NoSuchGate kind.yaml:6:3",
            "missing-input declarations -:null:null",
        ]
    );
}

/// `kubectl get crd -o yaml` output: a `List` of the CRDs installed.
const CLUSTER_CRDS: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata:
    name: certificates.cert-manager.io
  spec:
    group: cert-manager.io
    names:
      kind: Certificate
      plural: certificates
    scope: Namespaced
    versions:
    - name: v1
      served: true
      storage: true
    - name: v1alpha2
      served: false
      storage: false
    - name: v1beta1
      served: true
      storage: false
      deprecated: true
metadata:
  resourceVersion: ""
"#;

const CERTIFICATES: &str = "apiVersion: cert-manager.io/v1\nkind: Certificate\n---\n\
apiVersion: cert-manager.io/v1alpha1\nkind: Certificate\n---\n\
apiVersion: cert-manager.io/v1alpha2\nkind: Certificate\n---\n\
apiVersion: cert-manager.io/v1beta1\nkind: Certificate\n---\n\
apiVersion: example.com/v1\nkind: Widget\n";

#[test]
fn custom_resources_against_the_cluster_crds() {
    let dir = dir_with(&[("cluster/crds.yaml", CLUSTER_CRDS), ("certs.yaml", CERTIFICATES)]);
    let lint = |extra: &[&str]| {
        let mut args = vec!["lint", "certs.yaml", "--kubernetes-version", "1.35", "--format", "json"];
        args.extend(extra);
        kompat_in(dir.path(), &args)
    };
    // Without the CRDs custom resources are left alone.
    let (code, stdout, stderr) = lint(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(findings(&stdout).is_empty(), "{stdout}");
    // With them: a version the CRD lacks, one it does not serve, one it
    // deprecates; the CRDs themselves are not linted.
    let (code, stdout, stderr) = lint(&["--crds", "cluster/crds.yaml"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        findings(&stdout),
        [
            "unknown-api-kind cert-manager.io/v1alpha1/Certificate certs.yaml:4:13",
            "unserved-api-version cert-manager.io/v1alpha2/Certificate certs.yaml:7:13",
            "deprecated-api-version cert-manager.io/v1beta1/Certificate certs.yaml:10:13",
        ]
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let messages: Vec<&str> =
        report["diagnostics"].as_array().expect("diagnostics").iter().filter_map(|d| d["message"].as_str()).collect();
    assert!(messages[0].starts_with("no matches for kind \"Certificate\" in version \"cert-manager.io/v1alpha1\""));
    assert!(messages[1].contains("is not served"), "{}", messages[1]);
    // apiextensions-apiserver's default warning names the newest served version.
    assert_eq!(messages[2], "cert-manager.io/v1beta1 Certificate is deprecated; use cert-manager.io/v1 Certificate");
    // A directory works too, and so does `crds` in kompat.toml.
    let (_, stdout, _) = lint(&["--crds", "cluster"]);
    assert_eq!(findings(&stdout).len(), 3, "{stdout}");
    std::fs::write(dir.path().join("kompat.toml"), "crds = [\"cluster/crds.yaml\"]\n").expect("write kompat.toml");
    let (_, stdout, _) = lint(&[]);
    assert_eq!(findings(&stdout).len(), 3, "{stdout}");
}
