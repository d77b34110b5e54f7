//! One module per rule (or per family of codes from one source). Every
//! module declares its rules once, with [`kompat_diag::declare_rule!`] (one
//! rule: its name, from which the code is derived, default severity, summary
//! and doc in clippy's template) or [`kompat_diag::declare_rules!`] (a family:
//! one kind enum, its variants the codes; or the rules of a kind enum of
//! `kompat-engine` or `kompat-crd`), and exposes them with its check as a
//! [`Pass`]. The modules are listed once, in `passes!`, which yields both
//! their `pub mod` lines and [`PASSES`]: adding a rule touches its module
//! and, for a new module, that list.

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
    pub check: Option<Check>,
}

/// What a pass runs: its findings over the context, pushed.
pub type Check = fn(&Context<'_>, &mut Vec<Diagnostic>);

/// Declares the rule modules once: each is a `pub mod` and its `PASS` is in
/// [`PASSES`], so a module cannot be compiled without being run, nor listed
/// without existing. `MODULES` names them for the test that every module
/// file under `rules/` is listed.
macro_rules! passes {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every pass, in no particular order (findings are sorted afterwards).
        pub static PASSES: &[&Pass] = &[$(&$module::PASS),*];

        /// The module of each pass, in the order of [`PASSES`].
        #[cfg(test)]
        const MODULES: &[&str] = &[$(stringify!($module)),*];
    };
}

passes![
    registration,
    api_declaration,
    feature_without_specs,
    removed_gate,
    rewritten_history,
    locked_gate_cleanup,
    unsafe_ratchet,
    api_deprecated_without_replacement,
    api_default_lifecycle,
    api_lifecycle_order,
    api_replacement_unavailable,
    storage_version_without_kind,
    storage_not_decodable,
    storage_override_expired,
    stored_before_written,
    crd,
    crd_lifecycle,
    orphaned_gate,
    gate_reference,
    gate_setting,
    deploy_setting,
    removed_api_version,
    deprecated_api_version,
    unserved_api_version,
    unknown_api_kind,
    rbac_removed_resource,
    rbac_missing_replacement,
    rbac_unknown_resource,
    unused_allowance,
    missing_input,
    render_failed,
    inline_allow,
    plan,
];

/// The passes whose findings depend on the Kubernetes release judged at
/// (they read `Context::manifests`, `serve`, `setting_binary`,
/// `setting_gates` or `kubernetes_gates`): on an upgrade path
/// (`--kubernetes-version A..B`) they run at every step, the others once.
pub fn judges_kubernetes_version(pass: &Pass) -> bool {
    [
        &removed_api_version::PASS,
        &deprecated_api_version::PASS,
        &unserved_api_version::PASS,
        &unknown_api_kind::PASS,
        &rbac_removed_resource::PASS,
        &rbac_missing_replacement::PASS,
        &gate_setting::PASS,
        &deploy_setting::PASS,
        &missing_input::PASS,
    ]
    .iter()
    .any(|p| std::ptr::eq(*p, pass))
}

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

/// The rule with `code`, or with the code an alias in [`ALIASES`] now
/// stands for.
pub fn find(code: &str) -> Option<&'static Rule> {
    let code = canonical(code);
    PASSES.iter().flat_map(|p| p.rules.iter().copied()).find(|r| r.code == code)
}

/// Codes kompat reported once and no longer does, each with the code that
/// reports the same findings now: configuration that names an old code
/// (`[lint.levels]`, `[[lint.allow]]`, `-A`/`-W`/`-D`, inline and Rust
/// allowances, `kompat explain`) applies to the new one.
pub const ALIASES: &[(&str, &str)] = &[
    // `apiextensions.k8s.io/v1beta1` CRDs are manifest objects like any
    // other, checked at the target version.
    ("removed-crd-api-version", "removed-api-version"),
];

/// `code`, or the code it is an alias of.
pub fn canonical(code: &str) -> &str {
    ALIASES.iter().find(|(old, _)| *old == code).map_or(code, |(_, new)| new)
}

/// True when `code` names a rule, directly or through an alias.
pub fn known(code: &str, rules: &[&Rule]) -> bool {
    let code = canonical(code);
    rules.iter().any(|r| r.code == code)
}

/// The note on an alias: `` `OLD` is now `NEW` ``, `None` for a code that
/// is no alias.
pub fn alias_note(code: &str) -> Option<String> {
    let new = canonical(code);
    (new != code).then(|| format!("`{code}` is now `{new}`: the same findings, under the code kompat reports"))
}

/// True when `decls` declares gate `name` only in unversioned Go
/// `FeatureSpec` maps (registered with `Add`): one spec at 0.0 for every
/// version, with no history of versions, so the rules about when a gate
/// changed (`locked-gate-cleanup`, `removed-gate`, `rewritten-history`) have
/// nothing to judge; Kubernetes' own checks read only versioned lists.
pub fn unversioned(decls: &kompat_project::Decls, name: &str) -> bool {
    decls.go().is_some_and(|go| go.unread_by_tool().unversioned.contains(name))
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

    /// The static names of the rules a module declares with `declare_rule!`
    /// (the line after the doc comment: `pub NAME: Severity, "summary"`).
    fn declared_rules(source: &str) -> Vec<String> {
        source
            .split("declare_rule! {")
            .skip(1)
            .filter_map(|block| block.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with("///")))
            .filter_map(|line| line.trim_start_matches("pub ").split(':').next().map(str::to_owned))
            .collect()
    }

    #[test]
    fn every_module_file_is_a_pass_and_every_rule_is_in_its_pass() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("src/rules is readable")
            .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
            .filter_map(|name| name.strip_suffix(".rs").map(str::to_owned))
            .filter(|name| name != "mod")
            .collect();
        files.sort();
        let mut listed: Vec<String> = MODULES.iter().map(|m| (*m).to_owned()).collect();
        listed.sort();
        assert_eq!(files, listed, "every module file under src/rules/ is listed once in `passes!`");

        let mut singles = 0;
        for (module, pass) in MODULES.iter().zip(PASSES) {
            let source = std::fs::read_to_string(dir.join(format!("{module}.rs"))).expect("a rule module is readable");
            for name in declared_rules(&source) {
                let code = name.to_lowercase().replace('_', "-");
                assert!(
                    pass.rules.iter().any(|r| r.code == code),
                    "`{code}` is declared in {module}.rs but not in its PASS"
                );
                singles += 1;
            }
        }
        assert!(singles > 20, "the declared rules are found ({singles})");
    }

    /// A module that reads what changes with the Kubernetes release is
    /// rerun at every step of an upgrade path.
    #[test]
    fn passes_that_read_the_kubernetes_release_run_at_every_step() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules");
        let reads =
            ["cx.manifests", "cx.serve", "setting_binary", "setting_gates", "kubernetes_gates", "setting_groups"];
        let mut judged = 0;
        for (module, pass) in MODULES.iter().zip(PASSES) {
            let source = std::fs::read_to_string(dir.join(format!("{module}.rs"))).expect("a rule module is readable");
            let code = source.split("#[cfg(test)]").next().unwrap_or_default();
            // A field's name whole (`cx.serve`, not `cx.server_storage`).
            let reads_field = |r: &str| {
                code.match_indices(r)
                    .any(|(at, _)| !code[at + r.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_'))
            };
            if reads.iter().any(|r| reads_field(r)) {
                assert!(
                    judges_kubernetes_version(pass),
                    "{module} reads the Kubernetes release but runs once on a path"
                );
                judged += 1;
            }
        }
        assert!(judged >= 6, "{judged}");
    }

    #[test]
    fn aliases_name_no_rule_and_stand_for_one() {
        for (old, new) in ALIASES {
            assert!(all().iter().all(|r| r.code != *old), "`{old}` is an alias and a rule");
            assert_eq!(find(old).map(|r| r.code), Some(*new));
            assert_eq!(canonical(old), *new);
            assert!(alias_note(old).is_some_and(|n| n.contains(new)));
        }
        assert_eq!(canonical("removed-gate"), "removed-gate");
        assert_eq!(alias_note("removed-gate"), None);
        assert!(known("removed-crd-api-version", &all()));
        assert!(!known("removed-crd-api-versions", &all()));
    }

    #[test]
    fn declared_rules_are_read_from_the_source() {
        let source = "declare_rule! {\n    /// ### What it does\n    pub BLUE_WIDGET: Warning, \"a widget\"\n}\n\ndeclare_rule! {\n    OTHER: Error, \"x\"\n}";
        assert_eq!(declared_rules(source), ["BLUE_WIDGET", "OTHER"]);
        assert!(declared_rules("no rules here").is_empty());
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
