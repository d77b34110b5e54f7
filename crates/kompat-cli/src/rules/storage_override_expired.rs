//! `storage-override-expired`: a storage-version pin still present at or
//! after the version it was declared to be gone by.

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// Checks storage overrides declared with an expiry (`{ version = "v1beta1", until = "1.38" }`) and reports those still present at a binary version at or after `until`.
    ///
    /// ### Why is this bad?
    ///
    /// A pin keeps a resource stored in an old version even when every peer reads the new one: the old version cannot be removed, and the automatic choice that would keep upgrades safe is bypassed. Kubernetes carries pins like this with "TODO: remove in 1.37" comments that outlive their release (kubernetes#136994).
    ///
    /// ### Example
    ///
    /// ```toml
    /// # binary 1.38
    /// [storage_overrides]
    /// "widgets.example.io/widgetpolicies" = { version = "v1beta1", until = "1.38" }
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # remove the pin; the two-pass choice takes over
    /// [storage_overrides]
    /// ```
    pub STORAGE_OVERRIDE_EXPIRED: Error, "a storage override is pinned past its declared expiry"
}

pub static PASS: Pass = Pass { rules: &[&STORAGE_OVERRIDE_EXPIRED], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(binary), true) = (cx.binary, cx.apis.is_some()) else { return };
    let config = cx.decls.api_config();
    for (key, until) in &config.storage_override_until {
        if binary < *until {
            continue;
        }
        let version = config.storage_overrides.get(key).cloned().unwrap_or_default();
        out.push(
            STORAGE_OVERRIDE_EXPIRED
                .diag(
                    format!(
                        "storage override pins {key} to {version} at {binary}, but it was to be removed by {until}"
                    ),
                    cx.decls.locate_override(key),
                )
                .with_subject(key.clone())
                .with_notes(vec![
                    "remove the pin once every supported peer decodes the automatically chosen version".to_owned()
                ]),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn storage_override_expired() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "widgets.example.io"
version = "v1beta1"
kind = "WidgetPolicy"
resource = "widgetpolicies"
introduced = "1.30"
deprecated = "1.38"
removed = "1.42"
replacement = "widgets.example.io/v1/WidgetPolicy"

[[api]]
group = "widgets.example.io"
version = "v1"
kind = "WidgetPolicy"
resource = "widgetpolicies"
introduced = "1.32"

[storage_overrides]
"widgets.example.io/widgetpolicies" = { version = "v1", until = "1.37" }
#@0 ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[storage-override-expired]: storage override pins widgets.example.io/widgetpolicies to v1 at 1.37, but it was to be removed by 1.37
"##,
        );
    }
}
