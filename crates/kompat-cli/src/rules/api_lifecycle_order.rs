//! `api-lifecycle-order`: an API version's lifecycle is out of order:
//! deprecated before it is introduced, or removed no later than it is
//! introduced or deprecated.

use kompat_engine::api::{Api, ApiDecl, ApiField};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks that every API version is introduced, then deprecated, then removed, in that order, with at least one release in between each: deprecated at or after `introduced`, removed after `introduced` and after the deprecation (written, or prerelease-lifecycle-gen's default).
    ///
    /// ### Why is this bad?
    ///
    /// kube-apiserver accepts any versions and acts on each separately: a version removed no later than it is introduced is never served, and one removed no later than it is deprecated goes away without a single release of deprecation warnings, which Kubernetes' deprecation policy exists to guarantee. Either is almost always a typo.
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
    /// deprecated = "1.35"
    /// removed = "1.34"
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
    pub API_LIFECYCLE_ORDER: Error, "an API version's lifecycle versions are out of order"
}

pub static PASS: Pass = Pass { rules: &[&API_LIFECYCLE_ORDER], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for api in set.apis() {
        let Some(decl) = cx.decls.api_decl(api.index) else { continue };
        let Some((field, message)) = problem(api, decl) else { continue };
        out.push(
            API_LIFECYCLE_ORDER.diag(message, cx.decls.locate_api(api.index, field)).with_subject(api.gvk.to_string()),
        );
    }
}

/// The first ordering problem of `api`: the field to point at and the message.
fn problem(api: &Api, decl: &ApiDecl) -> Option<(ApiField, String)> {
    let (gvk, life) = (&api.gvk, &api.lifecycle);
    let introduced = life.introduced;
    if let Some(deprecated) = life.deprecated.filter(|d| *d < introduced) {
        return Some((
            ApiField::Deprecated,
            format!("{gvk} is deprecated in {deprecated}, before it is introduced in {introduced}"),
        ));
    }
    let removed = life.removed?;
    if removed <= introduced {
        return Some((
            ApiField::Removed,
            format!(
                "{gvk} is removed in {removed}, no later than it is introduced in {introduced}: no release serves it"
            ),
        ));
    }
    let deprecated = life.deprecated.filter(|d| removed <= *d)?;
    let (field, how) = match (decl.removed.is_some(), decl.deprecated.is_some()) {
        (true, true) => (ApiField::Removed, "its deprecation"),
        (true, false) => (ApiField::Removed, "its default deprecation"),
        _ => (ApiField::Deprecated, "its deprecation"),
    };
    Some((
        field,
        format!(
            "{gvk} is removed in {removed}, no later than {how} in {deprecated}: no release serves it with a deprecation warning"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn api_lifecycle_order() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
# Seeded violation: a beta removed before its deprecation, so no release
# serves it with a deprecation warning.

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"

[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.28"
deprecated = "1.33"
removed = "1.32"
#         ^^^^^^ error[api-lifecycle-order]: widgets.example.io/v1beta1/Widget is removed in 1.32, no later than its deprecation in 1.33: no release serves it with a deprecation warning
replacement = "widgets.example.io/v1/Widget"
"##,
        );
    }
}
