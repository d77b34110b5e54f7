//! `kompat apis`, `kompat storage` and `kompat hash` end to end: the
//! contract's JSON shapes, Kubernetes' error texts and exit codes.

use crate::common::kompat_in;

const APIS: &str = r#"
[[api]]
group = ""
version = "v1"
kind = "Pod"
resource = "pods"
introduced = "1.0"

[[api]]
group = "batch"
version = "v1beta1"
kind = "CronJob"
resource = "cronjobs"
introduced = "1.8"
deprecated = "1.21"
removed = "1.25"
replacement = "batch/v1/CronJob"
enabled_by_default = true

[[api]]
group = "batch"
version = "v1"
kind = "CronJob"
resource = "cronjobs"
introduced = "1.21"

[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"
"#;

/// Runs kompat with `apis.toml` = [`APIS`] and compares the exit code and
/// stdout (on success) or stderr (on failure).
#[track_caller]
fn check(args: &[&str], code: i32, expected: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("apis.toml"), APIS).expect("write");
    let (got_code, stdout, stderr) = kompat_in(dir.path(), args);
    assert_eq!(got_code, code, "args {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}");
    let got = if code == 0 { stdout } else { stderr };
    assert_eq!(got.trim_end(), expected.trim(), "args {args:?}");
}

fn served(json: &str) -> Vec<String> {
    let rows: serde_json::Value = serde_json::from_str(json).expect("json");
    rows.as_array()
        .expect("array")
        .iter()
        .map(|r| {
            format!(
                "{}/{}/{}",
                r["group"].as_str().unwrap(),
                r["version"].as_str().unwrap(),
                r["resource"].as_str().unwrap()
            )
        })
        .collect()
}

fn apis_at(extra: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("apis.toml"), APIS).unwrap();
    let mut args = vec!["apis", "--decls", "apis.toml", "--format", "json"];
    args.extend(extra);
    let (code, stdout, stderr) = kompat_in(dir.path(), &args);
    assert_eq!(code, 0, "{stderr}");
    served(&stdout)
}

#[test]
fn apis_json_shape_and_order() {
    check(
        &["apis", "--decls", "apis.toml", "--emulation-version", "1.24", "--format", "json"],
        0,
        r#"
[
  {
    "group": "",
    "version": "v1",
    "resource": "pods"
  },
  {
    "group": "batch",
    "version": "v1",
    "resource": "cronjobs"
  },
  {
    "group": "batch",
    "version": "v1beta1",
    "resource": "cronjobs"
  }
]"#,
    );
}

#[test]
fn serving_rules() {
    // Removed at 1.25: served through 1.24, gone at 1.25.
    assert!(apis_at(&["--emulation-version", "1.24"]).contains(&"batch/v1beta1/cronjobs".to_owned()));
    assert!(!apis_at(&["--emulation-version", "1.25"]).contains(&"batch/v1beta1/cronjobs".to_owned()));
    // A beta is off unless enabled; GA is on once introduced.
    assert_eq!(apis_at(&["--emulation-version", "1.31"]), ["/v1/pods", "batch/v1/cronjobs"]);
    assert_eq!(
        apis_at(&["--emulation-version", "1.31", "--runtime-config", "api/beta=true"]),
        ["/v1/pods", "batch/v1/cronjobs", "widgets.example.io/v1beta1/widgets"]
    );
    assert_eq!(
        apis_at(&["--emulation-version", "1.33", "--runtime-config", "widgets.example.io/v1=false"]),
        ["/v1/pods", "batch/v1/cronjobs"]
    );
    // Forward compatibility: v1 (introduced 1.32) served while emulating 1.31.
    assert_eq!(
        apis_at(&[
            "--binary-version",
            "1.33",
            "--emulation-version",
            "1.31",
            "--runtime-config",
            "widgets.example.io/v1beta1=true",
            "--emulation-forward-compatible"
        ]),
        ["/v1/pods", "batch/v1/cronjobs", "widgets.example.io/v1/widgets", "widgets.example.io/v1beta1/widgets"]
    );
}

#[test]
fn serving_errors_use_kubernetes_texts() {
    let base = ["apis", "--decls", "apis.toml", "--format", "json"];
    let run = |extra: &[&str], expected: &str| {
        let mut args = base.to_vec();
        args.extend(extra);
        check(&args, 2, expected);
    };
    run(
        &["--binary-version", "1.33", "--emulation-version", "1.31", "--runtime-config", "widgets.example.io/v1=true"],
        "error: cannot enable version widgets.example.io/v1 in runtime-config because all the resources have been introduced after the current version 1.31. Consider setting --runtime-config-emulation-forward-compatible=true",
    );
    run(
        &["--binary-version", "1.33", "--emulation-version", "1.33", "--emulation-forward-compatible"],
        "error: ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version",
    );
    run(
        &["--emulation-version", "1.31", "--runtime-config", "batch/v2=true"],
        "error: group version batch/v2 that has not been registered",
    );
    run(&["--emulation-version", "1.31", "--runtime-config", "api/beta=maybe"], "error: invalid value api/beta=maybe");
    run(
        &["--binary-version", "1.35", "--emulation-version", "1.31"],
        "error: emulation version 1.31 is not between [1.32, 1.35.0]\nerror: minCompatibilityVersion version 1.32 is not between [1.32, 1.31]",
    );
}

#[test]
fn storage_json_shape() {
    // At 1.32 with min-compat 1.31, v1 (introduced 1.32) is not rollback safe:
    // the beta keeps the data.
    check(
        &["storage", "--decls", "apis.toml", "--emulation-version", "1.32", "--format", "json"],
        0,
        r#"
[
  {
    "group": "",
    "resource": "pods",
    "kind": "Pod",
    "storage_version": "v1",
    "hash": "xPOwRZ+Yhw8="
  },
  {
    "group": "batch",
    "resource": "cronjobs",
    "kind": "CronJob",
    "storage_version": "batch/v1",
    "hash": "sd5LIXh4Fjs="
  },
  {
    "group": "widgets.example.io",
    "resource": "widgets",
    "kind": "Widget",
    "storage_version": "widgets.example.io/v1beta1",
    "hash": "78QS1GbL95o="
  }
]"#,
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("apis.toml"), APIS).unwrap();
    let (code, stdout, stderr) = kompat_in(
        dir.path(),
        &[
            "storage",
            "--decls",
            "apis.toml",
            "--emulation-version",
            "1.32",
            "--min-compatibility-version",
            "1.32",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"storage_version\": \"widgets.example.io/v1\""), "{stdout}");
}

#[test]
fn hash_vectors() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("/v1/Pod", "xPOwRZ+Yhw8="),
        ("/v1/ConfigMap", "qFsyl6wFWjQ="),
        ("/v1/Event", "r2yiGXH7wu8="),
        ("apps/v1/Deployment", "8aSe+NMegvE="),
        ("batch/v1/CronJob", "sd5LIXh4Fjs="),
        ("autoscaling/v2/HorizontalPodAutoscaler", "qwQve8ut294="),
        ("certificates.k8s.io/v1/CertificateSigningRequest", "95fRKMXA+00="),
        ("flowcontrol.apiserver.k8s.io/v1/FlowSchema", "GJVAJZSZBIw="),
        ("networking.k8s.io/v1beta1/IPAddress", "O4H8VxQhW5Y="),
        ("admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy", "6OxvlMmQ6is="),
    ];
    for (gvk, hash) in cases {
        let (code, stdout, stderr) = kompat_in(dir.path(), &["hash", gvk]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stdout, format!("{hash}\n"), "{gvk}");
    }
    for bad in ["v1/Pod", "a/b/c/d", "apps//Deployment", "apps/v1/"] {
        let (code, stdout, stderr) = kompat_in(dir.path(), &["hash", bad]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{bad}");
        assert!(stderr.starts_with("error: invalid GROUP/VERSION/KIND"), "{stderr}");
    }
}

#[test]
fn api_declaration_errors_are_located() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("apis.toml"),
        "[[api]]\ngroup = \"batch\"\nversion = \"v1beta1\"\nkind = \"CronJob\"\nresource = \"cronjobs\"\nintroduced = \"1.8\"\nreplacement = \"Batch/v1/CronJob\"\n",
    )
    .unwrap();
    let (code, _, stderr) = kompat_in(dir.path(), &["storage", "--decls", "apis.toml", "--emulation-version", "1.10"]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: replacement group must be all lower-case, got \"Batch\""), "{stderr}");
    assert!(stderr.contains("apis.toml:7:"), "{stderr}");
}

/// The demo APIs declared with `#[derive(ApiLifecycle)]` in
/// `fixtures/rust/` serve, store and lint exactly like the same APIs in
/// `fixtures/apis.toml`, at every emulation version of the window.
#[test]
fn rust_declared_apis_behave_like_toml() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let run = |args: &[&str]| {
        let (code, stdout, stderr) = kompat_in(&root, args);
        assert_eq!(code, 0, "{args:?}\n{stderr}");
        stdout
    };
    for emulation in ["1.34", "1.35", "1.36", "1.37"] {
        for command in ["apis", "storage"] {
            let args = |decls| [command, "--decls", decls, "--emulation-version", emulation, "--format", "json"];
            let from_rust = run(&args("fixtures/rust"));
            assert!(from_rust.contains("gadgets.example.io"), "{from_rust}");
            assert_eq!(from_rust, run(&args("fixtures/apis.toml")), "{command} at {emulation}");
        }
    }
    // The same findings, located in the Rust source.
    let lint = |decls: &str| {
        let (code, stdout, stderr) = kompat_in(&root, &["lint", decls, "--binary-version", "1.37", "--format", "json"]);
        assert_eq!(code, 1, "{stderr}");
        let findings: serde_json::Value = serde_json::from_str(&stdout).expect("lint JSON");
        findings["diagnostics"]
            .as_array()
            .expect("array")
            .iter()
            .map(|f| (f["code"].to_string(), f["message"].to_string(), f["file"].to_string()))
            .collect::<Vec<_>>()
    };
    let from_rust = lint("fixtures/rust");
    let from_toml = lint("fixtures/apis.toml");
    assert!(from_rust.len() > 5, "{from_rust:?}");
    assert!(from_rust.iter().all(|(_, _, file)| file.contains("fixtures/rust/")), "{from_rust:?}");
    let without_file = |v: &[(String, String, String)]| {
        let mut v: Vec<(String, String)> = v.iter().map(|(c, m, _)| (c.clone(), m.clone())).collect();
        v.sort();
        v
    };
    assert_eq!(without_file(&from_rust), without_file(&from_toml));
}

/// kube-rs spec structs: `#[kube(...)]` gives group, version, kind and (by
/// kube-derive's pluralizer) the resource; `#[kompat(api(...))]` the lifecycle.
/// kompat reads them from source as the derive does. They are custom
/// resources: `storage` leaves them out (their storage version is their
/// CRD's), where the same declarations in TOML, which are not, get
/// kube-apiserver's choice.
#[test]
fn kube_rs_spec_structs_are_declarations() {
    let source = r#"//! Widgets.
use kube::CustomResource;
use kompat::ApiLifecycle;

pub mod v1beta1 {
    #[derive(CustomResource, kompat::ApiLifecycle, Clone, Debug)]
    #[kube(group = "widgets.example.io", version = "v1beta1", kind = "Widget", namespaced)]
    #[kompat(api(introduced = "1.30"))]
    pub struct WidgetSpec {
        pub size: u32,
    }
}

pub mod v1 {
    #[derive(CustomResource, kompat::ApiLifecycle, Clone, Debug)]
    #[kube(group = "widgets.example.io", version = "v1", kind = "Widget", namespaced)]
    #[kompat(api(introduced = "1.32"))]
    pub struct WidgetSpec {
        pub size: u64,
    }
}
"#;
    let toml = r#"
[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.32"
"#;
    let dir = crate::common::dir_with(&[("src/widgets.rs", source), ("apis.toml", toml)]);
    for emulation in ["1.31", "1.32", "1.33"] {
        let run = |decls: &str| {
            let args = ["storage", "--decls", decls, "--emulation-version", emulation, "--format", "json"];
            let (code, stdout, stderr) = kompat_in(dir.path(), &args);
            assert_eq!(code, 0, "{stderr}");
            stdout
        };
        let (code, from_rust, stderr) =
            kompat_in(dir.path(), &["storage", "--decls", "src", "--emulation-version", emulation, "--format", "json"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(from_rust.trim(), "[]", "at {emulation}");
        assert!(stderr.contains("note: left out Widget.widgets.example.io"), "{stderr}");
        assert!(run("apis.toml").contains(r#""kind": "Widget""#), "at {emulation}");
    }
}

/// Problems that span several API types (here: one GVK declared by two
/// types) cannot be seen by the derive; kompat reports them located in the
/// Rust source. A type whose attributes do not compile is reported with the
/// derive's own error, at the derive's span, before anything else.
#[test]
fn rust_declaration_problems_are_located() {
    let source = r#"use kompat::ApiLifecycle;

#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", kind = "Job", resource = "jobs", introduced = "1.21"))]
pub struct Job;

mod again {
    #[derive(kompat::ApiLifecycle)]
    #[kompat(api(group = "batch", version = "v1", resource = "jobs", introduced = "1.22"))]
    pub struct Job;
}
"#;
    let broken = r#"
#[derive(ApiLifecycle)]
#[kompat(api(group = "batch", version = "v1", resource = "cronjobs", introduced = "1.21", verison = "x"))]
pub struct Broken;
"#;
    let run = |source: &str| {
        let dir = crate::common::dir_with(&[("src/lib.rs", source)]);
        let (code, stdout, stderr) =
            kompat_in(dir.path(), &["apis", "--decls", "src", "--emulation-version", "1.30", "--format", "json"]);
        assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
        assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
        stderr
    };
    let stderr = run(&format!("{source}{broken}"));
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(first, "error: unknown key `verison` in `api(...)`; did you mean `version`?");
    assert!(stderr.contains("src/lib.rs:14:91"), "{stderr}");
    let stderr = run(source);
    let first = stderr.lines().next().unwrap_or_default();
    assert_eq!(first, "error: duplicate declaration of batch/v1/Job (first declared at src/lib.rs:4:10)");
    assert!(stderr.contains("src/lib.rs:9:14"), "{stderr}");
}

/// kube-rs custom resources (`#[derive(CustomResource, ApiLifecycle)]`) are
/// CRD versions: their served and storage versions are the manifest's, not
/// kube-apiserver's choice, so `apis` and `storage` leave them out, say so
/// on stderr, and still list the built-in types beside them.
#[test]
fn custom_resources_are_left_out_of_the_server_tables() {
    let dir = crate::common::dir_with(&[
        ("apis.toml", APIS),
        (
            "src/lib.rs",
            r#"
#[derive(CustomResource, ApiLifecycle)]
#[kube(group = "crds.test.io", version = "v1", kind = "Gizmo", namespaced)]
#[kompat(api(introduced = "1.30"))]
pub struct WidgetSpec {
    pub replicas: i32,
}
"#,
        ),
    ]);
    for command in ["apis", "storage"] {
        let (code, stdout, stderr) =
            kompat_in(dir.path(), &[command, "--decls", "apis.toml", "--decls", "src", "--binary-version", "1.30"]);
        assert_eq!(code, 0, "{command}: {stderr}");
        assert!(stdout.contains("pods"), "{command}: built-in types stay:\n{stdout}");
        assert!(!stdout.contains("crds.test.io") && !stdout.contains("gizmo"), "{command}:\n{stdout}");
        assert!(stderr.contains("note: left out Gizmo.crds.test.io (custom resources"), "{command}: {stderr}");
    }
    // Without the custom resource, nothing is left out and nothing is said.
    let (_, _, stderr) = kompat_in(dir.path(), &["storage", "--decls", "apis.toml", "--binary-version", "1.30"]);
    assert!(!stderr.contains("left out"), "{stderr}");
}
