//! The checks of an upgrade from an old CRD manifest to a new one
//! ([`check_upgrade`]): what the API server rejects, what breaks clients, and
//! every schema change of a version kept from old to new.

use crate::checks::{coverage, is_experimental};
use crate::conversions::Conversions;
use crate::model::{Crd, CrdVersion, Spanned};
use crate::rules::{finding, CrdRule};
use crate::schema::{self, Index};
use crate::Finding;
use kompat_formats::yaml::Node;

/// Keys of a `spec.versions[*]` entry judged elsewhere (lifecycle, schema) or
/// presentation only.
const VERSION_KEYS_HANDLED: [&str; 7] =
    ["name", "served", "storage", "deprecated", "deprecationWarning", "schema", "additionalPrinterColumns"];

/// Checks the upgrade of a CRD from `old` to `new` (for example the manifest
/// in the cluster or the last release, and the one about to be applied).
/// Only the transition is checked: run [`crate::check_crd`] on `new` as well.
/// Findings point into the new manifest; where the subject exists only in
/// the old one, they point at the place in the new manifest where it is
/// missing.
pub fn check_upgrade(old: &Crd, new: &Crd, conversions: Option<&Conversions>) -> Vec<Finding> {
    let mut out = Vec::new();
    let id = new.id();

    let mut identity = |rule: CrdRule, what: &str, old: &Spanned<String>, new: &Spanned<String>, note: &str| {
        if old.value != new.value {
            out.push(finding(
                rule,
                format!("{what} changed from `{}` to `{}`", old.value, new.value),
                Some(new.span),
                id.clone(),
                vec![note.to_owned()],
            ));
        }
    };
    identity(
        CrdRule::ScopeChanged,
        "`spec.scope`",
        &old.scope,
        &new.scope,
        "the API server rejects a scope change; existing objects cannot move between namespaced and cluster scope",
    );
    identity(
        CrdRule::GroupChanged,
        "`spec.group`",
        &old.group,
        &new.group,
        "a new group is a different CRD: existing objects stay under the old one and clients of the old group break",
    );
    identity(
        CrdRule::KindChanged,
        "`spec.names.kind`",
        &old.kind,
        &new.kind,
        "clients, owner references and RBAC rules that name the old kind break",
    );
    identity(
        CrdRule::PluralChanged,
        "`spec.names.plural`",
        &old.plural,
        &new.plural,
        "a new plural is a different CRD (`<plural>.<group>`) and a different REST path: existing objects stay under the old one",
    );
    for (what, o, n) in [("singular", &old.singular, &new.singular), ("listKind", &old.list_kind, &new.list_kind)] {
        let (ov, nv) = (o.as_ref().map(|s| s.value.as_str()), n.as_ref().map(|s| s.value.as_str()));
        if ov != nv {
            let quote = |v: Option<&str>| v.map_or_else(|| "none".to_owned(), |v| format!("`{v}`"));
            out.push(finding(
                CrdRule::UnhandledChange,
                format!("unhandled change to `spec.names.{what}` from {} to {}", quote(ov), quote(nv)),
                Some(n.as_ref().map_or(new.kind.span, |s| s.span)),
                id.clone(),
                Vec::new(),
            ));
        }
    }

    let (stored, from_status) = old.stored_or_storage();
    for (i, version) in stored.iter().enumerate() {
        if new.version(version).is_some() {
            continue;
        }
        let mut notes = Vec::new();
        if !from_status {
            notes.push(format!(
                "the old manifest has no `status.storedVersions`; `{version}` is its storage version, so the API server has recorded it there"
            ));
        }
        notes.push(format!(
            "keep `{version}` in `spec.versions` with `served: false` until a storage migration has rewritten every object and `status.storedVersions` no longer lists it (see `kompat crd-plan`)"
        ));
        out.push(finding(
            CrdRule::StoredVersionRemoved,
            format!(
                "status.storedVersions[{i}]: Invalid value: \"{version}\": missing from spec.versions; {version} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {version} and removes {version} from status.storedVersions"
            ),
            Some(new.versions_span),
            new.subject(version),
            notes,
        ));
    }

    for version in old.served_versions() {
        let name = &version.name.value;
        if new.version(name).is_none() {
            out.push(finding(
                CrdRule::ServedVersionRemoved,
                format!("version `{name}` was removed while it was served"),
                Some(new.versions_span),
                new.subject(name),
                vec![
                    format!("clients that use `{name}` fail at once with `404 Not Found`"),
                    format!("set `served: false` on `{name}` first and remove it in a later release"),
                ],
            ));
        }
    }

    for new_version in &new.versions {
        let Some(old_version) = old.version(&new_version.name.value) else { continue };
        version_changes(new, old_version, new_version, &mut out);
    }

    // Versions that stop being served: objects written through them must
    // convert to what is served now.
    let experimental = is_experimental(new, conversions);
    let conversions = conversions.filter(|c| c.crd.as_ref().is_none_or(|name| name.value == id));
    if let Some(storage) = new.storage_version() {
        for old_version in old.served_versions() {
            let name = &old_version.name.value;
            let still_served = new.version(name).is_some_and(|v| v.served.value);
            if still_served || *name == storage.name.value {
                continue;
            }
            coverage(new, old_version, storage, conversions, experimental, false, &mut out);
        }
    }
    out
}

/// The changes to one version kept from old to new.
fn version_changes(crd: &Crd, old: &CrdVersion, new: &CrdVersion, out: &mut Vec<Finding>) {
    let name = &new.name.value;
    match (&old.schema, &new.schema) {
        (Some(a), Some(b)) => {
            for change in schema::diff(a, b, name) {
                out.push(finding(
                    change.rule,
                    change.message,
                    Some(change.span),
                    format!("{}#{}", crd.subject(name), change.path),
                    change.notes,
                ));
            }
        }
        (Some(_), None) => out.push(finding(
            CrdRule::UnhandledChange,
            format!("unhandled change: the schema of `{name}` was removed"),
            Some(new.name.span),
            crd.subject(name),
            Vec::new(),
        )),
        _ => {}
    }
    let (old_index, new_index) = (Index::of(Some(&old.raw)), Index::of(Some(&new.raw)));
    let keys = |index: &Index<'_>| -> Vec<String> { index.entries().iter().map(|(k, _)| k.value.clone()).collect() };
    let mut all = keys(&old_index);
    all.extend(keys(&new_index).into_iter().filter(|k| old_index.get(k).is_none()));
    for key in all.iter().filter(|k| !VERSION_KEYS_HANDLED.contains(&k.as_str())) {
        let (o, n) = (old_index.get(key), new_index.get(key));
        if o.zip(n).is_some_and(|(o, n)| o.same(n)) {
            continue;
        }
        let span = new_index.entry(key).map_or(new.name.span, |(k, _)| k.span);
        let render = |v: Option<&Node>| v.map_or_else(|| "none".to_owned(), |v| format!("`{}`", v.render()));
        out.push(finding(
            CrdRule::UnhandledChange,
            format!("unhandled change to `{key}` of version `{name}`"),
            Some(span),
            crd.subject(name),
            vec![format!("old: {}", render(o)), format!("new: {}", render(n))],
        ));
    }
}
