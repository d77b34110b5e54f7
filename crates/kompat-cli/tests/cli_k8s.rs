//! Kubernetes built in, end to end: `kompat k8s-apis` on our own fixture
//! tree (`fixtures/k8s/`, written in the shapes of kubernetes/api), and
//! `kompat apis|storage|hash --kubernetes` on the embedded table, with
//! expectations taken from the lifecycle facts and KEP-4330's serving rules.

mod common;

use std::path::{Path, PathBuf};

use common::{dir_with, kompat_in};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn generates_from_a_module_cache() {
    let (code, stdout, stderr) = kompat_in(
        &repo(),
        &["k8s-apis", "--source", "fixtures/k8s/modcache", "--supplement", "fixtures/k8s/supplement.toml"],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert_eq!(stderr, "kompat k8s-apis: 11 API types from 3 module versions (5 API packages read)\n");
    insta::assert_snapshot!("k8s_apis_fixture_tree", stdout);
    // The generated table is a declaration file kompat reads.
    let dir = dir_with(&[("apis.toml", &stdout)]);
    let (code, served, stderr) =
        kompat_in(dir.path(), &["apis", "--decls", "apis.toml", "--emulation-version", "1.28"]);
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(served.contains("widgets.example.io  v1beta1  widgets"), "{served}");
}

#[test]
fn output_file_and_checkouts() {
    let dir = tempfile::tempdir().expect("tempdir");
    // A module directory without `@version` is a checkout.
    let checkout = dir.path().join("api");
    copy_dir(&repo().join("fixtures/k8s/modcache/k8s.io/api@v0.31.0"), &checkout);
    let out = dir.path().join("out/apis.toml");
    let (code, _, stderr) = kompat_in(
        dir.path(),
        &[
            "k8s-apis",
            "--source",
            "api",
            "--source",
            &repo().join("fixtures/k8s/modcache/k8s.io/api@v0.30.0").display().to_string(),
            "-o",
            "out/apis.toml",
        ],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    let text = std::fs::read_to_string(&out).expect("the table is written");
    assert!(text.contains("# source: k8s.io/api v0.30.0 (1 version) and a checkout\n"), "{text}");
    // The checkout is newer than any release: Pod's lifecycle comes from it.
    assert!(text.contains("kind = \"Pod\"\nresource = \"pods\"\nintroduced = \"1.0\"\n"), "{text}");
    // Without the supplement, Endpoints gets kube's default plural.
    assert!(text.contains("resource = \"endpointses\""), "{text}");
}

/// Broken inputs: exit 2, located errors, nothing written.
#[track_caller]
fn check_error(files: &[(&str, &str)], expected: &str) {
    let mut all = vec![("api@v0.30.0/go.mod", "module k8s.io/api\n")];
    all.extend_from_slice(files);
    let dir = dir_with(&all);
    let (code, stdout, stderr) = kompat_in(dir.path(), &["k8s-apis", "--source", "api@v0.30.0", "-o", "apis.toml"]);
    assert_eq!(code, 2, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(!dir.path().join("apis.toml").exists(), "a file was written");
    let first: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error") || l.contains("-->")).collect();
    assert_eq!(first.join("\n"), expected.trim(), "stderr:\n{stderr}");
}

const LIFECYCLE: &str =
    "package v1\n\nfunc (in *Thing) APILifecycleIntroduced() (major, minor int) {\n\treturn 1, 30\n}\n";
const REGISTER: &str =
    "package v1\n\nvar SchemeGroupVersion = schema.GroupVersion{Group: \"things.example.io\", Version: \"v1\"}\n";

#[test]
fn problems_are_located() {
    check_error(
        &[(
            "api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go",
            "package v1\n\nfunc (in *Thing) APILifecycleIntroduced() (major, minor int) {\n\treturn 1 30\n}\n",
        )],
        "error: Go syntax error\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go:4:9",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
        ],
        "error: type Thing has a lifecycle but is not declared in the package\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go:3:11",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/doc.go", "// +groupName=other.example.io\npackage v1\n"),
        ],
        "error: +groupName=other.example.io differs from the group \"things.example.io\" that register.go's SchemeGroupVersion registers\n  --> api@v0.30.0/things/v1/doc.go:1:1",
    );
    check_error(
        &[("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE)],
        "error: cannot tell the package's group: no SchemeGroupVersion in register.go and no +groupName in doc.go\n  --> api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", "package v1\n\n// +genclient\ntype Thing struct {\n"),
        ],
        "error: Go syntax error\n  --> api@v0.30.0/things/v1/types.go:4:1",
    );
    // The hand-written lifecycle.go: its problems are located there.
    let types = "package v1\n\n// +genclient\ntype Thing struct{}\n";
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", types),
            ("api@v0.30.0/things/v1/lifecycle.go", &LIFECYCLE.replace("30", "31")),
        ],
        "error: Thing has a second APILifecycleIntroduced method\n  --> api@v0.30.0/things/v1/lifecycle.go:3:1",
    );
    check_error(
        &[
            ("api@v0.30.0/things/v1/zz_generated.prerelease-lifecycle.go", LIFECYCLE),
            ("api@v0.30.0/things/v1/register.go", REGISTER),
            ("api@v0.30.0/things/v1/types.go", types),
            ("api@v0.30.0/things/v1/lifecycle.go", &LIFECYCLE.replace("Thing", "Ghost")),
        ],
        "error: type Ghost has a lifecycle but is not declared in the package\n  --> api@v0.30.0/things/v1/lifecycle.go:3:11",
    );
}

#[test]
fn sources_that_are_not_modules() {
    let dir = dir_with(&[("empty/README", "nothing here\n")]);
    let (code, _, stderr) = kompat_in(dir.path(), &["k8s-apis", "--source", "empty"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: empty is neither a Go module (no go.mod) nor a Go module cache"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["k8s-apis", "--source", "missing"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: "), "{stderr}");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy fixture");
        }
    }
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

/// `kompat k8s-removed-features` on our own Go feature files
/// (`fixtures/k8s/removed-features/`, in the shapes of k8s.io/kubernetes
/// pkg/features and a staging module): two releases read with the Go
/// reader, the newest list a kompat TOML.
#[test]
fn removed_features_from_go_feature_files() {
    let dir = "fixtures/k8s/removed-features";
    let (code, stdout, stderr) = kompat_in(
        &repo(),
        &[
            "k8s-removed-features",
            "--release",
            &format!("1.34={dir}/v1.34"),
            "--release",
            &format!("1.35={dir}/features.toml"),
            "--release",
            &format!("1.33={dir}/v1.33"),
        ],
    );
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.ends_with("kompat k8s-removed-features: 3 removed gates\n"), "{stderr}");
    insta::assert_snapshot!("k8s_removed_features_fixture", stdout);
    let gates = kompat_k8s::removed::parse(&stdout).unwrap_or_else(|errors| panic!("{errors:?}"));
    let removed: Vec<String> = gates.iter().map(|g| g.to_string()).collect();
    assert_eq!(
        removed,
        [
            "feature gate \"LegacyPolling\" was removed in Kubernetes 1.34 (last: Alpha, off by default since 1.29)",
            "feature gate \"LegacyWatchCache\" was removed in Kubernetes 1.35 (last: Deprecated, locked to false since 1.34)",
            "feature gate \"WidgetSharding\" was removed in Kubernetes 1.34 (last: GA, locked to true since 1.32)",
        ]
    );
}

/// A release in the shape of those before 1.32 (`fixtures/k8s/removed-features/v1.32`):
/// unversioned `FeatureSpec` maps in two modules and a versioned map. Each
/// unversioned spec is the state at 1.32, a gate in both kinds of map keeps
/// its versioned specs (OldQuota), one repeated with the same spec is read
/// once (LegacyListCache). `kompat export` reads the maps as component-base
/// registers them (unversioned specs at 0.0), where OldQuota's two different
/// declarations are component-base's registration error.
#[test]
fn removed_features_with_unversioned_maps() {
    let dir = "fixtures/k8s/removed-features";
    let releases = [("1.32", "v1.32"), ("1.33", "v1.33"), ("1.34", "v1.34"), ("1.35", "features.toml")];
    let mut args = vec!["k8s-removed-features".to_owned()];
    for (version, path) in releases {
        args.extend(["--release".to_owned(), format!("{version}={dir}/{path}")]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, stdout, stderr) = kompat_in(&repo(), &args);
    assert_eq!(code, 0, "stderr:\n{stderr}");
    assert!(stderr.contains("kompat k8s-removed-features: 1.32: 6 gates (v1.32)\n"), "{stderr}");
    insta::assert_snapshot!("k8s_removed_features_unversioned", stdout);
    let gates = kompat_k8s::removed::parse(&stdout).unwrap_or_else(|errors| panic!("{errors:?}"));
    let removed: Vec<String> = gates.iter().map(|g| format!("{} {} {}", g.name, g.removed, g.last_state())).collect();
    assert_eq!(
        removed,
        [
            "InTreeWidgetUnregister 1.33 Alpha, off by default since 1.32",
            "LegacyListCache 1.33 GA, locked to true since 1.32",
            "LegacyPolling 1.34 Alpha, off by default since 1.29",
            "LegacyWatchCache 1.35 Deprecated, locked to false since 1.34",
            "OldQuota 1.33 Beta, on by default since 1.31",
            "WidgetSharding 1.34 GA, locked to true since 1.32",
        ]
    );
    let (code, exported, stderr) =
        kompat_in(&repo(), &["export", "--decls", &format!("{dir}/v1.32"), "--format", "toml"]);
    assert_eq!((code, exported.as_str()), (2, ""), "{stderr}");
    for expected in [
        "error: feature gate \"OldQuota\" with different spec already exists: [{true false BETA 0.0 <nil>}]\n",
        "error: feature gate \"WidgetSharding\" with different spec already exists: [{true true  0.0 <nil>}]\n",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
}

#[test]
fn removed_features_input_errors() {
    let dir = "fixtures/k8s/removed-features";
    let conflicting = dir_with(&[
        ("a.toml", "[[feature]]\nname = \"X\"\nspecs = [{ version = \"1.30\", stage = \"Alpha\", default = false }]\n"),
        ("b.toml", "[[feature]]\nname = \"X\"\nspecs = [{ version = \"1.30\", stage = \"Beta\", default = true }]\n"),
    ]);
    let conflicting = format!("1.34={}", conflicting.path().display());
    let go = |body: &str| {
        format!("package features\n\nimport \"k8s.io/component-base/featuregate\"\n\nvar m = map[featuregate.Feature]featuregate.FeatureSpec{{\n{body}}}\n")
    };
    let unversioned = dir_with(&[
        ("a.go", &go("\tX: {Default: false, PreRelease: featuregate.Alpha},\n")),
        ("b.go", &go("\tX: {Default: true, PreRelease: featuregate.Beta},\n")),
    ]);
    let unversioned = format!("1.31={}", unversioned.path().display());
    let bad_spec = dir_with(&[("a.go", &go("\tX: {Default: false},\n"))]);
    let bad_spec = format!("1.31={}", bad_spec.path().display());
    let cases: [(&[&str], &str); 6] = [
        (&["--release", "1.33"], "error: invalid value for --release: \"1.33\" is not VERSION=PATH"),
        (&["--release", &format!("x=1.33={dir}/v1.33")], "error: invalid value for --release: "),
        (
            &["--release", &format!("1.33={dir}/v1.33"), "--release", &format!("1.35={dir}/features.toml")],
            "error: --release: releases 1.33 and 1.35 are not consecutive: every minor release in between is needed to tell when a gate was removed",
        ),
        (&["--release", &conflicting], "error: release 1.34: feature gate X is declared twice with different specs"),
        (&["--release", &unversioned], "error: release 1.31: feature gate X is declared twice with different specs"),
        (&["--release", &bad_spec], "error: FeatureSpec has no PreRelease\n"),
    ];
    for (args, expected) in cases {
        let out = tempfile::tempdir().expect("tempdir");
        let output = out.path().join("removed.toml").display().to_string();
        let mut all = vec!["k8s-removed-features", "-o", &output];
        all.extend_from_slice(args);
        let (code, _, stderr) = kompat_in(&repo(), &all);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
        assert!(!out.path().join("removed.toml").exists(), "{args:?}: a file was written");
    }
}

/// A kind configuration setting gates Kubernetes removed
/// (`fixtures/k8s/removed-gate/`): reported as removed, with the release and
/// the last state, at a release after the removal; before it, accepted.
#[test]
fn removed_kubernetes_gates_in_a_kind_config() {
    let dir = repo().join("fixtures/k8s/removed-gate");
    let (code, human, stderr) =
        common::findings_on_stderr(kompat_in(&dir, &["lint", "kind.yaml", "--binary-version", "1.37"]));
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("k8s_removed_gate_kind", human);
    // (binary version, findings as code/subject, exit code). A gate still
    // there is GA, which Kubernetes warns about.
    let cases: [(&str, &[&str], i32); 3] = [
        ("1.37", &["removed-gate-setting PodDisruptionConditions", "removed-gate-setting AppArmor"], 1),
        ("1.33", &["ga-gate-setting PodDisruptionConditions", "removed-gate-setting AppArmor"], 1),
        ("1.32", &["ga-gate-setting PodDisruptionConditions", "ga-gate-setting AppArmor"], 0),
    ];
    for (binary, expected, exit) in cases {
        let (code, stdout, stderr) =
            kompat_in(&dir, &["lint", "kind.yaml", "--binary-version", binary, "--format", "json"]);
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
/// is the release manifests and Kubernetes' own gates are checked at, not the
/// project's `binary_version`; `--binary-version` overrides it.
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
    assert_eq!(
        run(&["--binary-version", "1.31"]),
        [
            "deprecated-api-version flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
            "removed-api-version extensions/v1beta1/Ingress",
            "ga-gate-setting PodDisruptionConditions",
            "ga-gate-setting AppArmor",
        ]
    );
    // --kubernetes-version overrides both, and leaves the project's
    // binary version alone.
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
