//! `kompat lint` in CI: colour control, command-line levels, recorded
//! findings, machine formats that stay valid on input errors, SARIF metadata
//! and rustc-compatible JSON for editors.

use std::process::Command;

use crate::common::{dir_with, findings_on_stderr, kompat_in};

fn feature(name: &str, specs: &str) -> String {
    format!("[[feature]]\nname = \"{name}\"\nspecs = [\n{specs}\n]\n")
}

/// One error (Alpha on by default) and one warning (locked for 7 releases);
/// the runs below leave out what the run lacks (`-A missing-input`: no
/// baseline, no sources).
fn two_findings() -> tempfile::TempDir {
    let eager = feature("Eager", r#"  { version = "1.31", stage = "Alpha", default = true },"#);
    let old = feature("Old", r#"  { version = "1.30", stage = "GA", default = true, lockToDefault = true },"#);
    dir_with(&[("f.toml", &format!("{eager}\n{old}"))])
}

/// Runs kompat with exactly `env` on top of a cleaned colour environment.
fn with_env(dir: &std::path::Path, env: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kompat"));
    cmd.current_dir(dir).args(args);
    for var in ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TERM"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().expect("run kompat");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn colour_follows_the_flag_and_the_environment() {
    let dir = two_findings();
    let args = ["lint", "f.toml", "--binary-version", "1.37"];
    let coloured = |stderr: &str| stderr.contains("\u{1b}[");
    // (environment, --color, coloured?)
    type Case<'a> = (&'a [(&'a str, &'a str)], Option<&'a str>, bool);
    let cases: &[Case] = &[
        (&[], None, false), // not a terminal
        (&[("CLICOLOR_FORCE", "1")], None, true),
        (&[("CLICOLOR_FORCE", "1")], Some("never"), false),
        (&[("NO_COLOR", "1")], Some("always"), true),
        (&[], Some("always"), true),
        (&[("CLICOLOR_FORCE", "0")], None, false),
    ];
    for (env, flag, expected) in cases {
        let mut all = args.to_vec();
        if let Some(flag) = flag {
            all.extend(["--color", flag]);
        }
        let stderr = with_env(dir.path(), env, &all);
        assert_eq!(coloured(&stderr), *expected, "env {env:?} --color {flag:?}:\n{stderr}");
        assert!(stderr.contains("alpha-enabled-by-default"), "{stderr}");
    }
}

#[test]
fn human_findings_go_to_stderr_and_stdout_stays_empty() {
    let dir = two_findings();
    let (code, stdout, stderr) =
        kompat_in(dir.path(), &["lint", "f.toml", "--binary-version", "1.37", "-A", "missing-input"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(stderr.contains("error[alpha-enabled-by-default]"), "{stderr}");
    assert!(stderr.ends_with("kompat lint: 1 error, 1 warning, 0 notes\n"), "{stderr}");
}

#[test]
fn command_line_levels() {
    let dir = two_findings();
    let run = |extra: &[&str]| {
        let mut args = vec!["lint", "f.toml", "--binary-version", "1.37", "-A", "missing-input", "--format", "short"];
        args.extend(extra);
        let (code, findings, _) = findings_on_stderr(kompat_in(dir.path(), &args));
        let lines: Vec<String> =
            findings.lines().map(|l| l.split(": ").nth(1).unwrap_or_default().to_owned()).collect();
        (code, lines)
    };
    let both = ["error[alpha-enabled-by-default]", "warning[locked-gate-cleanup]"];
    assert_eq!(run(&[]), (1, both.map(String::from).to_vec()));
    assert_eq!(run(&["-A", "alpha-enabled-by-default"]), (0, vec!["warning[locked-gate-cleanup]".to_owned()]));
    assert_eq!(run(&["-A", "warnings"]), (1, vec!["error[alpha-enabled-by-default]".to_owned()]));
    assert_eq!(
        run(&["-D", "warnings"]),
        (1, vec!["error[alpha-enabled-by-default]".to_owned(), "error[locked-gate-cleanup]".to_owned()])
    );
    assert_eq!(
        run(&["-W", "alpha-enabled-by-default"]),
        (0, vec!["warning[alpha-enabled-by-default]".to_owned(), "warning[locked-gate-cleanup]".to_owned()])
    );
    // -D beats -A for the same code.
    assert_eq!(run(&["-A", "locked-gate-cleanup", "-D", "locked-gate-cleanup"]).1.len(), 2);
    // Unknown codes are usage errors with a suggestion.
    let (code, _, stderr) = kompat_in(dir.path(), &["lint", "f.toml", "-D", "locked-gate-cleanups"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("unknown lint code `locked-gate-cleanups` in -D (did you mean `locked-gate-cleanup`?)"),
        "{stderr}"
    );
}

#[test]
fn recorded_findings_are_not_reported_again() {
    let dir = two_findings();
    let base =
        ["lint", "f.toml", "--binary-version", "1.37", "-A", "missing-input", "--suppressions", "kompat-findings.json"];
    let (code, _, stderr) = kompat_in(dir.path(), &[&base[..], &["--write-suppressions"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("recorded 2 findings in kompat-findings.json"), "{stderr}");
    let recorded = std::fs::read_to_string(dir.path().join("kompat-findings.json")).expect("written");
    assert!(recorded.contains("\"code\": \"alpha-enabled-by-default\""), "{recorded}");

    // Nothing new: exit 0, nothing shown, and SARIF lists both as suppressed.
    let (code, findings, stderr) = findings_on_stderr(kompat_in(dir.path(), &base));
    assert_eq!((code, findings.as_str()), (0, ""), "{stderr}");
    assert!(stderr.contains("(2 recorded findings not shown)"), "{stderr}");
    let (_, sarif, _) = kompat_in(dir.path(), &[&base[..], &["--format", "sarif"]].concat());
    let log: serde_json::Value = serde_json::from_str(&sarif).expect("sarif");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|r| r["suppressions"][0]["kind"] == "external"), "{sarif}");

    // A new finding is reported; the recorded ones stay hidden, even after
    // lines above them moved.
    let moved = format!(
        "# moved down\n\n{}\n{}",
        std::fs::read_to_string(dir.path().join("f.toml")).expect("read"),
        feature("Fresh", r#"  { version = "1.32", stage = "Alpha", default = true },"#)
    );
    std::fs::write(dir.path().join("f.toml"), moved).expect("write");
    let (code, findings, _) = findings_on_stderr(kompat_in(dir.path(), &[&base[..], &["--format", "short"]].concat()));
    assert_eq!(code, 1);
    assert_eq!(findings.lines().count(), 1, "{findings}");
    assert!(findings.contains("Fresh"), "{findings}");

    // A broken file is an input error, located.
    std::fs::write(dir.path().join("kompat-findings.json"), "{\"version\": 1,\n \"findings\": 3}").expect("write");
    let (code, _, stderr) = kompat_in(dir.path(), &base);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("kompat-findings.json:2:"), "{stderr}");
}

#[test]
fn machine_formats_print_one_valid_document_on_input_errors() {
    let dir = dir_with(&[("f.toml", "[[feature]\n")]);
    for format in ["json", "sarif", "rustc-json"] {
        let (code, stdout, stderr) = kompat_in(dir.path(), &["lint", "f.toml", "--format", format]);
        assert_eq!(code, 2, "{format}");
        assert!(stderr.starts_with("error:"), "{format}: {stderr}");
        let first = stdout.lines().next().unwrap_or_default();
        let doc: serde_json::Value = match format {
            "rustc-json" => serde_json::from_str(first),
            _ => serde_json::from_str(&stdout),
        }
        .unwrap_or_else(|err| panic!("{format}: {err}\n{stdout}"));
        match format {
            "json" => {
                let d = &doc["diagnostics"][0];
                assert_eq!(
                    (&d["code"], &d["severity"], &d["file"], &d["line"]),
                    (&"input-error".into(), &"error".into(), &"f.toml".into(), &1.into())
                );
                assert_eq!(doc["summary"]["errors"], 1);
            }
            "sarif" => {
                let run = &doc["runs"][0];
                assert_eq!(run["invocations"][0]["executionSuccessful"], false);
                assert_eq!(run["results"][0]["ruleId"], "input-error");
            }
            _ => {
                assert_eq!(doc["code"]["code"], "input-error");
                assert_eq!(doc["spans"][0]["file_name"], "f.toml");
            }
        }
    }
}

#[test]
fn sarif_metadata_for_code_scanning() {
    let dir = two_findings();
    let (_, stdout, _) = kompat_in(dir.path(), &["lint", "f.toml", "--binary-version", "1.37", "--format", "sarif"]);
    let log: serde_json::Value = serde_json::from_str(&stdout).expect("sarif");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    // No home page to point at: no informationUri, no helpUri; the rule's
    // documentation is in the log (tests/cli_sarif.rs).
    assert!(driver.get("informationUri").is_none(), "{driver}");
    let rules = driver["rules"].as_array().expect("rules");
    assert!(rules.iter().all(|r| r.get("helpUri").is_none() && r["help"]["markdown"].is_string()), "{driver}");
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"].as_str().expect("srcroot");
    assert!(root.starts_with("file:///") && root.ends_with('/'), "{root}");
    let artifact = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!((&artifact["uri"], &artifact["uriBaseId"]), (&"f.toml".into(), &"%SRCROOT%".into()));
    // GitHub refuses a result without a location: what the run lacked (no
    // baseline, no sources) is a configuration notification instead.
    let results = run["results"].as_array().expect("results");
    assert!(results.iter().all(|r| r["locations"][0]["physicalLocation"].is_object()), "{stdout}");
    let notes = run["invocations"][0]["toolConfigurationNotifications"].as_array().expect("notifications");
    let subjects: Vec<(&str, &str)> = notes
        .iter()
        .map(|n| (n["associatedRule"]["id"].as_str().unwrap_or("?"), n["level"].as_str().unwrap_or("?")))
        .collect();
    assert_eq!(subjects, [("missing-input", "note"), ("missing-input", "note")], "{stdout}");
}

#[test]
fn rustc_json_for_editors() {
    let dir = two_findings();
    let (code, stdout, stderr) = kompat_in(
        dir.path(),
        &["lint", "f.toml", "--binary-version", "1.37", "-A", "missing-input", "--format", "rustc-json"],
    );
    assert_eq!(code, 1, "{stderr}");
    let lines: Vec<serde_json::Value> =
        stdout.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    assert_eq!(lines.len(), 2);
    let first = &lines[0];
    assert_eq!(first["$message_type"], "diagnostic");
    assert_eq!(first["level"], "error");
    assert_eq!(first["code"]["code"], "alpha-enabled-by-default");
    let span = &first["spans"][0];
    assert_eq!(
        (&span["file_name"], &span["line_start"], &span["column_start"], &span["is_primary"]),
        (&"f.toml".into(), &4.into(), &50.into(), &true.into())
    );
    assert_eq!(span["column_end"], 54);
    assert!(first["rendered"].as_str().is_some_and(|r| r.contains("--> f.toml:4:50")), "{first}");
}
