//! One module per rule (or per family of codes from one source). Every
//! module declares its rules with [`kompat_diag::declare_rule!`] (code,
//! default severity, doc in clippy's template) and exposes them with its
//! check as a [`Pass`].

pub mod api_declaration;
pub mod api_default_lifecycle;
pub mod api_deprecated_without_replacement;
pub mod api_lifecycle_order;
pub mod api_replacement_unavailable;
pub mod crd;
pub mod crd_lifecycle;
pub mod deploy_setting;
pub mod deprecated_api_version;
pub mod feature_without_specs;
pub mod gate_reference;
pub mod gate_setting;
pub mod inline_allow;
pub mod locked_gate_cleanup;
pub mod missing_input;
pub mod orphaned_gate;
pub mod plan;
pub mod registration;
pub mod removed_api_version;
pub mod removed_gate;
pub mod rewritten_history;
pub mod storage_not_decodable;
pub mod storage_override_expired;
pub mod storage_version_without_kind;
pub mod stored_before_written;
pub mod unsafe_ratchet;
pub mod unserved_api_version;
pub mod unused_allowance;

use kompat_diag::Label;
use kompat_engine::Field;

use crate::Context;
use kompat_diag::{Diagnostic, Rule};

/// A check and the rules whose findings it reports. Every rule is declared in
/// exactly one pass; [`PASSES`] is the one list of them.
pub struct Pass {
    pub rules: &'static [&'static Rule],
    /// `None` for rules reported outside the rule run (`unused-allowance`,
    /// reported while levels and allowances are applied).
    pub check: Option<fn(&Context<'_>, &mut Vec<Diagnostic>)>,
}

/// Every pass, in no particular order (findings are sorted afterwards).
pub static PASSES: &[&Pass] = &[
    &registration::PASS,
    &api_declaration::PASS,
    &feature_without_specs::PASS,
    &removed_gate::PASS,
    &rewritten_history::PASS,
    &locked_gate_cleanup::PASS,
    &unsafe_ratchet::PASS,
    &api_deprecated_without_replacement::PASS,
    &api_default_lifecycle::PASS,
    &api_lifecycle_order::PASS,
    &api_replacement_unavailable::PASS,
    &storage_version_without_kind::PASS,
    &storage_not_decodable::PASS,
    &storage_override_expired::PASS,
    &stored_before_written::PASS,
    &crd::PASS,
    &crd_lifecycle::PASS,
    &orphaned_gate::PASS,
    &gate_reference::PASS,
    &gate_setting::PASS,
    &deploy_setting::PASS,
    &removed_api_version::PASS,
    &deprecated_api_version::PASS,
    &unserved_api_version::PASS,
    &unused_allowance::PASS,
    &missing_input::PASS,
    &inline_allow::PASS,
    &plan::PASS,
];

/// Every rule kompat lint knows, sorted by code.
pub fn all() -> Vec<&'static Rule> {
    let mut rules: Vec<&'static Rule> = PASSES.iter().flat_map(|p| p.rules.iter().copied()).collect();
    rules.sort_by(|a, b| a.code.cmp(b.code));
    rules
}

/// ` (did you mean `CODE`?)` when a registered code is close to `unknown`,
/// else nothing: the hint every message about an unknown code carries.
pub fn code_hint(unknown: &str) -> String {
    hint(kompat_runtime::suggest::did_you_mean(unknown, all().iter().map(|r| r.code)))
}

/// ` (did you mean `NAME`?)` for a suggestion, else nothing: the one
/// wording of a hint in a message.
pub fn hint(suggestion: Option<&str>) -> String {
    suggestion.map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default()
}

/// The rule with `code`.
pub fn find(code: &str) -> Option<&'static Rule> {
    PASSES.iter().flat_map(|p| p.rules.iter().copied()).find(|r| r.code == code)
}

/// The baseline's declaration of a gate the current declarations no longer
/// have, as a secondary label.
pub fn tombstone(cx: &Context<'_>, gate: &str) -> Option<Label> {
    let baseline = cx.baseline?;
    let idx = baseline.features().iter().position(|f| f.name == gate)?;
    Some(Label {
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
            let doc = rule.doc_text();
            let mut at = 0;
            for heading in HEADINGS {
                match doc[at..].find(heading) {
                    Some(i) => at += i + heading.len(),
                    None => panic!("`{}`: `{heading}` missing or out of order", rule.code),
                }
            }
            assert!(doc.starts_with(HEADINGS[0]), "`{}`", rule.code);
            let summary = rule.summary;
            assert!(!summary.is_empty() && !summary.ends_with('.'), "`{}`: {summary:?}", rule.code);
            assert!(!summary.starts_with(|c: char| c.is_uppercase()), "`{}`: {summary:?}", rule.code);
        }
    }
}
