//! How `kompat lint` finds and reads kompat.toml: the file is looked for in
//! the working directory and its parents; paths on the command line are added
//! to its `decls`; `--no-config` reads none; `reference` inputs resolve gate
//! names without being reported on; unknown keys and names get a "did you
//! mean" hint.

use crate::common::{dir_with, kompat_in};

/// A project: the operator's own gate, a Deployment that sets it and a
/// misspelt one, and kompat.toml naming the declarations.
fn operator() -> tempfile::TempDir {
    dir_with(&[
        ("kompat.toml", "binary_version = \"1.37\"\ndecls = [\"features.toml\"]\n"),
        (
            "features.toml",
            "[[feature]]\nname = \"WidgetCache\"\nspecs = [{ version = \"1.36\", stage = \"Alpha\", default = false }]\n",
        ),
        (
            "deploy/manager.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: manager\nspec:\n  template:\n    spec:\n      containers:\n      - name: manager\n        args: [\"--feature-gates=WidgetCache=true,WidgetCahce=true\"]\n",
        ),
    ])
}

/// The short-format findings of a `kompat lint` run in `dir` (what the run
/// lacks left out), and its exit code.
fn short(dir: &std::path::Path, args: &[&str]) -> (i32, Vec<String>) {
    let mut all = vec!["lint", "--format", "short", "-A", "missing-input"];
    all.extend(args);
    let (code, _, stderr) = kompat_in(dir, &all);
    (code, stderr.lines().filter(|l| !l.starts_with("kompat lint: ")).map(str::to_owned).collect())
}

#[test]
fn command_line_paths_are_added_to_the_configured_decls() {
    let dir = operator();
    let (code, findings) = short(dir.path(), &["deploy/manager.yaml"]);
    // WidgetCache is the project's own gate (from `decls`): only the typo is
    // unknown, with a hint.
    assert_eq!(
        findings,
        ["deploy/manager.yaml:10:50: error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: WidgetCahce (did you mean `WidgetCache`?)"]
    );
    assert_eq!(code, 1);
    // Without the configuration, the gates are checked against Kubernetes'
    // own, and a note says why.
    let (code, _, stderr) =
        kompat_in(dir.path(), &["lint", "--no-config", "deploy/manager.yaml", "--kubernetes-version", "1.37"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("unrecognized feature gate: WidgetCache\n"), "{stderr}");
    assert!(
        stderr.contains("note[missing-input]: no feature declarations loaded: gate settings are checked against Kubernetes' own feature gates"),
        "{stderr}"
    );
    // A file named on the command line and in `decls` is read once.
    let (code, findings) = short(dir.path(), &["features.toml", "--decls", "./features.toml"]);
    assert_eq!((code, findings), (0, Vec::<String>::new()));
}

#[test]
fn the_configuration_is_found_in_a_parent_directory() {
    let dir = operator();
    let deploy = dir.path().join("deploy");
    // Paths in kompat.toml are relative to its directory, and messages name
    // them relative to the working directory.
    let (code, findings) = short(&deploy, &["manager.yaml"]);
    assert_eq!(
        findings,
        ["manager.yaml:10:50: error[unknown-gate-setting]: a 1.37 component rejects this setting: unrecognized feature gate: WidgetCahce (did you mean `WidgetCache`?)"]
    );
    assert_eq!(code, 1);
    // With no path, the parent's `decls` are linted.
    let (code, _, stderr) = kompat_in(&deploy, &["lint"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("no baseline"), "{stderr}");
    // --config still wins.
    std::fs::write(deploy.join("other.toml"), "decls = []\n").expect("write");
    let (code, _, stderr) = kompat_in(&deploy, &["lint", "--config", "other.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("nothing to lint"), "{stderr}");
    // The nearest kompat.toml is the one read.
    std::fs::write(deploy.join("kompat.toml"), "decls = [\"missing.toml\"]\n").expect("write");
    let (code, _, stderr) = kompat_in(&deploy, &["lint"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("missing.toml"), "{stderr}");
}

#[test]
fn reference_inputs_resolve_names_and_are_not_reported() {
    let list = "- name: OldLocked\n  versionedSpecs:\n  - default: true\n    lockToDefault: false\n    preRelease: GA\n    version: \"1.0\"\n  - default: true\n    lockToDefault: true\n    preRelease: GA\n    version: \"1.30\"\n";
    let kind = "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  OldLocked: false\n";
    let dir = dir_with(&[("k8s/versioned_feature_list.yaml", list), ("kind.yaml", kind)]);
    // As a declaration input, the list gets a clean-up warning.
    let (_, findings) =
        short(dir.path(), &["kind.yaml", "--decls", "k8s/versioned_feature_list.yaml", "--binary-version", "1.37"]);
    assert_eq!(
        findings,
        [
            "k8s/versioned_feature_list.yaml:8:20: warning[locked-gate-cleanup]: feature OldLocked has been locked to default since 1.30 (7 releases) and should be cleaned up",
            "kind.yaml:4:3: error[locked-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate OldLocked to false, feature is locked to true",
        ]
    );
    // As a reference (flag or kompat.toml), only the setting is reported.
    let expected = [
        "kind.yaml:4:3: error[locked-gate-setting]: a 1.37 component rejects this setting: cannot set feature gate OldLocked to false, feature is locked to true",
    ];
    let (code, findings) =
        short(dir.path(), &["kind.yaml", "--reference", "k8s/versioned_feature_list.yaml", "--binary-version", "1.37"]);
    assert_eq!((code, findings.as_slice()), (1, expected.map(String::from).as_slice()));
    std::fs::write(
        dir.path().join("kompat.toml"),
        "binary_version = \"1.37\"\nreference = [\"k8s/versioned_feature_list.yaml\"]\n",
    )
    .expect("write");
    let (code, findings) = short(dir.path(), &["kind.yaml"]);
    assert_eq!((code, findings.as_slice()), (1, expected.map(String::from).as_slice()));
    // A file that is both is a reference.
    let (_, findings) = short(dir.path(), &["kind.yaml", "k8s"]);
    assert_eq!(findings, expected.map(String::from));
}

#[test]
fn required_inputs() {
    let dir = dir_with(&[
        ("kompat.toml", "decls = [\"apis.toml\"]\n\n[lint]\nrequire = [\"binary-version\"]\n"),
        ("apis.toml", "[[api]]\ngroup = \"example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.30\"\n"),
    ]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("error[missing-input]: no binary version"), "{stderr}");
    assert!(stderr.contains("required by `require` under [lint]"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "--binary-version", "1.37"]);
    assert_eq!(code, 0, "{stderr}");
    // An unknown name is an input error with a hint.
    std::fs::write(
        dir.path().join("kompat.toml"),
        "decls = [\"apis.toml\"]\n\n[lint]\nrequire = [\"binary_version\"]\n",
    )
    .expect("write");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown input `binary_version` in `require` under [lint], expected one of `binary-version`, `baseline`, `kubernetes-version`, `sources`, `declarations`, `crd-manifest`, `renderer` (did you mean `binary-version`?)"), "{stderr}");
    assert!(stderr.contains("kompat.toml:4:12"), "{stderr}");
}

#[test]
fn unknown_keys_and_gate_names_get_a_hint() {
    let features =
        "[[feature]]\nname = \"WidgetCache\"\nspecs = [{ version = \"1.36\", stage = \"Alpha\", default = false }]\n";
    let dir = dir_with(&[("kompat.toml", "binary_verison = \"1.37\"\n"), ("features.toml", features)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "features.toml"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("unknown field `binary_verison`"), "{stderr}");
    assert!(stderr.contains("(did you mean `binary_version`?)"), "{stderr}");
    assert!(stderr.contains("kompat.toml:1:1"), "{stderr}");
    // `kompat features --feature-gates`: Kubernetes' message, and the hint.
    let dir = dir_with(&[("features.toml", features)]);
    let (code, _, stderr) = kompat_in(
        dir.path(),
        &["features", "--decls", "features.toml", "--emulation-version", "1.37", "--feature-gates", "WidgetCahce=true"],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("error: unrecognized feature gate: WidgetCahce"), "{stderr}");
    assert!(stderr.contains("`WidgetCahce`: did you mean `WidgetCache`?"), "{stderr}");
}

/// The demo's declarations without a binary version: the storage and
/// lifecycle rules cannot run, and the run says so instead of passing
/// silently (in every format).
#[test]
fn no_silent_pass_without_a_binary_version() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let args = ["lint", "fixtures/apis.toml", "fixtures/features.toml"];
    let (code, _, stderr) = kompat_in(&root, &[&args[..], &["--format", "short"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("note[missing-input]: no binary version (--binary-version, or `binary_version` in kompat.toml): `locked-gate-cleanup`, `storage-not-decodable`, `storage-override-expired`, `storage-version-without-kind` did not run"),
        "{stderr}"
    );
    let (_, stdout, _) = kompat_in(&root, &[&args[..], &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("json");
    let subjects: Vec<&str> = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "missing-input")
        .filter_map(|d| d["subject"].as_str())
        .collect();
    assert_eq!(subjects, ["sources", "baseline", "binary-version"]);
    // Given the version, the rules run and find what they find.
    let (code, _, stderr) = kompat_in(&root, &[&args[..], &["--binary-version", "1.37"]].concat());
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("error[storage-not-decodable]"), "{stderr}");
    assert!(!stderr.contains("no binary version"), "{stderr}");
}
