//! `storage-not-decodable`: a storage version that some binary in the
//! window cannot decode.

use kompat_engine::api::ApiField;

use super::Pass;
use crate::Context;
use kompat_diag::declare_rule;
use kompat_diag::Diagnostic;

declare_rule! {
    /// ### What it does
    ///
    /// At every emulation and min-compatibility version in the window, checks that the chosen storage version of every resource is known to every binary from the min-compatibility version up to emulation + 1: introduced at or before it, and not removed there.
    ///
    /// ### Why is this bad?
    ///
    /// During a rolling upgrade, servers at the min-compatibility version read what this server writes, and after a rollback the older binary reads everything stored. Data stored in a version the reader does not know cannot be decoded: requests fail, or objects are lost.
    ///
    /// ### Example
    ///
    /// ```toml
    /// # min-compatibility 1.36; storage pinned to v2, introduced in 1.37
    /// [storage_overrides]
    /// "widgets.example.io/widgets" = "v2"
    /// ```
    ///
    /// ### Use instead
    ///
    /// ```toml
    /// # keep storing v1 until every peer knows v2
    /// [storage_overrides]
    /// "widgets.example.io/widgets" = "v1"
    /// ```
    pub STORAGE_NOT_DECODABLE: Error, "a resource is stored in a version some peer or rollback target cannot decode"
}

pub static PASS: Pass = Pass { rules: &[&STORAGE_NOT_DECODABLE], check: Some(check) };

pub fn check(cx: &Context<'_>, out: &mut Vec<Diagnostic>) {
    let Some(set) = cx.apis else { return };
    let mut reported = std::collections::BTreeSet::new();
    // CRDs are not among them: a CRD stores its `storage: true` version, and
    // every served version decodes through conversion.
    for point in cx.server_storage {
        let (emu, mc) = (point.emulation, point.min_compatibility);
        for storage in &point.resources {
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
            out.push(STORAGE_NOT_DECODABLE.diag(format!(
                    "at emulation version {emu} (min-compatibility {mc}) {} is stored as {}, which a {reader} binary cannot decode",
                    storage.group_resource(),
                    storage.encoding_version()
                ), cx.decls.locate_api(api.index, ApiField::Introduced)).with_subject(api.gvk.to_string()).with_notes(vec![format!("chosen by: {}", storage.source.as_str())]));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::check;

    #[test]
    fn storage_not_decodable() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- apis.toml
[[api]]
group = "g.example.io"
version = "v1beta1"
kind = "Widget"
resource = "widgets"
introduced = "1.30"
deprecated = "1.40"
removed = "1.45"
replacement = "g.example.io/v1/Widget"

[[api]]
group = "g.example.io"
version = "v1"
kind = "Widget"
resource = "widgets"
introduced = "1.36"
#            ^^^^^^ error[storage-not-decodable]: at emulation version 1.34 (min-compatibility 1.34) widgets.g.example.io is stored as g.example.io/v1, which a 1.34 binary cannot decode

[storage_overrides]
"g.example.io/widgets" = "v1"
"##,
        );
    }

    /// The same versions as kube-rs custom resources: a CRD stores its
    /// `storage: true` version and converts between served versions, so
    /// kube-apiserver's storage choice does not apply.
    #[test]
    fn crds_are_not_judged_by_built_in_storage() {
        check(
            r##"
//- kompat.toml
binary_version = "1.37"
//- src/lib.rs
use kompat::ApiLifecycle;

pub mod v1beta1 {
    use super::*;
    #[derive(kube::CustomResource, ApiLifecycle)]
    #[kube(group = "g.example.io", version = "v1beta1", kind = "Widget")]
    #[kompat(api(introduced = "1.30", deprecated = "1.34", removed = "1.37", replacement = "g.example.io/v1/Widget"))]
    pub struct WidgetSpec {}
}

pub mod v1 {
    use super::*;
    #[derive(kube::CustomResource, ApiLifecycle)]
    #[kube(group = "g.example.io", version = "v1", kind = "Widget")]
    #[kompat(api(introduced = "1.36"))]
    pub struct WidgetSpec {}
}
"##,
        );
    }
}
