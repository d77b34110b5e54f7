//! Reports that are kept and uploaded: SARIF checked against the SARIF 2.1.0
//! JSON schema, each rule's help being `kompat explain`'s text, findings
//! allowed by `[[lint.allow]]` shown as suppressed (SARIF) and `allowed`
//! (JSON), and `--output FILE` in every format.
//!
//! `tests/data/sarif-schema-2.1.0.json` is the OASIS SARIF 2.1.0 schema
//! (errata 01), unchanged, from the OASIS SARIF TC's repository
//! (`oasis-tcs/sarif-spec`, `sarif-2.1/schema/sarif-schema-2.1.0.json`),
//! under the OASIS IPR policy: a specification the output must follow, not
//! code of this project (`tests/data/README.md`).

use crate::common::{dir_with, kompat_in};
use serde_json::Value;

fn feature(name: &str, specs: &str) -> String {
    format!("[[feature]]\nname = \"{name}\"\nspecs = [\n{specs}\n]\n")
}

/// An error (`Eager`: Alpha on by default) that `[[lint.allow]]` allows, and
/// a warning (`Old`: locked for 7 releases) that stays.
fn allowed_project() -> tempfile::TempDir {
    let eager = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let old = feature("Old", r#"  { version = "1.30", stage = "GA", default = true, lockToDefault = true },"#);
    let config = "binary_version = \"1.37\"\ndecls = [\"f.toml\"]\n\n[lint.levels]\nmissing-input = \"allow\"\n\n\
                  [[lint.allow]]\ncode = \"alpha-enabled-by-default\"\nsubject = \"Eager\"\nreason = \"grandfathered, like NodeLogQuery\"\n";
    dir_with(&[("f.toml", &format!("{eager}\n{old}")), ("kompat.toml", config)])
}

fn sarif_validator() -> jsonschema::Validator {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("the SARIF schema")).expect("JSON");
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

/// The schema errors of `log`, one line each.
fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator.iter_errors(log).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

fn sarif(dir: &std::path::Path, args: &[&str]) -> Value {
    let (code, stdout, stderr) = kompat_in(dir, &[args, &["--format", "sarif"]].concat());
    assert!((0..=2).contains(&code), "{args:?}: exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{args:?}: not JSON: {err}\n{stdout}"))
}

#[test]
fn sarif_follows_the_sarif_2_1_0_schema() {
    let validator = sarif_validator();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let allowed = allowed_project();
    let broken = dir_with(&[("f.toml", "[[feature]\n")]);
    let recorded = allowed_project();
    let record = ["lint", "--suppressions", "found.json"];
    let (code, _, stderr) = kompat_in(recorded.path(), &[&record[..], &["--write-suppressions"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let clean = dir_with(&[("f.toml", &feature("Fine", r#"  { version = "1.31", stage = "Beta", default = true },"#))]);
    // (where, arguments, what the case shows)
    let cases: &[(&std::path::Path, &[&str], &str)] = &[
        (&root, &["lint", "--config", "fixtures/kompat.toml"], "the demo: findings, related locations, notifications"),
        (&root.join("fixtures/crd"), &["lint", "."], "CRD manifests"),
        (allowed.path(), &["lint"], "a finding allowed in kompat.toml"),
        (recorded.path(), &record, "recorded findings"),
        (broken.path(), &["lint", "f.toml"], "an input error"),
        (clean.path(), &["lint", "f.toml", "-A", "missing-input"], "no finding"),
    ];
    for (dir, args, what) in cases {
        let log = sarif(dir, args);
        let errors = schema_errors(&validator, &log);
        assert!(errors.is_empty(), "{what}: the SARIF log breaks the schema:\n{}\n{log:#}", errors.join("\n"));
    }
    // The schema is applied: a log it forbids is refused.
    let mut wrong = sarif(allowed.path(), &["lint"]);
    wrong["runs"][0]["results"][0]["level"] = "fatal".into();
    wrong["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = "not a URI".into();
    assert_eq!(schema_errors(&validator, &wrong).len(), 2, "{wrong:#}");
}

#[test]
fn every_rule_carries_its_explain_text_and_no_address() {
    let dir = allowed_project();
    let log = sarif(dir.path(), &["lint"]);
    let driver = &log["runs"][0]["tool"]["driver"];
    assert!(driver.get("informationUri").is_none(), "{driver}");
    let rules = driver["rules"].as_array().expect("rules");
    let (code, list, _) = kompat_in(dir.path(), &["explain", "--list"]);
    assert_eq!(code, 0);
    assert_eq!(rules.len(), list.lines().count(), "one SARIF rule per rule");
    for rule in rules {
        let id = rule["id"].as_str().expect("id");
        let (code, explained, stderr) = kompat_in(dir.path(), &["explain", id]);
        assert_eq!(code, 0, "{id}: {stderr}");
        assert_eq!(rule["help"]["text"], explained, "{id}");
        assert_eq!(rule["help"]["markdown"], explained, "{id}");
        assert!(explained.contains("### What it does"), "{id}: {explained}");
        assert!(rule.get("helpUri").is_none(), "{id}: {rule}");
    }
}

#[test]
fn findings_allowed_in_kompat_toml_are_suppressed_with_the_reason() {
    let dir = allowed_project();
    let log = sarif(dir.path(), &["lint"]);
    let results = log["runs"][0]["results"].as_array().expect("results");
    let summary: Vec<(&str, &Value)> =
        results.iter().map(|r| (r["ruleId"].as_str().unwrap_or("?"), &r["suppressions"])).collect();
    let allowed = serde_json::json!([{ "kind": "external", "justification": "grandfathered, like NodeLogQuery" }]);
    assert_eq!(summary, [("locked-gate-cleanup", &Value::Null), ("alpha-enabled-by-default", &allowed)], "{log:#}");

    // JSON: the finding is not a diagnostic (the summary does not count it),
    // it is `allowed`, with the diagnostic's fields and why.
    let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "--format", "json"]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).expect("JSON");
    let codes: Vec<&Value> =
        report["diagnostics"].as_array().expect("diagnostics").iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, ["locked-gate-cleanup"]);
    assert_eq!(report["summary"], serde_json::json!({ "errors": 0, "warnings": 1, "notes": 0 }));
    assert_eq!(
        report["allowed"],
        serde_json::json!([{
            "code": "alpha-enabled-by-default",
            "severity": "error",
            "message": "alpha feature Eager cannot be enabled by default",
            "file": "f.toml",
            "line": 4,
            "column": 50,
            "subject": "Eager",
            "kind": "external",
            "justification": "grandfathered, like NodeLogQuery",
        }])
    );
    // The contract's keys come first, in the contract's order; nothing
    // allowed is an empty list.
    let keys: Vec<usize> = ["diagnostics", "summary", "allowed"]
        .iter()
        .map(|k| stdout.find(&format!("\n  \"{k}\": ")).unwrap_or_else(|| panic!("no {k}: {stdout}")))
        .collect();
    assert!(keys.is_sorted(), "{stdout}");
    let clean = dir_with(&[("f.toml", &feature("Fine", r#"  { version = "1.31", stage = "Beta", default = true },"#))]);
    let (_, stdout, _) = kompat_in(clean.path(), &["lint", "f.toml", "-A", "missing-input", "--format", "json"]);
    assert!(stdout.ends_with("  \"allowed\": []\n}\n"), "{stdout}");
}

#[test]
fn output_writes_every_format_to_a_file() {
    let dir = allowed_project();
    for format in ["human", "short", "json", "sarif", "rustc-json"] {
        let (code, printed, stderr) = kompat_in(dir.path(), &["lint", "--format", format]);
        let file = format!("report.{format}");
        let (code_to_file, stdout, summary) = kompat_in(dir.path(), &["lint", "--format", format, "--output", &file]);
        assert_eq!(code, code_to_file, "{format}");
        let written = std::fs::read_to_string(dir.path().join(&file)).expect("the report file");
        assert_eq!(stdout, "", "{format}: nothing on stdout with --output");
        match format {
            // People's formats print to stderr; the file holds the same
            // report, summary line included, which stderr still shows.
            "human" | "short" => {
                assert_eq!((printed.as_str(), written.as_str()), ("", stderr.as_str()), "{format}");
                assert_eq!(summary, "kompat lint: 0 errors, 1 warning, 0 notes\n", "{format}");
            }
            _ => assert_eq!((written.as_str(), summary.as_str()), (printed.as_str(), ""), "{format}"),
        }
        assert!(written.contains("locked-gate-cleanup"), "{format}: {written}");
    }
    // Colour never goes to a file.
    let (_, _, _) = kompat_in(dir.path(), &["lint", "--color", "always", "--output", "coloured.txt"]);
    let written = std::fs::read_to_string(dir.path().join("coloured.txt")).expect("written");
    assert!(!written.contains('\u{1b}'), "{written}");
}

#[test]
fn output_is_all_or_nothing() {
    // An input error in a machine format still writes one valid document.
    let broken = dir_with(&[("f.toml", "[[feature]\n")]);
    let (code, stdout, stderr) = kompat_in(broken.path(), &["lint", "f.toml", "--format", "sarif", "-o", "out.sarif"]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.starts_with("error:"), "{stderr}");
    let log: Value = serde_json::from_str(&std::fs::read_to_string(broken.path().join("out.sarif")).expect("written"))
        .expect("one SARIF document");
    assert_eq!(log["runs"][0]["invocations"][0]["executionSuccessful"], false);
    // ... and in people's formats nothing: the error is on stderr.
    let (code, _, _) = kompat_in(broken.path(), &["lint", "f.toml", "--output", "out.txt"]);
    assert_eq!(code, 2);
    assert!(!broken.path().join("out.txt").exists());

    // A file that cannot be written is an I/O error (exit 2), and no
    // temporary file is left behind.
    let dir = allowed_project();
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "--output", "f.toml/report.txt"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("error:") && stderr.contains("f.toml/report.txt"), "{stderr}");
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "--output", "."]);
    assert_eq!(code, 2, "{stderr}");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    let mut names = names;
    names.sort();
    assert_eq!(names, ["f.toml", "kompat.toml"]);

    // A previous report is replaced whole.
    std::fs::write(dir.path().join("r.json"), "x".repeat(100_000)).expect("write");
    let (code, _, _) = kompat_in(dir.path(), &["lint", "--format", "json", "-o", "r.json"]);
    assert_eq!(code, 0);
    let written = std::fs::read_to_string(dir.path().join("r.json")).expect("read");
    assert!(written.starts_with("{\n") && written.ends_with("}\n") && !written.contains("xx"), "{written}");
}

#[test]
fn output_is_offered_by_every_command_with_a_format() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("out");
    let out = out.to_str().expect("UTF-8 path");
    let features = root.join("fixtures/features.toml");
    let features = features.to_str().expect("UTF-8 path");
    let apis = root.join("fixtures/apis.toml");
    let apis = apis.to_str().expect("UTF-8 path");
    let cases: &[&[&str]] = &[
        &["features", "--decls", features, "--emulation-version", "1.36", "--format", "json"],
        &["export", "--decls", features, "--format", "k8s-yaml"],
        &["apis", "--decls", apis, "--emulation-version", "1.37", "--format", "json"],
        &["storage", "--decls", apis, "--emulation-version", "1.37", "--format", "json"],
    ];
    for args in cases {
        let (code, printed, stderr) = kompat_in(&root, args);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let (code, stdout, stderr) = kompat_in(&root, &[*args, &["--output", out]].concat());
        assert_eq!((code, stdout.as_str()), (0, ""), "{args:?}: {stderr}");
        assert_eq!(std::fs::read_to_string(out).expect("written"), printed, "{args:?}");
    }
}
