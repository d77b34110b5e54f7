//! API version declarations, their completion by prerelease-lifecycle-gen's
//! defaults, and the validated set of APIs with per-group version priority and
//! storage-version overrides.

use std::collections::{BTreeMap, BTreeSet};

use crate::kinds::kinds;
use kompat_runtime::gofmt::go_quote;
use kompat_runtime::version::Version;

use super::names::GroupResource;
use super::order::{is_ga, sort_kube_aware};
use kompat_runtime::{GroupVersion, GroupVersionKind};

/// One declared API version of a kind, as written (`[[api]]` in TOML).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiDecl {
    /// `""` is the core group.
    pub group: String,
    pub version: String,
    pub kind: String,
    /// Lower-case plural resource name.
    pub resource: String,
    /// Required; a missing value is a problem.
    pub introduced: Option<Version>,
    pub deprecated: Option<Version>,
    pub removed: Option<Version>,
    /// `GROUP/VERSION/KIND` as written (core group: `/v1/Pod`).
    pub replacement: Option<String>,
    /// Default: true for GA versions (`vN`), false otherwise.
    pub enabled_by_default: Option<bool>,
}

/// Everything an API declaration file says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiConfig {
    pub apis: Vec<ApiDecl>,
    /// Explicit version priority per group, most preferred first.
    pub priorities: BTreeMap<String, Vec<String>>,
    /// `"GROUP/RESOURCE"` → pinned storage version.
    pub storage_overrides: BTreeMap<String, String>,
    /// `"GROUP/RESOURCE"` → the version from which the pin must be gone
    /// (`{ version = "v1beta1", until = "1.38" }`), like kube-apiserver's
    /// "TODO: remove in 1.37" pins.
    pub storage_override_until: BTreeMap<String, Version>,
}

/// A completed lifecycle, as the methods prerelease-lifecycle-gen generates
/// would return it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lifecycle {
    pub introduced: Version,
    pub deprecated: Option<Version>,
    pub removed: Option<Version>,
}

/// prerelease-lifecycle-gen's `argsFromType`: for a non-GA version (`^v\d+$`
/// does not match) deprecated defaults to introduced + 3 minors and removed to
/// deprecated + 3 minors (the defaulted deprecated if none was written); for a
/// GA version only what is written.
pub fn complete_lifecycle(
    version: &str,
    introduced: Version,
    deprecated: Option<Version>,
    removed: Option<Version>,
) -> Lifecycle {
    if is_ga(version) {
        return Lifecycle { introduced, deprecated, removed };
    }
    let deprecated = deprecated.unwrap_or_else(|| introduced.add_minor(3));
    let removed = removed.unwrap_or_else(|| deprecated.add_minor(3));
    Lifecycle { introduced, deprecated: Some(deprecated), removed: Some(removed) }
}

/// Parses and checks a replacement `GROUP/VERSION/KIND` with
/// prerelease-lifecycle-gen's sanity checks and messages. The separator is
/// `/` rather than the tag's `,`, and the format message says so.
pub fn parse_replacement(text: &str) -> Result<GroupVersionKind, String> {
    let bad_format = || format!("replacement value must be \"<group>/<version>/<kind>\", got {}", go_quote(text));
    let gvk = GroupVersionKind::split(text).ok_or_else(bad_format)?;
    if gvk.version.is_empty() || gvk.kind.is_empty() {
        return Err(bad_format());
    }
    if gvk.group.to_lowercase() != gvk.group {
        return Err(format!("replacement group must be all lower-case, got {}", go_quote(&gvk.group)));
    }
    if !gvk.version.starts_with('v') || gvk.version.to_lowercase() != gvk.version {
        return Err(format!(
            "replacement version must start with \"v\" and be all lower-case, got {}",
            go_quote(&gvk.version)
        ));
    }
    // Go: strings.ToUpper(kind[:1]) != kind[:1], on the first byte: a lower-case
    // ASCII letter or any non-ASCII first byte fails; digits and symbols pass.
    let first = gvk.kind.as_bytes()[0];
    if !first.is_ascii() || first.is_ascii_lowercase() {
        return Err(format!("replacement kind must start with uppercase-letter, got {}", go_quote(&gvk.kind)));
    }
    Ok(gvk)
}

/// Which part of the declarations a problem is about, so a parser holding
/// source spans can point at it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ApiField {
    /// The `[[api]]` entry as a whole.
    Entry,
    Group,
    Version,
    Kind,
    Resource,
    Introduced,
    Deprecated,
    Removed,
    Replacement,
    EnabledByDefault,
    /// `[groups."G"] priority`, the `n`th entry if `Some`.
    Priority {
        group: String,
        entry: Option<usize>,
    },
    /// A `[storage_overrides]` key.
    StorageOverride {
        key: String,
    },
}

kinds! {
    /// What is wrong with an API declaration; its code (the linter's rule for
    /// it) is the variant in kebab-case, like [`crate::ProblemKind`] for
    /// features.
    pub enum ApiProblemKind {
        /// `version`, `kind` or `resource` is empty.
        ApiEmptyValue,
        /// No `introduced` version.
        ApiMissingIntroduced,
        /// `replacement` is not `GROUP/VERSION/KIND` as prerelease-lifecycle-gen
        /// writes it.
        ApiInvalidReplacement,
        /// The same group, version and kind declared twice.
        ApiDuplicateKind,
        /// The same resource declared twice in one group-version.
        ApiDuplicateResource,
        /// A group's `priority` lists a version with no declaration, or one
        /// version twice.
        ApiInvalidPriority,
        /// A `priority` for a group nothing declares, or for one group in two
        /// files.
        ApiUnusedPriority,
        /// A storage override whose key is not `GROUP/RESOURCE`, pins a version
        /// that does not declare the resource, or is given in two files.
        StorageOverrideInvalid,
    }
}

/// A problem in the declarations. `index` is the `[[api]]` entry's position
/// when the problem is about one; `first`, the position of the earlier entry
/// a duplicate repeats. Its `Display` names that entry by position; a reader
/// that knows where entries are written names the place instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiProblem {
    pub kind: ApiProblemKind,
    pub index: Option<usize>,
    pub field: ApiField,
    pub message: String,
    pub first: Option<usize>,
}

impl std::fmt::Display for ApiProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        match self.first {
            Some(first) => write!(f, " (first declared in api entry {first})"),
            None => Ok(()),
        }
    }
}

/// A validated, completed API version of a kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Api {
    pub gvk: GroupVersionKind,
    pub resource: String,
    pub lifecycle: Lifecycle,
    pub replacement: Option<GroupVersionKind>,
    pub enabled_by_default: bool,
    /// Position in [`ApiConfig::apis`].
    pub index: usize,
}

impl Api {
    pub fn group(&self) -> &str {
        &self.gvk.group
    }

    pub fn version(&self) -> &str {
        &self.gvk.version
    }

    pub fn kind(&self) -> &str {
        &self.gvk.kind
    }

    pub fn group_version(&self) -> GroupVersion {
        self.gvk.group_version()
    }

    /// `ShouldServeForVersion` of a non-alpha binary: served at `current`
    /// iff removed > current (or never removed).
    pub fn served_at(&self, current: Version) -> bool {
        self.lifecycle.removed.is_none_or(|removed| removed > current)
    }
}

/// The maps [`ApiSet`] is looked up in, once per manifest object: hashed
/// with foldhash (seeded per process, as std's SipHash is: the names looked
/// up are the input's text) when analysing, with std's hasher in the
/// derive's build (its dependency chain stays short).
#[cfg(feature = "analysis")]
type Index<K, V> = foldhash::HashMap<K, V>;
#[cfg(not(feature = "analysis"))]
type Index<K, V> = std::collections::HashMap<K, V>;

/// A validated set of API declarations: the scheme of a Kubernetes-style API
/// server.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ApiSet {
    apis: Vec<Api>,
    /// Group → versions, most preferred first (`PrioritizedVersionsForGroup`).
    groups: BTreeMap<String, Vec<String>>,
    overrides: BTreeMap<GroupResource, String>,
    /// Kind → positions in `apis` of the APIs of that kind, in order: what
    /// [`ApiSet::find_kind`] looks up once per manifest object.
    by_kind: Index<String, Vec<usize>>,
    /// Resource → positions in `apis` of the APIs of that resource, in
    /// order ([`ApiSet::with_resource`]).
    by_resource: Index<String, Vec<usize>>,
}

impl ApiSet {
    /// Validates and completes declarations. Every problem is reported, in
    /// declaration order, then priorities, then overrides.
    pub fn build(config: &ApiConfig) -> Result<ApiSet, Vec<ApiProblem>> {
        let (set, problems) = ApiSet::build_partial(config);
        if problems.is_empty() {
            Ok(set)
        } else {
            Err(problems)
        }
    }

    /// Like [`ApiSet::build`], but also returns the set of everything that is
    /// well declared: entries, priorities and overrides with a problem are
    /// left out of it. The linter reports the problems as findings and checks
    /// the rest.
    pub fn build_partial(config: &ApiConfig) -> (ApiSet, Vec<ApiProblem>) {
        let mut problems = Vec::new();
        let mut apis = Vec::new();
        let mut seen_gvk: Index<GroupVersionKind, usize> =
            Index::with_capacity_and_hasher(config.apis.len(), Default::default());
        let mut seen_gvr: Index<(String, String, String), usize> =
            Index::with_capacity_and_hasher(config.apis.len(), Default::default());
        for (index, decl) in config.apis.iter().enumerate() {
            let mut problem = |kind, field, message: String| {
                problems.push(ApiProblem { kind, index: Some(index), field, message, first: None })
            };
            let gvk = GroupVersionKind::new(&decl.group, &decl.version, &decl.kind);
            let mut ok = true;
            for (field, value, name) in [
                (ApiField::Version, &decl.version, "version"),
                (ApiField::Kind, &decl.kind, "kind"),
                (ApiField::Resource, &decl.resource, "resource"),
            ] {
                if value.is_empty() {
                    problem(ApiProblemKind::ApiEmptyValue, field, format!("{name} must not be empty"));
                    ok = false;
                }
            }
            if decl.introduced.is_none() {
                problem(
                    ApiProblemKind::ApiMissingIntroduced,
                    ApiField::Introduced,
                    format!("{gvk} missing introduced version"),
                );
                ok = false;
            }
            let replacement = match decl.replacement.as_deref().map(parse_replacement) {
                None => None,
                Some(Ok(gvk)) => Some(gvk),
                Some(Err(message)) => {
                    problem(ApiProblemKind::ApiInvalidReplacement, ApiField::Replacement, message);
                    ok = false;
                    None
                }
            };
            if !ok {
                continue;
            }
            if let Some(first) = seen_gvk.insert(gvk.clone(), index) {
                problems.push(ApiProblem {
                    kind: ApiProblemKind::ApiDuplicateKind,
                    index: Some(index),
                    field: ApiField::Entry,
                    message: format!("duplicate declaration of {gvk}"),
                    first: Some(first),
                });
                continue;
            }
            let gvr_key = (decl.group.clone(), decl.version.clone(), decl.resource.clone());
            if let Some(first) = seen_gvr.insert(gvr_key, index) {
                problems.push(ApiProblem {
                    kind: ApiProblemKind::ApiDuplicateResource,
                    index: Some(index),
                    field: ApiField::Resource,
                    message: format!(
                        "duplicate declaration of resource {} in {}",
                        go_quote(&decl.resource),
                        gvk.group_version()
                    ),
                    first: Some(first),
                });
                continue;
            }
            let Some(introduced) = decl.introduced else { continue };
            let lifecycle = complete_lifecycle(&decl.version, introduced, decl.deprecated, decl.removed);
            let enabled_by_default = decl.enabled_by_default.unwrap_or_else(|| is_ga(&decl.version));
            apis.push(Api { gvk, resource: decl.resource.clone(), lifecycle, replacement, enabled_by_default, index });
        }

        let mut declared: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for api in &apis {
            declared.entry(api.gvk.group.clone()).or_default().insert(api.gvk.version.clone());
        }
        for decl in &config.apis {
            // Versions of entries with problems still count as declared, so one
            // problem does not cascade into priority problems.
            if !decl.version.is_empty() {
                declared.entry(decl.group.clone()).or_default().insert(decl.version.clone());
            }
        }

        let mut groups = BTreeMap::new();
        for (group, versions) in &declared {
            let mut ordered: Vec<String> = Vec::new();
            if let Some(priority) = config.priorities.get(group) {
                for (entry, version) in priority.iter().enumerate() {
                    let field = ApiField::Priority { group: group.clone(), entry: Some(entry) };
                    if !versions.contains(version) {
                        problems.push(ApiProblem {
                            kind: ApiProblemKind::ApiInvalidPriority,
                            index: None,
                            field,
                            message: format!(
                                "priority of group {} lists version {}, which has no declaration in that group",
                                go_quote(group),
                                go_quote(version)
                            ),
                            first: None,
                        });
                    } else if ordered.contains(version) {
                        problems.push(ApiProblem {
                            kind: ApiProblemKind::ApiInvalidPriority,
                            index: None,
                            field,
                            message: format!(
                                "priority of group {} lists version {} more than once",
                                go_quote(group),
                                go_quote(version)
                            ),
                            first: None,
                        });
                    } else {
                        ordered.push(version.clone());
                    }
                }
            }
            let mut rest: Vec<String> = versions.iter().filter(|v| !ordered.contains(v)).cloned().collect();
            sort_kube_aware(&mut rest);
            ordered.extend(rest);
            groups.insert(group.clone(), ordered);
        }
        for group in config.priorities.keys() {
            if !declared.contains_key(group) {
                problems.push(ApiProblem {
                    kind: ApiProblemKind::ApiUnusedPriority,
                    index: None,
                    field: ApiField::Priority { group: group.clone(), entry: None },
                    message: format!("priority given for group {}, which has no declaration", go_quote(group)),
                    first: None,
                });
            }
        }

        let mut overrides = BTreeMap::new();
        for (key, version) in &config.storage_overrides {
            let field = ApiField::StorageOverride { key: key.clone() };
            let Some(gr) = GroupResource::parse_key(key) else {
                problems.push(ApiProblem {
                    kind: ApiProblemKind::StorageOverrideInvalid,
                    index: None,
                    field,
                    message: format!("storage override key {} must be \"GROUP/RESOURCE\"", go_quote(key)),
                    first: None,
                });
                continue;
            };
            let declares =
                config.apis.iter().any(|d| d.group == gr.group && d.resource == gr.resource && &d.version == version);
            if !declares {
                problems.push(ApiProblem {
                    kind: ApiProblemKind::StorageOverrideInvalid,
                    index: None,
                    field,
                    message: format!(
                        "storage override {} pins version {}, which does not declare resource {} in group {}",
                        go_quote(key),
                        go_quote(version),
                        go_quote(&gr.resource),
                        go_quote(&gr.group)
                    ),
                    first: None,
                });
                continue;
            }
            overrides.insert(gr, version.clone());
        }

        let mut by_kind: Index<String, Vec<usize>> = Index::with_capacity_and_hasher(apis.len(), Default::default());
        let mut by_resource: Index<String, Vec<usize>> =
            Index::with_capacity_and_hasher(apis.len(), Default::default());
        for (position, api) in apis.iter().enumerate() {
            by_kind.entry(api.gvk.kind.clone()).or_default().push(position);
            by_resource.entry(api.resource.clone()).or_default().push(position);
        }
        (ApiSet { apis, groups, overrides, by_kind, by_resource }, problems)
    }

    /// Every API, in declaration order.
    pub fn apis(&self) -> &[Api] {
        &self.apis
    }

    /// Every declared group, sorted.
    pub fn groups(&self) -> impl Iterator<Item = &str> {
        self.groups.keys().map(String::as_str)
    }

    /// `PrioritizedVersionsForGroup`: the explicit priority list, then the
    /// other declared versions in kube-aware order. Empty for an unknown group.
    pub fn prioritized_versions(&self, group: &str) -> &[String] {
        self.groups.get(group).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn is_group_registered(&self, group: &str) -> bool {
        self.groups.contains_key(group)
    }

    pub fn is_version_registered(&self, gv: &GroupVersion) -> bool {
        self.prioritized_versions(&gv.group).contains(&gv.version)
    }

    /// The APIs of one group-version, in declaration order.
    pub fn apis_in<'a>(&'a self, group: &'a str, version: &'a str) -> impl Iterator<Item = &'a Api> + 'a {
        self.apis.iter().filter(move |a| a.gvk.group == group && a.gvk.version == version)
    }

    pub fn find_kind(&self, group: &str, version: &str, kind: &str) -> Option<&Api> {
        self.by_kind
            .get(kind)?
            .iter()
            .map(|&position| &self.apis[position])
            .find(|a| a.gvk.group == group && a.gvk.version == version)
    }

    pub fn find_resource(&self, group: &str, version: &str, resource: &str) -> Option<&Api> {
        self.with_resource(resource).find(|a| a.gvk.group == group && a.gvk.version == version)
    }

    /// The APIs of `resource` (in every group and version), in declaration
    /// order: an index lookup, not a scan of every API.
    pub fn with_resource<'a>(&'a self, resource: &str) -> impl Iterator<Item = &'a Api> + 'a {
        self.by_resource.get(resource).into_iter().flatten().map(move |&position| &self.apis[position])
    }

    /// Every declared resource, sorted by group then resource.
    pub fn resources(&self) -> Vec<GroupResource> {
        let set: BTreeSet<GroupResource> =
            self.apis.iter().map(|a| GroupResource::new(a.group(), &a.resource)).collect();
        set.into_iter().collect()
    }

    /// Pinned storage versions.
    pub fn storage_overrides(&self) -> &BTreeMap<GroupResource, String> {
        &self.overrides
    }
}
