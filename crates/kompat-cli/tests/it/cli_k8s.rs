//! Kubernetes built in, end to end: `cargo xtask k8s-apis` on our own fixture
//! tree (`fixtures/k8s/`, written in the shapes of kubernetes/api), and
//! `kompat apis|storage|hash --kubernetes` on the embedded table, with
//! expectations taken from the lifecycle facts and KEP-4330's serving rules.

use std::path::{Path, PathBuf};

use crate::common::{dir_with, kompat_in};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `(group, version, resource)` served for `args` (JSON output).
fn served(args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["apis", "--kubernetes", "--format", "json"];
    all.extend_from_slice(args);
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, stderr) = kompat_in(dir.path(), &all);
    assert_eq!(code, 0, "args {args:?}\nstderr:\n{stderr}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("JSON output");
    rows.iter()
        .map(|r| {
            let field = |k: &str| r[k].as_str().unwrap_or_default().to_owned();
            (field("group"), field("version"), field("resource"))
        })
        .collect()
}

/// Checks that each `GROUP/VERSION/RESOURCE` is (`+`) or is not (`-`) served.
#[track_caller]
fn check_served(args: &[&str], expected: &[&str]) {
    let got = served(args);
    for item in expected {
        let (want, gvr) = item.split_at(1);
        let parts: Vec<&str> = gvr.split('/').collect();
        let key = (parts[0].to_owned(), parts[1].to_owned(), parts[2].to_owned());
        assert_eq!(got.contains(&key), want == "+", "{gvr} with {args:?}");
    }
}

#[test]
fn what_a_kube_apiserver_serves() {
    // extensions/v1beta1 Ingress: removed in 1.22; before, an old beta on by default.
    check_served(
        &["--emulation-version", "1.21"],
        &["+extensions/v1beta1/ingresses", "+networking.k8s.io/v1/ingresses"],
    );
    check_served(
        &["--emulation-version", "1.22"],
        &["-extensions/v1beta1/ingresses", "+networking.k8s.io/v1/ingresses"],
    );
    // policy/v1beta1 PodSecurityPolicy: removed in 1.25.
    check_served(&["--emulation-version", "1.24"], &["+policy/v1beta1/podsecuritypolicies"]);
    check_served(&["--emulation-version", "1.25"], &["-policy/v1beta1/podsecuritypolicies"]);
    // flowcontrol v1beta3: introduced 1.26 yet on by default (the supplement's exception), removed 1.32.
    check_served(
        &["--emulation-version", "1.31"],
        &["+flowcontrol.apiserver.k8s.io/v1beta3/flowschemas", "+flowcontrol.apiserver.k8s.io/v1/flowschemas"],
    );
    check_served(&["--emulation-version", "1.32"], &["-flowcontrol.apiserver.k8s.io/v1beta3/flowschemas"]);
    // A beta introduced after 1.23 is off by default; --runtime-config turns it on.
    check_served(
        &["--binary-version", "1.36", "--emulation-version", "1.33"],
        &["-resource.k8s.io/v1beta2/resourceclaims"],
    );
    check_served(
        &["--binary-version", "1.36", "--emulation-version", "1.33", "--runtime-config", "api/beta=true"],
        &["+resource.k8s.io/v1beta2/resourceclaims", "-resource.k8s.io/v1/resourceclaims"],
    );
    // resource.k8s.io/v1 is introduced in 1.34: a 1.36 binary emulating 1.33
    // serves it only forward-compatibly, above an enabled beta.
    check_served(
        &[
            "--binary-version",
            "1.36",
            "--emulation-version",
            "1.33",
            "--runtime-config",
            "resource.k8s.io/v1beta2=true",
        ],
        &["+resource.k8s.io/v1beta2/resourceclaims", "-resource.k8s.io/v1/resourceclaims"],
    );
    check_served(
        &[
            "--binary-version",
            "1.36",
            "--emulation-version",
            "1.33",
            "--runtime-config",
            "resource.k8s.io/v1beta2=true",
            "--emulation-forward-compatible",
        ],
        &["+resource.k8s.io/v1/resourceclaims"],
    );
    // Alpha: never by default.
    check_served(&["--binary-version", "1.36"], &["-resource.k8s.io/v1alpha3/devicetaintrules", "+/v1/pods"]);
}

#[test]
fn kubernetes_errors_and_declared_apis() {
    let dir = dir_with(&[
        (
            "crd.toml",
            "[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.30\"\n",
        ),
        (
            "dup.toml",
            "[[api]]\ngroup = \"apps\"\nversion = \"v1\"\nkind = \"Deployment\"\nresource = \"deployments\"\nintroduced = \"1.9\"\n",
        ),
    ]);
    let (code, _, stderr) = kompat_in(
        dir.path(),
        &[
            "apis",
            "--kubernetes",
            "--binary-version",
            "1.36",
            "--emulation-version",
            "1.33",
            "--runtime-config",
            "resource.k8s.io/v1=true",
        ],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr.trim(),
        "error: cannot enable version resource.k8s.io/v1 in runtime-config because all the resources have been introduced after the current version 1.33. Consider setting --runtime-config-emulation-forward-compatible=true"
    );
    // Declared APIs are served besides the built-in ones.
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["apis", "--kubernetes", "--decls", "crd.toml", "--emulation-version", "1.36"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("widgets.example.io") && stdout.contains("apps "), "{stdout}");
    // Declaring a built-in type again is an error, located.
    let (code, _, stderr) =
        kompat_in(dir.path(), &["apis", "--kubernetes", "--decls", "dup.toml", "--emulation-version", "1.36"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: duplicate declaration of apps/v1/Deployment (first declared at dup.toml:1:1)"),
        "{stderr}"
    );
}

#[test]
fn storage_and_hash() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["storage", "--kubernetes", "--binary-version", "1.36", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&stdout).expect("JSON output");
    let find = |group: &str, resource: &str| {
        rows.iter().find(|r| r["group"] == group && r["resource"] == resource).map(|r| {
            (
                r["storage_version"].as_str().unwrap_or_default().to_owned(),
                r["hash"].as_str().unwrap_or_default().to_owned(),
            )
        })
    };
    // Pods in v1, with the hash discovery shows (`kompat hash /v1/Pod`).
    assert_eq!(find("", "pods"), Some(("v1".to_owned(), "xPOwRZ+Yhw8=".to_owned())));
    assert_eq!(find("apps", "deployments").map(|r| r.0), Some("apps/v1".to_owned()));
    let (code, stdout, _) = kompat_in(dir.path(), &["hash", "--kubernetes", "/v1/Pod"]);
    assert_eq!((code, stdout.as_str()), (0, "xPOwRZ+Yhw8=\n"));
    let (code, _, stderr) = kompat_in(dir.path(), &["hash", "--kubernetes", "apps/v1/Deploymnt"]);
    assert_eq!((code, stderr.trim()), (2, "error: apps/v1/Deploymnt is not one of Kubernetes' built-in API types"));
}

#[test]
fn export_toml_is_canonical_and_headed() {
    let (code, stdout, stderr) =
        kompat_in(&repo(), &["export", "--decls", "fixtures/features.toml", "--format", "toml"]);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("export_toml_fixture_features", stdout);
    // The export reads back to the same export (facts survive; header and
    // order are canonical).
    let dir = dir_with(&[("features.toml", &stdout)]);
    let (code, again, stderr) = kompat_in(dir.path(), &["export", "--decls", "features.toml", "--format", "toml"]);
    assert_eq!(code, 0, "{stderr}");
    let body = |text: &str| text.lines().skip_while(|l| l.starts_with("# ")).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&again), body(&stdout));
}

/// A kind configuration setting gates Kubernetes removed
/// (`fixtures/k8s/removed-gate/`): reported as removed, with the release and
/// the last state, at a release after the removal; before it, accepted.
#[test]
fn removed_kubernetes_gates_in_a_kind_config() {
    let dir = repo().join("fixtures/k8s/removed-gate");
    let (code, human, stderr) =
        crate::common::findings_on_stderr(kompat_in(&dir, &["lint", "kind.yaml", "--kubernetes-version", "1.37"]));
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("k8s_removed_gate_kind", human);
    // (Kubernetes version, findings as code/subject, exit code). A gate still
    // there is GA, which Kubernetes warns about.
    let cases: [(&str, &[&str], i32); 3] = [
        ("1.37", &["removed-gate-setting PodDisruptionConditions", "removed-gate-setting AppArmor"], 1),
        ("1.33", &["ga-gate-setting PodDisruptionConditions", "removed-gate-setting AppArmor"], 1),
        ("1.32", &["ga-gate-setting PodDisruptionConditions", "ga-gate-setting AppArmor"], 0),
    ];
    for (binary, expected, exit) in cases {
        let (code, stdout, stderr) =
            kompat_in(&dir, &["lint", "kind.yaml", "--kubernetes-version", binary, "--format", "json"]);
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stderr}"));
        let got: Vec<String> = report["diagnostics"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|d| format!("{} {}", d["code"].as_str().unwrap_or(""), d["subject"].as_str().unwrap_or("")))
                    .filter(|f| f != "missing-input declarations")
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(got, expected, "at {binary}");
        assert_eq!(code, exit, "at {binary}: {stderr}");
    }
}

/// `[kubernetes] version` in kompat.toml (`fixtures/k8s/kubernetes-version/`)
/// is the version manifests and Kubernetes' own gates are checked at, not
/// the project's `binary_version`; `--binary-version` does not change it
/// (but under the Kubernetes profile, where it sets both);
/// `--kubernetes-version` overrides it.
#[test]
fn kubernetes_version_in_kompat_toml() {
    let dir = repo().join("fixtures/k8s/kubernetes-version");
    let run = |extra: &[&str]| {
        let mut args = vec!["lint", "deploy.yaml", "kind.yaml", "--format", "json"];
        args.extend_from_slice(extra);
        let (_, stdout, stderr) = kompat_in(&dir, &args);
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stderr}"));
        let got: Vec<String> = report["diagnostics"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|d| format!("{} {}", d["code"].as_str().unwrap_or(""), d["subject"].as_str().unwrap_or("")))
                    .filter(|f| f != "missing-input declarations")
                    .collect()
            })
            .unwrap_or_default();
        got
    };
    // At 1.33: flowcontrol v1beta3 is removed (1.32), extensions Ingress too
    // (1.22); AppArmor was removed in 1.33, PodDisruptionConditions in 1.34.
    assert_eq!(
        run(&[]),
        [
            "removed-api-version flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
            "removed-api-version extensions/v1beta1/Ingress",
            "ga-gate-setting PodDisruptionConditions",
            "removed-gate-setting AppArmor",
        ]
    );
    // The project's version is not the cluster's.
    let at_1_33 = run(&[]);
    assert_eq!(run(&["--binary-version", "1.31"]), at_1_33);
    let at_1_31 = [
        "deprecated-api-version flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
        "removed-api-version extensions/v1beta1/Ingress",
        "ga-gate-setting PodDisruptionConditions",
        "ga-gate-setting AppArmor",
    ];
    // Under the Kubernetes profile one version sets both.
    assert_eq!(run(&["--binary-version", "1.31", "--profile", "kubernetes"]), at_1_31);
    // --kubernetes-version overrides `[kubernetes] version`, and leaves the
    // project's binary version alone.
    assert_eq!(
        run(&["--kubernetes-version", "1.31", "--binary-version", "1.37"]),
        [
            "deprecated-api-version flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
            "removed-api-version extensions/v1beta1/Ingress",
            "ga-gate-setting PodDisruptionConditions",
            "ga-gate-setting AppArmor",
        ]
    );
    let (code, _, stderr) = kompat_in(&dir, &["lint", "kind.yaml", "--kubernetes-version", "one"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("error: invalid value for --kubernetes-version: "), "{stderr}");
    // A bad version is located in kompat.toml.
    let bad = dir_with(&[("kompat.toml", "[kubernetes]\nversion = \"one\"\n"), ("kind.yaml", "kind: Cluster\n")]);
    let (code, _, stderr) = kompat_in(bad.path(), &["lint", "kind.yaml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("kompat.toml:2:11"), "{stderr}");
}
