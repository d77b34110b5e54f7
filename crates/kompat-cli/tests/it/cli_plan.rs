//! `kompat plan` end to end: the storage-state KEP's case walkthrough, a
//! skip-level upgrade with stepwise emulation, an unsafe rollback, feature
//! changes, the Markdown rendering (insta snapshot) and malformed plans.

use std::path::Path;

use crate::common::kompat_in;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `kompat plan fixtures/plans/NAME.toml` with the fixture APIs (and
/// features) from the repository root.
fn plan(name: &str, format: &str, features: bool) -> (i32, String, String) {
    let path = format!("fixtures/plans/{name}.toml");
    let mut args = vec!["plan", &path, "--decls", "fixtures/plans/apis.toml"];
    if features {
        args.extend(["--decls", "fixtures/plans/features.toml"]);
    }
    args.extend(["--format", format]);
    kompat_in(root(), &args)
}

fn json(name: &str, expected_code: i32) -> Value {
    let (code, stdout, stderr) = plan(name, "json", false);
    assert_eq!(code, expected_code, "{stderr}");
    match serde_json::from_str(&stdout) {
        Ok(value) => value,
        Err(err) => panic!("invalid JSON ({err}):\n{stdout}"),
    }
}

fn short(v: &Value) -> String {
    let s = v.as_str().unwrap_or("-");
    s.rsplit('/').next().unwrap_or(s).to_owned()
}

fn list(v: &Value) -> String {
    v.as_array().map(|a| a.iter().map(short).collect::<Vec<_>>().join(",")).unwrap_or_default()
}

/// One line per step for a resource, like the KEP's walkthrough table:
/// `step | sv per server | common | persisted | tracker persisted | migration`.
fn rows(doc: &Value, resource: &str) -> String {
    let mut out = String::new();
    for step in doc["steps"].as_array().into_iter().flatten() {
        let Some(r) = step["resources"].as_array().into_iter().flatten().find(|r| r["resource"] == resource) else {
            continue;
        };
        let sv: Vec<String> =
            r["servers"].as_array().into_iter().flatten().map(|s| short(&s["encoding_version"])).collect();
        out.push_str(&format!(
            "{} | {} | {} | {} | {} | {}\n",
            step["step"],
            sv.join(" "),
            short(&r["common_encoding_version"]),
            list(&r["persisted_versions"]),
            list(&r["storage_state"]["persisted_versions"]),
            r["migration"].as_str().unwrap_or_default()
        ));
    }
    out
}

fn findings(doc: &Value) -> String {
    doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{} {} {}\n",
                f["step"],
                f["severity"].as_str().unwrap_or_default(),
                f["code"].as_str().unwrap_or_default()
            )
        })
        .collect()
}

/// For each step, the earlier steps a rollback to is safe (`ok`) or not (`X`).
fn rollbacks(doc: &Value) -> String {
    let mut out = String::new();
    for step in doc["steps"].as_array().into_iter().flatten() {
        let marks: Vec<String> = step["rollbacks"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| format!("{}{}", r["to_step"], if r["safe"] == true { "ok" } else { "X" }))
            .collect();
        out.push_str(format!("{}: {}", step["step"], marks.join(" ")).trim_end());
        out.push('\n');
    }
    out
}

#[track_caller]
fn check(got: String, expected: &str) {
    let expected: String =
        expected.lines().map(str::trim).filter(|l| !l.is_empty()).map(|l| format!("{l}\n")).collect();
    assert_eq!(got, expected, "\ngot:\n{got}");
}

#[test]
fn storage_state_kep_case_walkthrough() {
    let doc = json("walkthrough", 0);
    assert_eq!(doc["safe"], true);
    assert_eq!(doc["servers"], serde_json::json!(["apiserver-1", "apiserver-2", "apiserver-3"]));
    // The KEP's table: minutes 0, 3/10, 12, 18/20, 20, 22/30, 34/40, 40, 45.
    check(
        rows(&doc, "crontabs"),
        "
        0 | v1 v1 v1 | v1 | v1 | v1 | up-to-date
        1 | v2 v1 v1 | - | v1,v2 | v1,v2 | blocked
        2 | v2 v2 v1 | - | v1,v2 | v1,v2 | blocked
        3 | v2 v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        4 | v2 v2 v2 | v2 | v1,v2 | v1,v2 | started
        5 | v2 v2 v1 | - | v1,v2 | v1,v2 | aborted
        6 | v2 v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        7 | v2 v2 v2 | v2 | v1,v2 | v1,v2 | started
        8 | v2 v2 v2 | v2 | v2 | v2 | completed
        ",
    );
    check(
        findings(&doc),
        "
        1 warning emulation-above-peer-binary
        2 warning emulation-above-peer-binary
        2 warning emulation-above-peer-binary
        5 warning emulation-above-peer-binary
        5 warning emulation-above-peer-binary
        5 warning migration-aborted
        ",
    );
    let step1 = &doc["steps"][1]["resources"][0];
    assert_eq!(step1["name"], "stable.example.io.crontabs");
    assert_eq!(
        step1["condition"],
        serde_json::json!({"type": "AllEncodingVersionsEqual", "status": "False", "reason": "CommonEncodingVersionUnset", "message": "Common encoding version unset"})
    );
    let current: Vec<String> = step1["storage_state"]["current_storage_version_hashes"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| format!("{}={}", r["reporter_id"].as_str().unwrap_or_default(), short(&r["version"])))
        .collect();
    assert_eq!(current, ["apiserver-1=v2", "apiserver-2=v1", "apiserver-3=v1"]);
    // Every rollback of the walkthrough is safe: a 1.35 binary decodes v2.
    assert!(!rollbacks(&doc).contains('X'));
}

#[test]
fn skip_level_upgrade_with_stepwise_emulation() {
    let doc = json("skip-level", 0);
    let versions: String = doc["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let v: Vec<String> = s["servers"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|x| {
                    format!(
                        "{}/{}/{}",
                        x["binary"].as_str().unwrap_or_default(),
                        x["emulation"].as_str().unwrap_or_default(),
                        x["min_compatibility"].as_str().unwrap_or_default()
                    )
                })
                .collect();
            format!("{} {}\n", s["step"], v.join(" "))
        })
        .collect();
    check(
        versions,
        "
        0 1.33/1.33/1.32 1.33/1.33/1.32
        1 1.36/1.33/1.33 1.33/1.33/1.32
        2 1.36/1.33/1.33 1.36/1.33/1.33
        3 1.36/1.34/1.33 1.36/1.34/1.33
        4 1.36/1.35/1.34 1.36/1.35/1.34
        5 1.36/1.36/1.35 1.36/1.36/1.35
        6 1.36/1.36/1.35 1.36/1.36/1.35
        ",
    );
    check(
        rows(&doc, "crontabs"),
        "
        0 | v1 v1 | v1 | v1 | v1 | up-to-date
        1 | v1 v1 | v1 | v1 | v1 | up-to-date
        2 | v1 v1 | v1 | v1 | v1 | up-to-date
        3 | v1 v1 | v1 | v1 | v1 | up-to-date
        4 | v1 v1 | v1 | v1 | v1 | up-to-date
        5 | v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        6 | v2 v2 | v2 | v2 | v2 | completed
        ",
    );
    check(findings(&doc), "");
    // Once crontabs are stored in v2, the 1.33 binaries cannot come back.
    check(
        rollbacks(&doc),
        "
        0:
        1: 0ok
        2: 0ok 1ok
        3: 0ok 1ok 2ok
        4: 0ok 1ok 2ok 3ok
        5: 0X 1X 2ok 3ok 4ok
        6: 0X 1X 2ok 3ok 4ok 5ok
        ",
    );
}

#[test]
fn unsafe_rollback_exits_1() {
    let doc = json("unsafe-rollback", 1);
    assert_eq!(doc["safe"], false);
    check(
        rows(&doc, "gizmos"),
        "
        0 | v1 v1 | v1 | v1 | v1 | up-to-date
        1 | v1 v1 | v1 | v1 | v1 | up-to-date
        2 | v1 v1 | v1 | v1 | v1 | up-to-date
        3 | v2 v2 | v2 | v1,v2 | v1,v2 | may-start
        4 | v2 v2 | v2 | v2 | v2 | completed
        5 | v2 v1 | - | v2,v1 | v2,v1 | blocked
        ",
    );
    check(
        findings(&doc),
        "
        1 warning emulation-above-peer-binary
        5 error data-loss
        5 warning emulation-above-peer-binary
        5 error min-compat-above-peer-emulation
        ",
    );
    assert_eq!(doc["summary"], serde_json::json!({"errors": 2, "warnings": 2}));
    let blockers = &doc["steps"][4]["rollbacks"][0]["blockers"];
    assert_eq!(
        blockers,
        &serde_json::json!([
            {"resource": "gizmos.stable.example.io", "server": "apiserver-1", "version": "stable.example.io/v2"},
            {"resource": "gizmos.stable.example.io", "server": "apiserver-2", "version": "stable.example.io/v2"}
        ])
    );
    let lost = &doc["steps"][5]["resources"][1]["undecodable"];
    assert_eq!(
        lost,
        &serde_json::json!([{"server": "apiserver-2", "version": "stable.example.io/v2", "source": "persisted"}])
    );
    let (code, text, _) = plan("unsafe-rollback", "human", false);
    assert_eq!(code, 1);
    assert!(
        text.contains("error[data-loss]: apiserver-2 cannot decode gizmos.stable.example.io in stable.example.io/v2"),
        "{text}"
    );
    assert!(
        text.ends_with("fixtures/plans/unsafe-rollback.toml: the plan is unsafe (2 errors, 2 warnings)\n"),
        "{text}"
    );
}

#[test]
fn feature_changes_per_step() {
    let (code, stdout, stderr) = plan("skip-level", "json", true);
    assert_eq!(code, 0, "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap_or_default();
    let changes: String = doc["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| {
            let step = s["step"].clone();
            s["features"].as_array().cloned().unwrap_or_default().into_iter().map(move |f| {
                format!(
                    "{step} {} {} {}/{} -> {}/{}\n",
                    f["server"].as_str().unwrap_or_default(),
                    f["name"].as_str().unwrap_or_default(),
                    f["before"]["stage"].as_str().unwrap_or_default(),
                    f["before"]["default"],
                    f["after"]["stage"].as_str().unwrap_or_default(),
                    f["after"]["default"]
                )
            })
        })
        .collect();
    check(
        changes,
        "
        3 apiserver-1 CronTabTimeZones PreAlpha/false -> Alpha/false
        3 apiserver-2 CronTabTimeZones PreAlpha/false -> Alpha/false
        4 apiserver-1 CronTabTimeZones Alpha/false -> Beta/true
        4 apiserver-1 LegacyCronTabSchedules GA/true -> Deprecated/false
        4 apiserver-2 CronTabTimeZones Alpha/false -> Beta/true
        4 apiserver-2 LegacyCronTabSchedules GA/true -> Deprecated/false
        5 apiserver-1 CronTabTimeZones Beta/true -> GA/true
        5 apiserver-2 CronTabTimeZones Beta/true -> GA/true
        ",
    );
}

#[test]
fn json_is_deterministic() {
    let (_, first, _) = plan("walkthrough", "json", true);
    let (_, second, _) = plan("walkthrough", "json", true);
    assert_eq!(first, second);
}

#[test]
fn markdown_walkthrough_table() {
    let (code, text, stderr) = plan("walkthrough", "markdown", false);
    assert_eq!(code, 0, "{stderr}");
    insta::assert_snapshot!("walkthrough_markdown", text);
    let (code, text, stderr) = plan("unsafe-rollback", "markdown", false);
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("unsafe_rollback_markdown", text);
}

/// A malformed input: exit 2, nothing on stdout, and stderr starting with
/// `expected` (after `error: `) and naming the location.
#[track_caller]
fn check_malformed(args: &[&str], message: &str, location: &str) {
    let (code, stdout, stderr) = kompat_in(root(), args);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.starts_with(&format!("error: {message}")), "{stderr}");
    assert!(stderr.contains(location), "{stderr}");
}

#[test]
fn malformed_plans_exit_2_with_located_errors() {
    let apis = "fixtures/plans/apis.toml";
    let run = |name: &str| format!("fixtures/plans/malformed/{name}.toml");
    check_malformed(
        &["plan", &run("unknown-server"), "--decls", apis],
        "unknown server `apiserver-9`; the plan's servers are `apiserver-1`",
        "fixtures/plans/malformed/unknown-server.toml:7:19",
    );
    check_malformed(
        &["plan", &run("bad-version"), "--decls", apis],
        "invalid version \"1.35.2\": expected MAJOR.MINOR",
        "fixtures/plans/malformed/bad-version.toml:4:10",
    );
    check_malformed(&["plan", &run("syntax"), "--decls", apis], "", "fixtures/plans/malformed/syntax.toml:7:");
    check_malformed(
        &["plan", &run("unknown-resource"), "--decls", apis],
        "no API declaration serves resource `cronjobs.stable.example.io`",
        "fixtures/plans/malformed/unknown-resource.toml:7:20",
    );
    check_malformed(
        &["plan", "fixtures/plans/missing.toml", "--decls", apis],
        "cannot read fixtures/plans/missing.toml",
        "",
    );
    check_malformed(
        &["plan", "fixtures/plans/walkthrough.toml"],
        "no declarations: pass --decls PATH with the API declarations",
        "",
    );
    check_malformed(
        &["plan", "fixtures/plans/walkthrough.toml", "--decls", "fixtures/plans/features.toml"],
        "no API declarations in fixtures/plans/features.toml",
        "",
    );
}

/// The codes of a plan's findings with their severities, `code:severity`.
fn codes(doc: &Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .map(|a| a.iter().map(|f| format!("{}:{}", short(&f["code"]), short(&f["severity"]))).collect())
        .unwrap_or_default()
}

/// Every plan code is a documented rule with a fixture,
/// `fixtures/plans/codes/<code>.toml`, that produces it at the rule's
/// severity.
#[test]
fn every_plan_code_has_a_fixture_that_produces_it() {
    let (code, list, _) = kompat_in(root(), &["explain", "--list"]);
    assert_eq!(code, 0);
    for rule in kompat_cli::rules::plan::PASS.rules {
        assert!(list.contains(rule.code), "{} is not listed", rule.code);
        let path = format!("fixtures/plans/codes/{}.toml", rule.code);
        let args = ["plan", &path, "--decls", "fixtures/plans/apis.toml", "--format", "json"];
        let (status, stdout, stderr) = kompat_in(root(), &args);
        let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{path}: {err}\n{stderr}"));
        let expected = format!("{}:{}", rule.code, rule.severity.as_str());
        assert!(codes(&doc).contains(&expected), "{path}: {:?}, expected {expected}", codes(&doc));
        let errors = doc["summary"]["errors"].as_u64().unwrap_or_default();
        assert_eq!(status, if errors > 0 { 1 } else { 0 }, "{path}");
    }
}

/// `[lint.levels]` in kompat.toml applies to plan codes: an allowed code's
/// findings are gone, a warned one no longer makes the plan unsafe.
#[test]
fn lint_levels_apply_to_plan_codes() {
    let dir = crate::common::dir_with(&[
        ("plan.toml", &std::fs::read_to_string(root().join("fixtures/plans/codes/data-loss.toml")).unwrap_or_default()),
        ("apis.toml", &std::fs::read_to_string(root().join("fixtures/plans/apis.toml")).unwrap_or_default()),
    ]);
    let run = || {
        let (status, stdout, stderr) =
            kompat_in(dir.path(), &["plan", "plan.toml", "--decls", "apis.toml", "--format", "json"]);
        let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{err}\n{stderr}"));
        (status, codes(&doc))
    };
    assert_eq!(
        run(),
        (
            1,
            vec![
                "data-loss:error".to_owned(),
                "emulation-above-peer-binary:warning".to_owned(),
                "min-compat-above-peer-emulation:error".to_owned()
            ]
        )
    );
    std::fs::write(
        dir.path().join("kompat.toml"),
        "[lint.levels]\ndata-loss = \"warn\"\nmin-compat-above-peer-emulation = \"allow\"\nemulation-above-peer-binary = \"deny\"\n",
    )
    .unwrap_or_default();
    assert_eq!(run(), (1, vec!["data-loss:warning".to_owned(), "emulation-above-peer-binary:error".to_owned()]));
    std::fs::write(
        dir.path().join("kompat.toml"),
        "[lint.levels]\ndata-loss = \"warn\"\nmin-compat-above-peer-emulation = \"allow\"\n",
    )
    .unwrap_or_default();
    assert_eq!(run(), (0, vec!["data-loss:warning".to_owned(), "emulation-above-peer-binary:warning".to_owned()]));
}

/// The plan picture embedded in the Markdown (a base64 `data:` image), its
/// `<text>` elements in order.
fn picture_texts(markdown: &str) -> Vec<String> {
    use base64::Engine as _;
    let start =
        markdown.find("](data:image/svg+xml;base64,").expect("a data: image") + "](data:image/svg+xml;base64,".len();
    let end = markdown[start..].find(')').expect("end of image") + start;
    let bytes = base64::engine::general_purpose::STANDARD.decode(&markdown[start..end]).expect("base64");
    let svg = String::from_utf8(bytes).expect("utf-8");
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|err| panic!("not XML ({err}):\n{svg}"));
    assert_eq!(doc.root_element().attribute("role"), Some("img"));
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or_default().to_owned()).collect()
}

#[test]
fn markdown_shows_the_plan_as_a_picture() {
    let (_, text, _) = plan("walkthrough", "markdown", false);
    let texts = picture_texts(&text);
    assert_eq!(texts[0], "Upgrade plan fixtures/plans/walkthrough.toml");
    for expected in ["step 0", "step 8", "apiserver-1", "apiserver-3 writes", "started", "completed", "Rollback"] {
        assert!(texts.iter().any(|t| t == expected), "{expected:?} not in {texts:?}");
    }
    // Once in the legend; never in the walkthrough's rollback rows.
    let unsafe_cells = |texts: &[String]| texts.iter().filter(|t| *t == "unsafe").count() - 1;
    assert_eq!(unsafe_cells(&texts), 0, "the walkthrough rolls back safely: {texts:?}");
    // The unsafe rollback shows where rolling back stops being safe.
    let (_, text, _) = plan("unsafe-rollback", "markdown", false);
    let texts = picture_texts(&text);
    assert!(unsafe_cells(&texts) > 0, "{texts:?}");
}
