//! End-to-end checks over the real declaration sets in `../shared/data`
//! (Kubernetes 1.37-dev, 243 features; Kueue 0.20-dev, 114 features).
//!
//! These tests need the shared data beside the repository; without it they
//! say so and pass without checking anything.

use std::path::{Path, PathBuf};
use std::process::Command;

use kompat_engine::validate;
use kompat_runtime::{spec_at, FeatureGate, Stage, Version, WindowPolicy};

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

fn kompat(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kompat")).args(args).output().expect("run kompat");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const DATA_SETS: [(&str, &str, WindowPolicy); 2] = [
    ("kubernetes/versioned_feature_list.yaml", "1.37", WindowPolicy::KUBERNETES),
    ("kueue/versioned_feature_list.yaml", "0.20", WindowPolicy::DEFAULT),
];

#[test]
fn export_reproduces_the_yaml_byte_for_byte() {
    for (rel, _, _) in DATA_SETS {
        let Some(path) = shared(rel) else { return };
        let original = std::fs::read_to_string(&path).expect("read data");
        let (code, stdout, stderr) = kompat(&["export", "--decls", path.to_str().unwrap(), "--format", "k8s-yaml"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout == original, "export of {rel} differs from the original");
    }
}

#[test]
fn yaml_and_equivalent_toml_agree() {
    for (rel, binary, policy) in DATA_SETS {
        let Some(path) = shared(rel) else { return };
        let text = std::fs::read_to_string(&path).expect("read data");
        let parsed = kompat_formats::parse_k8s_yaml(&text).expect("parse data");
        let dir = tempfile::tempdir().expect("tempdir");
        let toml_path = dir.path().join("features.toml");
        std::fs::write(&toml_path, kompat_formats::render_toml(parsed.features())).expect("write toml");

        // From TOML, the YAML comes out byte for byte.
        let (code, stdout, stderr) =
            kompat(&["export", "--decls", toml_path.to_str().unwrap(), "--format", "k8s-yaml"]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout == text, "k8s-yaml from the TOML form of {rel} differs");

        // Both inputs resolve identically at every emulation version in the window.
        let binary = Version::parse(binary).unwrap();
        for emu in policy.emulation_versions(binary) {
            let emu = emu.to_string();
            let args = |p: &Path| {
                vec![
                    "features".to_owned(),
                    "--decls".to_owned(),
                    p.to_str().unwrap().to_owned(),
                    "--emulation-version".to_owned(),
                    emu.clone(),
                    "--format".to_owned(),
                    "json".to_owned(),
                ]
            };
            let run = |p: &Path| {
                let a = args(p);
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                kompat(&a)
            };
            let (c1, yaml_json, e1) = run(&path);
            let (c2, toml_json, e2) = run(&toml_path);
            assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
            assert_eq!(yaml_json, toml_json, "{rel} at {emu}");
        }
    }
}

#[test]
fn real_data_is_internally_consistent() {
    for (rel, binary, policy) in DATA_SETS {
        let Some(path) = shared(rel) else { return };
        let text = std::fs::read_to_string(&path).expect("read data");
        let parsed = kompat_formats::parse_k8s_yaml(&text).expect("parse data");
        let validated = validate(parsed.features());
        assert!(validated.problems.is_empty(), "{rel}: {:?}", validated.problems);
        let set = std::sync::Arc::new(validated.set);
        let binary = Version::parse(binary).unwrap();
        for emu in policy.emulation_versions(binary) {
            for mc in policy.floor_for(binary).range_to(emu) {
                let gate = FeatureGate::new(set.clone(), emu, Some(mc));
                for (idx, feature) in set.features().iter().enumerate() {
                    let state = gate.state(idx);
                    // The resolved spec is the newest applicable declared one.
                    let applicable: Vec<_> = feature
                        .specs
                        .iter()
                        .filter(|s| s.version <= emu && s.min_compatibility_version.is_none_or(|m| m <= mc))
                        .collect();
                    match applicable.last() {
                        Some(spec) => assert_eq!(**spec, state.spec, "{} at ({emu}, {mc})", feature.name),
                        None => assert_eq!(state.spec.stage, Stage::PreAlpha, "{} at ({emu}, {mc})", feature.name),
                    }
                    assert_eq!(state.enabled, state.spec.default);
                    // Setting a gate to its own default is always accepted unless it does not exist yet.
                    let mut probe = gate.clone();
                    let result = probe.set(&format!("{}={}", feature.name, state.spec.default));
                    assert_eq!(result.is_ok(), state.spec.stage != Stage::PreAlpha, "{} at {emu}", feature.name);
                    // A locked gate refuses the other value.
                    if state.spec.lock_to_default {
                        let mut probe = gate.clone();
                        assert!(probe.set(&format!("{}={}", feature.name, !state.spec.default)).is_err());
                    }
                }
            }
        }
    }
}

/// The worked examples in the reference, through the binary.
#[test]
fn worked_examples() {
    let Some(path) = shared("kubernetes/versioned_feature_list.yaml") else { return };
    let cases = [
        ("WatchList", "1.26", None, "PreAlpha", false),
        ("WatchList", "1.27", None, "Alpha", false),
        ("WatchList", "1.32", None, "Beta", true),
        ("WatchList", "1.33", None, "Beta", false),
        ("WatchList", "1.34", None, "Beta", true),
        ("KMSv1", "1.27", None, "GA", true),
        ("KMSv1", "1.28", None, "Deprecated", true),
        ("KMSv1", "1.29", None, "Deprecated", false),
        ("DRAFractionalCapacityRange", "1.36", None, "PreAlpha", false),
        ("DRAFractionalCapacityRange", "1.37", Some("1.36"), "Beta", false),
        ("DRAFractionalCapacityRange", "1.37", Some("1.37"), "Beta", true),
    ];
    for (name, emu, mc, stage, default) in cases {
        let mut args =
            vec!["features", "--decls", path.to_str().unwrap(), "--emulation-version", emu, "--format", "json"];
        if let Some(mc) = mc {
            args.extend(["--min-compatibility-version", mc]);
        }
        let (code, stdout, stderr) = kompat(&args);
        assert_eq!(code, 0, "{stderr}");
        let rows: serde_json::Value = serde_json::from_str(&stdout).expect("json");
        let row = rows.as_array().unwrap().iter().find(|r| r["name"] == name).expect("feature listed");
        assert_eq!(row["stage"], stage, "{name} at ({emu}, {mc:?})");
        assert_eq!(row["default"], default, "{name} at ({emu}, {mc:?})");
    }
    // The same through the model.
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed = kompat_formats::parse_k8s_yaml(&text).unwrap();
    let set = validate(parsed.features()).set;
    let dra = set.get("DRAFractionalCapacityRange").unwrap();
    let v = |s| Version::parse(s).unwrap();
    assert!(spec_at(&dra.specs, v("1.37"), Some(v("1.37"))).default);
    assert!(!spec_at(&dra.specs, v("1.37"), None).default);
}
