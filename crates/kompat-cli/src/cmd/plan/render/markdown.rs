//! The Markdown rendering of a plan simulation: a picture of the steps (a
//! `data:` SVG image), servers, one
//! walkthrough-style table per resource, rollback safety, feature changes and
//! findings.

use super::{current_cell, migration_cell, persisted_cell, short, spec_text, sv_cells, verdict, Report};

/// Markdown: servers, one walkthrough-style table per resource, rollback
/// safety, feature changes and findings.
pub fn markdown(plan: &str, report: &Report) -> String {
    let sim = &report.sim;
    let mut out = format!("# Upgrade plan `{plan}`\n\n**{}**\n\n", capitalise(&verdict(report)));
    let Some(first) = sim.steps.first() else { return out };
    out.push_str(&super::picture::markdown_image(plan, sim));
    out.push('\n');
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
        let rows: Vec<Vec<String>> = report
            .findings()
            .map(|(f, diag)| {
                vec![
                    f.step.to_string(),
                    diag.severity.as_str().to_owned(),
                    format!("`{}`", diag.code()),
                    md_escape(&diag.message),
                ]
            })
            .collect();
        out.push_str(&md_table(&["step", "severity", "code", "message"].map(str::to_owned), &rows));
    }
    out
}

fn servers_cell(s: &kompat_engine::plan::ServerState) -> String {
    let v = s.version;
    format!("{} (emulation {}, min-compat {})", v.binary, v.emulation, v.min_compatibility)
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
