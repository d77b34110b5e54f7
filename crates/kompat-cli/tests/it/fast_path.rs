//! The manifests' fast path end to end: `kompat lint` prints the same bytes
//! (JSON, SARIF, the people's report) and exits the same with every document
//! skimmed where it can be as with every document parsed
//! (`KOMPAT_FULL_PARSE`), on every fixture directory and on the synthetic
//! manifest tree of `scripts/gen-manifest-tree`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// (exit code, stdout, stderr) of `kompat lint ARGS` in `dir`, every
/// document parsed when `full`.
fn lint(dir: &Path, args: &[&str], full: bool) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kompat"));
    command.current_dir(dir).env("NO_COLOR", "1").env_remove("KOMPAT_FULL_PARSE").arg("lint").args(args);
    if full {
        command.env("KOMPAT_FULL_PARSE", "1");
    }
    let out = command.output().expect("run kompat");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[track_caller]
fn same_both_ways(dir: &Path, args: &[&str]) {
    let fast = lint(dir, args, false);
    let full = lint(dir, args, true);
    assert_eq!(fast, full, "kompat lint {args:?} in {}", dir.display());
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every directory below `fixtures/`, two levels down.
fn fixture_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let list = |dir: &Path| -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|e| e.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect())
            .unwrap_or_default();
        found.sort();
        found
    };
    for dir in list(&repo().join("fixtures")) {
        dirs.extend(list(&dir));
        dirs.push(dir);
    }
    dirs
}

#[test]
fn every_fixture_lints_the_same_both_ways() {
    let dirs = fixture_dirs();
    assert!(dirs.len() > 50, "{} fixture directories", dirs.len());
    for dir in &dirs {
        same_both_ways(dir, &["--kubernetes-version", "1.30", "--format", "json", "."]);
    }
    for dir in ["fixtures/cluster", "fixtures/crd", "fixtures/components", "fixtures/operator"] {
        let dir = repo().join(dir);
        same_both_ways(&dir, &["--kubernetes-version", "1.34", "--format", "sarif", "."]);
        same_both_ways(&dir, &["--kubernetes-version", "1.34", "."]);
    }
}

/// The synthetic tree of the manifests' benchmark, at a small scale (when
/// Python is there to write it).
#[test]
fn the_synthetic_tree_lints_the_same_both_ways() {
    let dir = std::env::temp_dir().join(format!("kompat-fast-path-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let script = repo().join("scripts/gen-manifest-tree");
    let Ok(status) = Command::new("python3").arg(&script).arg(&dir).arg("0.05").status() else {
        eprintln!("python3 is not installed: the synthetic tree is not checked");
        return;
    };
    assert!(status.success(), "{} failed", script.display());
    for format in ["json", "sarif", "human"] {
        same_both_ways(&dir, &["--kubernetes-version", "1.34", "--format", format, "."]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// CRDs that several files repeat, large enough to be read once and copied
/// (an install bundle and the CRD's own file), among other documents and
/// at other offsets: the same findings, located in each file.
#[test]
fn repeated_crds_lint_the_same_both_ways() {
    let dir = std::env::temp_dir().join(format!("kompat-fast-path-crds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut crd = String::from(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com\n  names:\n    kind: Widget\n    plural: widgets\n  scope: Namespaced\n  versions:\n  - name: v1beta1\n    served: true\n    storage: false\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n",
    );
    for i in 0..600 {
        crd.push_str(&format!("          field{i}:\n            type: string\n            description: Field {i}.\n"));
    }
    let deployment = "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: web\n";
    let widget = "apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w\n";
    let files = [
        ("crd.yaml", crd.clone()),
        ("install.yaml", format!("{deployment}---\n{crd}---\n{widget}")),
        ("namespace-install.yaml", format!("{widget}---\n{deployment}---\n{deployment}---\n{crd}")),
    ];
    for (name, text) in &files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    for format in ["json", "human"] {
        same_both_ways(&dir, &["--kubernetes-version", "1.34", "--format", format, "."]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
