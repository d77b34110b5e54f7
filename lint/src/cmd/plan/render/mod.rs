//! Renderings of a plan simulation, one file per format: for people
//! (`human`), as JSON (`json`, the serialisable counterparts of the core's
//! types, documented in `docs/plan.md`), and as Markdown (`markdown`, one
//! table per resource in the layout of the storage-state KEP's case
//! walkthrough). The cells the tables share are here.

mod human;
mod json;
mod markdown;

pub use human::human;
pub use json::json;
pub use markdown::markdown;

use kompat_core::plan::{MigrationStatus, ResourceState, Severity, Simulation, StepState};
use kompat_core::FeatureSpec;

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

fn verdict(sim: &Simulation) -> String {
    let (errors, warnings) = (sim.count(Severity::Error), sim.count(Severity::Warning));
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    if errors == 0 {
        format!("the plan is safe ({})", plural(warnings, "warning"))
    } else {
        format!("the plan is unsafe ({}, {})", plural(errors, "error"), plural(warnings, "warning"))
    }
}

fn spec_text(s: &FeatureSpec) -> String {
    format!("{} default={}{}", s.stage.name(), s.default, if s.lock_to_default { " locked" } else { "" })
}
