//! `api-replacement-unavailable`: an API version's replacement is not
//! declared, or is not served alongside it for a release before it goes.

use kompat_core::api::{Api, ApiField, ApiSet};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, SecondaryLabel, Severity};

pub const CODE: &str = "api-replacement-unavailable";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "an API version's replacement is undeclared or not served before it is removed".to_owned(),
        doc: doc(
            "Checks the `replacement` of every API version: it must be declared, introduced before the replaced version is removed, and not removed before it.",
            "Clients move to the replacement while both versions are served. If the replacement is introduced only when (or after) the old version is removed, or goes away first, there is no release in which they can migrate, and kube-apiserver's deprecation warning (`...; use widgets.example.io/v1 Widget`) points at an API that does not exist.",
            "[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1beta1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.32\"\ndeprecated = \"1.35\"\nremoved = \"1.38\"\nreplacement = \"widgets.example.io/v1/Widget\"\n\n[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.38\"",
            "# introduce the replacement at the latest one release before the removal\n[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.35\"",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for api in set.apis() {
        let Some((message, other)) = problem(set, api) else { continue };
        let labels = other
            .and_then(|(index, field, text)| {
                Some(SecondaryLabel { location: cx.decls.locate_api(index, field)?, message: text })
            })
            .into_iter()
            .collect();
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Error,
            message,
            location: cx.decls.locate_api(api.index, ApiField::Replacement),
            subject: Some(api.gvk.to_string()),
            notes: Vec::new(),
            labels,
        });
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
