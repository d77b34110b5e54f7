//! `fixtures/components/`: a controller's repository in the shape of issue
//! 27: a kind cluster setting Kubernetes' gates, a Deployment running the
//! project's container and a CSI sidecar with gates of its own, flags in
//! comments. Each setting is judged against its component's gates: nothing
//! false is reported, and one note names the component not judged.

use std::path::{Path, PathBuf};

use crate::common::kompat_in;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/components")
}

/// The codes and messages of `kompat lint` run with `args` in the fixture.
fn lint(args: &[&str]) -> (i32, Vec<(String, String)>) {
    let (code, stdout, stderr) = kompat_in(&root(), &[&["lint"], args, &["--format", "json"]].concat());
    let report: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}\n{stdout}{stderr}"));
    let found = report["diagnostics"]
        .as_array()
        .map(|d| {
            d.iter()
                .map(|d| {
                    (
                        d["code"].as_str().unwrap_or_default().to_owned(),
                        d["message"].as_str().unwrap_or_default().to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    (code, found)
}

#[test]
fn each_setting_is_judged_against_its_component() {
    let (code, found) = lint(&["hack/kind.yaml", "deploy", "features.toml"]);
    assert_eq!(code, 0, "{found:?}");
    let settings: Vec<_> = found.iter().filter(|(code, _)| code.ends_with("-gate-setting")).collect();
    assert!(settings.is_empty(), "{settings:?}");
    let notes: Vec<_> = found.iter().filter(|(_, m)| m.contains("other components")).collect();
    assert_eq!(notes.len(), 1, "{found:?}");
    assert!(notes[0].1.contains("`csi-provisioner`"), "{notes:?}");
    assert_eq!(notes[0].0, "missing-input");
}

#[test]
fn kubernetes_settings_are_still_checked_against_kubernetes_gates() {
    let (code, found) = lint(&["hack/kind-typo.yaml", "features.toml"]);
    assert_eq!(code, 1, "{found:?}");
    let unknown: Vec<_> = found.iter().filter(|(code, _)| code == "unknown-gate-setting").collect();
    assert_eq!(unknown.len(), 1, "{found:?}");
    assert!(unknown[0].1.contains("InPlacePodVerticalScaling"), "{unknown:?}");
    assert!(unknown[0].1.contains("a 1.33 component"), "{unknown:?}");
}

#[test]
fn project_settings_are_checked_against_the_project_gates() {
    let (code, found) = lint(&["deploy", "features.toml", "--binary-version", "1.0"]);
    assert_eq!(code, 1, "{found:?}");
    let unknown: Vec<_> = found.iter().filter(|(code, _)| code.ends_with("-gate-setting")).collect();
    // WidgetCache is not declared at 1.0: the container's and the script's
    // settings, not the sidecar's nor the comments'.
    assert_eq!(unknown.len(), 2, "{found:?}");
    assert!(unknown.iter().all(|(_, m)| m.contains("WidgetCache")), "{unknown:?}");
}
