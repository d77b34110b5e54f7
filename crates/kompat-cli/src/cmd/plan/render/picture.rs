//! The plan as a picture: a [`kompat_gen::svg::Timeline`] with one column
//! per step (step 0 is the initial state): each server's binary and
//! emulation versions, the storage version each server writes for each
//! resource, the migration status and persisted versions, and whether
//! rolling back is still safe. `kompat plan --format markdown` embeds it as
//! a `data:` image.

use base64::Engine as _;
use kompat_engine::plan::{MigrationStatus, Simulation};
use kompat_gen::svg::{render_timeline, Cell, LegendEntry, Row, RowGroup, Timeline, Tone};

use super::short;

/// The picture of `sim` as SVG text.
pub fn svg(plan: &str, sim: &Simulation) -> String {
    render_timeline(&timeline(plan, sim))
}

/// A Markdown image of the picture, as a base64 `data:` URI.
pub fn markdown_image(plan: &str, sim: &Simulation) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(svg(plan, sim));
    format!("![Upgrade plan `{plan}` by step: server versions, storage versions written, migration and rollback safety](data:image/svg+xml;base64,{data})\n")
}

fn timeline(plan: &str, sim: &Simulation) -> Timeline {
    let columns: Vec<String> = sim.steps.iter().map(|s| format!("step {}", s.step)).collect();
    let mut groups = Vec::new();
    let Some(first) = sim.steps.first() else {
        return Timeline { id: "kompat-plan".to_owned(), title: format!("Upgrade plan {plan}"), ..Timeline::default() };
    };

    let servers = first
        .servers
        .iter()
        .enumerate()
        .map(|(idx, server)| Row {
            label: server.id.clone(),
            cells: sim
                .steps
                .iter()
                .map(|state| match state.servers.get(idx) {
                    Some(s) => {
                        let tone = match (s.valid, s.changed) {
                            (false, _) => Tone::Unsafe,
                            (true, true) => Tone::Highlight,
                            (true, false) => Tone::Neutral,
                        };
                        let note = if s.valid {
                            format!("emu {}", s.version.emulation)
                        } else {
                            format!("emu {} invalid", s.version.emulation)
                        };
                        Cell::new(tone, s.version.binary.to_string()).note(note).strong(s.changed)
                    }
                    None => Cell::default(),
                })
                .collect(),
        })
        .collect();
    groups.push(RowGroup { heading: Some("Servers: binary version, emulation version".to_owned()), rows: servers });

    for (ridx, resource) in first.resources.iter().enumerate() {
        let mut rows: Vec<Row> = first
            .servers
            .iter()
            .map(|server| Row {
                label: format!("{} writes", server.id),
                cells: sim
                    .steps
                    .iter()
                    .map(|state| {
                        let written = state
                            .resources
                            .get(ridx)
                            .and_then(|r| r.servers.iter().find(|x| x.api_server_id == server.id));
                        match written {
                            Some(x) => Cell::new(Tone::Served, short(&x.encoding_version)),
                            None => Cell::new(Tone::Empty, "-"),
                        }
                    })
                    .collect(),
            })
            .collect();
        rows.push(Row {
            label: "migration".to_owned(),
            cells: sim
                .steps
                .iter()
                .map(|state| match state.resources.get(ridx) {
                    Some(r) => {
                        let tone = match r.migration {
                            MigrationStatus::Started | MigrationStatus::Running | MigrationStatus::Completed => {
                                Tone::Highlight
                            }
                            MigrationStatus::Blocked | MigrationStatus::Aborted => Tone::Unsafe,
                            _ => Tone::Neutral,
                        };
                        Cell::new(tone, r.migration.as_str())
                    }
                    None => Cell::default(),
                })
                .collect(),
        });
        rows.push(Row {
            label: "persisted".to_owned(),
            cells: sim
                .steps
                .iter()
                .map(|state| match state.resources.get(ridx) {
                    Some(r) => {
                        let list: Vec<&str> =
                            r.storage_state.persisted.iter().map(|h| short(r.version_of_hash(h))).collect();
                        let text = if list.is_empty() { "-".to_owned() } else { list.join(",") };
                        if r.undecodable.is_empty() {
                            Cell::new(Tone::Neutral, text)
                        } else {
                            Cell::new(Tone::Unsafe, text).note("data loss").strong(true)
                        }
                    }
                    None => Cell::default(),
                })
                .collect(),
        });
        groups.push(RowGroup {
            heading: Some(format!("{} ({}): storage version written", resource.resource, resource.kind)),
            rows,
        });
    }

    let rollback = |label: &str, target: &dyn Fn(usize) -> Option<usize>| Row {
        label: label.to_owned(),
        cells: sim
            .steps
            .iter()
            .map(|state| {
                let Some(to) = target(state.step) else { return Cell::default() };
                match state.rollbacks.iter().find(|r| r.to_step == to) {
                    Some(r) if r.is_safe() => Cell::new(Tone::Safe, "safe"),
                    Some(_) => Cell::new(Tone::Unsafe, "unsafe").strong(true),
                    None => Cell::default(),
                }
            })
            .collect(),
    };
    groups.push(RowGroup {
        heading: Some("Rollback".to_owned()),
        rows: vec![
            rollback("to previous step", &|step| step.checked_sub(1)),
            rollback("to step 0", &|step| (step > 0).then_some(0)),
        ],
    });

    let names: Vec<String> = sim.steps.iter().map(|s| format!("step {}: {}", s.step, s.name)).collect();
    Timeline {
        id: "kompat-plan".to_owned(),
        title: format!("Upgrade plan {plan}"),
        description: format!(
            "One column per step ({}). For each server: its binary version and emulation version (changed at that \
             step: highlighted, heavy outline). For each resource: the storage version each server writes, the \
             migration status and the versions objects may be persisted in (data loss where a server cannot \
             decode them). Rollback: whether rolling the servers back to the previous step, and to step 0, is \
             safe.",
            names.join("; ")
        ),
        comments: Vec::new(),
        columns,
        band: None,
        marked_column: None,
        groups,
        legend: vec![
            LegendEntry {
                sample: Cell::new(Tone::Highlight, "binary").note("emulation").strong(true),
                meaning: "server changed at this step".to_owned(),
            },
            LegendEntry { sample: Cell::new(Tone::Safe, "safe"), meaning: "rollback safe".to_owned() },
            LegendEntry {
                sample: Cell::new(Tone::Unsafe, "unsafe").strong(true),
                meaning: "rollback unsafe".to_owned(),
            },
        ],
    }
}
