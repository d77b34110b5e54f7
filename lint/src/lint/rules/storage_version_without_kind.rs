//! `storage-version-without-kind`: at some point of the window the storage
//! version falls back to the group's top version, which lacks the kind.

use kompat_core::api::{storage_versions, ApiField};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "storage-version-without-kind";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "the storage version of a resource lacks its kind at some emulation version".to_owned(),
        doc: doc(
            "Computes the storage version of every resource at every emulation and min-compatibility version in the window, and reports a resource whose storage version falls back to the group's top version while that version does not have the resource's kind.",
            "When every version of a kind was introduced after the emulation version, kube-apiserver falls back to the group's preferred version; if that version lacks the kind, building the resource's storage fails its codec check and the server does not start (kubernetes#141148).",
            "# WidgetPool exists only in v1beta1 (introduced 1.37); the group's top version v1 has no WidgetPool\n# emulating 1.36 falls back to widgets.example.io/v1",
            "# pin the storage version while emulating older releases:\n[storage_overrides]\n\"widgets.example.io/widgetpools\" = \"v1beta1\"",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(set), Some(binary)) = (cx.apis, cx.binary) else { return };
    let mut reported = std::collections::BTreeSet::new();
    for (emu, mc) in cx.window.points(binary) {
        for storage in storage_versions(set, emu, mc, Some(binary)) {
            if storage.kind_in_storage_version || !reported.insert(storage.group_resource()) {
                continue;
            }
            let api = set.apis().iter().find(|a| a.group() == storage.group && a.resource == storage.resource);
            out.push(Diagnostic {
                code: CODE,
                severity: Severity::Error,
                message: format!(
                    "at emulation version {emu} (min-compatibility {mc}) {} would be stored as {}, which has no kind {}",
                    storage.group_resource(),
                    storage.encoding_version(),
                    storage.kind
                ),
                location: api.and_then(|a| cx.decls.locate_api(a.index, ApiField::Introduced)),
                subject: Some(storage.group_resource().to_string()),
                notes: vec!["kube-apiserver would fail to build this resource's storage (kubernetes#141148)".to_owned()],
                labels: Vec::new(),
            });
        }
    }
}
