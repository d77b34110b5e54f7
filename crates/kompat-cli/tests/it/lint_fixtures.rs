//! `fixtures/lint/<code>/`: one seeded violation per rule. Each fixture must
//! produce findings of exactly its rule's code, in the house style, and its
//! rendered diagnostics (rustc style, no colour) are snapshots. Every code
//! `kompat explain --list` knows has a fixture, except the CRD codes, whose
//! fixtures are `kompat-crd`'s own (`fixtures/crd`, `crates/kompat-crd/tests/it/rules.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::{findings_on_stderr, kompat_in};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/lint")
}

fn fixture_dirs() -> Vec<PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(root())
        .expect("fixtures/lint")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every code the binary knows.
fn known_codes() -> Vec<String> {
    let (code, stdout, stderr) = kompat_in(&root(), &["explain", "--list"]);
    assert_eq!(code, 0, "{stderr}");
    stdout.lines().filter_map(|l| l.split_whitespace().next()).map(str::to_owned).collect()
}

/// Messages start lower-case and have no trailing period. Kubernetes'
/// registration messages are kept verbatim, and some of them start with a
/// stage name (`BETA feature X cannot depend on ALPHA feature Y`).
fn house_style(code: &str, message: &str) -> bool {
    let verbatim = kompat_engine::ProblemKind::ALL.iter().any(|k| k.code() == code);
    let starts_lower = !message.starts_with(|c: char| c.is_uppercase())
        || (verbatim && ["ALPHA ", "BETA ", "GA ", "DEPRECATED "].iter().any(|s| message.starts_with(s)));
    !message.is_empty() && starts_lower && !message.ends_with(['.', '!'])
}

#[test]
fn each_fixture_produces_exactly_its_rule() {
    for dir in fixture_dirs() {
        let code = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let args_text = std::fs::read_to_string(dir.join("args")).expect("args file");
        let mut args: Vec<&str> = vec!["lint"];
        args.extend(args_text.lines().filter(|l| !l.is_empty()));
        // What a fixture's run lacks (a baseline, sources, ...) is the
        // `missing-input` fixture's to show.
        if code != "missing-input" {
            args.extend(["-A", "missing-input"]);
        }

        let mut json_args = args.clone();
        json_args.extend(["--format", "json"]);
        let (_, stdout, stderr) = kompat_in(&dir, &json_args);
        let report: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("{code}: {err}\n{stdout}{stderr}"));
        let diagnostics = report["diagnostics"].as_array().expect("array");
        assert!(!diagnostics.is_empty(), "{code}: no finding");
        for d in diagnostics {
            assert_eq!(d["code"], code.as_str(), "{code}: produced {d:#}");
            let message = d["message"].as_str().unwrap_or_default();
            assert!(house_style(&code, message), "{code}: {message:?} is not in the house style");
            assert!(d["subject"].is_string(), "{code}: no subject in {d:#}");
        }

        let mut human_args = args.clone();
        human_args.extend(["--format", "human"]);
        let (_, human, _) = findings_on_stderr(kompat_in(&dir, &human_args));
        insta::assert_snapshot!(code.clone(), human);
    }
}

#[test]
fn every_code_has_a_fixture() {
    let mut crd: BTreeSet<&str> = kompat_crd::CrdRule::RULES.iter().map(|r| r.code).collect();
    // Plan codes have their fixtures in fixtures/plans/codes (tests/cli_plan.rs).
    crd.extend(kompat_cli::rules::plan::PASS.rules.iter().map(|r| r.code));
    let fixtures: BTreeSet<String> =
        fixture_dirs().iter().filter_map(|d| Some(d.file_name()?.to_str()?.to_owned())).collect();
    let codes = known_codes();
    let missing: Vec<&String> =
        codes.iter().filter(|c| !crd.contains(c.as_str()) && !fixtures.contains(c.as_str())).collect();
    assert!(missing.is_empty(), "codes without a fixture in fixtures/lint: {missing:?}");
    let unknown: Vec<&String> = fixtures.iter().filter(|f| !codes.contains(f)).collect();
    assert!(unknown.is_empty(), "fixtures for unknown codes: {unknown:?}");
}
