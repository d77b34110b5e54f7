//! `kompat lint` over the real declaration sets in `../shared/data`:
//! Kubernetes 1.37-dev (kubernetes window profile) and Kueue 0.20-dev.
//!
//! The lists pass Kubernetes' own checks, so kompat must find no error in
//! them; warnings (gates due for clean-up) are fine. Without the shared data
//! these tests say so and return.

use std::path::{Path, PathBuf};
use std::process::Command;

fn shared(rel: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data").join(rel);
    if path.is_file() {
        Some(path)
    } else {
        eprintln!(
            "skipping: {} not found: this test reads the real Kubernetes and Kueue declaration sets from `shared/data` beside the clone (CONTRIBUTING.md), and checks nothing without them",
            path.display()
        );
        None
    }
}

fn lint(args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .arg("lint")
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("run kompat");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}: {stdout}{stderr}"));
    (out.status.code().unwrap_or(-1), report, stderr)
}

/// Codes a finding may have in a release's own list.
const EXPECTED_WARNINGS: [&str; 1] = ["locked-gate-cleanup"];

#[test]
fn kubernetes_1_37_has_no_errors() {
    let Some(path) = shared("kubernetes/versioned_feature_list.yaml") else { return };
    let path = path.to_str().expect("utf-8 path");
    // (The list alone has no baseline and no Go sources: the notes saying so
    // are left out.)
    let (code, report, stderr) =
        lint(&[path, "--binary-version", "1.37", "--profile", "kubernetes", "-A", "missing-input"]);
    assert_eq!(code, 0, "{report:#}{stderr}");
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
    for d in diagnostics {
        let code = d["code"].as_str().unwrap_or_default();
        assert!(EXPECTED_WARNINGS.contains(&code), "unexpected finding: {d:#}");
        // Every finding points into the list.
        assert!(d["line"].as_u64().is_some_and(|l| l > 0), "{d:#}");
        assert!(d["subject"].is_string(), "{d:#}");
    }
    // The clean-up warnings are exactly the gates Kubernetes' clean-up script
    // flags: a spec locked to its default at 1.32 or earlier.
    let text = std::fs::read_to_string(path).expect("read data");
    let parsed = kompat_formats::parse_k8s_yaml(&text).expect("parse data");
    let mut due: Vec<&str> = parsed
        .features()
        .iter()
        .filter(|f| {
            f.specs.iter().any(|s| s.lock_to_default && s.version.as_ref().is_some_and(|v| v.major_minor().minor <= 32))
        })
        .map(|f| f.name.as_str())
        .collect();
    due.sort_unstable();
    let mut flagged: Vec<&str> = diagnostics.iter().filter_map(|d| d["subject"].as_str()).collect();
    flagged.sort_unstable();
    flagged.dedup();
    assert_eq!(flagged, due);
}

#[test]
fn kubernetes_1_37_is_its_own_baseline() {
    let Some(path) = shared("kubernetes/versioned_feature_list.yaml") else { return };
    let path = path.to_str().expect("utf-8 path");
    let args = [path, "--baseline", path, "--binary-version", "1.37", "--profile", "kubernetes"];
    let (code, report, stderr) = lint(&args);
    assert_eq!(code, 0, "{report:#}{stderr}");
    assert_eq!(report["summary"]["errors"], 0, "{report:#}");
}

#[test]
fn kueue_0_20_has_no_errors() {
    let Some(path) = shared("kueue/versioned_feature_list.yaml") else { return };
    let path = path.to_str().expect("utf-8 path");
    for baseline in [None, Some(path)] {
        let mut args = vec![path, "--binary-version", "0.20", "--profile", "default"];
        args.extend(baseline.map(|b| ["--baseline", b]).into_iter().flatten());
        let (code, report, stderr) = lint(&args);
        assert_eq!(code, 0, "{report:#}{stderr}");
        assert_eq!(report["summary"]["errors"], 0, "{report:#}");
    }
}
