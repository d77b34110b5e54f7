//! The human rendering of a plan simulation: one block per step with a
//! table of servers and one of resources, feature changes, rollback safety
//! and findings.

use super::{migration_cell, persisted_cell, short, spec_text, sv_cells, verdict, Report};
use crate::cmd::render_table;

/// The human rendering: one block per step. `lines` holds the `line:column`
/// of each plan step (step 1 first).
pub fn human(plan: &str, report: &Report, lines: &[String]) -> String {
    let sim = &report.sim;
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
        for (_, diag) in report.findings().filter(|(f, _)| f.step == state.step) {
            out.push_str(&format!("  {}\n", kompat_diag::short_line(diag)));
        }
        out.push('\n');
    }
    out.push_str(&format!("{plan}: {}\n", verdict(report)));
    out
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}
