//! `storage-not-decodable`: a storage version that some binary in the
//! window cannot decode.

use kompat_core::api::{storage_versions, ApiField};

use super::doc;
use crate::lint::{Context, Diagnostic, Rule, Severity};

pub const CODE: &str = "storage-not-decodable";

pub fn rule() -> Rule {
    Rule {
        code: CODE,
        severity: Severity::Error,
        summary: "a resource is stored in a version some peer or rollback target cannot decode".to_owned(),
        doc: doc(
            "At every emulation and min-compatibility version in the window, checks that the chosen storage version of every resource is known to every binary from the min-compatibility version up to emulation + 1: introduced at or before it, and not removed there.",
            "During a rolling upgrade, servers at the min-compatibility version read what this server writes, and after a rollback the older binary reads everything stored. Data stored in a version the reader does not know cannot be decoded: requests fail, or objects are lost.",
            "# min-compatibility 1.36; storage pinned to v2, introduced in 1.37\n[storage_overrides]\n\"widgets.example.io/widgets\" = \"v2\"",
            "# keep storing v1 until every peer knows v2\n[storage_overrides]\n\"widgets.example.io/widgets\" = \"v1\"",
        ),
    }
}

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let (Some(set), Some(binary)) = (cx.apis, cx.binary) else { return };
    let mut reported = std::collections::BTreeSet::new();
    for (emu, mc) in cx.window.points(binary) {
        for storage in storage_versions(set, emu, mc, Some(binary)) {
            let Some(api) = set.find_kind(&storage.group, &storage.storage_version, &storage.kind) else {
                continue; // no such kind there: storage-version-without-kind reports it
            };
            let readers = mc.range_to(emu.add_minor(1));
            let Some(reader) = readers.into_iter().find(|&b| api.lifecycle.introduced > b || !api.served_at(b)) else {
                continue;
            };
            if !reported.insert(storage.group_resource()) {
                continue;
            }
            out.push(Diagnostic {
                code: CODE,
                severity: Severity::Error,
                message: format!(
                    "at emulation version {emu} (min-compatibility {mc}) {} is stored as {}, which a {reader} binary cannot decode",
                    storage.group_resource(),
                    storage.encoding_version()
                ),
                location: cx.decls.locate_api(api.index, ApiField::Introduced),
                subject: Some(api.gvk.to_string()),
                notes: vec![format!("chosen by: {}", storage.source.as_str())],
                labels: Vec::new(),
            });
        }
    }
}
