//! `api-default-lifecycle`: a non-GA API version whose deprecation or removal
//! comes from prerelease-lifecycle-gen's defaults, not from the declaration.

use kompat_engine::api::{is_ga, ApiField};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Points out alpha and beta API versions that do not declare `deprecated` or `removed`, and so follow prerelease-lifecycle-gen's defaults: deprecated three minors after introduction, removed three minors after that.
    ///
    /// ### Why is this bad?
    ///
    /// The defaults decide when kube-apiserver stops serving the version. Writing the versions down makes the plan visible in review, and makes a later change to it a deliberate edit.
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[api]]
    /// group = "widgets.example.io"
    /// version = "v1beta1"
    /// kind = "Widget"
    /// resource = "widgets"
    /// introduced = "1.32"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// [[api]]
    /// group = "widgets.example.io"
    /// version = "v1beta1"
    /// kind = "Widget"
    /// resource = "widgets"
    /// introduced = "1.32"
    /// deprecated = "1.35"
    /// removed = "1.38"
    /// ```
    pub API_DEFAULT_LIFECYCLE: Note, "a non-GA API version relies on the default deprecation and removal"
}

pub static PASS: Pass = Pass { rules: &[&API_DEFAULT_LIFECYCLE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for api in set.apis() {
        if is_ga(api.version()) {
            continue;
        }
        let Some(decl) = cx.decls.api_decl(api.index) else { continue };
        let mut defaults = Vec::new();
        if decl.deprecated.is_none() {
            if let Some(d) = api.lifecycle.deprecated {
                defaults.push(format!("deprecation in {d}"));
            }
        }
        if decl.removed.is_none() {
            if let Some(r) = api.lifecycle.removed {
                defaults.push(format!("removal in {r}"));
            }
        }
        if defaults.is_empty() {
            continue;
        }
        out.push(
            API_DEFAULT_LIFECYCLE
                .diag(
                    format!("{} relies on the default {}", api.gvk, defaults.join(" and ")),
                    cx.decls.locate_api(api.index, ApiField::Introduced),
                )
                .with_subject(api.gvk.to_string()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn api_default_lifecycle() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"
#            ^^^^^^ note[api-default-lifecycle]: widgets.example.io/v1beta1/Widget relies on the default deprecation in 1.33 and removal in 1.36
replacement = "widgets.example.io/v1/Widget"

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.31"
"##,
        );
    }
}
