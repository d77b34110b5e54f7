//! The checks of one CRD on its own ([`check_crd`]), the checks of a
//! conversions file against its CRD ([`check_conversions`]), and the
//! conversion coverage between two versions that the upgrade checks share.

use std::collections::BTreeMap;

use crate::conversions::{ChangeKind, Channel, Conversion, Conversions};
use crate::model::{release_order, Crd, CrdVersion, V1BETA1};
use crate::rules::finding;
use crate::schema::{self, Field, Path};
use crate::{Finding, Span};

/// Checks one CRD: storage and served versions, version names, schemas,
/// conversion strategy, pruning, deprecations, and (for CRDs with more than
/// one version and no webhook) that data survives every version and every
/// semantic breaking change between served versions has a declared
/// conversion. Findings point into the CRD's manifest.
pub fn check_crd(crd: &Crd, conversions: Option<&Conversions>) -> Vec<Finding> {
    let mut out = Vec::new();
    let id = crd.id();
    if crd.api_version.value == V1BETA1 {
        out.push(finding(
            "removed-crd-api-version",
            format!("`{V1BETA1}` CustomResourceDefinitions are not served since Kubernetes 1.22"),
            Some(crd.api_version.span),
            id,
            vec![
                "use `apiextensions.k8s.io/v1`: a structural schema per version in `spec.versions[*].schema.openAPIV3Schema`, with `served` and `storage` on every version".to_owned(),
            ],
        ));
        return out;
    }

    for (i, version) in crd.versions.iter().enumerate() {
        let name = &version.name.value;
        if crd.versions[..i].iter().any(|v| &v.name.value == name) {
            out.push(finding(
                "duplicate-version-name",
                format!("`spec.versions` must contain unique version names; `{name}` is listed more than once"),
                Some(version.name.span),
                crd.subject(name),
                Vec::new(),
            ));
        }
    }

    let storage: Vec<&CrdVersion> = crd.storage_versions().collect();
    if storage.len() != 1 {
        let names: Vec<String> = storage.iter().map(|v| format!("`{}`", v.name.value)).collect();
        let note = if names.is_empty() {
            "no version has `storage: true`".to_owned()
        } else {
            format!("marked as storage: {}", names.join(", "))
        };
        let span = storage.get(1).map_or(crd.versions_span, |v| v.storage.span);
        out.push(finding(
            "storage-version-count",
            "`spec.versions` must have exactly one version marked as storage version".to_owned(),
            Some(span),
            id.clone(),
            vec![note],
        ));
    }
    for version in &storage {
        if !version.served.value {
            let name = &version.name.value;
            out.push(finding(
                "unserved-storage-version",
                format!("storage version `{name}` is not served"),
                Some(version.served.span),
                crd.subject(name),
                vec![
                    "the API server publishes an empty storageVersionHash for a CRD whose storage version is not served, so storage-version migrators skip it".to_owned(),
                    "serve the storage version, or first move `storage: true` to a served version".to_owned(),
                ],
            ));
        }
    }

    for version in &crd.versions {
        let name = &version.name.value;
        if version.schema.is_none() {
            out.push(finding(
                "missing-schema",
                format!("version `{name}` has no `schema.openAPIV3Schema`"),
                Some(version.name.span),
                crd.subject(name),
                vec!["`apiextensions.k8s.io/v1` requires a structural schema for every version".to_owned()],
            ));
        }
        if version.is_deprecated() && version.deprecation_warning.is_none() {
            let span = version.deprecated.as_ref().map_or(version.name.span, |d| d.span);
            out.push(finding(
                "deprecated-without-warning",
                format!("deprecated version `{name}` has no `deprecationWarning`"),
                Some(span),
                crd.subject(name),
                vec![format!(
                    "clients get the generic warning `{}/{name} {} is deprecated`; say what to use instead",
                    crd.group.value, crd.kind.value
                )],
            ));
        }
    }

    if let Some(pruning) = crd.preserve_unknown_fields.as_ref().filter(|p| p.value) {
        out.push(finding(
            "preserve-unknown-fields-true",
            "`spec.preserveUnknownFields: true` is deprecated and disables pruning for the whole CRD".to_owned(),
            Some(pruning.span),
            id.clone(),
            vec![
                "it cannot be combined with `Webhook` conversion or with defaults in the schema".to_owned(),
                "set it to false and put `x-kubernetes-preserve-unknown-fields: true` on the subtrees that must keep unknown fields".to_owned(),
            ],
        ));
    }

    let webhook = crd.conversion_strategy.as_ref().filter(|s| s.value == "Webhook");
    if let Some(strategy) = webhook {
        out.push(finding(
            "conversion-webhook",
            "`spec.conversion.strategy: Webhook` makes every request depend on a conversion webhook".to_owned(),
            Some(strategy.span),
            id.clone(),
            vec![
                "the Gateway API versioning guidance: API designers must not use conversion webhooks".to_owned(),
                "use `strategy: None`, `x-kubernetes-preserve-unknown-fields` and conversions declared for the controllers and conversion tools".to_owned(),
            ],
        ));
        return out;
    }

    if crd.versions.len() > 1 {
        pruned_fields(crd, &mut out);
        let conversions = conversions.filter(|c| c.crd.as_ref().is_none_or(|name| name.value == id));
        let experimental = is_experimental(crd, conversions);
        let mut served: Vec<&CrdVersion> = crd.served_versions().filter(|v| v.schema.is_some()).collect();
        served.sort_by(|a, b| release_order(&a.name.value, &b.name.value));
        served.dedup_by(|a, b| a.name.value == b.name.value);
        for pair in served.windows(2) {
            if let [older, newer] = pair {
                coverage(crd, older, newer, conversions, experimental, true, &mut out);
            }
        }
    }
    out
}

/// True when semantic breaking changes need conversions both ways.
pub(crate) fn is_experimental(crd: &Crd, conversions: Option<&Conversions>) -> bool {
    match conversions.and_then(|c| c.channel.as_ref()) {
        Some(channel) => channel.value == Channel::Experimental,
        None => crd.channel_annotation() == Some("experimental"),
    }
}

/// `missing-preserve-unknown-fields`: a field one version describes and
/// another does not is pruned by the other, unless the other keeps unknown
/// fields where it would be.
fn pruned_fields(crd: &Crd, out: &mut Vec<Finding>) {
    let with_schema: Vec<(&CrdVersion, &crate::yaml::Node)> =
        crd.versions.iter().filter_map(|v| Some((v, v.schema.as_ref()?))).collect();
    let all_fields: Vec<BTreeMap<Path, Field<'_>>> = with_schema.iter().map(|(_, s)| schema::fields(s)).collect();
    for (i, (version, schema)) in with_schema.iter().enumerate() {
        // Parent path in this version → (fields pruned there, from which versions).
        let mut pruned: BTreeMap<Path, (Vec<String>, Span)> = BTreeMap::new();
        for (j, (other, _)) in with_schema.iter().enumerate() {
            if i == j || other.name.value == version.name.value {
                continue;
            }
            for path in all_fields[j].keys() {
                if all_fields[i].contains_key(path) {
                    continue;
                }
                // Only the topmost missing field.
                if path.parent().is_some_and(|p| schema::lookup(schema, &p).is_none()) {
                    continue;
                }
                let (at, node) = schema::nearest_ancestor(schema, path);
                if schema::keeps_unknown_fields(node) {
                    continue;
                }
                let span = all_fields[i].get(&at).map_or(schema.span(), |f| f.key_span);
                let entry = pruned.entry(at).or_insert_with(|| (Vec::new(), span));
                let text = format!("`{path}` (from `{}`)", other.name.value);
                if !entry.0.contains(&text) {
                    entry.0.push(text);
                }
            }
        }
        for (at, (fields, span)) in pruned {
            let name = &version.name.value;
            let mut notes = vec![format!(
                "with conversion strategy `None` the API server keeps only the fields a version's schema describes, so values written through another version are lost when an object is written through `{name}`"
            )];
            notes.push(format!("set `x-kubernetes-preserve-unknown-fields: true` on `{at}` in `{name}`"));
            out.push(finding(
                "missing-preserve-unknown-fields",
                format!("`{at}` of `{name}` does not preserve unknown fields, so it prunes {}", fields.join(", ")),
                Some(span),
                format!("{}#{at}", crd.subject(name)),
                notes,
            ));
        }
    }
}

/// A semantic breaking change from an older to a newer version.
#[derive(Debug, Clone)]
pub(crate) enum Breaking {
    /// In the older version only.
    Removed(Path),
    TypeChanged(Path, String, String),
    /// Required in the newer version; whether the older one has it.
    NewRequired(Path, bool),
}

impl Breaking {
    fn path(&self) -> &Path {
        match self {
            Breaking::Removed(p) | Breaking::TypeChanged(p, ..) | Breaking::NewRequired(p, _) => p,
        }
    }
}

/// The semantic breaking changes between two schemas, topmost first.
pub(crate) fn breaking_changes(older: &crate::yaml::Node, newer: &crate::yaml::Node) -> Vec<Breaking> {
    let (a, b) = (schema::fields(older), schema::fields(newer));
    let mut out: Vec<Breaking> = Vec::new();
    let under_reported = |out: &[Breaking], p: &Path| out.iter().any(|c| c.path().contains(p) && c.path() != p);
    for (path, field) in &a {
        if under_reported(&out, path) {
            continue;
        }
        match b.get(path) {
            None => out.push(Breaking::Removed(path.clone())),
            Some(new) if field.type_name() != new.type_name() => out.push(Breaking::TypeChanged(
                path.clone(),
                field.type_name().unwrap_or("any").to_owned(),
                new.type_name().unwrap_or("any").to_owned(),
            )),
            Some(_) => {}
        }
    }
    for (path, field) in &b {
        let had = a.get(path);
        if !field.required || had.is_some_and(|f| f.required) || under_reported(&out, path) {
            continue;
        }
        let parent_exists = path.parent().is_none_or(|p| schema::lookup(older, &p).is_some());
        if parent_exists {
            out.push(Breaking::NewRequired(path.clone(), had.is_some()));
        }
    }
    out
}

/// True if the conversion says what becomes of `path` of its source version.
fn covers_source(conversion: Option<&Conversion>, path: &Path) -> bool {
    conversion
        .is_some_and(|c| c.changes.iter().any(|ch| ch.kind != ChangeKind::Added && ch.field_path().contains(path)))
}

/// True if the conversion says how `path` of its target version is filled.
fn covers_target(conversion: Option<&Conversion>, path: &Path) -> bool {
    conversion.is_some_and(|c| {
        c.changes.iter().any(|ch| match ch.kind {
            ChangeKind::Added | ChangeKind::Changed => ch.field_path().contains(path),
            ChangeKind::Renamed | ChangeKind::Moved => ch.to_path().is_some_and(|t| t.contains(path)),
            ChangeKind::Removed => false,
        })
    })
}

/// `undeclared-conversion` (older → newer) and, within the experimental
/// channel, `missing-reverse-conversion` (newer → older) for every semantic
/// breaking change between two versions. Spans point into `crd`'s text;
/// `older_in_crd` says whether `older` comes from it too (else it comes from
/// the old manifest of an upgrade).
pub(crate) fn coverage(
    crd: &Crd,
    older: &CrdVersion,
    newer: &CrdVersion,
    conversions: Option<&Conversions>,
    experimental: bool,
    older_in_crd: bool,
    out: &mut Vec<Finding>,
) {
    let (Some(a), Some(b)) = (&older.schema, &newer.schema) else { return };
    let (from, to) = (&older.name.value, &newer.name.value);
    let forward = conversions.and_then(|c| c.get(from, to));
    let reverse = conversions.and_then(|c| c.get(to, from));
    let (fa, fb) = (schema::fields(a), schema::fields(b));
    let span_in = |fields: &BTreeMap<Path, Field<'_>>, path: &Path, fallback: Span| {
        fields.get(path).map_or(fallback, |f| f.key_span)
    };
    for change in breaking_changes(a, b) {
        let path = change.path().clone();
        let subject = format!("{}/{from}->{to}#{path}", crd.id());
        let (covered, reverse_covered, message, span, how) = match &change {
            Breaking::Removed(p) => (
                covers_source(forward, p),
                covers_target(reverse, p),
                format!("`{p}` of `{from}` has no counterpart in `{to}` and no declared conversion"),
                if older_in_crd { span_in(&fa, p, older.name.span) } else { newer.name.span },
                "`renamed`, `moved`, `removed` or `changed`",
            ),
            Breaking::TypeChanged(p, x, y) => (
                covers_source(forward, p),
                covers_source(reverse, p),
                format!("`{p}` is `{x}` in `{from}` but `{y}` in `{to}`, with no declared conversion"),
                span_in(&fb, p, newer.name.span),
                "`changed` (with `how`)",
            ),
            Breaking::NewRequired(p, had) => (
                covers_target(forward, p),
                covers_source(reverse, p),
                if *had {
                    format!("`{p}` is optional in `{from}` but required in `{to}`, with no declared conversion")
                } else {
                    format!("`{p}` is required in `{to}` but absent from `{from}`, with no declared conversion")
                },
                span_in(&fb, p, newer.name.span),
                "`added` (with a `default`)",
            ),
        };
        if !covered {
            out.push(finding(
                "undeclared-conversion",
                message,
                Some(span),
                subject.clone(),
                vec![format!(
                    "declare what controllers and conversion tools do with `{path}` in the `[[conversion]]` from `{from}` to `{to}` of the conversions file, as {how}"
                )],
            ));
        }
        if experimental && !reverse_covered {
            out.push(finding(
                "missing-reverse-conversion",
                format!("no conversion back from `{to}` to `{from}` for `{path}` in the experimental channel"),
                Some(span),
                format!("{}/{to}->{from}#{path}", crd.id()),
                vec![format!(
                    "experimental changes must be reversible: declare the `[[conversion]]` from `{to}` to `{from}` for `{path}`"
                )],
            ));
        }
    }
}

/// Checks a conversions file against its CRD: the CRD and versions it names
/// exist, and every field it declares exists where the declaration says.
/// Findings (`conversion-mismatch`) point into the conversions text.
pub fn check_conversions(crd: &Crd, conversions: &Conversions) -> Vec<Finding> {
    let mut out = Vec::new();
    let id = crd.id();
    let mismatch = |message: String, span: Span, subject: String| {
        finding("conversion-mismatch", message, Some(span), subject, Vec::new())
    };
    if let Some(name) = conversions.crd.as_ref().filter(|n| n.value != id) {
        out.push(mismatch(format!("the conversions are for `{}`, not `{id}`", name.value), name.span, id));
        return out;
    }
    for conversion in &conversions.conversions {
        let (from, to) = (&conversion.from, &conversion.to);
        let mut schemas = Vec::new();
        for v in [from, to] {
            match crd.version(&v.value) {
                Some(version) => schemas.push(version.schema.as_ref().map(schema::fields)),
                None => out.push(mismatch(
                    format!("version `{}` is not in `spec.versions` of `{id}`", v.value),
                    v.span,
                    crd.subject(&v.value),
                )),
            }
        }
        let [Some(fa), Some(fb)] = schemas.as_slice() else { continue };
        let subject = |p: &str| format!("{id}/{}->{}#{p}", from.value, to.value);
        for change in &conversion.changes {
            let field = change.field_path();
            let name = &change.field.value;
            let in_from = fa.contains_key(&field);
            let in_to = fb.contains_key(&field);
            let problem = match change.kind {
                ChangeKind::Added if !in_to => {
                    Some(format!("`{name}` is declared added but `{}` has no such field", to.value))
                }
                ChangeKind::Added => None,
                _ if !in_from => {
                    Some(format!("`{name}` is declared {} but `{}` has no such field", change.kind.key(), from.value))
                }
                ChangeKind::Removed if in_to => {
                    Some(format!("`{name}` is declared removed but `{}` still has it", to.value))
                }
                ChangeKind::Changed if !in_to => {
                    Some(format!("`{name}` is declared changed but `{}` has no such field", to.value))
                }
                _ => None,
            };
            if let Some(message) = problem {
                out.push(mismatch(message, change.field.span, subject(name)));
            }
            if let (Some(target), Some(to_field)) = (change.to_path(), &change.to) {
                if !fb.contains_key(&target) {
                    let message = format!(
                        "`{name}` is declared {} to `{}` but `{}` has no such field",
                        change.kind.key(),
                        to_field.value,
                        to.value
                    );
                    out.push(mismatch(message, to_field.span, subject(name)));
                }
            }
        }
    }
    out
}
