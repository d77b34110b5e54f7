//! `kompat diff FROM TO PATH...`: with manifests and settings (or
//! `--config` naming them), only the changes that touch them, and a note
//! saying how many of all they are.

use crate::common::{dir_with, kompat_in};

const PDB: &str = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: pdb\n";
const FLOW_SCHEMA: &str = "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata:\n  name: fs\n";
const DEPLOYMENT: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n";
const KIND: &str =
    "kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nfeatureGates:\n  PodDisruptionConditions: true\n";

/// `kompat diff ARGS --format json` in a directory of `files`: each change
/// as `change release name`, and the first note's count (`N of`).
fn diff(files: &[(&str, &str)], args: &[&str]) -> (Vec<String>, String) {
    let dir = dir_with(files);
    let mut all = vec!["diff"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let (code, stdout, stderr) = kompat_in(dir.path(), &all);
    assert_eq!(code, 0, "{args:?}: {stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("-").to_owned();
    let mut changes: Vec<String> = json["gates"]
        .as_array()
        .expect("gates")
        .iter()
        .map(|g| format!("{} {} {}", text(&g["change"]), text(&g["release"]), text(&g["name"])))
        .collect();
    changes.extend(json["apis"].as_array().expect("apis").iter().map(|a| {
        format!(
            "{} {} {}/{}/{}",
            text(&a["change"]),
            text(&a["release"]),
            text(&a["group"]),
            text(&a["version"]),
            text(&a["kind"])
        )
    }));
    let note = json["notes"][0].as_str().unwrap_or("").to_owned();
    let count = note.split(" changes touch the inputs").next().unwrap_or("").to_owned();
    assert!(note.contains(" changes touch the inputs (the API versions of their objects: "), "{note}");
    (changes, count)
}

/// The changes between Kubernetes `from` and `to` that touch `files`, and
/// how many of all (`N of M`, M left out: it grows with kompat's data).
#[track_caller]
fn check(from: &str, to: &str, files: &[(&str, &str)], expected: &[&str]) {
    let mut args = vec![from, to];
    args.extend(files.iter().map(|(name, _)| *name));
    let (changes, count) = diff(files, &args);
    assert_eq!(changes, expected, "{from}..{to}");
    assert!(count.starts_with(&format!("{} of ", expected.len())), "{count}");
}

#[test]
fn only_the_changes_that_touch_the_inputs() {
    // An API a manifest uses, and the new version of its kind.
    check(
        "1.20",
        "1.26",
        &[("pdb.yaml", PDB)],
        &[
            "removed 1.25 policy/v1beta1/PodDisruptionBudget",
            "deprecated 1.21 policy/v1beta1/PodDisruptionBudget",
            "new 1.21 policy/v1/PodDisruptionBudget",
        ],
    );
    check(
        "1.28",
        "1.33",
        &[("fs.yaml", FLOW_SCHEMA)],
        &[
            "removed 1.32 flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
            "deprecated 1.29 flowcontrol.apiserver.k8s.io/v1beta3/FlowSchema",
            "new 1.29 flowcontrol.apiserver.k8s.io/v1/FlowSchema",
        ],
    );
    // A gate a setting sets.
    check(
        "1.30",
        "1.34",
        &[("kind.yaml", KIND)],
        &[
            "removed 1.34 PodDisruptionConditions",
            "locked 1.31 PodDisruptionConditions",
            "stage-changed 1.31 PodDisruptionConditions",
        ],
    );
    // Nothing changed for what the inputs use.
    check("1.30", "1.34", &[("web.yaml", DEPLOYMENT)], &[]);
}

#[test]
fn a_directory_and_kompat_toml_name_the_inputs() {
    let files = [("deploy/pdb.yaml", PDB), ("deploy/kind.yaml", KIND), ("kompat.toml", "decls = [\"deploy\"]\n")];
    let (by_dir, count) = diff(&files, &["1.24", "1.25", "deploy"]);
    assert_eq!(by_dir, ["added 1.25 PodDisruptionConditions", "removed 1.25 policy/v1beta1/PodDisruptionBudget"]);
    assert!(count.starts_with("2 of "), "{count}");
    let (by_config, _) = diff(&files, &["1.24", "1.25", "--config", "kompat.toml"]);
    assert_eq!(by_config, by_dir);
    // kompat.toml is read only when named.
    let dir = dir_with(&files);
    let (_, stdout, _) = kompat_in(dir.path(), &["diff", "1.24", "1.25", "--format", "json"]);
    assert!(!stdout.contains("touch the inputs"), "{stdout}");
}

/// The project's declarations: the gates its settings set.
#[test]
fn declarations_filtered_by_settings() {
    let decls = r#"
[[feature]]
name = "Zeta"
specs = [{ version = "1.2", stage = "Alpha", default = false }, { version = "1.4", stage = "Beta", default = true }]

[[feature]]
name = "Other"
specs = [{ version = "1.2", stage = "Alpha", default = false }, { version = "1.3", stage = "Beta", default = true }]
"#;
    let files = [("d.toml", decls), ("run.sh", "#!/bin/sh\nexec widget-server --feature-gates=Zeta=true\n")];
    let (changes, count) = diff(&files, &["1.1", "1.4", "--decls", "d.toml", "run.sh"]);
    assert_eq!(changes, ["default-on 1.4 Zeta", "stage-changed 1.4 Zeta", "added 1.2 Zeta"]);
    assert_eq!(count, "3 of 6");
}

#[test]
fn the_note_in_human_and_markdown() {
    let dir = dir_with(&[("pdb.yaml", PDB)]);
    let (code, human, stderr) = kompat_in(dir.path(), &["diff", "1.24", "1.25", "pdb.yaml"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(human.starts_with("Changes from Kubernetes 1.24 to 1.25\n\nAPIs no longer served:\n  1.25  policy/v1beta1/PodDisruptionBudget  use policy/v1/PodDisruptionBudget\n"), "{human}");
    assert!(human.contains("\nnote: 1 of "), "{human}");
    let (_, markdown, _) = kompat_in(dir.path(), &["diff", "1.24", "1.25", "pdb.yaml", "--format", "markdown"]);
    assert!(markdown.contains("> **Note:** 1 of "), "{markdown}");
    let (code, _, stderr) = kompat_in(dir.path(), &["diff", "1.24", "1.25", "missing.yaml"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.yaml"), "{stderr}");
}
