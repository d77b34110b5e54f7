//! The simulation: each step's servers, per-resource storage agreement,
//! data-loss risk, migrations, StorageState tracking and rollback safety.

use std::collections::BTreeMap;

use crate::api::{
    common_encoding_version, encoding_condition, storage_version_for, ApiSet, EncodingCondition, GroupResource,
    ServerStorageVersion,
};
use kompat_runtime::effective::EffectiveVersion;
use kompat_runtime::gate::FeatureSet;

use super::features::{feature_changes, FeatureChange};
use super::skew::{resolve, skew_findings};
use super::tracker::{StorageState, TrackerReport};
use super::{FindingKind, InitialPersisted, Plan, PlanFinding, ServerFlags};

/// The outcome of a plan: the initial state and one state per step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Simulation {
    /// `steps[0]` is the initial state; `steps[n]` the state after step `n`.
    pub steps: Vec<StepState>,
    /// Every finding, sorted by step, then code, server, resource, message.
    pub findings: Vec<PlanFinding>,
}

/// The cluster after one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepState {
    pub step: usize,
    pub name: String,
    /// Every server, in plan order.
    pub servers: Vec<ServerState>,
    /// Every declared resource, sorted by group then resource.
    pub resources: Vec<ResourceState>,
    /// Feature gates whose resolution changed on a server at this step.
    pub features: Vec<FeatureChange>,
    /// Rolling back to each earlier step (`to_step` ascending).
    pub rollbacks: Vec<RollbackCheck>,
}

/// One server after a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerState {
    pub id: String,
    pub flags: ServerFlags,
    /// The effective versions (for invalid flags, see the `invalid-versions`
    /// findings: emulation is then the flag or the binary version).
    pub version: EffectiveVersion,
    /// The step changed this server's flags.
    pub changed: bool,
    /// The flags pass the window check.
    pub valid: bool,
}

/// Where a storage migration stands for a resource after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MigrationStatus {
    /// No server serves the resource at this step.
    NotServed,
    /// Nothing to migrate: the tracker lists exactly the agreed version.
    UpToDate,
    /// Objects may be stored in other versions and the servers agree: a
    /// migration may start.
    MayStart,
    /// Objects may be stored in other versions, but the servers disagree
    /// (`AllEncodingVersionsEqual=False`): no migration may start.
    Blocked,
    /// The plan starts a migration at this step.
    Started,
    /// A migration started earlier is still running; agreement unchanged.
    Running,
    /// A running migration must be aborted: agreement lost or changed.
    Aborted,
    /// A migration completed at this step.
    Completed,
}

impl MigrationStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            MigrationStatus::NotServed => "not-served",
            MigrationStatus::UpToDate => "up-to-date",
            MigrationStatus::MayStart => "may-start",
            MigrationStatus::Blocked => "blocked",
            MigrationStatus::Started => "started",
            MigrationStatus::Running => "running",
            MigrationStatus::Aborted => "aborted",
            MigrationStatus::Completed => "completed",
        }
    }
}

/// Where data a server cannot decode comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndecodableSource {
    /// Objects persisted before this step may be in the version.
    Persisted,
    /// A server (by id) encodes new writes in the version at this step.
    WrittenBy(String),
}

/// A server that may be handed data in a version it cannot decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undecodable {
    pub server: String,
    /// `GROUP/VERSION`.
    pub version: String,
    pub source: UndecodableSource,
}

/// One resource after a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceState {
    pub resource: GroupResource,
    pub kind: String,
    /// The StorageVersion object name (`<group>.<resource>`).
    pub name: String,
    /// One entry per server that serves the resource at this step (a server
    /// whose emulation version predates every version of the kind, or whose
    /// binary has removed them all, does not report), in plan order.
    pub servers: Vec<ServerStorageVersion>,
    pub common_encoding_version: Option<String>,
    pub condition: EncodingCondition,
    /// The versions objects may be stored in after this step (`GROUP/VERSION`,
    /// in the order first written); one version after a completed migration.
    pub persisted_versions: Vec<String>,
    /// What the StorageState tracker records.
    pub storage_state: StorageState,
    /// Every storage-version hash seen so far, with its `GROUP/VERSION`.
    pub hash_versions: BTreeMap<String, String>,
    pub migration: MigrationStatus,
    /// Servers that may be handed data they cannot decode.
    pub undecodable: Vec<Undecodable>,
}

impl ResourceState {
    /// The `GROUP/VERSION` of a tracker hash (`Unknown` stays `Unknown`).
    pub fn version_of_hash<'a>(&'a self, hash: &'a str) -> &'a str {
        self.hash_versions.get(hash).map_or(hash, String::as_str)
    }
}

/// Whether rolling the servers back to an earlier step's versions is safe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollbackCheck {
    pub to_step: usize,
    /// Persisted versions a server of the target step cannot decode.
    pub blockers: Vec<Blocker>,
}

impl RollbackCheck {
    pub fn is_safe(&self) -> bool {
        self.blockers.is_empty()
    }
}

/// One persisted version that one server of a rollback target cannot decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    pub resource: GroupResource,
    pub server: String,
    pub version: String,
}

/// What is carried from step to step for one resource.
#[derive(Default)]
struct Carried {
    persisted: Vec<String>,
    tracker: StorageState,
    hash_versions: BTreeMap<String, String>,
    /// The target version of the running migration.
    in_flight: Option<String>,
}

/// Simulates `plan` against the API declarations and, when given, the
/// feature declarations.
pub fn simulate(plan: &Plan, apis: &ApiSet, features: Option<&FeatureSet>) -> Simulation {
    let resources = apis.resources();
    let mut carried: Vec<Carried> = resources.iter().map(|_| Carried::default()).collect();
    let mut flags: Vec<ServerFlags> = plan.servers.iter().map(|s| s.flags).collect();
    let mut states: Vec<StepState> = Vec::new();
    let mut findings: Vec<PlanFinding> = Vec::new();

    for step in 0..=plan.steps.len() {
        let plan_step = step.checked_sub(1).and_then(|i| plan.steps.get(i));
        let mut changed = vec![false; flags.len()];
        if let Some(plan_step) = plan_step {
            for change in &plan_step.changes {
                if let Some(slot) = flags.get_mut(change.server) {
                    *slot = change.apply(*slot);
                    changed[change.server] = true;
                }
            }
        }

        let mut servers = Vec::new();
        for (idx, server) in plan.servers.iter().enumerate() {
            let (version, errors) = resolve(&plan.window, flags[idx]);
            for message in &errors {
                findings.push(PlanFinding {
                    step,
                    kind: FindingKind::InvalidVersions,
                    server: Some(server.id.clone()),
                    resource: None,
                    message: format!("{}: {message}", server.id),
                });
            }
            servers.push(ServerState {
                id: server.id.clone(),
                flags: flags[idx],
                version,
                changed: changed[idx],
                valid: errors.is_empty(),
            });
        }
        let pairs: Vec<(&str, EffectiveVersion)> = servers.iter().map(|s| (s.id.as_str(), s.version)).collect();
        findings.extend(skew_findings(step, &pairs));

        let mut feature_list = Vec::new();
        if let (Some(set), Some(previous)) = (features, states.last()) {
            for (before, after) in previous.servers.iter().zip(&servers) {
                if before.version != after.version {
                    feature_list.extend(feature_changes(set, &after.id, before.version, after.version));
                }
            }
        }

        let mut resource_states = Vec::new();
        for (gr, carry) in resources.iter().zip(carried.iter_mut()) {
            let input = StepInput { apis, gr, step, plan, plan_step, servers: &servers };
            let Some(state) = resource_step(input, carry, &mut findings) else {
                continue;
            };
            resource_states.push(state);
        }

        let rollbacks = (0..step).map(|to_step| rollback_check(&states[to_step], &resource_states)).collect();
        states.push(StepState {
            step,
            name: plan_step.map_or_else(|| "initial".to_owned(), |s| s.name.clone()),
            servers,
            resources: resource_states,
            features: feature_list,
            rollbacks,
        });
    }
    findings.sort_by(|a, b| {
        (a.step, a.kind.code(), &a.server, &a.resource, &a.message).cmp(&(
            b.step,
            b.kind.code(),
            &b.server,
            &b.resource,
            &b.message,
        ))
    });
    Simulation { steps: states, findings }
}

/// The versions a binary knows: introduced at or before it and not removed.
fn knows(
    apis: &ApiSet,
    group: &str,
    kind: &str,
    group_version: &str,
    binary: kompat_runtime::version::Version,
) -> bool {
    apis.apis().iter().any(|api| {
        api.group() == group
            && api.kind() == kind
            && api.group_version().to_string() == group_version
            && api.lifecycle.introduced <= binary
            && api.served_at(binary)
    })
}

/// A server serves the resource: some version of it was introduced at or
/// before its emulation version and is not removed at its binary version.
fn participates(apis: &ApiSet, gr: &GroupResource, version: &EffectiveVersion) -> bool {
    apis.apis().iter().any(|api| {
        api.group() == gr.group
            && api.resource == gr.resource
            && api.lifecycle.introduced <= version.emulation
            && api.served_at(version.binary)
    })
}

/// What one resource's state at one step is computed from.
struct StepInput<'a> {
    apis: &'a ApiSet,
    gr: &'a GroupResource,
    /// 0 for the initial state.
    step: usize,
    plan: &'a Plan,
    plan_step: Option<&'a super::PlanStep>,
    servers: &'a [ServerState],
}

fn resource_step(input: StepInput<'_>, carry: &mut Carried, findings: &mut Vec<PlanFinding>) -> Option<ResourceState> {
    let StepInput { apis, gr, step, plan, plan_step, servers } = input;
    let resource_name = gr.to_string();
    let mut kind = None;
    let mut reports: Vec<ServerStorageVersion> = Vec::new();
    let mut tracker_reports = Vec::new();
    for server in servers {
        let v = server.version;
        if !participates(apis, gr, &v) {
            continue;
        }
        let Some(storage) = storage_version_for(apis, gr, v.emulation, v.min_compatibility, Some(v.binary)) else {
            continue;
        };
        let encoding = storage.encoding_version();
        let decodable: Vec<String> = storage
            .decodable_versions
            .iter()
            .filter(|gv| **gv == encoding || knows(apis, &storage.group, &storage.kind, gv, v.binary))
            .cloned()
            .collect();
        carry.hash_versions.insert(storage.hash.clone(), encoding.clone());
        tracker_reports.push(TrackerReport { reporter_id: server.id.clone(), hash: storage.hash.clone() });
        kind = Some(storage.kind.clone());
        reports.push(ServerStorageVersion {
            api_server_id: server.id.clone(),
            encoding_version: encoding,
            decodable_versions: decodable,
        });
    }
    let kind = match kind {
        Some(kind) => kind,
        None => apis.apis().iter().find(|a| a.group() == gr.group && a.resource == gr.resource)?.kind().to_owned(),
    };
    let common = common_encoding_version(&reports);

    // Data-loss risk: data persisted before this step, and data written by
    // any server at this step, must be decodable by every server.
    let mut candidates: Vec<(String, UndecodableSource)> =
        carry.persisted.iter().map(|v| (v.clone(), UndecodableSource::Persisted)).collect();
    for report in &reports {
        if !candidates.iter().any(|(v, _)| *v == report.encoding_version) {
            candidates
                .push((report.encoding_version.clone(), UndecodableSource::WrittenBy(report.api_server_id.clone())));
        }
    }
    let mut undecodable = Vec::new();
    for report in &reports {
        for (version, source) in &candidates {
            if !report.decodable_versions.contains(version) {
                let origin = match source {
                    UndecodableSource::Persisted => "objects may already be stored in it".to_owned(),
                    UndecodableSource::WrittenBy(writer) => format!("{writer} writes it at this step"),
                };
                findings.push(PlanFinding {
                    step,
                    kind: FindingKind::DataLoss,
                    server: Some(report.api_server_id.clone()),
                    resource: Some(resource_name.clone()),
                    message: format!(
                        "{} cannot decode {resource_name} in {version} ({origin}); it decodes {}",
                        report.api_server_id,
                        report.decodable_versions.join(", ")
                    ),
                });
                undecodable.push(Undecodable {
                    server: report.api_server_id.clone(),
                    version: version.clone(),
                    source: source.clone(),
                });
            }
        }
    }
    for (version, _) in candidates {
        if !carry.persisted.contains(&version) {
            carry.persisted.push(version);
        }
    }

    if step == 0 && plan.initial_persisted == InitialPersisted::Migrated && !tracker_reports.is_empty() {
        carry.tracker = StorageState::migrated(tracker_reports);
    } else {
        carry.tracker.observe(tracker_reports);
    }

    let migration = migration_step(gr, step, plan_step, common.as_deref(), carry, findings);
    Some(ResourceState {
        resource: gr.clone(),
        kind,
        name: gr.storage_version_name(),
        servers: reports,
        condition: encoding_condition(common.as_deref()),
        common_encoding_version: common,
        persisted_versions: carry.persisted.clone(),
        storage_state: carry.tracker.clone(),
        hash_versions: carry.hash_versions.clone(),
        migration,
        undecodable,
    })
}

/// The migration state machine of one resource at one step: a running
/// migration is aborted when the common encoding version is lost or changes;
/// a migration may only start while the servers agree; completing one
/// collapses the persisted versions to the migrated one.
fn migration_step(
    gr: &GroupResource,
    step: usize,
    plan_step: Option<&super::PlanStep>,
    common: Option<&str>,
    carry: &mut Carried,
    findings: &mut Vec<PlanFinding>,
) -> MigrationStatus {
    let finding =
        |kind, message: String| PlanFinding { step, kind, server: None, resource: Some(gr.to_string()), message };
    let mut status = None;
    if let Some(target) = carry.in_flight.clone() {
        if common == Some(target.as_str()) {
            status = Some(MigrationStatus::Running);
        } else {
            let why = match common {
                None => {
                    "the API servers no longer agree on an encoding version (AllEncodingVersionsEqual=False)".to_owned()
                }
                Some(other) => format!("the common encoding version changed to {other}"),
            };
            findings.push(finding(
                FindingKind::MigrationAborted,
                format!("the storage migration of {gr} to {target} must be aborted: {why}"),
            ));
            carry.in_flight = None;
            status = Some(MigrationStatus::Aborted);
        }
    }
    let starts = plan_step.is_some_and(|s| s.start_migration.contains(gr));
    let completes = plan_step.is_some_and(|s| s.complete_migration.contains(gr));
    if starts {
        match common {
            Some(version) => {
                carry.in_flight = Some(version.to_owned());
                status = Some(MigrationStatus::Started);
            }
            None => {
                findings.push(finding(
                    FindingKind::MigrationWithoutAgreement,
                    format!(
                        "a storage migration of {gr} is started while the API servers disagree on its encoding \
                         version (AllEncodingVersionsEqual=False): objects written by the other servers would \
                         pollute the migration"
                    ),
                ));
                status = Some(MigrationStatus::Blocked);
            }
        }
    }
    if completes {
        match carry.in_flight.take() {
            Some(target) => {
                carry.persisted = vec![target.clone()];
                if let Some(hash) = carry.hash_versions.iter().find(|(_, v)| **v == target).map(|(h, _)| h.clone()) {
                    carry.tracker.complete(&hash);
                }
                status = Some(MigrationStatus::Completed);
            }
            None => {
                findings.push(finding(
                    FindingKind::MigrationNotRunning,
                    format!("the storage migration of {gr} cannot complete: no migration of it is running"),
                ));
            }
        }
    }
    status.unwrap_or(if carry.tracker.current.is_empty() {
        MigrationStatus::NotServed
    } else if carry.tracker.is_migrated() {
        MigrationStatus::UpToDate
    } else if common.is_some() {
        MigrationStatus::MayStart
    } else {
        MigrationStatus::Blocked
    })
}

/// Rolling back to `target`: every version objects may be stored in now must
/// be decodable by every server of `target` that serves the resource.
fn rollback_check(target: &StepState, now: &[ResourceState]) -> RollbackCheck {
    let mut blockers = Vec::new();
    for resource in now {
        let Some(then) = target.resources.iter().find(|r| r.resource == resource.resource) else {
            continue;
        };
        for server in &then.servers {
            for version in &resource.persisted_versions {
                if !server.decodable_versions.contains(version) {
                    blockers.push(Blocker {
                        resource: resource.resource.clone(),
                        server: server.api_server_id.clone(),
                        version: version.clone(),
                    });
                }
            }
        }
    }
    RollbackCheck { to_step: target.step, blockers }
}
