//! Renderings of a plan simulation: for people (`human`), as JSON (the
//! serialisable counterparts of the core's types, documented in
//! `docs/plan.md`), and as Markdown with one table per resource in the layout
//! of the storage-state KEP's case walkthrough.

use kompat_core::plan::{Finding, MigrationStatus, ResourceState, Severity, Simulation, StepState, UndecodableSource};
use kompat_core::FeatureSpec;
use serde::Serialize;

use crate::cmd::render_table;

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
pub fn json(plan: &str, sim: &Simulation) -> kompat_project::Result<String> {
    let servers = sim.steps.first().map(|s| s.servers.iter().map(|x| x.id.as_str()).collect()).unwrap_or_default();
    let doc = JsonPlan {
        plan,
        safe: sim.is_safe(),
        summary: JsonSummary { errors: sim.count(Severity::Error), warnings: sim.count(Severity::Warning) },
        servers,
        steps: sim.steps.iter().map(json_step).collect(),
        findings: sim.findings.iter().map(json_finding).collect(),
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
            kind: kompat_core::api::EncodingCondition::TYPE,
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

fn json_finding(f: &Finding) -> JsonFinding<'_> {
    JsonFinding {
        step: f.step,
        severity: f.severity().as_str(),
        code: f.kind.code(),
        server: f.server.as_deref(),
        resource: f.resource.as_deref(),
        message: &f.message,
    }
}

/// `GROUP/VERSION` without the group, as in the KEP's walkthrough table.
fn short(gv: &str) -> &str {
    gv.rsplit('/').next().unwrap_or(gv)
}

/// Every resource's encoding versions, in server order; `-` where a server
/// does not serve it.
fn sv_cells(state: &StepState, r: &ResourceState) -> Vec<String> {
    state
        .servers
        .iter()
        .map(|s| {
            r.servers
                .iter()
                .find(|x| x.api_server_id == s.id)
                .map_or_else(|| "-".to_owned(), |x| short(&x.encoding_version).to_owned())
        })
        .collect()
}

fn persisted_cell(r: &ResourceState) -> String {
    let list: Vec<&str> = r.storage_state.persisted.iter().map(|h| short(r.version_of_hash(h))).collect();
    list.join(", ")
}

fn current_cell(r: &ResourceState) -> String {
    let list: Vec<&str> = r.storage_state.current.iter().map(|c| short(r.version_of_hash(&c.hash))).collect();
    list.join(", ")
}

fn migration_cell(status: MigrationStatus) -> &'static str {
    status.as_str()
}

fn servers_cell(s: &kompat_core::plan::ServerState) -> String {
    let v = s.version;
    format!("{} (emulation {}, min-compat {})", v.binary, v.emulation, v.min_compatibility)
}

fn verdict(sim: &Simulation) -> String {
    let (errors, warnings) = (sim.count(Severity::Error), sim.count(Severity::Warning));
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors == 0 {
        format!("the plan is safe ({})", plural(warnings, "warning"))
    } else {
        format!("the plan is unsafe ({}, {})", plural(errors, "error"), plural(warnings, "warning"))
    }
}

/// The human rendering: one block per step. `lines` holds the `line:column`
/// of each plan step (step 1 first).
pub fn human(plan: &str, sim: &Simulation, lines: &[String]) -> String {
    let mut out = String::new();
    for state in &sim.steps {
        match state.step.checked_sub(1).and_then(|i| lines.get(i)) {
            Some(at) => out.push_str(&format!("step {}: {} ({plan}:{at})\n", state.step, state.name)),
            None => out.push_str(&format!("step {}: {}\n", state.step, state.name)),
        }
        let rows: Vec<Vec<String>> = state
            .servers
            .iter()
            .map(|s| {
                vec![
                    s.id.clone(),
                    s.version.binary.to_string(),
                    s.version.emulation.to_string(),
                    s.version.min_compatibility.to_string(),
                    if s.changed { "changed".to_owned() } else { String::new() },
                ]
            })
            .collect();
        out.push_str(&indent(&render_table(&["SERVER", "BINARY", "EMULATION", "MIN-COMPAT", ""], &rows)));
        let mut header: Vec<&str> = vec!["RESOURCE"];
        header.extend(state.servers.iter().map(|s| s.id.as_str()));
        header.extend(["COMMON", "PERSISTED", "TRACKER", "MIGRATION"]);
        let rows: Vec<Vec<String>> = state
            .resources
            .iter()
            .map(|r| {
                let mut row = vec![r.resource.to_string()];
                row.extend(sv_cells(state, r));
                row.push(r.common_encoding_version.as_deref().map_or("-", short).to_owned());
                let persisted: Vec<&str> = r.persisted_versions.iter().map(|p| short(p)).collect();
                row.push(persisted.join(","));
                row.push(persisted_cell(r).replace(", ", ","));
                row.push(migration_cell(r.migration).to_owned());
                row
            })
            .collect();
        out.push_str(&indent(&render_table(&header, &rows)));
        for change in &state.features {
            out.push_str(&format!(
                "  feature {} on {}: {} -> {}\n",
                change.name,
                change.server,
                spec_text(&change.before),
                spec_text(&change.after)
            ));
        }
        let safe: Vec<String> = state.rollbacks.iter().filter(|r| r.is_safe()).map(|r| r.to_step.to_string()).collect();
        if !safe.is_empty() {
            out.push_str(&format!("  rollback safe to step {}\n", safe.join(", ")));
        }
        for r in state.rollbacks.iter().filter(|r| !r.is_safe()) {
            let why: Vec<String> = r
                .blockers
                .iter()
                .map(|b| format!("{} cannot decode {} in {}", b.server, b.resource, b.version))
                .collect();
            out.push_str(&format!("  rollback UNSAFE to step {}: {}\n", r.to_step, why.join("; ")));
        }
        for f in sim.findings.iter().filter(|f| f.step == state.step) {
            out.push_str(&format!("  {}[{}]: {}\n", f.severity().as_str(), f.kind.code(), f.message));
        }
        out.push('\n');
    }
    out.push_str(&format!("{plan}: {}\n", verdict(sim)));
    out
}

fn spec_text(s: &FeatureSpec) -> String {
    format!("{} default={}{}", s.stage.name(), s.default, if s.lock_to_default { " locked" } else { "" })
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// Markdown: servers, one walkthrough-style table per resource, rollback
/// safety, feature changes and findings.
pub fn markdown(plan: &str, sim: &Simulation) -> String {
    let mut out = format!("# Upgrade plan `{plan}`\n\n**{}**\n\n", capitalise(&verdict(sim)));
    let Some(first) = sim.steps.first() else { return out };
    let ids: Vec<&str> = first.servers.iter().map(|s| s.id.as_str()).collect();

    out.push_str("## Servers\n\n");
    let mut header = vec!["step".to_owned(), "events".to_owned()];
    header.extend(ids.iter().map(|id| (*id).to_owned()));
    let rows: Vec<Vec<String>> = sim
        .steps
        .iter()
        .map(|state| {
            let mut row = vec![state.step.to_string(), md_escape(&state.name)];
            row.extend(state.servers.iter().map(|s| {
                let cell = servers_cell(s);
                if s.changed {
                    format!("**{cell}**")
                } else {
                    cell
                }
            }));
            row
        })
        .collect();
    out.push_str(&md_table(&header, &rows));

    for (idx, resource) in first.resources.iter().enumerate() {
        out.push_str(&format!("\n## `{}` ({})\n\n", resource.resource, resource.kind));
        let mut header = vec!["step".to_owned(), "events".to_owned()];
        header.extend(ids.iter().map(|id| format!("{id} sv")));
        header.extend(["CurrentSV", "PersistedSV", "common", "migration"].map(str::to_owned));
        let rows: Vec<Vec<String>> = sim
            .steps
            .iter()
            .filter_map(|state| {
                let r = state.resources.get(idx)?;
                let mut row = vec![state.step.to_string(), md_escape(&state.name)];
                row.extend(sv_cells(state, r));
                row.push(current_cell(r));
                row.push(persisted_cell(r));
                row.push(r.common_encoding_version.as_deref().map_or("-", short).to_owned());
                let mut migration = migration_cell(r.migration).to_owned();
                if !r.undecodable.is_empty() {
                    migration.push_str(" **data loss**");
                }
                row.push(migration);
                Some(row)
            })
            .collect();
        out.push_str(&md_table(&header, &rows));
    }

    out.push_str("\n## Rollback safety\n\n");
    let mut header = vec!["step".to_owned()];
    header.extend(sim.steps.iter().take(sim.steps.len().saturating_sub(1)).map(|s| format!("to {}", s.step)));
    let rows: Vec<Vec<String>> = sim
        .steps
        .iter()
        .skip(1)
        .map(|state| {
            let mut row = vec![state.step.to_string()];
            for to in 0..sim.steps.len().saturating_sub(1) {
                row.push(match state.rollbacks.iter().find(|r| r.to_step == to) {
                    Some(r) if r.is_safe() => "safe".to_owned(),
                    Some(_) => "**unsafe**".to_owned(),
                    None => String::new(),
                });
            }
            row
        })
        .collect();
    out.push_str(&md_table(&header, &rows));
    let mut blockers = Vec::new();
    for state in &sim.steps {
        for r in &state.rollbacks {
            for b in &r.blockers {
                blockers.push(format!(
                    "- step {} to step {}: {} cannot decode `{}` in `{}`\n",
                    state.step, r.to_step, b.server, b.resource, b.version
                ));
            }
        }
    }
    if !blockers.is_empty() {
        out.push('\n');
        out.push_str(&blockers.concat());
    }

    let features: Vec<Vec<String>> = sim
        .steps
        .iter()
        .flat_map(|state| {
            state.features.iter().map(move |f| {
                vec![
                    state.step.to_string(),
                    f.server.clone(),
                    f.name.clone(),
                    spec_text(&f.before),
                    spec_text(&f.after),
                ]
            })
        })
        .collect();
    if !features.is_empty() {
        out.push_str("\n## Feature gates\n\n");
        out.push_str(&md_table(&["step", "server", "feature", "before", "after"].map(str::to_owned), &features));
    }

    out.push_str("\n## Findings\n\n");
    if sim.findings.is_empty() {
        out.push_str("None.\n");
    } else {
        let rows: Vec<Vec<String>> = sim
            .findings
            .iter()
            .map(|f| {
                vec![
                    f.step.to_string(),
                    f.severity().as_str().to_owned(),
                    format!("`{}`", f.kind.code()),
                    md_escape(&f.message),
                ]
            })
            .collect();
        out.push_str(&md_table(&["step", "severity", "code", "message"].map(str::to_owned), &rows));
    }
    out
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn md_escape(text: &str) -> String {
    text.replace('|', "\\|")
}

fn md_table(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!("|{}\n", "---|".repeat(header.len())));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}
