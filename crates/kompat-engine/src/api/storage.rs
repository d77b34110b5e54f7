//! Which version each resource is stored (encoded) in at an emulation and
//! min-compatibility version: kube-apiserver's storage overrides, then the
//! newest (1.37) two-pass `emulatedStorageVersion`, and the versions a server
//! can decode.

use kompat_runtime::version::Version;

use super::decl::ApiSet;
use super::hash::storage_version_hash;
use super::names::GroupResource;
use kompat_runtime::{GroupVersion, GroupVersionKind};

/// How the storage version was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StorageSource {
    /// A `[storage_overrides]` pin (`SetResourceEncoding`).
    Override,
    /// Pass 1: the most preferred non-alpha version introduced at or before the
    /// min-compatibility version (safe for an n-1 rollback).
    RollbackSafe,
    /// Pass 2: the most preferred version introduced at or before the
    /// emulation version (alpha-only kinds, first beta after an alpha, a
    /// brand-new beta).
    Emulation,
    /// Every version was introduced after the emulation version: the group's
    /// most preferred version, which may not even contain the kind.
    GroupFallback,
}

impl StorageSource {
    pub fn as_str(self) -> &'static str {
        match self {
            StorageSource::Override => "override",
            StorageSource::RollbackSafe => "rollback-safe",
            StorageSource::Emulation => "emulation",
            StorageSource::GroupFallback => "group-fallback",
        }
    }
}

/// The storage decision for one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceStorage {
    pub group: String,
    pub resource: String,
    /// The kind stored (that of the resource's most preferred version).
    pub kind: String,
    /// The version only (`v1`); see [`ResourceStorage::encoding_version`].
    pub storage_version: String,
    /// [`storage_version_hash`] of (group, storage version, kind).
    pub hash: String,
    pub source: StorageSource,
    /// False when the group fallback chose a version that does not declare
    /// the kind (Kubernetes then fails to build the resource's storage).
    pub kind_in_storage_version: bool,
    /// `GROUP/VERSION` strings the server can decode, in priority order: every
    /// declared version of the kind not removed at the binary version, plus the
    /// encoding version if it is not among them.
    pub decodable_versions: Vec<String>,
}

impl ResourceStorage {
    /// `GROUP/VERSION` (`v1` for core), as in the StorageVersion API.
    pub fn encoding_version(&self) -> String {
        GroupVersion::new(&self.group, &self.storage_version).to_string()
    }

    pub fn storage_gvk(&self) -> GroupVersionKind {
        GroupVersionKind::new(&self.group, &self.storage_version, &self.kind)
    }

    pub fn group_resource(&self) -> GroupResource {
        GroupResource::new(&self.group, &self.resource)
    }
}

/// The storage decision for every declared resource, sorted by group then
/// resource. `binary` is only used for the decodable versions; without it the
/// emulation version stands in.
pub fn storage_versions(
    set: &ApiSet,
    emulation: Version,
    min_compatibility: Version,
    binary: Option<Version>,
) -> Vec<ResourceStorage> {
    set.resources().iter().filter_map(|gr| storage_version_for(set, gr, emulation, min_compatibility, binary)).collect()
}

/// The storage decision for one resource; `None` if it is not declared.
pub fn storage_version_for(
    set: &ApiSet,
    gr: &GroupResource,
    emulation: Version,
    min_compatibility: Version,
    binary: Option<Version>,
) -> Option<ResourceStorage> {
    let group = gr.group.as_str();
    let prioritized = set.prioritized_versions(group);
    // The kind of the resource's most preferred version (the registry's
    // internal object's kind).
    let kind = prioritized.iter().find_map(|v| set.find_resource(group, v, &gr.resource))?.kind().to_owned();
    // VersionsForGroupKind: the group's prioritized versions that have the kind.
    let versions: Vec<&str> =
        prioritized.iter().map(String::as_str).filter(|v| set.find_kind(group, v, &kind).is_some()).collect();

    let (version, source) = match set.storage_overrides().get(gr) {
        Some(pinned) => (pinned.clone(), StorageSource::Override),
        None => emulated_storage_version(set, group, &kind, &versions, emulation, min_compatibility),
    };

    let decoding_at = binary.unwrap_or(emulation);
    let mut decodable: Vec<String> = versions
        .iter()
        .filter_map(|v| set.find_kind(group, v, &kind))
        .filter(|api| api.served_at(decoding_at))
        .map(|api| api.group_version().to_string())
        .collect();
    let encoding = GroupVersion::new(group, &version).to_string();
    if !decodable.contains(&encoding) {
        decodable.insert(0, encoding);
    }

    Some(ResourceStorage {
        group: group.to_owned(),
        resource: gr.resource.clone(),
        hash: storage_version_hash(group, &version, &kind),
        kind_in_storage_version: versions.contains(&version.as_str()),
        storage_version: version,
        kind,
        source,
        decodable_versions: decodable,
    })
}

/// `emulatedStorageVersion`, the HEAD (1.37) two-pass algorithm.
fn emulated_storage_version(
    set: &ApiSet,
    group: &str,
    kind: &str,
    versions: &[&str],
    emulation: Version,
    min_compatibility: Version,
) -> (String, StorageSource) {
    // The introduced check is skipped when min-compatibility is 0.0 (the
    // `Major() > 0 || Minor() > 0` guard): every version is then eligible.
    let check = min_compatibility != Version::new(0, 0);
    let introduced = |v: &str| set.find_kind(group, v, kind).map(|api| api.lifecycle.introduced).filter(|_| check);
    for v in versions {
        if v.contains("alpha") {
            continue;
        }
        if introduced(v).is_none_or(|i| i <= min_compatibility) {
            return ((*v).to_owned(), StorageSource::RollbackSafe);
        }
    }
    for v in versions {
        if introduced(v).is_none_or(|i| i <= emulation) {
            return ((*v).to_owned(), StorageSource::Emulation);
        }
    }
    let top = set.prioritized_versions(group).first().cloned().unwrap_or_default();
    (top, StorageSource::GroupFallback)
}
