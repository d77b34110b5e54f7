//! The finding codes: unique, kebab-case, documented in clippy's template,
//! each emitted by at least one fixture, and every message and note in the
//! house style (lower-case start, no trailing period).

use std::collections::BTreeSet;

use crate::common::{conversions, crd, crds, fixture};
use kompat_crd::{
    check_conversions, check_crd, check_removed, check_upgrade, orphan_conversions, parse_conversions, parse_manifests,
    CrdRule, Finding,
};

/// Every finding of every fixture (single CRDs with and without their
/// conversions files, upgrade pairs, conversions files).
fn all_findings() -> Vec<Finding> {
    let mut out = Vec::new();
    let singles = [
        ("single/clean.yaml", None),
        ("single/storage-version-count.yaml", None),
        ("single/no-storage-version.yaml", None),
        ("single/unserved-storage-version.yaml", None),
        ("single/duplicate-version-name.yaml", None),
        ("single/conversion-webhook.yaml", None),
        ("single/webhook-kubebuilder.yaml", None),
        ("single/unserved-unstored-version.yaml", None),
        ("single/preserve-unknown-fields-true.yaml", None),
        ("single/deprecated-without-warning.yaml", None),
        ("single/missing-schema.yaml", None),
        ("single/missing-preserve-unknown-fields.yaml", None),
        ("single/undeclared-conversion.yaml", None),
        ("single/undeclared-conversion.yaml", Some("conversions/mismatch.toml")),
        ("single/unserved-pair.yaml", None),
        ("single/unserved-stored-pair.yaml", None),
        ("single/v1beta1.yaml", None),
        ("kube-rs/widget-merged.yaml", None),
        ("kube-rs/widget-merged-preserved.yaml", Some("kube-rs/widget-merged.experimental.toml")),
        ("multi-document.yaml", None),
    ];
    for (path, conv) in singles {
        let conv = conv.map(|c| conversions(c).1);
        for crd in crds(path).1 {
            out.extend(check_crd(&crd, conv.as_ref()));
            if let Some(conv) = &conv {
                out.extend(check_conversions(&crd, conv));
            }
        }
    }
    let (_, gadgets) = crd("single/undeclared-conversion.yaml");
    out.extend(check_conversions(&gadgets, &conversions("conversions/other-crd.toml").1));
    let mut dirs: Vec<_> =
        std::fs::read_dir(crate::common::fixtures().join("upgrade")).into_iter().flatten().flatten().collect();
    dirs.sort_by_key(|d| d.file_name());
    for dir in dirs {
        let name = dir.file_name().to_string_lossy().into_owned();
        let (_, old) = crd(&format!("upgrade/{name}/old.yaml"));
        let (_, new) = crd(&format!("upgrade/{name}/new.yaml"));
        out.extend(check_upgrade(&old, &new, None));
    }
    let (_, cluster) = crd("upgrade/stored-versions-assumed/cluster.yaml");
    let new = crds("multi-document.yaml").1;
    out.extend(check_removed(&[cluster, gadgets], &new.iter().collect::<Vec<_>>()));
    out.push(orphan_conversions(
        "widgets.yaml.conversions.toml",
        "widgets.yaml.yaml",
        Some(("widgets.yaml", "widgets.conversions.toml")),
    ));
    out
}

#[test]
fn codes_are_unique_sorted_and_kebab_case() {
    let codes: Vec<&str> = CrdRule::RULES.iter().map(|r| r.code).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(codes, sorted, "codes must be unique and sorted");
    for code in codes {
        let kebab = !code.is_empty()
            && code
                .split('-')
                .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()));
        assert!(kebab, "`{code}` is not kebab-case");
    }
}

#[test]
fn every_code_is_documented_in_the_template() {
    let headings = ["### What it does\n", "### Why is this bad?\n", "### Example\n", "### Use instead\n"];
    for rule in CrdRule::RULES {
        let doc = rule.doc_text();
        let mut at = 0;
        for heading in headings {
            match doc[at..].find(heading) {
                Some(i) => at += i + heading.len(),
                None => panic!("`{}`: `{}` missing or out of order", rule.code, heading.trim()),
            }
        }
        assert!(doc.starts_with(headings[0]), "`{}`: doc must start with `### What it does`", rule.code);
        assert!(!rule.summary.is_empty() && !rule.summary.ends_with('.'), "`{}`: summary", rule.code);
        assert!(rule.summary.starts_with(|c: char| !c.is_uppercase()), "`{}`: summary", rule.code);
    }
}

#[test]
fn every_code_is_emitted_by_a_fixture_and_every_emitted_code_is_documented() {
    let findings = all_findings();
    let emitted: BTreeSet<&str> = findings.iter().map(|f| f.rule.code()).collect();
    let documented: BTreeSet<&str> = CrdRule::RULES.iter().map(|r| r.code).collect();
    assert_eq!(emitted, documented);
    for f in &findings {
        assert!(f.subject.is_some(), "{}: no subject", f.rule.code());
        assert!(f.span.is_some(), "{}: no span", f.rule.code());
    }
}

fn house_style(text: &str) -> bool {
    !text.is_empty() && !text.starts_with(|c: char| c.is_uppercase()) && !text.ends_with(['.', '!'])
}

#[test]
fn messages_and_notes_are_in_the_house_style() {
    for f in all_findings() {
        assert!(house_style(&f.message), "{}: {:?}", f.rule.code(), f.message);
        for note in &f.notes {
            assert!(house_style(note), "{}: note {:?}", f.rule.code(), note);
        }
    }
    let mut errors = Vec::new();
    for path in [
        "malformed/unclosed-flow.yaml",
        "malformed/bad-indentation.yaml",
        "malformed/duplicate-key.yaml",
        "malformed/unknown-api-version.yaml",
        "malformed/wrong-shapes.yaml",
    ] {
        errors.extend(parse_manifests(&fixture(path)).err().unwrap_or_default());
    }
    for path in ["conversions/invalid-toml.toml", "conversions/wrong-entries.toml"] {
        errors.extend(parse_conversions(&fixture(path)).err().unwrap_or_default());
    }
    assert!(errors.len() > 15);
    for e in errors {
        assert!(house_style(&e.message), "{:?}", e.message);
        assert!(e.span.is_some(), "{:?}: no span", e.message);
    }
}
