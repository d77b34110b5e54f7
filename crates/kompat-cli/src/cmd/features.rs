//! `kompat features`: every declared feature resolved at (emulation,
//! min-compatibility), with `--feature-gates` applied.

use std::process::ExitCode;
use std::sync::Arc;

use kompat_project::{Error, Result};
use kompat_runtime::FeatureGate;
use serde::Serialize;

use super::{load_project, resolve_versions, to_json, write_or_print};
use crate::cli::{FeaturesArgs, FeaturesFormat};

#[derive(Serialize)]
struct Row<'a> {
    name: &'a str,
    stage: &'static str,
    default: bool,
    locked: bool,
    enabled: bool,
}

pub fn run(args: FeaturesArgs) -> Result<ExitCode> {
    let project = load_project(&args.decls)?;
    let validated = project.decls.validate_strict()?;
    let versions = resolve_versions(project.config.as_ref(), &args.versions)?;
    let mut gate = FeatureGate::new(Arc::new(validated.set), versions.emulation, Some(versions.min_compatibility));
    for value in &args.feature_gates {
        let warnings = gate.set(value).map_err(|err| {
            // Kubernetes' message, then a hint for each unknown name close to
            // a known one.
            let mut error = Error::msg(err.to_string());
            let names = kompat_runtime::gate::parse_feature_gates(value).unwrap_or_default();
            let set = gate.feature_set();
            let hints =
                names.keys().filter_map(|name| Some(format!("`{name}`: did you mean `{}`?", set.suggest(name)?)));
            if let Some(diag) = error.diagnostics.first_mut() {
                diag.notes.extend(hints);
            }
            error
        })?;
        for warning in warnings {
            eprintln!("warning: {warning}");
        }
    }

    let mut rows: Vec<Row<'_>> = gate
        .feature_set()
        .features()
        .iter()
        .enumerate()
        .map(|(idx, feature)| {
            let state = gate.state(idx);
            Row {
                name: &feature.name,
                stage: state.spec.stage.name(),
                default: state.spec.default,
                locked: state.spec.lock_to_default,
                enabled: state.enabled,
            }
        })
        .collect();
    rows.sort_by(|a, b| a.name.cmp(b.name));

    let text = match args.format {
        FeaturesFormat::Json => to_json(&rows)?,
        FeaturesFormat::Table => table(&rows),
        FeaturesFormat::Svg => {
            let window = project.config.as_ref().map_or(kompat_runtime::WindowPolicy::DEFAULT, |c| c.window);
            svg(&gate, &versions, window)
        }
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
}

/// The gates' lifecycle timeline (`kompat_gen::svg`), the window of the
/// binary version (the emulation version without one) shaded, and the
/// column of the emulation version showing each gate as resolved there: at
/// the min-compatibility version given and with `--feature-gates` applied
/// (`set` where that changed the default).
fn svg(gate: &FeatureGate, versions: &super::Versions, window: kompat_runtime::WindowPolicy) -> String {
    use kompat_gen::svg::{gate_cell, gate_timeline, render_timeline, GateTimeline};
    let features = gate.feature_set().features();
    let gates: Vec<(&str, &[kompat_runtime::FeatureSpec])> =
        features.iter().map(|f| (f.name.as_str(), f.specs.as_slice())).collect();
    let binary = versions.binary.unwrap_or(versions.emulation);
    let mut timeline = gate_timeline(&GateTimeline {
        gates: &gates,
        binary,
        floor: window.floor_for(binary),
        marked: versions.emulation,
    });
    timeline.title = format!(
        "Feature gates at emulation version {} (min-compatibility {})",
        versions.emulation, versions.min_compatibility
    );
    timeline.description.push_str(&format!(
        " The underlined column, emulation version {}, shows each gate as resolved at min-compatibility version {}{}.",
        versions.emulation,
        versions.min_compatibility,
        " with the --feature-gates settings applied (set: the setting differs from the default)"
    ));
    if let Some(column) = timeline.marked_column {
        for row in timeline.groups.iter_mut().flat_map(|g| g.rows.iter_mut()) {
            let Some(idx) = features.iter().position(|f| f.name == row.label) else { continue };
            let state = gate.state(idx);
            let mut spec = state.spec;
            spec.default = state.enabled;
            let mut cell = gate_cell(&spec);
            if state.enabled != state.spec.default && cell.note.is_empty() {
                cell.note = "set".to_owned();
            }
            if let Some(slot) = row.cells.get_mut(column) {
                *slot = cell;
            }
        }
    }
    render_timeline(&timeline)
}

fn table(rows: &[Row<'_>]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.name.to_owned(),
                r.stage.to_owned(),
                r.default.to_string(),
                r.locked.to_string(),
                r.enabled.to_string(),
            ]
        })
        .collect();
    super::render_table(&["NAME", "STAGE", "DEFAULT", "LOCKED", "ENABLED"], &cells)
}
