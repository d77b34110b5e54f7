//! `kompat features` and `kompat export` end to end: outputs, exit codes and
//! error messages, on the demo fixture and small inputs written here.

use std::path::{Path, PathBuf};

use crate::common::kompat_in;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Writes `files` into a fresh directory, runs kompat there, and checks the
/// exit code and that stdout (on success) or stderr (on failure) matches.
#[track_caller]
fn check(files: &[(&str, &str)], args: &[&str], code: i32, expected: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write input");
    }
    let (got_code, stdout, stderr) = kompat_in(dir.path(), args);
    let got = if got_code == 0 { stdout } else { stderr.clone() };
    assert_eq!(got_code, code, "args {args:?}\nstderr:\n{stderr}");
    assert_eq!(got.trim_end(), expected.trim(), "args {args:?}");
}

const SMALL: &str = r#"
[[feature]]
name = "Zeta"
specs = [
  { version = "1.30", stage = "Alpha", default = false },
  { version = "1.32", stage = "Beta", default = true },
]

[[feature]]
name = "alpha"
specs = [{ version = "1.0", stage = "GA", default = true }, { version = "1.31", stage = "GA", default = true, lockToDefault = true }]
"#;

#[test]
fn features_json_is_sorted_and_complete() {
    check(
        &[("f.toml", SMALL)],
        &["features", "--decls", "f.toml", "--emulation-version", "1.29", "--format", "json"],
        0,
        r#"
[
  {
    "name": "Zeta",
    "stage": "PreAlpha",
    "default": false,
    "locked": false,
    "enabled": false
  },
  {
    "name": "alpha",
    "stage": "GA",
    "default": true,
    "locked": false,
    "enabled": true
  }
]"#,
    );
}

#[test]
fn features_table_with_gates_set() {
    check(
        &[("f.toml", SMALL)],
        &["features", "--decls", "f.toml", "--emulation-version", "1.32", "--feature-gates", "Zeta=false"],
        0,
        "
NAME   STAGE  DEFAULT  LOCKED  ENABLED
Zeta   Beta   true     false   false
alpha  GA     true     true    true",
    );
}

#[test]
fn feature_gate_errors_exit_2_with_kubernetes_messages() {
    let base = ["features", "--decls", "f.toml", "--emulation-version", "1.31", "--feature-gates"];
    let run = |gates: &str, expected: &str| {
        let mut args = base.to_vec();
        args.push(gates);
        check(&[("f.toml", SMALL)], &args, 2, expected);
    };
    run("Nope=true", "error: unrecognized feature gate: Nope");
    run("alpha=false", "error: cannot set feature gate alpha to false, feature is locked to true");
    run("Zeta", "error: missing bool value for Zeta");
    run("Zeta=yes", "error: invalid value of Zeta=yes, err: strconv.ParseBool: parsing \"yes\": invalid syntax");
    check(
        &[("f.toml", SMALL)],
        &["features", "--decls", "f.toml", "--emulation-version", "1.29", "--feature-gates", "Zeta=true"],
        2,
        "error: cannot set feature gate Zeta to true, feature is PreAlpha at emulated version 1.29, min compatibility version 1.28",
    );
}

#[test]
fn version_window() {
    let args = |emu: &'static str, mc: Option<&'static str>| {
        let mut a = vec!["features", "--decls", "f.toml", "--binary-version", "1.35", "--emulation-version", emu];
        if let Some(mc) = mc {
            a.extend(["--min-compatibility-version", mc]);
        }
        a.extend(["--format", "json"]);
        a
    };
    check(&[("f.toml", SMALL)], &args("1.31", None), 2, "error: emulation version 1.31 is not between [1.32, 1.35.0]\nerror: minCompatibilityVersion version 1.32 is not between [1.32, 1.31]");
    check(&[("f.toml", SMALL)], &args("1.36", None), 2, "error: emulation version 1.36 is not between [1.32, 1.35.0]");
    check(
        &[("f.toml", SMALL)],
        &args("1.34", Some("1.35")),
        2,
        "error: minCompatibilityVersion version 1.35 is not between [1.32, 1.34]",
    );
    check(&[("f.toml", SMALL)], &args("v1.34.0", None), 0, &kompat_ok(&args("1.34", None)));
    check(
        &[("f.toml", SMALL)],
        &args("1.34.1", None),
        2,
        "error: invalid value for --emulation-version: invalid version \"1.34.1\": patch version not allowed",
    );
}

fn kompat_ok(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.toml"), SMALL).unwrap();
    let (code, stdout, stderr) = kompat_in(dir.path(), args);
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn config_supplies_binary_version_and_decls() {
    let config = "binary_version = \"1.35\"\ndecls = [\"f.toml\"]\n";
    check(
        &[("f.toml", SMALL), ("kompat.toml", config)],
        &["features", "--emulation-version", "1.31", "--format", "json"],
        2,
        "error: emulation version 1.31 is not between [1.32, 1.35.0]\nerror: minCompatibilityVersion version 1.32 is not between [1.32, 1.31]",
    );
    let expected = kompat_ok(&["features", "--decls", "f.toml", "--emulation-version", "1.35", "--format", "json"]);
    check(&[("f.toml", SMALL), ("kompat.toml", config)], &["features", "--format", "json"], 0, &expected);
}

#[test]
fn registration_errors_are_located() {
    let bad = r#"[[feature]]
name = "Backwards"
specs = [
  { version = "1.31", stage = "Beta", default = false },
  { version = "1.30", stage = "GA", default = true },
]
"#;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();
    let (code, stdout, stderr) = kompat_in(dir.path(), &["export", "--decls", "bad.toml", "--format", "k8s-yaml"]);
    assert_eq!(code, 2);
    assert_eq!(stdout, "", "nothing is printed on error");
    assert!(
        stderr.starts_with("error: feature \"Backwards\" lists version transitions in decreasing order (1.30 < 1.31)"),
        "{stderr}"
    );
    assert!(stderr.contains("bad.toml:5:"), "names the file and line: {stderr}");
}

#[test]
fn malformed_inputs_exit_2_naming_the_file() {
    let cases: [(&str, &str, &str); 4] = [
        (
            "f.toml",
            "[[feature]]\nname = \"A\"\nspecs = [{ version = \"1.x\", stage = \"Alpha\", default = false }]\n",
            "f.toml:3:",
        ),
        ("f.toml", "[[feature]\n", "f.toml:1:"),
        ("f.yaml", "- name: A\n  versionedSpecs:\n  - default: maybe\n", "f.yaml:3:"),
        ("f.json", "{}", "f.json"),
    ];
    for (name, text, location) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), text).unwrap();
        let (code, stdout, stderr) =
            kompat_in(dir.path(), &["features", "--decls", name, "--emulation-version", "1.31"]);
        assert_eq!(code, 2, "{name}: {text}\n{stderr}");
        assert_eq!(stdout, "");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(stderr.contains(location), "{location} in {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let (code, _, stderr) =
        kompat_in(&fixtures(), &["features", "--decls", "missing.toml", "--emulation-version", "1.31"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: cannot read missing.toml"), "{stderr}");
    let (code, _, stderr) =
        kompat_in(&fixtures(), &["features", "--emulation-version", "1.31", "--config", "nope.toml"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nope.toml"), "{stderr}");
}

#[test]
fn export_json() {
    check(
        &[("f.toml", SMALL)],
        &["export", "--decls", "f.toml", "--format", "json"],
        0,
        r#"
{
  "features": [
    {
      "name": "Zeta",
      "dependencies": [],
      "specs": [
        {
          "version": "1.30",
          "stage": "Alpha",
          "default": false,
          "lockToDefault": false
        },
        {
          "version": "1.32",
          "stage": "Beta",
          "default": true,
          "lockToDefault": false
        }
      ]
    },
    {
      "name": "alpha",
      "dependencies": [],
      "specs": [
        {
          "version": "1.0",
          "stage": "GA",
          "default": true,
          "lockToDefault": false
        },
        {
          "version": "1.31",
          "stage": "GA",
          "default": true,
          "lockToDefault": true
        }
      ]
    }
  ]
}"#,
    );
}

#[test]
fn export_k8s_yaml_sorts_case_insensitively() {
    check(
        &[("f.toml", SMALL)],
        &["export", "--decls", "f.toml", "--format", "k8s-yaml"],
        0,
        r#"
# This file is generated by compatibility_lifecycle tool.
# Do not edit manually. Run hack/update-featuregates.sh to regenerate.

- name: alpha
  versionedSpecs:
  - default: true
    lockToDefault: false
    preRelease: GA
    version: "1.0"
  - default: true
    lockToDefault: true
    preRelease: GA
    version: "1.31"
- name: Zeta
  versionedSpecs:
  - default: false
    lockToDefault: false
    preRelease: Alpha
    version: "1.30"
  - default: true
    lockToDefault: false
    preRelease: Beta
    version: "1.32""#,
    );
}

#[test]
fn demo_fixture_runs() {
    let (code, stdout, stderr) = kompat_in(
        &fixtures(),
        &["features", "--config", "kompat.toml", "--emulation-version", "1.36", "--format", "table"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("NAME"), "{stdout}");
    assert!(stdout.contains("WidgetStatusV2"), "{stdout}");
}

/// A directory given to `--decls` contributes its Rust `#[derive(FeatureGates)]` enums;
/// one the derive rejects is an error, with the derive's message at its span.
#[test]
fn rust_sources_are_declarations() {
    let rust = r#"//! Gates.
use kompat::FeatureGates;

#[derive(Clone, Copy, FeatureGates)]
pub enum Feature {
    #[kompat(name = "KMSv1")]
    #[kompat(spec(version = "1.0", stage = "GA", default = true))]
    #[kompat(spec(version = "1.28", stage = "Deprecated", default = true))]
    #[kompat(spec(version = "1.29", stage = "Deprecated", default = false))]
    KmsV1,
}
"#;
    let dir = crate::common::dir_with(&[("src/gates.rs", rust)]);
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["features", "--decls", "src", "--emulation-version", "1.28", "--format", "table"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "NAME   STAGE       DEFAULT  LOCKED  ENABLED\nKMSv1  Deprecated  true     false   true\n");
    let bad = rust.replace("version = \"1.29\"", "version = \"1.27\"");
    let dir = crate::common::dir_with(&[("src/gates.rs", &bad)]);
    let (code, _, stderr) = kompat_in(dir.path(), &["export", "--decls", "src/gates.rs", "--format", "k8s-yaml"]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: feature \"KMSv1\" lists version transitions in decreasing order (1.27 < 1.28)"),
        "{stderr}"
    );
    // Where the derive reports it: the version that decreases.
    assert!(stderr.contains("src/gates.rs:9:29"), "{stderr}");
}

/// The text of every `<text>` element of an SVG document, in order.
fn svg_texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|err| panic!("not XML ({err}):\n{svg}"));
    assert_eq!(doc.root_element().attribute("role"), Some("img"));
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or_default().to_owned()).collect()
}

/// The cells of `gate`'s row: the texts after its label, up to the next
/// label (cells are `stage default`, then a `locked`/`set` note if any).
fn row<'a>(texts: &'a [String], gate: &str, next: &str) -> &'a [String] {
    let start = texts.iter().position(|t| t == gate).unwrap_or_else(|| panic!("no {gate} in {texts:?}"));
    let end = texts[start..].iter().position(|t| t == next).map_or(texts.len(), |n| start + n);
    &texts[start + 1..end]
}

#[test]
fn features_svg_is_a_timeline_of_the_resolved_gates() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("features.toml"), SMALL).expect("write");
    let args = [
        "features",
        "--decls",
        "features.toml",
        "--binary-version",
        "1.33",
        "--emulation-version",
        "1.32",
        "--feature-gates",
        "Zeta=false",
        "--format",
        "svg",
    ];
    let (code, stdout, stderr) = kompat_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    let texts = svg_texts(&stdout);
    assert_eq!(texts[0], "Feature gates at emulation version 1.32 (min-compatibility 1.31)");
    // Columns 1.0 (summed up as ≤1.24) to the binary version, the window 1.30–1.33 shaded.
    assert!(texts.contains(&"emulation window 1.30–1.33".to_owned()), "{texts:?}");
    assert!(texts.contains(&"≤1.24".to_owned()) && texts.contains(&"1.33".to_owned()), "{texts:?}");
    // Rows in byte order: Zeta before alpha. Zeta is switched off at 1.32 (set), on by default at 1.33.
    assert_eq!(
        row(&texts, "Zeta", "alpha"),
        ["α off", "α off", "β off", "set", "β on"].map(str::to_owned),
        "{texts:?}"
    );
    let alpha = row(&texts, "alpha", "α off");
    assert_eq!(alpha.iter().filter(|t| *t == "locked").count(), 3, "{alpha:?}");
    // Deterministic bytes.
    assert_eq!(kompat_in(dir.path(), &args).1, stdout);
}
