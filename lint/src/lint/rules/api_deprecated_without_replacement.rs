//! `api-deprecated-without-replacement`: an API version that is deprecated
//! at the binary version but names no replacement.

use kompat_core::api::{is_ga, ApiField};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "api-deprecated-without-replacement";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Warning,
        summary: "a deprecated API version names no replacement".to_owned(),
        doc: doc(
            "Checks that every API version deprecated at the binary version (explicitly, or by prerelease-lifecycle-gen's default for non-GA versions) declares its `replacement`.",
            "kube-apiserver's deprecation warning tells clients what to use instead only when the replacement is declared (`...; use batch/v1 CronJob`); without it users learn that something goes away, not where to go.",
            "[[api]]\ngroup = \"batch\"\nversion = \"v1beta1\"\nkind = \"CronJob\"\nresource = \"cronjobs\"\nintroduced = \"1.8\"\ndeprecated = \"1.21\"",
            "[[api]]\ngroup = \"batch\"\nversion = \"v1beta1\"\nkind = \"CronJob\"\nresource = \"cronjobs\"\nintroduced = \"1.8\"\ndeprecated = \"1.21\"\nreplacement = \"batch/v1/CronJob\"",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    for api in set.apis() {
        if api.replacement.is_some() {
            continue;
        }
        let Some(deprecated) = api.lifecycle.deprecated else { continue };
        let explicit = cx.decls.api_decl(api.index).is_some_and(|d| d.deprecated.is_some());
        let deprecated_now = match cx.binary {
            Some(binary) => deprecated <= binary,
            None => explicit,
        };
        // An alpha or beta that is already removed needs no pointer any more.
        let removed = matches!((api.lifecycle.removed, cx.binary), (Some(r), Some(b)) if r <= b);
        if !deprecated_now || removed || (!explicit && is_ga(api.version())) {
            continue;
        }
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Warning,
            message: format!("{} is deprecated since {deprecated} but names no replacement", api.gvk),
            location: cx.decls.locate_api(api.index, ApiField::Entry),
            subject: Some(api.gvk.to_string()),
            notes: Vec::new(),
            labels: Vec::new(),
        });
    }
}
