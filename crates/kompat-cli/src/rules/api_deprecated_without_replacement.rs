//! `api-deprecated-without-replacement`: an API version that is deprecated
//! at the binary version but names no replacement.

use kompat_engine::api::{is_ga, ApiField};

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks that every API version deprecated at the binary version (explicitly, or by prerelease-lifecycle-gen's default for non-GA versions) declares its `replacement`.
    ///
    /// ### Why is this bad?
    ///
    /// kube-apiserver's deprecation warning tells clients what to use instead only when the replacement is declared (`...; use batch/v1 CronJob`); without it users learn that something goes away, not where to go.
    ///
    /// ### Example
    ///
    /// ```toml
    /// [[api]]
    /// group = "batch"
    /// version = "v1beta1"
    /// kind = "CronJob"
    /// resource = "cronjobs"
    /// introduced = "1.8"
    /// deprecated = "1.21"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// [[api]]
    /// group = "batch"
    /// version = "v1beta1"
    /// kind = "CronJob"
    /// resource = "cronjobs"
    /// introduced = "1.8"
    /// deprecated = "1.21"
    /// replacement = "batch/v1/CronJob"
    /// ```
    pub API_DEPRECATED_WITHOUT_REPLACEMENT: Warning, "a deprecated API version names no replacement"
}

pub static PASS: Pass = Pass { rules: &[&API_DEPRECATED_WITHOUT_REPLACEMENT], check: Some(check) };

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
        out.push(
            API_DEPRECATED_WITHOUT_REPLACEMENT
                .diag(
                    format!("{} is deprecated since {deprecated} but names no replacement", api.gvk),
                    cx.decls.locate_api(api.index, ApiField::Entry),
                )
                .with_subject(api.gvk.to_string()),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn api_deprecated_without_replacement() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
#@0 ^^^^^^^ warning[api-deprecated-without-replacement]: widgets.example.io/v1/Widget is deprecated since 1.30 but names no replacement
group = "widgets.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.20"
deprecated = "1.30"
"##,
        );
    }
}
