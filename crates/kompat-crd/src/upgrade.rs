//! The checks of an upgrade from an old CRD manifest to a new one
//! ([`check_upgrade`]): what the API server rejects, what breaks clients, and
//! every schema change of a version kept from old to new.

use crate::checks::{coverage, is_experimental, skipped};
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
    if !from_status {
        assumed_stored(old, new, &stored, &mut out);
    }
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
        // A version neither served nor stored, before or after, holds no
        // objects and serves no client: its schema is not judged.
        if !new.is_live(new_version) && !old.is_live(old_version) && !stored.contains(&new_version.name.value) {
            continue;
        }
        version_changes(new, old_version, new_version, &mut out);
    }

    // Versions that stop being served: objects written through them must
    // convert to what is served now.
    let experimental = is_experimental(new, conversions);
    let conversions = conversions.filter(|c| c.crd.as_ref().is_none_or(|name| name.value == id));
    if let Some(storage) = new.storage_version() {
        let mut unchecked = false;
        for old_version in old.served_versions() {
            let name = &old_version.name.value;
            let still_served = new.version(name).is_some_and(|v| v.served.value);
            if still_served || *name == storage.name.value {
                continue;
            }
            if new.converts_by_webhook() {
                unchecked = true;
                continue;
            }
            coverage(new, old_version, storage, conversions, experimental, false, &mut out);
        }
        if let Some(strategy) = new.conversion_strategy.as_ref().filter(|_| unchecked) {
            out.push(skipped(new, strategy.span, conversions, "for the versions that stop being served"));
        }
    }
    out
}

/// `crd-removed`: the CRDs of a baseline that none of the new manifests
/// holds, paired by `<plural>.<group>` or else by kind (as the upgrade
/// checks pair them, so a renamed CRD is reported as a rename). Findings
/// point at each CRD's `metadata.name` in the baseline.
pub fn check_removed(baseline: &[Crd], new: &[&Crd]) -> Vec<Finding> {
    baseline
        .iter()
        .filter(|old| !new.iter().any(|n| n.id() == old.id() || n.kind.value == old.kind.value))
        .map(|old| {
            let id = old.id();
            finding(
                CrdRule::CrdRemoved,
                format!("`{id}` is in the baseline but in none of the new manifests"),
                Some(old.name.span),
                id,
                vec![
                    "deleting a CustomResourceDefinition deletes every object of it; leaving it out of a release leaves it unmanaged".to_owned(),
                ],
            )
        })
        .collect()
}

/// `stored-versions-assumed`: the old manifest has no `status.storedVersions`
/// and versions were removed that only the cluster's record could show to be
/// still stored. Points at the new manifest's `spec.versions`.
fn assumed_stored(old: &Crd, new: &Crd, assumed: &[String], out: &mut Vec<Finding>) {
    let removed: Vec<String> = old
        .versions
        .iter()
        .map(|v| &v.name.value)
        .filter(|name| new.version(name).is_none() && !assumed.contains(name))
        .map(|name| format!("`{name}`"))
        .collect();
    if removed.is_empty() {
        return;
    }
    let what = match assumed {
        [] => "no stored version".to_owned(),
        [one] => format!("only `{one}`, its storage version"),
        _ => "its storage versions".to_owned(),
    };
    let id = old.id();
    out.push(finding(
        CrdRule::StoredVersionsAssumed,
        format!(
            "the baseline of `{id}` has no `status.storedVersions`: kompat assumed the API server recorded {what}, so removing {} was not checked against stored objects",
            removed.join(", ")
        ),
        Some(new.versions_span),
        new.id(),
        vec![
            format!("a cluster that ran older releases may still store objects in them: get its record with `kubectl get crd {id} -o yaml` and pass that file as `--baseline`"),
        ],
    ));
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
    let keys =
        |index: &Index<'_>| -> Vec<String> { index.entries().iter().map(|(k, _)| k.value.to_string()).collect() };
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
            format!("unhandled change to `{key}` of version `{name}`: {}", schema::what_changed(key, o, n)),
            Some(span),
            crd.subject(name),
            vec![format!("old: {}", render(o)), format!("new: {}", render(n))],
        ));
    }
}
