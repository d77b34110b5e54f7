//! The built-in Kubernetes feature table (`crates/kompat-k8s/data/features.toml`) is
//! exactly `kompat export --format toml` of Kubernetes' own
//! `versioned_feature_list.yaml` in `../shared/data` (1.37-dev): a freshness
//! check of the committed facts.
//!
//! This test needs the shared data beside the repository; without it, it says
//! so and passes without checking anything.

use std::path::Path;
use std::process::Command;

#[test]
fn builtin_features_are_the_export_of_the_kubernetes_list() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/kubernetes/versioned_feature_list.yaml");
    if !path.is_file() {
        eprintln!(
            "skipping: {} not found: this test reads the real Kubernetes and Kueue declaration sets from `shared/data` beside the clone (CONTRIBUTING.md), and checks nothing without them",
            path.display()
        );
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_kompat"))
        .args(["export", "--format", "toml", "--decls"])
        .arg(&path)
        .output()
        .expect("run kompat");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout) == kompat_k8s::FEATURES_TOML,
        "crates/kompat-k8s/data/features.toml is stale: run scripts/gen-k8s-features {}",
        path.display()
    );
}
