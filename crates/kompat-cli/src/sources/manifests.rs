//! Kubernetes manifests (objects read by `kompat_formats::manifest`, located by
//! `kompat-project`), checked against the API set a server of the target
//! version has: Kubernetes' built-in APIs, with the project's own API
//! declarations added when it has some.
//!
//! The serving question is `kompat_engine::api::served_apis`' (KEP-4330's
//! rules, `--runtime-config` and the forward-compatibility flags), asked
//! once per run; the rules `removed-api-version`, `deprecated-api-version`
//! and `unserved-api-version` only read the answers. Objects of Kubernetes'
//! own groups whose version or kind no release of the data has are kept
//! apart, for `unknown-api-kind`.

use std::borrow::Cow;
use std::collections::BTreeSet;

use kompat_crd::Crd;
use kompat_diag::{Diagnostic, Location};
use kompat_engine::api::{served_apis, Api, ApiConfig, ApiSet, GroupVersionResource, ServeOptions};
use kompat_formats::manifest::ManifestObject;
use kompat_project::Error;
use kompat_runtime::{GroupVersion, Version};

/// An object whose group, version and kind the API set knows, and whether
/// the server serves it. Objects of group-versions or kinds the set does
/// not know (custom resources) are not checked.
///
/// Borrowed from the objects checked, never copied: a manifest may have
/// hundreds of thousands of objects.
#[derive(Debug, Clone)]
pub struct Checked<'a> {
    /// The object, located by its `apiVersion` value.
    pub object: &'a ManifestObject<Location>,
    /// Shared by the objects of one kind (a manifest may have thousands).
    pub api: std::sync::Arc<Api>,
    /// Among the resources the server serves.
    pub served: bool,
}

/// The manifests of a run, checked: the objects borrowed from the caller's.
#[derive(Debug, Clone)]
pub struct Manifests<'a> {
    pub serve: ServeOptions,
    pub checked: Vec<Checked<'a>>,
    /// Objects of one of Kubernetes' built-in groups whose version or kind
    /// the API set does not have (no release of the data serves them), but
    /// for lists (`*List` kinds): custom groups are left alone.
    pub unknown: Vec<&'a ManifestObject<Location>>,
    /// Objects of groups that are not Kubernetes' built-in ones and that the
    /// API set does not have (custom resources), lists left out: judged
    /// against the CRDs among the inputs ([`against_crds`]).
    pub custom: Vec<&'a ManifestObject<Location>>,
}

impl<'a> Manifests<'a> {
    /// Checks every object against Kubernetes' built-in API set (and the
    /// project's declared APIs, `project`, when given) as a server with
    /// `serve` serves them. Errors are input errors: `--runtime-config` that the
    /// server would refuse, declared APIs that conflict with built-in ones.
    pub fn check(
        objects: &'a [ManifestObject<Location>],
        project: Option<&ApiConfig>,
        serve: &ServeOptions,
    ) -> Result<Manifests<'a>, Error> {
        if objects.is_empty() {
            return Ok(Manifests {
                serve: serve.clone(),
                checked: Vec::new(),
                unknown: Vec::new(),
                custom: Vec::new(),
            });
        }
        let set: Cow<'_, ApiSet> = match project {
            Some(project) => Cow::Owned(with_project(project)?),
            None => Cow::Borrowed(kompat_k8s::apis()),
        };
        let served = served_apis(&set, serve)
            .map_err(|err| Error { diagnostics: err.messages.into_iter().map(Diagnostic::error).collect() })?;
        let served: BTreeSet<&GroupVersionResource> = served.resources.iter().collect();
        let mut checked = Vec::with_capacity(objects.len());
        let mut unknown = Vec::new();
        let mut custom = Vec::new();
        // Each API and whether it is served, once per API of the set.
        let mut apis: foldhash::HashMap<*const Api, (std::sync::Arc<Api>, bool)> = foldhash::HashMap::default();
        // What an object is depends on its names alone, and the objects of a
        // stream share theirs: each group, version and kind is judged once,
        // looked up by the names' addresses (all alive while the objects
        // are: one address, one text).
        let mut judged: foldhash::HashMap<[*const u8; 3], Judged> = foldhash::HashMap::default();
        for object in objects {
            let names = [object.group.as_ptr(), object.version.as_ptr(), object.kind.as_ptr()];
            let judgement = judged.entry(names).or_insert_with(|| {
                let Some(api) = set.find_kind(&object.group, &object.version, &object.kind) else {
                    return if is_builtin_unknown(object) {
                        Judged::Unknown
                    } else if !object.kind.ends_with("List") && !kompat_k8s::apis().is_group_registered(&object.group) {
                        Judged::Custom
                    } else {
                        Judged::Neither
                    };
                };
                let (api, served) = apis
                    .entry(api as *const Api)
                    .or_insert_with(|| {
                        let gvr = GroupVersionResource::of(&api.group_version(), &api.resource);
                        (std::sync::Arc::new(api.clone()), served.contains(&gvr))
                    })
                    .clone();
                Judged::Known(api, served)
            });
            match judgement {
                Judged::Known(api, served) => checked.push(Checked { object, api: api.clone(), served: *served }),
                Judged::Unknown => unknown.push(object),
                Judged::Custom => custom.push(object),
                Judged::Neither => {}
            }
        }
        Ok(Manifests { serve: serve.clone(), checked, unknown, custom })
    }

    /// The version whose rules the server follows.
    pub fn emulation(&self) -> Version {
        self.serve.emulation
    }

    /// The server, for messages: `Kubernetes 1.37`, or `Kubernetes 1.37
    /// emulating 1.33`.
    pub fn target(&self) -> String {
        match self.serve.binary {
            Some(binary) if binary != self.serve.emulation => {
                format!("Kubernetes {binary} emulating {}", self.serve.emulation)
            }
            _ => format!("Kubernetes {}", self.serve.emulation),
        }
    }
}

/// Client-side kinds of Kubernetes' own groups that are written as YAML
/// files and never sent to a server: a kubeconfig is `v1 Config`.
const CLIENT_KINDS: &[(&str, &str, &str)] = &[("", "v1", "Config")];

/// What [`Manifests::check`] makes of an object's group, version and kind.
enum Judged {
    /// An API of the set, and whether the server serves it.
    Known(std::sync::Arc<Api>, bool),
    /// [`Manifests::unknown`]'s.
    Unknown,
    /// [`Manifests::custom`]'s.
    Custom,
    /// Neither (a list, or an unknown kind of a group the set has).
    Neither,
}

/// True for an object of one of Kubernetes' built-in groups that is not a
/// list (`List`, `*List`: their items are the objects), a client-side file
/// ([`CLIENT_KINDS`]) nor the configuration of one of kustomize's built-in
/// plugins (`apiVersion: builtin`, `kind: PrefixSuffixTransformer`); the
/// caller has found no API for it.
fn is_builtin_unknown(object: &ManifestObject<Location>) -> bool {
    let kustomize_plugin = object.group.is_empty() && &*object.version == "builtin";
    kompat_k8s::apis().is_group_registered(&object.group)
        && !object.kind.ends_with("List")
        && !kustomize_plugin
        && !CLIENT_KINDS.contains(&(&*object.group, &*object.version, &*object.kind))
}

/// The newest Kubernetes release kompat's data knows: the last `k8s.io/api`
/// tag the built-in API table records having read (whose
/// prerelease-lifecycle files also state the removals planned for the next
/// release), or the newest release of Kubernetes' feature list, whichever
/// is newer. Removals decided after it are not known.
pub fn newest_known_release() -> Option<Version> {
    let line = kompat_k8s::APIS_TOML.lines().find(|l| l.starts_with("# source: k8s.io/api "))?;
    let tags = line.split_whitespace().filter_map(|tag| tag.strip_prefix("kubernetes-")).filter_map(|v| {
        let mut parts = v.split('.');
        Some(Version::new(parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
    });
    let features =
        kompat_k8s::features().iter().flat_map(|f| &f.specs).filter_map(|s| Some(s.version.as_ref()?.major_minor()));
    tags.max().max(features.max())
}

/// Kubernetes' built-in API declarations and the project's, as one set.
fn with_project(project: &ApiConfig) -> Result<ApiSet, Error> {
    let mut config = kompat_k8s::api_config().clone();
    config.apis.extend(project.apis.iter().cloned());
    for (group, priority) in &project.priorities {
        config.priorities.entry(group.clone()).or_insert_with(|| priority.clone());
    }
    for (key, version) in &project.storage_overrides {
        config.storage_overrides.entry(key.clone()).or_insert_with(|| version.clone());
    }
    for (key, until) in &project.storage_override_until {
        config.storage_override_until.entry(key.clone()).or_insert(*until);
    }
    ApiSet::build(&config).map_err(|problems| Error {
        diagnostics: problems
            .into_iter()
            .map(|p| Diagnostic::error(format!("the declared APIs conflict with Kubernetes' built-in APIs: {p}")))
            .collect(),
    })
}

/// `kind "K" in version "G/V"`, as Kubernetes' `no matches for kind` error
/// names an object's type.
pub fn no_matches(checked: &Checked<'_>) -> String {
    no_matches_for(checked.api.group(), checked.api.version(), checked.api.kind())
}

/// [`no_matches`] for a group, version and kind.
pub fn no_matches_for(group: &str, version: &str, kind: &str) -> String {
    let gv = GroupVersion { group: group.to_owned(), version: version.to_owned() };
    format!("no matches for kind {kind:?} in version {:?}", gv.to_string())
}

/// What the apiserver answers for a custom resource whose group and kind
/// a CRD among the inputs defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrdVerdict {
    /// The CRD has no such version (`unknown-api-kind`).
    Unknown(String),
    /// The CRD has the version with `served: false` (`unserved-api-version`).
    Unserved(String),
    /// The version is `deprecated: true`: the apiserver's warning, the
    /// CRD's `deprecationWarning` or its default (`deprecated-api-version`),
    /// and where the CRD stores the objects when another version.
    Deprecated(String, Option<String>),
}

/// Every custom resource of the manifests whose group and kind a CRD among
/// `crds` defines, with the apiserver's verdict where it has something to
/// say; objects of versions served and not deprecated are left out.
pub fn against_crds<'a>(manifests: &Manifests<'a>, crds: &[&Crd]) -> Vec<(&'a ManifestObject<Location>, CrdVerdict)> {
    let mut out = Vec::new();
    for &object in &manifests.custom {
        // One CRD may be among the inputs in several editions (Gateway API's
        // standard and experimental channels): an object is judged by the
        // edition that accepts it best, as the cluster may run either.
        let verdicts = crds
            .iter()
            .filter(|c| *c.group.value == *object.group && *c.kind.value == *object.kind)
            .map(|crd| judge(crd, object));
        if let Some(Some(verdict)) = verdicts.min_by_key(|v| v.as_ref().map_or(0, CrdVerdict::severity)) {
            out.push((object, verdict));
        }
    }
    out
}

impl CrdVerdict {
    /// How far from served this is: deprecated, then unserved, then unknown.
    fn severity(&self) -> u8 {
        match self {
            CrdVerdict::Deprecated(..) => 1,
            CrdVerdict::Unserved(_) => 2,
            CrdVerdict::Unknown(_) => 3,
        }
    }
}

fn judge(crd: &Crd, object: &ManifestObject<Location>) -> Option<CrdVerdict> {
    let (group, version, kind) = (&object.group, &object.version, &object.kind);
    let served: Vec<&str> = crd.versions.iter().filter(|v| v.served.value).map(|v| v.name.value.as_str()).collect();
    let serving = if served.is_empty() {
        "no version is served".to_owned()
    } else {
        format!("it serves {}", served.iter().map(|v| format!("{group}/{v}")).collect::<Vec<_>>().join(", "))
    };
    let storage = crd.versions.iter().find(|v| v.storage.value).map(|v| v.name.value.as_str());
    let Some(v) = crd.versions.iter().find(|v| *v.name.value == **version) else {
        return Some(CrdVerdict::Unknown(format!(
            "{}: the CRD {} has no version {version}; {serving}",
            no_matches_for(group, version, kind),
            crd.name.value
        )));
    };
    if !v.served.value {
        return Some(CrdVerdict::Unserved(format!(
            "{}: version {version} of the CRD {} is not served (`served: false`); {serving}",
            no_matches_for(group, version, kind),
            crd.name.value
        )));
    }
    if !v.is_deprecated() {
        return None;
    }
    // apiextensions-apiserver's warning (`defaultDeprecationWarning`): the
    // CRD's own text, else "<group>/<version> <Kind> is deprecated", with
    // "; use <group>/<newest> <Kind>" when a served, undeprecated version
    // ranks above it.
    let warning = match &v.deprecation_warning {
        Some(w) => w.value.clone(),
        None => {
            let kind = &crd.kind.value;
            let newer = crd
                .versions
                .iter()
                .filter(|o| o.served.value && !o.is_deprecated())
                .map(|o| o.name.value.as_str())
                .filter(|o| kompat_engine::api::compare_kube_aware(version, o).is_lt())
                .max_by(|a, b| kompat_engine::api::compare_kube_aware(a, b));
            match newer {
                Some(newer) => format!("{group}/{version} {kind} is deprecated; use {group}/{newer} {kind}"),
                None => format!("{group}/{version} {kind} is deprecated"),
            }
        }
    };
    let stored = match storage {
        Some(s) if s != &**version => {
            let strategy = crd.conversion_strategy.as_ref().map_or("None", |s| s.value.as_str());
            Some(format!("the CRD stores {kind} as {group}/{s}, converted with strategy {strategy}"))
        }
        _ => None,
    };
    Some(CrdVerdict::Deprecated(warning, stored))
}

/// What a rule says of every object of one API, made once per API and
/// shared by the findings ([`kompat_diag::Text`] clones are reference counts): a manifest
/// may hold a hundred thousand objects of one removed kind.
pub struct PerApi<T>(foldhash::HashMap<*const Api, T>);

impl<T: Clone> PerApi<T> {
    pub fn new() -> PerApi<T> {
        PerApi(foldhash::HashMap::default())
    }

    /// What `make` says of `api`, made the first time it is asked for.
    pub fn get(&mut self, api: &std::sync::Arc<Api>, make: impl FnOnce() -> T) -> T {
        self.0.entry(std::sync::Arc::as_ptr(api)).or_insert_with(make).clone()
    }
}

impl<T: Clone> Default for PerApi<T> {
    fn default() -> PerApi<T> {
        PerApi::new()
    }
}

/// `; use G/V Kind` when the API names a replacement (the suffix of
/// Kubernetes' deprecation warning).
pub fn replacement(api: &Api) -> String {
    match &api.replacement {
        Some(r) => format!("; use {} {}", r.group_version(), r.kind),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// [`Manifests::check`] at 1.34 of objects written `group/version/kind`
    /// (`=` for an object whose names are the previous object's own, shared
    /// as a stream's are; `~group` for the previous object's version and kind
    /// with another group); each object as the check files it: `served`,
    /// `unserved`, `unknown`, `custom` or `-`.
    #[track_caller]
    fn check(objects: &[&str], expected: &[&str]) {
        let mut made: Vec<ManifestObject<Location>> = Vec::new();
        for written in objects {
            let object = match (*written, made.last()) {
                ("=", Some(last)) => last.clone(),
                (other, Some(last)) if other.starts_with('~') => {
                    ManifestObject { group: Arc::from(&other[1..]), ..last.clone() }
                }
                _ => {
                    let mut names = written.splitn(3, '/').map(Arc::<str>::from);
                    let mut name = || names.next().unwrap_or_else(|| Arc::from(""));
                    let (group, version, kind) = (name(), name(), name());
                    ManifestObject { group, version, kind, location: Location::file("m.yaml") }
                }
            };
            made.push(object);
        }
        let checked = Manifests::check(&made, None, &ServeOptions::new(Version::new(1, 34))).expect("no project APIs");
        let filed = |object: &ManifestObject<Location>| {
            let is = |o: &&ManifestObject<Location>| std::ptr::eq(*o, object);
            if let Some(c) = checked.checked.iter().find(|c| std::ptr::eq(c.object, object)) {
                if c.served {
                    "served"
                } else {
                    "unserved"
                }
            } else if checked.unknown.iter().any(is) {
                "unknown"
            } else if checked.custom.iter().any(is) {
                "custom"
            } else {
                "-"
            }
        };
        let actual: Vec<&str> = made.iter().map(filed).collect();
        assert_eq!(actual, expected, "{objects:?}");
    }

    #[test]
    fn objects_are_judged_by_their_names_shared_or_not() {
        check(&["apps/v1/Deployment", "=", "="], &["served", "served", "served"]);
        check(&["apps/v1/Deployment", "apps/v1/Deployment"], &["served", "served"]);
        check(&["extensions/v1beta1/Deployment", "=", "apps/v1/Deployment"], &["unserved", "unserved", "served"]);
        // Names shared but the group: another object.
        check(&["apps/v1/Deployment", "~extensions", "~example.com", "="], &["served", "unknown", "custom", "custom"]);
        check(&["extensions/v1/Deployment", "~apps"], &["unknown", "served"]);
        check(&["apps/v9/Deployment", "=", "example.com/v1/Widget", "="], &["unknown", "unknown", "custom", "custom"]);
        check(&["/v1/List", "=", "/v1/Pod", "/v1/Config"], &["-", "-", "served", "-"]);
    }

    #[test]
    fn the_newest_known_release_is_read_from_the_table() {
        let newest = newest_known_release().expect("apis.toml records its k8s.io/api tags");
        // The API table reads release tags up to 1.36; the feature list is
        // Kubernetes' development branch (1.37).
        assert!(newest >= Version::new(1, 37), "{newest}");
        // The table has an API introduced in that release or one before it.
        let latest_introduced = kompat_k8s::apis().apis().iter().map(|a| a.lifecycle.introduced).max();
        assert!(latest_introduced.is_some_and(|v| v <= newest), "{latest_introduced:?}");
    }
}
