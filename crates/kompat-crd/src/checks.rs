//! The checks of one CRD on its own ([`check_crd`]), the checks of a
//! conversions file against its CRD ([`check_conversions`]), and the
//! conversion coverage between two versions that the upgrade checks share.

use std::collections::HashSet;

use crate::conversions::{ChangeKind, Channel, Conversion, Conversions};
use crate::model::{release_order, Crd, CrdVersion, V1BETA1};
use crate::rules::{finding, CrdRule};
use crate::schema::{self, Index, Path, Seg};
use crate::Finding;
use kompat_formats::yaml::{Node, Scalar};
use kompat_span::Span;

/// Checks one CRD: storage and served versions, version names, schemas,
/// conversion strategy, pruning, deprecations, and (for CRDs with more than
/// one version and no webhook) that data survives every version and every
/// semantic breaking change between served versions has a declared
/// conversion. Findings point into the CRD's manifest.
pub fn check_crd(crd: &Crd, conversions: Option<&Conversions>) -> Vec<Finding> {
    let mut out = Vec::new();
    let id = crd.id();
    // `apiextensions.k8s.io/v1beta1` CRDs are checked as manifest objects,
    // against the target version (`removed-api-version`,
    // `deprecated-api-version`); nothing else is checked about them.
    if crd.api_version.value == V1BETA1 {
        return out;
    }

    let mut names = HashSet::new();
    for version in &crd.versions {
        let name = &version.name.value;
        if !names.insert(name.as_str()) {
            out.push(finding(
                CrdRule::DuplicateVersionName,
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
            CrdRule::StorageVersionCount,
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
                CrdRule::UnservedStorageVersion,
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
                CrdRule::MissingSchema,
                format!("version `{name}` has no `schema.openAPIV3Schema`"),
                Some(version.name.span),
                crd.subject(name),
                vec!["`apiextensions.k8s.io/v1` requires a structural schema for every version".to_owned()],
            ));
        }
        if version.is_deprecated() && version.deprecation_warning.is_none() {
            let span = version.deprecated.as_ref().map_or(version.name.span, |d| d.span);
            out.push(finding(
                CrdRule::DeprecatedWithoutWarning,
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
            CrdRule::PreserveUnknownFieldsTrue,
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
            CrdRule::ConversionWebhook,
            "`spec.conversion.strategy: Webhook` makes every request depend on a conversion webhook".to_owned(),
            Some(strategy.span),
            id.clone(),
            vec![
                "the Gateway API versioning guidance: API designers must not use conversion webhooks".to_owned(),
                "to accept the webhook, set `conversion-webhook = \"allow\"` under `[lint.levels]` in kompat.toml"
                    .to_owned(),
            ],
        ));
        if crd.versions.iter().filter(|v| crd.is_live(v)).count() > 1 {
            out.push(skipped(crd, strategy.span, conversions, "between its versions"));
        }
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

/// `conversion-checks-skipped`: the checks a webhook made pointless, named
/// (the reverse-conversion check only in the experimental channel).
pub(crate) fn skipped(crd: &Crd, at: Span, conversions: Option<&Conversions>, what: &str) -> Finding {
    let rules = if is_experimental(crd, conversions) {
        "`missing-preserve-unknown-fields`, `undeclared-conversion` and `missing-reverse-conversion`"
    } else {
        "`missing-preserve-unknown-fields` and `undeclared-conversion`"
    };
    finding(
        CrdRule::ConversionChecksSkipped,
        format!("{rules} did not run {what}: a conversion webhook converts"),
        Some(at),
        crd.id(),
        vec!["kompat cannot see what the webhook does with each field; test its round trips".to_owned()],
    )
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
///
/// One walk per version over its schema together with every other version's
/// (the nodes at the same path), in path order: time linear in the schemas
/// times the number of versions, a path materialised only for a finding, at
/// most [`schema::MAX_CHANGES`] findings per version.
fn pruned_fields(crd: &Crd, out: &mut Vec<Finding>) {
    // A version neither served nor stored holds no objects and is never
    // read or written: it prunes nothing.
    let with_schema: Vec<(&CrdVersion, &Node)> =
        crd.versions.iter().filter(|v| crd.is_live(v)).filter_map(|v| Some((v, v.schema.as_ref()?.node()))).collect();
    for (i, (version, schema)) in with_schema.iter().enumerate() {
        let name = &version.name.value;
        let others: Vec<(&str, &Node)> = with_schema
            .iter()
            .enumerate()
            .filter(|&(j, (other, _))| j != i && other.name.value != *name)
            .map(|(_, (other, s))| (other.name.value.as_str(), *s))
            .collect();
        if others.is_empty() {
            continue;
        }
        let mut walk = Pruned { name, subject: crd.subject(name), schema, found: 0, stopped: false, out };
        walk.node(&mut Path::default(), schema, None, &others);
        if walk.stopped {
            if let Some(last) = out.last_mut() {
                last.notes.push(schema::stopped_note(&format!("`{name}` with the other versions")));
            }
        }
    }
}

/// The walk of [`pruned_fields`] for one version.
struct Pruned<'a> {
    name: &'a str,
    subject: String,
    schema: &'a Node,
    found: usize,
    stopped: bool,
    out: &'a mut Vec<Finding>,
}

/// How many pruned fields one finding lists.
const MAX_LISTED: usize = 20;

impl Pruned<'_> {
    /// At `node` of this version (at `path`, named by `key` if a property),
    /// with the nodes of the other versions at the same path.
    fn node(&mut self, path: &mut Path, node: &Node, key: Option<&Scalar>, others: &[(&str, &Node)]) {
        let props = Index::props(node);
        if !schema::keeps_unknown_fields(node) {
            // The fields of other versions missing here, in path order per version.
            let mut listed = Vec::new();
            let mut seen: HashSet<(&str, &str)> = HashSet::new();
            for (other, other_node) in others {
                let mut missing: Vec<&str> = Index::props(other_node)
                    .entries()
                    .iter()
                    .map(|(k, _)| k.value.as_str())
                    .filter(|k| props.get(k).is_none())
                    .collect();
                missing.sort_unstable();
                for field in missing {
                    if seen.insert((other, field)) && listed.len() < MAX_LISTED {
                        let at = path.child(Seg::Prop(field.to_owned()));
                        listed.push(format!("`{at}` (from `{other}`)"));
                    }
                }
            }
            if !seen.is_empty() {
                if self.found >= schema::MAX_CHANGES {
                    self.stopped = true;
                    return;
                }
                self.found += 1;
                let more = seen.len() - listed.len();
                if more > 0 {
                    listed.push(format!("and {more} more"));
                }
                self.report(path, key, &listed);
            }
        }
        for (seg, child, child_key) in schema::children(node) {
            // Only nodes of this version that are schemas have fields to compare.
            if child.as_map().is_none() {
                continue;
            }
            let next: Vec<(&str, &Node)> = others
                .iter()
                .filter_map(|(other, n)| {
                    Some((*other, schema::child(n, &seg, &Index::props(n)).filter(|c| c.as_map().is_some())?))
                })
                .collect();
            if next.is_empty() {
                continue;
            }
            path.0.push(seg);
            self.node(path, child, child_key, &next);
            path.0.pop();
            if self.stopped {
                return;
            }
        }
    }

    fn report(&mut self, at: &Path, key: Option<&Scalar>, fields: &[String]) {
        let name = self.name;
        // A property is pointed at by its name; the root, `items` and
        // `additionalProperties` by the schema.
        let span = match (at.0.last(), key) {
            (Some(Seg::Prop(_)), Some(key)) => key.span,
            _ => self.schema.span(),
        };
        let notes = vec![
            format!(
                "with conversion strategy `None` the API server keeps only the fields a version's schema describes, so values written through another version are lost when an object is written through `{name}`"
            ),
            format!("set `x-kubernetes-preserve-unknown-fields: true` on `{at}` in `{name}`"),
        ];
        self.out.push(finding(
            CrdRule::MissingPreserveUnknownFields,
            format!("`{at}` of `{name}` does not preserve unknown fields, so it prunes {}", fields.join(", ")),
            Some(span),
            format!("{}#{at}", self.subject),
            notes,
        ));
    }
}

/// A semantic breaking change from an older to a newer version, with where
/// the field is named (in the older version for a removed field, else in
/// the newer).
#[derive(Debug, Clone)]
pub(crate) enum Breaking {
    /// In the older version only.
    Removed(Path, Span),
    TypeChanged(Path, String, String, Span),
    /// Required in the newer version; whether the older one has it.
    NewRequired(Path, bool, Span),
}

impl Breaking {
    fn path(&self) -> &Path {
        match self {
            Breaking::Removed(p, _) | Breaking::TypeChanged(p, ..) | Breaking::NewRequired(p, ..) => p,
        }
    }
}

/// The semantic breaking changes between two schemas, topmost first: the
/// removed and retyped fields of the older schema in path order, then the
/// newly required fields of the newer one (never one under another change).
/// Two walks over both schemas with one path stack each, at most
/// [`schema::MAX_CHANGES`] changes; the flag says whether there were more.
pub(crate) fn breaking_changes(older: &Node, newer: &Node) -> (Vec<Breaking>, bool) {
    let mut walk = BreakingWalk { out: Vec::new(), stopped: false };
    walk.removed(&mut Path::default(), older, Some(newer));
    walk.required(&mut Path::default(), newer, Some(older), false, false);
    (walk.out, walk.stopped)
}

struct BreakingWalk {
    out: Vec<Breaking>,
    stopped: bool,
}

impl BreakingWalk {
    fn push(&mut self, change: impl FnOnce() -> Breaking) {
        if self.out.len() >= schema::MAX_CHANGES {
            self.stopped = true;
        } else {
            self.out.push(change());
        }
    }

    /// The fields under `old` missing or retyped under `new` (the newer
    /// schema's node at the same path, if it describes the path).
    fn removed(&mut self, path: &mut Path, old: &Node, new: Option<&Node>) {
        let new_props = new.map(Index::props);
        for (seg, old_child, key) in schema::children(old) {
            if self.stopped {
                return;
            }
            let new_child = new.zip(new_props.as_ref()).and_then(|(n, props)| schema::child(n, &seg, props));
            if let Some(key) = key {
                let Some(new_child) = new_child else {
                    self.push(|| Breaking::Removed(path.child(seg.clone()), key.span));
                    continue;
                };
                if schema::type_name(old_child) != schema::type_name(new_child) {
                    let (x, y) = (schema::type_name(old_child), schema::type_name(new_child));
                    let span = new_props.as_ref().and_then(|p| p.entry(&key.value)).map_or(key.span, |(k, _)| k.span);
                    self.push(|| {
                        Breaking::TypeChanged(
                            path.child(seg.clone()),
                            x.unwrap_or("any").to_owned(),
                            y.unwrap_or("any").to_owned(),
                            span,
                        )
                    });
                    continue;
                }
            }
            path.0.push(seg);
            self.removed(path, old_child, new_child.filter(|n| n.as_map().is_some()));
            path.0.pop();
        }
    }

    /// The fields under `new` that became required, with `old` the older
    /// schema's node at the same path if it describes it; `retyped` and
    /// `reported` say whether an ancestor was reported retyped, or reported
    /// at all.
    fn required(&mut self, path: &mut Path, new: &Node, old: Option<&Node>, retyped: bool, reported: bool) {
        let old_props = old.map(Index::props);
        let (is_required, was_required) = (schema::required(new), old.map(schema::required).unwrap_or_default());
        for (seg, new_child, key) in schema::children(new) {
            if self.stopped {
                return;
            }
            let old_child = old.zip(old_props.as_ref()).and_then(|(o, props)| schema::child(o, &seg, props));
            let (mut retyped_here, mut reported_here) = (retyped, reported);
            if let (Seg::Prop(name), Some(key)) = (&seg, key) {
                let this_retyped =
                    !retyped && old_child.is_some_and(|o| schema::type_name(o) != schema::type_name(new_child));
                let had = old_child.is_some();
                let newly = is_required.contains(name.as_str()) && !(had && was_required.contains(name.as_str()));
                if newly && !reported && old.is_some() {
                    self.push(|| Breaking::NewRequired(path.child(seg.clone()), had, key.span));
                    reported_here = true;
                }
                retyped_here |= this_retyped;
                reported_here |= this_retyped;
            }
            path.0.push(seg);
            self.required(path, new_child, old_child.filter(|o| o.as_map().is_some()), retyped_here, reported_here);
            path.0.pop();
        }
    }
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
    let (changes, stopped) = breaking_changes(a, b);
    let first = out.len();
    for change in changes {
        let path = change.path().clone();
        let subject = format!("{}/{from}->{to}#{path}", crd.id());
        let (covered, reverse_covered, message, span, how) = match &change {
            Breaking::Removed(p, at) => (
                covers_source(forward, p),
                covers_target(reverse, p),
                format!("`{p}` of `{from}` has no counterpart in `{to}` and no declared conversion"),
                if older_in_crd { *at } else { newer.name.span },
                "`renamed`, `moved`, `removed` or `changed`",
            ),
            Breaking::TypeChanged(p, x, y, at) => (
                covers_source(forward, p),
                covers_source(reverse, p),
                format!("`{p}` is `{x}` in `{from}` but `{y}` in `{to}`, with no declared conversion"),
                *at,
                "`changed` (with `how`)",
            ),
            Breaking::NewRequired(p, had, at) => (
                covers_target(forward, p),
                covers_source(reverse, p),
                if *had {
                    format!("`{p}` is optional in `{from}` but required in `{to}`, with no declared conversion")
                } else {
                    format!("`{p}` is required in `{to}` but absent from `{from}`, with no declared conversion")
                },
                *at,
                "`added` (with a `default`)",
            ),
        };
        if !covered {
            out.push(finding(
                CrdRule::UndeclaredConversion,
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
                CrdRule::MissingReverseConversion,
                format!("no conversion back from `{to}` to `{from}` for `{path}` in the experimental channel"),
                Some(span),
                format!("{}/{to}->{from}#{path}", crd.id()),
                vec![format!(
                    "experimental changes must be reversible: declare the `[[conversion]]` from `{to}` to `{from}` for `{path}`"
                )],
            ));
        }
    }
    if stopped && out.len() > first {
        if let Some(last) = out.last_mut() {
            last.notes.push(schema::stopped_note(&format!("`{from}` with `{to}`")));
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
        finding(CrdRule::ConversionMismatch, message, Some(span), subject, Vec::new())
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
                Some(version) => schemas.push(version.schema.as_ref()),
                None => out.push(mismatch(
                    format!("version `{}` is not in `spec.versions` of `{id}`", v.value),
                    v.span,
                    crd.subject(&v.value),
                )),
            }
        }
        let [Some(fa), Some(fb)] = schemas[..] else { continue };
        let subject = |p: &str| format!("{id}/{}->{}#{p}", from.value, to.value);
        for change in &conversion.changes {
            let field = change.field_path();
            let name = &change.field.value;
            let in_from = schema::has_field(fa, &field);
            let in_to = schema::has_field(fb, &field);
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
                if !schema::has_field(fb, &target) {
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
