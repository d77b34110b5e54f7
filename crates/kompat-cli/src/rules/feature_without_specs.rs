//! `feature-without-specs`: a declared feature with no versioned specs.

use kompat_engine::Field;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks that every declared feature has at least one versioned spec.
    ///
    /// ### Why is this bad?
    ///
    /// A feature without specs does not exist at any version: it can never be enabled, its lifecycle is unknown, and Kubernetes' linter refuses to reason about its removal (`feature X has no version specs`).
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[feature]]
    /// name = "WidgetCache"
    /// specs = []
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// [[feature]]
    /// name = "WidgetCache"
    /// specs = [{ version = "1.37", stage = "Alpha", default = false }]
    /// ```
    pub FEATURE_WITHOUT_SPECS: Error, "a feature has no versioned specs"
}

pub static PASS: Pass = Pass { rules: &[&FEATURE_WITHOUT_SPECS], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    for (idx, feature) in cx.decls.features().iter().enumerate() {
        if feature.specs.is_empty() {
            out.push(
                FEATURE_WITHOUT_SPECS
                    .diag(
                        format!("feature {} has no version specs", feature.name),
                        cx.decls.locate(idx, None, Field::Feature),
                    )
                    .with_subject(feature.name.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn feature_without_specs() {
        check(
            r##"
//- features.toml
[[feature]]
name = "Nothing"
#      ^^^^^^^^^ error[feature-without-specs]: feature Nothing has no version specs
specs = []
"##,
        );
    }
}
