//! Which group-versions and resources a Kubernetes-style API server serves at
//! an emulation version (1.33+ rules): the default resource config,
//! `--runtime-config` completion, validation and merge
//! (`resourceconfig.MergeAPIResourceConfigs`), emulation forward
//! compatibility, and the lifecycle filtering of `deleted_kinds.go` (removal,
//! then introduction).
//!
//! Where Kubernetes walks a Go map (runtime-config keys, resources of a
//! version) and so reports the first error in random order, kompat walks in
//! sorted order.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use kompat_runtime::gofmt::{go_aggregate, go_quote};
use kompat_runtime::version::Version;

use super::decl::ApiSet;
use super::names::GroupVersionResource;
use super::order::{is_alpha, is_beta, is_ga, sort_kube_aware};
use kompat_runtime::GroupVersion;

const API_ALL: &str = "api/all";
const API_GA: &str = "api/ga";
const API_BETA: &str = "api/beta";
const API_ALPHA: &str = "api/alpha";
/// `groupVersionMatchersOrder`.
const KEYWORDS: [&str; 4] = [API_ALL, API_GA, API_BETA, API_ALPHA];

/// `--runtime-config` values (`cliflag.ConfigurationMap`): `key=value` pairs;
/// a later key replaces an earlier one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RuntimeConfig {
    entries: BTreeMap<String, String>,
}

impl RuntimeConfig {
    pub fn new() -> RuntimeConfig {
        RuntimeConfig::default()
    }

    /// Parses one flag value the way `ConfigurationMap.Set` does: split on
    /// `,`, skip empty items, split each on the first `=`, trim both sides; a
    /// key without `=` has the value `""` (which means true). Never fails.
    pub fn parse(flag: &str) -> RuntimeConfig {
        let mut config = RuntimeConfig::new();
        config.set(flag);
        config
    }

    /// Adds one more flag value (the flag may be repeated).
    pub fn set(&mut self, flag: &str) {
        for item in flag.split(',') {
            if item.is_empty() {
                continue;
            }
            match item.split_once('=') {
                Some((k, v)) => self.insert(k.trim(), v.trim()),
                None => self.insert(item.trim(), ""),
            }
        }
    }

    pub fn insert(&mut self, key: &str, value: &str) {
        self.entries.insert(key.to_owned(), value.to_owned());
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries.get(key).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// kube-apiserver's completion: `v1`, `v1/*`, `api/v1` and `api/v1/*` all
    /// become the key `/v1` (the resource part is dropped), and `api/legacy`
    /// is deleted. Keys are visited in sorted order, so of several such keys
    /// the last in byte order wins.
    pub fn completed(&self) -> RuntimeConfig {
        let mut out = BTreeMap::new();
        for (key, value) in &self.entries {
            if key == "v1" || key.starts_with("v1/") || key == "api/v1" || key.starts_with("api/v1/") {
                out.insert("/v1".to_owned(), value.clone());
            } else if key != "api/legacy" {
                out.insert(key.clone(), value.clone());
            }
        }
        RuntimeConfig { entries: out }
    }
}

/// The serving inputs of one API server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeOptions {
    /// The binary version; `None` means the emulation version (not emulating).
    /// The binary is taken to be a release, never an alpha build.
    pub binary: Option<Version>,
    pub emulation: Version,
    pub runtime_config: RuntimeConfig,
    /// `--emulation-forward-compatible`.
    pub emulation_forward_compatible: bool,
    /// `--runtime-config-emulation-forward-compatible`.
    pub runtime_config_emulation_forward_compatible: bool,
}

impl ServeOptions {
    pub fn new(emulation: Version) -> ServeOptions {
        ServeOptions {
            binary: None,
            emulation,
            runtime_config: RuntimeConfig::new(),
            emulation_forward_compatible: false,
            runtime_config_emulation_forward_compatible: false,
        }
    }
}

/// What is served.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Served {
    /// Sorted by group, version, resource.
    pub resources: Vec<GroupVersionResource>,
    /// Kubernetes' start-up warnings (explicitly enabled alpha APIs while
    /// emulating).
    pub warnings: Vec<String>,
}

/// Why the server would not start. Flag validation can report several
/// messages at once; later stages stop at the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeError {
    pub messages: Vec<String>,
}

impl ServeError {
    fn one(message: String) -> ServeError {
        ServeError { messages: vec![message] }
    }
}

impl fmt::Display for ServeError {
    /// `utilerrors.NewAggregate`: one message alone, several as `[a, b]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&go_aggregate(&self.messages))
    }
}

impl std::error::Error for ServeError {}

/// `serverstorage.ResourceConfig`, keyed by strings.
#[derive(Debug, Clone, Default)]
struct ResourceConfig {
    versions: BTreeMap<GroupVersion, bool>,
    resources: BTreeMap<GroupVersionResource, bool>,
    explicit_versions: BTreeMap<GroupVersion, bool>,
    explicit_resources: BTreeMap<GroupVersionResource, bool>,
}

impl ResourceConfig {
    fn drop_resource_preferences(&mut self, gv: &GroupVersion) {
        self.resources.retain(|gvr, _| gvr.group != gv.group || gvr.version != gv.version);
    }

    /// `EnableVersions` / `DisableVersions`.
    fn set_version(&mut self, gv: &GroupVersion, enabled: bool) {
        self.versions.insert(gv.clone(), enabled);
        self.drop_resource_preferences(gv);
    }

    fn set_matching_versions(&mut self, matcher: fn(&str) -> bool, enabled: bool) {
        let matching: Vec<GroupVersion> = self.versions.keys().filter(|gv| matcher(&gv.version)).cloned().collect();
        for gv in matching {
            self.set_version(&gv, enabled);
        }
    }

    fn version_explicitly_enabled(&self, gv: &GroupVersion) -> bool {
        self.explicit_versions.get(gv).copied().unwrap_or(false)
    }

    fn resource_explicitly_enabled(&self, gvr: &GroupVersionResource) -> bool {
        self.explicit_resources.get(gvr).copied().unwrap_or(false)
    }

    /// `ResourceEnabled`: the resource's own setting, else its version's (a
    /// version absent from the map is disabled).
    fn resource_enabled(&self, gvr: &GroupVersionResource) -> bool {
        match self.resources.get(gvr) {
            Some(enabled) => *enabled,
            None => self.versions.get(&gvr.group_version()).copied().unwrap_or(false),
        }
    }
}

/// The served group-versions and resources, or Kubernetes' start-up error.
pub fn served_apis(set: &ApiSet, opts: &ServeOptions) -> Result<Served, ServeError> {
    let binary = opts.binary.unwrap_or(opts.emulation);
    let runtime_config = opts.runtime_config.completed();
    validate(set, opts, binary, &runtime_config)?;

    let mut config = default_config(set);
    merge_runtime_config(&mut config, &runtime_config, set)?;
    if opts.emulation_forward_compatible {
        config = forward_compatible(&config, &runtime_config, set)?;
    }
    let warnings = alpha_warnings(set, &config, opts.emulation, binary);

    let mut resources = Vec::new();
    for group in set.groups() {
        // The storage map: enabled resources, then removeDeletedKinds.
        let mut storage: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for api in set.apis().iter().filter(|a| a.group() == group) {
            let gvr = GroupVersionResource::of(&api.group_version(), &api.resource);
            if config.resource_enabled(&gvr) && api.served_at(opts.emulation) {
                storage.entry(api.version()).or_default().insert(&api.resource);
            }
        }
        remove_unintroduced(set, group, &mut storage, &config, opts)?;
        for (version, names) in storage {
            resources.extend(names.into_iter().map(|r| GroupVersionResource::new(group, version, r)));
        }
    }
    resources.sort();
    Ok(Served { resources, warnings })
}

/// `ServerRunOptions.Validate` (forward-compatibility flags) and
/// `APIEnablementOptions.Validate`, aggregated.
fn validate(set: &ApiSet, opts: &ServeOptions, binary: Version, rc: &RuntimeConfig) -> Result<(), ServeError> {
    let mut errors = Vec::new();
    let not_emulating = binary == opts.emulation;
    if not_emulating && opts.emulation_forward_compatible {
        errors.push(
            "ServerRunOptions.EmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version"
                .to_owned(),
        );
    }
    if not_emulating && opts.runtime_config_emulation_forward_compatible {
        errors.push(
            "ServerRunOptions.RuntimeConfigEmulationForwardCompatible cannot be set to true if the emulation version is the same as the binary version"
                .to_owned(),
        );
    }
    errors.extend(validate_enablement(set, rc));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(ServeError { messages: errors })
    }
}

fn validate_enablement(set: &ApiSet, rc: &RuntimeConfig) -> Vec<String> {
    if rc.get(API_ALL) == Some("false") && rc.len() == 1 {
        return vec![format!("invalid key with only {API_ALL}=false")];
    }
    // ParseGroups.
    let mut groups = Vec::new();
    for (key, _) in rc.entries() {
        if KEYWORDS.contains(&key) {
            continue;
        }
        let tokens: Vec<&str> = key.split('/').collect();
        if tokens.len() != 2 && tokens.len() != 3 {
            return vec![format!("runtime-config invalid key {key}")];
        }
        groups.push(tokens[0]);
    }
    let unknown: Vec<&str> = groups.into_iter().filter(|g| !set.is_group_registered(g)).collect();
    if unknown.is_empty() {
        Vec::new()
    } else {
        vec![format!("unknown api groups {}", unknown.join(","))]
    }
}

/// `DefaultAPIResourceConfigSource` for declared APIs: every declared
/// group-version is in the map, enabled iff GA; a resource whose
/// `enabled_by_default` differs from its version's gets its own setting (as
/// `legacyBetaEnabledByDefaultResources`).
fn default_config(set: &ApiSet) -> ResourceConfig {
    let mut config = ResourceConfig::default();
    for group in set.groups() {
        for version in set.prioritized_versions(group) {
            config.versions.insert(GroupVersion::new(group, version), is_ga(version));
        }
    }
    for api in set.apis() {
        if api.enabled_by_default != is_ga(api.version()) {
            config
                .resources
                .insert(GroupVersionResource::of(&api.group_version(), &api.resource), api.enabled_by_default);
        }
    }
    config
}

/// `MergeAPIResourceConfigs`.
fn merge_runtime_config(config: &mut ResourceConfig, rc: &RuntimeConfig, set: &ApiSet) -> Result<(), ServeError> {
    for keyword in KEYWORDS {
        let Some(value) = rc.get(keyword) else { continue };
        let matcher: fn(&str) -> bool = match keyword {
            API_ALL => |_| true,
            API_GA => is_ga,
            API_BETA => is_beta,
            _ => is_alpha,
        };
        match value {
            "false" => config.set_matching_versions(matcher, false),
            "true" => config.set_matching_versions(matcher, true),
            _ => return Err(ServeError::one(format!("invalid value {keyword}={value}"))),
        }
    }
    apply_preferences(config, rc, set)
}

/// `applyVersionAndResourcePreferences`: group/version keys first, then
/// group/version/resource keys, which win. Keys of unregistered groups are
/// skipped.
fn apply_preferences(config: &mut ResourceConfig, rc: &RuntimeConfig, set: &ApiSet) -> Result<(), ServeError> {
    let mut versions = Vec::new();
    let mut resources = Vec::new();
    for (key, value) in rc.entries() {
        if KEYWORDS.contains(&key) {
            continue;
        }
        let tokens: Vec<&str> = key.split('/').collect();
        if tokens.len() < 2 || tokens.len() > 3 {
            continue;
        }
        let gv = GroupVersion::new(tokens[0], tokens[1]);
        if !set.is_group_registered(&gv.group) {
            continue;
        }
        if !set.is_version_registered(&gv) {
            return Err(ServeError::one(format!("group version {gv} that has not been registered")));
        }
        let enabled = runtime_config_value(key, value)?;
        if tokens.len() == 2 {
            versions.push((gv, enabled));
        } else {
            let resource = tokens[2];
            if resource.to_lowercase() != resource {
                return Err(ServeError::one(format!(
                    "invalid key {key}: group/version/resource and resource is always lowercase plural, not {}",
                    go_quote(resource)
                )));
            }
            resources.push((GroupVersionResource::of(&gv, resource), enabled));
        }
    }
    for (gv, enabled) in versions {
        config.set_version(&gv, enabled);
        config.explicit_versions.insert(gv, enabled);
    }
    for (gvr, enabled) in resources {
        config.resources.insert(gvr.clone(), enabled);
        config.explicit_resources.insert(gvr, enabled);
    }
    Ok(())
}

/// `getRuntimeConfigValue`: `""` is true, else `strconv.ParseBool`.
fn runtime_config_value(key: &str, value: &str) -> Result<bool, ServeError> {
    match value {
        "" | "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(ServeError::one(format!(
            "invalid value of {key}: {value}, err: strconv.ParseBool: parsing {}: invalid syntax",
            go_quote(value)
        ))),
    }
}

/// The group's versions in `CompareKubeAwareVersionStrings` order, most
/// preferred first.
fn kube_aware_versions(set: &ApiSet, group: &str) -> Vec<String> {
    let mut versions = set.prioritized_versions(group).to_vec();
    sort_kube_aware(&mut versions);
    versions
}

/// `EmulationForwardCompatibleResourceConfig`: every enabled non-alpha
/// version (and resource) also enables the versions preferred before it,
/// then the runtime-config preferences are applied again. Kubernetes copies
/// and enables in Go map order, so an enabled lower version may or may not
/// survive a disabled higher one being copied after it; kompat copies
/// everything first, then enables.
fn forward_compatible(config: &ResourceConfig, rc: &RuntimeConfig, set: &ApiSet) -> Result<ResourceConfig, ServeError> {
    let mut out = config.clone();
    for (gv, enabled) in &config.versions {
        if !enabled || is_alpha(&gv.version) {
            continue;
        }
        for higher in kube_aware_versions(set, &gv.group).iter().take_while(|v| **v != gv.version) {
            // Kubernetes' fresh config has no resource settings at this point,
            // so enabling a version drops none.
            out.versions.insert(GroupVersion::new(&gv.group, higher), true);
        }
    }
    for (gvr, enabled) in &config.resources {
        if !enabled || is_alpha(&gvr.version) {
            continue;
        }
        for higher in kube_aware_versions(set, &gvr.group).iter().take_while(|v| **v != gvr.version) {
            out.resources.insert(GroupVersionResource::new(&gvr.group, higher, &gvr.resource), true);
        }
    }
    apply_preferences(&mut out, rc, set)?;
    Ok(out)
}

/// `APIEnablementOptions.ApplyTo`'s warning for explicitly enabled alpha
/// versions while emulating.
fn alpha_warnings(set: &ApiSet, config: &ResourceConfig, emulation: Version, binary: Version) -> Vec<String> {
    if emulation == binary {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    for group in set.groups() {
        for version in set.prioritized_versions(group) {
            if !version.contains("alpha") {
                continue;
            }
            let gv = GroupVersion::new(group, version);
            let resource_enabled = config
                .explicit_resources
                .iter()
                .any(|(gvr, enabled)| *enabled && gvr.group == gv.group && gvr.version == gv.version);
            if config.version_explicitly_enabled(&gv) || resource_enabled {
                warnings.push(format!(
                    "alpha api enabled with emulated version {emulation} instead of the binary's version {binary}.0, this is unsupported, proceed at your own risk: api={gv}"
                ));
            }
        }
    }
    warnings
}

/// `removeUnintroducedKinds`: versions from least to most preferred; a
/// resource introduced after the emulation version is kept only through
/// forward compatibility, and enabling it explicitly without
/// `--runtime-config-emulation-forward-compatible` is an error.
fn remove_unintroduced<'a>(
    set: &ApiSet,
    group: &str,
    storage: &mut BTreeMap<&'a str, BTreeSet<&'a str>>,
    config: &ResourceConfig,
    opts: &ServeOptions,
) -> Result<(), ServeError> {
    let current = opts.emulation;
    let mut enabled_resources: BTreeSet<&str> = BTreeSet::new();
    let mut emptied = BTreeSet::new();
    for version in kube_aware_versions(set, group).iter().rev() {
        let Some(names) = storage.get_mut(version.as_str()) else { continue };
        if names.is_empty() {
            continue;
        }
        let gv = GroupVersion::new(group, version);
        let mut remove = Vec::new();
        for &resource in names.iter() {
            let lower_priority_enabled = enabled_resources.contains(resource);
            let gvr = GroupVersionResource::of(&gv, resource);
            let introduced = set.find_resource(group, version, resource).map(|a| a.lifecycle.introduced);
            let introduced = introduced.unwrap_or(Version::new(0, 0));
            let explicitly = config.resource_explicitly_enabled(&gvr);
            let keep = current >= introduced
                || (opts.emulation_forward_compatible && lower_priority_enabled)
                || (opts.runtime_config_emulation_forward_compatible
                    && (explicitly || config.version_explicitly_enabled(&gv)));
            if !keep && explicitly {
                return Err(ServeError::one(format!(
                    "cannot enable resource {gvr} in runtime-config because it is introduced at {introduced} after the current version {current}. Consider setting --runtime-config-emulation-forward-compatible=true"
                )));
            }
            if !keep {
                remove.push(resource);
            } else if !is_alpha(version) {
                enabled_resources.insert(resource);
            }
        }
        for resource in remove {
            names.remove(resource);
        }
        if names.is_empty() {
            emptied.insert(version.clone());
        }
    }
    for version in emptied {
        let gv = GroupVersion::new(group, &version);
        if config.version_explicitly_enabled(&gv) {
            return Err(ServeError::one(format!(
                "cannot enable version {gv} in runtime-config because all the resources have been introduced after the current version {current}. Consider setting --runtime-config-emulation-forward-compatible=true"
            )));
        }
        storage.remove(version.as_str());
    }
    Ok(())
}
