//! `storage-override-expired`: a storage-version pin still present at or
//! after the version it was declared to be gone by.

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "storage-override-expired";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "a storage override is pinned past its declared expiry".to_owned(),
        doc: doc(
            "Checks storage overrides declared with an expiry (`{ version = \"v1beta1\", until = \"1.38\" }`) and reports those still present at a binary version at or after `until`.",
            "A pin keeps a resource stored in an old version even when every peer reads the new one: the old version cannot be removed, and the automatic choice that would keep upgrades safe is bypassed. Kubernetes carries pins like this with \"TODO: remove in 1.37\" comments that outlive their release (kubernetes#136994).",
            "# binary 1.38\n[storage_overrides]\n\"widgets.example.io/widgetpolicies\" = { version = \"v1beta1\", until = \"1.38\" }",
            "# remove the pin; the two-pass choice takes over\n[storage_overrides]",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(binary), true) = (cx.binary, cx.apis.is_some()) else { return };
    let config = cx.decls.api_config();
    for (key, until) in &config.storage_override_until {
        if binary < *until {
            continue;
        }
        let version = config.storage_overrides.get(key).cloned().unwrap_or_default();
        out.push(Diagnostic {
            code: CODE,
            severity: Severity::Error,
            message: format!(
                "storage override pins {key} to {version} at {binary}, but it was to be removed by {until}"
            ),
            location: cx.decls.locate_override(key),
            subject: Some(key.clone()),
            notes: vec!["remove the pin once every supported peer decodes the automatically chosen version".to_owned()],
            labels: Vec::new(),
        });
    }
}
