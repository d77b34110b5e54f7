//! `kompat features`: every declared feature resolved at (emulation,
//! min-compatibility), with `--feature-gates` applied.

use std::process::ExitCode;
use std::sync::Arc;

use kompat_engine::FeatureGate;
use kompat_project::{Error, Result};
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
            let names = kompat_engine::gate::parse_feature_gates(value).unwrap_or_default();
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
    };
    write_or_print(args.output.as_deref(), text)?;
    Ok(ExitCode::SUCCESS)
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
