//! Upgrade paths, end to end: `kompat lint --kubernetes-version A..B` (and
//! `[kubernetes] version = "A..B"`) judges the inputs at every minor of the
//! path and reports each finding once, naming the steps it appears at; the
//! errors of bad paths.

use crate::common::{dir_with, kompat_in};

const FLOW_SCHEMA: &str = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: fs\n";
const PDB: &str = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb\n";
const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n";
const KIND: &str =
    "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  PodDisruptionConditions: true\n";

const FS_DEPRECATED: &str = "warning deprecated-api-version: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema";
const FS_REMOVED: &str = "error removed-api-version: no matches for kind \"FlowSchema\" in version \"flowcontrol.apiserver.k8s.io/v1beta3\" on Kubernetes 1.32: removed in 1.32; use flowcontrol.apiserver.k8s.io/v1 FlowSchema";

/// `kompat lint --no-config FILES --kubernetes-version RANGE --format json`
/// in a directory of `files`: the exit code and the findings as `severity
/// code: message`.
fn lint(range: &str, files: &[(&str, &str)]) -> (i32, Vec<String>) {
    let dir = dir_with(files);
    let mut args = vec!["lint", "--no-config", "--kubernetes-version", range, "--format", "json"];
    args.extend(files.iter().map(|(name, _)| *name));
    let (code, stdout, stderr) = kompat_in(dir.path(), &args);
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stdout}\nstderr:\n{stderr}"));
    let findings = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            let field = |key: &str| d[key].as_str().unwrap_or("-").to_owned();
            format!("{} {}: {}", field("severity"), field("code"), field("message"))
        })
        .collect();
    (code, findings)
}

/// The findings of `files` over `range`.
#[track_caller]
fn check(range: &str, files: &[(&str, &str)], expected: &[&str]) {
    let (_, got) = lint(range, files);
    assert_eq!(got, expected, "{range}");
}

#[test]
fn findings_name_the_steps_they_appear_at() {
    // Deprecated in 1.29, removed in 1.32: a warning, then an error.
    check(
        "1.28..1.33",
        &[("fs.yaml", FLOW_SCHEMA)],
        &[
            &format!("{FS_DEPRECATED} (from Kubernetes 1.29 to 1.31 on the path 1.28..1.33)"),
            &format!("{FS_REMOVED} (from Kubernetes 1.32 on the path 1.28..1.33)"),
        ],
    );
    check(
        "1.20..1.26",
        &[("pdb.yaml", PDB)],
        &[
            "warning deprecated-api-version: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget (from Kubernetes 1.21 to 1.24 on the path 1.20..1.26)",
            "error removed-api-version: no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\" on Kubernetes 1.25: removed in 1.25; use policy/v1 PodDisruptionBudget (from Kubernetes 1.25 on the path 1.20..1.26)",
        ],
    );
    // Not served yet at the start of the path.
    check(
        "1.24..1.26",
        &[("fs.yaml", FLOW_SCHEMA)],
        &["error unserved-api-version: no matches for kind \"FlowSchema\" in version \"flowcontrol.apiserver.k8s.io/v1beta3\" on Kubernetes 1.24: introduced in 1.26 (from Kubernetes 1.24 to 1.25 on the path 1.24..1.26)"],
    );
    // At the last step only, and at every step (the message names its
    // release, so it changes).
    check(
        "1.31..1.32",
        &[("fs.yaml", FLOW_SCHEMA), ("pdb.yaml", PDB)],
        &[
            &format!("{FS_DEPRECATED} (at Kubernetes 1.31 only on the path 1.31..1.32)"),
            &format!("{FS_REMOVED} (from Kubernetes 1.32 on the path 1.31..1.32)"),
            "error removed-api-version: no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\" on Kubernetes 1.31: removed in 1.25; use policy/v1 PodDisruptionBudget (from Kubernetes 1.31 on the path 1.31..1.32)",
        ],
    );
    // Served and never deprecated on the path: nothing.
    check("1.28..1.33", &[("web.yaml", DEPLOYMENT)], &[]);
}

/// Gate settings are judged at every step too; a finding that does not
/// depend on the release (the note on Kubernetes' own gates) is said once,
/// as it is.
#[test]
fn settings_and_findings_the_same_at_every_step() {
    check(
        "1.31..1.35",
        &[("kind.yaml", KIND)],
        &[
            "warning ga-gate-setting: a 1.31 component logs \"Setting GA feature gate PodDisruptionConditions=true. It will be removed in a future release.\" (from Kubernetes 1.31 to 1.33 on the path 1.31..1.35)",
            "error removed-gate-setting: feature gate \"PodDisruptionConditions\" was removed in Kubernetes 1.34 (last: GA, locked to true since 1.31); a 1.34 component rejects this setting: unrecognized feature gate: PodDisruptionConditions (from Kubernetes 1.34 on the path 1.31..1.35)",
            "note missing-input: no feature declarations loaded: gate settings are checked against Kubernetes' own feature gates",
        ],
    );
}

#[test]
fn one_step_is_one_release() {
    for (range, at) in [("1.30..1.30", "1.30"), ("1.33..1.33", "1.33"), ("v1.25..1.25.0", "1.25")] {
        let files = [("fs.yaml", FLOW_SCHEMA), ("pdb.yaml", PDB), ("kind.yaml", KIND)];
        assert_eq!(lint(range, &files), lint(at, &files), "{range}");
    }
}

/// Past the newest release of kompat's data: one note for the path.
#[test]
fn a_path_past_the_data_is_said_once() {
    let (code, got) = lint("1.35..1.40", &[("pdb.yaml", PDB)]);
    assert_eq!(code, 1);
    assert_eq!(
        got,
        [
            "error removed-api-version: no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\" on Kubernetes 1.35: removed in 1.25; use policy/v1 PodDisruptionBudget (from Kubernetes 1.35 on the path 1.35..1.40)",
            "note missing-input: no Kubernetes data after 1.37: the manifests are checked up to Kubernetes 1.40 (the path 1.35..1.40), and APIs removed after Kubernetes 1.37 are not known",
        ]
    );
    let (code, got) = lint("1.30..1.37", &[("web.yaml", DEPLOYMENT)]);
    assert_eq!((code, got), (0, Vec::<String>::new()));
}

/// The human report of a path (insta snapshot), and `[kubernetes] version`
/// in kompat.toml, which judges the same path as the flag.
#[test]
fn human_report_and_kompat_toml() {
    let dir = dir_with(&[
        ("kompat.toml", "[kubernetes]\nversion = \"1.28..1.33\"\n"),
        ("fs.yaml", FLOW_SCHEMA),
        ("pdb.yaml", PDB),
    ]);
    let (code, _, human) = kompat_in(dir.path(), &["lint", "fs.yaml", "pdb.yaml"]);
    assert_eq!(code, 1, "{human}");
    insta::assert_snapshot!("upgrade-path-human", human);
    let (_, _, flag) =
        kompat_in(dir.path(), &["lint", "--no-config", "fs.yaml", "pdb.yaml", "--kubernetes-version", "1.28..1.33"]);
    assert_eq!(flag, human);
}

/// Bad paths are input errors (exit 2), located in kompat.toml when
/// written there.
#[test]
fn bad_paths() {
    let cases = [
        ("1.34..1.30", "invalid version \"1.34..1.30\": the first version is newer than the last"),
        ("1.30..2.1", "invalid version \"1.30..2.1\": an upgrade path stays within one major version"),
        ("1.30..", "invalid version \"1.30..\": expected A..B, two MAJOR.MINOR versions"),
        ("1.30..1.x", "invalid version \"1.30..1.x\": version components must be non-negative integers"),
        ("1.30-1.34", "invalid version \"1.30-1.34\": version components must be non-negative integers"),
        // Billions of steps, each a lint run: bounded.
        (
            "1.0..1.4294967295",
            "invalid version \"1.0..1.4294967295\": an upgrade path spans at most 100 minor releases",
        ),
        ("1.0..1.100", "invalid version \"1.0..1.100\": an upgrade path spans at most 100 minor releases"),
    ];
    for (range, why) in cases {
        let dir = dir_with(&[("fs.yaml", FLOW_SCHEMA)]);
        let (code, stdout, stderr) =
            kompat_in(dir.path(), &["lint", "--no-config", "fs.yaml", "--kubernetes-version", range]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{range}: {stderr}");
        assert_eq!(stderr.trim_end(), format!("error: invalid value for --kubernetes-version: {why}"), "{range}");

        let dir =
            dir_with(&[("kompat.toml", &format!("[kubernetes]\nversion = \"{range}\"\n")), ("fs.yaml", FLOW_SCHEMA)]);
        let (code, _, stderr) = kompat_in(dir.path(), &["lint", "fs.yaml"]);
        assert_eq!(code, 2, "{range}: {stderr}");
        assert!(stderr.starts_with(&format!("error: {why}\n  --> kompat.toml:2:11\n")), "{range}: {stderr}");
    }
    let dir = dir_with(&[("fs.yaml", FLOW_SCHEMA)]);
    let args = ["lint", "fs.yaml", "--kubernetes-version", "1.30..1.31", "--emulation-version", "1.30"];
    let (code, _, stderr) = kompat_in(dir.path(), &args);
    assert_eq!(code, 2);
    assert_eq!(
        stderr.trim_end(),
        "error: --emulation-version names one release: it cannot be combined with the upgrade path 1.30..1.31 (each step emulates itself)"
    );
}
