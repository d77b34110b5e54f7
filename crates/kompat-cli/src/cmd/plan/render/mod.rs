//! Renderings of a plan simulation, one file per format: for people
//! (`human`), as JSON (`json`, the serialisable counterparts of the core's
//! types, documented in `docs/plan.md`), and as Markdown (`markdown`, one
//! table per resource in the layout of the storage-state KEP's case
//! walkthrough). The cells the tables share are here.

mod human;
mod json;
mod markdown;
mod picture;

pub use human::human;
pub use json::json;
pub use markdown::markdown;

use kompat_diag::{Diagnostic, Severity};
use kompat_engine::plan::{FindingKind, MigrationStatus, PlanFinding, ResourceState, Simulation, StepState};
use kompat_runtime::FeatureSpec;

/// A simulation with each finding as the one diagnostic type: built through
/// its rule (`kompat_cli::rules::plan`), at the rule's severity or what
/// `[lint.levels]` makes it; findings of allowed codes are dropped.
pub struct Report {
    pub sim: Simulation,
    /// The diagnostic of `sim.findings[i]`.
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// `level` gives a kind's severity, `None` to drop its findings.
    pub fn new(mut sim: Simulation, level: impl Fn(FindingKind) -> Option<Severity>) -> Report {
        let mut diagnostics = Vec::new();
        sim.findings.retain(|f| match level(f.kind) {
            Some(severity) => {
                let mut diag = kompat_cli::rules::plan::rule_of(f.kind).diag(f.message.clone(), None);
                diag.severity = severity;
                diag.subject = f.resource.clone().or_else(|| f.server.clone()).map(Into::into);
                diagnostics.push(diag);
                true
            }
            None => false,
        });
        Report { sim, diagnostics }
    }

    /// Every finding (for its step, server and resource) with its
    /// diagnostic, in order.
    pub fn findings(&self) -> impl Iterator<Item = (&PlanFinding, &Diagnostic)> {
        self.sim.findings.iter().zip(&self.diagnostics)
    }

    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }

    /// Safe: no error-level finding.
    pub fn is_safe(&self) -> bool {
        self.count(Severity::Error) == 0
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

fn verdict(report: &Report) -> String {
    let (errors, warnings) = (report.count(Severity::Error), report.count(Severity::Warning));
    if errors == 0 {
        format!("the plan is safe ({})", crate::cmd::count(warnings, "warning"))
    } else {
        format!(
            "the plan is unsafe ({}, {})",
            crate::cmd::count(errors, "error"),
            crate::cmd::count(warnings, "warning")
        )
    }
}

fn spec_text(s: &FeatureSpec) -> String {
    format!("{} default={}{}", s.stage.name(), s.default, if s.lock_to_default { " locked" } else { "" })
}
