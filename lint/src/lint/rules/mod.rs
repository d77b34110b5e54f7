//! One module per rule. Every module exposes its rule(s) (code, severity,
//! doc) and a `check` over the [`Context`](super::Context).

pub mod api_default_lifecycle;
pub mod api_deprecated_without_replacement;
pub mod api_lifecycle_order;
pub mod api_replacement_unavailable;
pub mod crd;
pub mod feature_without_specs;
pub mod gate_reference;
pub mod gate_setting;
pub mod locked_gate_cleanup;
pub mod orphaned_gate;
pub mod registration;
pub mod removed_gate;
pub mod rewritten_history;
pub mod storage_not_decodable;
pub mod storage_override_expired;
pub mod storage_version_without_kind;
pub mod stored_before_written;
pub mod unsafe_ratchet;

use kompat_core::Field;

use super::{Context, Diagnostic, Rule, SecondaryLabel};

type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// Every check, in no particular order (findings are sorted afterwards).
pub const CHECKS: &[Check] = &[
    registration::check,
    feature_without_specs::check,
    removed_gate::check,
    rewritten_history::check,
    locked_gate_cleanup::check,
    unsafe_ratchet::check,
    api_deprecated_without_replacement::check,
    api_default_lifecycle::check,
    api_lifecycle_order::check,
    api_replacement_unavailable::check,
    storage_version_without_kind::check,
    storage_not_decodable::check,
    storage_override_expired::check,
    stored_before_written::check,
    crd::check,
    orphaned_gate::check,
    gate_reference::check,
    gate_setting::check,
];

/// Every rule kompat lint knows, sorted by code.
pub fn all() -> Vec<Rule> {
    let mut rules = registration::rules();
    rules.extend([
        feature_without_specs::rule(),
        removed_gate::rule(),
        rewritten_history::rule(),
        locked_gate_cleanup::rule(),
        unsafe_ratchet::rule(),
        api_deprecated_without_replacement::rule(),
        api_default_lifecycle::rule(),
        api_lifecycle_order::rule(),
        api_replacement_unavailable::rule(),
        storage_version_without_kind::rule(),
        storage_not_decodable::rule(),
        storage_override_expired::rule(),
        stored_before_written::rule(),
        super::config::unused_allowance_rule(),
        orphaned_gate::rule(),
    ]);
    rules.extend(gate_reference::rules());
    rules.extend(gate_setting::rules());
    rules.extend(crd::rules());
    rules.sort_by(|a, b| a.code.cmp(b.code));
    rules
}

/// Assembles a doc in clippy's template.
pub fn doc(what: &str, why: &str, example: &str, fix: &str) -> String {
    format!(
        "### What it does\n\n{what}\n\n### Why is this bad?\n\n{why}\n\n### Example\n\n```toml\n{}\n```\n\n### Use instead\n\n```toml\n{}\n```\n",
        example.trim(),
        fix.trim()
    )
}

/// The baseline's declaration of a gate the current declarations no longer
/// have, as a secondary label.
pub fn tombstone(cx: &Context<'_>, gate: &str) -> Option<SecondaryLabel> {
    let baseline = cx.baseline?;
    let idx = baseline.features().iter().position(|f| f.name == gate)?;
    Some(SecondaryLabel {
        location: baseline.locate(idx, None, Field::Feature)?,
        message: format!("the baseline declares {gate} here"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADINGS: [&str; 4] = ["### What it does", "### Why is this bad?", "### Example", "### Use instead"];

    #[test]
    fn codes_are_unique_and_kebab_case() {
        let rules = all();
        for pair in rules.windows(2) {
            assert!(pair[0].code < pair[1].code, "`{}` is registered twice", pair[1].code);
        }
        for rule in &rules {
            let kebab = !rule.code.is_empty()
                && !rule.code.starts_with('-')
                && !rule.code.ends_with('-')
                && !rule.code.contains("--")
                && rule.code.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
            assert!(kebab, "`{}` is not kebab-case", rule.code);
        }
    }

    #[test]
    fn every_rule_has_a_doc_in_clippy_template_and_a_house_style_summary() {
        for rule in all() {
            let mut at = 0;
            for heading in HEADINGS {
                match rule.doc[at..].find(heading) {
                    Some(i) => at += i + heading.len(),
                    None => panic!("`{}`: `{heading}` missing or out of order", rule.code),
                }
            }
            assert!(rule.doc.starts_with(HEADINGS[0]), "`{}`", rule.code);
            let summary = &rule.summary;
            assert!(!summary.is_empty() && !summary.ends_with('.'), "`{}`: {summary:?}", rule.code);
            assert!(!summary.starts_with(|c: char| c.is_uppercase()), "`{}`: {summary:?}", rule.code);
        }
    }
}
