//! The JSON rendering of a plan simulation (documented in `docs/plan.md`):
//! private serialisable counterparts of the core's types.

use kompat_diag::{Diagnostic, Severity};
use kompat_engine::plan::{PlanFinding, ResourceState, StepState, UndecodableSource};

use super::Report;
use kompat_runtime::FeatureSpec;
use serde::Serialize;

#[derive(Serialize)]
struct JsonPlan<'a> {
    plan: &'a str,
    safe: bool,
    summary: JsonSummary,
    servers: Vec<&'a str>,
    steps: Vec<JsonStep<'a>>,
    findings: Vec<JsonFinding<'a>>,
}

#[derive(Serialize)]
struct JsonSummary {
    errors: usize,
    warnings: usize,
}

#[derive(Serialize)]
struct JsonStep<'a> {
    step: usize,
    name: &'a str,
    servers: Vec<JsonServer<'a>>,
    resources: Vec<JsonResource<'a>>,
    features: Vec<JsonFeature<'a>>,
    rollbacks: Vec<JsonRollback<'a>>,
}

#[derive(Serialize)]
struct JsonServer<'a> {
    id: &'a str,
    binary: String,
    emulation: String,
    min_compatibility: String,
    changed: bool,
    valid: bool,
}

#[derive(Serialize)]
struct JsonResource<'a> {
    group: &'a str,
    resource: &'a str,
    kind: &'a str,
    name: &'a str,
    servers: Vec<JsonServerStorage<'a>>,
    common_encoding_version: Option<&'a str>,
    condition: JsonCondition,
    persisted_versions: &'a [String],
    storage_state: JsonStorageState<'a>,
    migration: &'static str,
    undecodable: Vec<JsonUndecodable<'a>>,
}

#[derive(Serialize)]
struct JsonServerStorage<'a> {
    api_server_id: &'a str,
    encoding_version: &'a str,
    decodable_versions: &'a [String],
}

#[derive(Serialize)]
struct JsonCondition {
    #[serde(rename = "type")]
    kind: &'static str,
    status: &'static str,
    reason: &'static str,
    message: &'static str,
}

#[derive(Serialize)]
struct JsonStorageState<'a> {
    current_storage_version_hashes: Vec<JsonReport<'a>>,
    persisted_storage_version_hashes: &'a [String],
    /// The persisted hashes as `GROUP/VERSION` (`Unknown` stays).
    persisted_versions: Vec<&'a str>,
    migrated: bool,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    reporter_id: &'a str,
    current_storage_version_hash: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct JsonUndecodable<'a> {
    server: &'a str,
    version: &'a str,
    /// `persisted`, or the id of the server writing the version.
    source: &'a str,
}

#[derive(Serialize)]
struct JsonFeature<'a> {
    server: &'a str,
    name: &'a str,
    before: JsonSpec,
    after: JsonSpec,
}

#[derive(Serialize)]
struct JsonSpec {
    stage: &'static str,
    default: bool,
    locked: bool,
}

#[derive(Serialize)]
struct JsonRollback<'a> {
    to_step: usize,
    safe: bool,
    blockers: Vec<JsonBlocker<'a>>,
}

#[derive(Serialize)]
struct JsonBlocker<'a> {
    resource: String,
    server: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    step: usize,
    severity: &'static str,
    code: &'static str,
    server: Option<&'a str>,
    resource: Option<&'a str>,
    message: &'a str,
}

fn spec(s: &FeatureSpec) -> JsonSpec {
    JsonSpec { stage: s.stage.name(), default: s.default, locked: s.lock_to_default }
}

fn source_str(source: &UndecodableSource) -> &str {
    match source {
        UndecodableSource::Persisted => "persisted",
        UndecodableSource::WrittenBy(server) => server,
    }
}

/// The JSON document (see `docs/plan.md`).
pub fn json(plan: &str, report: &Report) -> kompat_project::Result<String> {
    let sim = &report.sim;
    let servers = sim.steps.first().map(|s| s.servers.iter().map(|x| x.id.as_str()).collect()).unwrap_or_default();
    let doc = JsonPlan {
        plan,
        safe: report.is_safe(),
        summary: JsonSummary { errors: report.count(Severity::Error), warnings: report.count(Severity::Warning) },
        servers,
        steps: sim.steps.iter().map(json_step).collect(),
        findings: report.findings().map(|(f, diag)| json_finding(f, diag)).collect(),
    };
    crate::cmd::to_json(&doc)
}

fn json_step(state: &StepState) -> JsonStep<'_> {
    JsonStep {
        step: state.step,
        name: &state.name,
        servers: state
            .servers
            .iter()
            .map(|s| JsonServer {
                id: &s.id,
                binary: s.version.binary.to_string(),
                emulation: s.version.emulation.to_string(),
                min_compatibility: s.version.min_compatibility.to_string(),
                changed: s.changed,
                valid: s.valid,
            })
            .collect(),
        resources: state.resources.iter().map(json_resource).collect(),
        features: state
            .features
            .iter()
            .map(|f| JsonFeature { server: &f.server, name: &f.name, before: spec(&f.before), after: spec(&f.after) })
            .collect(),
        rollbacks: state
            .rollbacks
            .iter()
            .map(|r| JsonRollback {
                to_step: r.to_step,
                safe: r.is_safe(),
                blockers: r
                    .blockers
                    .iter()
                    .map(|b| JsonBlocker { resource: b.resource.to_string(), server: &b.server, version: &b.version })
                    .collect(),
            })
            .collect(),
    }
}

fn json_resource(r: &ResourceState) -> JsonResource<'_> {
    JsonResource {
        group: &r.resource.group,
        resource: &r.resource.resource,
        kind: &r.kind,
        name: &r.name,
        servers: r
            .servers
            .iter()
            .map(|s| JsonServerStorage {
                api_server_id: &s.api_server_id,
                encoding_version: &s.encoding_version,
                decodable_versions: &s.decodable_versions,
            })
            .collect(),
        common_encoding_version: r.common_encoding_version.as_deref(),
        condition: JsonCondition {
            kind: kompat_engine::api::EncodingCondition::TYPE,
            status: r.condition.status.as_str(),
            reason: r.condition.reason,
            message: r.condition.message,
        },
        persisted_versions: &r.persisted_versions,
        storage_state: JsonStorageState {
            current_storage_version_hashes: r
                .storage_state
                .current
                .iter()
                .map(|c| JsonReport {
                    reporter_id: &c.reporter_id,
                    current_storage_version_hash: &c.hash,
                    version: r.version_of_hash(&c.hash),
                })
                .collect(),
            persisted_storage_version_hashes: &r.storage_state.persisted,
            persisted_versions: r.storage_state.persisted.iter().map(|h| r.version_of_hash(h)).collect(),
            migrated: r.storage_state.is_migrated(),
        },
        migration: r.migration.as_str(),
        undecodable: r
            .undecodable
            .iter()
            .map(|u| JsonUndecodable { server: &u.server, version: &u.version, source: source_str(&u.source) })
            .collect(),
    }
}

fn json_finding<'a>(f: &'a PlanFinding, diag: &Diagnostic) -> JsonFinding<'a> {
    JsonFinding {
        step: f.step,
        severity: diag.severity.as_str(),
        code: diag.code(),
        server: f.server.as_deref(),
        resource: f.resource.as_deref(),
        message: &f.message,
    }
}
