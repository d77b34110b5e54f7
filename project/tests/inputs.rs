//! The one input classification: which files of a directory count and what
//! each input is, with every file read once and I/O errors reported.

use std::path::Path;

use kompat_project::inputs::classify;

const FEATURES: &str = "- name: A\n  versionedSpecs:\n  - default: false\n    lockToDefault: false\n    preRelease: Alpha\n    version: \"1.30\"\n";
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n";
const POD: &str = "spec:\n  containers:\n  - args: [--feature-gates=A=true]\n";

/// Writes `files` into a fresh directory, classifies `named` (the directory
/// itself when `None`) and lists each input as `path kind [named]`.
#[track_caller]
fn check(files: &[(&str, &str)], named: Option<&str>, expected: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
    }
    let path = named.map_or_else(|| dir.path().to_owned(), |n| dir.path().join(n));
    let inputs = classify(&[path]).unwrap_or_else(|err| panic!("{err}"));
    let got: Vec<String> = inputs
        .inputs
        .iter()
        .map(|i| {
            let rel = i.source.path.strip_prefix(dir.path()).unwrap_or(Path::new("?"));
            format!("{} {:?}{}", rel.display(), i.kind, if i.named { " named" } else { "" })
        })
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn directories() {
    check(
        &[
            ("Cargo.toml", "[package]\nname = \"x\"\n"),
            ("Dockerfile", "CMD [\"x\"]\n"),
            ("apis.toml", "[[api]]\n"),
            ("broken.toml", "[[feature]\n"),
            ("clippy.toml", "not toml ["),
            ("crd.yaml", CRD),
            ("crd.features.yaml", CRD),
            ("features.toml", "[[feature]]\nname = \"A\"\nspecs = []\n"),
            ("image.png", "\u{1}"),
            ("list.yaml", FEATURES),
            ("notes.md", "Run `x --feature-gates=A=true`.\n"),
            ("pod.yaml", POD),
            ("run.sh", "x\n"),
            ("src/lib.rs", "fn f() {}\n"),
            ("versioned_feature_list.yaml", FEATURES),
            ("x.features.yml", FEATURES),
        ],
        None,
        &[
            "Dockerfile Deployment",
            "apis.toml KompatToml",
            "broken.toml KompatToml",
            "crd.features.yaml CrdManifest",
            "crd.yaml CrdManifest",
            "features.toml KompatToml",
            "notes.md Deployment",
            "pod.yaml Deployment",
            "run.sh Deployment",
            "src/lib.rs Rust",
            "versioned_feature_list.yaml FeatureList",
            "x.features.yml FeatureList",
        ],
    );
}

#[test]
fn named_files() {
    let cases: [(&str, &str, &str); 9] = [
        ("list.yaml", FEATURES, "list.yaml FeatureList named"),
        ("pod.yaml", POD, "pod.yaml Deployment named"),
        // Not YAML at all: reported as a malformed feature list.
        ("broken.yaml", "a: [b\n", "broken.yaml FeatureList named"),
        ("empty.yaml", "[]\n", "empty.yaml Deployment named"),
        ("crd.yml", CRD, "crd.yml CrdManifest named"),
        ("Cargo.toml", "[package]\n", "Cargo.toml KompatToml named"),
        ("main.rs", "fn main() {}\n", "main.rs Rust named"),
        ("run.sh", "x\n", "run.sh Deployment named"),
        ("notes.txt", "x\n", "notes.txt Other named"),
    ];
    for (name, text, expected) in cases {
        check(&[(name, text)], Some(name), &[expected]);
    }
}

#[test]
fn io_errors_are_reported_with_their_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.yaml");
    let not_utf8 = dir.path().join("run.sh");
    std::fs::write(&not_utf8, [0xff, 0xfe]).expect("write");
    let err = match classify(&[missing.clone(), dir.path().to_owned()]) {
        Ok(inputs) => panic!("expected errors, got {} inputs", inputs.inputs.len()),
        Err(err) => err,
    };
    let got: Vec<(Option<&Path>, bool)> = err
        .diagnostics
        .iter()
        .map(|f| (f.location.as_ref().map(|l| l.path()), f.message.contains("missing.yaml")))
        .collect();
    assert_eq!(got, [(Some(missing.as_path()), true), (Some(not_utf8.as_path()), false)], "{err}");
}
