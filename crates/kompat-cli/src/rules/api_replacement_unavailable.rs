//! `api-replacement-unavailable`: an API version's replacement is not
//! declared, or is not served alongside it for a release before it goes.

use kompat_engine::api::{Api, ApiField, ApiSet};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::{Diagnostic, Label};

declare_rule! {
    /// ### What it does
    ///
    /// Checks the `replacement` of every API version: it must be declared, introduced before the replaced version is removed, and not removed before it.
    ///
    /// ### Why is this bad?
    ///
    /// Clients move to the replacement while both versions are served. If the replacement is introduced only when (or after) the old version is removed, or goes away first, there is no release in which they can migrate, and kube-apiserver's deprecation warning (`...; use widgets.example.io/v1 Widget`) points at an API that does not exist.
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
    /// removed = "1.38"
    /// replacement = "widgets.example.io/v1/Widget"
    ///
    /// [[api]]
    /// group = "widgets.example.io"
    /// version = "v1"
    /// kind = "Widget"
    /// resource = "widgets"
    /// introduced = "1.38"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # introduce the replacement at the latest one release before the removal
    /// [[api]]
    /// group = "widgets.example.io"
    /// version = "v1"
    /// kind = "Widget"
    /// resource = "widgets"
    /// introduced = "1.35"
    /// ```
    pub API_REPLACEMENT_UNAVAILABLE: Error, "an API version's replacement is undeclared or not served before it is removed"
}

pub static PASS: Pass = Pass { rules: &[&API_REPLACEMENT_UNAVAILABLE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for api in set.apis() {
        let Some((message, other)) = problem(set, api) else { continue };
        let labels: Vec<Label> = other
            .and_then(|(index, field, text)| {
                Some(Label { location: cx.decls.locate_api(index, field)?, message: text })
            })
            .into_iter()
            .collect();
        out.push(
            API_REPLACEMENT_UNAVAILABLE
                .diag(message, cx.decls.locate_api(api.index, ApiField::Replacement))
                .with_subject(api.gvk.to_string())
                .with_labels(labels),
        );
    }
}

/// A field of another API declaration to show next to a finding: its index,
/// the field, the label.
type Related = (usize, ApiField, String);

/// The problem with `api`'s replacement, if any, and the replacement's field
/// to show next to it.
fn problem(set: &ApiSet, api: &Api) -> Option<(String, Option<Related>)> {
    let wanted = api.replacement.as_ref()?;
    let gvk = &api.gvk;
    let Some(replacement) = set.find_kind(&wanted.group, wanted.version.as_str(), &wanted.kind) else {
        return Some((format!("the replacement of {gvk}, {wanted}, is not declared"), None));
    };
    let introduced = replacement.lifecycle.introduced;
    if let Some(removed) = api.lifecycle.removed.filter(|r| introduced >= *r) {
        return Some((
            format!(
                "the replacement of {gvk}, {wanted}, is introduced in {introduced}, not before {gvk} is removed in {removed}: no release serves both"
            ),
            Some((replacement.index, ApiField::Introduced, "the replacement is introduced here".to_owned())),
        ));
    }
    let gone = replacement.lifecycle.removed?;
    if api.lifecycle.removed.is_none_or(|removed| gone <= removed) {
        let until = match api.lifecycle.removed {
            Some(removed) => format!("no later than {gvk} is removed in {removed}"),
            None => format!("while {gvk} is never removed"),
        };
        return Some((
            format!("the replacement of {gvk}, {wanted}, is removed in {gone}, {until}"),
            Some((replacement.index, ApiField::Removed, "the replacement is removed here".to_owned())),
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn api_replacement_unavailable() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
# Seeded violation: the replacement is introduced in the release that
# removes the beta, so no release serves both.

[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.28"
deprecated = "1.31"
removed = "1.34"
replacement = "widgets.example.io/v1/Widget"
#             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[api-replacement-unavailable]: the replacement of widgets.example.io/v1beta1/Widget, widgets.example.io/v1/Widget, is introduced in 1.34, not before widgets.example.io/v1beta1/Widget is removed in 1.34: no release serves both

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.34"
"##,
        );
    }
}
