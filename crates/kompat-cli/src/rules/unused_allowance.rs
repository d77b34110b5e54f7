//! `unused-allowance`: a `[[lint.allow]]` entry in kompat.toml, a
//! `#[kompat(allow(...))]` attribute on a gate declared in Rust, or an inline
//! allowance in a manifest (`inline_allow.rs`), that suppressed nothing or
//! names no known code.
//!
//! Unlike the other rules it does not look at the declarations: it is
//! reported while levels and allowances are applied to the findings of every
//! other rule ([`crate::config`]), through the constructors here.

use kompat_diag::declare_rule;
use kompat_diag::Location;

use super::Pass;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Reports `[[lint.allow]]` entries in kompat.toml, `#[kompat(allow(...))]` attributes on gates declared in Rust, and inline allowances in YAML and JSON manifests (`ignore-check.kompat.io/<code>` annotations, `# kompat:allow(<code>) reason` comments) that suppressed nothing in this run or name no known code.
    ///
    /// ### Why is this bad?
    ///
    /// A stale allowance silently hides the next real finding with the same code and subject.
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[lint.allow]]
    /// code = "removed-gate"
    /// subject = "GoneLongAgo"
    /// reason = "..."
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # delete the allowance
    /// ```
    pub UNUSED_ALLOWANCE: Warning, "an allowance (kompat.toml, Rust attribute or manifest) matches no finding"
}

pub static PASS: Pass = Pass { rules: &[&UNUSED_ALLOWANCE], check: None };

/// A `[[lint.allow]]` entry that matched no finding; `suggestion` is the
/// subject of a finding of that code close to the one it names.
pub fn unused_config_allow(
    code: &str,
    subject: Option<&str>,
    suggestion: Option<&str>,
    location: Option<Location>,
) -> Diagnostic {
    let on = subject.map(|s| format!(" on {s}")).unwrap_or_default();
    let hint = super::hint(suggestion);
    let mut diag = UNUSED_ALLOWANCE.diag(format!("allowance for `{code}`{on} matches no finding{hint}"), location);
    diag.subject = subject.map(Into::into);
    diag
}

/// A `#[kompat(allow(...))]` on `gate` that matched no finding (`hint` is
/// `None`) or names an unknown code (`hint` is the did-you-mean suffix).
pub fn unused_source_allow(gate: &str, code: &str, unknown: Option<String>, location: Location) -> Diagnostic {
    let message = match unknown {
        None => format!("`#[kompat(allow(code = \"{code}\"))]` on {gate} matches no finding"),
        Some(hint) => format!("`#[kompat(allow(...))]` on {gate} names unknown lint code `{code}`{hint}"),
    };
    UNUSED_ALLOWANCE.diag(message, location).with_subject(gate)
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn unused_allowance() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
decls = ["features.toml"]

[[lint.allow]]
#@0 ^^^^^^^^^^^^^^ warning[unused-allowance]: allowance for `removed-gate` on LongGone matches no finding
code = "removed-gate"
subject = "LongGone"
reason = "removed before the 1.0 release; kept here by mistake"
//- features.toml
[[feature]]
name = "Kept"
specs = [
  { version = "1.36", stage = "Alpha", default = false },
]
"##,
        );
    }

    #[test]
    fn unused_allowance_naming_a_gate_close_to_a_finding() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"

[[lint.allow]]
#@0 ^^^^^^^^^^^^^^ warning[unused-allowance]: allowance for `locked-gate-cleanup` on Anceint matches no finding (did you mean `Ancient`?)
code = "locked-gate-cleanup"
subject = "Anceint"
reason = "removed next release"
//- features.toml
[[feature]]
name = "Ancient"
specs = [
  { version = "1.0", stage = "GA", default = true },
  { version = "1.32", stage = "GA", default = true, lockToDefault = true },
#                                                                   ^^^^ warning[locked-gate-cleanup]: feature Ancient has been locked to default since 1.32 (5 releases) and should be cleaned up
]
"##,
        );
    }
}
