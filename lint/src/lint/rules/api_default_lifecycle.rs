//! `api-default-lifecycle`: a non-GA API version whose deprecation or removal
//! comes from prerelease-lifecycle-gen's defaults, not from the declaration.

use kompat_core::api::{is_ga, ApiField};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "api-default-lifecycle";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Note,
        summary: "a non-GA API version relies on the default deprecation and removal".to_owned(),
        doc: doc(
            "Points out alpha and beta API versions that do not declare `deprecated` or `removed`, and so follow prerelease-lifecycle-gen's defaults: deprecated three minors after introduction, removed three minors after that.",
            "The defaults decide when kube-apiserver stops serving the version. Writing the versions down makes the plan visible in review, and makes a later change to it a deliberate edit.",
            "[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1beta1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.32\"",
            "[[api]]\ngroup = \"widgets.example.io\"\nversion = \"v1beta1\"\nkind = \"Widget\"\nresource = \"widgets\"\nintroduced = \"1.32\"\ndeprecated = \"1.35\"\nremoved = \"1.38\"",
        ),
    }
}

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
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Note,
            message: format!("{} relies on the default {}", api.gvk, defaults.join(" and ")),
            location: cx.decls.locate_api(api.index, ApiField::Introduced),
            subject: Some(api.gvk.to_string()),
            notes: Vec::new(),
            labels: Vec::new(),
        });
    }
}
