//! The rule registry is complete: every code has a fixture under
//! `fixtures/lint/<code>/` (CRD codes: `kompat-crd`'s fixtures; plan codes:
//! `fixtures/plans/codes/<code>.toml`), a doc, and an in-process test that
//! expects it (inline `^^^ severity[code]: ...` in the rule's module; CRD
//! codes: `crates/kompat-crd/tests/it/rules.rs`, which runs every CRD fixture in process and
//! checks each code is emitted; plan codes: the
//! simulation's tests in `crates/kompat-engine/src/plan/tests.rs`).

use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every annotation `severity[code]` in the rule modules' inline tests.
fn annotated_codes() -> Vec<String> {
    let mut codes = Vec::new();
    let dir = root().join("crates/kompat-cli/src/rules");
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())) {
        let path = entry.map(|e| e.path()).unwrap_or_default();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for line in text.lines() {
            let trimmed = line.trim_start();
            // `^^^ severity[code]` under a line, `#! ...` about a file,
            // `#!! ...` about no file.
            let annotation = trimmed.contains('^') || trimmed.starts_with("#!");
            if !(trimmed.starts_with('#') || trimmed.starts_with("//")) || !annotation {
                continue;
            }
            for severity in ["error[", "warning[", "note["] {
                if let Some(rest) = trimmed.split(severity).nth(1) {
                    codes.extend(rest.split(']').next().map(str::to_owned));
                }
            }
        }
    }
    codes
}

#[test]
fn every_code_has_a_fixture_a_doc_and_an_in_process_test() {
    let crd: Vec<&str> = kompat_crd::CrdRule::RULES.iter().map(|r| r.code).collect();
    let annotated = annotated_codes();
    let plan_tests = std::fs::read_to_string(root().join("crates/kompat-engine/src/plan/tests.rs")).unwrap_or_default();
    let mut missing = Vec::new();
    for rule in kompat_cli::rules::all() {
        let code = rule.code;
        if rule.doc_text().trim().is_empty() {
            missing.push(format!("{code}: no doc"));
        }
        if crd.contains(&code) {
            continue; // fixtures and in-process tests in kompat-crd
        }
        if kompat_cli::rules::plan::PASS.rules.iter().any(|r| r.code == code) {
            // `kompat plan`'s codes: fixtures/plans/codes/<code>.toml, and the
            // simulation's in-process tests in crates/kompat-engine/src/plan/tests.rs.
            if !root().join(format!("fixtures/plans/codes/{code}.toml")).is_file() {
                missing.push(format!("{code}: no fixtures/plans/codes/{code}.toml"));
            }
            if !plan_tests.contains(code) {
                missing.push(format!("{code}: crates/kompat-engine/src/plan/tests.rs never expects it"));
            }
            continue;
        }
        if !root().join("fixtures/lint").join(code).is_dir() {
            missing.push(format!("{code}: no fixtures/lint/{code}/"));
        }
        if !annotated.iter().any(|c| c == code) {
            missing.push(format!("{code}: no inline test in crates/kompat-cli/src/rules/ expects it"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // And no annotation names a code the registry does not know.
    for code in &annotated {
        assert!(kompat_cli::rules::find(code).is_some(), "inline test expects unknown code `{code}`");
    }
}
