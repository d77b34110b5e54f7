//! The StorageVersion API's view of a set of API servers: what each server
//! reports per resource (encoding and decodable versions) and
//! `SetCommonEncodingVersion`'s common version and `AllEncodingVersionsEqual`
//! condition.

use kompat_runtime::effective::EffectiveVersion;

use super::decl::ApiSet;
use super::names::GroupResource;
use super::storage::storage_version_for;

/// One API server: its identity and versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiServer {
    pub id: String,
    pub version: EffectiveVersion,
}

/// `ServerStorageVersion`: what one server reports for one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerStorageVersion {
    pub api_server_id: String,
    /// `GROUP/VERSION` (`v1` for core).
    pub encoding_version: String,
    pub decodable_versions: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConditionStatus {
    True,
    False,
}

impl ConditionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionStatus::True => "True",
            ConditionStatus::False => "False",
        }
    }
}

/// The `AllEncodingVersionsEqual` condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodingCondition {
    pub status: ConditionStatus,
    pub reason: &'static str,
    pub message: &'static str,
}

impl EncodingCondition {
    pub const TYPE: &'static str = "AllEncodingVersionsEqual";
}

/// One StorageVersion object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceAgreement {
    pub group: String,
    pub resource: String,
    /// The object name, `<group>.<resource>` (`core.pods`).
    pub name: String,
    /// One entry per server, in the order the servers were given.
    pub servers: Vec<ServerStorageVersion>,
    pub common_encoding_version: Option<String>,
    pub condition: EncodingCondition,
}

/// `SetCommonEncodingVersion`'s rule: the encoding version if there is at
/// least one server and all report the same one.
pub fn common_encoding_version(servers: &[ServerStorageVersion]) -> Option<String> {
    let first = servers.first()?;
    servers.iter().all(|s| s.encoding_version == first.encoding_version).then(|| first.encoding_version.clone())
}

/// The `AllEncodingVersionsEqual` condition for a common version.
pub fn encoding_condition(common: Option<&str>) -> EncodingCondition {
    match common {
        Some(_) => EncodingCondition {
            status: ConditionStatus::True,
            reason: "CommonEncodingVersionSet",
            message: "Common encoding version set",
        },
        None => EncodingCondition {
            status: ConditionStatus::False,
            reason: "CommonEncodingVersionUnset",
            message: "Common encoding version unset",
        },
    }
}

/// The StorageVersion objects a set of servers sharing `set` would produce,
/// sorted by group then resource. Each server's encoding version is the
/// storage version at its (emulation, min-compatibility); its decodable
/// versions are those not removed at its binary version.
pub fn storage_version_agreement(set: &ApiSet, servers: &[ApiServer]) -> Vec<ResourceAgreement> {
    set.resources()
        .iter()
        .map(|gr: &GroupResource| {
            let reports: Vec<ServerStorageVersion> = servers
                .iter()
                .filter_map(|server| {
                    let v = server.version;
                    storage_version_for(set, gr, v.emulation, v.min_compatibility, Some(v.binary)).map(|storage| {
                        ServerStorageVersion {
                            api_server_id: server.id.clone(),
                            encoding_version: storage.encoding_version(),
                            decodable_versions: storage.decodable_versions,
                        }
                    })
                })
                .collect();
            let common = common_encoding_version(&reports);
            ResourceAgreement {
                group: gr.group.clone(),
                resource: gr.resource.clone(),
                name: gr.storage_version_name(),
                condition: encoding_condition(common.as_deref()),
                common_encoding_version: common,
                servers: reports,
            }
        })
        .collect()
}
